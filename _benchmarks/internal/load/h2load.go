// h2load, from Debian's nghttp2-client (the runner never installs it; the
// tests do, through internal/testtool). One thread, so it stays on the one
// load CPU of a 2-core machine; --h1 for the HTTP/1.1 runs over TLS, so
// both protocols are loaded by the same client. Its per-request log goes to
// a temporary file from which the percentiles are taken.
package load

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/h2load"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
)

// H2loadMissing is the reason given where h2load is not installed.
const H2loadMissing = "h2load not found (Debian: apt-get install -y nghttp2-client)"

// connectTime is the unmeasured start of every timed h2load run, in which
// its clients connect (TLS handshakes included) before the measured
// duration begins. Without it, on a slow server, clients that connect
// after the duration ended are never stopped (h2load 1.52 then runs
// forever), and the measured window would include the handshakes.
const connectTime = 2 * time.Second

// stuckAfter is how long past its duration a timed h2load run is given
// before it is ended as stuck.
const stuckAfter = 30 * time.Second

// H2load runs h2load. A connection that receives nothing for the run's
// Timeout is closed by h2load (-N), as bombardier fails a request after
// it.
type H2load struct {
	pin []string
	bin string // set by Prepare
}

// Name is "h2load".
func (*H2load) Name() string { return H2loadName }

// Prepare finds h2load and returns its version ("1.52.0").
func (h *H2load) Prepare(ctx context.Context, _ string) (string, error) {
	bin, err := exec.LookPath("h2load")
	if err != nil {
		return "", errors.New(H2loadMissing)
	}
	h.bin = bin
	v := stack.ToolVersion(ctx, bin, "--version") // "h2load nghttp2/1.52.0"
	if _, after, ok := strings.Cut(v, "nghttp2/"); ok {
		v = after
	}
	return v, nil
}

// Run runs h2load and decodes its report and per-request log. A run whose
// negotiated protocol is not t.Protocol is an error: its figures would
// measure another protocol than the comparison's.
func (h *H2load) Run(ctx context.Context, t Target, o Options) (report.Load, error) {
	if t.Body != nil || t.Method != "" && t.Method != "GET" {
		return report.Load{}, fmt.Errorf("load: the h2load runs send GET requests without a body, not %s with one", t.Method)
	}
	if h.bin == "" {
		return report.Load{}, errors.New("load: h2load was not prepared")
	}
	log, err := os.CreateTemp("", "vireo-h2load-*.log")
	if err != nil {
		return report.Load{}, err
	}
	log.Close()
	defer os.Remove(log.Name())
	streams := max(o.Streams, 1)
	args, err := h2load.Options{URL: t.URL, Connections: o.Connections, Streams: streams, Requests: o.Requests,
		Duration: o.Duration, WarmUp: connectTime, Inactivity: o.Timeout, HTTP1: t.Protocol == "http/1.1", Headers: t.Headers, LogFile: log.Name()}.Args()
	if err != nil {
		return report.Load{}, err
	}
	if o.Duration > 0 {
		// A timed run that outlives its duration by this much is stuck
		// (h2load waiting on a connection the server never served).
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, connectTime+o.Duration+stuckAfter)
		defer cancel()
	}
	stdout, stderr, err := run(ctx, h.pin, h.bin, args)
	if err != nil {
		return report.Load{}, fmt.Errorf("h2load %s: %w\n%s%s", strings.Join(args, " "), err, proc.Tail(stdout, 2000), proc.Tail(stderr, 2000))
	}
	logData, err := os.ReadFile(log.Name())
	if err != nil {
		return report.Load{}, err
	}
	res, err := h2load.Parse([]byte(stdout), logData)
	if err != nil {
		return report.Load{}, fmt.Errorf("%w\nstderr: %s", err, proc.Tail(stderr, 2000))
	}
	if t.Protocol != "" && res.Protocol != t.Protocol && res.Status.S2xx > 0 {
		return report.Load{}, fmt.Errorf("h2load negotiated %q, want %q\n%s", res.Protocol, t.Protocol, proc.Tail(stdout, 2000))
	}
	return report.Load{H2load: res}, nil
}
