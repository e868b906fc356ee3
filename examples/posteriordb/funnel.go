// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
)

// funnelD is the dimension of funnel10: v and x_1 … x_9.
const funnelD = 10

// Funnel is Neal's funnel in d dimensions,
//
//	v ~ N(0, 3²),   x_i | v ~ N(0, e^v),   i = 1 … d−1,
//
// with θ = (v, x_1, …, x_{d−1}). The model has one datum (Len() = 1), the
// product of the conditionals of x, so that minibatches of size 1 give the
// exact gradient.
type Funnel struct {
	D int
}

// Dim returns d.
func (f Funnel) Dim() int { return f.D }

// Len returns 1.
func (f Funnel) Len() int { return 1 }

// LogPrior returns log N(v | 0, 3²).
func (f Funnel) LogPrior(theta []float64) float64 {
	return normLogPDF(theta[0], 0, 3)
}

// LogPriorGrad adds −v/9 to dst[0].
func (f Funnel) LogPriorGrad(dst, theta []float64) {
	dst[0] -= theta[0] / 9
}

// LogLik returns Σ_i log N(x_i | 0, e^v).
func (f Funnel) LogLik(theta []float64, _ int) float64 {
	v := theta[0]
	iv := math.Exp(-v)
	var ll float64
	for _, x := range theta[1:] {
		ll += -0.5*x*x*iv - 0.5*v - 0.5*math.Log(2*math.Pi)
	}
	return ll
}

// LogLikGrad adds scale · ∇ Σ_i log N(x_i | 0, e^v) to dst.
func (f Funnel) LogLikGrad(dst, theta []float64, _ int, scale float64) {
	v := theta[0]
	iv := math.Exp(-v)
	var gv float64
	for i, x := range theta[1:] {
		gv += 0.5*x*x*iv - 0.5
		dst[1+i] -= scale * x * iv
	}
	dst[0] += scale * gv
}

// funnelXSD is the marginal sd of each x_i: Var x_i = E e^v = e^(9/2).
var funnelXSD = math.Exp(9.0 / 4)

// NewFunnel returns funnel10, started at θ = 0, with its exact marginals as
// reference: v has mean 0 and sd 3; each x_i has mean 0 and sd e^(9/4) ≈
// 9.49 (Var x_i = E Var(x_i | v) = E e^v = e^(σ²/2) with σ = 3). The
// marginal of x_i is far from normal (kurtosis 3e⁹ ≈ 24,000), so its sample
// sd is a noisy estimate even from exact draws: see FunnelXCDF and the
// package documentation.
func NewFunnel() *Target {
	names := make([]string, funnelD)
	mean, sd := make([]float64, funnelD), make([]float64, funnelD)
	names[0], sd[0] = "v", 3
	for i := 1; i < funnelD; i++ {
		names[i], sd[i] = fmt.Sprintf("x[%d]", i), funnelXSD
	}
	return &Target{
		Name:      "funnel10",
		Model:     Funnel{D: funnelD},
		Start:     make([]float64, funnelD),
		Names:     names,
		UNames:    names,
		Constrain: func(dst, theta []float64) { copy(dst, theta) },
		RefMean:   mean,
		RefSD:     sd,
		Draws:     1000,
		Batch:     1,
		refMeanU:  mean,
		// The oracle runner neither whitens the funnel (the marginal
		// sds make the neck stiffer still) nor takes its usual steps,
		// which diverge in the neck.
		refCovU:      diagSym(ones(funnelD)),
		tempEpsScale: 0.1,
	}
}

// FunnelXCDF returns the marginal CDF of x_i at x,
//
//	F(x) = ∫ Φ(x e^(−v/2)) N(v | 0, 3²) dv,
//
// by the trapezoid rule with step 0.1 on v ∈ [−36, 36] (12 sds). The
// integrand is smooth (Φ(x e^(−v/2)) turns over a width of about 2 in v,
// the normal weight over 3), and the rule converges geometrically for it:
// it agrees with a 40-times finer rule to 1e-12.
func FunnelXCDF(x float64) float64 {
	return funnelXCDF(x, 720)
}

func funnelXCDF(x float64, steps int) float64 {
	const half = 36.0
	h := 2 * half / float64(steps)
	var s float64
	for k := range steps + 1 {
		v := -half + float64(k)*h
		w := h
		if k == 0 || k == steps {
			w = h / 2
		}
		s += w * math.Exp(normLogPDF(v, 0, 3)) * 0.5 * math.Erfc(-x*math.Exp(-v/2)/math.Sqrt2)
	}
	return s
}
