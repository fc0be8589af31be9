// This file holds the report of a run: results.json (every sample of
// every level of every round, and what is derived from them) and
// RESULTS.md with, per test type, the best level of each stack (median
// requests per second over the rounds with their range, p50 and p99
// there, errors), its ratio to the net/http floor, the whole curve, and
// the chart of the curves (chart.go).
//
// Derivations: a level's figure is the median of its rounds and its range
// the slowest and fastest round; the best level is the one with the
// highest median; any socket error or non-2xx response at any level of a
// type, or a level in which no response completed, fails that stack's type
// (reported, never ranked). The ratio to the
// floor divides the two best-level medians, its range the per-round
// quotients of those same levels. Vireo's quotients against every other
// stack (the goals: at its floor, ahead of its peers) are the
// same division the other way round, with the number of rounds in which
// Vireo's best level was the faster of the two, so that a lead shows
// whether it held in every round or in one.
package techempower

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

// Schema names the format of results.json.
const Schema = "vireo-bench-tfb/1"

// runHead opens the results.json of every run, of requests/s or of
// instructions: its format, when and by which command it ran, and where.
type runHead struct {
	Schema   string    `json:"schema"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	Command  string    `json:"command"`
	Machine  Machine   `json:"machine"`
}

// newRunHead is the head of a run of schema that command starts now.
func newRunHead(schema, command string) runHead {
	return runHead{Schema: schema, Started: time.Now().UTC(), Command: command, Machine: machine()}
}

// head returns h; the reports embedding it have it too.
func (h *runHead) head() *runHead { return h }

// Report is a run's results.json.
type Report struct {
	runHead
	Pinning  Pinning `json:"pinning"`
	Wrk      string  `json:"wrk"`
	Postgres string  `json:"postgres"`
	Rounds   int     `json:"rounds"`
	// Interleave is how a round took turns: InterleaveLevel, or "" for
	// the runs before it, in which each app ran all its types in one go.
	Interleave string `json:"interleave,omitempty"`
	Duration   string `json:"duration"`
	Primer     string `json:"primer"`
	// Pool is every app's database pool; Workers the Node apps' processes.
	Pool              int          `json:"pool"`
	Workers           int          `json:"workers"`
	VerifyConcurrency int          `json:"verifyConcurrency"`
	Types             []tfb.Type   `json:"types"`
	Apps              []*AppResult `json:"apps"`
	// Ratios are each stack's best level ÷ the floor's, per type.
	Ratios map[tfb.Type]map[string]Spread `json:"ratios,omitempty"`
	// VireoOver are Vireo's best level ÷ each other stack's, per type.
	VireoOver map[tfb.Type]map[string]Quotient `json:"vireoOver,omitempty"`
}

// InterleaveLevel is Report.Interleave of a run whose apps took turns at
// each level of each type (runRound).
const InterleaveLevel = "level"

// Machine describes where the run ran.
type Machine struct {
	CPU    string `json:"cpu"`
	Cores  int    `json:"cores"`
	Kernel string `json:"kernel"`
	Go     string `json:"go"`
}

// Pinning states which CPUs ran what.
type Pinning struct {
	Server   string `json:"server"`
	Load     string `json:"load"`
	Database string `json:"database"`
	Note     string `json:"note,omitempty"`
}

// AppResult is one stack's results.
type AppResult struct {
	Name    string `json:"name"`
	Label   string `json:"label"`
	Stack   string `json:"stack"`
	Runtime string `json:"runtime,omitempty"`
	// Deps are the versions of what the app links (Go: its frameworks and
	// pgx, from the binary's build information).
	Deps        map[string]string `json:"deps,omitempty"`
	LinesOfCode int               `json:"linesOfCode"`
	// Status is "" when measured, else "skipped: ..." or "failed: ...".
	Status string `json:"status,omitempty"`
	// Verify lists the verifier's findings (warnings when measured).
	Verify []string                 `json:"verify,omitempty"`
	Tests  map[tfb.Type]*TypeResult `json:"tests,omitempty"`
}

// TypeResult is one stack's sweep of one test type.
type TypeResult struct {
	Levels []*LevelResult `json:"levels"`
	// Best is the index of the best level.
	Best int `json:"best"`
	// Failed says why the type is not ranked (errors), or "".
	Failed string `json:"failed,omitempty"`
}

// LevelResult is one level over the rounds.
type LevelResult struct {
	Connections int      `json:"connections"`
	Queries     int      `json:"queries,omitempty"`
	Pipeline    int      `json:"pipeline,omitempty"`
	Samples     []Sample `json:"samples"`
	// RequestsPerSec is the median and range over the rounds; P50US and
	// P99US the medians of the rounds' percentiles (microseconds).
	RequestsPerSec Spread `json:"requestsPerSec"`
	P50US          int64  `json:"p50us"`
	P99US          int64  `json:"p99us"`
	// Errors are socket errors plus non-2xx responses, all rounds.
	Errors int64 `json:"errors"`
}

// Sample is one round's run of a level.
type Sample struct {
	Round          int     `json:"round"`
	RequestsPerSec float64 `json:"requestsPerSec"`
	Requests       int64   `json:"requests"`
	P50US          int64   `json:"p50us"`
	P99US          int64   `json:"p99us"`
	SocketErrors   int64   `json:"socketErrors"`
	Non2xx         int64   `json:"non2xx"`
}

// Spread is a median with the lowest and highest value.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Quotient is one stack's best level ÷ another's: the quotient of the
// medians, the range of the per-round quotients, and in how many of the
// rounds the first was faster.
type Quotient struct {
	Spread
	Ahead  int `json:"ahead"`
	Rounds int `json:"rounds"`
	// Paired is the quotient at every level, not only the best.
	Paired Paired `json:"paired"`
}

// Paired sums up the quotients of one stack's samples ÷ another's at the
// same level in the same round, over every level of a type: their median
// and quartiles, in how many the first stack was faster, and how many
// there were. Where the stacks took turns at each level (InterleaveLevel)
// the two samples of a pair were taken seconds apart, so the pairs are the
// comparison least moved by the machine's drift, and every level adds
// pairs that the best level alone does not have: 30 instead of 5 for a
// 6-level type in 5 rounds.
type Paired struct {
	Median float64 `json:"median"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
	Ahead  int     `json:"ahead"`
	Pairs  int     `json:"pairs"`
}

