// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// The eight schools of Rubin (1981): estimated effects and their standard
// errors.
var (
	schoolsY     = []float64{28, 8, -3, 7, -1, 1, 18, 12}
	schoolsSigma = []float64{15, 10, 16, 11, 9, 11, 10, 18}
)

// The priors of hier_cp and hier_ncp: μ ~ N(0, hierMuSD²), τ ~
// half-Cauchy(0, hierTauScale).
const (
	hierMuSD     = 5.0
	hierTauScale = 5.0
)

// Hier is the normal hierarchical model of the eight schools,
//
//	y_j ~ N(θ_j, σ_j),   θ_j ~ N(μ, τ),   μ ~ N(0, 5),   τ ~ half-Cauchy(0, 5),
//
// in centred form (θ = (μ, log τ, θ_1, …, θ_J)) or non-centred form (θ =
// (μ, log τ, η_1, …, η_J), θ_j = μ + τ η_j, η_j ~ N(0, 1)), with the
// Jacobian log τ in the log prior. The J schools are the data (Len() = J);
// the hierarchical terms are in the prior. In centred form the posterior
// is a funnel in (log τ, θ): no constant preconditioner fits both its
// neck and its mouth.
type Hier struct {
	Y, Sigma []float64
	// Centred selects the centred form.
	Centred bool
}

// Dim returns J + 2.
func (h *Hier) Dim() int { return len(h.Y) + 2 }

// Len returns J.
func (h *Hier) Len() int { return len(h.Y) }

// LogPrior returns log p(μ) + log p(τ) + log τ, plus Σ log N(θ_j | μ, τ)
// (centred) or Σ log N(η_j | 0, 1) (non-centred).
func (h *Hier) LogPrior(theta []float64) float64 {
	mu, s := theta[0], theta[1]
	tau := math.Exp(s)
	z := tau / hierTauScale
	lp := normLogPDF(mu, 0, hierMuSD) + math.Log(2/(math.Pi*hierTauScale)) - math.Log1p(z*z) + s
	for _, x := range theta[2:] {
		if h.Centred {
			lp += normLogPDF(x, mu, tau)
		} else {
			lp += normLogPDF(x, 0, 1)
		}
	}
	return lp
}

// LogPriorGrad adds ∇ log p(θ) to dst.
func (h *Hier) LogPriorGrad(dst, theta []float64) {
	mu, s := theta[0], theta[1]
	tau := math.Exp(s)
	z := tau / hierTauScale
	dst[0] -= mu / (hierMuSD * hierMuSD)
	dst[1] += 1 - 2*z*z/(1+z*z)
	for j, x := range theta[2:] {
		if !h.Centred {
			dst[2+j] -= x
			continue
		}
		r := (x - mu) / tau // ∂/∂s of −r²/2 − s is r² − 1
		dst[0] += r / tau
		dst[1] += r*r - 1
		dst[2+j] -= r / tau
	}
}

// effect returns θ_j and, in non-centred form, τ (∂θ_j/∂η_j).
func (h *Hier) effect(theta []float64, j int) (th, tau float64) {
	if h.Centred {
		return theta[2+j], 0
	}
	tau = math.Exp(theta[1])
	return theta[0] + tau*theta[2+j], tau
}

// LogLik returns log N(y_j | θ_j, σ_j).
func (h *Hier) LogLik(theta []float64, j int) float64 {
	th, _ := h.effect(theta, j)
	return normLogPDF(h.Y[j], th, h.Sigma[j])
}

// LogLikGrad adds scale · ∇ log N(y_j | θ_j, σ_j) to dst.
func (h *Hier) LogLikGrad(dst, theta []float64, j int, scale float64) {
	th, tau := h.effect(theta, j)
	g := scale * (h.Y[j] - th) / (h.Sigma[j] * h.Sigma[j]) // ∂/∂θ_j
	if h.Centred {
		dst[2+j] += g
		return
	}
	dst[0] += g
	dst[1] += g * tau * theta[2+j]
	dst[2+j] += g * tau
}

// NewHier returns hier_cp (centred) or hier_ncp, started at 0, with the
// exact posterior means and sds of μ, τ and θ_1 … θ_8 (hierReference).
func NewHier(centred bool) (*Target, error) {
	m := &Hier{Y: schoolsY, Sigma: schoolsSigma, Centred: centred}
	j := len(m.Y)
	name, x := "hier_ncp", "eta"
	if centred {
		name, x = "hier_cp", "theta"
	}
	names, unames := []string{"mu", "tau"}, []string{"mu", "log(tau)"}
	for k := range j {
		names = append(names, fmt.Sprintf("theta[%d]", k+1))
		unames = append(unames, fmt.Sprintf("%s[%d]", x, k+1))
	}
	q := newHierQuad(m.Y, m.Sigma, hierQuadStep, hierQuadLo, hierQuadHi)
	mean, sd := q.moments()
	t := &Target{
		Name:   name,
		Model:  m,
		Start:  make([]float64, j+2),
		Names:  names,
		UNames: unames,
		Constrain: func(dst, theta []float64) {
			dst[0], dst[1] = theta[0], math.Exp(theta[1])
			for k := range j {
				dst[2+k], _ = m.effect(theta, k)
			}
		},
		Draws: 1000,
		Batch: j,
	}
	// The unconstrained mean and covariance, for the oracle runner and
	// the tests, from exact draws; the reference itself is exact.
	rng := rand.New(rand.NewPCG(hierSeed, 1))
	draws := make([][][]float64, 1)
	for range 10_000 {
		draws[0] = append(draws[0], q.draw(rng))
	}
	err := t.refFromDraws(draws, func(dst, x []float64) {
		dst[0], dst[1] = x[0], math.Log(x[1])
		for k := range j {
			if centred {
				dst[2+k] = x[2+k]
			} else {
				dst[2+k] = (x[2+k] - x[0]) / x[1]
			}
		}
	})
	if err != nil {
		return nil, err
	}
	t.RefMean, t.RefSD, t.RefMCSE = mean, sd, nil
	return t, nil
}

