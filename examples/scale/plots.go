// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"path/filepath"
	"slices"

	"github.com/sgmcmc-go/sgmcmc/internal/datadir"
	"github.com/sgmcmc-go/sgmcmc/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// defaultPlot is scale.png in the example's directory.
func defaultPlot() (string, error) {
	dir, err := datadir.Find("examples/scale", nil)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "scale.png"), nil
}

// figureMethods are the figure's lines, in legend order, with their labels.
var figureMethods = []struct{ method, label string }{
	{MethodSample, "Sample (control variates)"},
	{MethodPlain, "Sample without control variates"},
	{MethodReference, "full-batch reference (independence MH)"},
}

// WriteFigure writes the cost per effective draw against N on log–log
// axes, for the d = 20 simulated rows: per-datum gradient evaluations per
// effective draw on the left, CPU milliseconds per effective draw on the
// right, one line per method. Rows without a positive ESS are left out;
// without any d = 20 row there is no figure.
func WriteFigure(file string, rows []Row) error {
	if !slices.ContainsFunc(rows, func(r Row) bool { return r.Data == "simulated" && r.D == 20 && r.MinESSBulk > 0 }) {
		return nil // nothing to draw (-cases without a d = 20 case)
	}
	evals := costPanel(rows, "per-datum gradient evals / min bulk ESS",
		"Gradient evaluations per effective draw, d = 20", func(r Row) float64 { return r.EvalsPerESS })
	cpu := costPanel(rows, "CPU ms / min bulk ESS",
		"CPU time per effective draw, d = 20", func(r Row) float64 { return 1000 * r.CPUSeconds / r.MinESSBulk })
	return plots.Save(file, [][]*plot.Plot{{evals, cpu}}, 6*vg.Inch, 4.5*vg.Inch)
}

// costPanel is one panel of the figure: y(row) against N for each method.
func costPanel(rows []Row, ylab, title string, y func(Row) float64) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "N, number of data"
	p.Y.Label.Text = ylab
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	for k, fm := range figureMethods {
		var xy plotter.XYs
		for _, r := range rows {
			if r.Method == fm.method && r.Data == "simulated" && r.D == 20 && r.MinESSBulk > 0 {
				if v := y(r); v > 0 {
					xy = append(xy, plotter.XY{X: float64(r.N), Y: v})
				}
			}
		}
		if len(xy) == 0 {
			continue
		}
		slices.SortFunc(xy, func(a, b plotter.XY) int { return int(a.X - b.X) })
		l, s, err := plotter.NewLinePoints(xy)
		if err != nil {
			continue
		}
		l.Color, s.Color = plotutil.Color(k), plotutil.Color(k)
		l.Width = vg.Points(1.5)
		s.Shape, s.Radius = plotutil.Shape(k), vg.Points(3.5)
		if k == 2 {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l, s)
		p.Legend.Add(fm.label, l, s)
	}
	// One N (a -cases run of one case): a log axis needs a range.
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		if ax.Min == ax.Max {
			ax.Min, ax.Max = ax.Min/2, ax.Max*2
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(8)
	return p
}
