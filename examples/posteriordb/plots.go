// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// writePlots writes errors.png (each row's worst mean error against its
// worst sd error, with the goal's box) and cost.png (each row's smallest
// bulk ESS against its gradient evaluations, with the goal's levels) into
// dir.
func writePlots(dir string, rows []Row) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Rows of failed runs without figures are not drawn.
	rows = slices.DeleteFunc(slices.Clone(rows), func(r Row) bool {
		return math.IsNaN(r.MaxMeanErrSD) || math.IsNaN(r.MinESSBulk)
	})
	// Log axes: errors below 1e-4 are drawn at 1e-4, above 10 at 10.
	const floor, ceil = 1e-4, 10
	clamp := func(v float64) float64 { return math.Min(math.Max(v, floor), ceil) }
	err := scatter(filepath.Join(dir, "errors.png"), rows,
		"Worst error of each method on each target (goal: inside the dashed box)",
		"worst |mean − reference| / reference sd (clamped to [1e-4, 10])", "worst |sd / reference sd − 1| (clamped to [1e-4, 10])",
		func(r Row) (float64, float64) { return clamp(r.MaxMeanErrSD), clamp(math.Abs(r.MaxSDRelErr)) },
		[]goalLine{{vertical: true, at: 0.1}, {at: 0.1}}, true)
	if err != nil {
		return err
	}
	return scatter(filepath.Join(dir, "cost.png"), rows,
		"Cost and efficiency of each method on each target",
		"per-datum gradient evaluations, warmup included", "smallest bulk ESS over the parameters",
		func(r Row) (float64, float64) { return math.Max(float64(r.GradEvals), 1), math.Max(r.MinESSBulk, 1) },
		[]goalLine{{at: 1000, label: "goal, ESS 1,000"}, {at: 2000, label: "goal on illcond100, ESS 2,000", dotted: true}}, false)
}

// goalLine is a dashed (or dotted) line across the plot at x = at
// (vertical) or y = at, with an optional legend label.
type goalLine struct {
	vertical bool
	at       float64
	label    string
	dotted   bool
}

// scatter draws one point per row, colour by method and glyph by target,
// on log axes, with the goal lines, and the legend at the top left or
// right.
func scatter(file string, rows []Row, title, xlab, ylab string, xy func(Row) (float64, float64), goals []goalLine, legendLeft bool) error {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text, p.Y.Label.Text = xlab, ylab
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	var targets, methods []string
	for _, r := range rows {
		if !slices.Contains(targets, r.Target) {
			targets = append(targets, r.Target)
		}
		if !slices.Contains(methods, r.Method) {
			methods = append(methods, r.Method)
		}
	}
	// The axes' ranges cover the points and the goal lines.
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		x, y := xy(r)
		xmin, xmax, ymin, ymax = math.Min(xmin, x), math.Max(xmax, x), math.Min(ymin, y), math.Max(ymax, y)
	}
	for _, g := range goals {
		if g.vertical {
			xmin, xmax = math.Min(xmin, g.at/2), math.Max(xmax, 2*g.at)
		} else {
			ymin, ymax = math.Min(ymin, g.at/2), math.Max(ymax, 2*g.at)
		}
	}
	p.X.Min, p.X.Max = xmin/1.5, xmax*1.5
	p.Y.Min, p.Y.Max = ymin/1.5, ymax*3
	for _, g := range goals {
		pts := plotter.XYs{{X: p.X.Min, Y: g.at}, {X: p.X.Max, Y: g.at}}
		if g.vertical {
			pts = plotter.XYs{{X: g.at, Y: p.Y.Min}, {X: g.at, Y: p.Y.Max}}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		if g.dotted {
			l.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
		}
		l.Color = color.Gray{Y: 100}
		p.Add(l)
		if g.label != "" {
			p.Legend.Add(g.label, l)
		}
	}
	for _, r := range rows {
		x, y := xy(r)
		s, err := plotter.NewScatter(plotter.XYs{{X: x, Y: y}})
		if err != nil {
			return err
		}
		s.Color = plotutil.Color(slices.Index(methods, r.Method))
		s.Shape = plotutil.Shape(slices.Index(targets, r.Target))
		s.Radius = vg.Points(4)
		p.Add(s)
	}
	for k, m := range methods {
		s, _ := plotter.NewScatter(plotter.XYs{{}})
		s.Color = plotutil.Color(k)
		s.Shape = draw.CircleGlyph{}
		s.Radius = vg.Points(4)
		p.Legend.Add(m, s)
	}
	for k, t := range targets {
		s, _ := plotter.NewScatter(plotter.XYs{{}})
		s.Color = color.Black
		s.Shape = plotutil.Shape(k)
		s.Radius = vg.Points(4)
		p.Legend.Add(t, s)
	}
	p.Legend.Top = true
	p.Legend.Left = legendLeft
	return p.Save(7*vg.Inch, 5*vg.Inch, file)
}
