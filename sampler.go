// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Sampler is a Markov chain over θ that advances one step at a time.
//
// Every sampler in this package implements it: the Recipe-based samplers
// (SGLD, SGHMC, SGNHT, SGRLD, gSGRHMC), SCIR and HAMCMC. A Sampler owns its
// state and its random stream; Step allocates nothing.
type Sampler interface {
	// Dim returns the dimension d of θ.
	Dim() int
	// Position returns the current θ. The returned slice is the sampler's
	// own storage: it is valid until the next call to Step and must not be
	// modified.
	Position() []float64
	// Step advances the chain by one step of size eps > 0. If it returns an
	// error the state is left as it was before the call.
	Step(eps float64) error
}

// StepError reports a failure during a step: a non-finite value from the
// user's gradient or metric, a state that became non-finite, or a noise
// covariance 2D − εB̂ that is not positive semidefinite.
type StepError struct {
	Step  int     // 1-based index of the failing step, counted by the sampler
	Index int     // coordinate concerned, or -1
	Value float64 // offending value
	What  string  // what failed, e.g. "gradient"
}

// Error names the step, the coordinate and what failed.
func (e *StepError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("sgmcmc: step %d: %s (value %v)", e.Step, e.What, e.Value)
	}
	return fmt.Sprintf("sgmcmc: step %d: %s at coordinate %d (value %v)", e.Step, e.What, e.Index, e.Value)
}

// ErrStop may be returned by a RunOptions.Callback to end a run early
// without error: Run returns the draws kept so far and a nil error.
var ErrStop = errors.New("sgmcmc: stop requested")

// firstNonFinite returns the index of the first NaN or Inf in x, or -1.
func firstNonFinite(x []float64) int {
	for i, v := range x {
		if v-v != 0 { // true exactly for NaN and ±Inf
			return i
		}
	}
	return -1
}

// checkFinite returns a *StepError naming the first non-finite value of x.
func checkFinite(x []float64, step int, what string) error {
	if i := firstNonFinite(x); i >= 0 {
		return &StepError{Step: step, Index: i, Value: x[i], What: what}
	}
	return nil
}

// checkStepSize validates a step size passed to Step.
func checkStepSize(eps float64, step int) error {
	if !(eps > 0) || math.IsInf(eps, 0) {
		return &StepError{Step: step, Index: -1, Value: eps, What: "step size must be positive and finite"}
	}
	return nil
}

// Schedule gives the step size for each step t = 1, 2, ….
type Schedule interface {
	StepSize(t int) float64
}

// Constant is a constant step size.
type Constant float64

// StepSize returns c.
func (c Constant) StepSize(int) float64 { return float64(c) }

// Polynomial is the SGLD schedule ε_t = A (B + t)^(−Gamma) of Welling & Teh
// (2011). Convergence theory asks for Gamma in (0.5, 1].
type Polynomial struct {
	A, B, Gamma float64
}

// StepSize returns A (B + t)^(−Gamma).
func (p Polynomial) StepSize(t int) float64 { return p.A * math.Pow(p.B+float64(t), -p.Gamma) }

// Decay is the schedule h_t = H (1 + t/Tau)^(−Kappa) used for SGRLD and SCIR on
// LDA (Patterson & Teh 2013; Baker et al. 2018).
type Decay struct {
	H, Tau, Kappa float64
}

// StepSize returns H (1 + t/Tau)^(−Kappa).
func (d Decay) StepSize(t int) float64 { return d.H * math.Pow(1+float64(t)/d.Tau, -d.Kappa) }

// Power is the HAMCMC schedule ε_t = (A/t)^Exponent of Şimşekli et al.
// (2016). The zero Exponent means 0.51, the paper's value.
type Power struct {
	A, Exponent float64
}

// StepSize returns (A/t)^Exponent.
func (p Power) StepSize(t int) float64 {
	e := p.Exponent
	if e == 0 {
		e = 0.51
	}
	return math.Pow(p.A/float64(t), e)
}

// ScheduleFunc adapts a function to the Schedule interface.
type ScheduleFunc func(t int) float64

// StepSize returns f(t).
func (f ScheduleFunc) StepSize(t int) float64 { return f(t) }

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
}

// Chain holds the draws of a run in one preallocated row-major block.
type Chain struct {
	// Dim is the dimension of each draw.
	Dim int
	// Draws holds draw i in Draws[i*Dim : (i+1)*Dim].
	Draws []float64
	// Eps holds the step size of the step that produced each draw, for
	// step-weighted averages (Eq. 12 of Şimşekli et al. 2016).
	Eps []float64
	// Steps is the number of steps taken, burn-in included.
	Steps int
}

// Len returns the number of draws.
func (c *Chain) Len() int { return len(c.Eps) }

// At returns draw i as a slice of c.Draws.
func (c *Chain) At(i int) []float64 { return c.Draws[i*c.Dim : (i+1)*c.Dim] }

// Column copies coordinate j of every draw into dst, allocating it if dst is
// nil, and returns it.
func (c *Chain) Column(dst []float64, j int) []float64 {
	n := c.Len()
	if dst == nil {
		dst = make([]float64, n)
	}
	for i := range n {
		dst[i] = c.Draws[i*c.Dim+j]
	}
	return dst
}

// Matrix returns the draws as an n×Dim matrix sharing c.Draws.
func (c *Chain) Matrix() *mat.Dense {
	if c.Len() == 0 {
		return nil
	}
	return mat.NewDense(c.Len(), c.Dim, c.Draws[:c.Len()*c.Dim])
}

// Mean writes the plain average of the draws into dst (length Dim).
func (c *Chain) Mean(dst []float64) {
	c.weightedMean(dst, false)
}

// WeightedMean writes the step-weighted average Σ ε_t θ_t / Σ ε_t into dst
// (Eq. 12 of Şimşekli et al. 2016), the consistent estimator of a posterior
// mean when the step size decreases.
func (c *Chain) WeightedMean(dst []float64) {
	c.weightedMean(dst, true)
}

func (c *Chain) weightedMean(dst []float64, weighted bool) {
	for j := range dst {
		dst[j] = 0
	}
	var sw float64
	for i := range c.Len() {
		w := 1.0
		if weighted {
			w = c.Eps[i]
		}
		sw += w
		for j, v := range c.At(i) {
			dst[j] += w * v
		}
	}
	if sw == 0 {
		return
	}
	for j := range dst {
		dst[j] /= sw
	}
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
		return nil, errors.New("sgmcmc: Run: nil sampler")
	}
	if o.Draws <= 0 {
		return nil, fmt.Errorf("sgmcmc: Run: Draws = %d, want > 0", o.Draws)
	}
	if o.BurnIn < 0 {
		return nil, fmt.Errorf("sgmcmc: Run: BurnIn = %d, want ≥ 0", o.BurnIn)
	}
	if o.Thin < 0 {
		return nil, fmt.Errorf("sgmcmc: Run: Thin = %d, want ≥ 0", o.Thin)
	}
	if o.Schedule == nil {
		return nil, errors.New("sgmcmc: Run: nil Schedule")
	}
	if o.Start < 0 {
		return nil, fmt.Errorf("sgmcmc: Run: Start = %d, want ≥ 0", o.Start)
	}
	thin := max(o.Thin, 1)
	d := s.Dim()
	c := &Chain{Dim: d, Draws: make([]float64, o.Draws*d), Eps: make([]float64, 0, o.Draws)}
	total := o.BurnIn + o.Draws*thin
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
		if kept {
			copy(c.Draws[c.Len()*d:], s.Position())
			c.Eps = append(c.Eps, eps)
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
