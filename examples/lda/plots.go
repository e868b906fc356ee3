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
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// writePlots writes perplexity.png, every method's perplexity against the
// documents processed up to the SG budget (the papers' figures), and
// perplexity_gibbs.png, the same on a log axis over the whole Gibbs run.
func writePlots(dir string, res *Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b := budget(res)
	if err := plotPerplexity(filepath.Join(dir, "perplexity.png"), res, float64(b), false); err != nil {
		return err
	}
	return plotPerplexity(filepath.Join(dir, "perplexity_gibbs.png"), res, math.Inf(1), true)
}

func plotPerplexity(file string, res *Results, xmax float64, logX bool) error {
	p := plot.New()
	c := res.Config
	if logX {
		p.Title.Text = fmt.Sprintf("Brown corpus, K = %d: held-out perplexity, SG-MCMC and the whole collapsed Gibbs run", c.Model.K)
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	} else {
		p.Title.Text = fmt.Sprintf("Brown corpus, K = %d: held-out perplexity of online LDA (%d seeds, median bold)", c.Model.K, c.Seeds)
	}
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = "documents processed (minibatches × 50; Gibbs: sweeps × 3,604)"
	p.Y.Label.Text = "perplexity (document completion)"
	ymin := math.Inf(1)
	for k, m := range methodOrder(res) {
		runs := res.Runs[m]
		col := plotutil.Color(k)
		if m == Gibbs {
			col = color.Black
		}
		// Thin lines for the seeds, a bold one for the median.
		var med plotter.XYs
		for i, pt := range runs[0].Points {
			x := float64(pt.Docs)
			if x > xmax || (logX && x == 0) {
				continue
			}
			var v []float64
			for _, r := range runs {
				if i < len(r.Points) {
					v = append(v, r.Points[i].Perplexity)
				}
			}
			med = append(med, plotter.XY{X: x, Y: summarize(v).med})
			ymin = min(ymin, summarize(v).lo)
		}
		if len(med) == 0 {
			continue
		}
		for _, r := range runs {
			var pts plotter.XYs
			for _, pt := range r.Points {
				if x := float64(pt.Docs); x <= xmax && !(logX && x == 0) {
					pts = append(pts, plotter.XY{X: x, Y: pt.Perplexity})
				}
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color = withAlpha(col, 90)
			l.Width = vg.Points(0.6)
			p.Add(l)
		}
		l, s, err := plotter.NewLinePoints(med)
		if err != nil {
			return err
		}
		l.Color, s.Color = col, col
		l.Width = vg.Points(1.8)
		l.Dashes = plotutil.Dashes(k)
		s.Shape = plotutil.Shape(k)
		s.Radius = vg.Points(2)
		p.Add(l, s)
		label := m
		if m != Gibbs {
			label = fmt.Sprintf("%s (%v)", m, runs[0].Setting)
		}
		p.Legend.Add(label, l, s)
	}
	// The unigram baseline, and the end of the Gibbs run on the linear plot.
	xlo, xhi := 0.0, xmax
	if logX {
		xlo, xhi = float64(c.Every*c.Batch), 0
		for _, runs := range res.Runs {
			for _, r := range runs {
				xhi = math.Max(xhi, float64(r.Points[len(r.Points)-1].Docs))
			}
		}
	}
	hline := func(y float64, label string, col color.Color) error {
		l, err := plotter.NewLine(plotter.XYs{{X: xlo, Y: y}, {X: xhi, Y: y}})
		if err != nil {
			return err
		}
		l.Color = col
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(l)
		p.Legend.Add(label, l)
		return nil
	}
	if err := hline(res.Unigram, fmt.Sprintf("unigram model (%.0f)", res.Unigram), color.Gray{Y: 60}); err != nil {
		return err
	}
	if g := res.Runs[Gibbs]; len(g) > 0 && !logX {
		gm := summarize(final(g)).med
		if err := hline(gm, fmt.Sprintf("collapsed Gibbs after %d sweeps (%.0f)", c.GibbsSweeps, gm), color.Gray{Y: 150}); err != nil {
			return err
		}
		ymin = min(ymin, gm)
	}
	p.Y.Min = 0.95 * ymin
	p.Y.Max = 1.5 * res.Unigram
	p.X.Min = xlo
	p.X.Max = xhi
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Add(plotter.NewGrid())
	return p.Save(9*vg.Inch, 6*vg.Inch, file)
}

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}