// pairedOf sums up the per-pair quotients xs.
func pairedOf(xs []float64, ahead int) Paired {
	if len(xs) == 0 {
		return Paired{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return Paired{Median: quantile(s, 0.5), Q1: quantile(s, 0.25), Q3: quantile(s, 0.75), Ahead: ahead, Pairs: len(s)}
}

// quantile is the p-quantile of the sorted s, interpolated linearly
// between the two nearest ranks (R's default, type 7).
func quantile(s []float64, p float64) float64 {
	pos := p * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

func spreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return Spread{Median: quantile(s, 0.5), Min: s[0], Max: s[len(s)-1]}
}

func medianInt(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func newReport(cfg *Config, pin proc.Pinning, wrkVersion string) *Report {
	r := &Report{
		runHead: newRunHead(Schema, cfg.Command), Wrk: wrkVersion, Rounds: cfg.Rounds, Interleave: InterleaveLevel,
		Duration: cfg.Duration.String(), Primer: cfg.Primer.String(),
		Pool: cfg.Pool, Workers: cfg.Workers, VerifyConcurrency: cfg.VerifyConcurrency, Types: cfg.Types,
		Pinning: Pinning{Server: cfg.ServerCPUs, Load: cfg.LoadCPUs, Database: cfg.ServerCPUs},
	}
	if !pin.Pinned() {
		r.Pinning = Pinning{Note: pin.Note}
	}
	return r
}

func machine() Machine {
	m := Machine{Cores: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if out, err := exec.Command("uname", "-r").Output(); err == nil {
		m.Kernel = strings.TrimSpace(string(out))
	}
	return m
}

func (r *Report) addApp(a App) *AppResult {
	res := &AppResult{Name: a.Name, Label: a.Label, Stack: a.Stack, Tests: map[tfb.Type]*TypeResult{}}
	r.Apps = append(r.Apps, res)
	return res
}

// record adds one round's run of level i of t.
func (a *AppResult) record(t tfb.Type, i, connections, queries, pipeline int, f report.Figures) {
	tr := a.Tests[t]
	if tr == nil {
		tr = &TypeResult{}
		a.Tests[t] = tr
	}
	for len(tr.Levels) <= i {
		tr.Levels = append(tr.Levels, nil)
	}
	l := tr.Levels[i]
	if l == nil {
		l = &LevelResult{Connections: connections, Queries: queries}
		if pipeline > 1 {
			l.Pipeline = pipeline
		}
		tr.Levels[i] = l
	}
	p50, _ := f.Percentile(50)
	p99, _ := f.Percentile(99)
	l.Samples = append(l.Samples, Sample{
		Round: len(l.Samples) + 1, RequestsPerSec: f.RequestsPerSec, Requests: f.Requests,
		P50US: int64(p50), P99US: int64(p99), SocketErrors: f.Errors, Non2xx: f.NonSuccess,
	})
}

// finish derives the figures from the samples.
func (r *Report) finish() {
	for _, a := range r.Apps {
		for _, tr := range a.Tests {
			best := -1.0
			for i, l := range tr.Levels {
				if l == nil {
					continue
				}
				var rps []float64
				var p50, p99 []int64
				l.Errors = 0
				for _, s := range l.Samples {
					if s.Requests == 0 && tr.Failed == "" {
						tr.Failed = "no response completed at " + l.name() + " in round " + itoa(s.Round)
					}
					rps = append(rps, s.RequestsPerSec)
					p50, p99 = append(p50, s.P50US), append(p99, s.P99US)
					l.Errors += s.SocketErrors + s.Non2xx
				}
				l.RequestsPerSec, l.P50US, l.P99US = spreadOf(rps), medianInt(p50), medianInt(p99)
				if l.RequestsPerSec.Median > best {
					best, tr.Best = l.RequestsPerSec.Median, i
				}
				if l.Errors > 0 && tr.Failed == "" {
					tr.Failed = fmt.Sprintf("%d errors or non-2xx responses at %s", l.Errors, l.name())
				}
			}
		}
	}
	r.Ratios = map[tfb.Type]map[string]Spread{}
	r.VireoOver = map[tfb.Type]map[string]Quotient{}
	floor, vireo := r.app(Floor), r.app(Vireo)
	for _, t := range r.Types {
		for _, a := range r.Apps {
			if q, ok := quotient(a, floor, t); a != floor && ok {
				if r.Ratios[t] == nil {
					r.Ratios[t] = map[string]Spread{}
				}
				r.Ratios[t][a.Name] = q.Spread
			}
			if q, ok := quotient(vireo, a, t); a != vireo && ok {
				if r.VireoOver[t] == nil {
					r.VireoOver[t] = map[string]Quotient{}
				}
				r.VireoOver[t][a.Name] = q
			}
		}
	}
}

// quotient divides a's best level of t by b's; ok is false unless both
// are ranked and share a round.
func quotient(a, b *AppResult, t tfb.Type) (q Quotient, ok bool) {
	if a == nil || b == nil || !a.ranked(t) || !b.ranked(t) {
		return q, false
	}
	al, bl := a.Tests[t].Levels[a.Tests[t].Best], b.Tests[t].Levels[b.Tests[t].Best]
	per, ahead := pairSamples(nil, al, bl)
	q.Ahead = ahead
	if bl.RequestsPerSec.Median == 0 || len(per) == 0 {
		return q, false
	}
	q.Spread, q.Rounds = spreadOf(per), len(per)
	q.Median = al.RequestsPerSec.Median / bl.RequestsPerSec.Median
	q.Paired = paired(a.Tests[t], b.Tests[t])
	return q, true
}

// paired divides every sample of a by b's at the same level and round.
// Levels pair by index and must agree in connections and queries.
func paired(a, b *TypeResult) Paired {
	var per []float64
	ahead := 0
	for i := range min(len(a.Levels), len(b.Levels)) {
		al, bl := a.Levels[i], b.Levels[i]
		if al.Connections == bl.Connections && al.Queries == bl.Queries {
			var n int
			per, n = pairSamples(per, al, bl)
			ahead += n
		}
	}
	return pairedOf(per, ahead)
}

// pairSamples appends to per the quotients of a's samples ÷ b's, round
// by round, and returns how many of them are above 1. A sample without
// throughput (0 req/s) pairs with nothing.
func pairSamples(per []float64, a, b *LevelResult) ([]float64, int) {
	ahead := 0
	for r := range min(len(a.Samples), len(b.Samples)) {
		x, y := a.Samples[r].RequestsPerSec, b.Samples[r].RequestsPerSec
		if x <= 0 || y <= 0 {
			continue
		}
		per = append(per, x/y)
		if x > y {
			ahead++
		}
	}
	return per, ahead
}

// Rederive reads the results.json of the run in dir, derives its figures
// again from its samples with this version of the report, and rewrites
// results.json, RESULTS.md and the charts there; nothing is measured. It
// lets a run that was committed before a derivation was added (or
// changed) show it, from the same samples.
func Rederive(dir string) (*Report, error) {
	var r Report
	if err := readResults(dir, Schema, &r); err != nil {
		return nil, err
	}
	r.finish()
	return &r, r.write(dir)
}

// readResults decodes the results.json of the run in dir into r; a file
// of another schema is an error.
func readResults(dir, schema string, r interface{ head() *runHead }) error {
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, r); err != nil {
		return fmt.Errorf("techempower: %s: %w", dir, err)
	}
	if got := r.head().Schema; got != schema {
		return fmt.Errorf("techempower: %s: schema %q, not %q", dir, got, schema)
	}
	return nil
}

func (r *Report) app(name string) *AppResult {
	for _, a := range r.Apps {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// ranked reports whether a has figures for t without errors.
func (a *AppResult) ranked(t tfb.Type) bool {
	tr := a.Tests[t]
	return a.Status == "" && tr != nil && tr.Failed == "" && len(tr.Levels) > 0 && tr.Levels[tr.Best] != nil
}

func (l *LevelResult) name() string {
	switch {
	case l.Queries > 0:
		return fmt.Sprintf("%d queries, %d connections", l.Queries, l.Connections)
	case l.Pipeline > 1:
		return fmt.Sprintf("%d connections, pipelined %d", l.Connections, l.Pipeline)
	}
	return fmt.Sprintf("%d connections", l.Connections)
}

// levelLabel is a level's column heading.
func (l *LevelResult) label() string {
	if l.Queries > 0 {
		return fmt.Sprintf("q=%d", l.Queries)
	}
	return fmt.Sprintf("c=%d", l.Connections)
}

// write writes results.json, RESULTS.md and the charts into dir.
func (r *Report) write(dir string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644); err != nil {
		return err
	}
	charts := map[tfb.Type]string{}
	for _, t := range r.Types {
		name := "tfb-" + string(t) + ".png"
		if err := writeCurveChart(r, t, filepath.Join(dir, name)); err == nil {
			charts[t] = name
		} else if err != errNoCurve {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "RESULTS.md"), []byte(r.markdown(charts)), 0o644)
}

func (r *Report) markdown(charts map[tfb.Type]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# TechEmpower test types: %s\n\n", r.Started.Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "`%s`\n\n", r.Command)
	fmt.Fprintf(&b, "Machine: %s, %d CPUs, kernel %s; %s; wrk %s; %s.\n", r.Machine.CPU, r.Machine.Cores, r.Machine.Kernel, r.Machine.Go, r.Wrk, r.Postgres)
	if r.Pinning.Note != "" {
		fmt.Fprintf(&b, "Pinning: %s.\n", r.Pinning.Note)
	} else {
		fmt.Fprintf(&b, "Pinning: apps on CPUs %s, PostgreSQL on CPUs %s, wrk and the runner on CPUs %s.\n", r.Pinning.Server, r.Pinning.Database, r.Pinning.Load)
	}
	turns := "a fresh PostgreSQL and app per round"
	if r.Interleave == InterleaveLevel {
		turns = "every app and its fresh PostgreSQL started for the round, the apps taking turns at each level"
	}
	fmt.Fprintf(&b, "%d interleaved rounds (%s); each level %s after a %s primer and a %s warm-up; database pool %d per app, Node workers %d; verified first (query counts with %d clients). Started %s, finished %s.\n\n",
		r.Rounds, turns, r.Duration, r.Primer, r.Duration, r.Pool, r.Workers, r.VerifyConcurrency, r.Started.Format(time.RFC3339), r.Finished.Format(time.RFC3339))

	b.WriteString("| stack | runtime | versions | lines of code | status |\n|---|---|---|---:|---|\n")
	for _, a := range r.Apps {
		status := a.Status
		if status == "" {
			status = "measured"
		}
		var deps []string
		for k, v := range a.Deps {
			deps = append(deps, k+" "+v)
		}
		slices.Sort(deps)
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %s |\n", a.Label, a.Runtime, strings.Join(deps, ", "), a.LinesOfCode, strings.ReplaceAll(status, "|", "\\|"))
	}
	b.WriteString("\n")
	for _, t := range r.Types {
		fmt.Fprintf(&b, "## %s: `GET %s`\n\n", t, strings.TrimSuffix(t.Path(), "="))
		b.WriteString("| stack | best level | requests/s (median, min–max) | p50 | p99 | ÷ net/http (min–max) |\n|---|---|---:|---:|---:|---:|\n")
		for _, a := range r.Apps {
			tr := a.Tests[t]
			switch {
			case a.Status != "":
				fmt.Fprintf(&b, "| %s | %s | | | | |\n", a.Label, strings.SplitN(a.Status, ":", 2)[0])
			case tr == nil || len(tr.Levels) == 0:
				fmt.Fprintf(&b, "| %s | not run | | | | |\n", a.Label)
			case tr.Failed != "":
				fmt.Fprintf(&b, "| %s | failed: %s | | | | |\n", a.Label, tr.Failed)
			default:
				l := tr.Levels[tr.Best]
				ratio := ""
				if a.Name == Floor {
					ratio = "1"
				} else if s, ok := r.Ratios[t][a.Name]; ok {
					ratio = fmt.Sprintf("%.2f (%.2f–%.2f)", s.Median, s.Min, s.Max)
				}
				fmt.Fprintf(&b, "| %s | %s | %.0f (%.0f–%.0f) | %s | %s | %s |\n", a.Label, l.name(),
					l.RequestsPerSec.Median, l.RequestsPerSec.Min, l.RequestsPerSec.Max, us(l.P50US), us(l.P99US), ratio)
			}
		}
		b.WriteString("\n")
		r.vireoMarkdown(&b, t)
		var heads []string
		for _, a := range r.Apps {
			if tr := a.Tests[t]; tr != nil && len(tr.Levels) > len(heads) {
				heads = heads[:0]
				for _, l := range tr.Levels {
					if l != nil {
						heads = append(heads, l.label())
					}
				}
			}
		}
		if len(heads) > 0 {
			fmt.Fprintf(&b, "The curve (median requests/s per level):\n\n| stack | %s |\n|---|%s\n", strings.Join(heads, " | "), strings.Repeat("---:|", len(heads)))
			for _, a := range r.Apps {
				tr := a.Tests[t]
				if tr == nil {
					continue
				}
				cells := make([]string, len(heads))
				for i, l := range tr.Levels {
					if l != nil && i < len(cells) {
						cells[i] = fmt.Sprintf("%.0f", l.RequestsPerSec.Median)
					}
				}
				fmt.Fprintf(&b, "| %s | %s |\n", a.Label, strings.Join(cells, " | "))
			}
			b.WriteString("\n")
		}
		if c, ok := charts[t]; ok {
			fmt.Fprintf(&b, "![%s](%s)\n\n", t, c)
		}
	}
	r.round23Markdown(&b)
	var warned bool
	for _, a := range r.Apps {
		if len(a.Verify) == 0 {
			continue
		}
		if !warned {
			b.WriteString("## Verifier findings\n\n")
			warned = true
		}
		for _, v := range a.Verify {
			fmt.Fprintf(&b, "- %s: %s\n", a.Label, v)
		}
	}
	return b.String()
}

// vireoMarkdown writes Vireo's quotients against the other stacks of t.
func (r *Report) vireoMarkdown(b *strings.Builder, t tfb.Type) {
	qs := r.VireoOver[t]
	if len(qs) == 0 {
		return
	}
	b.WriteString("Vireo ÷ each stack (best-level medians; in brackets the range of the per-round quotients; the rounds in which Vireo was faster; then every level of every round paired with the other stack's: the median and quartiles of those quotients, and the pairs in which Vireo was faster):\n\n| stack | Vireo ÷ | Vireo faster | every level, paired | Vireo faster |\n|---|---:|---:|---:|---:|\n")
	for _, a := range r.Apps {
		if q, ok := qs[a.Name]; ok {
			p := q.Paired
			fmt.Fprintf(b, "| %s | %.2f (%.2f–%.2f) | %d of %d rounds | %.2f (%.2f–%.2f) | %d of %d pairs |\n", a.Label, q.Median, q.Min, q.Max, q.Ahead, q.Rounds, p.Median, p.Q1, p.Q3, p.Ahead, p.Pairs)
		}
	}
	b.WriteString("\n")
}
