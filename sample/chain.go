// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
	"github.com/sgmcmc-go/sgmcmc/rng"
)

// chainOut is one chain's share of a Result.
type chainOut struct {
	// settled is where the chain's warmup found its mode, in θ (nil when
	// it has no full-data mode estimate: modes.go).
	settled []float64
	// warmup is the warmup's adaptation when a pilot run replaced its
	// whitening (rounds.go), nil otherwise: the settling points
	// are compared in the whitening of the warmup that found them.
	warmup           *Adapted
	chain            *sgmcmc.Chain
	moments          *chainMoments // above DenseMax
	adapted          Adapted
	evals, warmEvals int64
	warnings         []Warning
	// spread is the last run's temperature verdict (Heat), if any: only
	// the run whose draws the chain keeps is judged.
	spread []Warning
	// run is the chain's sampling state once its warmup's windows ended,
	// and w and hs the whitening and Hessians of its last round, for a
	// chain that another joins
	// (join.go); fits says that round's draws fit them (the checks of
	// doc/adaptation.md §5, no divergence, no error).
	run  *chainRun
	w    *whitening
	hs   []sym
	fits bool
	// centred says the chain's control-variate search converged (for a
	// chain that joins this one).
	centred bool
	// share is the shared centre the leader found (share.go).
	share *sharedCentre
	// rounds is the chain's history (Result.Rounds).
	rounds []Round
	// stopped says the user's Callback ended the chain's run.
	stopped bool
}

// cancelled is the panic value with which tick unwinds a warmup whose
// context is done, from wherever in warmup's loops it is; sampleChain
// recovers it and returns err.
type cancelled struct{ err error }

// tick counts k evaluations and, during warmup, looks at the context
// every cancelEvery of them.
func (e *chainEnv) tick(k int64) {
	e.count += k
	if e.warm && e.count >= e.nextLook {
		e.nextLook = e.count + cancelEvery
		if err := e.ctx.Err(); err != nil {
			panic(cancelled{err})
		}
	}
}

// chainEnv is one chain's gradient sources.
type chainEnv struct {
	d, N  int             // N = 0 without a Model
	count int64           // evaluations so far
	fixed sgmcmc.Gradient // θ-space gradient on a fixed batch
	// windowGrad, if not nil, drives the Langevin windows instead of fixed:
	// the control variate, when the data exceed the fixed batch.
	windowGrad sgmcmc.Gradient
	nFixed     int // the fixed batch's size
	sampling   func(n int) (sgmcmc.Gradient, error)
	n0         int
	rng        *rand.Rand
	mbSeed     [2]uint64
	// With a Model: the model, the same counting its evaluations, and the
	// control variate's centre, the full-data likelihood gradient there
	// and the full passes spent finding it (centre.go).
	model         sgmcmc.Model
	counted       sgmcmc.Model
	center, cgrad []float64
	passes        int
	setupSecs     float64   // wall time of the passes
	centred       bool      // the last centre search converged
	centreStep    float64   // its last quasi-Newton step's length, in whitened units
	modeGuess     []float64 // the centre plus that step: the full-data mode as the search last estimated it
	// The fixed batch and the user's model, for the gradient check.
	fixedMB  *sgmcmc.Minibatch
	fixedIdx []int
	rawModel sgmcmc.Model
	// ctx is the run's context; while warm, tick looks at it every
	// cancelEvery evaluations, from nextLook on.
	ctx      context.Context
	warm     bool
	nextLook int64
	// names are the parameters' names (Problem.Names), for errors.
	names []string
}

