// Start-up and footprint reports (`bench footprint`): per app the cold start
// (exec to the first successful response of the comparison's request, and to
// the readiness lines, over several fresh starts), what is deployed (and the
// runtime it needs, stated apart), the resident memory right after start and
// after the warm-up, and the latency when the server is not saturated (as
// many connections as server CPUs, and a fixed request rate).
//
// RESULTS.md has per comparison a "Start-up and footprint" table, a
// "Latency when not saturated" table with p50/p90/p99/max of both runs, and
// a chart of the cold starts (median with min-max bars).
package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/bombardier"
)

// MeasureFootprint marks a start-up and footprint report (Settings.Measure).
const MeasureFootprint = "footprint"

// FootprintSettings describe how a footprint report measured.
type FootprintSettings struct {
	// Starts is the number of fresh starts per app whose cold start is
	// timed.
	Starts int `json:"starts"`
	// PollInterval is the pause between two attempts of the request while
	// the app starts: the resolution of the cold start.
	PollInterval string `json:"pollInterval"`
	// Warmup is the load every app gets before the after-warm-up figures:
	// bombardier with the comparison's connections.
	Warmup string `json:"warmup"`
	// Duration is the length of each latency run.
	Duration string `json:"duration"`
	// LowConnections is the -c of the low-concurrency run: the number of
	// server CPUs.
	LowConnections int `json:"lowConnections"`
	// RateConnections is the -c of the fixed-rate run.
	RateConnections int `json:"rateConnections"`
	// RateNote says how each comparison's fixed rate was chosen.
	RateNote string `json:"rateNote"`
	// NodeClusterWorkers is WORKERS of the extra cluster row of each Node
	// app (the plain row runs one process).
	NodeClusterWorkers int `json:"nodeClusterWorkers"`
}

// Footprint is what `bench footprint` measured of one app.
type Footprint struct {
	// Deploy is what must be shipped to run the app.
	Deploy Deploy `json:"deploy"`
	// ColdStart is the time from exec to the first successful response.
	ColdStart ColdStart `json:"coldStart"`
	// RSSAfterStartBytes is the resident memory of the app's processes
	// right after its first successful response, per start.
	RSSAfterStartBytes []int64 `json:"rssAfterStartBytes"`
	// RSSAfterWarmupBytes is the resident memory once the warm-up load
	// ended; PeakRSSWarmupBytes its peak during the warm-up.
	RSSAfterWarmupBytes int64 `json:"rssAfterWarmupBytes,omitempty"`
	PeakRSSWarmupBytes  int64 `json:"peakRSSWarmupBytes,omitempty"`
	// WarmupRequestsPerSec is the warm-up's request rate (the comparison's
	// connections, saturating): the estimate of the app's throughput from
	// which the fixed rate is derived.
	WarmupRequestsPerSec float64 `json:"warmupRequestsPerSec,omitempty"`
	// LowConcurrency is the run with as many connections as server CPUs.
	LowConcurrency *LatencyRun `json:"lowConcurrency,omitempty"`
	// FixedRate is the run at the comparison's fixed rate.
	FixedRate *LatencyRun `json:"fixedRate,omitempty"`
}

// Deploy is the size of what is deployed, and of the runtime it needs when
// that is installed separately.
type Deploy struct {
	// What names the deployed files ("Go binary", "publish folder", ...).
	What  string `json:"what"`
	Bytes int64  `json:"bytes"`
	Files int    `json:"files"`
	// Runtime names what must be installed beside it ("" for nothing):
	// the shared frameworks of a framework-dependent .NET app, node.
	Runtime      string `json:"runtime,omitempty"`
	RuntimeBytes int64  `json:"runtimeBytes,omitempty"`
}

// ColdStart holds the per-start times, in milliseconds from exec.
type ColdStart struct {
	// FirstResponseMillis is the time to the first response with the
	// expected status and body, per start.
	FirstResponseMillis []float64 `json:"firstResponseMillis"`
	// ReadyMillis is the time until both readiness lines were printed.
	ReadyMillis []float64 `json:"readyMillis"`
	// FirstResponse and Ready are their medians and ranges.
	FirstResponse Spread `json:"firstResponse"`
	Ready         Spread `json:"ready"`
}

