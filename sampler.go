// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// StepInfo describes a completed step to a RunOptions.Callback.
type StepInfo struct {
	T       int     // 1-based step number within the run (burn-in included)
	Eps     float64 // step size used
	Kept    bool    // whether this step's state was stored as a draw
	Sampler Sampler // the sampler, positioned after the step
}

// RunOptions configures Run.
type RunOptions struct {
	// Draws is the number of draws to keep. It must be positive.
	Draws int
	// BurnIn is the number of initial steps whose states are discarded.
	BurnIn int
	// Thin keeps every Thin-th state after burn-in. Zero means 1.
	Thin int
	// Schedule gives the step size of step t = Start+1, Start+2, …. It must
	// not be nil. A Schedule with phases (Cyclical, or one with a method
	// Sampling(t int) bool) keeps no draw of its exploration steps, so a
	// run may keep fewer than Draws.
	Schedule Schedule
	// Start offsets the step numbers handed to Schedule, to continue a chain
	// where an earlier run stopped. Zero starts at t = 1.
	Start int
	// Callback, if not nil, is called after every step. Returning ErrStop
	// ends the run without error; any other error ends it with that error.
	Callback func(StepInfo) error
	// MaxDivergences is the number of divergent transitions (see
	// DivergenceCounter) the run tolerates before it stops with a
	// *StepError wrapping ErrDivergence, naming the last divergent step and
	// its worst coordinate, and returning the draws kept before it. Zero
	// means the default: 1 % of the run's steps, and at least 10. A
	// negative value never stops the run (divergences are still counted in
	// Chain.Divergences); Run's temperature test still judges it at the end.
	MaxDivergences int
	// Coords, if not nil, lists the coordinates of θ whose draws are kept,
	// in this order: each draw in Chain.Draws then holds len(Coords) values
	// (Chain.Dim), and Chain.Coords records which. They must be distinct
	// and in [0, Dim). An empty, non-nil Coords keeps no draws at all (the
	// step sizes, divergences and, with Moments, the moments are still
	// kept). Nil keeps every coordinate.
	Coords []int
	// Moments keeps, in Chain.Moments, the running mean, variance and
	// step-weighted mean of every coordinate of θ over the kept draws
	// (Welford's update: 4·Dim floats of memory however many draws), also
	// when Coords keeps only some coordinates, or none. For large d, where
	// the draws themselves would not fit in memory.
	Moments bool
	// LogDensity, if not nil, is evaluated at every kept draw's full θ and
	// recorded in Chain.LogDensity (for CmdStan's lp__, for instance). It
	// must not retain its argument. Nil records nothing.
	LogDensity func(theta []float64) float64
}

