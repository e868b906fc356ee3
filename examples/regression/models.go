// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// Problem is a training design with the quantities every model shares:
// XᵀX, Xᵀy and the least-squares fit.
type Problem struct {
	*Design
	Gram []float64 // XᵀX, P×P
	XtY  []float64
	OLS  []float64 // β̂ = (XᵀX)⁻¹Xᵀy
	// Sigma2 is the unbiased residual variance RSS/(N − P − 1) of the
	// least-squares fit (the −1 for the intercept); the known precision
	// of the g-prior and fixed-ψ lasso models is ψ = 1/Sigma2.
	Sigma2  float64
	GramInv []float64
}

// NewProblem computes the least-squares fit of d.
func NewProblem(d *Design) (*Problem, error) {
	g, xty := gram(d.X, d.Y, d.N, d.P)
	inv := invert(g, d.P)
	if inv == nil {
		return nil, errors.New("XᵀX is singular")
	}
	ols := make([]float64, d.P)
	for j := range d.P {
		ols[j] = dot(inv[j*d.P:(j+1)*d.P], xty)
	}
	var rss float64
	for i := range d.N {
		r := d.Y[i] - dot(d.X[i*d.P:(i+1)*d.P], ols)
		rss += r * r
	}
	return &Problem{Design: d, Gram: g, XtY: xty, OLS: ols, GramInv: inv, Sigma2: rss / float64(d.N-d.P-1)}, nil
}

// Gaussian is a multivariate normal posterior, known exactly.
type Gaussian struct {
	Mean []float64
	Cov  []float64 // P×P
}

// SD returns the marginal standard deviations.
func (g *Gaussian) SD() []float64 {
	p := len(g.Mean)
	sd := make([]float64, p)
	for j := range p {
		sd[j] = math.Sqrt(g.Cov[j*p+j])
	}
	return sd
}

// GPrior returns the exact posterior of the Bayesian linear regression with
// Zellner's g-prior β ~ N(β₀ = 0, gψ⁻¹(XᵀX)⁻¹) and known precision ψ:
// N(qβ̂, qψ⁻¹(XᵀX)⁻¹), q = g/(1+g).
func (pr *Problem) GPrior(g, psi float64) *Gaussian {
	q := g / (1 + g)
	p := pr.P
	m := make([]float64, p)
	c := make([]float64, p*p)
	for j := range p {
		m[j] = q * pr.OLS[j]
	}
	for k, v := range pr.GramInv {
		c[k] = q / psi * v
	}
	return &Gaussian{Mean: m, Cov: c}
}

// Precond names the constant linear map θ = Rβ under which the samplers
// run. Every SG-MCMC sampler here sees the model in θ; the map is a
// preconditioner (for SGHMC the same thing as a mass matrix M = RᵀR, for
// SGLD a preconditioner D = (RᵀR)⁻¹), fixed before sampling from the design
// alone.
type Precond int

const (
	// Dense whitens the likelihood: RᵀR = ψXᵀX, the Fisher information,
	// so that the likelihood's curvature in θ is the identity. It is the
	// library's dense-mass setting done by reparametrisation (SGHMCSettings
	// takes only a diagonal mass).
	Dense Precond = iota
	// Diag scales each coordinate: R = diag(√(ψ(XᵀX)_jj)), the same as
	// standardising the predictors; the correlations between predictors
	// remain in θ.
	Diag
)

func (p Precond) String() string {
	if p == Diag {
		return "diag"
	}
	return "dense"
}

// coords is the map θ = Rβ with its inverse.
type coords struct {
	p       int
	r, rinv []float64 // p×p row-major
}