// LatencyRun is one unsaturated latency run.
type LatencyRun struct {
	Connections int    `json:"connections"`
	Rate        int    `json:"rate,omitempty"` // bombardier -r, 0 for none
	Duration    string `json:"duration"`
	// Bombardier is the raw result; the fields below are taken from it.
	Bombardier     bombardier.Result `json:"bombardier"`
	RequestsPerSec float64           `json:"requestsPerSec"`
	P50Micros      float64           `json:"p50Micros"`
	P90Micros      float64           `json:"p90Micros"`
	P99Micros      float64           `json:"p99Micros"`
	MaxMicros      float64           `json:"maxMicros"`
}

// NewLatencyRun summarizes a bombardier result of a latency run.
func NewLatencyRun(connections, rate int, d time.Duration, r bombardier.Result) *LatencyRun {
	lr := &LatencyRun{Connections: connections, Rate: rate, Duration: d.String(), Bombardier: r,
		RequestsPerSec: r.RPS.Mean, MaxMicros: r.Latency.Max}
	lr.P50Micros, _ = r.Percentile(50)
	lr.P90Micros, _ = r.Percentile(90)
	lr.P99Micros, _ = r.Percentile(99)
	return lr
}

// Summarize fills the medians and ranges of the cold starts.
func (f *Footprint) Summarize() {
	f.ColdStart.FirstResponse = SpreadOf(f.ColdStart.FirstResponseMillis)
	f.ColdStart.Ready = SpreadOf(f.ColdStart.ReadyMillis)
}

// FootprintMeasured reports whether the app has cold-start figures and was
// neither skipped nor failed.
func (a *App) FootprintMeasured() bool {
	return a.Skipped == "" && a.Failed == "" && a.Footprint != nil && len(a.Footprint.ColdStart.FirstResponseMillis) > 0
}

// footprintHeader and latencyHeader are the columns of the two tables of
// a comparison; their second cells name the tables for the checks.
var (
	footprintHeader = []string{"Name", "Cold start (median, min–max)", "To readiness lines", "Deploy size",
		"Runtime installed apart", "RSS after start", "RSS after warm-up", "p50 / p99 at -c CPUs", "p50 / p99 at fixed rate"}
	latencyHeader = []string{"Name", "Latency when not saturated", "p50", "p90", "p99", "max", "req/s"}
)

// footprintExplained opens every footprint report.
const footprintExplained = "Cold start is the time from exec of the server (pinned with taskset as in the throughput runs) " +
	"to its first response with the expected status and body, polled by the runner; shown as median (min–max) over " +
	"the fresh starts. To readiness lines is the time until the app printed both readiness lines. Deploy size is what " +
	"is shipped: the Go binary as `go build` leaves it; the .NET publish folder without debug symbols (*.pdb, *.dbg), " +
	"whose shared framework is installed apart unless the app is Native AOT; the Node app with its node_modules, node " +
	"installed apart. RSS is the resident memory of all the app's processes, right after its first response (median " +
	"over the starts) and after the warm-up load. The latency runs measure a warm server that is not saturated: one " +
	"with as many connections as server CPUs (as Nuclio's `wrk -c <cores>`), and one at a fixed rate (bombardier -r) " +
	"of about half the slowest app's throughput with the comparison's connections. bombardier paces -r in 10 ms steps " +
	"(each releases rate/100 requests at once) and times a request from its sending; with many connections, requests " +
	"that fall due while the server stalls still go out on idle connections and are charged the stall.\n\n"