// Run advances s for o.BurnIn + o.Draws·Thin steps, storing every Thin-th
// state after burn-in in a Chain allocated once up front.
//
// If ctx is cancelled, or a step or the callback fails, Run returns the
// draws kept so far together with the error (ctx.Err() for cancellation).
// Draws kept before a failure are never lost. A panic in the sampler's
// Step (and so in the gradient or model it calls), the Schedule, the
// Callback or LogDensity is recovered and ends the run the same way, with
// a *PanicError naming the step and what panicked. Run itself allocates
// only the Chain.
//
// Run also judges the chain's spread, for samplers that count divergences
// (Recipe, PSGLD, HAMCMC): the configurational temperature
// mean (θ − θ₀)·∇Ũ(θ)/d over the sampling steps is 1 on any target, and a
// run of at least 200 steps after burn-in whose temperature lies outside
// [½, 2] by more than 4 standard errors — a variance off by a factor of
// two or more: a step too large, a run-away, missing noise — ends with an
// error wrapping ErrTemperature, every draw kept (doc/equations.md §12.2).
// Cyclical schedules, whose exploration steps are off target by design,
// are not judged.
//
// Run checks its arguments before the first step: a nil ctx, sampler or
// Schedule is an error wrapping ErrNil; a negative length, a run whose
// Start + BurnIn + Draws·Thin overflows int, or Draws·Dim beyond what a
// Chain can hold (2³⁴ floats) is an error wrapping ErrRange.
func Run(ctx context.Context, s Sampler, o RunOptions) (chain *Chain, err error) {
	if ctx == nil {
		return nil, errorf(ErrNil, "Run: nil context (use context.Background())")
	}
	if isNil(s) {
		if s != nil {
			return nil, errorf(ErrNil, "Run: nil sampler (a nil %T)", s)
		}
		return nil, errorf(ErrNil, "Run: nil sampler")
	}
	thin, total, err := o.check("Run")
	if err != nil {
		return nil, err
	}
	d := s.Dim()
	if d <= 0 {
		return nil, errorf(ErrDimension, "Run: sampler of dimension %d", d)
	}
	w, err := o.width(d) // floats kept per draw
	if err != nil {
		return nil, err
	}
	if w > 0 && o.Draws > maxChainFloats/w {
		return nil, errorf(ErrRange, "Run: Draws·Dim = %d·%d floats is more than a Chain can hold (%d)", o.Draws, w, maxChainFloats)
	}
	if err := checkMemory("Run", fmt.Sprintf("Draws·Dim = %d·%d draws", o.Draws, w), o.chainBytes(d, w), 0); err != nil {
		return nil, err
	}
	c := &Chain{Dim: w, Draws: make([]float64, o.Draws*w), Eps: make([]float64, 0, o.Draws)}
	// A panic in the sampler, the schedule or a callback (user code, or
	// code calling it) ends the run like an error: the draws so far are
	// kept and a *PanicError names what panicked and at which step.
	var t int
	in := "Sampler.Step"
	defer func() {
		if v := recover(); v != nil {
			p := asPanic(v, in)
			if p.Step == 0 {
				p.Step, p.Phase = t, "sampling"
			}
			c.Draws = c.Draws[:c.Len()*w]
			chain, err = c, p
		}
	}()
	if o.Coords != nil {
		c.Coords = append([]int{}, o.Coords...)
	}
	if o.Moments {
		c.Moments = newMoments(d)
	}
	if o.LogDensity != nil {
		c.LogDensity = make([]float64, 0, o.Draws)
	}
	maxDiv := o.MaxDivergences
	if maxDiv == 0 {
		maxDiv = max(10, total/100)
	}
	dc, _ := s.(DivergenceCounter)
	var div0, divKept int
	if dc != nil {
		div0, _ = dc.Divergences()
		divKept = div0
		c.Divergent = make([]bool, 0, o.Draws)
	}
	phased, _ := o.Schedule.(phasedSchedule)
	vr, _ := s.(virialer)
	var vir *virial
	if vr != nil && total-o.BurnIn >= virialMinSteps && phased == nil {
		vir = vr.virialState()
		defer vir.stop()
	}
	done := ctx.Done()
	for t = 1; t <= total; t++ {
		if done != nil {
			select {
			case <-done:
				c.Draws = c.Draws[:c.Len()*w]
				return c, ctx.Err()
			default:
			}
		}
		if vir != nil && t == o.BurnIn+1 {
			in = "Sampler.Position"
			vir.start(s.Position(), thin, (total-o.BurnIn)/thin/virialBatches, virialBatches)
		}
		in = "Schedule.StepSize"
		eps := o.Schedule.StepSize(o.Start + t)
		in = "Sampler.Step"
		if err := s.Step(eps); err != nil {
			c.Draws = c.Draws[:c.Len()*w]
			return c, err
		}
		c.Steps = t
		kept := t > o.BurnIn && (t-o.BurnIn)%thin == 0
		if kept && phased != nil {
			in = "Schedule.Sampling"
			kept = phased.Sampling(o.Start + t)
		}
		var nd int
		var last Divergence
		if dc != nil {
			in = "DivergenceCounter.Divergences"
			nd, last = dc.Divergences()
			c.Divergences = nd - div0
		}
		if kept {
			in = "LogDensity"
			lp := 0.0
			if o.LogDensity != nil {
				lp = o.LogDensity(s.Position())
			}
			in = "Sampler.Position"
			c.keep(s.Position(), eps)
			c.Eps = append(c.Eps, eps)
			if o.LogDensity != nil {
				c.LogDensity = append(c.LogDensity, lp)
			}
			if dc != nil {
				c.Divergent = append(c.Divergent, nd > divKept)
			}
			divKept = nd
		}
		if maxDiv > 0 && c.Divergences > maxDiv {
			c.Draws = c.Draws[:c.Len()*w]
			return c, &StepError{Step: last.Step, Index: last.Index, Value: last.DeltaU, Err: ErrDivergence,
				What: fmt.Sprintf("%d divergent transitions in %d steps (more than the %d allowed; the last changed the potential by %.3g nats, or was unstable): the step size is too large for this posterior's curvature", c.Divergences, t, maxDiv, last.DeltaU)}
		}
		if o.Callback != nil {
			in = "Callback"
			if err := o.Callback(StepInfo{T: t, Eps: eps, Kept: kept, Sampler: s}); err != nil {
				c.Draws = c.Draws[:c.Len()*w]
				if errors.Is(err, ErrStop) {
					return c, nil
				}
				return c, err
			}
		}
	}
	if vir != nil {
		if err := vir.temperatureError(total); err != nil {
			return c, err
		}
	}
	return c, nil
}