// newCoords returns the map of kind k for XᵀX = gram and precision psi.
func newCoords(k Precond, gram []float64, p int, psi float64) (*coords, error) {
	c := &coords{p: p, r: make([]float64, p*p), rinv: make([]float64, p*p)}
	if k == Diag {
		for j := range p {
			s := math.Sqrt(psi * gram[j*p+j])
			c.r[j*p+j], c.rinv[j*p+j] = s, 1/s
		}
		return c, nil
	}
	l := make([]float64, p*p)
	if !cholesky(l, gram, p) {
		return nil, errors.New("XᵀX is not positive definite")
	}
	sp := math.Sqrt(psi)
	// R = √ψ Lᵀ; R⁻¹ = L⁻ᵀ/√ψ, column j of which is L⁻ᵀe_j.
	e := make([]float64, p)
	for j := range p {
		for i := range p {
			c.r[i*p+j] = sp * l[j*p+i]
		}
		clear(e)
		e[j] = 1
		solveUpperT(l, e, p)
		for i := range p {
			c.rinv[i*p+j] = e[i] / sp
		}
	}
	return c, nil
}

// Beta writes β = R⁻¹θ into dst.
func (c *coords) Beta(dst, theta []float64) { matVec(dst, c.rinv, theta[:c.p], c.p) }

// Theta writes θ = Rβ into dst.
func (c *coords) Theta(dst, beta []float64) { matVec(dst, c.r, beta, c.p) }

// design returns X R⁻¹ (n×p).
func (c *coords) design(x []float64, n int) []float64 {
	p := c.p
	out := make([]float64, n*p)
	for i := range n {
		xi, oi := x[i*p:(i+1)*p], out[i*p:(i+1)*p]
		for k, a := range xi {
			for j := range p {
				oi[j] += a * c.rinv[k*p+j]
			}
		}
	}
	return out
}

// laplaceGrad adds −f·R⁻ᵀsign(β) to dst and returns ‖β‖₁; β is a scratch
// buffer filled with R⁻¹θ. sign(0) = 0: the subgradient of |β|.
func (c *coords) laplaceGrad(dst, beta, theta []float64, f float64) float64 {
	p := c.p
	c.Beta(beta, theta)
	var l1 float64
	for k, b := range beta {
		var s float64
		switch {
		case b > 0:
			s = f
		case b < 0:
			s = -f
		default:
			continue
		}
		l1 += math.Abs(b)
		row := c.rinv[k*p : (k+1)*p]
		for j, v := range row {
			dst[j] -= s * v
		}
	}
	return l1
}

func matVec(dst, a, x []float64, p int) {
	for i := range p {
		dst[i] = dot(a[i*p:(i+1)*p], x)
	}
}

// linModel is the likelihood y_i ~ N(x_iᵀβ, ψ⁻¹) in the sampler's
// coordinates θ = Rβ, with a g-prior or a Laplace prior. It is the
// sgmcmc.Model of the Bayesian linear regression and of the report's
// fixed-ψ lasso.
type linModel struct {
	*coords
	n, p int
	x, y []float64 // x = X R⁻¹ (n×p), y the centred response
	psi  float64

	// g-prior β ~ N(0, gψ⁻¹(XᵀX)⁻¹): ∇_θ log p = −(ψ/g)·x̃ᵀx̃ θ.
	gtil []float64
	g    float64
	// Laplace prior λ/2·e^{−λ|β_j|}: ∇_θ log p = −λR⁻ᵀsign(β).
	lambda float64
	beta   []float64 // scratch
}

var (
	_ sgmcmc.Model      = (*linModel)(nil)
	_ sgmcmc.BatchModel = (*linModel)(nil)
	_ sgmcmc.LogDensity = (*linModel)(nil)
)

func newLinModel(pr *Problem, psi float64, k Precond) (*linModel, error) {
	c, err := newCoords(k, pr.Gram, pr.P, psi)
	if err != nil {
		return nil, err
	}
	return &linModel{coords: c, n: pr.N, p: pr.P, x: c.design(pr.X, pr.N), y: pr.Y, psi: psi, beta: make([]float64, pr.P)}, nil
}