// writeFootprintMarkdown writes the body of a footprint report.
func writeFootprintMarkdown(b *strings.Builder, res *Results, chartFile map[string]string) {
	b.WriteString("# Vireo benchmark results: start-up and footprint\n\n")
	fmt.Fprintf(b, "Measured from %s to %s with:\n\n", res.StartedAt.UTC().Format(time.RFC3339), res.FinishedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(b, "```sh\n%s\n```\n\n", res.Command)
	m, v, s := res.Machine, res.Versions, res.Settings
	fmt.Fprintf(b, "- Machine: %s, %d cores, %s, kernel %s, %s, %s RAM\n",
		orUnknown(m.CPUModel), m.Cores, orUnknown(m.OS), orUnknown(m.Kernel), m.Arch, formatBytes(m.MemTotalBytes))
	dotnet := orNotFound(v.Dotnet)
	if v.Dotnet != "" {
		dotnet = "SDK " + v.Dotnet + ", ASP.NET Core " + orUnknown(v.AspNetCore)
	}
	fmt.Fprintf(b, "- Versions: Go %s; .NET %s; Node.js %s; Express %s; bombardier %s\n",
		orNotFound(v.Go), dotnet, orNotFound(v.Node), orNotFound(v.Express), orNotFound(v.Bombardier))
	pin := fmt.Sprintf("server on CPUs %s, bombardier and the runner's polling on CPUs %s (taskset)", s.ServerCPUs, s.LoadCPUs)
	if !s.Pinned {
		pin = "not pinned: " + s.PinNote
	}
	fmt.Fprintf(b, "- CPUs: %s\n", pin)
	if f := s.Footprint; f != nil {
		fmt.Fprintf(b, "- Cold start: %d fresh starts per app, the request polled every %s\n", f.Starts, f.PollInterval)
		fmt.Fprintf(b, "- Warm-up: %s of bombardier with the comparison's connections; latency runs of %s each: -c %d, and -c %d at a fixed rate (%s)\n",
			f.Warmup, f.Duration, f.LowConnections, f.RateConnections, f.RateNote)
		fmt.Fprintf(b, "- Node apps: one process (WORKERS=1), and a cluster row with WORKERS=%d\n", f.NodeClusterWorkers)
	}
	b.WriteString("\n")
	b.WriteString(footprintExplained)
	for i := range res.Comparisons {
		c := &res.Comparisons[i]
		writeFootprintComparison(b, c, chartFile[c.Key()])
	}
}

func writeFootprintComparison(b *strings.Builder, c *Comparison, chart string) {
	fmt.Fprintf(b, "## %s: %s %s\n\n", c.title(), c.Method, c.Path)
	rate := 0
	for i := range c.Apps {
		if fp := c.Apps[i].Footprint; fp != nil && fp.FixedRate != nil {
			rate = fp.FixedRate.Rate
		}
	}
	if rate > 0 {
		fmt.Fprintf(b, "Start-up and footprint; fixed rate %d req/s.\n\n", rate)
	} else {
		b.WriteString("Start-up and footprint.\n\n")
	}
	writeTable(b, footprintHeader, c, footprintRow)
	b.WriteString("\n")
	writeTable(b, latencyHeader, c, latencyRows)
	b.WriteString("\n")
	if chart != "" {
		fmt.Fprintf(b, "![%s: cold start](%s)\n\n", c.title(), chart)
	}
}

// writeTable writes a table with header and the rows rowsOf returns for
// each app of c.
func writeTable(b *strings.Builder, header []string, c *Comparison, rowsOf func(*App) [][]string) {
	writeRow(b, header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
		if i > 0 {
			sep[i] = "---:"
		}
	}
	writeRow(b, sep)
	for i := range c.Apps {
		for _, row := range rowsOf(&c.Apps[i]) {
			writeRow(b, row)
		}
	}
}

// notMeasured returns the row of an app without figures, or nil.
func notMeasured(a *App, width int) []string {
	row := make([]string, width)
	row[0] = Label(a.Name)
	for i := 1; i < width; i++ {
		row[i] = "–"
	}
	switch {
	case a.Skipped != "":
		row[1] = "skipped: " + a.Skipped
	case a.Failed != "":
		row[1] = "failed: " + a.Failed
	case !a.FootprintMeasured():
		row[1] = "not measured"
	default:
		return nil
	}
	return row
}

// footprintRow returns the one row of a in the start-up and footprint table.
func footprintRow(a *App) [][]string {
	if row := notMeasured(a, len(footprintHeader)); row != nil {
		return [][]string{row}
	}
	f := a.Footprint
	cs := f.ColdStart
	row := []string{Label(a.Name),
		fmt.Sprintf("%s (%s–%s)", formatMillis(cs.FirstResponse.Median), formatMillis(cs.FirstResponse.Min), formatMillis(cs.FirstResponse.Max)),
		formatMillis(cs.Ready.Median),
		formatBytes(f.Deploy.Bytes) + " (" + f.Deploy.What + ")",
		"none", formatBytes(MedianBytes(f.RSSAfterStartBytes)), "–", "–", "–"}
	if f.Deploy.Runtime != "" {
		row[4] = f.Deploy.Runtime
		if f.Deploy.RuntimeBytes > 0 {
			row[4] += ", " + formatBytes(f.Deploy.RuntimeBytes)
		}
	}
	if f.RSSAfterWarmupBytes > 0 {
		row[6] = formatBytes(f.RSSAfterWarmupBytes)
	}
	if r := f.LowConcurrency; r != nil {
		row[7] = formatMicros(r.P50Micros) + " / " + formatMicros(r.P99Micros)
	}
	if r := f.FixedRate; r != nil {
		row[8] = formatMicros(r.P50Micros) + " / " + formatMicros(r.P99Micros)
	}
	return [][]string{row}
}

// latencyRows returns a's rows in the latency table: one per run.
func latencyRows(a *App) [][]string {
	if row := notMeasured(a, len(latencyHeader)); row != nil {
		return [][]string{row}
	}
	var rows [][]string
	for _, r := range []*LatencyRun{a.Footprint.LowConcurrency, a.Footprint.FixedRate} {
		if r == nil {
			continue
		}
		what := fmt.Sprintf("-c %d, %s", r.Connections, r.Duration)
		if r.Rate > 0 {
			what = fmt.Sprintf("-c %d -r %d, %s", r.Connections, r.Rate, r.Duration)
		}
		if ns, e := r.Bombardier.NonSuccess(), r.Bombardier.ErrorTotal(); ns > 0 || e > 0 {
			what += fmt.Sprintf(" (%d non-2xx, %d errors)", ns, e)
		}
		rows = append(rows, []string{Label(a.Name), what, formatMicros(r.P50Micros), formatMicros(r.P90Micros),
			formatMicros(r.P99Micros), formatMicros(r.MaxMicros), fmt.Sprintf("%.0f", r.RequestsPerSec)})
	}
	if len(rows) == 0 {
		row := notMeasured(&App{Name: a.Name}, len(latencyHeader))
		row[1] = "no latency run"
		rows = append(rows, row)
	}
	return rows
}

// MedianBytes is the Median of byte counts, truncated to whole bytes.
func MedianBytes(xs []int64) int64 {
	fs := make([]float64, len(xs))
	for i, x := range xs {
		fs[i] = float64(x)
	}
	return int64(Median(fs))
}

// formatMillis formats milliseconds with a precision that suits the size.
func formatMillis(ms float64) string {
	switch {
	case ms >= 1000:
		return fmt.Sprintf("%.2fs", ms/1000)
	case ms >= 100:
		return fmt.Sprintf("%.0fms", ms)
	default:
		return fmt.Sprintf("%.1fms", ms)
	}
}

// checkFootprintMarkdown checks RESULTS.md of a footprint report: per
// comparison the two tables, every app in both, skipped and failed apps
// with their reason, measured ones with figures.
func checkFootprintMarkdown(md string, res *Results) error {
	tables := parseTables(md)
	if len(tables) != 2*len(res.Comparisons) {
		return fmt.Errorf("report: RESULTS.md has %d tables, want two per comparison (%d)", len(tables), 2*len(res.Comparisons))
	}
	for i, c := range res.Comparisons {
		for k, header := range [][]string{footprintHeader, latencyHeader} {
			t := tables[2*i+k]
			if !strings.Contains(t.heading, c.Name) || !strings.Contains(t.heading, c.Path) {
				return fmt.Errorf("report: table %d is under %q, want comparison %s", 2*i+k, t.heading, c.Key())
			}
			if len(t.header) != len(header) || t.header[1] != header[1] {
				return fmt.Errorf("report: %s: header %q, want %q", c.Key(), t.header, header)
			}
			next := 0
			for j := range c.Apps {
				a := &c.Apps[j]
				if next >= len(t.rows) || t.rows[next][0] != Label(a.Name) {
					return fmt.Errorf("report: %s: no row for %s in the %q table", c.Key(), a.Name, header[1])
				}
				for next < len(t.rows) && t.rows[next][0] == Label(a.Name) {
					row := t.rows[next]
					next++
					if len(row) != len(header) {
						return fmt.Errorf("report: %s: row %q has %d cells, want %d", c.Key(), a.Name, len(row), len(header))
					}
					switch {
					case a.Skipped != "" && !strings.HasPrefix(row[1], "skipped: "):
						return fmt.Errorf("report: %s: skipped app %s shows %q", c.Key(), a.Name, row[1])
					case a.Failed != "" && !strings.HasPrefix(row[1], "failed: "):
						return fmt.Errorf("report: %s: failed app %s shows %q", c.Key(), a.Name, row[1])
					case a.FootprintMeasured() && k == 0 && (row[1] == "–" || row[3] == "–" || row[5] == "–"):
						return fmt.Errorf("report: %s: measured app %s has no figures: %q", c.Key(), a.Name, row)
					}
				}
			}
			if next != len(t.rows) {
				return fmt.Errorf("report: %s: %d rows more than apps in the %q table", c.Key(), len(t.rows)-next, header[1])
			}
		}
	}
	return nil
}
