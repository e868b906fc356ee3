// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math/rand/v2"

// SGNHTSettings configures NewSGNHT. The zero value is SGNHT with A = 1,
// r₀ = 0, ξ₀ = A and the sequential sweep.
type SGNHTSettings struct {
	// A is the diffusion on the momentum and the thermostat's stationary
	// mean. Zero means 1.
	A float64
	// NoiseVar is a constant estimate of diag(V); the injected noise becomes
	// N(0, ε(2A − εV)). Nil means no correction.
	NoiseVar []float64
	// EstimateNoise takes diag(V̂) from the gradient at every step.
	EstimateNoise bool
	// Integrator is Euler for Eq. 9 read literally. Nil means the sweep
	// (r, then θ, then ξ, each with the latest values), the SGNHT paper's
	// algorithm.
	Integrator Integrator
	// R0 is the initial momentum. Nil means zero.
	R0 []float64
	// Xi0 is the initial thermostat. Nil means A.
	Xi0 *float64
	// Temperature T makes the target π(θ)^{1/T} (RecipeSpec.Temperature,
	// doc/equations.md §12.1). Zero means 1.
	Temperature float64
}

// NewSGNHT returns the stochastic gradient Nosé–Hoover thermostat (Ding et
// al. 2014) as a Recipe over z = (θ, r, ξ) with
// H = U(θ) + ½rᵀr + (d/2)(ξ − A)², D = diag(0, A·I, 0),
// Q = [[0,−I,0],[I,0,r/d],[0,−rᵀ/d,0]] and Γ = (0, 0, −1):
//
//	r ← r − ε∇Ũ(θ) − εξr + N(0, ε(2A − εB̂));  θ ← θ + εr;  ξ ← ξ + ε(rᵀr/d − 1).
//
// src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from. s may be nil for
// the defaults.
func NewSGNHT(grad Gradient, theta0 []float64, src rand.Source, s *SGNHTSettings) (*Recipe, error) {
	const who = "NewSGNHT"
	if s == nil {
		s = &SGNHTSettings{}
	}
	if err := checkStart(who, grad, theta0, src); err != nil {
		return nil, err
	}
	z0, err := momentumState(who, theta0, s.R0, 1)
	if err != nil {
		return nil, err
	}
	d := len(theta0)
	a := s.A
	if a == 0 {
		a = 1
	}
	if err := checkScalar(who, "A", a); err != nil {
		return nil, err
	}
	z0[2*d] = a
	if s.Xi0 != nil {
		if err := checkVector(who, "Xi0", []float64{*s.Xi0}, 1, anyFinite); err != nil {
			return nil, err
		}
		z0[2*d] = *s.Xi0
	}
	fd := float64(d)
	D, err := NewBlock([]int{d, d, 1}, [][]Operator{{nil, nil, nil}, {nil, Scalar{N: d, C: a}, nil}, {nil, nil, nil}})
	if err != nil {
		return nil, err
	}
	Q, err := NewBlock([]int{d, d, 1}, [][]Operator{
		{nil, Scalar{N: d, C: -1}, nil},
		{Scalar{N: d, C: 1}, nil, momentumColumn{d: d, scale: 1 / fd}},
		{nil, momentumRow{d: d, scale: -1 / fd}, nil},
	})
	if err != nil {
		return nil, err
	}
	gamma := make(Vector, 2*d+1) // Γ_ξ = ∂_r(Q_ξr) = −1
	gamma[2*d] = -1
	spec := RecipeSpec{
		Blocks:      []int{d, d, 1},
		Grad:        grad,
		GradK:       Kinetic{Thermostat: true, A: a},
		D:           D,
		Q:           Q,
		Gamma:       gamma,
		Integrator:  s.Integrator,
		Temperature: s.Temperature,
		Z0:          z0,
		Src:         src,
	}
	if err := spec.setNoise(who, d, s.NoiseVar, s.EstimateNoise, momentumNoiseMap(d)); err != nil {
		return nil, err
	}
	return newNamedRecipe(kindSGNHT, spec)
}
