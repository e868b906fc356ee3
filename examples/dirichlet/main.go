// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command dirichlet reproduces the synthetic experiment of the SCIR paper
// (Baker, Fearnhead, Fox & Nemeth 2018, Section 3.2 and Appendix E.2): SCIR
// and SGRLD sampling a sparse and a dense Dirichlet posterior from N = 1000
// categorical observations, at minibatch proportions from 0.001 to 0.5.
//
// For each target, proportion and seed, each method runs 1000 burn-in and
// 1000 kept iterations at every step size of the paper's Table 1, and keeps
// the step size with the best distance for that seed. The distance is the
// mean Kolmogorov–Smirnov distance to uniform of the Rosenblatt transform of
// the draws (Appendix E.2); 1000 exact independent Dirichlet draws give the
// floor. The table reports the mean over the seeds.
//
// Usage:
//
//	go run ./examples/dirichlet [-json] [-plot DIR] [-seeds 5]
//
// -json prints one JSON object {"rows": [...]} instead of the table, each row
// with target ("sparse", "dense"), method ("SCIR", "SGRLD", "exact"),
// proportion and dks. -plot DIR writes Figure 2 (dKS against the minibatch
// proportion, dks_sparse.png and dks_dense.png) and Figure 1 (the spread of
// log10 ω₅ on the sparse target with minibatches of 10, omega5.png).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	exact "github.com/sgmcmc-go/sgmcmc/internal/targets"
)

// target is a Dirichlet posterior Dir(α + counts) from N categorical
// observations.
type target struct {
	name   string
	counts []int
	prior  float64
}

var targets = []target{
	{name: "sparse", counts: []int{800, 100, 100, 0, 0, 0, 0, 0, 0, 0}, prior: 0.1},
	{name: "dense", counts: []int{112, 119, 92, 98, 95, 96, 102, 92, 91, 103}, prior: 0.1},
}

// Minibatch proportions (Figure 2's range) and the step sizes of Table 1.
var (
	proportions = []float64{0.001, 0.005, 0.01, 0.05, 0.1, 0.5}
	stepSizes   = map[string][]float64{
		"SCIR":  {1.0, 5e-1, 1e-1, 5e-2, 1e-2, 5e-3, 1e-3},
		"SGRLD": {5e-1, 1e-1, 5e-2, 1e-2, 5e-3, 1e-3, 5e-4, 1e-4},
	}
	methods = []string{"SCIR", "SGRLD"}
)

const (
	burnIn = 1000
	draws  = 1000
	// fig1Proportion is the minibatch of ten used for Figure 1.
	fig1Proportion = 0.01
)

func (t target) alpha() (prior, post []float64) {
	prior = make([]float64, len(t.counts))
	post = make([]float64, len(t.counts))
	for j, c := range t.counts {
		prior[j] = t.prior
		post[j] = t.prior + float64(c)
	}
	return prior, post
}

func (t target) labels() sgmcmc.Categorical {
	var l sgmcmc.Categorical
	for j, c := range t.counts {
		for range c {
			l = append(l, j)
		}
	}
	return l
}

// batchSize returns the minibatch size n = proportion · N, at least 1.
func batchSize(p float64, N int) int { return max(1, int(math.Round(p*float64(N)))) }

// seedFor derives a PCG stream for one run from its coordinates.
func seedFor(parts ...uint64) (uint64, uint64) {
	h := uint64(0x9e3779b97f4a7c15)
	for _, p := range parts {
		h ^= p + 0x9e3779b97f4a7c15 + h<<6 + h>>2
		h *= 0xbf58476d1ce4e5b9
	}
	return h, h ^ 0x94d049bb133111eb
}

// runSampler runs one method at one step size and returns the kept ω draws.
func runSampler(t target, method string, prop, h float64, seed int) ([][]float64, error) {
	prior, _ := t.alpha()
	labels := t.labels()
	n := batchSize(prop, len(labels))
	ti := uint64(slices.IndexFunc(targets, func(u target) bool { return u.name == t.name }))
	mi := uint64(slices.Index(methods, method))
	s1, s2 := seedFor(ti, mi, math.Float64bits(prop), math.Float64bits(h), uint64(seed))
	est, err := sgmcmc.NewCountMinibatch(prior, labels, n, rand.NewPCG(s1, s2))
	if err != nil {
		return nil, err
	}
	K := len(prior)
	theta0 := make([]float64, K)
	for j := range theta0 {
		theta0[j] = 1
	}
	var s sgmcmc.Sampler
	src := rand.NewPCG(s2, s1)
	switch method {
	case "SCIR":
		s, err = sgmcmc.NewSCIR(est, theta0, src, &sgmcmc.SCIRSettings{Simplex: K})
	case "SGRLD":
		s, err = sgmcmc.NewSGRLDSimplex(est, theta0, src, &sgmcmc.SGRLDSimplexSettings{Simplex: K})
	default:
		err = fmt.Errorf("unknown method %q", method)
	}
	if err != nil {
		return nil, err
	}
	ch, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: draws, BurnIn: burnIn, Schedule: sgmcmc.Constant(h)})
	if err != nil {
		return nil, err
	}
	out := make([][]float64, ch.Len())
	for i := range out {
		out[i] = ch.At(i)
	}
	return out, nil
}

