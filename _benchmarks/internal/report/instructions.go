// RESULTS.md of an instructions report (`bench instructions`): per
// comparison a table "Instructions/request (callgrind)" with each app's
// count, its ratio to the baseline's, the requests of the measured window,
// the window's total and the cost of start-up and warm-up, followed by a bar
// chart. Apps that were not counted keep their row with the reason.
package report

import (
	"fmt"
	"strings"
	"time"
)

// instructionsHeader is the column list of every instructions table; its
// second cell names the table for CheckMarkdown.
var instructionsHeader = []string{
	"Name", "Instructions/request (callgrind)", "Row ÷ baseline", "Requests", "Instructions in window",
	"Start-up + warm-up", "Lines of code",
}

// instructionsExplained is the paragraph every instructions report opens
// with: what the figure is and what it is not.
const instructionsExplained = "Instructions/request is the number of instructions callgrind counted in the " +
	"app's process while it served the measured requests, divided by their number: user-space work only " +
	"(the app, its framework, the Go runtime with its garbage collector, net/http), not the kernel's " +
	"(network stack, system calls) and not other processes (the load generator, a Redis server). " +
	"The count does not depend on how busy or fast the machine is, so its ratios stay stable where " +
	"requests per second vary by tens of percent between runs; it is not a substitute for requests per " +
	"second (it ignores the kernel, cache misses, lock waits and parallelism). Row ÷ baseline above 1 " +
	"means the row executes more instructions per request than the baseline.\n\n"

// writeInstructionsMarkdown writes the body of an instructions report.
func writeInstructionsMarkdown(b *strings.Builder, res *Results, chartFile map[string]string) {
	b.WriteString("# Vireo benchmark results: instructions per request (callgrind)\n\n")
	fmt.Fprintf(b, "Measured from %s to %s with:\n\n", res.StartedAt.UTC().Format(time.RFC3339), res.FinishedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(b, "```sh\n%s\n```\n\n", res.Command)
	m, v, s := res.Machine, res.Versions, res.Settings
	b.WriteString(machineLine(m))
	fmt.Fprintf(b, "- Versions: Go %s; valgrind %s; bombardier %s\n", orNotFound(v.Go), orNotFound(v.Valgrind), orNotFound(v.Bombardier))
	if is := s.Instructions; is != nil {
		fmt.Fprintf(b, "- Each Go app ran as `%s <app>` with %s in its environment; once its response was verified it got %d warm-up "+
			"requests, was dumped (callgrind_control -d, which zeroes the counters), got %d requests over %d connections and was dumped again\n",
			is.Command, is.Env, is.WarmupRequests, is.Requests, is.Connections)
		fmt.Fprintf(b, "- Counted: %s\n", is.Counted)
	}
	pin := fmt.Sprintf("server on CPUs %s, bombardier on CPUs %s (taskset)", s.ServerCPUs, s.LoadCPUs)
	if !s.Pinned {
		pin = "not pinned: " + s.PinNote
	}
	gmp := "Go default"
	if s.GOMAXPROCS > 0 {
		gmp = gomaxprocsString(s)
	}
	fmt.Fprintf(b, "- CPUs: %s; GOMAXPROCS %s\n\n", pin, gmp)
	b.WriteString(instructionsExplained)
	for i := range res.Comparisons {
		c := &res.Comparisons[i]
		writeInstructionsComparison(b, c, chartFile[c.Key()])
	}
}

func writeInstructionsComparison(b *strings.Builder, c *Comparison, chart string) {
	fmt.Fprintf(b, "## %s: %s %s\n\n", c.title(), c.Method, c.Path)
	fmt.Fprintf(b, "Instructions/request (callgrind): bombardier -c %d -n %d in the measured window; baseline %s.", c.Connections, c.Requests, c.Baseline)
	if c.CookieMethod != "" {
		fmt.Fprintf(b, " Cookies: %s.", c.CookieMethod)
	}
	b.WriteString("\n\n")
	header := append([]string(nil), instructionsHeader...)
	header[2] = "Row ÷ " + c.Baseline
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
		writeRow(b, instructionsRow(c, &c.Apps[i]))
	}
	b.WriteString("\n")
	if chart != "" {
		fmt.Fprintf(b, "![%s: instructions per request](%s)\n\n", c.title(), chart)
	}
}

// instructionsRow returns the cells of a's row; its length always equals
// instructionsHeader's.
func instructionsRow(c *Comparison, a *App) []string {
	row := make([]string, len(instructionsHeader))
	row[0] = Label(a.Name)
	for i := 1; i < len(row); i++ {
		row[i] = "–"
	}
	if a.LinesOfCode > 0 {
		row[6] = fmt.Sprint(a.LinesOfCode)
	}
	switch {
	case a.Skipped != "":
		row[1] = "not measured: " + a.Skipped
		return row
	case a.Failed != "":
		row[1] = "failed: " + a.Failed
		return row
	case !a.InstructionsMeasured():
		row[1] = "not measured"
		return row
	}
	in := a.Instructions
	row[1] = fmt.Sprintf("%.0f", in.PerRequest)
	switch {
	case a.Name == c.Baseline:
		row[2] = "1 (baseline)"
	case in.RatioToBaseline != nil:
		row[2] = fmt.Sprintf("%.2f", *in.RatioToBaseline)
	default:
		row[2] = "n/a: " + c.Baseline + " not measured"
	}
	row[3] = fmt.Sprint(in.Requests)
	row[4] = formatCount(float64(in.Total))
	row[5] = formatCount(float64(in.StartupAndWarmup))
	return row
}

// formatCount formats a count with a k, M or G suffix and three
// significant digits.
func formatCount(n float64) string {
	for _, u := range []struct {
		div    float64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if n >= u.div {
			v := n / u.div
			switch {
			case v >= 100:
				return fmt.Sprintf("%.0f%s", v, u.suffix)
			case v >= 10:
				return fmt.Sprintf("%.1f%s", v, u.suffix)
			default:
				return fmt.Sprintf("%.2f%s", v, u.suffix)
			}
		}
	}
	return fmt.Sprintf("%.0f", n)
}
