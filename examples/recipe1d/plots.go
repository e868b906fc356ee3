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
	"gonum.org/v1/plot/vg/draw"
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

// barColors tell the targets apart also for colour-blind readers
// (Okabe–Ito blue and orange).
var barColors = []color.Color{color.RGBA{0x00, 0x72, 0xB2, 0xff}, color.RGBA{0xE6, 0x9F, 0x00, 0xff}}

// plotKL draws one group of bars per sampler, one bar per target, each
// labelled with its value, on a logarithmic axis: the KLs span three
// decades (10⁻⁴ to 0.2), and on a linear axis the small ones vanish.
func plotKL(file string, res []Result) error {
	p := plot.New()
	p.Title.Text = "KL divergence to the true density (log scale)"
	p.Y.Label.Text = "KL(draws ‖ truth)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	lo, hi := math.Inf(1), 0.0
	for _, r := range res {
		if r.KL > 0 {
			lo, hi = math.Min(lo, r.KL), math.Max(hi, r.KL)
		}
	}
	if hi == 0 {
		return fmt.Errorf("recipe1d: no positive KL to plot")
	}
	// The bars rise from two decades below the smallest KL, so that the
	// smallest still shows; the axis leaves room above the tallest for its
	// label and the legend.
	base := math.Pow(10, math.Floor(math.Log10(lo))-1)
	top := math.Pow(10, math.Ceil(math.Log10(hi)+0.5))
	const w = 0.28 // bar width in units of the sampler groups
	for k, tn := range targetNames {
		labels := plotter.XYLabels{XYs: make(plotter.XYs, len(samplerNames)), Labels: make([]string, len(samplerNames))}
		var first *plotter.Polygon
		for i, sn := range samplerNames {
			r := find(res, tn, sn)
			x := float64(i) + (float64(k)-0.5)*w
			v := math.Max(r.KL, base)
			bar, err := plotter.NewPolygon(plotter.XYs{{X: x - w/2, Y: base}, {X: x + w/2, Y: base}, {X: x + w/2, Y: v}, {X: x - w/2, Y: v}})
			if err != nil {
				return err
			}
			bar.Color = barColors[k%len(barColors)]
			bar.LineStyle.Width = 0
			p.Add(bar)
			if first == nil {
				first = bar
			}
			labels.XYs[i] = plotter.XY{X: x, Y: v}
			labels.Labels[i] = fmt.Sprintf("%.2g", r.KL)
		}
		l, err := plotter.NewLabels(labels)
		if err != nil {
			return err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].Font.Size = vg.Points(7)
			l.TextStyle[i].XAlign = draw.XCenter
		}
		l.Offset = vg.Point{Y: vg.Points(2)}
		p.Add(l)
		p.Legend.Add(tn, first)
	}
	p.Legend.Top = true
	p.NominalX(samplerNames...)
	p.X.Min, p.X.Max = -0.6, float64(len(samplerNames))-0.4
	p.Y.Min, p.Y.Max = base, top
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