// newChainEnv returns chain c's gradient sources; dense is false on the
// large-d path, whose fixed batch capFixedBatch caps.
func newChainEnv(c int, p Problem, d int, src rand.Source, dense bool) (*chainEnv, error) {
	e := &chainEnv{d: d, rng: rand.New(rand.NewPCG(src.Uint64(), src.Uint64()))}
	mbSeed := [2]uint64{src.Uint64(), src.Uint64()}
	e.mbSeed = mbSeed
	if p.Model != nil {
		um := userModel{p.Model}
		var model, m sgmcmc.Model = um, countModel{userModel: um, e: e}
		if bm, ok := p.Model.(sgmcmc.BatchModel); ok {
			model, m = userBatchModel{um, bm}, countBatchModel{countModel{userModel: um, e: e}, bm}
		}
		e.N = p.Model.Len()
		e.model, e.counted = model, m
		nh := min(e.N, max(fixedBatchPerDim*d, fixedBatchMin))
		e.n0 = min(e.N, max(firstBatchMin, e.N/firstBatchFrac))
		if !dense {
			nh = capFixedBatch(nh, e.n0, d)
		}
		e.nFixed = nh
		fixedMB, err := sgmcmc.NewMinibatch(m, nh, false, rand.NewPCG(mbSeed[0]^fixedBatchSeed, mbSeed[1]))
		if err != nil {
			return nil, err
		}
		idx := append([]int(nil), fixedMB.Draw()...)
		e.fixed = sgmcmc.GradFunc(func(dst, theta []float64) { fixedMB.GradOn(dst, theta, idx) })
		e.fixedMB, e.fixedIdx, e.rawModel = fixedMB, idx, p.Model
		e.sampling = func(n int) (sgmcmc.Gradient, error) {
			return sgmcmc.NewMinibatch(m, n, false, rand.NewPCG(mbSeed[0], mbSeed[1]))
		}
		return e, nil
	}
	var g sgmcmc.Gradient
	err := protect("Problem.Gradient", func() (err error) {
		g, err = p.Gradient(c, rand.NewPCG(mbSeed[0], mbSeed[1]))
		return err
	})
	if err != nil {
		return nil, valid.Errorf(nil, "Sample: the Problem's Gradient for chain %d: %w", c, err)
	}
	if valid.IsNil(g) {
		if g != nil {
			return nil, valid.Errorf(sgmcmc.ErrNil, "Sample: the Problem's Gradient for chain %d: nil Gradient (a nil %T)", c, g)
		}
		return nil, valid.Errorf(sgmcmc.ErrNil, "Sample: the Problem's Gradient for chain %d: nil Gradient", c)
	}
	if gd, ok := g.(interface{ Dim() int }); ok && gd.Dim() != d {
		return nil, valid.Errorf(sgmcmc.ErrDimension, "Sample: the Problem's Gradient for chain %d (%T) has dimension %d, θ has %d (len(theta0))", c, g, gd.Dim(), d)
	}
	cg := &countGrad{g: g, e: e}
	cg.sb, _ = g.(sgmcmc.SameBatchGradient)
	if cg.sb != nil {
		cg.sb.NewBatch()
		e.fixed = sgmcmc.GradFunc(cg.GradSameBatch)
	} else {
		e.fixed = cg
	}
	e.sampling = func(int) (sgmcmc.Gradient, error) { return cg, nil }
	return e, nil
}

