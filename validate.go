// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// isNil reports whether v is nil or a nil pointer, map, slice, func or
// channel held in an interface.
func isNil(v any) bool { return valid.IsNil(v) }

// dimensioned is a Gradient or ShapeEstimator that knows its dimension
// (Minibatch, Affine, CountMinibatch, FixedShape, FullGradient).
type dimensioned interface{ Dim() int }

// checkGrad validates a constructor's gradient: not nil (nor a nil
// pointer or function), and of dimension d if it knows its dimension.
func checkGrad(who string, grad Gradient, d int) error {
	if isNil(grad) {
		if grad != nil {
			return errorf(ErrNil, "%s: nil Gradient (a nil %T)", who, grad)
		}
		return errorf(ErrNil, "%s: nil Gradient", who)
	}
	if g, ok := grad.(dimensioned); ok && g.Dim() != d {
		return errorf(ErrDimension, "%s: the gradient (%T) has dimension %d, θ has %d (len(theta0))", who, grad, g.Dim(), d)
	}
	return nil
}

// faulter is a Gradient that can say why the last gradient it wrote is
// not finite when its own misuse is the cause (a Minibatch caught in use
// by two goroutines at once): what, in words, and the error.
type faulter interface {
	fault() (what string, err error)
}

// checkGradValue returns nil if the gradient x written by g at step is
// finite, and otherwise a *StepError naming the first non-finite
// coordinate (wrapping ErrNonFiniteGradient), or g's own fault (wrapped
// in StepError.Err) if it reports one. It costs what checkFinite costs; the fault is looked up only on
// failure.
func checkGradValue(g Gradient, x []float64, step int) error {
	i := firstNonFinite(x)
	if i < 0 {
		return nil
	}
	if f, ok := g.(faulter); ok {
		if what, err := f.fault(); err != nil {
			return &StepError{Step: step, Index: -1, Value: x[i], What: what, Err: err}
		}
	}
	return &StepError{Step: step, Index: i, Value: x[i], What: nonFiniteGradWhat, Err: ErrNonFiniteGradient}
}

// firstNonFinite returns the index of the first NaN or Inf in x, or -1.
func firstNonFinite(x []float64) int { return valid.FirstNonFinite(x) }

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

// Constraints on a constructor argument's values.
const (
	anyFinite = iota
	nonNegative
	positive
)

// checkVector validates a constructor argument: its length (n < 0 skips
// the check) and its values against the constraint c.
func checkVector(who, name string, x []float64, n int, c int) error {
	if n >= 0 && len(x) != n {
		return errorf(ErrDimension, "%s: %s has length %d, want %d", who, name, len(x), n)
	}
	for i, v := range x {
		finite := !math.IsNaN(v) && !math.IsInf(v, 0)
		switch {
		case !finite:
			return errorf(ErrNonFinite, "%s: %s[%d] = %v, want finite", who, name, i, v)
		case c == nonNegative && v < 0:
			return errorf(ErrRange, "%s: %s[%d] = %v, want ≥ 0", who, name, i, v)
		case c == positive && v <= 0:
			return errorf(ErrRange, "%s: %s[%d] = %v, want > 0", who, name, i, v)
		}
	}
	return nil
}

// checkScalar validates a positive finite hyperparameter.
func checkScalar(who, name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return errorf(ErrRange, "%s: %s = %v, want finite and > 0", who, name, v)
	}
	return nil
}

// checkTheta0 validates a named sampler's initial θ.
func checkTheta0(who string, theta0 []float64) error {
	if len(theta0) == 0 {
		return errorf(ErrDimension, "%s: empty theta0", who)
	}
	return checkVector(who, "theta0", theta0, -1, anyFinite)
}

// checkStart validates the arguments that the gradient samplers'
// constructors share: theta0 non-empty and finite, grad not nil and of
// dimension len(theta0) if it knows its dimension, src not nil.
func checkStart(who string, grad Gradient, theta0 []float64, src rand.Source) error {
	if err := checkTheta0(who, theta0); err != nil {
		return err
	}
	if err := checkGrad(who, grad, len(theta0)); err != nil {
		return err
	}
	if isNil(src) {
		return errorf(ErrNil, "%s: nil random source", who)
	}
	return nil
}
