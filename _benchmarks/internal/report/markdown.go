// RESULTS.md writer of a throughput report (instructions.go writes that of
// an instructions report): per comparison the table of the original article (Name,
// Throughput, Reqs/sec, Latency, Time To Complete, Total Requests) extended
// with p99 latency, peak RSS, CPU time, lines of code and the baseline's
// per-round ratio to the row, followed by the bar chart. Skipped and failed
// apps keep their row with the reason instead of numbers.
package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// QuickBanner is the first line of every report of a -quick run.
const QuickBanner = "**A quick smoke test: not to be cited.** (`-quick`: one short run per app, so every " +
	"range is degenerate; it checks that the pipeline works, not how fast anything is.)"

// tableHeader is the column list of every comparison table; the last
// column's header names the baseline (row ÷ <baseline>).
var tableHeader = []string{
	"Name", "Throughput", "Reqs/sec", "Latency (ms)", "Time To Complete", "Total Requests",
	"p99 (ms)", "Peak RSS", "CPU s/run", "Lines of code", "Row ÷ baseline (req/s)",
}

// WriteMarkdown writes RESULTS.md for res. chartFile maps a comparison key to
// the file name of its chart relative to RESULTS.md; comparisons without an
// entry get no image.
func WriteMarkdown(w io.Writer, res *Results, chartFile map[string]string) error {
	var b strings.Builder
	if res.Settings.Quick {
		b.WriteString(QuickBanner + "\n\n")
	}
	if res.Measures(MeasureFootprint) {
		writeFootprintMarkdown(&b, res, chartFile)
		writeFailures(&b, res)
		_, err := io.WriteString(w, b.String())
		return err
	}
	if res.Measures(MeasureInstructions) {
		writeInstructionsMarkdown(&b, res, chartFile)
		writeFailures(&b, res)
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("# Vireo benchmark results\n\n")
	fmt.Fprintf(&b, "Measured from %s to %s with:\n\n", res.StartedAt.UTC().Format(time.RFC3339), res.FinishedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "```sh\n%s\n```\n\n", res.Command)
	writeEnvironment(&b, res)
	b.WriteString("Reqs/sec is the load generator's mean requests per second (bombardier's, or h2load's where a section says so), Latency its mean latency, p99 the 99th percentile; " +
		"every figure is the median over the runs of an app. Peak RSS is the server's peak resident memory " +
		"(all its processes), CPU s/run the user+system CPU seconds the server spent per run. " +
		"Latencies are in milliseconds. Row ÷ baseline is the row's requests per second divided by the baseline's, " +
		"computed per round (both measured in the same round) and shown as median (min–max over rounds): above 1 means " +
		"the row served more requests per second than the baseline. Where that median and the ratio of the two " +
		"medians fall on different sides of 1, the cell also gives the ratio of medians and every round's ratio.\n\n")
	for i := range res.Comparisons {
		writeComparison(&b, &res.Comparisons[i], chartFile[res.Comparisons[i].Key()])
	}
	writeFailures(&b, res)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeFailures(b *strings.Builder, res *Results) {
	if len(res.Failures) > 0 {
		b.WriteString("## Failures\n\n")
		for _, f := range res.Failures {
			fmt.Fprintf(b, "- %s\n", oneLine(f))
		}
		b.WriteString("\n")
	}
}

func writeEnvironment(b *strings.Builder, res *Results) {
	m, v, s := res.Machine, res.Versions, res.Settings
	b.WriteString(machineLine(m))
	dotnet := orNotFound(v.Dotnet)
	if v.Dotnet != "" {
		dotnet = "SDK " + v.Dotnet + ", runtime " + orUnknown(v.DotnetRuntime) + ", ASP.NET Core " + orUnknown(v.AspNetCore)
	}
	fmt.Fprintf(b, "- Versions: Go %s; .NET %s; Node.js %s; npm %s; Express %s; bombardier %s",
		orNotFound(v.Go), dotnet, orNotFound(v.Node), orNotFound(v.Npm), orNotFound(v.Express), orNotFound(v.Bombardier))
	if v.H2load != "" {
		fmt.Fprintf(b, "; h2load %s", v.H2load)
	}
	b.WriteString("\n")
	writeRuntimeInfo(b, res)
	load := "per comparison (the original article's -n)"
	switch {
	case s.Duration != "":
		load = "timed runs of " + s.Duration
	case s.Requests > 0:
		load = fmt.Sprintf("%d requests per run", s.Requests)
	}
	fmt.Fprintf(b, "- Settings: %s mode, %d run(s) per app, %s, warm-up %s, request timeout %s\n",
		s.Mode, s.Repeats, load, s.Warmup, s.Timeout)
	if len(s.DotnetProperties) > 0 {
		fmt.Fprintf(b, "- .NET apps published with -p:%s (not the .csproj defaults)\n", strings.Join(s.DotnetProperties, " -p:"))
	}
	pin := fmt.Sprintf("server on CPUs %s, bombardier on CPUs %s (taskset)", s.ServerCPUs, s.LoadCPUs)
	if !s.Pinned {
		pin = "not pinned: " + s.PinNote
	}
	fmt.Fprintf(b, "- CPUs: %s; GOMAXPROCS %s; Node.js workers %d\n", pin, gomaxprocsString(s), s.NodeWorkers)
	prof := s.Profile
	if c := s.Constraint; c != nil {
		if c.Applied {
			prof += fmt.Sprintf(" (server limited to %d%% of a CPU and %s of memory via %s)", c.CPUQuotaPercent, formatBytes(c.MemoryMaxBytes), c.Method)
		} else {
			prof += " (NOT APPLIED: " + oneLine(c.Note) + "; these figures are unconstrained)"
		}
	}
	fmt.Fprintf(b, "- Profile: %s\n\n", prof)
}

// writeRuntimeInfo lists the runtime settings the apps stated at start
// (App.Runtime), one line per distinct setting with the apps that had it.
func writeRuntimeInfo(b *strings.Builder, res *Results) {
	var order []string
	apps := map[string][]string{}
	for _, c := range res.Comparisons {
		for _, a := range c.Apps {
			if a.Runtime == nil {
				continue
			}
			info := RuntimeString(a.Runtime)
			if _, ok := apps[info]; !ok {
				order = append(order, info)
			}
			if !slices.Contains(apps[info], a.Name) {
				apps[info] = append(apps[info], a.Name)
			}
		}
	}
	for _, info := range order {
		fmt.Fprintf(b, "- Runtime as stated by %s at start: %s\n", strings.Join(apps[info], ", "), info)
	}
}

// RuntimeString formats the settings of an app's runtime-info line in a
// fixed order: the runtime first, then the other keys sorted.
func RuntimeString(info map[string]string) string {
	var parts []string
	if v := info["runtime"]; v != "" {
		parts = append(parts, v)
	}
	keys := make([]string, 0, len(info))
	for k := range info {
		if k != "runtime" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+": "+info[k])
	}
	return strings.Join(parts, "; ")
}

func writeComparison(b *strings.Builder, c *Comparison, chart string) {
	title := c.Name
	if c.Variant != "" {
		title += " (" + c.Variant + ")"
	}
	fmt.Fprintf(b, "## %s: %s %s\n\n", title, c.Method, c.Path)
	load := fmt.Sprintf("-n %d", c.Requests)
	if c.Duration != "" {
		load = "-d " + c.Duration
	}
	fmt.Fprintf(b, "%s; baseline %s.", loadLine(c, load), c.Baseline)
	if c.CookieMethod != "" {
		fmt.Fprintf(b, " Cookies: %s.", c.CookieMethod)
	}
	b.WriteString("\n\n")
	header := append([]string(nil), tableHeader...)
	header[len(header)-1] = "Row ÷ " + c.Baseline + " (req/s)"
	writeRow(b, header)
	sep := make([]string, len(tableHeader))
	for i := range sep {
		sep[i] = "---"
		if i > 0 {
			sep[i] = "---:"
		}
	}
	writeRow(b, sep)
	for i := range c.Apps {
		writeRow(b, appRow(c, &c.Apps[i]))
	}
	b.WriteString("\n")
	if chart != "" {
		fmt.Fprintf(b, "![%s: requests per second](%s)\n\n", title, chart)
	}
}

// loadLine is the load generator's command of c's runs, in words.
func loadLine(c *Comparison, load string) string {
	if c.Generator == "" || c.Generator == "bombardier" {
		return fmt.Sprintf("bombardier -c %d %s", c.Connections, load)
	}
	line := fmt.Sprintf("%s -c %d -m %d %s", c.Generator, c.Connections, c.Streams, load)
	if c.Protocol != "" {
		line += ", " + c.Protocol
	}
	if c.TLS {
		line += " over TLS (ALPN checked before the load)"
	}
	return line
}

// appRow returns the cells of a's row; its length always equals tableHeader's.
func appRow(c *Comparison, a *App) []string {
	row := make([]string, len(tableHeader))
	row[0] = Label(a.Name)
	for i := 1; i < len(row); i++ {
		row[i] = "–"
	}
	switch {
	case a.Skipped != "":
		row[1] = "skipped: " + a.Skipped
		return row
	case a.Failed != "":
		row[1] = "failed: " + a.Failed
		return row
	case a.Summary == nil:
		row[1] = "not measured"
		return row
	}
	s := a.Summary
	row[1] = formatBytes(int64(s.ThroughputBytesPerSec)) + "/s"
	row[2] = fmt.Sprintf("%.0f", s.RequestsPerSec.Median)
	row[3] = latencyMillis(s.LatencyMeanMicros)
	row[4] = formatSeconds(s.TimeTakenSeconds)
	row[5] = fmt.Sprint(s.TotalRequests)
	row[6] = latencyMillis(s.LatencyP99Micros)
	row[7] = formatBytes(s.PeakRSSBytes)
	row[8] = fmt.Sprintf("%.2f", s.CPUSecondsPerRun)
	if a.LinesOfCode > 0 {
		row[9] = fmt.Sprint(a.LinesOfCode)
	}
	switch {
	case a.Name == c.Baseline:
		row[10] = "1 (baseline)"
	case s.RatioToBaseline != nil:
		row[10] = ratioCell(s.RatioToBaseline, s.RequestsPerSec.Median, baselineMedian(c))
	default:
		row[10] = "n/a: " + c.Baseline + " not measured"
	}
	if s.NonSuccess > 0 || s.SocketErrors > 0 {
		row[2] += fmt.Sprintf(" (%d non-2xx, %d errors)", s.NonSuccess, s.SocketErrors)
	}
	return row
}

// baselineMedian returns the median requests per second of c's baseline,
// or 0 when it was not measured.
func baselineMedian(c *Comparison) float64 {
	for i := range c.Apps {
		if a := &c.Apps[i]; a.Name == c.Baseline && a.Summary != nil {
			return a.Summary.RequestsPerSec.Median
		}
	}
	return 0
}

// ratioCell formats a per-round ratio (row ÷ baseline) as "median
// (min–max)". When the ratio of the medians (rowMedian ÷ baseMedian) lies on
// the other side of 1 than the median of the per-round ratios, the two
// disagree on which app was faster, and the cell adds the ratio of medians
// and every round's ratio so the reader sees why.
func ratioCell(r *Ratio, rowMedian, baseMedian float64) string {
	cell := fmt.Sprintf("%.2f (%.2f–%.2f)", r.Median, r.Min, r.Max)
	if baseMedian <= 0 {
		return cell
	}
	ofMedians := rowMedian / baseMedian
	if (r.Median-1)*(ofMedians-1) >= 0 {
		return cell
	}
	rounds := make([]string, len(r.PerRound))
	for i, v := range r.PerRound {
		rounds[i] = fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%s; ratio of medians %.2f; per round %s", cell, ofMedians, strings.Join(rounds, ", "))
}

func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(escapeCell(c))
		b.WriteString(" |")
	}
	b.WriteString("\n")
}

