// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"fmt"

	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// Errors that constructors, Run and checkpoint restores wrap, so that a
// caller can test for a class of failure with errors.Is; the message of the
// returned error names the function, the argument and the offending value.
var (
	// ErrNil: a required argument (gradient, model, source, metric,
	// sampler, schedule, function) is nil.
	ErrNil = errors.New("sgmcmc: nil argument")
	// ErrDimension: a length or dimension is zero, negative or does not
	// match another (theta0 against the model, a setting against dim θ).
	ErrDimension = errors.New("sgmcmc: dimension mismatch")
	// ErrNonFinite: an input holds NaN or ±Inf.
	ErrNonFinite = errors.New("sgmcmc: value not finite")
	// ErrRange: a setting is outside its allowed range (a negative
	// friction, a batch larger than the data, an overflowing run length).
	ErrRange = errors.New("sgmcmc: setting out of range")
	// ErrUnsupported: a combination of settings that the method does not
	// support, or an argument lacking a capability the settings need.
	ErrUnsupported = errors.New("sgmcmc: unsupported combination")
	// ErrCheckpoint: a checkpoint is truncated, corrupted, or belongs to a
	// sampler of another kind or dimension.
	ErrCheckpoint = errors.New("sgmcmc: invalid checkpoint")
	// ErrDivergence: a run stopped because too many of its transitions
	// diverged (see DivergenceCounter and RunOptions.MaxDivergences).
	ErrDivergence = errors.New("sgmcmc: divergent transitions")
	// ErrNonFiniteGradient: the gradient source wrote NaN or ±Inf (the
	// StepError names the step and the coordinate).
	ErrNonFiniteGradient = errors.New("sgmcmc: non-finite gradient")
	// ErrImproper: sample.Run's warmup found a direction along which the
	// posterior has no curvature at any point it measured — the log
	// density is flat there, and the posterior is improper (a parameter
	// under a flat prior that the data do not inform) or the model is not
	// identified (parameters that enter the likelihood only through a
	// combination). The error names the direction.
	ErrImproper = errors.New("sgmcmc: improper or non-identified posterior")
	// ErrGradient: the model's gradient does not match finite differences
	// of its log density (CheckModel, and package sample's warmup).
	ErrGradient = errors.New("sgmcmc: gradient does not match the log density")
	// ErrTemperature is wrapped by the error of a Run whose chain is not at
	// its target's temperature (Run's configurational-temperature test):
	// its draws, which Run returns, are spread too wide or too narrow.
	ErrTemperature = errors.New("sgmcmc: chain not at its target's temperature")
	// ErrStop may be returned by a RunOptions.Callback to end a run early
	// without error: Run returns the draws kept so far and a nil error.
	ErrStop = errors.New("sgmcmc: stop requested")
)

// errorf returns an error whose message is "sgmcmc: " followed by the
// formatted text and which wraps kind (unless nil) and any %w argument.
func errorf(kind error, format string, args ...any) error {
	return valid.Errorf(kind, format, args...)
}

// StepError reports a failure during a step: a non-finite value from the
// user's gradient or metric, a state that became non-finite, or a noise
// covariance 2D − εB̂ that is not positive semidefinite.
type StepError struct {
	Step  int     // 1-based index of the failing step, counted by the sampler
	Index int     // coordinate concerned, or -1
	Value float64 // offending value
	What  string  // what failed, e.g. "gradient"
	Err   error   // the class of failure, if any (ErrNonFiniteGradient, ErrDivergence); see Unwrap
}

// Unwrap returns Err.
func (e *StepError) Unwrap() error { return e.Err }

// Error names the step, the coordinate and what failed.
func (e *StepError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("sgmcmc: step %d: %s (value %v)", e.Step, e.What, e.Value)
	}
	return fmt.Sprintf("sgmcmc: step %d: %s at coordinate %d (value %v)", e.Step, e.What, e.Index, e.Value)
}

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
