// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"
)

// Config is the whole experiment.
type Config struct {
	Online
	// Seeds is the number of seeds per method; seed i uses Seed + i.
	Seeds int
	Seed  uint64
	// GibbsSweeps is the number of collapsed Gibbs sweeps, evaluated every
	// GibbsEvery sweeps.
	GibbsSweeps, GibbsEvery int
	// Eval is the local sampler's schedule for document completion.
	Eval Local
	// Settings are the step-size settings used for each method.
	Settings map[string]Setting
	// Tune runs each method's Grid first (on seed Seed + TuneSeedOffset,
	// with the same budget) and uses each grid's best point.
	Tune bool
	Grid map[string][]Setting
	// Methods to run (nil: all).
	Methods []string
	// Log receives progress notes (nil: none).
	Log io.Writer
}

// TuneSeedOffset separates the tuning runs' seed from the reported seeds.
const TuneSeedOffset = 1 << 32

// The model of the experiment: K = 50 topics, α = 0.1, β = 0.5 (the SCIR
// paper's β, and the smallest at which every topic-word shape â = β + …
// is at least ½, where the Fisher-metric gSGRHMC has a valid
// discretisation; see doc.go).
var defaultModel = Model{K: 50, Alpha: 0.1, Beta: 0.5}

// DefaultConfig is the default run: 10 passes over the training set (720
// minibatches of 50 documents) for every SG method with the winners of the
// -tune run, 5 seeds, and 100 collapsed Gibbs sweeps.
func DefaultConfig() Config {
	return Config{
		Online: Online{
			Model:   defaultModel,
			Batch:   50,
			Local:   Local{Burn: 5, Keep: 5},
			Batches: 720,
			Every:   24,
			Window:  24,
		},
		Seeds:       5,
		Seed:        1,
		GibbsSweeps: 100,
		GibbsEvery:  5,
		Eval:        Local{Burn: 10, Keep: 10},
		Settings:    maps(winners),
		Grid:        grid,
	}
}

// FullConfig is the -full run: 20 passes and 300 Gibbs sweeps.
func FullConfig() Config {
	c := DefaultConfig()
	c.Batches = 1440
	c.Every = 72
	c.GibbsSweeps = 300
	c.GibbsEvery = 10
	return c
}