// exactDraws returns independent exact Dirichlet draws from the test
// targets' sampler (normalised gamma draws in log space, an implementation
// independent of SCIR's).
func exactDraws(t target, prop float64, seed int) [][]float64 {
	_, post := t.alpha()
	ti := uint64(slices.IndexFunc(targets, func(u target) bool { return u.name == t.name }))
	s1, s2 := seedFor(ti, 99, math.Float64bits(prop), uint64(seed))
	dir, err := exact.NewDirichlet(post)
	if err != nil {
		panic(err) // the posteriors above are valid by construction
	}
	return exact.SampleN(dir, draws, rand.New(rand.NewPCG(s1, s2)))
}

func dks(t target, x [][]float64) (float64, error) {
	_, post := t.alpha()
	return diagnostics.RosenblattKS(x, diagnostics.DirichletConditionalCDF(post), len(post)-1)
}

// job is one run: a method at one step size (h = 0 for exact draws).
type job struct {
	target target
	method string
	prop   float64
	h      float64
	seed   int
	dks    float64
	err    error
}

func runJobs(jobs []*job) {
	work := make(chan *job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				var x [][]float64
				if j.method == "exact" {
					x = exactDraws(j.target, j.prop, j.seed)
				} else {
					x, j.err = runSampler(j.target, j.method, j.prop, j.h, j.seed)
				}
				if j.err == nil {
					j.dks, j.err = dks(j.target, x)
				}
			}
		}()
	}
	for _, j := range jobs {
		work <- j
	}
	close(work)
	wg.Wait()
}

// Row is one line of the JSON output.
type Row struct {
	Target     string  `json:"target"`
	Method     string  `json:"method"`
	Proportion float64 `json:"proportion"`
	DKS        float64 `json:"dks"`
}

// cell is the per-seed best result of one method at one proportion.
type cell struct {
	dks   []float64 // best dKS of each seed
	bestH []float64 // step size that gave it
}

func (c cell) mean() float64 {
	var s float64
	for _, v := range c.dks {
		s += v
	}
	return s / float64(len(c.dks))
}

type key struct {
	target, method string
	prop           float64
}

func main() {
	jsonOut := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} instead of the table")
	plotDir := flag.String("plot", "", "write Figures 1 and 2 as PNG files into this directory")
	seeds := flag.Int("seeds", 5, "number of seeds")
	flag.Parse()
	log.SetFlags(0)
	if *seeds < 1 {
		log.Fatal("dirichlet: -seeds must be at least 1")
	}

	var jobs []*job
	for _, t := range targets {
		for _, p := range proportions {
			for seed := range *seeds {
				for _, m := range methods {
					for _, h := range stepSizes[m] {
						jobs = append(jobs, &job{target: t, method: m, prop: p, h: h, seed: seed})
					}
				}
				jobs = append(jobs, &job{target: t, method: "exact", prop: p, seed: seed})
			}
		}
	}
	runJobs(jobs)

	// Best step size per seed (Appendix E.2); a failed run counts as dKS = 1.
	type seedKey struct {
		key
		seed int
	}
	best := map[seedKey]*job{}
	for _, j := range jobs {
		if j.err != nil {
			fmt.Fprintf(os.Stderr, "dirichlet: %s %s proportion %g h %g seed %d: %v\n", j.target.name, j.method, j.prop, j.h, j.seed, j.err)
			j.dks = 1
		}
		k := seedKey{key{j.target.name, j.method, j.prop}, j.seed}
		if b, ok := best[k]; !ok || j.dks < b.dks {
			best[k] = j
		}
	}
	cells := map[key]*cell{}
	for seed := range *seeds {
		for _, t := range targets {
			for _, p := range proportions {
				for _, m := range append(slices.Clone(methods), "exact") {
					k := key{t.name, m, p}
					c := cells[k]
					if c == nil {
						c = &cell{}
						cells[k] = c
					}
					b := best[seedKey{k, seed}]
					c.dks = append(c.dks, b.dks)
					c.bestH = append(c.bestH, b.h)
				}
			}
		}
	}

	var rows []Row
	for _, t := range targets {
		for _, p := range proportions {
			for _, m := range append(slices.Clone(methods), "exact") {
				rows = append(rows, Row{Target: t.name, Method: m, Proportion: p, DKS: cells[key{t.name, m, p}].mean()})
			}
		}
	}

	// Figure 1: ω₅ on the sparse target, minibatch of ten, first seed's best
	// step sizes.
	sparse := targets[0]
	fig1 := map[string][]float64{}
	for _, m := range methods {
		h := cells[key{sparse.name, m, fig1Proportion}].bestH[0]
		x, err := runSampler(sparse, m, fig1Proportion, h, 0)
		if err != nil {
			log.Fatalf("dirichlet: Figure 1 %s: %v", m, err)
		}
		fig1[m] = column(x, 4)
	}
	fig1["exact"] = column(exactDraws(sparse, fig1Proportion, 0), 4)

	if *plotDir != "" {
		if err := writePlots(*plotDir, cells, fig1, *seeds); err != nil {
			log.Fatalf("dirichlet: %v", err)
		}
	}

	if *jsonOut {
		enc := json.NewEncoder(os.Stdout)
		if err := enc.Encode(struct {
			Rows []Row `json:"rows"`
		}{rows}); err != nil {
			log.Fatal(err)
		}
		return
	}
	printTable(cells, fig1, *seeds)
}

