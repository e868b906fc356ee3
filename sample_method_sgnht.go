// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math/rand/v2"

// SGNHTMethod runs SGNHT (NewSGNHT) in the whitened coordinates with
// ε = StepConstant/√λ̂, the thermostat's diffusion A = max(MinA, εV̂max)
// (Adapted.Friction) and B̂ = V̂. The zero value is the default
// configuration.
type SGNHTMethod struct {
	// StepConstant is c in ε = c/√λ̂. Zero means 0.1: the thermostat
	// shortens the position variance by about εξ/2 (doc/equations.md
	// §13.3), and the small step keeps that near 2.5 %.
	StepConstant float64
	// MinA is the smallest A. Zero means 0.5.
	MinA float64
}

// Name returns "SGNHT".
func (SGNHTMethod) Name() string { return "SGNHT" }

// Rules returns SGNHT's warmup rules: momentum, with B̂, its friction A.
func (m SGNHTMethod) Rules() MethodRules {
	return MethodRules{StepConstant: orDefault(m.StepConstant, 0.1), Momentum: true, NoiseCorrection: true,
		MinFriction: orDefault(m.MinA, 0.5)}
}

// NewSampler returns NewSGNHT on g with A a.Friction and NoiseVar
// a.NoiseVar.
func (SGNHTMethod) NewSampler(g Gradient, z0 []float64, src rand.Source, a *Adapted) (Sampler, error) {
	return NewSGNHT(g, z0, src, &SGNHTSettings{A: a.Friction, NoiseVar: a.NoiseVar})
}
