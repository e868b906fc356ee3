// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// writePlots writes kl.png, the bar chart of the KL divergences (Figure 2,
// left), and density_<target>.png, each sampler's histogram against the
// true density.
func writePlots(dir string, c Config, res []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := plotKL(filepath.Join(dir, "kl.png"), res); err != nil {
		return err
	}
	for _, tn := range targetNames {
		if err := plotDensity(filepath.Join(dir, "density_"+tn+".png"), c, tn, res); err != nil {
			return err
		}
	}
	return nil
}

func find(res []Result, tn, sn string) *Result {
	for i := range res {
		if res[i].Target == tn && res[i].Sampler == sn {
			return &res[i]
		}
	}
	return nil
}

// plotKL draws one group of bars per sampler, one bar per target, each
// labelled with its value.
func plotKL(file string, res []Result) error {
	p := plot.New()
	p.Title.Text = "KL divergence to the true density"
	p.Y.Label.Text = "KL(draws ‖ truth)"
	w := vg.Points(28)
	var ymax float64
	for k, tn := range targetNames {
		vals := make(plotter.Values, len(samplerNames))
		labels := plotter.XYLabels{XYs: make(plotter.XYs, len(samplerNames)), Labels: make([]string, len(samplerNames))}
		for i, sn := range samplerNames {
			r := find(res, tn, sn)
			vals[i] = r.KL
			ymax = max(ymax, r.KL)
			labels.XYs[i] = plotter.XY{X: float64(i), Y: r.KL}
			labels.Labels[i] = fmt.Sprintf("%.4f", r.KL)
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		b.Color = plotutil.Color(k)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(k)-0.5) * w
		l, err := plotter.NewLabels(labels)
		if err != nil {
			return err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = vg.Points(7)
			l.TextStyle[i].XAlign = -0.5
		}
		l.Offset = vg.Point{X: b.Offset, Y: vg.Points(2)}
		p.Add(b, l)
		p.Legend.Add(tn, b)
	}
	p.Legend.Top = true
	p.NominalX(samplerNames...)
	p.Y.Min, p.Y.Max = 0, 1.2*ymax
	return p.Save(6*vg.Inch, 4*vg.Inch, file)
}

// plotDensity draws the histogram of each sampler's draws on the KL grid as
// a step line, over the true density.
func plotDensity(file string, c Config, tn string, res []Result) error {
	t := target(tn)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: sampled densities (ε as in the table, σ = %g)", tn, c.Sigma)
	p.X.Label.Text = "θ"
	p.Y.Label.Text = "density"
	truth := plotter.NewFunction(t.Density)
	truth.Samples = 400
	truth.Width = vg.Points(2)
	truth.Color = color.Black
	p.Add(truth)
	p.Legend.Add("truth", truth)
	width := (klGrid.Max - klGrid.Min) / float64(klGrid.Bins)
	var ymax float64
	for k, sn := range samplerNames {
		r := find(res, tn, sn)
		counts := make([]float64, klGrid.Bins)
		var inside float64
		for _, x := range r.Draws {
			if x < klGrid.Min || x > klGrid.Max {
				continue
			}
			i := min(int((x-klGrid.Min)/width), klGrid.Bins-1)
			counts[i]++
			inside++
		}
		var pts plotter.XYs
		for i, n := range counts {
			lo := klGrid.Min + float64(i)*width
			d := n / (inside * width)
			ymax = max(ymax, d)
			pts = append(pts, plotter.XY{X: lo, Y: d}, plotter.XY{X: lo + width, Y: d})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(k + 2)
		l.Dashes = plotutil.Dashes(k)
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (KL %.4f)", sn, r.KL), l)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	lo, hi := -4.0, 4.0
	if tn == "two-peaks" {
		lo, hi = -2.5, 2.5
	}
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min, p.Y.Max = 0, 1.4*ymax // room for the legend
	return p.Save(6*vg.Inch, 4*vg.Inch, file)
}
