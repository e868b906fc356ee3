// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// What the named samplers' constructors (sgld.go, sghmc.go, sgnht.go,
// sgrld.go, sgrhmc.go) share when they assemble their recipes.

// newNamedRecipe is NewRecipe for a named constructor, whose checkpoint
// kind (a constant of checkpoint.go, kindSGHMC for NewSGHMC) it records.
func newNamedRecipe(kind string, spec RecipeSpec) (*Recipe, error) {
	r, err := NewRecipe(spec)
	if err != nil {
		return nil, err
	}
	r.kind = kind
	return r, nil
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
func resampleMomentum(d int, mass []float64) func(z []float64, g *rng.Normal) {
	return func(z []float64, g *rng.Normal) {
		for i := range d {
			r := g.Norm()
			if mass != nil {
				r *= math.Sqrt(mass[i])
			}
			z[d+i] = r
		}
	}
}