// sampleChain runs chain c: warmup, in the phases P0–P7 (doc.go;
// doc/adaptation.md §2), then the round loop (rounds.go) that freezes,
// runs and assesses the sampler.
//
// sh is the chain's part in the run's shared centre (share.go): the
// leader returns after P3 with out.share set.
func sampleChain(ctx context.Context, c int, p Problem, theta0 []float64, s *Settings, m Method, r Rules, prog *sampleProgress, slot int, sh *sharing) (out chainOut, err error) {
	d := len(theta0)
	dense := d <= s.DenseMax
	src := rng.ChainSource(s.Seed, c)
	// A panic in user code during warmup ends the chain with a
	// *PanicError naming the phase; Run recovers those of sampling itself,
	// keeping the draws.
	phase := "warmup: setup"
	at := func(k int) { phase = "warmup: " + warmupPhases[k]; prog.setPhase(slot, k) }
	defer prog.finish(slot)
	defer func() {
		if v := recover(); v != nil {
			err = chainPanic(v, phase)
		}
	}()
	e, err := newChainEnv(c, temperProblem(p, s.Temperature), d, src, dense)
	if err != nil {
		return out, err
	}
	e.ctx, e.warm = ctx, true
	e.names = p.Names
	if sh.leader {
		if e.model == nil || e.N <= e.nFixed {
			return out, nil // no data beyond the fixed batch: nothing to share
		}
		// The shared search's cost counts in the run's, whatever ends it.
		defer func() {
			if out.share == nil {
				out.share = &sharedCentre{evals: e.count, passes: e.passes, secs: e.setupSecs}
			}
		}()
	}
	out.adapted.Method = m
	out.adapted.Items = e.N
	out.adapted.SamplerSeed = [2]uint64{src.Uint64(), src.Uint64()}
	out.adapted.MinibatchSeed = e.mbSeed
	// P0 setup (newChainEnv above), and the dispersed start.
	start := make([]float64, d)
	for i, v := range theta0 {
		start[i] = v + s.StartScale*(2*e.rng.Float64()-1)
	}
	// P1 Newton; above DenseMax with a capped fixed batch, Adam to a mode
	// and its curvature (large_mode.go).
	at(1)
	var w *whitening
	var hs []sym
	if e.costlyFixed(dense) {
		w, hs, err = e.modeSearch(start, s.StartScale)
	} else {
		w, hs, err = e.newton(start, dense)
	}
	if err != nil {
		return out, err
	}
	// P2 gradient check.
	at(2)
	if err := e.gradCheck(w); err != nil {
		return out, err
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	// P3 control-variate centre, the chain's full-data mode, and with
	// data beyond the fixed batch the windows' gradient.
	// With all the data in the fixed batch the windows are
	// Metropolis-adjusted on the posterior itself (window.go), and
	// the centre is searched for after them, from their end (below).
	// A method whose chains visit several modes (ReplicaExchange)
	// samples with plain minibatches: a control variate is centred at one
	// mode, and its noise at another, which warmup does not measure, can
	// be far larger (on a mixture with two labellings it inflated the
	// other labelling's sds by 10 %).
	pm, _ := m.(PotentialMethod)
	multimodal := r.Multimodal
	withCV, centreFirst := e.model != nil && !s.PlainMinibatch && !multimodal, e.N > e.nFixed
	if withCV && centreFirst {
		at(3)
		if err := e.centre(w, hs, sh.centre); err != nil {
			return out, err
		}
		if sh.leader {
			out.share = &sharedCentre{center: e.center, lik: e.cgrad, ok: e.centred && e.center != nil, passes: e.passes, evals: e.count, secs: e.setupSecs}
			return out, nil
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if e.center != nil {
			if err := e.chooseWindowGrad(w); err != nil {
				return out, err
			}
		}
		if e.centred {
			// Start the windows at the mode, inside the posterior, not
			// where the Newton phase stopped (on the fixed batch's
			// posterior, or on a shoulder).
			w = w.moved(append([]float64(nil), e.center...))
		}
	}
	// P4 Langevin windows; none after modeSearch, whose curvature at the
	// mode serves as theirs (large_mode.go).
	if !e.costlyFixed(dense) {
		at(4)
		w, hs, err = e.windows(w, hs, dense)
		if err != nil {
			return out, err
		}
	}
	// P3 after the windows: with all the data in the fixed batch, the
	// centre is searched for here, from the windows' end, a point of the
	// posterior's typical set (the Newton phase may stop on the shoulder
	// of a scale parameter, where the curvature is not the posterior's; a
	// centre off the mode makes the control variate's noise at the
	// posterior larger than the noise probe, made around the centre,
	// measures). With more data it was searched for before the windows; a
	// second search from their end — in the fixed batch's typical set,
	// √(N/n) sds from the posterior's — left the centre of a logistic
	// regression with 124 coefficients worse (R̂ 1.03 → 1.5).
	if withCV && !centreFirst {
		at(3)
		// The windows' curvature only: the Newton phase's, where it
		// stopped, may not be the posterior's.
		if err := e.centre(w, hs[len(hs)-2:], nil); err != nil {
			return out, err
		}
	}
	if !dense {
		// The large-d path's low-rank factor, from the curvature where
		// the windows ended (large.go).
		w = e.withLowRank(w)
	}
	cr := &chainRun{e: e, ctx: ctx, c: c, s: s, m: m, r: r, pm: pm, multimodal: multimodal, dense: dense, prog: prog, slot: slot, at: at, setPhase: func(p string) { phase = p }}
	out.run = cr
	res, err := cr.rounds(w, hs, &out)
	res.centred = e.centred
	return res, err
}

// adaptMethod runs the method's own adaptation (WarmupAdapter) on the
// whitened gradient at the chosen batch size.
func (e *chainEnv) adaptMethod(wa WarmupAdapter, a *Adapted, w *whitening) error {
	g, err := e.sampling(max(a.BatchSize, 1))
	if err != nil {
		return err
	}
	aff, err := w.affine(g)
	if err != nil {
		return err
	}
	return wa.AdaptWarmup(aff, max(e.N, 1), rand.NewPCG(e.rng.Uint64(), e.rng.Uint64()), a)
}

// toTheta maps a chain of z draws to θ.
func (a *Adapted) toTheta(zc *sgmcmc.Chain) *sgmcmc.Chain {
	aff, _ := a.Affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
	c := &sgmcmc.Chain{Dim: zc.Dim, Draws: make([]float64, len(zc.Draws)), Eps: zc.Eps, Steps: zc.Steps, Divergent: zc.Divergent, Divergences: zc.Divergences}
	for i := range zc.Len() {
		aff.ToTheta(c.At(i), zc.At(i))
	}
	return c
}
