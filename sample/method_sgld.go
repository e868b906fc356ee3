// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// SGLD runs SGLD (sgmcmc.NewSGLD) in the whitened coordinates with
// ε = StepConstant/λ̂ and B̂ = V̂. The zero value is the default
// configuration.
type SGLD struct {
	// StepConstant is c in ε = c/λ̂. Zero means 0.1: the stiffest
	// direction's variance inflated by 1/(1 − c/2), about 5 %
	// (doc/equations.md §13.1).
	StepConstant float64
}

// Name returns "SGLD".
func (SGLD) Name() string { return "SGLD" }

// Rules returns SGLD's warmup rules: first-order, with B̂.
func (m SGLD) Rules(int) Rules {
	return Rules{StepConstant: orDefault(m.StepConstant, 0.1), NoiseCorrection: true}
}

// NewSampler returns NewSGLD on g with NoiseVar a.NoiseVar.
func (SGLD) NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, a *Adapted) (sgmcmc.Sampler, error) {
	return sgmcmc.NewSGLD(g, z0, src, &sgmcmc.SGLDSettings{NoiseVar: a.NoiseVar})
}
