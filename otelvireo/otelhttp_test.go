// Propagation from a real otelhttp client over loopback: the server span is
// the child of the client span, in the same trace, and an outgoing otelhttp
// call made by the handler with the request's context continues it.

package otelvireo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vireo-go/vireo/core"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

func TestOtelhttpClientPropagation(t *testing.T) {
	r := newRig(t)
	downstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Write([]byte(req.Header.Get("traceparent")))
	}))
	defer downstream.Close()
	outgoing := &http.Client{Transport: otelhttp.NewTransport(http.DefaultTransport,
		otelhttp.WithTracerProvider(r.tp), otelhttp.WithPropagators(propagator))}
	r.app.Get("/users/{id}", func(ctx core.Context) {
		req, _ := http.NewRequestWithContext(ctx.Request().Context(), "GET", downstream.URL, nil)
		resp, err := outgoing.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		ctx.Write(b)
	})
	srv := httptest.NewServer(r.app)
	defer srv.Close()

	clientTP := sdktrace.NewTracerProvider(sdktrace.WithSyncer(r.spans))
	defer clientTP.Shutdown(context.Background())
	client := &http.Client{Transport: otelhttp.NewTransport(http.DefaultTransport,
		otelhttp.WithTracerProvider(clientTP), otelhttp.WithPropagators(propagator))}
	ctx, parent := clientTP.Tracer("test").Start(context.Background(), "caller")
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/users/42", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	downstreamTraceparent, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	parent.End()

	var server, clientSpan, outgoingSpan sdktrace.ReadOnlySpan
	for _, s := range r.spans.GetSpans().Snapshots() {
		switch {
		case s.SpanKind() == trace.SpanKindServer:
			server = s
		case s.SpanKind() == trace.SpanKindClient && s.Parent().SpanID() == parent.SpanContext().SpanID():
			clientSpan = s
		case s.SpanKind() == trace.SpanKindClient:
			outgoingSpan = s
		}
	}
	if server == nil || clientSpan == nil || outgoingSpan == nil {
		t.Fatalf("spans: server %v, client %v, outgoing %v", server, clientSpan, outgoingSpan)
	}
	if server.Name() != "GET /users/{id}" {
		t.Errorf("server span %q", server.Name())
	}
	if server.Parent().SpanID() != clientSpan.SpanContext().SpanID() || !server.Parent().IsRemote() ||
		server.SpanContext().TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("server span parent %s (remote %v) trace %s, want the client span %s in trace %s",
			server.Parent().SpanID(), server.Parent().IsRemote(), server.SpanContext().TraceID(),
			clientSpan.SpanContext().SpanID(), parent.SpanContext().TraceID())
	}
	if outgoingSpan.Parent().SpanID() != server.SpanContext().SpanID() {
		t.Errorf("the handler's outgoing call has parent %s, want the server span %s", outgoingSpan.Parent().SpanID(), server.SpanContext().SpanID())
	}
	want := "00-" + parent.SpanContext().TraceID().String() + "-" + outgoingSpan.SpanContext().SpanID().String() + "-01"
	if string(downstreamTraceparent) != want {
		t.Errorf("downstream got traceparent %q, want %q", downstreamTraceparent, want)
	}
}
