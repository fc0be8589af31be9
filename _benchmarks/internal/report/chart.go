// Bar chart of a comparison, drawn with gonum.org/v1/plot: one bar per
// measured app with its median requests per second, and an error bar from the
// slowest to the fastest run so the spread between runs is visible.
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
// file path. The baseline's bar is drawn in a distinct colour.
func WriteChart(c *Comparison, path string) error {
	var names []string
	var vals plotter.Values
	var spreads []Spread
	baseIdx := -1
	for i := range c.Apps {
		a := &c.Apps[i]
		if a.Summary == nil {
			continue
		}
		if a.Name == c.Baseline {
			baseIdx = len(names)
		}
		names = append(names, a.Name)
		vals = append(vals, a.Summary.RequestsPerSec.Median)
		spreads = append(spreads, a.Summary.RequestsPerSec)
	}
	if len(names) == 0 {
		return ErrNoData
	}

	p := plot.New()
	title := c.Name
	if c.Variant != "" {
		title += " (" + c.Variant + ")"
	}
	p.Title.Text = fmt.Sprintf("%s: %s %s, requests/s (median, min-max)", title, c.Method, c.Path)
	p.Y.Label.Text = "requests per second"
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
	bars, err := plotter.NewBarChart(others, width)
	if err != nil {
		return err
	}
	bars.Color = color.RGBA{R: 0x45, G: 0x6e, B: 0xa8, A: 0xff}
	bars.LineStyle.Width = 0
	p.Add(bars)

	xys := make(plotter.XYs, len(vals))
	for i, v := range vals {
		xys[i] = plotter.XY{X: float64(i), Y: v}
	}
	eb, err := plotter.NewYErrorBars(minMaxErrors{XYs: xys, spreads: spreads})
	if err != nil {
		return err
	}
	p.Add(eb)

	// The median above each bar, and room for it and the error bars.
	top := 0.0
	labels := make([]string, len(vals))
	for i, v := range vals {
		labels[i] = fmt.Sprintf("%.0f", v)
		top = math.Max(top, spreads[i].Max)
	}
	p.Y.Max = top * 1.15
	lxy := make(plotter.XYs, len(vals))
	for i, v := range vals {
		lxy[i] = plotter.XY{X: float64(i), Y: math.Max(v, spreads[i].Max) + top*0.02}
	}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: lxy, Labels: labels})
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].XAlign = text.XCenter
	}
	p.Add(lb)
	p.NominalX(names...)
	// Half a slot of room on each side keeps the outer bars off the axes.
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5

	w := vg.Length(len(names))*vg.Points(64) + vg.Points(120)
	if w < 5*vg.Inch {
		w = 5 * vg.Inch
	}
	return p.Save(w, 4*vg.Inch, path)
}
