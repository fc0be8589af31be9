// The result of one load run, whichever generator produced it, and the
// generator-neutral figures the summaries are computed from. results.json
// keeps the generator's result as decoded, under its name ("bombardier" or
// "h2load" or "wrk"); Figures reads the same quantities from each.
package report

import (
	"strconv"

	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
	"github.com/vireo-go/vireo/_benchmarks/internal/h2load"
	"github.com/vireo-go/vireo/_benchmarks/internal/wrk"
)

// Load is the raw result of one load run: exactly one field is set.
type Load struct {
	Bombardier *bombardier.Result `json:"bombardier,omitempty"`
	H2load     *h2load.Result     `json:"h2load,omitempty"`
	Wrk        *wrk.Result        `json:"wrk,omitempty"`
}

// Figures are the numbers of one load run that the report uses.
type Figures struct {
	// Requests is every request that completed or failed; OK those
	// answered 2xx, NonSuccess those answered otherwise, Errors those
	// without an answer (refused, reset, timed out).
	Requests, OK, NonSuccess, Errors int64
	RequestsPerSec                   float64
	// BytesPerSec is the traffic per second as the generator counts it
	// (bombardier: read plus written; h2load: received).
	BytesPerSec      float64
	TimeTakenSeconds float64
	// Latencies in microseconds; percentiles by 50, 75, 90, 95, 99.
	LatencyMeanMicros, LatencyMaxMicros float64
	percentiles                         map[string]float64
}

// Percentile returns the latency percentile p in microseconds and whether
// the generator reported it.
func (f Figures) Percentile(p int) (float64, bool) {
	v, ok := f.percentiles[strconv.Itoa(p)]
	return v, ok
}

// Figures returns the run's numbers from whichever generator ran it.
func (l *Load) Figures() Figures {
	switch {
	case l.Bombardier != nil:
		b := l.Bombardier
		f := Figures{Requests: b.TotalRequests(), OK: b.Req2xx, NonSuccess: b.NonSuccess(), Errors: b.ErrorTotal(),
			RequestsPerSec: b.RPS.Mean, BytesPerSec: b.Throughput(), TimeTakenSeconds: b.TimeTakenSeconds,
			LatencyMeanMicros: b.Latency.Mean, LatencyMaxMicros: b.Latency.Max}
		if len(b.Latency.Percentiles) > 0 {
			f.percentiles = make(map[string]float64, len(b.Latency.Percentiles))
			for k, v := range b.Latency.Percentiles {
				f.percentiles[k] = float64(v)
			}
		}
		return f
	case l.H2load != nil:
		h := l.H2load
		return Figures{Requests: h.Status.S2xx + h.NonSuccess() + h.Errors(), OK: h.Status.S2xx, NonSuccess: h.NonSuccess(),
			Errors: h.Errors(), RequestsPerSec: h.RequestsPerSec, BytesPerSec: h.BytesPerSec, TimeTakenSeconds: h.TimeTakenSeconds,
			LatencyMeanMicros: h.RequestTime.MeanMicros, LatencyMaxMicros: h.RequestTime.MaxMicros, percentiles: h.Percentiles}
	case l.Wrk != nil:
		w := l.Wrk
		secs := float64(w.DurationUS) / 1e6
		f := Figures{Requests: w.Requests + w.SocketErrors(), OK: w.Requests - w.Errors.Status, NonSuccess: w.Errors.Status,
			Errors: w.SocketErrors(), RequestsPerSec: w.RequestsPerSecond(), TimeTakenSeconds: secs,
			LatencyMeanMicros: w.LatencyUS.Mean, LatencyMaxMicros: float64(w.LatencyUS.Max),
			percentiles: map[string]float64{"50": float64(w.LatencyUS.P50), "75": float64(w.LatencyUS.P75), "90": float64(w.LatencyUS.P90), "99": float64(w.LatencyUS.P99)}}
		if secs > 0 {
			f.BytesPerSec = float64(w.Bytes) / secs
		}
		return f
	}
	return Figures{}
}

// Generator names the load generator that produced l.
func (l *Load) Generator() string {
	switch {
	case l.Bombardier != nil:
		return "bombardier"
	case l.H2load != nil:
		return "h2load"
	case l.Wrk != nil:
		return "wrk"
	}
	return ""
}