func maps(m map[string]Setting) map[string]Setting {
	out := make(map[string]Setting, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// The tuning grids: every method gets the two schedules of the SCIR
// paper's Table 2, (τ, κ) = (10, 0.33) and (1000, 0.6), times three step
// sizes around its stable range, and SGHMC's friction C and gSGRHMC's
// metric scale c two values each.
var grid = func() map[string][]Setting {
	sched := [][2]float64{{10, 0.33}, {1000, 0.6}}
	mk := func(hs, cs []float64) []Setting {
		var out []Setting
		for _, c := range cs {
			for _, tk := range sched {
				for _, h := range hs {
					out = append(out, Setting{H: h, Tau: tk[0], Kappa: tk[1], C: c})
				}
			}
		}
		return out
	}
	return map[string][]Setting{
		SGLD:    mk([]float64{0.003, 0.01, 0.03}, []float64{0}),
		SGHMC:   mk([]float64{0.03, 0.1, 0.3}, []float64{1, 10}),
		SGRLD:   mk([]float64{0.01, 0.05, 0.2}, []float64{0}),
		GSGRHMC: mk([]float64{0.03, 0.1, 0.3}, []float64{0.1, 1}),
		SCIR:    mk([]float64{0.05, 0.2, 0.5}, []float64{0}),
	}
}()

// winners are the best grid points of `lda -tune` (see doc.go).
var winners = map[string]Setting{
	SGLD:    {H: 0.01, Tau: 10, Kappa: 0.33},
	SGHMC:   {H: 0.1, Tau: 10, Kappa: 0.33, C: 10},
	SGRLD:   {H: 0.05, Tau: 1000, Kappa: 0.6},
	GSGRHMC: {H: 0.1, Tau: 1000, Kappa: 0.6, C: 0.1},
	SCIR:    {H: 0.05, Tau: 1000, Kappa: 0.6},
}

// Run is one seed of one method.
type Run struct {
	Method  string
	Seed    uint64
	Setting Setting
	Points  []Point
	Stats   Stats
	// Phi is the final evaluated topics (word-major), kept for the first
	// seed only.
	Phi []float64
}

// TunePoint is one grid point of a tuning run.
type TunePoint struct {
	Setting    Setting
	Perplexity float64 // at the end of the budget; +Inf if the run failed
}

// Results are everything the experiment measured.
type Results struct {
	Config  Config
	Unigram float64
	Initial float64 // perplexity of the common starting topics (seed Seed)
	Runs    map[string][]Run
	Tuning  map[string][]TunePoint
	Seconds float64
}

// job is one run for the worker pool.
type job struct {
	method  string
	seed    uint64
	setting Setting
	tune    int // index into the method's grid, or −1
	keepPhi bool
}

// Experiment runs everything in cfg on data.
func Experiment(ctx context.Context, cfg Config, data *Data) (*Results, error) {
	start := time.Now()
	if err := cfg.Model.validate(); err != nil {
		return nil, err
	}
	methods := cfg.Methods
	if methods == nil {
		methods = append(slices.Clone(sgMethods), Gibbs)
	}
	base := NewEvaluator(cfg.Model, data.Test, cfg.Eval, evalSeed)
	res := &Results{Config: cfg, Runs: map[string][]Run{}, Tuning: map[string][]TunePoint{}}
	res.Unigram = base.UnigramPerplexity(data.Train, cfg.Model.Beta)
	{
		o := newOnlineRunner(cfg.Online, data.Train, rand.New(rand.NewPCG(0, 0)))
		o.setPhi(initTheta(cfg.Model, data.Train, cfg.Seed))
		res.Initial = base.Perplexity(o.phiT)
	}
	logf := func(format string, a ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format, a...)
		}
	}
	if cfg.Tune {
		var jobs []job
		for _, m := range methods {
			if m == Gibbs {
				continue
			}
			res.Tuning[m] = make([]TunePoint, len(cfg.Grid[m]))
			for i, s := range cfg.Grid[m] {
				jobs = append(jobs, job{method: m, seed: cfg.Seed + TuneSeedOffset, setting: s, tune: i})
			}
		}
		logf("lda: tuning, %d runs of %d documents each\n", len(jobs), cfg.Batches*cfg.Batch)
		err := pool(ctx, jobs, func(j job) error {
			ev := base.clone()
			pts, _, err := RunOnline(ctx, cfg.Online, j.method, j.setting, data.Train, ev, j.seed, nil)
			p := math.Inf(1)
			if err == nil && len(pts) > 0 {
				p = pts[len(pts)-1].Perplexity
			} else if ctx.Err() != nil {
				return ctx.Err()
			}
			res.Tuning[j.method][j.tune] = TunePoint{Setting: j.setting, Perplexity: p}
			logf("lda: tune %s (%v): %.0f\n", j.method, j.setting, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
		for m, tp := range res.Tuning {
			best := 0
			for i, t := range tp {
				if t.Perplexity < tp[best].Perplexity {
					best = i
				}
			}
			if math.IsInf(tp[best].Perplexity, 1) {
				return nil, fmt.Errorf("%s: every grid point failed", m)
			}
			cfg.Settings[m] = tp[best].Setting
		}
		res.Config = cfg
	}
	var jobs []job
	// Longest runs first.
	order := []string{SCIR, GSGRHMC, SGLD, SGHMC, SGRLD, Gibbs}
	for _, m := range order {
		if !slices.Contains(methods, m) {
			continue
		}
		for i := range cfg.Seeds {
			jobs = append(jobs, job{method: m, seed: cfg.Seed + uint64(i), setting: cfg.Settings[m], tune: -1, keepPhi: i == 0})
		}
	}
	var mu sync.Mutex
	err := pool(ctx, jobs, func(j job) error {
		ev := base.clone()
		var r Run
		var err error
		if j.method == Gibbs {
			r, err = runGibbs(ctx, cfg, data.Train, ev, j.seed, j.keepPhi)
		} else {
			var phi []float64
			if j.keepPhi {
				phi = make([]float64, cfg.Model.K*data.Train.W)
			}
			r = Run{Method: j.method, Seed: j.seed, Setting: j.setting, Phi: phi}
			r.Points, r.Stats, err = RunOnline(ctx, cfg.Online, j.method, j.setting, data.Train, ev, j.seed, phi)
		}
		if err != nil {
			return err
		}
		last := r.Points[len(r.Points)-1]
		logf("lda: %-7s seed %d: perplexity %.0f after %d documents, %.1f s\n", j.method, j.seed, last.Perplexity, last.Docs, r.Stats.Seconds)
		mu.Lock()
		res.Runs[j.method] = append(res.Runs[j.method], r)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, runs := range res.Runs {
		sort.Slice(runs, func(a, b int) bool { return runs[a].Seed < runs[b].Seed })
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// evalSeed fixes the held-out split and the evaluation's random numbers.
const evalSeed = 20090614

// pool runs f on every job with GOMAXPROCS workers; the first error stops
// the remaining jobs.
func pool(ctx context.Context, jobs []job, f func(job) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan job)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				if ctx.Err() != nil {
					continue
				}
				if err := f(j); err != nil {
					once.Do(func() { first = err; cancel() })
				}
			}
		}()
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// runGibbs runs the collapsed Gibbs sampler, evaluating after each of the
// first four sweeps (to compare with the SG methods at their budget) and
// then every GibbsEvery sweeps the Rao–Blackwellised topics averaged over
// the sweeps since the last evaluation.
func runGibbs(ctx context.Context, cfg Config, train *Corpus, ev *Evaluator, seed uint64, keepPhi bool) (Run, error) {
	r := Run{Method: Gibbs, Seed: seed}
	g, err := NewCollapsed(cfg.Model, train, rand.NewPCG(seed, methodStream(Gibbs)))
	if err != nil {
		return r, err
	}
	phi := make([]float64, cfg.Model.K*train.W)
	n := 0
	var elapsed time.Duration
	for s := 1; s <= cfg.GibbsSweeps; s++ {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		t0 := time.Now()
		g.Sweep()
		elapsed += time.Since(t0)
		g.AddPhi(phi)
		n++
		if s < 5 || s%cfg.GibbsEvery == 0 || s == cfg.GibbsSweeps {
			for i := range phi {
				phi[i] /= float64(n)
			}
			r.Points = append(r.Points, Point{Docs: s * train.Len(), Perplexity: ev.Perplexity(phi), Seconds: elapsed.Seconds()})
			if s == cfg.GibbsSweeps && keepPhi {
				r.Phi = slices.Clone(phi)
			}
			clear(phi)
			n = 0
		}
	}
	r.Stats.Seconds = elapsed.Seconds()
	return r, nil
}
