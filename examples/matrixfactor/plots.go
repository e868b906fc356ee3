// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// writePlots writes rmse_time.png (the paper's Figure 5: test RMSE against
// seconds) and rmse_iterations.png (against iterations): one line per
// method and seed, and the global-mean predictor.
func writePlots(dir string, c Config, res *Result, name string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := plotRMSE(filepath.Join(dir, "rmse_time.png"), c, res, name, false); err != nil {
		return err
	}
	return plotRMSE(filepath.Join(dir, "rmse_iterations.png"), c, res, name, true)
}

func plotRMSE(file string, c Config, res *Result, name string, iters bool) error {
	p := plot.New()
	what := "time"
	if iters {
		what = "iterations"
	}
	p.Title.Text = fmt.Sprintf("Matrix factorisation X ≈ WH, K = %d: test RMSE of the running posterior-mean\nprediction against %s (%s; one line per seed)", c.Rank, what, name)
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = "seconds of computing (each method's own steps, log scale)"
	if iters {
		p.X.Label.Text = "iterations (log scale)"
	}
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = logTicks125{}
	p.Y.Label.Text = "test RMSE"
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for k, m := range Methods {
		bySeed := map[uint64]plotter.XYs{}
		for _, r := range res.Rows {
			if r.Method != m {
				continue
			}
			x := r.Seconds
			if iters {
				x = float64(r.Iteration)
			}
			bySeed[r.Seed] = append(bySeed[r.Seed], plotter.XY{X: x, Y: r.RMSE})
			ymin, ymax = min(ymin, r.RMSE), max(ymax, r.RMSE)
		}
		seeds := make([]uint64, 0, len(bySeed))
		for s := range bySeed {
			seeds = append(seeds, s)
		}
		sort.Slice(seeds, func(i, j int) bool { return seeds[i] < seeds[j] })
		for i, s := range seeds {
			l, pts, err := plotter.NewLinePoints(bySeed[s])
			if err != nil {
				return err
			}
			l.Color, pts.Color = plotutil.Color(k), plotutil.Color(k)
			l.Dashes = plotutil.Dashes(k)
			l.Width = vg.Points(1.2)
			pts.Shape = plotutil.Shape(k)
			pts.Radius = vg.Points(2)
			p.Add(l, pts)
			if i == 0 {
				p.Legend.Add(fmt.Sprintf("%s (%s)", m, res.Chosen[m].String(m)), l, pts)
			}
		}
	}
	// The global-mean predictor is far above the samplers' curves: draw it
	// only if it fits in a range that keeps them readable, else name it.
	if ymax > ymin {
		lo, hi := ymin-0.05*(ymax-ymin), ymax+0.3*(ymax-ymin)
		if res.MeanRMSE <= hi {
			hi = max(res.MeanRMSE, ymax) + 0.05*(ymax-ymin)
			f := plotter.NewFunction(func(float64) float64 { return res.MeanRMSE })
			f.Color = plotutil.Color(len(Methods))
			f.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
			p.Add(f)
			p.Legend.Add(fmt.Sprintf("global-mean predictor (%.4f)", res.MeanRMSE), f)
		} else {
			p.Legend.Add(fmt.Sprintf("global-mean predictor: %.4f (above the plot)", res.MeanRMSE))
		}
		p.Y.Min, p.Y.Max = lo, hi
		p.Y.Tick.Marker = evenTicks{}
	}
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Add(plotter.NewGrid())
	return p.Save(7*vg.Inch, 4.5*vg.Inch, file)
}

// evenTicks marks the y axis every 0.002, 0.005, 0.01 or 0.02, whichever
// gives 4 to 10 labelled ticks.
type evenTicks struct{}

func (evenTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 0.002
	for _, s := range []float64{0.002, 0.005, 0.01, 0.02, 0.05, 0.1} {
		step = s
		if (hi-lo)/s <= 10 {
			break
		}
	}
	var t []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+1e-12; v += step {
		t = append(t, plot.Tick{Value: v, Label: fmt.Sprintf("%.3f", v)})
	}
	return t
}

// logTicks125 labels a log axis at 1, 2 and 5 times the powers of ten.
type logTicks125 struct{}

func (logTicks125) Ticks(lo, hi float64) []plot.Tick {
	var t []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
			v := m * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			tk := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				tk.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			t = append(t, tk)
		}
	}
	return t
}
