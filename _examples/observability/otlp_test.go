// The spans the example exports over OTLP/HTTP, received by a collector
// stand-in on loopback that decodes the protobuf requests, when it is
// called by a real otelhttp client with a traceparent.
package main

import (
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// collector receives OTLP/HTTP trace exports.
type collector struct {
	mu    sync.Mutex
	spans []*tracepb.Span
	attrs map[string]string // the resource's string attributes
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "not a trace export", http.StatusNotFound)
		return
	}
	b, err := io.ReadAll(r.Body)
	var req coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(b, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, kv := range rs.GetResource().GetAttributes() {
			c.attrs[kv.Key] = kv.GetValue().GetStringValue()
		}
		for _, ss := range rs.ScopeSpans {
			c.spans = append(c.spans, ss.Spans...)
		}
	}
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

func TestSpanFromOtelhttpClientReachesCollector(t *testing.T) {
	col := &collector{attrs: map[string]string{}}
	cs := httptest.NewServer(col)
	defer cs.Close()
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", cs.URL)
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	t.Setenv("OTEL_SERVICE_NAME", "users-api")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "50")

	s, base := serve(t)

	// The caller: an otelhttp client whose span is the parent.
	callerSpans := tracetest.NewInMemoryExporter()
	callerTP := sdktrace.NewTracerProvider(sdktrace.WithSyncer(callerSpans))
	defer callerTP.Shutdown(context.Background())
	client := &http.Client{Transport: otelhttp.NewTransport(http.DefaultTransport,
		otelhttp.WithTracerProvider(callerTP), otelhttp.WithPropagators(propagation.TraceContext{}))}
	ctx, root := callerTP.Tracer("caller").Start(context.Background(), "caller")
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/users/42", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	root.End()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// The client span otelhttp made is the server span's parent.
	var clientSpan sdktrace.ReadOnlySpan
	for _, sp := range callerSpans.GetSpans().Snapshots() {
		if sp.Parent().SpanID() == root.SpanContext().SpanID() {
			clientSpan = sp
		}
	}
	if clientSpan == nil {
		t.Fatal("otelhttp made no client span")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.app.Shutdown(ctx); err != nil { // flushes the batch
		t.Fatal(err)
	}
	col.mu.Lock()
	defer col.mu.Unlock()
	if len(col.spans) != 1 {
		t.Fatalf("the collector got %d spans, want 1: %v", len(col.spans), col.spans)
	}
	sp := col.spans[0]
	traceID, parentID := hex.EncodeToString(sp.TraceId), hex.EncodeToString(sp.ParentSpanId)
	if sp.Name != "GET /users/{id}" || sp.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("span %q kind %v", sp.Name, sp.Kind)
	}
	if traceID != root.SpanContext().TraceID().String() || parentID != clientSpan.SpanContext().SpanID().String() {
		t.Errorf("span trace %s parent %s, want trace %s parent %s (the otelhttp client span)",
			traceID, parentID, root.SpanContext().TraceID(), clientSpan.SpanContext().SpanID())
	}
	attrs := map[string]string{}
	for _, kv := range sp.Attributes {
		attrs[kv.Key] = kv.GetValue().GetStringValue()
	}
	if attrs["http.route"] != "/users/{id}" || attrs["url.path"] != "/users/42" {
		t.Errorf("span attributes %v", attrs)
	}
	if col.attrs["service.name"] != "users-api" {
		t.Errorf("resource %v, want service.name from OTEL_SERVICE_NAME", col.attrs)
	}
}
