// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// The mixture2 design.
const (
	mixN    = 200 // data items
	mixW    = 0.3 // weight of the first component
	mixSeed = 2   // seed of the data
	// The quadrature of mixture2's reference: a grid of step mixQuadStep
	// over ±mixQuadHalf posterior sds (of the Laplace approximation at
	// the mode) along each principal axis.
	mixQuadStep = 0.2
	mixQuadHalf = 12.0
)

// Mixture2 is a two-component normal mixture with known weights and unit
// variances and unknown means,
//
//	y_i ~ w N(μ₁, 1) + (1 − w) N(μ₂, 1),   μ_k ~ N(m_k, 1),
//
// with well-separated priors (m = (−2, 2)) and unequal weights, so that
// the components are identified: the relabelled mode (μ₂, μ₁) has a
// posterior density about e⁻⁸⁰ times the mode's. Its log-likelihood is
// computed as a log-sum-exp and its gradient from the responsibilities,
// so that both are finite at any finite θ.
type Mixture2 struct {
	Y []float64
	// W is the weight of the first component.
	W float64
	// PriorMean are the prior means m of μ (prior sds 1).
	PriorMean [2]float64
}

// Dim returns 2.
func (m *Mixture2) Dim() int { return 2 }

// Len returns the number of data.
func (m *Mixture2) Len() int { return len(m.Y) }

// LogPrior returns Σ_k log N(μ_k | m_k, 1).
func (m *Mixture2) LogPrior(theta []float64) float64 {
	return normLogPDF(theta[0], m.PriorMean[0], 1) + normLogPDF(theta[1], m.PriorMean[1], 1)
}

// LogPriorGrad adds −(μ − m) to dst.
func (m *Mixture2) LogPriorGrad(dst, theta []float64) {
	dst[0] -= theta[0] - m.PriorMean[0]
	dst[1] -= theta[1] - m.PriorMean[1]
}

// terms returns log w + log N(y_i | μ₁, 1) and log(1 − w) + log N(y_i |
// μ₂, 1).
func (m *Mixture2) terms(theta []float64, i int) (a1, a2 float64) {
	y := m.Y[i]
	return math.Log(m.W) + normLogPDF(y, theta[0], 1), math.Log1p(-m.W) + normLogPDF(y, theta[1], 1)
}

