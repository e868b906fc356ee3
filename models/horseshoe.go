// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// Horseshoe is the regularised horseshoe prior on the coefficients
// (Piironen & Vehtari 2017), for sparse effects:
//
//	b_j ~ N(0, u_j²),  u_j = τ·λ̃_j,  λ_j ~ C⁺(0, 1),  τ ~ C⁺(0, τ₀),  c² ~ Inv-Gamma(ν/2, ν s²/2),
//	λ̃_j² = c²λ_j² / (c² + τ²λ_j²),   τ₀ = p₀/(p − p₀) · σ/√N,
//
// where p₀ is the number of coefficients expected to be far from zero, σ
// the data's scale (sd(y) for Gaussian and StudentT, 2 for Bernoulli and
// Binomial, 1 for counts: Piironen & Vehtari's pseudo-variance), s the
// slab's scale and ν its degrees of freedom (brms's defaults 2 and 4).
//
// # The parameterisation
//
// Each coefficient is sampled as z_j (named z_b.<predictor>) with
//
//	b_j = z_j·u_j/√(1 + κ_j),   κ_j = I_j·u_j²,
//
// I_j the data's Fisher information about b_j at a plug-in point
// (horseshoe_info.go). This is doc.go's rule for grouping factors, κ =
// the data's information × the prior's variance, applied not once before
// sampling but at every point, to the coefficient's current prior scale
// u_j: where κ_j ≪ 1 (the data do not pin b_j) it is the non-centred
// b_j = z_j u_j; where κ_j ≫ 1 it is the centred b_j = z_j/√I_j, b_j
// itself on the scale of its standard error. Under the prior z_j ~
// N(0, 1 + κ_j) (b_j's N(0, u_j²) and the map's Jacobian u_j/√(1 + κ_j)),
// and for normal data the conditional posterior of z_j given u_j has
// variance 1 at every u_j, where the non-centred z's shrinks to 1/(1 + κ_j).
//
// A choice made once per coefficient, centred or non-centred as the
// factors' levels are, does not do: a coefficient's κ_j is not a property
// of the data alone but moves with λ_j, whose half-Cauchy posterior spans
// orders of magnitude. On the check's 200 × 10 case (doc/benchmarks.md)
// the fully non-centred form failed where a coefficient the data pin
// down (x1, b̂/se = 7.6) has z's spread fall from ~1 to a few hundredths
// as u_j grows, and equally where a coefficient the data do not identify
// wanders into its λ's tail (its κ_j then ≫ 1, z pinned again); centring
// x1 alone (or with x3, b̂/se = 2.6) left the latter, and 1–4 of 4 chains
// still failed with non-finite gradients on seeds 1–4.
//
// λ_j is sampled as y, log λ_j = y − e^{−y} (the group sds' Gumbel-tailed
// transform, sdtransform.go, at scale 1, λ's prior median): a
// coefficient the data do not identify keeps a density at λ_j = 0, so log
// λ_j has a flat exponential tail there, where chains wandered and the
// warmup's curvature degenerated. τ and c² are sampled by their logs
// (named hs_global, hs_slab), and Draws reports b, λ, τ and c².
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
	slabS      float64 // s
	slabA      float64 // c²'s inverse-gamma shape ν/2 and scale ν s²/2
	slabB      float64
	lnormSlab  float64
	localPrior Prior     // C⁺(0, 1)
	tauPrior   Prior     // C⁺(0, τ₀)
	info       []float64 // I_j, the data's plug-in information about b_j (horseshoe_info.go)
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

// scale returns s_j = u_j/√(1 + κ_j), the map's b_j = z_j s_j, with κ_j =
// I_j u_j², ∂s_j/∂u_j = (1 + κ_j)^{−3/2}, and u_j with its derivatives
// (u).
func (h *horseshoe) scale(x []float64, j int) (s, kappa, ds, u, dl, dt, dc2 float64) {
	u, dl, dt, dc2 = h.u(x, j)
	kappa = h.info[j] * u * u
	r := 1 / math.Sqrt(1+kappa)
	return u * r, kappa, r * r * r, u, dl, dt, dc2
}

// effective writes x with its coefficients b_j = z_j·s_j into xe.
func (h *horseshoe) effective(xe, x []float64) {
	copy(xe, x)
	for j := range h.p {
		s, _, _, _, _, _, _ := h.scale(x, j)
		xe[h.off+j] = x[h.off+j] * s
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
		s, _, ds, _, dl, dt, dc2 := h.scale(x, j)
		dst[h.off+j] += gb * s
		gu := gb * z * ds
		dst[h.lam+j] += gu * dl
		dst[h.tau] += gu * dt
		dst[h.c2] += gu * dc2
	}
}

// logPrior returns the log density of z, λ, τ and c² and adds its
// gradient to dst if not nil: z_j ~ N(0, 1 + κ_j) (b_j's N(0, u_j²) times
// the Jacobian s_j of b_j = z_j s_j), λ_j ~ C⁺(0, 1), τ ~ C⁺(0, τ₀) and c²
// ~ Inv-Gamma(ν/2, ν s²/2).
func (h *horseshoe) logPrior(dst, x []float64) float64 {
	const half = 0.91893853320467274178 // ½ log 2π
	var lp float64
	for j := range h.p {
		z := x[h.off+j]
		_, kappa, _, u, dl, dt, dc2 := h.scale(x, j)
		v := 1 + kappa
		lp -= z*z/(2*v) + 0.5*math.Log(v) + half
		if dst != nil {
			dst[h.off+j] -= z / v
			if kappa > 0 {
				// ∂/∂u = ∂/∂κ · 2I_j u, ∂/∂κ = (z²/v − 1)/(2v).
				gu := (z*z/v - 1) / v * h.info[j] * u
				dst[h.lam+j] += gu * dl
				dst[h.tau] += gu * dt
				dst[h.c2] += gu * dc2
			}
		}
		pv, d := h.localPrior.logPdf(x[h.lam+j])
		lp += pv
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
// ones; the coefficients' priors are the horseshoe's (logPrior), not
// priorB's.
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
		slabS: s, slabA: nu / 2, slabB: nu * s * s / 2, localPrior: HalfCauchy(1)}
	hs.tauPrior = HalfCauchy(hs.tau0)
	lg, _ := math.Lgamma(hs.slabA)
	hs.lnormSlab = hs.slabA*math.Log(hs.slabB) - lg
	hs.info = m.hsInfo()
	for j := range m.p {
		m.priorB[off+j] = Prior{} // none: logPrior has z_j's N(0, 1 + κ_j)
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
