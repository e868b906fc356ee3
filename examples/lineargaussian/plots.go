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
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotFig1 writes fig1_<method>.png: the kept samples of each method over
// the 1, 2 and 3 standard deviation contours of the exact posterior.
func plotFig1(dir string, p *problem, ts []tuned) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var es mat.EigenSym
	if !es.Factorize(p.cov, true) {
		return fmt.Errorf("lineargaussian: eigendecomposition failed")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	sd0, sd1 := math.Sqrt(p.cov.At(0, 0)), math.Sqrt(p.cov.At(1, 1))
	for _, t := range ts {
		pl := plot.New()
		pl.Title.Text = fmt.Sprintf("%s: draws over the exact posterior\n(dashed: 1, 2, 3 standard deviations; step scale %.3g)", plainMethod(t.method), t.pt.a)
		pl.Title.TextStyle.Font.Size = vg.Points(10)
		pl.X.Label.Text = "θ₁"
		pl.Y.Label.Text = "θ₂"
		n := len(t.res.samples) / 2
		stride := max(1, n/3000)
		var pts plotter.XYs
		for k := 0; k < n; k += stride {
			pts = append(pts, plotter.XY{X: t.res.samples[2*k], Y: t.res.samples[2*k+1]})
		}
		if len(pts) > 0 {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			sc.GlyphStyle.Radius = vg.Points(1)
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			sc.GlyphStyle.Color = color.RGBA{R: 30, G: 90, B: 200, A: 255}
			pl.Add(sc)
		}
		for _, k := range []float64{1, 2, 3} {
			var ell plotter.XYs
			for i := 0; i <= 200; i++ {
				a := 2 * math.Pi * float64(i) / 200
				c0, c1 := k*math.Sqrt(vals[0])*math.Cos(a), k*math.Sqrt(vals[1])*math.Sin(a)
				ell = append(ell, plotter.XY{
					X: p.mean[0] + vecs.At(0, 0)*c0 + vecs.At(0, 1)*c1,
					Y: p.mean[1] + vecs.At(1, 0)*c0 + vecs.At(1, 1)*c1,
				})
			}
			l, err := plotter.NewLine(ell)
			if err != nil {
				return err
			}
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			l.Color = color.Black
			pl.Add(l)
		}
		pl.X.Min, pl.X.Max = p.mean[0]-4*sd0, p.mean[0]+4*sd0
		pl.Y.Min, pl.Y.Max = p.mean[1]-4*sd1, p.mean[1]+4*sd1
		if err := pl.Save(4*vg.Inch, 4*vg.Inch, filepath.Join(dir, "fig1_"+t.method+".png")); err != nil {
			return err
		}
	}
	return nil
}

// plotFig2 writes fig2_D<d>_iterations.png and fig2_D<d>_seconds.png: the
// error of the running mean against iterations and wall-clock time.
func plotFig2(dir string, p *problem, ts []tuned) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, axis := range []string{"iterations", "seconds"} {
		pl := plot.New()
		// Plain words: gonum/plot misplaces combining accents (θ̄, θ̂).
		pl.Title.Text = fmt.Sprintf("%d dimensions: how fast the running mean reaches the posterior mean", p.d)
		pl.Title.TextStyle.Font.Size = vg.Points(11)
		pl.X.Label.Text = "iterations"
		if axis == "seconds" {
			pl.X.Label.Text = "wall-clock seconds"
		}
		// A short label: gonum/plot shrinks the axis to fit a long one.
		pl.Y.Label.Text = "squared error of the mean"
		pl.X.Scale, pl.Y.Scale = plot.LogScale{}, plot.LogScale{}
		pl.X.Tick.Marker, pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
		pl.Legend.Top = true
		// Spaced entries, moved in from the border.
		pl.Legend.Padding = vg.Points(2)
		pl.Legend.TextStyle.Font.Size = vg.Points(10)
		pl.Legend.ThumbnailWidth = vg.Points(24)
		pl.Legend.XOffs, pl.Legend.YOffs = -vg.Points(8), -vg.Points(4)
		for i, t := range ts {
			var pts plotter.XYs
			for k, e := range t.res.trace.errs {
				x := float64(t.res.trace.iters[k])
				if axis == "seconds" {
					x = t.res.trace.secs[k]
				}
				if x > 0 && e > 0 {
					pts = append(pts, plotter.XY{X: x, Y: e})
				}
			}
			if len(pts) == 0 {
				continue
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color = plotutil.Color(i)
			l.Dashes = plotutil.Dashes(i)
			l.Width = vg.Points(1.5)
			pl.Add(l)
			pl.Legend.Add(plainMethod(t.method), l)
		}
		name := fmt.Sprintf("fig2_D%d_%s.png", p.d, axis)
		if err := pl.Save(5*vg.Inch, 4*vg.Inch, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// plainMethod names a method for a figure: HAMCMC-M2 is "HAMCMC, memory 2".
func plainMethod(m string) string {
	if mem, ok := strings.CutPrefix(m, "HAMCMC-M"); ok {
		return "HAMCMC, memory " + mem
	}
	return m
}
