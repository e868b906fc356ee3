// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math/rand/v2"

// SGRHMCMethod runs gSGRHMC (NewSGRHMC) in the whitened coordinates with
// the constant metric G = I, ε = StepConstant/√λ̂, friction
// max(MinFriction, εV̂max) and B̂ = V̂. The zero value is the default
// configuration.
type SGRHMCMethod struct {
	// StepConstant is c in ε = c/√λ̂. Zero means 0.3, as SGHMCMethod.
	StepConstant float64
	// MinFriction is the smallest friction. Zero means 1.
	MinFriction float64
}

// Name returns "gSGRHMC".
func (SGRHMCMethod) Name() string { return "gSGRHMC" }

// Rules returns gSGRHMC's warmup rules: momentum, with B̂.
func (m SGRHMCMethod) Rules() MethodRules {
	return MethodRules{StepConstant: orDefault(m.StepConstant, 0.3), Momentum: true, NoiseCorrection: true,
		MinFriction: orDefault(m.MinFriction, 1)}
}

// NewSampler returns NewSGRHMC on g with the metric G = I, Friction
// a.Friction and NoiseVar a.NoiseVar.
func (SGRHMCMethod) NewSampler(g Gradient, z0 []float64, src rand.Source, a *Adapted) (Sampler, error) {
	one := DiagMetricFunc(func(g, dg, _ []float64) {
		for i := range g {
			g[i], dg[i] = 1, 0
		}
	})
	return NewSGRHMC(g, z0, one, src, &SGRHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar})
}
