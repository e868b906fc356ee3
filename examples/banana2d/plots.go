// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/sgmcmc-go/sgmcmc/internal/targets"
)

// writePlots writes kl.png, the KL against the number of steps (Figure 2,
// right), and paths.png, the contours of the banana with each method's
// first 10 points.
func writePlots(dir string, c Config, res []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := plotKL(filepath.Join(dir, "kl.png"), c, res); err != nil {
		return err
	}
	return plotPaths(filepath.Join(dir, "paths.png"), c, res)
}

func plotKL(file string, c Config, res []Result) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Banana: KL of %d pooled chains after t steps", c.Chains)
	p.X.Label.Text = "steps t"
	p.Y.Label.Text = "KL(draws ‖ truth)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	for k, r := range res {
		var pts plotter.XYs
		for i, t := range c.Checkpoints {
			if v := r.KL[i]; v > 0 && !math.IsInf(v, 0) {
				pts = append(pts, plotter.XY{X: float64(t), Y: v})
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotutil.Color(k), plotutil.Color(k)
		l.Dashes = plotutil.Dashes(k)
		l.Width = vg.Points(1.5)
		s.Shape = plotutil.Shape(k)
		p.Add(l, s)
		p.Legend.Add(legendLabel(r), l, s)
	}
	// The exact-draw floor: the KL of as many independent draws from the
	// banana, which no sampler beats on average.
	var floor plotter.XYs
	for i, v := range ExactFloor(c) {
		if v > 0 && !math.IsInf(v, 0) {
			floor = append(floor, plotter.XY{X: float64(c.Checkpoints[i]), Y: v})
		}
	}
	if len(floor) > 0 {
		l, err := plotter.NewLine(floor)
		if err != nil {
			return err
		}
		l.Color = color.Black
		l.Width = vg.Points(1.5)
		l.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
		p.Add(l)
		p.Legend.Add("exact draws (floor)", l)
	}
	p.Legend.Top = true
	legendSpacing(&p.Legend, -1)
	return p.Save(6*vg.Inch, 4*vg.Inch, file)
}

// potentialGrid is −U on a regular grid, for the contours.
type potentialGrid struct {
	x, y []float64
}

func (g potentialGrid) Dims() (c, r int) { return len(g.x), len(g.y) }
func (g potentialGrid) X(c int) float64  { return g.x[c] }
func (g potentialGrid) Y(r int) float64  { return g.y[r] }
func (g potentialGrid) Z(c, r int) float64 {
	return -targets.Banana{}.Potential([]float64{g.x[c], g.y[r]})
}

// grey is a one-colour palette for the contour lines.
type grey struct{}

func (grey) Colors() []color.Color { return []color.Color{color.Gray{Y: 150}} }

var _ palette.Palette = grey{}

func plotPaths(file string, c Config, res []Result) error {
	const n = 200
	g := potentialGrid{x: make([]float64, n), y: make([]float64, n)}
	for i := range n {
		g.x[i] = -3.5 + 7*float64(i)/(n-1)
		g.y[i] = -2 + 4.5*float64(i)/(n-1)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Banana: contours of U = 0.5, 1, 2, 4, 8 and the first 10 points from (%g, %g)", c.Start[0], c.Start[1])
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.X.Label.Text = "θ₁"
	p.Y.Label.Text = "θ₂"
	cont := plotter.NewContour(g, []float64{-8, -4, -2, -1, -0.5}, grey{})
	p.Add(cont)
	for k, r := range res {
		pts := make(plotter.XYs, len(r.Path))
		for i, q := range r.Path {
			pts[i] = plotter.XY{X: q[0], Y: q[1]}
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotutil.Color(k), plotutil.Color(k)
		l.Width = vg.Points(1.2)
		s.Shape = draw.CircleGlyph{}
		s.Radius = vg.Points(2)
		p.Add(l, s)
		p.Legend.Add(legendLabel(r), l, s)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	legendSpacing(&p.Legend, 1)
	p.X.Min, p.X.Max = -3.5, 3.5
	p.Y.Min, p.Y.Max = -2, 2.5
	return p.Save(6*vg.Inch, 4.5*vg.Inch, file)
}

// legendSpacing spaces the legend's entries and moves it in from the side
// (dir −1 from the right, +1 from the left) and from the top, so that no
// thumbnail touches the edge of the plot.
func legendSpacing(l *plot.Legend, dir float64) {
	l.Padding = vg.Points(2)
	l.TextStyle.Font.Size = vg.Points(10)
	l.ThumbnailWidth = vg.Points(24)
	l.XOffs = vg.Length(dir) * vg.Points(8)
	l.YOffs = -vg.Points(4)
}

// legendLabel names a method and its setting.
func legendLabel(r Result) string {
	if n := paramName[r.Sampler]; n != "" {
		return fmt.Sprintf("%s (ε = %g, %s = %g)", r.Sampler, r.Point.Eps, n, r.Point.P)
	}
	return fmt.Sprintf("%s (ε = %g)", r.Sampler, r.Point.Eps)
}
