// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// Horseshoe is the regularised horseshoe prior on the coefficients
// (Piironen & Vehtari 2017), for sparse effects: b_j = z_j·τ·λ̃_j with
//
//	z_j ~ N(0, 1),  λ_j ~ C⁺(0, 1),  τ ~ C⁺(0, τ₀),  c² ~ Inv-Gamma(ν/2, ν s²/2),
//	λ̃_j² = c²λ_j² / (c² + τ²λ_j²),   τ₀ = p₀/(p − p₀) · σ/√N,
//
// where p₀ is the number of coefficients expected to be far from zero, σ
// the data's scale (sd(y) for Gaussian and StudentT, 2 for Bernoulli and
// Binomial, 1 for counts: Piironen & Vehtari's pseudo-variance), s the
// slab's scale and ν its degrees of freedom (brms's defaults 2 and 4).
// The sampled coordinates are z (named z_b.<predictor>), λ (hs_local.<predictor>),
// τ (hs_global) and c² (hs_slab); Draws reports b.
type Horseshoe struct {
	// Expected is p₀, in (0, p).
	Expected float64
	// SlabScale is s (zero: 2); SlabDF is ν (zero: 4).
	SlabScale, SlabDF float64
}

// horseshoe is a Horseshoe as the model holds it.
type horseshoe struct {
	off        int     // index of the first predictor's coefficient (1 with an intercept)
	p          int     // predictors
	lam        int     // index of λ_1
	tau, c2    int     // indices of τ and c²
	tau0       float64 // τ₀
	slabA      float64 // c²'s inverse-gamma shape ν/2 and scale ν s²/2
	slabB      float64
	lnormSlab  float64
	localPrior Prior // C⁺(0, 1)
	tauPrior   Prior // C⁺(0, τ₀)
}

// u returns τλ̃_j and its derivatives in λ_j, τ and c². With a = τλ_j and
// H = √(c² + a²) (math.Hypot: no overflow for a λ far in its Cauchy tail),
// u = c·a/H, ∂u/∂a = (c/H)³ and ∂u/∂c = (a/H)³.
func (h *horseshoe) u(x []float64, j int) (u, dl, dt, dc2 float64) {
	l, t, c2 := x[h.lam+j], x[h.tau], x[h.c2]
	c := math.Sqrt(c2)
	a := t * l
	hy := math.Hypot(c, a)
	r, q := c/hy, a/hy
	r3 := r * r * r
	return c * q, t * r3, l * r3, q * q * q / (2 * c)
}

// effective writes x with its coefficients b_j = z_j·u_j into xe.
func (h *horseshoe) effective(xe, x []float64) {
	copy(xe, x)
	for j := range h.p {
		u, _, _, _ := h.u(x, j)
		xe[h.off+j] = x[h.off+j] * u
	}
}

// mapGrad adds to dst the gradient in z, λ, τ and c² of a function whose
// gradient in the coefficients b is g[off:off+p] (the rest of g, in the
// coordinates b does not touch, is added as it is).
func (h *horseshoe) mapGrad(dst, g, x []float64) {
	for k, v := range g {
		if k < h.off || k >= h.off+h.p {
			dst[k] += v
		}
	}
	for j := range h.p {
		gb := g[h.off+j]
		if gb == 0 {
			continue
		}
		z := x[h.off+j]
		u, dl, dt, dc2 := h.u(x, j)
		dst[h.off+j] += gb * u
		dst[h.lam+j] += gb * z * dl
		dst[h.tau] += gb * z * dt
		dst[h.c2] += gb * z * dc2
	}
}

// logPrior returns the log density of λ, τ and c² and adds its gradient
// to dst if not nil (z's N(0, 1) is the coefficients' prior).
func (h *horseshoe) logPrior(dst, x []float64) float64 {
	var lp float64
	for j := range h.p {
		v, d := h.localPrior.logPdf(x[h.lam+j])
		lp += v
		if dst != nil {
			dst[h.lam+j] += d
		}
	}
	v, d := h.tauPrior.logPdf(x[h.tau])
	lp += v
	if dst != nil {
		dst[h.tau] += d
	}
	c2 := x[h.c2]
	lp += h.lnormSlab - (h.slabA+1)*math.Log(c2) - h.slabB/c2
	if dst != nil {
		dst[h.c2] += -(h.slabA+1)/c2 + h.slabB/(c2*c2)
	}
	return lp
}

// setHorseshoe lays out the horseshoe's parameters after the population
// ones, the coefficients' priors becoming z's N(0, 1).
func (m *Model) setHorseshoe(h *Horseshoe) error {
	if h == nil {
		return nil
	}
	if m.p == 0 {
		return errorf(sgmcmc.ErrRange, "Horseshoe without predictors")
	}
	if !(h.Expected > 0) || !(h.Expected < float64(m.p)) {
		return errorf(sgmcmc.ErrRange, "Horseshoe: Expected = %v, want in (0, %d), the number of predictors", h.Expected, m.p)
	}
	s, nu := h.SlabScale, h.SlabDF
	if s == 0 {
		s = 2
	}
	if nu == 0 {
		nu = 4
	}
	if !(s > 0) || !(nu > 0) || math.IsInf(s, 0) || math.IsInf(nu, 0) {
		return errorf(sgmcmc.ErrRange, "Horseshoe: SlabScale = %v, SlabDF = %v: want finite and > 0 (0 for the defaults)", h.SlabScale, h.SlabDF)
	}
	sigma := 1.0
	switch m.fam {
	case Gaussian, StudentT:
		sigma = m.yScale()
	case Bernoulli, Binomial:
		sigma = 2
	}
	off := 0
	if m.intercept {
		off = 1
	}
	hs := &horseshoe{off: off, p: m.p, tau0: h.Expected / (float64(m.p) - h.Expected) * sigma / math.Sqrt(float64(m.n)),
		slabA: nu / 2, slabB: nu * s * s / 2, localPrior: HalfCauchy(1)}
	hs.tauPrior = HalfCauchy(hs.tau0)
	lg, _ := math.Lgamma(hs.slabA)
	hs.lnormSlab = hs.slabA*math.Log(hs.slabB) - lg
	for j := range m.p {
		m.priorB[off+j] = Normal(0, 1)
		m.start[off+j] = 0
	}
	hs.lam = m.dim
	for j := range m.p {
		m.names = append(m.names, "hs_local."+m.colName(j))
		m.start = append(m.start, 1)
	}
	hs.tau, hs.c2 = m.dim+m.p, m.dim+m.p+1
	m.names = append(m.names, "hs_global", "hs_slab")
	m.start = append(m.start, hs.tau0, s*s)
	m.dim += m.p + 2
	m.hs = hs
	return nil
}