func escapeCell(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// machineLine is the "- Machine:" line of a report: CPU model, cores,
// whether it is a VM, OS, kernel, architecture, memory and CPU governor.
func machineLine(m Machine) string {
	return fmt.Sprintf("- Machine: %s, %d cores, %s, %s, kernel %s, %s, %s RAM, CPU governor %s\n",
		orUnknown(m.CPUModel), m.Cores, machineKind(m), orUnknown(m.OS), orUnknown(m.Kernel), m.Arch, formatBytes(m.MemTotalBytes),
		orNotReadable(m.Governor))
}

// machineKind says whether the machine is a VM (the hypervisor CPU flag).
func machineKind(m Machine) string {
	switch {
	case m.VM && m.Hypervisor != "":
		return "virtual machine (" + m.Hypervisor + ")"
	case m.VM:
		return "virtual machine"
	default:
		return "no hypervisor flag (bare metal)"
	}
}

// gomaxprocsString states the Go apps' GOMAXPROCS and where it came from.
func gomaxprocsString(s Settings) string {
	switch {
	case s.GOMAXPROCS == 0:
		return "Go default"
	case s.GOMAXPROCSSet:
		return fmt.Sprintf("%d (-gomaxprocs)", s.GOMAXPROCS)
	default:
		return fmt.Sprintf("%d (Go's default for the server CPUs)", s.GOMAXPROCS)
	}
}

func orNotReadable(s string) string {
	if s == "" {
		return "not readable"
	}
	return s
}

func orNotFound(s string) string {
	if s == "" {
		return "not found"
	}
	return s
}

// formatBytes formats n with binary units, as bombardier does.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, units := float64(n), []string{"KiB", "MiB", "GiB", "TiB"}
	i := -1
	for f >= unit && i < len(units)-1 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.2f %s", f, units[i])
}

// latencyMillis formats a latency given in microseconds in milliseconds,
// the one latency unit of every table (the header says "ms"), with two
// decimals, or three below a millisecond.
func latencyMillis(us float64) string {
	if math.IsNaN(us) || us <= 0 {
		return "–"
	}
	if us < 1e3 {
		return fmt.Sprintf("%.3f", us/1e3)
	}
	return fmt.Sprintf("%.2f", us/1e3)
}

// formatMicros formats a latency given in microseconds, in the unit that
// suits it (µs, ms or s).
func formatMicros(us float64) string {
	if math.IsNaN(us) || us <= 0 {
		return "–"
	}
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%.2fs", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.2fms", us/1e3)
	default:
		return fmt.Sprintf("%.2fµs", us)
	}
}

func formatSeconds(s float64) string {
	if s >= 1 {
		return fmt.Sprintf("%.2fs", s)
	}
	return fmt.Sprintf("%.0fms", s*1e3)
}
