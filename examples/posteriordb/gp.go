// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"path/filepath"
)

// gpJitter is the diagonal Stan's model adds to the covariance.
const gpJitter = 1e-10

// GPPoisson is posteriordb's gp_pois_regr-gp_pois_regr, a latent Gaussian
// process Poisson regression in the non-centred form
//
//	k_i ~ Poisson(e^(f_i)),   f = L f̃,   L Lᵀ = K + 10⁻¹⁰ I,
//	K_ij = α² exp(−(x_i − x_j)²/(2ρ²)),
//	ρ ~ Gamma(25, 4),   α ~ N(0, 2) on (0, ∞),   f̃ ~ N(0, I),
//
// sampled in u = (log ρ, log α, f̃) with the Jacobian log ρ + log α in the
// log prior. The likelihood couples every count to (ρ, α) through the
// Cholesky factor, so the counts are one datum (Len() = 1); the gradient
// with respect to log ρ and log α differentiates the Cholesky recursion
// itself (see cholesky), exactly as the log density computes it.
type GPPoisson struct {
	X []float64
	// Counts are the k_i, and logFact their log k_i!.
	Counts, logFact []float64
}

// Dim returns N + 2.
func (g *GPPoisson) Dim() int { return len(g.X) + 2 }

// Len returns 1.
func (g *GPPoisson) Len() int { return 1 }

// LogPrior returns log p(u): the Gamma(25, 4) density of ρ, the half-normal
// density of α, the standard normal densities of f̃, and the Jacobians.
func (g *GPPoisson) LogPrior(u []float64) float64 {
	rho, alpha := math.Exp(u[0]), math.Exp(u[1])
	lg25, _ := math.Lgamma(25)
	lp := 25*math.Log(4) - lg25 + 24*u[0] - 4*rho + u[0]
	lp += math.Ln2 + normLogPDF(alpha, 0, 2) + u[1]
	for _, z := range u[2:] {
		lp += normLogPDF(z, 0, 1)
	}
	return lp
}

// LogPriorGrad adds ∇ log p(u) to dst.
func (g *GPPoisson) LogPriorGrad(dst, u []float64) {
	rho, alpha := math.Exp(u[0]), math.Exp(u[1])
	dst[0] += 25 - 4*rho
	dst[1] += 1 - alpha*alpha/4
	for i, z := range u[2:] {
		dst[2+i] -= z
	}
}

// cholesky returns the lower Cholesky factor L of K(ρ, α) + 10⁻¹⁰ I
// (row-major, n × n) and, if tangents, its derivatives with respect to
// log ρ and log α, by forward-mode differentiation of the
// Cholesky–Banachiewicz recursion: with s = K_ij − Σ_{k<j} L_ik L_jk,
//
//	L_jj = √s,        dL_jj = ds / (2 L_jj),
//	L_ij = s / L_jj,  dL_ij = (ds − L_ij dL_jj) / L_jj,   i > j,
//
// ds = dK_ij − Σ_{k<j} (dL_ik L_jk + L_ik dL_jk), where dK/d log ρ =
// α² C_ij (x_i − x_j)²/ρ² and dK/d log α = 2 α² C_ij, C_ij = exp(−(x_i −
// x_j)²/(2ρ²)). It reports false if K + 10⁻¹⁰ I is not positive definite
// in floating point.
func (g *GPPoisson) cholesky(u []float64, tangents bool) (l, dlr, dla []float64, ok bool) {
	n := len(g.X)
	rho2, alpha2 := math.Exp(2*u[0]), math.Exp(2*u[1])
	l = make([]float64, n*n)
	if tangents {
		dlr, dla = make([]float64, n*n), make([]float64, n*n)
	}
	for i := range n {
		for j := 0; j <= i; j++ {
			dx := g.X[i] - g.X[j]
			c := alpha2 * math.Exp(-dx*dx/(2*rho2))
			s := c
			if i == j {
				s += gpJitter
			}
			li, lj := l[i*n:i*n+j], l[j*n:j*n+j]
			for k, v := range li {
				s -= v * lj[k]
			}
			if i == j {
				if !(s > 0) {
					return nil, nil, nil, false
				}
				l[i*n+i] = math.Sqrt(s)
			} else {
				l[i*n+j] = s / l[j*n+j]
			}
			if !tangents {
				continue
			}
			for _, t := range [2]struct {
				dl []float64
				dk float64
			}{{dlr, c * dx * dx / rho2}, {dla, 2 * c}} {
				ds := t.dk
				dli, dlj := t.dl[i*n:i*n+j], t.dl[j*n:j*n+j]
				for k, v := range li {
					ds -= dli[k]*lj[k] + v*dlj[k]
				}
				if i == j {
					t.dl[i*n+i] = ds / (2 * l[i*n+i])
				} else {
					t.dl[i*n+j] = (ds - l[i*n+j]*t.dl[j*n+j]) / l[j*n+j]
				}
			}
		}
	}
	return l, dlr, dla, true
}

