// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
)

// Temperature (doc/equations.md §12.1).
//
// A sampler at temperature T targets π(θ)^{1/T} ∝ e^{−U(θ)/T}: its
// gradient is ∇Ũ/T, whose noise has covariance V/T², so the B̂ correction
// takes NoiseVar/T² and the heat εV/(2C) of doc/equations.md §13.3 is
// that of the tempered gradient. T < 1 is a cold posterior (Wenzel et al.
// 2020), T > 1 a warm one; T = 1, and the zero value meaning 1, leave the
// gradient untouched, bit for bit. Everything else — the auxiliary
// variables, the friction, the thermostat's target — is as at T = 1.

// checkTemperature validates a temperature setting and returns it with
// the zero value replaced by 1.
func checkTemperature(who string, t float64) (float64, error) {
	if t == 0 {
		return 1, nil
	}
	if !(t > 0) || math.IsInf(t, 0) {
		return 0, errorf(ErrRange, "%s: Temperature = %v, want positive and finite (0 means 1)", who, t)
	}
	return t, nil
}

// tempered is a gradient source divided by a temperature: ∇Ũ/T, with the
// noise variance V/T² when the source estimates it, and its fixed batch
// when it has one.
type tempered struct {
	g   Gradient
	inv float64 // 1/T
}

// Temper returns g at temperature t: a Gradient of Ũ/T whose noise
// variance (for a NoiseEstimator) is V/T² and whose Hessian diagonal (for a
// DiagHessianGradient) is divided by T too, or g itself at t = 1 and at
// the zero value meaning 1. The samplers' Temperature settings use it; it
// is exported for layers above them that evaluate a tempered gradient
// themselves (package sample's warmup). It returns an error wrapping
// ErrRange for a t that is negative, NaN or infinite.
func Temper(g Gradient, t float64) (Gradient, error) {
	t, err := checkTemperature("Temper", t)
	if err != nil {
		return nil, err
	}
	return temperGradient(g, t), nil
}

// temperGradient returns g at temperature t, or g itself at t = 1.
func temperGradient(g Gradient, t float64) Gradient {
	if t == 1 {
		return g
	}
	if h, ok := g.(DiagHessianGradient); ok {
		return &temperedDiag{tempered: tempered{g: g, inv: 1 / t}, h: h}
	}
	return &tempered{g: g, inv: 1 / t}
}

// temperedDiag is tempered for a source that also gives its Hessian's
// diagonal (pSGLD's Γ and stability check use it), divided by T too.
type temperedDiag struct {
	tempered
	h DiagHessianGradient
}

// GradDiagHessian writes ∇Ũ/T and diag(∇²Ũ)/T.
func (t *temperedDiag) GradDiagHessian(grad, hess, theta []float64) {
	t.h.GradDiagHessian(grad, hess, theta)
	scaleAll(grad, t.inv)
	scaleAll(hess, t.inv)
}

func (t *tempered) Grad(dst, theta []float64) {
	t.g.Grad(dst, theta)
	scaleAll(dst, t.inv)
}

// NoiseVar writes the tempered gradient's noise variance, V/T².
func (t *tempered) NoiseVar(dst []float64) {
	t.g.(NoiseEstimator).NoiseVar(dst)
	scaleAll(dst, t.inv*t.inv)
}

// CanEstimateNoise is the source's, or an error if it estimates no noise.
func (t *tempered) CanEstimateNoise() error {
	ne, ok := t.g.(NoiseEstimator)
	if !ok {
		return errorf(ErrUnsupported, "the gradient (a %T) does not estimate its noise", t.g)
	}
	return ne.CanEstimateNoise()
}

// NewBatch draws the source's fixed batch, if it has one.
func (t *tempered) NewBatch() {
	if sb, ok := t.g.(SameBatchGradient); ok {
		sb.NewBatch()
	}
}

// GradSameBatch is the tempered gradient on the fixed batch (a fresh
// gradient for a source without one).
func (t *tempered) GradSameBatch(dst, theta []float64) {
	if sb, ok := t.g.(SameBatchGradient); ok {
		sb.GradSameBatch(dst, theta)
	} else {
		t.g.Grad(dst, theta)
	}
	scaleAll(dst, t.inv)
}

func scaleAll(x []float64, a float64) {
	for i := range x {
		x[i] *= a
	}
}
