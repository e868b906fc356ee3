// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// PSGLD runs pSGLD (sgmcmc.NewPSGLD) in the whitened coordinates with its
// RMSprop accumulator adapted at the end of warmup and then frozen, so
// that its preconditioner G is constant and Γ = 0 exactly; ε =
// StepConstant/λ̂ for the preconditioned Hessian, and no B̂. The zero value
// is the default configuration.
type PSGLD struct {
	// StepConstant is c in ε = c/λ̂, λ̂ the largest eigenvalue of the
	// preconditioned Hessian. Zero means 0.1, as SGLD's.
	StepConstant float64
	// Lambda is λ, which bounds the preconditioner by 1/λ. Zero means
	// 1e-12: in whitened coordinates the mean per-datum gradient is of
	// order 1/N, so λ must be smaller than that.
	Lambda float64
	// AdaptSteps is the number of SGLD steps over which the accumulator
	// is averaged before it is frozen (AdaptWarmup). Zero means 200.
	AdaptSteps int
}

// Name returns "pSGLD".
func (PSGLD) Name() string { return "pSGLD" }

// Rules returns pSGLD's warmup rules: first-order, without B̂.
func (m PSGLD) Rules(int) Rules {
	return Rules{StepConstant: orDefault(m.StepConstant, 0.1)}
}

// NewSampler returns NewPSGLD on g with the frozen accumulator
// a.Accumulator.
func (m PSGLD) NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, a *Adapted) (sgmcmc.Sampler, error) {
	return sgmcmc.NewPSGLD(g, z0, src, &sgmcmc.PSGLDSettings{V0: a.Accumulator, Freeze: true, Lambda: m.lambda(), N: 1})
}

// AdaptWarmup sets pSGLD's accumulator to the mean of ḡ² = (∇Ũ/n)² over
// AdaptSteps SGLD steps of size psgldTrajectoryStep/λ̂ on g from the
// warmup's end (whatever StepConstant: the accumulator describes the
// posterior, not the run), stores
// it in a.Accumulator, and divides a.Eps by the largest entry of the
// preconditioner G = diag(1/(λ + √v)), so that ε is c/λ̂ for the
// preconditioned curvature.
//
// The accumulator is averaged over a trajectory through the typical set,
// not accumulated at one point: at a single point some coordinates'
// gradients are near zero by chance, and their G, 10²–10⁴ times the
// others', set ε (by the largest G) and the thinning (by the smallest)
// apart by as much — thinning in the thousands on a small regression
// (doc/adaptation.md §2.7). Over the
// typical set E[ḡ_i²] is the Fisher information plus the gradient noise,
// about n⁻²(1 + V_i) in whitened coordinates.
func (m PSGLD) AdaptWarmup(g sgmcmc.Gradient, n int, src rand.Source, a *Adapted) error {
	d := len(a.Shift)
	steps := orDefault(m.AdaptSteps, 200)
	rng := rand.New(src)
	z, gz := make([]float64, d), make([]float64, d)
	v := make([]float64, d)
	eps := psgldTrajectoryStep / a.LambdaMax
	sd := math.Sqrt(2 * eps)
	inv := 1 / float64(n)
	for range steps {
		g.Grad(gz, z)
		if valid.FirstNonFinite(gz) >= 0 {
			return valid.Errorf(sgmcmc.ErrNonFinite, "Sample: warmup: pSGLD's accumulator: the gradient is not finite at a point of its SGLD trajectory (step %g)", eps)
		}
		for i, gi := range gz {
			gb := gi * inv
			v[i] += gb * gb / float64(steps)
			z[i] += -eps*gi + sd*rng.NormFloat64()
		}
	}
	a.Accumulator = v
	a.Eps /= m.precond(a, math.Max, 0)
	return nil
}

// AutocorrTime is SGLD's at the effective step εG_min: the flattest
// direction of the preconditioner sets the pace.
func (m PSGLD) AutocorrTime(a *Adapted) float64 {
	return firstOrderAutocorr(a.Eps * m.precond(a, math.Min, math.Inf(1)))
}

// precond reduces the frozen preconditioner's entries 1/(λ + √v) by f
// from init.
func (m PSGLD) precond(a *Adapted, f func(x, y float64) float64, init float64) float64 {
	r := init
	for _, v := range a.Accumulator {
		r = f(r, 1/(m.lambda()+math.Sqrt(v)))
	}
	return r
}

func (m PSGLD) lambda() float64 { return orDefault(m.Lambda, 1e-12) }