// lowerMul returns L z for a lower-triangular n × n L.
func lowerMul(l, z []float64) []float64 {
	n := len(z)
	f := make([]float64, n)
	for i := range n {
		var s float64
		for k, v := range l[i*n : i*n+i+1] {
			s += v * z[k]
		}
		f[i] = s
	}
	return f
}

// LogLik returns Σ_i log Poisson(k_i | e^(f_i)), f = L f̃ (i must be 0).
func (g *GPPoisson) LogLik(u []float64, i int) float64 {
	l, _, _, ok := g.cholesky(u, false)
	if !ok {
		return math.NaN()
	}
	var ll float64
	for j, f := range lowerMul(l, u[2:]) {
		ll += g.Counts[j]*f - math.Exp(f) - g.logFact[j]
	}
	return ll
}

// LogLikGrad adds scale · ∇ log p(k | u) to dst: with r = k − e^f,
// ∂/∂f̃ = Lᵀr and ∂/∂ log ρ = rᵀ (dL/d log ρ) f̃, and likewise for α.
func (g *GPPoisson) LogLikGrad(dst, u []float64, i int, scale float64) {
	l, dlr, dla, ok := g.cholesky(u, true)
	if !ok {
		for j := range dst {
			dst[j] = math.NaN()
		}
		return
	}
	z := u[2:]
	n := len(z)
	r := lowerMul(l, z)
	for j, f := range r {
		r[j] = g.Counts[j] - math.Exp(f)
	}
	fr, fa := lowerMul(dlr, z), lowerMul(dla, z)
	var gr, ga float64
	for j, v := range r {
		gr += v * fr[j]
		ga += v * fa[j]
		for k, lv := range l[j*n : j*n+j+1] {
			dst[2+k] += scale * lv * v
		}
	}
	dst[0] += scale * gr
	dst[1] += scale * ga
}

// loadGPPoisson reads gp_pois_regr's data and reference draws from dir.
func loadGPPoisson(dir string) (*Target, error) {
	d, err := readData(dir)
	if err != nil {
		return nil, err
	}
	c, err := columns(d, "x", "k")
	if err != nil {
		return nil, err
	}
	m := &GPPoisson{X: c[0], Counts: c[1], logFact: make([]float64, d.n)}
	for i, k := range m.Counts {
		if k < 0 || k != math.Trunc(k) {
			return nil, d.errorf("field \"k\", element %d (1-based) = %v, want a count", i+1, k)
		}
		m.logFact[i], _ = math.Lgamma(k + 1)
	}
	n := d.n
	names := []string{"rho", "alpha"}
	unames := []string{"log(rho)", "log(alpha)"}
	for i := range n {
		names = append(names, fmt.Sprintf("f[%d]", i+1))
		unames = append(unames, fmt.Sprintf("f_tilde[%d]", i+1))
	}
	t := &Target{
		Name:   "gp_pois_regr-gp_pois_regr",
		Model:  m,
		Start:  make([]float64, n+2),
		Names:  names,
		UNames: unames,
		Constrain: func(dst, u []float64) {
			dst[0], dst[1] = math.Exp(u[0]), math.Exp(u[1])
			l, _, _, ok := m.cholesky(u, false)
			if !ok {
				for i := range n {
					dst[2+i] = math.NaN()
				}
				return
			}
			copy(dst[2:], lowerMul(l, u[2:]))
		},
		Draws: 1000,
		Batch: 1,
	}
	draws, err := readDraws(dir, t.Names)
	if err != nil {
		return nil, err
	}
	err = t.refFromDraws(draws, func(dst, x []float64) {
		// f̃ = L⁻¹ f by forward substitution.
		dst[0], dst[1] = math.Log(x[0]), math.Log(x[1])
		l, _, _, ok := m.cholesky(dst, false)
		for i := range n {
			if !ok {
				dst[2+i] = math.NaN()
				continue
			}
			s := x[2+i]
			for k, v := range l[i*n : i*n+i] {
				s -= v * dst[2+k]
			}
			dst[2+i] = s / l[i*n+i]
		}
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, drawsFile), err)
	}
	return t, nil
}
