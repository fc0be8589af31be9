// Statistics over repeated runs: the median (robust against one disturbed
// run, unlike the mean) and per-round ratios to the baseline app.
//
// Ratios are taken per round because on shared machines throughput drifts by
// tens of percent within a minute: two apps measured back to back in the same
// round saw nearly the same machine, so their ratio is far more stable than
// the ratio of two medians measured minutes apart.
package report

import (
	"math"
	"sort"
)

// Median returns the median of xs (the mean of the two middle values for an
// even count) and NaN for an empty slice. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// SpreadOf returns the median, minimum and maximum of xs.
func SpreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	sp := Spread{Median: Median(xs), Min: xs[0], Max: xs[0]}
	for _, x := range xs[1:] {
		sp.Min = math.Min(sp.Min, x)
		sp.Max = math.Max(sp.Max, x)
	}
	return sp
}

// RoundRatios pairs the runs of app and base by round and returns, per round
// both were measured in, num/den where num is app's requests per second and
// den the base's. Rounds missing on either side, or with a zero denominator,
// are left out. It returns nil when no round pairs up.
func RoundRatios(app, base []Run) *Ratio {
	byRound := make(map[int]float64, len(base))
	for _, r := range base {
		byRound[r.Round] = r.Figures().RequestsPerSec
	}
	var per []float64
	for _, r := range app {
		b, ok := byRound[r.Round]
		if !ok || b == 0 {
			continue
		}
		per = append(per, r.Figures().RequestsPerSec/b)
	}
	if len(per) == 0 {
		return nil
	}
	sp := SpreadOf(per)
	return &Ratio{PerRound: per, Median: sp.Median, Min: sp.Min, Max: sp.Max}
}

func medianOf(runs []Run, f func(*Run) float64) float64 {
	xs := make([]float64, len(runs))
	for i := range runs {
		xs[i] = f(&runs[i])
	}
	return Median(xs)
}

// Summarize fills the Summary of every measured app of c from its raw runs,
// including the per-round ratios to c.Baseline when the baseline was measured,
// and the ratio of every instruction count to the baseline's.
func Summarize(c *Comparison) {
	summarizeInstructions(c)
	var base *App
	for i := range c.Apps {
		if c.Apps[i].Name == c.Baseline && c.Apps[i].Measured() {
			base = &c.Apps[i]
		}
	}
	for i := range c.Apps {
		a := &c.Apps[i]
		if !a.Measured() {
			a.Summary = nil
			continue
		}
		a.Summary = summarizeApp(a.Runs)
		if base != nil {
			a.Summary.RatioToBaseline = RoundRatios(a.Runs, base.Runs)
			a.Summary.BaselineRatioToThisApp = RoundRatios(base.Runs, a.Runs)
		}
	}
}

func summarizeApp(runs []Run) *Summary {
	rps := make([]float64, len(runs))
	s := &Summary{Runs: len(runs)}
	var cpu, reqs float64
	for i := range runs {
		r := &runs[i]
		f := r.Figures()
		rps[i] = f.RequestsPerSec
		s.NonSuccess += f.NonSuccess
		s.SocketErrors += f.Errors
		if r.ServerPeakRSSBytes > s.PeakRSSBytes {
			s.PeakRSSBytes = r.ServerPeakRSSBytes
		}
		if r.CgroupMemoryPeakBytes > s.CgroupMemoryPeakBytes {
			s.CgroupMemoryPeakBytes = r.CgroupMemoryPeakBytes
		}
		cpu += r.ServerCPUSeconds
		reqs += float64(f.Requests)
	}
	s.RequestsPerSec = SpreadOf(rps)
	s.ThroughputBytesPerSec = medianOf(runs, func(r *Run) float64 { return r.Figures().BytesPerSec })
	s.LatencyMeanMicros = medianOf(runs, func(r *Run) float64 { return r.Figures().LatencyMeanMicros })
	s.LatencyMaxMicros = medianOf(runs, func(r *Run) float64 { return r.Figures().LatencyMaxMicros })
	pct := func(p int) float64 {
		return medianOf(runs, func(r *Run) float64 {
			// Runs always pass -l, so a missing percentile is 0 rather
			// than NaN, which JSON cannot encode.
			v, _ := r.Figures().Percentile(p)
			return v
		})
	}
	s.LatencyP50Micros, s.LatencyP90Micros = pct(50), pct(90)
	s.LatencyP95Micros, s.LatencyP99Micros = pct(95), pct(99)
	s.TimeTakenSeconds = medianOf(runs, func(r *Run) float64 { return r.Figures().TimeTakenSeconds })
	s.TotalRequests = int64(medianOf(runs, func(r *Run) float64 { return float64(r.Figures().Requests) }))
	s.CPUSecondsPerRun = cpu / float64(len(runs))
	if reqs > 0 {
		s.CPUMicrosPerRequest = cpu / reqs * 1e6
	}
	return s
}

// summarizeInstructions sets the ratio of each counted app's instructions
// per request to the baseline's. Instruction counts do not drift with the
// machine, so one count per app suffices and the ratio needs no pairing by
// round.
func summarizeInstructions(c *Comparison) {
	var base *Instructions
	for i := range c.Apps {
		if c.Apps[i].Name == c.Baseline && c.Apps[i].InstructionsMeasured() {
			base = c.Apps[i].Instructions
		}
	}
	for i := range c.Apps {
		a := &c.Apps[i]
		if a.Instructions == nil {
			continue
		}
		a.Instructions.RatioToBaseline = nil
		if base != nil && base.PerRequest > 0 && a.InstructionsMeasured() {
			r := a.Instructions.PerRequest / base.PerRequest
			a.Instructions.RatioToBaseline = &r
		}
	}
}
