// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc"
)

// The banana's potential is U = θ₁⁴/10 + ρ²/2 with the residual
// ρ(θ) = 4(θ₂ + 1.2) − θ₁², whose gradient J = ∇ρ = (−2θ₁, 4) points across
// the ridge ρ = 0. The Gauss–Newton (Fisher) curvature of ρ²/2 is
//
//	F(θ) = JᵀJ = [[4θ₁², −8θ₁], [−8θ₁, 16]],
//
// rank one; metricRidge·I stands in for the curvature of θ₁⁴/10 along the
// ridge, whose average under the target is 1.2·E[θ₁²] ≈ 1.28.
const metricRidge = 1.0

// Marginal is the diagonal metric of gSGRHMC in the demo:
//
//	g_i(θ) = 1 / [(F(θ) + cI)⁻¹]_ii,  c = metricRidge,
//
// the local marginal precisions of θ₁ and θ₂ in the Gaussian approximation
// with precision F + cI. With c = 1 and d = (4θ₁² + c)(16 + c) − 64θ₁²:
//
//	g₁ = d/(16 + c) = 1 + 4θ₁²/17,  g₂ = d/(4θ₁² + c) = (4θ₁² + 17)/(4θ₁² + 1).
//
// At the centre of the banana (θ₁ = 0) the ridge runs along θ₁: g = (1, 17),
// so θ₂, sixteen times stiffer, moves a quarter as far per step. On the arms
// (|θ₁| ≈ 2) the ridge runs at 45° and both coordinates spread alike:
// g ≈ (1.9, 1.9). The metric depends on θ₁ only, so ∂g₂/∂θ₂ = 0 and the
// correction ∇_θ·G^(−1/2) acts on θ₁'s momentum alone.
type Marginal struct{}

var _ sgmcmc.DiagMetric = Marginal{}

// Diag writes g(θ) and ∂g_i/∂θ_i.
func (Marginal) Diag(g, dg, theta []float64) {
	const c = metricRidge
	t2 := theta[0] * theta[0]
	d := 4*c*t2 + 16*c + c*c // det(F + cI)
	g[0] = d / (16 + c)
	dg[0] = 8 * c * theta[0] / (16 + c)
	g[1] = d / (4*t2 + c)
	dg[1] = 0
}

// GaussNewton is the dense metric G(θ) = F(θ) + cI, c = metricRidge, for
// the -dense variant of gSGRHMC (sgmcmc.NewSGRHMCDense).
type GaussNewton struct{}

var _ sgmcmc.DenseMetric = GaussNewton{}

// Dense writes G(θ), ∂G/∂θ₁ and ∂G/∂θ₂ = 0.
func (GaussNewton) Dense(g *mat.SymDense, dg []*mat.SymDense, theta []float64) {
	const c = metricRidge
	t := theta[0]
	g.SetSym(0, 0, 4*t*t+c)
	g.SetSym(0, 1, -8*t)
	g.SetSym(1, 1, 16+c)
	dg[0].SetSym(0, 0, 8*t)
	dg[0].SetSym(0, 1, -8)
	dg[0].SetSym(1, 1, 0)
	dg[1].Zero()
}

// ScaledDiag is the diagonal metric G/Kappa: a larger κ gives gSGRHMC more
// friction (G⁻¹ grows as κ) and faster θ (G^(−1/2) grows as √κ). Kappa = 0
// means 1.
type ScaledDiag struct {
	Metric sgmcmc.DiagMetric
	Kappa  float64
}

// Diag writes g(θ)/κ and its derivatives.
func (s ScaledDiag) Diag(g, dg, theta []float64) {
	s.Metric.Diag(g, dg, theta)
	if k := s.Kappa; k != 0 && k != 1 {
		for i := range g {
			g[i] /= k
			dg[i] /= k
		}
	}
}

// ScaledDense is the dense metric G/Kappa. Kappa = 0 means 1.
type ScaledDense struct {
	Metric sgmcmc.DenseMetric
	Kappa  float64
}

// Dense writes G(θ)/κ and its derivatives.
func (s ScaledDense) Dense(g *mat.SymDense, dg []*mat.SymDense, theta []float64) {
	s.Metric.Dense(g, dg, theta)
	if k := s.Kappa; k != 0 && k != 1 {
		g.ScaleSym(1/k, g)
		for _, m := range dg {
			m.ScaleSym(1/k, m)
		}
	}
}
