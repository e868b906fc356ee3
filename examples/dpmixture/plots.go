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
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

var methods = []string{SCIR, SGRLD, SGRLDPT, Gibbs}

const iterLabel = "iteration (SG methods: minibatch of 1000 users; Gibbs: sweep over all users)"

// writePlots writes loglik.png (the test log predictive against iterations,
// one line per seed: the paper's Figure 3b with the sign flipped, higher is
// better), loglik_users.png (the same against the number of users
// processed, which puts a Gibbs sweep at its cost of N users), clusters.png
// (the number of occupied clusters, mean over seeds) and, if the step sizes
// were tuned, tuning_loglik.png and tuning_clusters.png (every tuning run).
func writePlots(dir string, d *Data, c Config, res *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	N := d.Train.Len()
	perIter := func(r Run) float64 {
		if r.Method == Gibbs {
			return float64(N)
		}
		return float64(c.Batch)
	}
	one := func(Run) float64 { return 1 }
	ll := func(r Run, k int) float64 { return r.TestLogLik[k] }
	cl := func(r Run, k int) float64 { return float64(r.Clusters[k]) }
	const llLabel = "mean log predictive per test user (higher is better)"
	seeds := fmt.Sprintf("%d seeds", c.Seeds)
	byMethod := func(r Run) string {
		if r.Method == Gibbs {
			return "Gibbs (exact)"
		}
		return fmt.Sprintf("%s (h = %g)", r.Method, r.H)
	}
	plots := []figure{
		{"loglik.png", "DP mixture on msweb: test log predictive per user, " + seeds, iterLabel, llLabel,
			res.Runs, one, ll, false, false, res.OneComponent, byMethod, false, false, 0},
		{"loglik_users.png", "DP mixture on msweb: test log predictive against work, " + seeds, "training users processed", llLabel,
			res.Runs, perIter, ll, false, false, res.OneComponent, byMethod, false, false, 0},
		{"clusters.png", "DP mixture on msweb: clusters holding training users, mean over " + seeds, iterLabel, "occupied clusters (users start on 20)",
			res.Runs, one, cl, true, true, 0, byMethod, false, true, 0},
	}
	if res.TuneRuns != nil {
		tuneTitle := fmt.Sprintf(" (%d training users held out, seed 1000)", c.TuneValidation)
		byH := func(r Run) string { return fmt.Sprintf("%s h = %g", r.Method, r.H) }
		plots = append(plots, []figure{
			{"tuning_loglik.png", "Step-size tuning: held-out log predictive" + tuneTitle, "iteration (minibatch of 1000 users)",
				"mean log predictive per held-out user", res.TuneRuns, one, ll, false, false, 0, byH, true, true, 1},
			{"tuning_clusters.png", "Step-size tuning: clusters holding training users" + tuneTitle, "iteration (minibatch of 1000 users)",
				"occupied clusters (users start on 20)", res.TuneRuns, one, cl, false, true, 0, byH, false, true, 0},
		}...)
	}
	for _, f := range plots {
		if err := f.save(filepath.Join(dir, f.file)); err != nil {
			return err
		}
	}
	return nil
}

// figure is one line plot: y(r, k) against x = iteration·scale(r) on a log
// x axis, one line per run, or with mean one line per method (the mean over
// its runs), each labelled once by label, and a dashed grey line at ref
// unless it is zero. For counts the y axis starts at zero.
type figure struct {
	file, title, xlabel, ylabel string
	runs                        []Run
	scale                       func(Run) float64
	y                           func(Run, int) float64
	mean, counts                bool
	ref                         float64
	label                       func(Run) string
	top, left                   bool    // where the legend goes
	headroom                    float64 // space above the data, in units of its range
}

// save draws the figure into file: lines coloured by method, dashed by step
// size when a method has several.
func (f figure) save(file string) error {
	p := plot.New()
	p.Title.Text = f.title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = f.xlabel
	p.Y.Label.Text = f.ylabel
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = powerTicks{}
	xmin, xmax, ymin, ymax := 0.0, 0.0, math.Inf(1), math.Inf(-1)
	for mi, m := range methods {
		var hs []float64 // the method's step sizes, in order of appearance
		labelled := map[string]bool{}
		for _, r := range linesOf(f.runs, m, f.mean, f.y) {
			hi := 0
			for hi < len(hs) && hs[hi] != r.H {
				hi++
			}
			if hi == len(hs) {
				hs = append(hs, r.H)
			}
			var pts plotter.XYs
			for k, it := range r.Iteration {
				if it == 0 {
					continue // log axis
				}
				x := float64(it) * f.scale(r)
				pts = append(pts, plotter.XY{X: x, Y: r.TestLogLik[k]})
				if xmin == 0 || x < xmin {
					xmin = x
				}
				xmax = max(xmax, x)
				ymin, ymax = min(ymin, r.TestLogLik[k]), max(ymax, r.TestLogLik[k])
			}
			l, err := plotter.NewLine(pts)
			if err != nil {
				return err
			}
			l.Color = plotutil.Color(mi)
			l.Dashes = plotutil.Dashes(mi + hi)
			l.Width = vg.Points(1)
			p.Add(l)
			if name := f.label(r); !labelled[name] {
				p.Legend.Add(name, l)
				labelled[name] = true
			}
		}
	}
	if f.ref != 0 && xmax > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: f.ref}, {X: xmax, Y: f.ref}})
		if err != nil {
			return err
		}
		l.Color = color.Gray{Y: 140}
		l.Dashes = []vg.Length{vg.Points(2), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("one component (Dirichlet–multinomial)", l)
	}
	if f.counts {
		p.Y.Min, p.Y.Max = 0, 1.2*ymax
		p.Y.Tick.Marker = intTicks{}
	}
	if f.headroom > 0 {
		p.Y.Max = ymax + f.headroom*(ymax-ymin)
	}
	p.Legend.Top, p.Legend.Left = f.top, f.left
	return p.Save(7.5*vg.Inch, 4.5*vg.Inch, file)
}

// linesOf returns the method's runs with TestLogLik replaced by y, or, with
// mean, one run holding the mean of y over them.
func linesOf(runs []Run, method string, mean bool, y func(Run, int) float64) []Run {
	var out []Run
	n := 0
	for _, r := range runs {
		if r.Method != method {
			continue
		}
		n++
		v := make([]float64, len(r.Iteration))
		for k := range v {
			v[k] = y(r, k)
		}
		if !mean || len(out) == 0 {
			r.TestLogLik = v
			out = append(out, r)
			continue
		}
		for k := range v {
			out[0].TestLogLik[k] += v[k]
		}
	}
	if mean && n > 1 {
		for k := range out[0].TestLogLik {
			out[0].TestLogLik[k] /= float64(n)
		}
	}
	return out
}

// intTicks puts major ticks at multiples of 5 or 10, labelled as integers.
type intTicks struct{}

// Ticks returns the ticks between min and max.
func (intTicks) Ticks(min, max float64) []plot.Tick {
	step := 5.0
	if max-min > 60 {
		step = 10
	}
	var ticks []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	return ticks
}

// powerTicks labels the major ticks of a log axis as powers of ten.
type powerTicks struct{}

// Ticks returns plot.LogTicks' ticks with the labels 10ⁿ.
func (powerTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		ticks[i].Label = "10" + superscript(int(math.Round(math.Log10(t.Value))))
	}
	return ticks
}

func superscript(n int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var b strings.Builder
	for _, r := range strconv.Itoa(n) {
		if r == '-' {
			b.WriteRune('⁻')
			continue
		}
		b.WriteRune(digits[r-'0'])
	}
	return b.String()
}
