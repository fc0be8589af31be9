// This file draws the chart of one test type: a line per stack through
// the median requests per second of each level of its sweep (connections,
// or queries per request), so the curve and where it peaks are visible;
// the floor's line is drawn thicker. Stacks without figures are left out.
package techempower

import (
	"errors"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

var errNoCurve = errors.New("techempower: no curve to draw")

// levelTicks labels the x axis with the levels' names.
type levelTicks []string

func (t levelTicks) Ticks(min, max float64) []plot.Tick {
	ticks := make([]plot.Tick, len(t))
	for i, l := range t {
		ticks[i] = plot.Tick{Value: float64(i), Label: l}
	}
	return ticks
}

func writeCurveChart(r *Report, t tfb.Type, path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: requests/s per level (median of %d rounds)", t, r.Rounds)
	p.Y.Label.Text = "requests per second"
	p.Y.Min = 0
	p.Legend.Top = true
	drawn := 0
	var ticks levelTicks
	for i, a := range r.Apps {
		tr := a.Tests[t]
		if tr == nil || len(tr.Levels) == 0 {
			continue
		}
		var pts plotter.XYs
		var labels levelTicks
		for x, l := range tr.Levels {
			if l == nil {
				continue
			}
			pts = append(pts, plotter.XY{X: float64(x), Y: l.RequestsPerSec.Median})
			labels = append(labels, l.label())
		}
		if len(labels) > len(ticks) {
			ticks = labels
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		c := plotutil.Color(i)
		line.Color, points.Color = c, c
		points.Shape = plotutil.Shape(i)
		if a.Name == Floor {
			line.Width = vg.Points(2.5)
			line.Color, points.Color = color.Black, color.Black
		}
		p.Add(line, points)
		p.Legend.Add(a.Label, line, points)
		drawn++
	}
	if drawn == 0 {
		return errNoCurve
	}
	p.X.Tick.Marker = ticks
	p.X.Min, p.X.Max = -0.2, float64(len(ticks))-0.8
	if t == tfb.Queries || t == tfb.Updates {
		p.X.Label.Text = "queries per request (512 connections)"
	} else if t == tfb.Plaintext {
		p.X.Label.Text = "connections (HTTP/1.1 pipelined 16 deep)"
	} else {
		p.X.Label.Text = "connections"
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, path)
}
