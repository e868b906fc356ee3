// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Gibbs is the exact Gibbs sampler of the Bayesian lasso through the
// normal scale mixture of the Laplace prior, λ/2·e^{−λ|β|} = ∫ N(β; 0, τ²)
// (λ²/2)e^{−λ²τ²/2} dτ² (Park & Casella 2008, Section 2). With Psi > 0 it
// samples the fixed-precision lasso of the report, U(β) = ψ/2‖y − Xβ‖² +
// λ‖β‖₁:
//
//	β | τ   ~ N(A⁻¹ψXᵀy, A⁻¹),         A = ψXᵀX + D_τ⁻¹
//	1/τ_j² | β ~ InvGauss(λ/|β_j|, λ²)
//
// With Psi = 0 it samples Park & Casella's hierarchical model, β | σ², τ ~
// N(0, σ²D_τ), p(σ²) ∝ 1/σ², τ_j² ~ Exp(λ²/2), intercept integrated out:
//
//	β | σ², τ  ~ N(A⁻¹Xᵀy, σ²A⁻¹),       A = XᵀX + D_τ⁻¹
//	σ² | β, τ  ~ InvGamma((n−1+p)/2, (‖y − Xβ‖² + βᵀD_τ⁻¹β)/2)
//	1/τ_j² | β, σ² ~ InvGauss(λσ/|β_j|, λ²)
//
// Every conditional is drawn exactly, so the chain's only error is Monte
// Carlo error.
type Gibbs struct {
	pr     *Problem
	Lambda float64
	Psi    float64

	rng         *rand.Rand
	gamma       distuv.Gamma
	beta, u     []float64
	sigma2      float64
	a, l, w, bv []float64
	yty         float64
}

// NewGibbs returns the sampler started at the least-squares fit.
func NewGibbs(pr *Problem, lambda, psi float64, src rand.Source) (*Gibbs, error) {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("lasso λ = %g, want a positive finite number", lambda)
	}
	if psi < 0 || math.IsNaN(psi) || math.IsInf(psi, 0) {
		return nil, fmt.Errorf("ψ = %g, want ≥ 0 (0 for the hierarchical model)", psi)
	}
	if src == nil {
		return nil, errors.New("nil random source")
	}
	p := pr.P
	g := &Gibbs{pr: pr, Lambda: lambda, Psi: psi, rng: rand.New(src), gamma: distuv.Gamma{Beta: 1, Src: src},
		beta: append([]float64(nil), pr.OLS...), u: make([]float64, p), sigma2: pr.Sigma2,
		a: make([]float64, p*p), l: make([]float64, p*p), w: make([]float64, p), bv: make([]float64, p), yty: dot(pr.Y, pr.Y)}
	for j, b := range g.beta {
		g.u[j] = lambda / math.Max(math.Abs(b), 1e-12)
	}
	return g, nil
}

// Dim is P for the fixed-ψ model and P + 1 (β, σ²) for the hierarchical
// one.
func (g *Gibbs) Dim() int {
	if g.Psi > 0 {
		return g.pr.P
	}
	return g.pr.P + 1
}

// State writes (β) or (β, σ²) into dst.
func (g *Gibbs) State(dst []float64) {
	copy(dst, g.beta)
	if g.Psi == 0 {
		dst[g.pr.P] = g.sigma2
	}
}

// tau2Sum returns Σ_j τ_j² of the current state.
func (g *Gibbs) tau2Sum() float64 {
	var s float64
	for _, u := range g.u {
		s += 1 / u
	}
	return s
}

