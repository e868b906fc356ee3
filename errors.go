// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"fmt"
	"strings"
)

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

// NotPSDError reports that a noise covariance 2D − εB̂ is not positive
// semidefinite: the friction or diffusion is too small for the gradient
// noise, or the step is too large.
type NotPSDError struct {
	Index int     // coordinate (or pivot) where it fails, -1 if unknown
	Value float64 // the offending diagonal entry or pivot of 2D − εB̂
}

// Error names the coordinate and the offending value.
func (e *NotPSDError) Error() string {
	return fmt.Sprintf("sgmcmc: 2D − εB̂ not positive semidefinite at coordinate %d (value %.6g)", e.Index, e.Value)
}

// CheckError lists what Recipe.Check found wrong.
type CheckError struct {
	Problems []string
}

// Error lists every problem found.
func (e *CheckError) Error() string {
	return "sgmcmc: recipe check failed: " + strings.Join(e.Problems, "; ")
}

// ChainError reports the failure of one chain of RunChains.
type ChainError struct {
	Chain int   // index of the chain
	Err   error // its error
}

// Error names the chain and its error.
func (e *ChainError) Error() string { return fmt.Sprintf("sgmcmc: chain %d: %v", e.Chain, e.Err) }

// Unwrap returns e.Err.
func (e *ChainError) Unwrap() error { return e.Err }

// errOtherChain is the cancellation cause RunChains gives the chains still
// running when one fails.
var errOtherChain = errors.New("sgmcmc: another chain failed")
