// wrk, from Debian's package wrk (the runner never installs it; the tests
// do, through internal/testtool): TechEmpower's load generator, with the
// suite's script (scripts/tfb-wrk.lua) that pipelines Options.Pipeline
// requests per write and reports the totals and percentiles as JSON. Its
// threads are as many as the connections, up to the load CPUs of its pin.
package load

import (
	"context"
	"errors"

	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/wrk"
)

// Wrk runs wrk.
type Wrk struct {
	pin  []string
	bin  string // set by Prepare
	root string
}

// Name is "wrk".
func (*Wrk) Name() string { return WrkName }

// Prepare finds wrk and returns its version ("debian/4.1.0-3+b2").
func (w *Wrk) Prepare(_ context.Context, root string) (string, error) {
	bin, err := wrk.Find()
	if err != nil {
		return "", err
	}
	w.bin, w.root = bin, root
	return wrk.Version(bin), nil
}

// cpus is the number of CPUs of the pin (taskset -c <list>), 1 unpinned.
func (w *Wrk) cpus() int {
	if len(w.pin) == 3 {
		if cpus, err := proc.ParseCPUList(w.pin[2]); err == nil && len(cpus) > 0 {
			return len(cpus)
		}
	}
	return 1
}

// Run runs wrk for o.Duration (wrk has no request count) and returns its
// summary.
func (w *Wrk) Run(ctx context.Context, t Target, o Options) (report.Load, error) {
	if w.bin == "" {
		return report.Load{}, errors.New("load: wrk was not prepared")
	}
	if o.Duration <= 0 {
		return report.Load{}, errors.New("load: wrk runs for a duration, not a request count")
	}
	if t.Protocol != "" && t.Protocol != "http/1.1" {
		return report.Load{}, errors.New("load: wrk speaks HTTP/1.1 only")
	}
	r, err := wrk.Run(ctx, w.pin, w.bin, w.root, t.URL, wrk.Options{
		Connections: o.Connections, CPUs: w.cpus(), Duration: o.Duration,
		Timeout: o.Timeout, Pipeline: o.Pipeline, Headers: t.Headers,
	})
	if err != nil {
		return report.Load{}, err
	}
	return report.Load{Wrk: r}, nil
}
