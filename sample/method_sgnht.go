// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// SGNHT runs SGNHT (sgmcmc.NewSGNHT) in the whitened coordinates with
// ε = StepConstant/√λ̂, the thermostat's diffusion A = max(MinA, εV̂max)
// (Adapted.Friction) and B̂ = V̂, integrated by BADODAB unless Integrator
// says otherwise. The zero value is the default configuration.
type SGNHT struct {
	// StepConstant is c in ε = c/√λ̂. Zero means 0.5 (sgnhtSplitConstant) with
	// BADODAB (the default), whose position marginal is exact on a
	// Gaussian at the thermostat's mean, and 0.1 with the sweep or Euler:
	// the sweep's thermostat shortens the position variance by about εξ/2
	// (doc/equations.md §13.3), and the small step keeps that near 2.5 %.
	StepConstant float64
	// Integrator integrates the sampling run. Nil means BADODAB{},
	// Run's choice (doc/adaptation.md §2.7); Sweep{} is the sequential
	// sweep that Run used before.
	Integrator sgmcmc.Integrator
	// MinA is the smallest A. Zero means 0.5.
	MinA float64
}

// Name returns "SGNHT".
func (SGNHT) Name() string { return "SGNHT" }

// Rules returns SGNHT's warmup rules: momentum, with B̂, its friction A.
func (m SGNHT) Rules(int) Rules {
	c := 0.1
	if isSplitting(m.integrator()) {
		c = sgnhtSplitConstant
	}
	return Rules{StepConstant: orDefault(m.StepConstant, c), Momentum: true, NoiseCorrection: true,
		MinFriction: orDefault(m.MinA, 0.5)}
}

// integrator returns the method's integrator, BADODAB{} for nil.
func (m SGNHT) integrator() sgmcmc.Integrator {
	return orIntegrator(m.Integrator, sgmcmc.BADODAB{})
}

// NewSampler returns NewSGNHT on g with A a.Friction, NoiseVar a.NoiseVar
// and the method's Integrator.
func (m SGNHT) NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, a *Adapted) (sgmcmc.Sampler, error) {
	return sgmcmc.NewSGNHT(g, z0, src, &sgmcmc.SGNHTSettings{A: a.Friction, NoiseVar: a.NoiseVar, Integrator: m.integrator()})
}
