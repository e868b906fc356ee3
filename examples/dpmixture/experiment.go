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
	"sync"
	"time"
)

// Config is the experiment.
type Config struct {
	// Seeds is the number of seeds (1 … Seeds) per method.
	Seeds int
	// Iterations and EvalEvery are the minibatch iterations of SCIR, SGRLD
	// and SGRLD-PT and the interval between test evaluations.
	Iterations, EvalEvery int
	// Sweeps and SweepEvalEvery are the same for the Gibbs sampler, whose
	// iteration is a sweep over all training users.
	Sweeps, SweepEvalEvery int
	// Batch is the minibatch size n.
	Batch int
	// K0 and KMax: see ChainSettings.
	K0, KMax int
	// Alpha0 is the initial concentration.
	Alpha0 float64
	Prior  Prior
	// H is the step size of each stochastic method, used for both the
	// component parameters and the sticks, unless Tune is set.
	H map[string]float64
	// Tune, if set, first chooses H for SCIR, SGRLD and SGRLD-PT over
	// their TuneGrid (see Tune).
	Tune bool
	// TuneGrid and TuneValidation: see Tune.
	TuneGrid       map[string][]float64
	TuneValidation int
	// Workers is the number of chains run at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, if not nil, receives one line per finished chain.
	Progress io.Writer
}

// DefaultConfig is what `go run ./examples/dpmixture` runs.
func DefaultConfig() Config {
	return Config{
		Seeds:      5,
		Iterations: 5000, EvalEvery: 100,
		Sweeps: 100, SweepEvalEvery: 5,
		Batch: 1000,
		K0:    20, KMax: 100,
		Alpha0: 1,
		Prior:  Prior{A: 0.5, B1: 1, B2: 1},
		H:      map[string]float64{SCIR: 0.01, SGRLD: 0.01, SGRLDPT: 0.001},
		TuneGrid: map[string][]float64{
			SCIR:    {0.003, 0.01, 0.03, 0.1},
			SGRLD:   {0.003, 0.01, 0.03, 0.1},
			SGRLDPT: {0.0001, 0.0003, 0.001, 0.003},
		},
		TuneValidation: 3000,
	}
}

// FullConfig is the -full experiment: the tuning, then four times the
// default number of iterations.
func FullConfig() Config {
	c := DefaultConfig()
	c.Tune = true
	c.Iterations, c.EvalEvery = 20000, 250
	c.Sweeps, c.SweepEvalEvery = 500, 10
	return c
}

// Run is one chain's trace.
type Run struct {
	Method string
	Seed   uint64
	H      float64 // step size (0 for Gibbs)
	// Iteration, TestLogLik, Clusters and Alpha are the checkpoints.
	Iteration  []int
	TestLogLik []float64
	Clusters   []int
	Alpha      []float64
	// Seconds is the time spent in Iterate (test evaluations excluded).
	Seconds     float64
	Truncations int
	// chain is the final state.
	chain *Chain
}

// Result is the experiment's output.
type Result struct {
	Runs []Run
	// Tuning[method][k] is the validation score of TuneGrid[method][k], and
	// TuneRuns the tuning runs (their TestLogLik is on the held-out users).
	Tuning   map[string][]float64
	TuneRuns []Run
	// OneComponent is the test log predictive of the single-component
	// model (a Dirichlet–multinomial fitted to all training users), the
	// baseline every mixture must beat.
	OneComponent float64
	H            map[string]float64
}

// job is one chain to run.
type job struct {
	method     string
	seed       uint64
	h          float64
	iterations int
	every      int
}

// Experiment tunes (if asked) and runs every method for every seed.
func Experiment(ctx context.Context, d *Data, c Config) (*Result, error) {
	res := &Result{H: map[string]float64{}, OneComponent: oneComponentLogLik(&d.Train, &d.Test, d.V(), c.Prior.A)}
	for m, h := range c.H {
		res.H[m] = h
	}
	if c.Tune {
		tuning, best, runs, err := Tune(ctx, d, c)
		if err != nil {
			return nil, err
		}
		res.Tuning, res.TuneRuns = tuning, runs
		for m, h := range best {
			res.H[m] = h
		}
	}
	var jobs []job
	for s := 1; s <= c.Seeds; s++ {
		for _, m := range []string{SCIR, SGRLD, SGRLDPT} {
			jobs = append(jobs, job{m, uint64(s), res.H[m], c.Iterations, c.EvalEvery})
		}
		jobs = append(jobs, job{Gibbs, uint64(s), 0, c.Sweeps, c.SweepEvalEvery})
	}
	runs, err := runJobs(ctx, &d.Train, &d.Test, d.V(), c, jobs)
	if err != nil {
		return nil, err
	}
	res.Runs = runs
	return res, nil
}

