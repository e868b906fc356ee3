// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// chainRun is what a chain's sampling rounds share once its warmup's
// windows have ended: P5–P7, the freeze and the sampling run (once),
// repeated by rounds (rounds.go).
type chainRun struct {
	e          *chainEnv
	ctx        context.Context
	c          int
	s          *Settings
	m          Method
	r          Rules
	pm         PotentialMethod // nil unless the method is one
	multimodal bool
	dense      bool
	prog       *sampleProgress
	slot       int
	// at marks warmup phase k (for Progress and a panic's phase);
	// setPhase names the phase a panic is reported in.
	at       func(k int)
	setPhase func(string)
	// allow, if positive, is the most gradient evaluations this round's
	// sampling run may project (set by rounds.go, applied by budget.go's
	// admit); a run projected past it is not made, and once returns a
	// roundCost.
	allow float64
}

// once adapts P5–P7 to the whitening w and its Hessians hs and runs
// the frozen sampler from resume (θ; nil: the centre jittered by
// StartScale) for draws draws with thinning at least minThin. It returns
// the draws in θ and in its whitened coordinates z (the same chain above
// DenseMax), and the run's error, or an error that ends the chain before
// any draw.
func (cr *chainRun) once(w *whitening, hs []sym, out *chainOut, resume []float64, minThin, draws int) (th, z *sgmcmc.Chain, runErr, err error) {
	e, ctx, s, m, r, pm, multimodal, dense := cr.e, cr.ctx, cr.s, cr.m, cr.r, cr.pm, cr.multimodal, cr.dense
	d := e.d
	a := &out.adapted
	a.Shift = w.shift
	if w.lower != nil {
		raw := w.lower.RawTriangular()
		a.Lower = make([]float64, d*d)
		for i := range d {
			copy(a.Lower[i*d:i*d+i+1], raw.Data[i*raw.Stride:i*raw.Stride+i+1])
		}
	} else {
		a.Diag = w.diag
	}
	if w.lr != nil {
		a.LowRankU, a.LowRankC = w.lr.u, w.lr.c
	}
	// P5 step size: λ̂ and the curvature spread over the warmup points, by
	// power iteration on the whitened Hessians (dense), or by Lanczos on
	// Hessian-vector products (above DenseMax, large.go).
	// The spread is judged on the windows' points, inside the typical set;
	// λ̂ on every point, the Newton phase's end included (leaving it out
	// made the funnel's step diverge: its curvature is the stiffest the
	// warmup sees there).
	cr.at(5)
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	if dense {
		// A direction flat at every window point: an improper or
		// non-identified posterior, which no preconditioner can whiten.
		if dir := flatDirection(hs[1:], w); dir != nil {
			return nil, nil, nil, improperError(dir, e.names)
		}
	}
	var lamMax, lamMin, spreadMax float64
	if dense {
		lamMax, lamMin, spreadMax = e.curvatureDense(hs)
	} else {
		lamMax, lamMin, spreadMax = e.curvatureLarge(w, hs)
	}
	if !(lamMax > 0) || math.IsInf(lamMax, 0) {
		return nil, nil, nil, valid.Errorf(sgmcmc.ErrNonFinite, "Sample: warmup: no positive curvature found (λ̂ = %v)", lamMax)
	}
	a.LambdaMax = lamMax
	a.CurvatureSpread = spreadMax / lamMin
	if !(a.CurvatureSpread >= 1) {
		// A window point with no positive curvature at all (or none
		// measurable).
		a.CurvatureSpread = math.Inf(1)
	}
	if r.Momentum {
		a.Eps = r.StepConstant / math.Sqrt(lamMax)
	} else {
		a.Eps = r.StepConstant / lamMax
	}
	// P6 batch size, B̂, friction and heat; then P7, the method's own
	// adaptation.
	cr.at(6)
	if err := e.chooseBatch(a, w, r, s); err != nil {
		return nil, nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	if wa, ok := m.(WarmupAdapter); ok {
		cr.at(7)
		if err := protect("Method.AdaptWarmup", func() error { return e.adaptMethod(wa, a, w) }); err != nil {
			return nil, nil, nil, err
		}
	}
	out.warmEvals = e.count
	out.settled = e.settled(multimodal)
	// The sampling run's start: the centre jittered by StartScale
	// posterior standard deviations in each whitened coordinate.
	a.Start = make([]float64, d)
	for i := range a.Start {
		a.Start[i] = s.StartScale * (2*e.rng.Float64() - 1)
	}
	if resume != nil {
		// A later round continues from the last draw of the one before.
		a.Start = w.toZ(resume)
	}
	// The frozen sampler.
	g, err := e.sampling(max(a.BatchSize, 1))
	if err != nil {
		return nil, nil, nil, err
	}
	aff, err := a.Affine(g)
	if err != nil {
		return nil, nil, nil, err
	}
	var smp sgmcmc.Sampler
	cr.at(7)
	if err := protect("Method.NewSampler", func() (err error) {
		if pm != nil {
			smp, err = e.potentialSampler(pm, aff, a)
		} else {
			smp, err = a.NewSampler(aff)
		}
		return err
	}); err != nil {
		return nil, nil, nil, err
	}
	// The freeze: thinning and burn-in from the predicted autocorrelation
	// time (doc/adaptation.md §3).
	var tau float64
	if err := protect("AutocorrTimer.AutocorrTime", func() error { tau = autocorrTime(m, a); return nil }); err != nil {
		return nil, nil, nil, err
	}
	thin := s.Thin
	if thin == 0 {
		thin = max(1, int(math.Ceil(tau/thinPerAutocorr)), minThin)
	}
	a.Thin = thin
	a.BurnIn = max(minBurnIn, int(burnInAutocorrs*tau))
	// The full run's cost (Draws draws), also for a pilot run: a run the
	// budget cannot afford stops before its pilot is spent.
	steps, perStep := runCost(a, r, s, e.model != nil)
	if err := cr.admit(a, steps, perStep); err != nil {
		return nil, nil, nil, err
	}
	cr.setPhase("sampling")
	e.warm = false
	user := s.Callback
	if user != nil {
		// The user's callback ending the run stops the whole Run, not
		// only this chain: mark it.
		user = func(si sgmcmc.StepInfo) error {
			err := s.Callback(si)
			if err != nil {
				out.stopped = true
			}
			return err
		}
	}
	cb := cr.prog.sampling(cr.slot, a.BurnIn+draws*thin, user)
	ro := sgmcmc.RunOptions{Draws: draws, Thin: thin, BurnIn: a.BurnIn, Schedule: sgmcmc.Constant(a.Eps), Callback: cb}
	var zc *sgmcmc.Chain
	if dense {
		zc, runErr = sgmcmc.Run(ctx, smp, ro)
	} else {
		// Draws in θ, of the coordinates DrawsMemory allows, and the
		// moments of all (large.go).
		k := s.Chains
		if s.ChainIDs != nil {
			k = len(s.ChainIDs)
		}
		zc, out.moments, runErr = runLarge(ctx, smp, aff, ro, keptCoords(d, k, draws, s.DrawsMemory))
	}
	out.evals = e.count
	if rs, ok := smp.(*replicaSampler); ok {
		l, ws := rs.ladder()
		a.Ladder = &l
		for _, w := range ws {
			out.warnings = append(out.warnings, Warning{Kind: Exchange, Chain: cr.c, Message: fmt.Sprintf("chain %d: %s", cr.c, w)})
		}
	}
	if zc != nil {
		cr.prog.ran(cr.slot, zc.Steps)
	}
	if errors.Is(runErr, sgmcmc.ErrTemperature) {
		// The draws are all there, spread too wide or too narrow: a warning
		// of the chain (Heat), not a failure.
		out.spread = []Warning{{Kind: Heat, Chain: cr.c, Message: fmt.Sprintf("chain %d: %s", cr.c, inWords(runErr))}}
		runErr = nil
	} else {
		out.spread = nil
	}
	if runErr == nil {
		runErr = stopCause(zc, draws, a.BurnIn)
	}
	var se *sgmcmc.StepError
	if errors.As(runErr, &se) && se.Err == sgmcmc.ErrNonFiniteGradient {
		// The gradient was finite at every warmup point: a non-finite value
		// at a point the frozen sampler reached is the sampler's doing.
		runErr = &sgmcmc.StepError{Step: se.Step, Index: se.Index, Value: se.Value, Err: sgmcmc.ErrDivergence,
			What: "non-finite gradient at a point the sampler reached (a divergence: the step is too large for this part of the posterior, or the model overflows there)"}
	}
	if errors.As(runErr, &se) && (se.Err == sgmcmc.ErrDivergence || se.Err == nil) && (a.NoiseScale >= noiseCause || a.Heat > s.MaxHeat) {
		// A divergence or a state gone non-finite where warmup measured
		// gradient noise supplying half the diffusion or more (the rest
		// resting on B̂ being right everywhere): the noise, not the
		// curvature, is the likelier cause.
		runErr = &sgmcmc.StepError{Step: se.Step, Index: se.Index, Value: se.Value, Err: se.Err,
			What: fmt.Sprintf("%s — but warmup measured gradient noise at batch size %d putting %.3g times the sampler's own diffusion into each step (excess temperature %.3g%%), the likelier cause: raise BatchSize (or leave it 0 for Sample to choose)", se.What, a.BatchSize, a.NoiseScale, 100*a.Heat)}
	}
	th = zc
	if zc != nil && dense {
		th = a.toTheta(zc)
	}
	return th, zc, runErr, nil
}
