// Package load runs the load generators of the suite behind one interface:
// bombardier (HTTP/1.1, built from this module so go.sum pins its version),
// h2load (HTTP/2 and HTTP/1.1 over TLS, Debian's nghttp2-client) and wrk
// (HTTP/1.1 with pipelining, TechEmpower's; Debian's wrk). Each
// runs pinned to the load CPUs in a process group of its own, and its
// result is returned as decoded (report.Load); what a failed request means
// is the caller's decision.
package load

import (
	"context"
	"fmt"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// Names of the generators, as expected/endpoints.json's loads give them.
const (
	BombardierName = "bombardier"
	H2loadName     = "h2load"
	WrkName        = "wrk"
)

// Generator is a load generator.
type Generator interface {
	// Name is the generator's name in endpoints.json.
	Name() string
	// Prepare builds or finds the generator's program and returns its
	// version; an error says what is missing and how to get it.
	Prepare(ctx context.Context, root string) (version string, err error)
	// Run loads t with o and returns the generator's result.
	Run(ctx context.Context, t Target, o Options) (report.Load, error)
}

// Target is what a run loads.
type Target struct {
	// URL is the request's full URL (http:// or https://).
	URL string
	// Headers are sent with every request ("Key: Value").
	Headers []string
	// Protocol is the protocol the run must use: "h2", "http/1.1", or ""
	// for the generator's default (bombardier: HTTP/1.1 without TLS).
	Protocol string
	// Method and Body, when set, are the requests' method and body (the
	// json comparison's POST); the default is GET without a body.
	Method string
	Body   []byte
}

// Options are the load of one run.
type Options struct {
	Connections int
	// Streams is the concurrent streams per HTTP/2 connection (h2load's
	// -m; 1 for HTTP/1.1). bombardier has none.
	Streams int
	// Requests, when positive, is the number of requests; else Duration.
	Requests int64
	Duration time.Duration
	// Timeout is the per-request timeout (bombardier only).
	Timeout time.Duration
	// Rate, when positive, limits the requests per second (bombardier
	// only).
	Rate int
	// Pipeline is the HTTP/1.1 requests sent per write (wrk only; 0 or 1:
	// none).
	Pipeline int
}

// New returns the generator called name, whose runs are prefixed with pin
// (taskset to the load CPUs; empty when not pinned).
func New(name string, pin []string) (Generator, error) {
	switch name {
	case BombardierName, "":
		return &Bombardier{pin: pin}, nil
	case H2loadName:
		return &H2load{pin: pin}, nil
	case WrkName:
		return &Wrk{pin: pin}, nil
	}
	return nil, fmt.Errorf("load: unknown generator %q (have %s, %s, %s)", name, BombardierName, H2loadName, WrkName)
}
