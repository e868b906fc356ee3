// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math/rand/v2"
)

// SGHMCSettings configures NewSGHMC. The zero value is SGHMC with M = I,
// C = 1, no B̂, the sequential sweep and no momentum resampling.
type SGHMCSettings struct {
	// Mass is the diagonal of the mass matrix M. Nil means the identity.
	Mass []float64
	// Friction is C. Zero means 1.
	Friction float64
	// NoiseVar is a constant estimate of diag(V), the gradient noise's
	// covariance; the injected noise becomes N(0, ε(2C − εV)), and C must
	// exceed εV/2. Nil means no correction.
	NoiseVar []float64
	// EstimateNoise takes diag(V̂) from the gradient at every step (it must
	// implement NoiseEstimator).
	EstimateNoise bool
	// Integrator is Euler for Eq. 9 read literally, as the recipe paper
	// displays it. Nil means the sequential sweep (r, then θ with the new
	// r; the SGHMC paper's Algorithm 2), far more accurate for stiff
	// targets: see doc/equations.md §4.2.
	Integrator Integrator
	// ResampleEvery resamples r ~ N(0, M) every ResampleEvery steps. Zero
	// means never.
	ResampleEvery int
	// R0 is the initial momentum. Nil means zero.
	R0 []float64
	// Temperature T makes the target π(θ)^{1/T} (RecipeSpec.Temperature,
	// doc/equations.md §12.1). Zero means 1.
	Temperature float64
	// Naive makes the naive SGHMC of Chen et al. (2014) Eq. 11 / Ma et al.
	// (2015): Hamiltonian dynamics driven by the stochastic gradient, with
	// no friction and no injected noise (Friction and NoiseVar are
	// ignored). It is INCORRECT: the gradient noise heats the chain
	// without bound. It exists as a foil for demonstrations and tests;
	// Recipe.Check reports it.
	Naive bool
}

// NewSGHMC returns stochastic gradient Hamiltonian Monte Carlo (Chen, Fox &
// Guestrin 2014) as a Recipe over z = (θ, r) with H = U(θ) + ½rᵀM⁻¹r,
// D = [[0,0],[0,C]], Q = [[0,−I],[I,0]], Γ = 0:
//
//	r ← r − ε∇Ũ(θ) − εCM⁻¹r + N(0, ε(2C − εB̂));  θ ← θ + εM⁻¹r.
//
// src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from. s may be nil for
// the defaults.
func NewSGHMC(grad Gradient, theta0 []float64, src rand.Source, s *SGHMCSettings) (*Recipe, error) {
	if s != nil && s.Naive {
		return newSGHMC("NewSGHMC", kindNaiveSGHMC, grad, theta0, src, s, true)
	}
	return newSGHMC("NewSGHMC", kindSGHMC, grad, theta0, src, s, false)
}

func newSGHMC(who, kind string, grad Gradient, theta0 []float64, src rand.Source, s *SGHMCSettings, naive bool) (*Recipe, error) {
	if s == nil {
		s = &SGHMCSettings{}
	}
	if err := checkStart(who, grad, theta0, src); err != nil {
		return nil, err
	}
	z0, err := momentumState(who, theta0, s.R0, 0)
	if err != nil {
		return nil, err
	}
	d := len(theta0)
	mass, invMass := make([]float64, d), make([]float64, d)
	for i := range mass {
		mass[i] = 1
	}
	if s.Mass != nil {
		if err := checkVector(who, "Mass", s.Mass, d, positive); err != nil {
			return nil, err
		}
		copy(mass, s.Mass)
	}
	for i, m := range mass {
		invMass[i] = 1 / m
	}
	c := s.Friction
	if c == 0 {
		c = 1
	}
	if err := checkScalar(who, "Friction", c); err != nil {
		return nil, err
	}
	if s.ResampleEvery < 0 {
		return nil, errorf(ErrRange, "%s: ResampleEvery < 0", who)
	}
	var D, Q *Block
	var drr Operator = Scalar{N: d, C: c}
	if naive {
		drr = nil
	}
	D, err = NewBlock([]int{d, d}, [][]Operator{{nil, nil}, {nil, drr}})
	if err != nil {
		return nil, err
	}
	Q, err = NewBlock([]int{d, d}, [][]Operator{{nil, Scalar{N: d, C: -1}}, {Scalar{N: d, C: 1}, nil}})
	if err != nil {
		return nil, err
	}
	k := Kinetic{}
	if s.Mass != nil {
		k.InvMass = invMass
	}
	spec := RecipeSpec{
		Blocks:      []int{d, d},
		Grad:        grad,
		GradK:       k,
		D:           D,
		Q:           Q,
		Integrator:  s.Integrator,
		Temperature: s.Temperature,
		Z0:          z0,
		Src:         src,
	}
	if naive {
		spec.Naive = "naive SGHMC has no friction to absorb the gradient noise (Chen et al. 2014, Eq. 11); its stationary distribution is not the target"
	} else if err := spec.setNoise(who, d, s.NoiseVar, s.EstimateNoise, momentumNoiseMap(d)); err != nil {
		return nil, err
	}
	if s.ResampleEvery > 0 {
		spec.RefreshEvery = s.ResampleEvery
		spec.Refresh = resampleMomentum(d, mass)
	}
	return newNamedRecipe(kind, spec)
}

// momentumNoiseMap returns the NoiseMap of a sampler whose gradient reaches
// the momentum through Q_rθ = I: B̂_rr = diag(v), zero elsewhere.
func momentumNoiseMap(d int) func(b, z, v []float64) {
	return func(b, _, v []float64) {
		clear(b)
		copy(b[d:2*d], v)
	}
}