func column(x [][]float64, j int) []float64 {
	c := make([]float64, len(x))
	for i, v := range x {
		c[i] = v[j]
	}
	return c
}

func printTable(cells map[key]*cell, fig1 map[string][]float64, seeds int) {
	fmt.Printf("Figure 2: mean dKS over %d seeds (best Table 1 step size per seed; %d burn-in, %d kept iterations)\n\n", seeds, burnIn, draws)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "target\tproportion\tn\tSCIR\tSGRLD\texact\tSCIR h per seed\tSGRLD h per seed\t")
	for _, t := range targets {
		for _, p := range proportions {
			c := func(m string) *cell { return cells[key{t.name, m, p}] }
			fmt.Fprintf(w, "%s\t%g\t%d\t%.3f\t%.3f\t%.3f\t%s\t%s\t\n", t.name, p, batchSize(p, 1000),
				c("SCIR").mean(), c("SGRLD").mean(), c("exact").mean(), hs(c("SCIR").bestH), hs(c("SGRLD").bestH))
		}
	}
	w.Flush()

	fmt.Printf("\nFigure 1: log10 ω₅ on the sparse target, minibatch of %d, %d draws (exact marginal Beta(0.1, 1000.9))\n\n", batchSize(fig1Proportion, 1000), draws)
	w = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "method\tmin\t5%\t25%\tmedian\t75%\t95%\tmax\t")
	for _, m := range []string{"SCIR", "SGRLD", "exact"} {
		q := log10Quantiles(fig1[m], []float64{0, 0.05, 0.25, 0.5, 0.75, 0.95, 1})
		fmt.Fprintf(w, "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t\n", m, q[0], q[1], q[2], q[3], q[4], q[5], q[6])
	}
	w.Flush()
}

func hs(h []float64) string {
	s := make([]string, len(h))
	for i, v := range h {
		s[i] = fmt.Sprintf("%g", v)
	}
	return strings.Join(s, " ")
}

func log10Quantiles(x []float64, ps []float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = math.Log10(v)
	}
	slices.Sort(y)
	q := make([]float64, len(ps))
	for i, p := range ps {
		q[i] = y[int(math.Round(p*float64(len(y)-1)))]
	}
	return q
}

func writePlots(dir string, cells map[key]*cell, fig1 map[string][]float64, seeds int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, t := range targets {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s Dirichlet: dKS against minibatch proportion (%d seeds)", t.name, seeds)
		p.X.Label.Text = "minibatch proportion"
		p.Y.Label.Text = "dKS"
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Legend.Top = true
		var ymax float64
		for i, m := range []string{"SCIR", "SGRLD", "exact"} {
			mean := make(plotter.XYs, len(proportions))
			var each plotter.XYs
			for k, prop := range proportions {
				c := cells[key{t.name, m, prop}]
				mean[k] = plotter.XY{X: prop, Y: c.mean()}
				for _, v := range c.dks {
					each = append(each, plotter.XY{X: prop, Y: v})
					ymax = max(ymax, v)
				}
			}
			l, pts, err := plotter.NewLinePoints(mean)
			if err != nil {
				return err
			}
			col := plotutil.Color(i)
			l.Color, pts.Color = col, col
			pts.Shape = plotutil.Shape(i)
			sc, err := plotter.NewScatter(each)
			if err != nil {
				return err
			}
			sc.Color = col
			sc.Radius = vg.Points(1.5)
			p.Add(l, pts, sc)
			p.Legend.Add(m, l, pts)
		}
		p.Y.Min, p.Y.Max = 0, 1.3*ymax // room for the legend
		if err := p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(dir, "dks_"+t.name+".png")); err != nil {
			return err
		}
	}

	p := plot.New()
	p.Title.Text = fmt.Sprintf("sparse Dirichlet: log10 ω₅, minibatch of %d", batchSize(fig1Proportion, 1000))
	p.Y.Label.Text = "log10 ω₅"
	names := []string{"SCIR", "SGRLD", "exact"}
	for i, m := range names {
		v := make(plotter.Values, len(fig1[m]))
		for k, x := range fig1[m] {
			v[k] = math.Log10(x)
		}
		b, err := plotter.NewBoxPlot(vg.Points(40), float64(i), v)
		if err != nil {
			return err
		}
		b.FillColor = plotutil.Color(i)
		p.Add(b)
	}
	p.NominalX(names...)
	return p.Save(5*vg.Inch, 4*vg.Inch, filepath.Join(dir, "omega5.png"))
}