// Step performs one sweep over β, σ² (hierarchical only) and τ.
func (g *Gibbs) Step() error {
	pr := g.pr
	p := pr.P
	psi, sig := g.Psi, 1.0
	if psi == 0 {
		psi, sig = 1, math.Sqrt(g.sigma2)
	}
	for k, v := range pr.Gram {
		g.a[k] = psi * v
	}
	for j := range p {
		g.a[j*p+j] += g.u[j]
	}
	if !cholesky(g.l, g.a, p) {
		return errors.New("Gibbs: ψXᵀX + D⁻¹ is not positive definite")
	}
	for j := range p {
		g.w[j] = psi * pr.XtY[j]
	}
	solveLower(g.l, g.w, p)
	for j := range p {
		g.w[j] += sig * g.rng.NormFloat64()
	}
	solveUpperT(g.l, g.w, p)
	copy(g.beta, g.w)
	if g.Psi == 0 {
		// RSS = yᵀy − 2βᵀXᵀy + βᵀXᵀXβ, plus βᵀD⁻¹β.
		rss := g.yty - 2*dot(g.beta, pr.XtY)
		for j := range p {
			rss += g.beta[j] * dot(pr.Gram[j*p:(j+1)*p], g.beta)
			rss += g.u[j] * g.beta[j] * g.beta[j]
		}
		g.gamma.Alpha = float64(pr.N-1+p) / 2
		g.sigma2 = 0.5 * math.Max(rss, 0) / g.gamma.Rand()
		sig = math.Sqrt(g.sigma2)
	}
	lam := g.Lambda
	for j, b := range g.beta {
		g.u[j] = invGauss(g.rng, lam*sig/math.Abs(b), lam*lam)
	}
	return nil
}

// Run returns draws rows of Dim values after burn steps, one sweep apart.
func (g *Gibbs) Run(draws, burn int) ([]float64, error) {
	for range burn {
		if err := g.Step(); err != nil {
			return nil, err
		}
	}
	d := g.Dim()
	out := make([]float64, draws*d)
	for i := range draws {
		if err := g.Step(); err != nil {
			return nil, err
		}
		g.State(out[i*d : (i+1)*d])
	}
	return out, nil
}

// invGauss draws from the inverse Gaussian with mean mu and shape lam
// (Michael, Schucany & Haas 1976), in a form that stays accurate when mu is
// huge (β_j near zero).
func invGauss(rng *rand.Rand, mu, lam float64) float64 {
	if math.IsInf(mu, 1) {
		// β_j = 0 exactly (probability zero): keep the precision huge but
		// finite.
		mu = 1e300
	}
	nu := rng.NormFloat64()
	y := nu * nu
	w := mu * y / (2 * lam)
	x := mu / (1 + w + math.Sqrt(w*w+2*w))
	if rng.Float64()*(mu+x) <= mu {
		return x
	}
	return mu * mu / x
}

// MCEM estimates the hierarchical lasso's λ by Park & Casella's (2008,
// Section 3.1) Monte Carlo EM: λ ← √(2p / Σ_j E[τ_j² | y, λ]), from their
// starting value p√σ̂²/Σ|β̂_j|. It runs iters EM steps of sweeps Gibbs
// sweeps each (after a burn-in of sweeps/2) and returns the mean of the last
// half of the iterates.
func MCEM(pr *Problem, iters, sweeps int, src rand.Source) (float64, error) {
	var l1 float64
	for _, b := range pr.OLS {
		l1 += math.Abs(b)
	}
	lam := float64(pr.P) * math.Sqrt(pr.Sigma2) / l1
	g, err := NewGibbs(pr, lam, 0, src)
	if err != nil {
		return 0, err
	}
	var sum float64
	var cnt int
	for it := range iters {
		g.Lambda = lam
		for range sweeps / 2 {
			if err := g.Step(); err != nil {
				return 0, err
			}
		}
		var et float64
		for range sweeps {
			if err := g.Step(); err != nil {
				return 0, err
			}
			et += g.tau2Sum()
		}
		et /= float64(sweeps)
		lam = math.Sqrt(2 * float64(pr.P) / et)
		if it >= iters/2 {
			sum += lam
			cnt++
		}
	}
	return sum / float64(cnt), nil
}