// hierSeed seeds the exact draws behind hier's unconstrained covariance.
const hierSeed = 8

// The quadrature grid of hierReference, in s = log τ.
const (
	hierQuadStep = 0.002
	hierQuadLo   = -25.0
	hierQuadHi   = 15.0
)

// hierQuad is the exact posterior of the eight schools model on a grid of
// s = log τ. Given τ, the model is linear-Gaussian: with v_j = σ_j² + τ²,
//
//	μ | τ, y ~ N(m(τ), 1/P(τ)),   P = 1/5² + Σ 1/v_j,   m = Σ (y_j/v_j) / P,
//	θ_j | μ, τ, y ~ N((1 − B_j) y_j + B_j μ, B_j τ²),   B_j = σ_j²/v_j,
//
// and p(s | y) ∝ p(τ) τ Π v_j^(−1/2) exp(−½ Σ y_j²/v_j) P^(−½) exp(½ P m²)
// (θ and μ integrated out analytically). The marginal moments are
// trapezoid sums over s of the conditional ones.
type hierQuad struct {
	y, sigma []float64
	s, w     []float64 // grid of s = log τ and normalised weights
	cum      []float64 // cumulative weights, for draw
}

func newHierQuad(y, sigma []float64, h, lo, hi float64) *hierQuad {
	n := int(math.Round((hi-lo)/h)) + 1
	q := &hierQuad{y: y, sigma: sigma, s: make([]float64, n), w: make([]float64, n)}
	maxLog := math.Inf(-1)
	for k := range n {
		s := lo + float64(k)*h
		q.s[k] = s
		q.w[k] = q.logMarginal(s)
		maxLog = math.Max(maxLog, q.w[k])
	}
	var sum float64
	for k, lw := range q.w {
		q.w[k] = math.Exp(lw - maxLog)
		if k == 0 || k == n-1 {
			q.w[k] /= 2
		}
		sum += q.w[k]
	}
	q.cum = make([]float64, n)
	var c float64
	for k := range q.w {
		q.w[k] /= sum
		c += q.w[k]
		q.cum[k] = c
	}
	return q
}

// logMarginal returns log p(s | y) up to a constant, s = log τ.
func (q *hierQuad) logMarginal(s float64) float64 {
	tau := math.Exp(s)
	z := tau / hierTauScale
	lw := -math.Log1p(z*z) + s // half-Cauchy density times the Jacobian τ
	p, m := q.mu(tau)
	for j, yj := range q.y {
		v := q.sigma[j]*q.sigma[j] + tau*tau
		lw -= 0.5*math.Log(v) + 0.5*yj*yj/v
	}
	return lw - 0.5*math.Log(p) + 0.5*p*m*m
}

// mu returns the precision and the mean of μ given τ.
func (q *hierQuad) mu(tau float64) (p, m float64) {
	p = 1 / (hierMuSD * hierMuSD)
	var b float64
	for j, yj := range q.y {
		v := q.sigma[j]*q.sigma[j] + tau*tau
		p += 1 / v
		b += yj / v
	}
	return p, b / p
}

// moments returns the posterior means and sds of (μ, τ, θ_1, …, θ_J):
// E[θ_j | τ] = (1 − B_j) y_j + B_j m, Var[θ_j | τ] = B_j τ² + B_j²/P.
func (q *hierQuad) moments() (mean, sd []float64) {
	d := len(q.y) + 2
	m1, m2 := make([]float64, d), make([]float64, d)
	add := func(i int, w, mean, variance float64) {
		m1[i] += w * mean
		m2[i] += w * (variance + mean*mean)
	}
	for k, s := range q.s {
		w := q.w[k]
		tau := math.Exp(s)
		p, m := q.mu(tau)
		add(0, w, m, 1/p)
		add(1, w, tau, 0)
		for j, yj := range q.y {
			b := q.sigma[j] * q.sigma[j] / (q.sigma[j]*q.sigma[j] + tau*tau)
			add(2+j, w, (1-b)*yj+b*m, b*tau*tau+b*b/p)
		}
	}
	sd = make([]float64, d)
	for i := range d {
		sd[i] = math.Sqrt(m2[i] - m1[i]*m1[i])
	}
	return m1, sd
}

// draw returns an exact draw of (μ, τ, θ_1, …, θ_J), s from the grid (a
// cell's point, jittered uniformly within it).
func (q *hierQuad) draw(rng *rand.Rand) []float64 {
	k := min(sort.SearchFloat64s(q.cum, rng.Float64()), len(q.s)-1)
	s := q.s[k]
	if len(q.s) > 1 {
		s += (rng.Float64() - 0.5) * (q.s[1] - q.s[0])
	}
	tau := math.Exp(s)
	p, m := q.mu(tau)
	mu := m + rng.NormFloat64()/math.Sqrt(p)
	x := []float64{mu, tau}
	for j, yj := range q.y {
		b := q.sigma[j] * q.sigma[j] / (q.sigma[j]*q.sigma[j] + tau*tau)
		x = append(x, (1-b)*yj+b*mu+math.Sqrt(b)*tau*rng.NormFloat64())
	}
	return x
}