// Tune runs SCIR, SGRLD and SGRLD-PT for as many iterations as the reported
// runs at every step size of its TuneGrid with one seed (1000, apart from the
// seeds of the reported runs), trained on the training users less
// TuneValidation users held out at random, and scores each run by the mean
// validation log predictive over the last third of its 30 checkpoints. It
// returns the scores and the best step size of each method.
func Tune(ctx context.Context, d *Data, c Config) (scores map[string][]float64, best map[string]float64, runs []Run, err error) {
	train, val := splitUsers(&d.Train, c.TuneValidation, 1000)
	var jobs []job
	for _, m := range []string{SCIR, SGRLD, SGRLDPT} {
		for _, h := range c.TuneGrid[m] {
			jobs = append(jobs, job{m, 1000, h, c.Iterations, max(1, c.Iterations/30)})
		}
	}
	runs, err = runJobs(ctx, train, val, d.V(), c, jobs)
	if err != nil {
		return nil, nil, nil, err
	}
	scores = map[string][]float64{}
	for _, r := range runs {
		scores[r.Method] = append(scores[r.Method], tailMean(r.TestLogLik, 3))
	}
	best = map[string]float64{}
	for m, sc := range scores {
		k := 0
		for i, v := range sc {
			if v > sc[k] {
				k = i
			}
		}
		best[m] = c.TuneGrid[m][k]
	}
	return scores, best, runs, nil
}

// tailMean is the mean of the last 1/frac of x (at least one value).
func tailMean(x []float64, frac int) float64 {
	k := max(1, len(x)/frac)
	var s float64
	for _, v := range x[len(x)-k:] {
		s += v
	}
	return s / float64(k)
}

// runJobs runs the chains on Workers goroutines; the result is in the order
// of jobs and does not depend on the scheduling.
func runJobs(ctx context.Context, train, test *Users, V int, c Config, jobs []job) ([]Run, error) {
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	runs := make([]Run, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				runs[k], errs[k] = runChain(ctx, train, test, V, c, jobs[k])
				if c.Progress != nil {
					mu.Lock()
					r := runs[k]
					if errs[k] == nil {
						fmt.Fprintf(c.Progress, "dpmixture: %-5s seed %4d h %-6g %5d iterations in %6.1f s: test log predictive %.4f, %d clusters\n",
							r.Method, r.Seed, r.H, r.Iteration[len(r.Iteration)-1], r.Seconds, r.TestLogLik[len(r.TestLogLik)-1], r.Clusters[len(r.Clusters)-1])
					}
					mu.Unlock()
				}
			}
		}()
	}
	for k := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- k
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// runChain runs one chain, evaluating the test log predictive at iteration
// 0 and every j.every iterations.
func runChain(ctx context.Context, train, test *Users, V int, c Config, j job) (Run, error) {
	s := ChainSettings{Method: j.method, Batch: c.Batch, HTheta: j.h, HStick: j.h, K0: c.K0, KMax: c.KMax, Alpha0: c.Alpha0}
	ch, err := NewChain(train, V, c.Prior, s, j.seed)
	if err != nil {
		return Run{}, err
	}
	r := Run{Method: j.method, Seed: j.seed, H: j.h}
	record := func() {
		r.Iteration = append(r.Iteration, ch.Iterations())
		r.TestLogLik = append(r.TestLogLik, ch.TestLogLik(test))
		r.Clusters = append(r.Clusters, ch.Occupied())
		r.Alpha = append(r.Alpha, ch.Alpha())
	}
	record()
	var spent time.Duration
	for it := 1; it <= j.iterations; it++ {
		t0 := time.Now()
		if err := ch.Iterate(); err != nil {
			return Run{}, fmt.Errorf("seed %d: %w", j.seed, err)
		}
		spent += time.Since(t0)
		if it%j.every == 0 || it == j.iterations {
			if err := ctx.Err(); err != nil {
				return Run{}, err
			}
			record()
		}
	}
	r.Seconds = spent.Seconds()
	r.Truncations = ch.Truncations()
	r.chain = ch
	return r, nil
}

// splitUsers holds out m users chosen at random with the seed: it returns
// the others and the held-out ones.
func splitUsers(u *Users, m int, seed uint64) (rest, held *Users) {
	N := u.Len()
	m = min(max(m, 1), N-1)
	out := make([]bool, N)
	rng := rand.New(rand.NewPCG(seed, 7))
	for _, i := range rng.Perm(N)[:m] {
		out[i] = true
	}
	rest, held = &Users{Start: []int32{0}}, &Users{Start: []int32{0}}
	for i := range N {
		dst := rest
		if out[i] {
			dst = held
		}
		dst.Items = append(dst.Items, u.User(i)...)
		dst.Start = append(dst.Start, int32(len(dst.Items)))
	}
	return rest, held
}

// oneComponentLogLik is the mean log predictive per test user of the
// single-component model: θ ~ Dirichlet(a) given all training visits,
// integrated out (the Dirichlet–multinomial sequence probability).
func oneComponentLogLik(train, test *Users, V int, a float64) float64 {
	counts := make([]float64, V)
	for _, v := range train.Items {
		counts[v]++
	}
	total := float64(len(train.Items)) + float64(V)*a
	var sum float64
	for i := range test.Len() {
		items := test.User(i)
		for t, v := range items {
			var c int
			for _, u := range items[:t] {
				if u == v {
					c++
				}
			}
			sum += math.Log((a + counts[v] + float64(c)) / (total + float64(t)))
		}
	}
	return sum / float64(test.Len())
}
