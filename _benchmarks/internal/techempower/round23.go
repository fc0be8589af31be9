// This file sets a run beside TechEmpower's Round 23 (round23.json: their
// requests per second, with the source of each). Round 23 ran on 56-core
// servers over 40 GbE, so only ratios between stacks are compared: per
// test type every stack is divided by one stack present in both, Express
// (TechEmpower's express-postgresjs entry, the same driver as
// tfb-expressjs), or for fortunes, which no Express figure of Round 23
// covers here, node:http (nodejs-postgresjs-raw, the driver of
// tfb-nodehttp). Queries and updates are compared at 20 queries per
// request, the figure quoted for Round 23; the other types at each
// stack's best level, as Round 23 ranked them.
package techempower

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

//go:embed round23.json
var round23JSON []byte

// Round23Entry is one Round 23 figure.
type Round23Entry struct {
	Type      tfb.Type `json:"type"`
	Framework string   `json:"framework"` // App.R23
	Entry     string   `json:"entry"`     // TechEmpower's test name
	RPS       float64  `json:"rps"`
	Database  string   `json:"database,omitempty"` // when not PostgreSQL
	Source    string   `json:"source"`
	Note      string   `json:"note,omitempty"`
}

// Round23 is round23.json.
type Round23 struct {
	About   string            `json:"about"`
	Sources map[string]string `json:"sources"`
	Entries []Round23Entry    `json:"entries"`
}

// LoadRound23 returns the embedded Round 23 figures.
func LoadRound23() (*Round23, error) {
	var r Round23
	if err := json.Unmarshal(round23JSON, &r); err != nil {
		return nil, fmt.Errorf("techempower: round23.json: %w", err)
	}
	return &r, nil
}

// Round23Divisor is the stack (App.R23) every ratio of t is taken to.
func Round23Divisor(t tfb.Type) string {
	if t == tfb.Fortunes {
		return "nodejs"
	}
	return "express"
}

func (r *Round23) entry(t tfb.Type, framework string) (Round23Entry, bool) {
	for _, e := range r.Entries {
		if e.Type == t && e.Framework == framework {
			return e, true
		}
	}
	return Round23Entry{}, false
}

// Ratio returns framework ÷ the divisor of t in Round 23.
func (r *Round23) Ratio(t tfb.Type, framework string) (float64, bool) {
	e, ok := r.entry(t, framework)
	d, okd := r.entry(t, Round23Divisor(t))
	if !ok || !okd || d.RPS == 0 {
		return 0, false
	}
	return e.RPS / d.RPS, true
}

// compareLevel is the level of tr set beside Round 23: 20 queries for the
// query types, else the best.
func compareLevel(t tfb.Type, tr *TypeResult) *LevelResult {
	if t == tfb.Queries || t == tfb.Updates {
		for _, l := range tr.Levels {
			if l != nil && l.Queries == 20 {
				return l
			}
		}
		return nil
	}
	return tr.Levels[tr.Best]
}

// todayRatio returns a ÷ d at their compared levels: the quotient of the
// medians and the range of the per-round quotients.
func todayRatio(t tfb.Type, a, d *AppResult) (Spread, bool) {
	if !a.ranked(t) || !d.ranked(t) {
		return Spread{}, false
	}
	al, dl := compareLevel(t, a.Tests[t]), compareLevel(t, d.Tests[t])
	if al == nil || dl == nil || dl.RequestsPerSec.Median == 0 {
		return Spread{}, false
	}
	var per []float64
	for i := range min(len(al.Samples), len(dl.Samples)) {
		if dl.Samples[i].RequestsPerSec > 0 {
			per = append(per, al.Samples[i].RequestsPerSec/dl.Samples[i].RequestsPerSec)
		}
	}
	s := spreadOf(per)
	s.Median = al.RequestsPerSec.Median / dl.RequestsPerSec.Median
	return s, len(per) > 0
}

// round23Markdown writes the section that sets the run beside Round 23.
func (r *Report) round23Markdown(b *strings.Builder) {
	r23, err := LoadRound23()
	if err != nil {
		fmt.Fprintf(b, "## Beside Round 23\n\n%v\n\n", err)
		return
	}
	b.WriteString("## Beside Round 23\n\n")
	fmt.Fprintf(b, "%s\n\n", r23.About)
	for _, t := range r.Types {
		div := Round23Divisor(t)
		divApp := r.appR23(div)
		level := "best level"
		if t == tfb.Queries || t == tfb.Updates {
			level = "20 queries"
		}
		fmt.Fprintf(b, "### %s (÷ %s, %s)\n\n| stack | today | Round 23 | Round 23 entry |\n|---|---:|---:|---|\n", t, labelOfR23(div), level)
		for _, a := range r.Apps {
			meta, _ := appNamed(a.Name)
			if meta.R23 == "" && a.Stack != "go" {
				continue
			}
			today := "not measured"
			if divApp != nil {
				if s, ok := todayRatio(t, a, divApp); ok {
					today = fmt.Sprintf("%.2f (%.2f–%.2f)", s.Median, s.Min, s.Max)
				}
			}
			r23cell, entry := "", "not in Round 23"
			if meta.R23 != "" {
				if x, ok := r23.Ratio(t, meta.R23); ok {
					e, _ := r23.entry(t, meta.R23)
					r23cell = fmt.Sprintf("%.2f", x)
					entry = e.Entry
					if e.Database != "" {
						entry += " (" + e.Database + ": not comparable)"
					}
					if e.Note != "" {
						entry += "; " + e.Note
					}
				} else {
					entry = "no figure found"
				}
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", a.Label, today, r23cell, entry)
		}
		b.WriteString("\n")
	}
	b.WriteString("Sources:\n\n")
	for _, k := range []string{"r23-json", "fiber-docs"} {
		fmt.Fprintf(b, "- %s: %s\n", k, r23.Sources[k])
	}
	b.WriteString("\n")
}

func (r *Report) appR23(framework string) *AppResult {
	for _, a := range Apps {
		if a.R23 == framework {
			return r.app(a.Name)
		}
	}
	return nil
}

func labelOfR23(framework string) string {
	for _, a := range Apps {
		if a.R23 == framework {
			return a.Label
		}
	}
	return framework
}
