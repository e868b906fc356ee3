// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
)

// PSGLDMethod runs pSGLD (NewPSGLD) in the whitened coordinates with its
// RMSprop accumulator adapted at the end of warmup and then frozen, so
// that its preconditioner G is constant and Γ = 0 exactly; ε =
// StepConstant/λ̂ for the preconditioned Hessian, and no B̂. The zero value
// is the default configuration.
type PSGLDMethod struct {
	// StepConstant is c in ε = c/λ̂, λ̂ the largest eigenvalue of the
	// preconditioned Hessian. Zero means 0.1, as SGLDMethod.
	StepConstant float64
	// Alpha is the RMSprop decay α during the adaptation. Zero means 0.99
	// (PSGLDSettings.Alpha).
	Alpha float64
	// Lambda is λ, which bounds the preconditioner by 1/λ. Zero means
	// 1e-12: in whitened coordinates the mean per-datum gradient is of
	// order 1/N, so λ must be smaller than that.
	Lambda float64
	// AdaptSteps is the number of RMSprop updates of the accumulator
	// before it is frozen. Zero means 200.
	AdaptSteps int
}

// psgldAdaptStep is the step of the accumulator's adaptation: only v
// matters there, and a tiny step keeps θ near the adapted point.
const psgldAdaptStep = 1e-12

// Name returns "pSGLD".
func (PSGLDMethod) Name() string { return "pSGLD" }

// Rules returns pSGLD's warmup rules: first-order, without B̂.
func (m PSGLDMethod) Rules() MethodRules {
	return MethodRules{StepConstant: orDefault(m.StepConstant, 0.1)}
}

// NewSampler returns NewPSGLD on g with the frozen accumulator
// a.Accumulator.
func (m PSGLDMethod) NewSampler(g Gradient, z0 []float64, src rand.Source, a *Adapted) (Sampler, error) {
	return NewPSGLD(g, z0, src, &PSGLDSettings{V0: a.Accumulator, Freeze: true, Lambda: m.lambda(), N: 1})
}

// AdaptWarmup runs AdaptSteps RMSprop updates of pSGLD's accumulator on g,
// stores it in a.Accumulator, and divides a.Eps by the largest entry of
// the preconditioner G = diag(1/(λ + √v)), so that ε is c/λ̂ for the
// preconditioned curvature.
func (m PSGLDMethod) AdaptWarmup(g Gradient, n int, src rand.Source, a *Adapted) error {
	d := len(a.Shift)
	p, err := NewPSGLD(g, make([]float64, d), src, &PSGLDSettings{Alpha: m.Alpha, DropGamma: true, N: float64(n), Lambda: m.lambda()})
	if err != nil {
		return err
	}
	for range orDefault(m.AdaptSteps, 200) {
		if err := p.Step(psgldAdaptStep); err != nil {
			return err
		}
	}
	a.Accumulator = make([]float64, d)
	p.Accumulator(a.Accumulator)
	a.Eps /= m.precond(a, math.Max, 0)
	return nil
}

// AutocorrTime is SGLD's at the effective step εG_min: the flattest
// direction of the preconditioner sets the pace.
func (m PSGLDMethod) AutocorrTime(a *Adapted) float64 {
	return firstOrderAutocorr(a.Eps * m.precond(a, math.Min, math.Inf(1)))
}

// precond reduces the frozen preconditioner's entries 1/(λ + √v) by f
// from init.
func (m PSGLDMethod) precond(a *Adapted, f func(x, y float64) float64, init float64) float64 {
	r := init
	for _, v := range a.Accumulator {
		r = f(r, 1/(m.lambda()+math.Sqrt(v)))
	}
	return r
}

func (m PSGLDMethod) lambda() float64 { return orDefault(m.Lambda, 1e-12) }
