// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package testmodel

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// StudentT is a linear regression with Student-t errors of ν degrees of
// freedom: y_i = x_iᵀβ + σ ε_i, ε_i ~ t_ν, parameters (β, log σ), priors
// β ~ N(0, 10²) and log σ ~ N(0, 10²). X is dense, row-major, its first
// column ones.
type StudentT struct {
	x    []float64 // n × p
	y    []float64
	p    int
	nu   float64
	norm float64 // log Γ((ν+1)/2) − log Γ(ν/2) − ½ log(νπ)
}

const priorVarT = 100

// SimulateStudentT draws n rows of p − 1 N(0, 1) predictors and an
// intercept, y from the model with β ~ N(0, 1), σ = 1 and ν = 4, and
// then moves a share out of the rows 50 σ up or down: gross outliers.
// It returns the model and the true (β, log σ).
func SimulateStudentT(n, p int, out float64, seed uint64) (*StudentT, []float64) {
	r := rand.New(rand.NewPCG(seed, 0x3c6ef372fe94f82b))
	beta := make([]float64, p)
	for j := range beta {
		beta[j] = r.NormFloat64()
	}
	m := &StudentT{x: make([]float64, n*p), y: make([]float64, n), p: p, nu: 4}
	lg1, _ := math.Lgamma((m.nu + 1) / 2)
	lg2, _ := math.Lgamma(m.nu / 2)
	m.norm = lg1 - lg2 - 0.5*math.Log(m.nu*math.Pi)
	for i := range n {
		row := m.x[i*p : (i+1)*p]
		row[0] = 1
		for j := 1; j < p; j++ {
			row[j] = r.NormFloat64()
		}
		// t_ν = z / √(χ²_ν/ν)
		var chi float64
		for range int(m.nu) {
			g := r.NormFloat64()
			chi += g * g
		}
		m.y[i] = dot(row, beta) + r.NormFloat64()/math.Sqrt(chi/m.nu)
		if r.Float64() < out {
			m.y[i] += math.Copysign(50, r.Float64()-0.5)
		}
	}
	return m, append(beta, 0)
}

// dot returns aᵀb.
func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// Dim returns p + 1: β and log σ.
func (m *StudentT) Dim() int { return m.p + 1 }

// Len returns the number of rows.
func (m *StudentT) Len() int { return len(m.y) }

// LogPriorGrad adds ∇log p(θ).
func (m *StudentT) LogPriorGrad(dst, th []float64) {
	for j, t := range th {
		dst[j] -= t / priorVarT
	}
}

// LogPrior returns log p(θ) up to a constant.
func (m *StudentT) LogPrior(th []float64) float64 {
	var s float64
	for _, t := range th {
		s -= t * t / (2 * priorVarT)
	}
	return s
}

// LogLik returns log p(y_i | θ).
func (m *StudentT) LogLik(th []float64, i int) float64 {
	row := m.x[i*m.p : (i+1)*m.p]
	ls := th[m.p]
	s2 := math.Exp(2 * ls)
	r := m.y[i] - dot(row, th[:m.p])
	return m.norm - ls - (m.nu+1)/2*math.Log1p(r*r/(m.nu*s2))
}

// LogLikGrad adds scale·∇log p(y_i | θ).
func (m *StudentT) LogLikGrad(dst, th []float64, i int, scale float64) {
	row := m.x[i*m.p : (i+1)*m.p]
	s2 := math.Exp(2 * th[m.p])
	r := m.y[i] - dot(row, th[:m.p])
	den := m.nu*s2 + r*r
	c := scale * (m.nu + 1) * r / den
	for j, v := range row {
		dst[j] += c * v
	}
	dst[m.p] += scale * (-1 + (m.nu+1)*r*r/den)
}

// Hessian writes −∇² log p(θ | y), all rows, into h.
func (m *StudentT) Hessian(h *mat.SymDense, th []float64) {
	d := m.Dim()
	a := make([]float64, d*d)
	for j := range d {
		a[j*d+j] = 1.0 / priorVarT
	}
	s2 := math.Exp(2 * th[m.p])
	for i := range m.Len() {
		row := m.x[i*m.p : (i+1)*m.p]
		r := m.y[i] - dot(row, th[:m.p])
		den := m.nu*s2 + r*r
		// The derivatives of ℓ_β = (ν+1) r x/den and ℓ_s = −1 + (ν+1) r²/den,
		// den = νσ² + r², σ² = e^{2s}.
		bb := (m.nu + 1) * (m.nu*s2 - r*r) / (den * den)   // −∂²ℓ/∂r² factor on x xᵀ
		bs := 2 * (m.nu + 1) * r * m.nu * s2 / (den * den) // −∂²ℓ/∂β∂s per x
		ss := 2 * (m.nu + 1) * r * r * m.nu * s2 / (den * den)
		for j := range m.p {
			for k := j; k < m.p; k++ {
				a[j*d+k] += bb * row[j] * row[k]
			}
			a[j*d+m.p] += bs * row[j]
		}
		a[m.p*d+m.p] += ss
	}
	for j := range d {
		for k := j; k < d; k++ {
			h.SetSym(j, k, a[j*d+k])
		}
	}
}
