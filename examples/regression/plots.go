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
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// tab10 is a palette of ten distinct colours (matplotlib's "tab10").
var tab10 = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{214, 39, 40, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
	color.RGBA{227, 119, 194, 255}, color.RGBA{127, 127, 127, 255}, color.RGBA{188, 189, 34, 255},
	color.RGBA{23, 190, 207, 255},
}

// writePlots writes, into dir: intervals_<data>_<model>.png, the posterior
// 95 % intervals and medians of every coefficient for each method (the
// report's figure); lasso_paths.png, the diabetes posterior medians against
// λ (Park & Casella's figure); and cv_boston.png, each model's CV RMSE over
// the fold draws beside the report's single numbers.
func writePlots(dir string, c Config, res *Result) error {
	if len(res.Posteriors) == 0 {
		return errNoPlots
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, data := range []string{"boston", "diabetes"} {
		for _, model := range []string{"BLR", "BLASSO"} {
			var ps []Posterior
			for _, p := range res.Posteriors {
				if p.Data == data && p.Model == model {
					ps = append(ps, p)
				}
			}
			if len(ps) == 0 {
				continue
			}
			file := filepath.Join(dir, fmt.Sprintf("intervals_%s_%s.png", data, model))
			if err := plotIntervals(file, data, model, ps); err != nil {
				return err
			}
		}
	}
	if len(res.Paths) > 0 {
		if err := plotPaths(filepath.Join(dir, "lasso_paths.png"), c, res); err != nil {
			return err
		}
	}
	return plotCV(filepath.Join(dir, "cv_boston.png"), c, res)
}

func plotIntervals(file, data, model string, ps []Posterior) error {
	names := ps[0].Names
	p := plot.New()
	desc := map[string]string{"BLR": "Bayesian linear regression, g-prior", "BLASSO": "Bayesian lasso"}[model]
	if model == "BLASSO" && data == "diabetes" {
		desc = "Park & Casella's Bayesian lasso, λ = 0.237"
	}
	p.Title.Text = fmt.Sprintf("%s, %s: posterior medians and 95%% intervals", map[string]string{"boston": "Boston", "diabetes": "Diabetes"}[data], desc)
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = "coefficient (response units per predictor sd)"
	p.Y.Label.Text = "predictor"
	k := len(ps)
	for m, post := range ps {
		s := post.Summary
		off := 0.25 * (float64(m) - float64(k-1)/2) / math.Max(1, float64(k-1)/2)
		var bars plotter.XYs
		var errs plotter.XErrors
		for j := range names {
			y := float64(len(names)-1-j) + off
			med := s.Median[j] * post.Unit
			bars = append(bars, plotter.XY{X: med, Y: y})
			errs = append(errs, struct{ Low, High float64 }{med - s.Lo[j]*post.Unit, s.Hi[j]*post.Unit - med})
		}
		eb, err := plotter.NewXErrorBars(struct {
			plotter.XYer
			plotter.XErrorer
		}{bars, errs})
		if err != nil {
			return err
		}
		col := tab10[m%len(tab10)]
		eb.LineStyle.Color = col
		eb.LineStyle.Width = vg.Points(1.5)
		sc, err := plotter.NewScatter(bars)
		if err != nil {
			return err
		}
		sc.Color = col
		sc.Shape = draw.CircleGlyph{}
		sc.Radius = vg.Points(2.5)
		p.Add(eb, sc)
		label := post.Method
		if label == "exact" {
			label = map[string]string{"BLR": "exact (conjugate draws)", "BLASSO": "exact (Gibbs)"}[model]
		}
		p.Legend.Add(label, sc)
	}
	v, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(len(names)) - 0.5}})
	if err != nil {
		return err
	}
	v.Color = color.Gray{Y: 160}
	v.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(v)
	rev := slices.Clone(names)
	slices.Reverse(rev)
	p.NominalY(rev...)
	// Room above the first predictor for the legend.
	p.Y.Min, p.Y.Max = -0.6, float64(len(names))+0.9
	p.Legend.Top = true
	p.Legend.Left = true
	return p.Save(7*vg.Inch, 0.35*vg.Inch*vg.Length(len(names)+5), file)
}