// check validates the options of a run and returns its thinning and its
// number of steps, BurnIn + Draws·Thin.
func (o *RunOptions) check(who string) (thin, total int, err error) {
	switch {
	case o.Draws <= 0:
		return 0, 0, errorf(ErrRange, "%s: Draws = %d, want > 0", who, o.Draws)
	case o.Draws > maxChainFloats:
		return 0, 0, errorf(ErrRange, "%s: Draws = %d is more than a Chain can hold (%d floats)", who, o.Draws, maxChainFloats)
	case o.BurnIn < 0:
		return 0, 0, errorf(ErrRange, "%s: BurnIn = %d, want ≥ 0", who, o.BurnIn)
	case o.Thin < 0:
		return 0, 0, errorf(ErrRange, "%s: Thin = %d, want ≥ 0", who, o.Thin)
	case o.Schedule == nil || isNil(o.Schedule):
		return 0, 0, errorf(ErrNil, "%s: nil Schedule", who)
	case o.Start < 0:
		return 0, 0, errorf(ErrRange, "%s: Start = %d, want ≥ 0", who, o.Start)
	}
	if c, ok := o.Schedule.(checkedSchedule); ok {
		if err := c.check(who); err != nil {
			return 0, 0, err
		}
	}
	thin = max(o.Thin, 1)
	if o.Draws > (math.MaxInt-o.BurnIn)/thin {
		return 0, 0, errorf(ErrRange, "%s: BurnIn + Draws·Thin = %d + %d·%d overflows", who, o.BurnIn, o.Draws, thin)
	}
	total = o.BurnIn + o.Draws*thin
	if o.Start > math.MaxInt-total {
		return 0, 0, errorf(ErrRange, "%s: Start + BurnIn + Draws·Thin = %d + %d overflows", who, o.Start, total)
	}
	return thin, total, nil
}

// chainBytes is the memory of the Chain that a run of these options
// keeps for a sampler of dimension d keeping w floats per draw.
func (o *RunOptions) chainBytes(d, w int) float64 {
	b := floatBytes(o.Draws, w+2) // draws, step sizes, log densities
	if o.Moments {
		b += floatBytes(4, d)
	}
	return b
}

// width validates o.Coords for a sampler of dimension d and returns the
// number of floats each kept draw stores.
func (o *RunOptions) width(d int) (int, error) {
	if o.Coords == nil {
		return d, nil
	}
	if len(o.Coords) > d {
		return 0, errorf(ErrRange, "Run: %d Coords for a sampler of dimension %d", len(o.Coords), d)
	}
	seen := make(map[int]bool, len(o.Coords))
	for k, j := range o.Coords {
		switch {
		case j < 0 || j >= d:
			return 0, errorf(ErrRange, "Run: Coords[%d] = %d not in [0, %d)", k, j, d)
		case seen[j]:
			return 0, errorf(ErrRange, "Run: Coords[%d] = %d is listed twice", k, j)
		}
		seen[j] = true
	}
	return len(o.Coords), nil
}
