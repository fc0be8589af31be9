// The cold-start chart of a footprint report: one bar per app with its
// median time from exec to the first response and a min-max error bar, on a
// logarithmic axis, because the figures span three orders of magnitude (a
// few milliseconds for a Go binary or a Native AOT executable, seconds for
// a JIT runtime or a Node cluster) and a linear axis would flatten the
// fast apps to nothing. The bars are drawn as polygons from the axis' floor
// (a power of ten below the fastest start), since a log axis has no zero.
// A skipped or failed app keeps its place with a note, as in every chart.
package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// WriteColdStartChart draws the cold starts of c's apps (median time to the
// first response, min-max error bars, milliseconds on a log axis) into the
// PNG file path.
func WriteColdStartChart(c *Comparison, path string) error {
	var bars []bar
	lo, hi := math.Inf(1), 0.0
	for i := range c.Apps {
		a := &c.Apps[i]
		if !a.FootprintMeasured() {
			if b, ok := noteBar(a); ok {
				bars = append(bars, b)
			}
			continue
		}
		s := a.Footprint.ColdStart.FirstResponse
		if s.Min <= 0 {
			return fmt.Errorf("report: %s: cold start %v ms is not positive", a.Name, s.Min)
		}
		lo, hi = math.Min(lo, s.Min), math.Max(hi, s.Max)
		bars = append(bars, bar{name: Label(a.Name), spread: s, base: a.Name == c.Baseline})
	}
	if hi == 0 {
		return ErrNoData
	}
	floor := math.Pow(10, math.Floor(math.Log10(lo)))
	top := math.Pow(10, math.Ceil(math.Log10(hi*2))) // room for the labels

	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s %s, cold start to first response (median, min-max)", c.title(), c.Method, c.Path)
	p.Y.Label.Text = "milliseconds (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = floor, top

	names := make([]string, len(bars))
	var xys plotter.XYs
	var spreads []Spread
	var labels plotter.XYLabels
	for i, b := range bars {
		names[i] = b.name
		x := float64(i)
		if b.note != "" {
			labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: floor * 1.3})
			labels.Labels = append(labels.Labels, b.note)
			continue
		}
		poly, err := plotter.NewPolygon(plotter.XYs{{X: x - 0.3, Y: floor}, {X: x + 0.3, Y: floor},
			{X: x + 0.3, Y: b.spread.Median}, {X: x - 0.3, Y: b.spread.Median}})
		if err != nil {
			return err
		}
		poly.Color = color.RGBA{R: 0x45, G: 0x6e, B: 0xa8, A: 0xff}
		if b.base {
			poly.Color = color.RGBA{R: 0x2e, G: 0x7d, B: 0x32, A: 0xff}
		}
		poly.LineStyle.Width = 0
		p.Add(poly)
		xys = append(xys, plotter.XY{X: x, Y: b.spread.Median})
		spreads = append(spreads, b.spread)
		labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: b.spread.Max * 1.25})
		labels.Labels = append(labels.Labels, formatMillis(b.spread.Median))
	}
	eb, err := plotter.NewYErrorBars(minMaxErrors{XYs: xys, spreads: spreads})
	if err != nil {
		return err
	}
	p.Add(eb)
	if err := addBarLabels(p, labels, names); err != nil {
		return err
	}

	w := vg.Length(len(names))*vg.Points(72) + vg.Points(120)
	if w < 5*vg.Inch {
		w = 5 * vg.Inch
	}
	return p.Save(w, 4*vg.Inch, path)
}