func plotPaths(file string, c Config, res *Result) error {
	names := res.Names["diabetes"]
	unit := 1 / math.Sqrt(442)
	p := plot.New()
	p.Title.Text = "Diabetes, Park & Casella's Bayesian lasso: posterior medians against λ"
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = "λ (predictors scaled to unit Euclidean norm)"
	p.Y.Label.Text = "posterior median (response units per predictor sd)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	var exact, sg []PathPoint
	for _, pt := range res.Paths {
		if pt.Method == "exact" {
			exact = append(exact, pt)
		} else {
			sg = append(sg, pt)
		}
	}
	for j, name := range names {
		var xy plotter.XYs
		for _, pt := range exact {
			xy = append(xy, plotter.XY{X: pt.Lambda, Y: pt.Summary.Median[j] * unit})
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		l.Color = tab10[j%len(tab10)]
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(name, l)
		if len(sg) > 0 {
			var pts plotter.XYs
			for _, pt := range sg {
				pts = append(pts, plotter.XY{X: pt.Lambda, Y: pt.Summary.Median[j] * unit})
			}
			s, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			s.Color = tab10[j%len(tab10)]
			s.Shape = draw.CrossGlyph{}
			s.Radius = vg.Points(4)
			p.Add(s)
		}
	}
	if len(sg) > 0 {
		// A legend key only, not added to the plot.
		key, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 0}})
		if err != nil {
			return err
		}
		key.Shape = draw.CrossGlyph{}
		key.Radius = vg.Points(4)
		p.Legend.Add(sg[0].Method+" medians", key)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, pt := range exact {
		for j := range names {
			lo, hi = min(lo, pt.Summary.Median[j]*unit), max(hi, pt.Summary.Median[j]*unit)
		}
	}
	ref, err := plotter.NewLine(plotter.XYs{{X: c.DiabetesLambda, Y: lo}, {X: c.DiabetesLambda, Y: hi}})
	if err != nil {
		return err
	}
	ref.Color = color.Gray{Y: 120}
	ref.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(ref)
	p.Legend.Add(fmt.Sprintf("λ = %g (EM)", c.DiabetesLambda), ref)
	p.Legend.Top = true
	return p.Save(8*vg.Inch, 5*vg.Inch, file)
}

func plotCV(file string, c Config, res *Result) error {
	type col struct {
		label, key string
		report     float64
	}
	var cols []col
	for _, r := range res.Rows {
		if r.Data != "boston" {
			continue
		}
		k := r.Model + "/" + r.Method
		cols = append(cols, col{label: k, key: "boston/" + k, report: report[k]})
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Boston: %d-fold CV RMSE, one dot per random fold draw (%d draws), and the report's single values", c.Folds, c.FoldDraws)
	p.Title.TextStyle.Font.Size = vg.Points(10)
	p.Y.Label.Text = "CV RMSE (MEDV, $1000s)"
	var labels []string
	for i, cl := range cols {
		labels = append(labels, cl.label)
		for v, key := range []string{cl.key, "boston-noB/" + cl.label} {
			xs := res.FoldRMSE[key]
			if len(xs) == 0 {
				continue
			}
			var pts plotter.XYs
			for r, x := range xs {
				jit := 0.15 * (float64(r)/float64(max(len(xs)-1, 1)) - 0.5)
				pts = append(pts, plotter.XY{X: float64(i) - 0.15 + 0.3*float64(v) + jit*0.6, Y: x})
			}
			s, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			s.Color = tab10[v]
			s.Shape = draw.CircleGlyph{}
			s.Radius = vg.Points(2)
			p.Add(s)
			if i == 0 {
				p.Legend.Add([]string{"with B (the report's 13 predictors)", "without B"}[v], s)
			}
		}
		if cl.report > 0 {
			s, err := plotter.NewScatter(plotter.XYs{{X: float64(i), Y: cl.report}})
			if err != nil {
				return err
			}
			s.Color = color.RGBA{200, 0, 0, 255}
			s.Shape = draw.CrossGlyph{}
			s.Radius = vg.Points(5)
			p.Add(s)
			if i == 0 {
				p.Legend.Add("report (Shao & Fu 2019)", s)
			}
		}
	}
	p.NominalX(labels...)
	p.X.Label.Text = "model / method"
	return p.Save(9*vg.Inch, 4.5*vg.Inch, file)
}
