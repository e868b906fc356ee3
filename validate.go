// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
)

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

// momentumState returns the initial state (θ₀, r₀, 0…) with extra
// trailing coordinates; a nil r0 means zero momentum.
func momentumState(who string, theta0, r0 []float64, extra int) ([]float64, error) {
	if err := checkTheta0(who, theta0); err != nil {
		return nil, err
	}
	d := len(theta0)
	z := make([]float64, 2*d+extra)
	copy(z, theta0)
	if r0 != nil {
		if err := checkVector(who, "R0", r0, d, anyFinite); err != nil {
			return nil, err
		}
		copy(z[d:], r0)
	}
	return z, nil
}

// setNoise validates a named sampler's B̂ settings (θ-space noise variance
// v, or estimate it from the gradient) and sets them, with the sampler's
// NoiseMap m, on spec.
func (spec *RecipeSpec) setNoise(who string, d int, v []float64, estimate bool, m func(b, z, v []float64)) error {
	if v == nil && !estimate {
		return nil
	}
	if v != nil {
		if err := checkVector(who, "NoiseVar", v, d, nonNegative); err != nil {
			return err
		}
		spec.NoiseVar = append([]float64(nil), v...)
	}
	spec.EstimateNoise = estimate
	spec.NoiseMap = m
	return nil
}

// resampleMomentum returns a Refresh that draws r ~ N(0, diag(mass)), with
// mass nil meaning I.
func resampleMomentum(d int, mass []float64) func(z []float64, rng *rand.Rand) {
	return func(z []float64, rng *rand.Rand) {
		for i := range d {
			r := rng.NormFloat64()
			if mass != nil {
				r *= math.Sqrt(mass[i])
			}
			z[d+i] = r
		}
	}
}
