// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math/rand/v2"

// SGHMCMethod runs SGHMC (NewSGHMC) in the whitened coordinates with
// M = I, ε = StepConstant/√λ̂, friction C = max(MinFriction, εV̂max) and
// B̂ = V̂. The zero value is the default configuration, and Sample's
// default method.
type SGHMCMethod struct {
	// StepConstant is c in ε = c/√λ̂. Zero means 0.3 (doc/equations.md
	// §13.2: ε√λmax ≲ 1 keeps the stiffest direction stable with margin).
	StepConstant float64
	// MinFriction is the smallest friction C. Zero means 1, about critical
	// damping of a whitened direction of unit curvature.
	MinFriction float64
}

// Name returns "SGHMC".
func (SGHMCMethod) Name() string { return "SGHMC" }

// Rules returns SGHMC's warmup rules: momentum, with B̂.
func (m SGHMCMethod) Rules() MethodRules {
	return MethodRules{StepConstant: orDefault(m.StepConstant, 0.3), Momentum: true, NoiseCorrection: true,
		MinFriction: orDefault(m.MinFriction, 1)}
}

// NewSampler returns NewSGHMC on g with Friction a.Friction and NoiseVar
// a.NoiseVar.
func (SGHMCMethod) NewSampler(g Gradient, z0 []float64, src rand.Source, a *Adapted) (Sampler, error) {
	return NewSGHMC(g, z0, src, &SGHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar})
}