// newBLRModel returns the g-prior model with β₀ = 0.
func newBLRModel(pr *Problem, g, psi float64, k Precond) (*linModel, error) {
	m, err := newLinModel(pr, psi, k)
	if err != nil {
		return nil, err
	}
	m.g = g
	m.gtil, _ = gram(m.x, m.y, m.n, m.p)
	return m, nil
}

// newLassoModel returns the fixed-ψ Bayesian lasso, U(β) = ψ/2‖y − Xβ‖² +
// λ‖β‖₁ (the report's energy).
func newLassoModel(pr *Problem, lambda, psi float64, k Precond) (*linModel, error) {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("lasso λ = %g, want a positive finite number", lambda)
	}
	m, err := newLinModel(pr, psi, k)
	if err != nil {
		return nil, err
	}
	m.lambda = lambda
	return m, nil
}

func (m *linModel) Dim() int { return m.p }
func (m *linModel) Len() int { return m.n }

func (m *linModel) LogPriorGrad(dst, theta []float64) {
	p := m.p
	if m.gtil != nil {
		f := m.psi / m.g
		for j := range p {
			dst[j] -= f * dot(m.gtil[j*p:(j+1)*p], theta)
		}
	}
	if m.lambda > 0 {
		m.laplaceGrad(dst, m.beta, theta, m.lambda)
	}
}

func (m *linModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	xi := m.x[i*m.p : (i+1)*m.p]
	r := scale * m.psi * (m.y[i] - dot(xi, theta))
	for j, a := range xi {
		dst[j] += r * a
	}
}

func (m *linModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	p := m.p
	for _, i := range idx {
		xi := m.x[i*p : (i+1)*p]
		r := scale * m.psi * (m.y[i] - dot(xi, theta))
		for j, a := range xi {
			dst[j] += r * a
		}
	}
}

func (m *linModel) LogPrior(theta []float64) float64 {
	p := m.p
	var u float64
	if m.gtil != nil {
		f := m.psi / m.g
		for j := range p {
			u -= 0.5 * f * theta[j] * dot(m.gtil[j*p:(j+1)*p], theta)
		}
	}
	if m.lambda > 0 {
		m.Beta(m.beta, theta)
		for _, b := range m.beta {
			u -= m.lambda * math.Abs(b)
		}
	}
	return u
}

func (m *linModel) LogLik(theta []float64, i int) float64 {
	r := m.y[i] - dot(m.x[i*m.p:(i+1)*m.p], theta)
	return -0.5 * m.psi * r * r
}

// hierModel is Park & Casella's (2008) Bayesian lasso with τ integrated
// out, over θ = (Rβ, (log σ² − ℓ₀)/s):
//
//	p(β | σ²) = Π_j λ/(2σ) exp(−λ|β_j|/σ),  p(σ²) ∝ 1/σ²,
//	y | β, σ² ~ N(Xβ, σ²I) with the intercept integrated out (n − 1 dof),
//
// so that with ℓ = log σ² (flat prior on ℓ)
//
//	U(β, ℓ) = ((n − 1 + p)/2)ℓ + e^{−ℓ}‖y − Xβ‖²/2 + λe^{−ℓ/2}‖β‖₁.
//
// Each datum carries ℓ/2 + e^{−ℓ}r_i²/2, the prior ((p − 1)/2)ℓ +
// λe^{−ℓ/2}‖β‖₁. R is built with ψ = 1/σ̂² (least squares), ℓ₀ = log σ̂²
// and s = a^(−1/2), a = (n − 1 + p)/2, so every coordinate's posterior sd
// is of order one.
type hierModel struct {
	*coords
	n, p   int
	x, y   []float64 // x = X R⁻¹
	l0, s  float64
	lambda float64
	beta   []float64 // scratch
}

var (
	_ sgmcmc.Model      = (*hierModel)(nil)
	_ sgmcmc.BatchModel = (*hierModel)(nil)
	_ sgmcmc.LogDensity = (*hierModel)(nil)
)

