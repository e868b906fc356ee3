// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// SGHMC runs SGHMC (sgmcmc.NewSGHMC) in the whitened coordinates with
// M = I, ε = StepConstant/√λ̂, friction C = max(MinFriction, εV̂max) and
// B̂ = V̂, integrated by BAOAB unless Integrator says otherwise. The zero
// value is the default configuration, and Run's default method.
type SGHMC struct {
	// StepConstant is c in ε = c/√λ̂. Zero means 0.5 (sghmcSplitConstant) with a
	// splitting integrator (the default), whose position marginal is exact
	// on a Gaussian at any stable step, and 0.3 with the sweep or Euler
	// (doc/equations.md §13.2: ε√λmax ≲ 1 keeps the sweep's bias small;
	// doc/adaptation.md §2.7).
	StepConstant float64
	// Integrator integrates the sampling run. Nil means BAOAB{}, Run's
	// choice: the most effective draws per gradient evaluation at the
	// accuracy goal (doc/adaptation.md §2.7). Sweep{} is the sequential
	// sweep that Run used before.
	Integrator sgmcmc.Integrator
	// MinFriction is the smallest friction C. Zero means 1, about critical
	// damping of a whitened direction of unit curvature.
	MinFriction float64
}

// Name returns "SGHMC".
func (SGHMC) Name() string { return "SGHMC" }

// Rules returns SGHMC's warmup rules: momentum, with B̂.
func (m SGHMC) Rules(int) Rules {
	c := 0.3
	if isSplitting(m.integrator()) {
		c = sghmcSplitConstant
	}
	return Rules{StepConstant: orDefault(m.StepConstant, c), Momentum: true, NoiseCorrection: true,
		MinFriction: orDefault(m.MinFriction, 1)}
}

// integrator returns the method's integrator, BAOAB{} for nil.
func (m SGHMC) integrator() sgmcmc.Integrator {
	return orIntegrator(m.Integrator, sgmcmc.BAOAB{})
}

// NewSampler returns NewSGHMC on g with Friction a.Friction, NoiseVar
// a.NoiseVar and the method's Integrator.
func (m SGHMC) NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, a *Adapted) (sgmcmc.Sampler, error) {
	return sgmcmc.NewSGHMC(g, z0, src, &sgmcmc.SGHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar, Integrator: m.integrator()})
}

// orIntegrator returns integ, or def if integ is nil.
func orIntegrator(integ, def sgmcmc.Integrator) sgmcmc.Integrator {
	if integ == nil {
		return def
	}
	return integ
}

// isSplitting reports whether integ is one of the splitting integrators.
func isSplitting(integ sgmcmc.Integrator) bool {
	switch integ.(type) {
	case sgmcmc.BAOAB, sgmcmc.OBABO, sgmcmc.BADODAB, *sgmcmc.BAOAB, *sgmcmc.OBABO, *sgmcmc.BADODAB:
		return true
	}
	return false
}
