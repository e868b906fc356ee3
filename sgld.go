// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math/rand/v2"

// SGLDSettings configures NewSGLD. The zero value is plain SGLD with D = I.
type SGLDSettings struct {
	// Temperature T makes the target π(θ)^{1/T} (RecipeSpec.Temperature,
	// doc/equations.md §12.1). Zero means 1.
	Temperature float64
	// Precond is the constant diagonal of the preconditioner D. Nil means
	// the identity.
	Precond []float64
	// NoiseVar is a constant estimate of diag(V), the gradient noise's
	// covariance; the injected noise becomes N(0, ε(2D − εDVD)). Nil means
	// no correction.
	NoiseVar []float64
	// EstimateNoise takes diag(V̂) from the gradient at every step (it must
	// implement NoiseEstimator, e.g. a Minibatch with Noise set).
	EstimateNoise bool
}

// NewSGLD returns stochastic gradient Langevin dynamics (Welling & Teh
// 2011) as a Recipe with H = U(θ), D constant, Q = 0, Γ = 0:
//
//	θ ← θ − ε D ∇Ũ(θ) + N(0, ε(2D − εB̂)).
//
// src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from. s may be nil for
// the defaults.
func NewSGLD(grad Gradient, theta0 []float64, src rand.Source, s *SGLDSettings) (*Recipe, error) {
	const who = "NewSGLD"
	if s == nil {
		s = &SGLDSettings{}
	}
	if err := checkStart(who, grad, theta0, src); err != nil {
		return nil, err
	}
	d := len(theta0)
	var D Diffusion = Scalar{N: d, C: 1}
	dd := make([]float64, d)
	for i := range dd {
		dd[i] = 1
	}
	if s.Precond != nil {
		if err := checkVector(who, "Precond", s.Precond, d, positive); err != nil {
			return nil, err
		}
		copy(dd, s.Precond)
		D = Diagonal(dd)
	}
	spec := RecipeSpec{Grad: grad, D: D, Z0: theta0, Src: src, Temperature: s.Temperature}
	if err := spec.setNoise(who, d, s.NoiseVar, s.EstimateNoise, func(b, _, v []float64) {
		for i := range b {
			b[i] = dd[i] * dd[i] * v[i]
		}
	}); err != nil {
		return nil, err
	}
	return newNamedRecipe(kindSGLD, spec)
}