// LogLik returns log(w N(y_i | μ₁, 1) + (1 − w) N(y_i | μ₂, 1)).
func (m *Mixture2) LogLik(theta []float64, i int) float64 {
	a1, a2 := m.terms(theta, i)
	hi, lo := math.Max(a1, a2), math.Min(a1, a2)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// LogLikGrad adds scale · (r₁(y_i − μ₁), r₂(y_i − μ₂)) to dst, where r_k
// are the responsibilities, r₁ = logistic(a₁ − a₂).
func (m *Mixture2) LogLikGrad(dst, theta []float64, i int, scale float64) {
	a1, a2 := m.terms(theta, i)
	r1 := logistic(a1 - a2)
	y := m.Y[i]
	dst[0] += scale * r1 * (y - theta[0])
	dst[1] += scale * (1 - r1) * (y - theta[1])
}

// NewMixture2 returns mixture2: N = 200 data, the first 60 from N(−2, 1)
// and the other 140 from N(2, 1) (seed mixSeed), w = 0.3, started at 0,
// against its exact posterior (mixtureQuad).
func NewMixture2() (*Target, error) {
	m := &Mixture2{Y: make([]float64, mixN), W: mixW, PriorMean: [2]float64{-2, 2}}
	rng := rand.New(rand.NewPCG(mixSeed, 3))
	n1 := int(math.Round(mixW * mixN))
	for i := range m.Y {
		mu := 2.0
		if i < n1 {
			mu = -2
		}
		m.Y[i] = mu + rng.NormFloat64()
	}
	mean, cov, err := mixtureQuad(m, mixQuadStep, mixQuadHalf)
	if err != nil {
		return nil, err
	}
	names := []string{"mu[1]", "mu[2]"}
	return &Target{
		Name:      "mixture2",
		Model:     m,
		Start:     make([]float64, 2),
		Names:     names,
		UNames:    names,
		Constrain: func(dst, theta []float64) { copy(dst, theta) },
		RefMean:   mean,
		RefSD:     []float64{math.Sqrt(cov.At(0, 0)), math.Sqrt(cov.At(1, 1))},
		Draws:     1000,
		Batch:     100,
		refMeanU:  mean,
		refCovU:   cov,
	}, nil
}

// logPost returns the log posterior density of m at θ, up to a constant
// (LogPrior and LogLik without their normalising constants, for the
// quadrature's speed).
func (m *Mixture2) logPost(theta []float64) float64 {
	lw1, lw2 := math.Log(m.W), math.Log1p(-m.W)
	d0, d1 := theta[0]-m.PriorMean[0], theta[1]-m.PriorMean[1]
	lp := -0.5 * (d0*d0 + d1*d1)
	for _, y := range m.Y {
		e1, e2 := y-theta[0], y-theta[1]
		a1, a2 := lw1-0.5*e1*e1, lw2-0.5*e2*e2
		hi, lo := math.Max(a1, a2), math.Min(a1, a2)
		lp += hi + math.Log1p(math.Exp(lo-hi))
	}
	return lp
}

// mixtureQuad returns the posterior mean and covariance of m by the
// trapezoid rule on a grid in the principal coordinates z of the Laplace
// approximation: θ = θ̂ + L z, L Lᵀ = H⁻¹ (θ̂ the mode, found by Newton's
// method from the prior means, H the negative Hessian there), z on a
// square grid of step h over [−half, half]². The integrand is smooth and
// decays like a Gaussian, so the rule converges geometrically in h.
func mixtureQuad(m *Mixture2, h, half float64) ([]float64, *mat.SymDense, error) {
	theta := []float64{m.PriorMean[0], m.PriorMean[1]}
	var hess [3]float64 // −∂²/∂μ₁², −∂²/∂μ₁∂μ₂, −∂²/∂μ₂²
	for it := 0; ; it++ {
		g := []float64{-(theta[0] - m.PriorMean[0]), -(theta[1] - m.PriorMean[1])}
		hess = [3]float64{1, 0, 1}
		for i, y := range m.Y {
			a1, a2 := m.terms(theta, i)
			r1 := logistic(a1 - a2)
			r2 := 1 - r1
			d1, d2 := y-theta[0], y-theta[1]
			g[0] += r1 * d1
			g[1] += r2 * d2
			hess[0] += r1 - r1*r2*d1*d1
			hess[1] += r1 * r2 * d1 * d2
			hess[2] += r2 - r1*r2*d2*d2
		}
		det := hess[0]*hess[2] - hess[1]*hess[1]
		if !(hess[0] > 0 && det > 0) {
			return nil, nil, errors.New("mixture2: Newton's method left the region where the posterior is log-concave")
		}
		s0 := (hess[2]*g[0] - hess[1]*g[1]) / det
		s1 := (hess[0]*g[1] - hess[1]*g[0]) / det
		theta[0] += s0
		theta[1] += s1
		if math.Hypot(s0, s1) < 1e-13 {
			break
		}
		if it == 100 {
			return nil, nil, errors.New("mixture2: Newton's method did not converge")
		}
	}
	// L = chol(H⁻¹) of the 2 × 2 H.
	det := hess[0]*hess[2] - hess[1]*hess[1]
	c00, c01, c11 := hess[2]/det, -hess[1]/det, hess[0]/det
	l00 := math.Sqrt(c00)
	l10 := c01 / l00
	l11 := math.Sqrt(c11 - l10*l10)
	lp0 := m.logPost(theta)
	k := int(math.Round(half / h))
	var w, s0, s1, s00, s01, s11 float64
	x := make([]float64, 2)
	for a := -k; a <= k; a++ {
		for b := -k; b <= k; b++ {
			z0, z1 := float64(a)*h, float64(b)*h
			x[0] = theta[0] + l00*z0
			x[1] = theta[1] + l10*z0 + l11*z1
			p := math.Exp(m.logPost(x) - lp0)
			// Moments of the deviation from the mode, which has no
			// cancellation in the variance.
			d0, d1 := x[0]-theta[0], x[1]-theta[1]
			w += p
			s0 += p * d0
			s1 += p * d1
			s00 += p * d0 * d0
			s01 += p * d0 * d1
			s11 += p * d1 * d1
		}
	}
	m0, m1 := s0/w, s1/w
	cov := mat.NewSymDense(2, []float64{
		s00/w - m0*m0, s01/w - m0*m1,
		s01/w - m0*m1, s11/w - m1*m1,
	})
	return []float64{theta[0] + m0, theta[1] + m1}, cov, nil
}
