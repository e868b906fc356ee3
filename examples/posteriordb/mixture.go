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
// variances and unknown ordered means,
//
//	y_i ~ w N(μ₁, 1) + (1 − w) N(μ₂, 1),   μ_k ~ N(m_k, 1),   μ₁ < μ₂,
//
// sampled in θ = (μ₁, log(μ₂ − μ₁)) (Stan's ordered transform) with the
// Jacobian μ₂ − μ₁ in the prior. The order identifies the components:
// without it the posterior of mixture2's data has a second local mode at
// μ ≈ (2.1, −1.6), the components swapped, 72 nats below the mode, where
// a chain that starts near it stays. Its log-likelihood is computed as a
// log-sum-exp and its gradient from the responsibilities, so that both are
// finite at any finite θ.
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

// means returns μ = (θ₁, θ₁ + e^θ₂).
func (m *Mixture2) means(theta []float64) [2]float64 {
	return [2]float64{theta[0], theta[0] + math.Exp(theta[1])}
}

// LogPrior returns Σ_k log N(μ_k | m_k, 1) + log(μ₂ − μ₁).
func (m *Mixture2) LogPrior(theta []float64) float64 {
	mu := m.means(theta)
	return normLogPDF(mu[0], m.PriorMean[0], 1) + normLogPDF(mu[1], m.PriorMean[1], 1) + theta[1]
}

// LogPriorGrad adds ∇ log p(θ) to dst.
func (m *Mixture2) LogPriorGrad(dst, theta []float64) {
	mu := m.means(theta)
	m.addMeanGrad(dst, theta, -(mu[0] - m.PriorMean[0]), -(mu[1] - m.PriorMean[1]))
	dst[1]++
}

// addMeanGrad adds to dst the gradient with respect to θ of a function
// whose gradient with respect to μ is (g1, g2).
func (m *Mixture2) addMeanGrad(dst, theta []float64, g1, g2 float64) {
	dst[0] += g1 + g2
	dst[1] += g2 * math.Exp(theta[1])
}

// terms returns log w + log N(y_i | μ₁, 1) and log(1 − w) + log N(y_i |
// μ₂, 1).
func (m *Mixture2) terms(mu [2]float64, i int) (a1, a2 float64) {
	y := m.Y[i]
	return math.Log(m.W) + normLogPDF(y, mu[0], 1), math.Log1p(-m.W) + normLogPDF(y, mu[1], 1)
}

