// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/sgmcmc-go/sgmcmc/internal/targets"
	"github.com/sgmcmc-go/sgmcmc/plots"
)

// densityPlot writes the four-mode mixture's marginal densities of θ₁ and
// θ₂, each method's draws (all chains of the first seed, as a histogram
// of 0.25-wide bins) against the exact density.
func densityPlot(file string, draws map[string][]float64) error {
	const lo, hi, bins = -8.0, 8.0, 64
	h := (hi - lo) / bins
	var row []*plot.Plot
	for j := range 2 {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("mixture4: marginal of θ%c", '₁'+rune(j))
		p.X.Label.Text = fmt.Sprintf("θ%c", '₁'+rune(j))
		p.Y.Label.Text = "density"
		// The legend in the empty middle, between the modes at ±4.
		p.Legend.Top = true
		p.Legend.XOffs = -1.55 * vg.Inch
		// The exact marginal: Σ_k w_k N(x; μ_kj, 1).
		truth := make(plotter.XYs, 400)
		for i := range truth {
			x := lo + (hi-lo)*float64(i)/float64(len(truth)-1)
			y := 0.0
			for k, mu := range targets.FourModesMeans {
				y += targets.FourModesWeights[k] * math.Exp(-(x-mu[j])*(x-mu[j])/2) / math.Sqrt(2*math.Pi)
			}
			truth[i] = plotter.XY{X: x, Y: y}
		}
		tl, err := plotter.NewLine(truth)
		if err != nil {
			return err
		}
		tl.Width = vg.Points(2.5)
		p.Add(tl)
		p.Legend.Add("exact", tl)
		for c, mn := range methods {
			x := draws[mn]
			if len(x) == 0 {
				continue
			}
			cnt := make([]float64, bins)
			n := len(x) / 2
			for i := range n {
				k := int(math.Floor((x[2*i+j] - lo) / h))
				if k >= 0 && k < bins {
					cnt[k]++
				}
			}
			pts := make(plotter.XYs, 0, 2*bins)
			for k, v := range cnt {
				y := v / (float64(n) * h)
				pts = append(pts, plotter.XY{X: lo + float64(k)*h, Y: y}, plotter.XY{X: lo + float64(k+1)*h, Y: y})
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color = plots.ChainColor(c)
			l.Width = vg.Points(1)
			if mn != multimodalMethod {
				l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			} else {
				l.Width = vg.Points(1.5)
			}
			p.Add(l)
			p.Legend.Add(mn, l)
		}
		p.X.Min, p.X.Max = lo, hi
		p.Y.Min = 0
		p.Legend.ThumbnailWidth = vg.Points(20)
		row = append(row, p)
	}
	return plots.Save(file, [][]*plot.Plot{row}, 5*vg.Inch, 3.6*vg.Inch)
}
