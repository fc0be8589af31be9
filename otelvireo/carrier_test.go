package otelvireo

import (
	"net/http"
	"slices"
	"testing"
)

func TestHeaderCarrier(t *testing.T) {
	h := http.Header{}
	h.Set("Traceparent", "tp")
	h.Set("Tracestate", "ts")
	h.Set("Baggage", "bg")
	h.Set("Uber-Trace-Id", "jaeger")
	h.Set("X-B3-Traceid", "b3")
	c := headerCarrier(h)
	for key, want := range map[string]string{
		"traceparent": "tp", "tracestate": "ts", "baggage": "bg", "uber-trace-id": "jaeger",
		"x-b3-traceid": "b3", "Traceparent": "tp", "missing": "",
	} {
		if got := c.Get(key); got != want {
			t.Errorf("Get(%q) = %q, want %q", key, got, want)
		}
	}
	c.Set("b3", "1")
	if h.Get("B3") != "1" {
		t.Error("Set did not canonicalize")
	}
	keys := c.Keys()
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"B3", "Baggage", "Traceparent", "Tracestate", "Uber-Trace-Id", "X-B3-Traceid"}) {
		t.Errorf("Keys() = %v", keys)
	}
}