// LogLik returns log(w N(y_i | μ₁, 1) + (1 − w) N(y_i | μ₂, 1)).
func (m *Mixture2) LogLik(theta []float64, i int) float64 {
	a1, a2 := m.terms(m.means(theta), i)
	hi, lo := math.Max(a1, a2), math.Min(a1, a2)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// LogLikGrad adds scale · ∇ log p(y_i | θ) to dst, from the gradient with
// respect to μ, (r₁(y_i − μ₁), r₂(y_i − μ₂)), where r_k are the
// responsibilities, r₁ = logistic(a₁ − a₂).
func (m *Mixture2) LogLikGrad(dst, theta []float64, i int, scale float64) {
	mu := m.means(theta)
	a1, a2 := m.terms(mu, i)
	r1 := logistic(a1 - a2)
	y := m.Y[i]
	m.addMeanGrad(dst, theta, scale*r1*(y-mu[0]), scale*(1-r1)*(y-mu[1]))
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
	q, err := mixtureQuad(m, mixQuadStep, mixQuadHalf)
	if err != nil {
		return nil, err
	}
	return &Target{
		Name:   "mixture2",
		Model:  m,
		Start:  make([]float64, 2),
		Names:  []string{"mu[1]", "mu[2]"},
		UNames: []string{"mu[1]", "log(mu[2] - mu[1])"},
		Constrain: func(dst, theta []float64) {
			mu := m.means(theta)
			dst[0], dst[1] = mu[0], mu[1]
		},
		RefMean:  q.mean,
		RefSD:    q.sd,
		Draws:    1000,
		Batch:    100,
		refMeanU: q.meanU,
		refCovU:  q.covU,
	}, nil
}

// logPost returns the log posterior density of μ (not θ) at theta = μ,
// up to a constant, without the order (LogPrior and LogLik without their
// normalising constants, for the quadrature's speed).
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

// mixQuad is the exact posterior of mixture2: the means and sds of μ,
// and the mean and covariance of θ = (μ₁, log(μ₂ − μ₁)).
type mixQuad struct {
	mean, sd []float64
	meanU    []float64
	covU     *mat.SymDense
}

// mixtureQuad returns the posterior moments of m by the trapezoid rule on
// a grid in the principal coordinates z of the Laplace approximation in
// μ-space: μ = μ̂ + L z, L Lᵀ = H⁻¹ (μ̂ the mode of the density of μ
// without the order, found by Newton's method from the prior means, H the
// negative Hessian there), z on a square grid of step h over
// [−half, half]². The integrand is smooth and decays like a Gaussian, so
// the rule converges geometrically in h. The window must lie in μ₁ < μ₂,
// where the order leaves the density unchanged (it is far inside for
// mixture2's data); a window that crosses μ₁ = μ₂ is an error.
func mixtureQuad(m *Mixture2, h, half float64) (mixQuad, error) {
	theta := []float64{m.PriorMean[0], m.PriorMean[1]}
	var hess [3]float64 // −∂²/∂μ₁², −∂²/∂μ₁∂μ₂, −∂²/∂μ₂²
	for it := 0; ; it++ {
		g := []float64{-(theta[0] - m.PriorMean[0]), -(theta[1] - m.PriorMean[1])}
		hess = [3]float64{1, 0, 1}
		for i, y := range m.Y {
			a1, a2 := m.terms([2]float64{theta[0], theta[1]}, i)
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
			return mixQuad{}, errors.New("mixture2: Newton's method left the region where the posterior is log-concave")
		}
		s0 := (hess[2]*g[0] - hess[1]*g[1]) / det
		s1 := (hess[0]*g[1] - hess[1]*g[0]) / det
		theta[0] += s0
		theta[1] += s1
		if math.Hypot(s0, s1) < 1e-13 {
			break
		}
		if it == 100 {
			return mixQuad{}, errors.New("mixture2: Newton's method did not converge")
		}
	}
	// L = chol(H⁻¹) of the 2 × 2 H.
	det := hess[0]*hess[2] - hess[1]*hess[1]
	c00, c01, c11 := hess[2]/det, -hess[1]/det, hess[0]/det
	l00 := math.Sqrt(c00)
	l10 := c01 / l00
	l11 := math.Sqrt(c11 - l10*l10)
	lp0 := m.logPost(theta)
	uHat := []float64{theta[0], math.Log(theta[1] - theta[0])}
	k := int(math.Round(half / h))
	// Weighted sums of the deviations from the mode (no cancellation in
	// the variances), in μ and in θ.
	var w float64
	var sm, su [2]float64
	var smm, suu [3]float64
	x := make([]float64, 2)
	for a := -k; a <= k; a++ {
		for b := -k; b <= k; b++ {
			z0, z1 := float64(a)*h, float64(b)*h
			x[0] = theta[0] + l00*z0
			x[1] = theta[1] + l10*z0 + l11*z1
			if x[0] >= x[1] {
				return mixQuad{}, errors.New("mixture2: the quadrature's window crosses μ₁ = μ₂")
			}
			p := math.Exp(m.logPost(x) - lp0)
			dm := [2]float64{x[0] - theta[0], x[1] - theta[1]}
			du := [2]float64{dm[0], math.Log(x[1]-x[0]) - uHat[1]}
			w += p
			for j := range 2 {
				sm[j] += p * dm[j]
				su[j] += p * du[j]
			}
			smm[0] += p * dm[0] * dm[0]
			smm[1] += p * dm[0] * dm[1]
			smm[2] += p * dm[1] * dm[1]
			suu[0] += p * du[0] * du[0]
			suu[1] += p * du[0] * du[1]
			suu[2] += p * du[1] * du[1]
		}
	}
	m0, m1 := sm[0]/w, sm[1]/w
	u0, u1 := su[0]/w, su[1]/w
	return mixQuad{
		mean:  []float64{theta[0] + m0, theta[1] + m1},
		sd:    []float64{math.Sqrt(smm[0]/w - m0*m0), math.Sqrt(smm[2]/w - m1*m1)},
		meanU: []float64{uHat[0] + u0, uHat[1] + u1},
		covU: mat.NewSymDense(2, []float64{
			suu[0]/w - u0*u0, suu[1]/w - u0*u1,
			suu[1]/w - u0*u1, suu[2]/w - u1*u1,
		}),
	}, nil
}
