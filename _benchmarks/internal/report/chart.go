// Bar charts of a comparison, drawn with gonum.org/v1/plot: one bar per
// measured app with its median requests per second and an error bar from the
// slowest to the fastest run, so the spread between runs is visible; or, in
// an instructions report, one bar per app with its instructions per request
// (a single count, which does not vary between runs: no error bar).
package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// ErrNoData is returned by WriteChart for a comparison without measured apps.
var ErrNoData = errors.New("report: no measured app to chart")

// minMaxErrors gives plotter.YErrorBars the distance from each median down to
// the minimum and up to the maximum.
type minMaxErrors struct {
	plotter.XYs
	spreads []Spread
}

func (e minMaxErrors) YError(i int) (float64, float64) {
	s := e.spreads[i]
	return s.Median - s.Min, s.Max - s.Median
}

// WriteChart draws the requests per second of c's measured apps into the PNG
// file path, every stack that was measured included. The baseline's bar is
// drawn in a distinct colour; a skipped or failed app keeps its place, with
// no bar and "skipped" or "failed" written where the bar would be.
func WriteChart(c *Comparison, path string) error {
	var bars []bar
	measured := false
	for i := range c.Apps {
		a := &c.Apps[i]
		if a.Summary != nil {
			measured = true
			bars = append(bars, bar{name: Label(a.Name), spread: a.Summary.RequestsPerSec, base: a.Name == c.Baseline})
		} else if b, ok := noteBar(a); ok {
			bars = append(bars, b)
		}
	}
	if !measured {
		return ErrNoData
	}
	title := fmt.Sprintf("%s: %s %s, requests/s (median, min-max)", c.title(), c.Method, c.Path)
	return drawBars(bars, title, "requests per second", func(v float64) string { return fmt.Sprintf("%.0f", v) }, true, path)
}

// WriteInstructionsChart draws the instructions per request of c's counted
// apps (callgrind) into the PNG file path, the baseline's bar in a distinct
// colour.
func WriteInstructionsChart(c *Comparison, path string) error {
	var bars []bar
	for i := range c.Apps {
		a := &c.Apps[i]
		if !a.InstructionsMeasured() {
			continue
		}
		v := a.Instructions.PerRequest
		bars = append(bars, bar{name: Label(a.Name), spread: Spread{Median: v, Min: v, Max: v}, base: a.Name == c.Baseline})
	}
	title := fmt.Sprintf("%s: %s %s, instructions/request (callgrind)", c.title(), c.Method, c.Path)
	return drawBars(bars, title, "instructions per request", formatCount, false, path)
}

// title is the comparison's name with its variant in parentheses.
func (c *Comparison) title() string {
	if c.Variant == "" {
		return c.Name
	}
	return c.Name + " (" + c.Variant + ")"
}

// bar is one bar of a chart: its height is spread.Median. A bar with a
// note (an app that was not measured) has no height and shows the note.
type bar struct {
	name   string
	spread Spread
	base   bool
	note   string
}

// noteBar is the bar of an app that was not measured: its place kept, with
// "skipped" or "failed" where the bar would be; ok is false for an app that
// was neither.
func noteBar(a *App) (b bar, ok bool) {
	switch {
	case a.Skipped != "":
		return bar{name: Label(a.Name), note: "skipped"}, true
	case a.Failed != "":
		return bar{name: Label(a.Name), note: "failed"}, true
	}
	return bar{}, false
}

// wholeTicks labels the value axis with whole numbers only (requests per
// second, instructions): the default ticks, with the labels of any
// fractional tick removed and the others printed without exponent or
// decimals.
type wholeTicks struct{}

// Ticks implements plot.Ticker.
func (wholeTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label == "" {
			continue
		}
		if v := ticks[i].Value; v == math.Trunc(v) {
			ticks[i].Label = fmt.Sprintf("%.0f", v)
		} else {
			ticks[i].Label = ""
		}
	}
	return ticks
}

// drawBars draws one bar per entry with its value above it, and min-max
// error bars when withSpread is set, into the PNG file path.
func drawBars(bars []bar, title, yLabel string, label func(float64) string, withSpread bool, path string) error {
	if len(bars) == 0 {
		return ErrNoData
	}
	names := make([]string, len(bars))
	vals := make(plotter.Values, len(bars))
	spreads := make([]Spread, len(bars))
	baseIdx := -1
	for i, b := range bars {
		names[i], vals[i], spreads[i] = b.name, b.spread.Median, b.spread
		if b.base {
			baseIdx = i
		}
	}

	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	p.Y.Min = 0

	width := vg.Points(36)
	others := make(plotter.Values, len(vals))
	copy(others, vals)
	if baseIdx >= 0 {
		others[baseIdx] = 0
		base := make(plotter.Values, len(vals))
		base[baseIdx] = vals[baseIdx]
		bb, err := plotter.NewBarChart(base, width)
		if err != nil {
			return err
		}
		bb.Color = color.RGBA{R: 0x2e, G: 0x7d, B: 0x32, A: 0xff}
		bb.LineStyle.Width = 0
		p.Add(bb)
	}
	bc, err := plotter.NewBarChart(others, width)
	if err != nil {
		return err
	}
	bc.Color = color.RGBA{R: 0x45, G: 0x6e, B: 0xa8, A: 0xff}
	bc.LineStyle.Width = 0
	p.Add(bc)

	if withSpread {
		xys := make(plotter.XYs, len(vals))
		for i, v := range vals {
			xys[i] = plotter.XY{X: float64(i), Y: v}
		}
		eb, err := plotter.NewYErrorBars(minMaxErrors{XYs: xys, spreads: spreads})
		if err != nil {
			return err
		}
		p.Add(eb)
	}

	// The value above each bar, and room for it and the error bars.
	top := 0.0
	labels := make([]string, len(vals))
	for i, v := range vals {
		labels[i] = label(v)
		if bars[i].note != "" {
			labels[i] = bars[i].note
		}
		top = math.Max(top, spreads[i].Max)
	}
	p.Y.Max = top * 1.15
	if top >= 10 {
		p.Y.Tick.Marker = wholeTicks{} // counts: whole numbers on the axis
	}
	lxy := make(plotter.XYs, len(vals))
	for i, v := range vals {
		lxy[i] = plotter.XY{X: float64(i), Y: math.Max(v, spreads[i].Max) + top*0.02}
	}
	if err := addBarLabels(p, plotter.XYLabels{XYs: lxy, Labels: labels}, names); err != nil {
		return err
	}

	// A slot per bar wide enough for its name under it (about 6.5 points a
	// character), so long app names do not run into each other.
	slot := vg.Points(64)
	for _, n := range names {
		slot = max(slot, vg.Points(6.5*float64(len(n))+12))
	}
	w := vg.Length(len(names))*slot + vg.Points(120)
	if w < 5*vg.Inch {
		w = 5 * vg.Inch
	}
	return p.Save(w, 4*vg.Inch, path)
}

// addBarLabels adds labels centred over the bars and names the bars'
// slots along the x axis, with half a slot of room on each side so the
// outer bars stay off the axes.
func addBarLabels(p *plot.Plot, labels plotter.XYLabels, names []string) error {
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].XAlign = text.XCenter
	}
	p.Add(lb)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	return nil
}
