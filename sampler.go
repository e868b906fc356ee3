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
	// not be nil.
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
	// Chain.Divergences).
	MaxDivergences int
}

// Run advances s for o.BurnIn + o.Draws·Thin steps, storing every Thin-th
// state after burn-in in a Chain allocated once up front.
//
// If ctx is cancelled, or a step or the callback fails, Run returns the
// draws kept so far together with the error (ctx.Err() for cancellation).
// Draws kept before a failure are never lost. Run itself allocates only the
// Chain.
func Run(ctx context.Context, s Sampler, o RunOptions) (*Chain, error) {
	if s == nil {
		return nil, errorf(ErrNil, "Run: nil sampler")
	}
	if o.Draws <= 0 {
		return nil, errorf(ErrRange, "Run: Draws = %d, want > 0", o.Draws)
	}
	if o.BurnIn < 0 {
		return nil, errorf(ErrRange, "Run: BurnIn = %d, want ≥ 0", o.BurnIn)
	}
	if o.Thin < 0 {
		return nil, errorf(ErrRange, "Run: Thin = %d, want ≥ 0", o.Thin)
	}
	if o.Schedule == nil {
		return nil, errorf(ErrNil, "Run: nil Schedule")
	}
	if o.Start < 0 {
		return nil, errorf(ErrRange, "Run: Start = %d, want ≥ 0", o.Start)
	}
	thin := max(o.Thin, 1)
	if o.Draws > (math.MaxInt-o.BurnIn)/thin {
		return nil, errorf(ErrRange, "Run: BurnIn + Draws·Thin = %d + %d·%d overflows", o.BurnIn, o.Draws, thin)
	}
	d := s.Dim()
	if d <= 0 {
		return nil, errorf(ErrDimension, "Run: sampler of dimension %d", d)
	}
	if o.Draws > maxChainFloats/d {
		return nil, errorf(ErrRange, "Run: Draws·Dim = %d·%d floats is more than a Chain can hold (%d)", o.Draws, d, maxChainFloats)
	}
	c := &Chain{Dim: d, Draws: make([]float64, o.Draws*d), Eps: make([]float64, 0, o.Draws)}
	total := o.BurnIn + o.Draws*thin
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
	done := ctx.Done()
	for t := 1; t <= total; t++ {
		if done != nil {
			select {
			case <-done:
				c.Draws = c.Draws[:c.Len()*d]
				return c, ctx.Err()
			default:
			}
		}
		eps := o.Schedule.StepSize(o.Start + t)
		if err := s.Step(eps); err != nil {
			c.Draws = c.Draws[:c.Len()*d]
			return c, err
		}
		c.Steps = t
		kept := t > o.BurnIn && (t-o.BurnIn)%thin == 0
		var nd int
		var last Divergence
		if dc != nil {
			nd, last = dc.Divergences()
			c.Divergences = nd - div0
		}
		if kept {
			copy(c.Draws[c.Len()*d:], s.Position())
			c.Eps = append(c.Eps, eps)
			if dc != nil {
				c.Divergent = append(c.Divergent, nd > divKept)
			}
			divKept = nd
		}
		if maxDiv > 0 && c.Divergences > maxDiv {
			c.Draws = c.Draws[:c.Len()*d]
			return c, &StepError{Step: last.Step, Index: last.Index, Value: last.DeltaU, Err: ErrDivergence,
				What: fmt.Sprintf("%d divergent transitions in %d steps (more than the %d allowed; the last changed the potential by %.3g nats): the step size is too large for this posterior's curvature", c.Divergences, t, maxDiv, last.DeltaU)}
		}
		if o.Callback != nil {
			if err := o.Callback(StepInfo{T: t, Eps: eps, Kept: kept, Sampler: s}); err != nil {
				c.Draws = c.Draws[:c.Len()*d]
				if errors.Is(err, ErrStop) {
					return c, nil
				}
				return c, err
			}
		}
	}
	return c, nil
}