func newHierModel(pr *Problem, lambda float64, k Precond) (*hierModel, error) {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("lasso λ = %g, want a positive finite number", lambda)
	}
	c, err := newCoords(k, pr.Gram, pr.P, 1/pr.Sigma2)
	if err != nil {
		return nil, err
	}
	a := float64(pr.N-1+pr.P) / 2
	return &hierModel{coords: c, n: pr.N, p: pr.P, x: c.design(pr.X, pr.N), y: pr.Y,
		l0: math.Log(pr.Sigma2), s: 1 / math.Sqrt(a), lambda: lambda, beta: make([]float64, pr.P)}, nil
}

func (m *hierModel) Dim() int { return m.p + 1 }
func (m *hierModel) Len() int { return m.n }

// Params writes (β, σ²) of θ into dst (length p + 1).
func (m *hierModel) Params(dst, theta []float64) {
	m.Beta(dst, theta)
	dst[m.p] = math.Exp(m.l0 + m.s*theta[m.p])
}

// FromParams writes θ of (β, σ²) = params into dst.
func (m *hierModel) FromParams(dst, params []float64) {
	m.Theta(dst, params[:m.p])
	dst[m.p] = (math.Log(params[m.p]) - m.l0) / m.s
}

func (m *hierModel) LogPriorGrad(dst, theta []float64) {
	p := m.p
	f := m.lambda * math.Exp(-0.5*(m.l0+m.s*theta[p])) // λe^{−ℓ/2}
	l1 := m.laplaceGrad(dst, m.beta, theta, f)
	dst[p] += m.s * (-0.5*float64(p-1) + 0.5*f*l1)
}

func (m *hierModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	p := m.p
	e := math.Exp(-(m.l0 + m.s*theta[p]))
	xi := m.x[i*p : (i+1)*p]
	r := m.y[i] - dot(xi, theta[:p])
	f := scale * e * r
	for j, a := range xi {
		dst[j] += f * a
	}
	dst[p] += scale * m.s * (-0.5 + 0.5*e*r*r)
}

func (m *hierModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	p := m.p
	e := math.Exp(-(m.l0 + m.s*theta[p]))
	var ss float64
	for _, i := range idx {
		xi := m.x[i*p : (i+1)*p]
		r := m.y[i] - dot(xi, theta[:p])
		f := scale * e * r
		for j, a := range xi {
			dst[j] += f * a
		}
		ss += r * r
	}
	dst[p] += scale * m.s * (-0.5*float64(len(idx)) + 0.5*e*ss)
}

func (m *hierModel) LogPrior(theta []float64) float64 {
	p := m.p
	l := m.l0 + m.s*theta[p]
	m.Beta(m.beta, theta)
	var l1 float64
	for _, b := range m.beta {
		l1 += math.Abs(b)
	}
	return -0.5*float64(p-1)*l - m.lambda*math.Exp(-0.5*l)*l1
}

func (m *hierModel) LogLik(theta []float64, i int) float64 {
	p := m.p
	l := m.l0 + m.s*theta[p]
	r := m.y[i] - dot(m.x[i*p:(i+1)*p], theta[:p])
	return -0.5*l - 0.5*math.Exp(-l)*r*r
}

// Draws returns n independent draws, row-major.
func (g *Gaussian) Draws(n int, src rand.Source) ([]float64, error) {
	p := len(g.Mean)
	l := make([]float64, p*p)
	if !cholesky(l, g.Cov, p) {
		return nil, errors.New("posterior covariance is not positive definite")
	}
	rng := rand.New(src)
	out := make([]float64, n*p)
	z := make([]float64, p)
	for i := range n {
		for j := range z {
			z[j] = rng.NormFloat64()
		}
		row := out[i*p : (i+1)*p]
		for j := range p {
			row[j] = g.Mean[j] + dot(l[j*p:j*p+j+1], z[:j+1])
		}
	}
	return out, nil
}
