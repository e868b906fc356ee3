// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// diagMetricCache evaluates a DiagMetric once per distinct θ and keeps
// what the samplers read from it: G⁻¹, ±G^(−1/2) and the two corrections.
type diagMetricCache struct {
	m            DiagMetric
	d            int
	theta, g, dg []float64
	inv          []float64 // 1/g
	isq, nisq    []float64 // ±g^(−1/2)
	gamInv       []float64 // ∂_i(1/g_i) = −g_i′/g_i²
	gamIsq       []float64 // ∂_i g_i^(−1/2) = −½g_i′g_i^(−3/2)
	sqrt         bool      // whether isq, nisq and gamIsq are needed
	fric         float64   // friction C of gSGRHMC when fricInv is used
	fricInv      []float64 // C/g, or nil
	valid        bool
}

func newDiagMetricCache(m DiagMetric, d int, sqrt bool) *diagMetricCache {
	v := func() []float64 { return make([]float64, d) }
	return &diagMetricCache{m: m, d: d, sqrt: sqrt, theta: v(), g: v(), dg: v(), inv: v(), isq: v(), nisq: v(), gamInv: v(), gamIsq: v()}
}

// prepare evaluates the metric at θ = z[:d] unless it is cached.
func (c *diagMetricCache) prepare(z []float64) error {
	th := z[:c.d]
	if c.valid && floats.Equal(th, c.theta) {
		return nil
	}
	c.valid = false
	c.m.Diag(c.g, c.dg, th)
	for i, g := range c.g {
		if !(g > 0) || math.IsInf(g, 0) {
			return &StepError{Index: i, Value: g, What: "metric not positive definite (g_i must be finite and > 0)"}
		}
	}
	if err := checkFinite(c.dg, 0, "non-finite metric derivative"); err != nil {
		return err
	}
	for i, g := range c.g {
		inv := 1 / g
		c.inv[i] = inv
		c.gamInv[i] = -c.dg[i] * inv * inv
	}
	if c.fricInv != nil {
		for i, w := range c.inv {
			c.fricInv[i] = c.fric * w
		}
	}
	if c.sqrt {
		for i, g := range c.g {
			isq := 1 / math.Sqrt(g)
			c.isq[i] = isq
			c.nisq[i] = -isq
			c.gamIsq[i] = -0.5 * c.dg[i] * c.inv[i] * isq
		}
	}
	copy(c.theta, th)
	c.valid = true
	return nil
}

// denseMetricCache evaluates a DenseMetric once per distinct θ and derives
// G⁻¹, G^(−1/2) and Γ_i = Σ_j ∂_j f(G)_ij for f(λ) = λ^p, p = −1 or −1/2,
// by the Daleckii–Krein formula ∂f(G) = V (F ∘ (Vᵀ ∂G V)) Vᵀ with F the
// divided differences of f at the eigenvalues of G = V Λ Vᵀ. It calls
// LAPACK and BLAS directly on preallocated storage: no allocation per step.
type denseMetricCache struct {
	m     DenseMetric
	d     int
	p     float64
	theta []float64
	valid bool
	g     *mat.SymDense
	dg    []*mat.SymDense
	inv   *mat.SymDense // G⁻¹
	isqrt *mat.SymDense // G^(−1/2)
	gamma []float64
	vecs  []float64 // d×d eigenvectors V in columns
	vals  []float64
	work  []float64 // Syev workspace
	dd    []float64 // d×d divided differences
	t     []float64 // d×d
	tmp   []float64 // d×d
	w     []float64
}

func newDenseMetricCache(m DenseMetric, d int, p float64) *denseMetricCache {
	sq := func() []float64 { return make([]float64, d*d) }
	c := &denseMetricCache{m: m, d: d, p: p, theta: make([]float64, d),
		g: mat.NewSymDense(d, nil), dg: make([]*mat.SymDense, d),
		inv: mat.NewSymDense(d, nil), isqrt: mat.NewSymDense(d, nil),
		gamma: make([]float64, d), vals: make([]float64, d),
		vecs: sq(), dd: sq(), t: sq(), tmp: sq(), w: make([]float64, d)}
	for k := range c.dg {
		c.dg[k] = mat.NewSymDense(d, nil)
	}
	q := []float64{0}
	lapack64.Syev(lapack.EVCompute, blas64.Symmetric{Uplo: blas.Upper, N: d, Stride: d, Data: c.vecs}, c.vals, q, -1)
	c.work = make([]float64, max(int(q[0]), 3*d))
	return c
}

func (c *denseMetricCache) prepare(z []float64) error {
	th := z[:c.d]
	if c.valid && floats.Equal(th, c.theta) {
		return nil
	}
	c.valid = false
	d := c.d
	c.m.Dense(c.g, c.dg, th)
	raw := c.g.RawSymmetric()
	for i := range d {
		for j := i; j < d; j++ {
			v := raw.Data[i*raw.Stride+j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &StepError{Index: i, Value: v, What: "non-finite metric"}
			}
			c.vecs[i*d+j] = v
		}
	}
	if !lapack64.Syev(lapack.EVCompute, blas64.Symmetric{Uplo: blas.Upper, N: d, Stride: d, Data: c.vecs}, c.vals, c.work, len(c.work)) {
		return &StepError{Index: -1, Value: math.NaN(), What: "metric eigendecomposition failed"}
	}
	for a, l := range c.vals {
		if !(l > 0) {
			return &StepError{Index: a, Value: l, What: "metric not positive definite (eigenvalue)"}
		}
	}
	V := c.vecs
	// f(G) for both powers.
	for i := range d {
		for j := i; j < d; j++ {
			var si, sq float64
			for a, l := range c.vals {
				v := V[i*d+a] * V[j*d+a]
				si += v / l
				sq += v / math.Sqrt(l)
			}
			c.inv.SetSym(i, j, si)
			c.isqrt.SetSym(i, j, sq)
		}
	}
	// Divided differences of f(λ) = λ^p, in forms exact for equal λ.
	for a, la := range c.vals {
		for b, lb := range c.vals {
			var f float64
			if c.p == -1 {
				f = -1 / (la * lb)
			} else {
				sa, sb := math.Sqrt(la), math.Sqrt(lb)
				f = -1 / (sa * sb * (sa + sb))
			}
			c.dd[a*d+b] = f
		}
	}
	// Γ_i = Σ_j [V (F ∘ Vᵀ ∂_jG V) Vᵀ]_ij = Σ_j [V (F ∘ T_j) V[j,:]ᵀ]_i.
	gen := func(x []float64) blas64.General { return blas64.General{Rows: d, Cols: d, Stride: d, Data: x} }
	clear(c.gamma)
	for j := range d {
		if isZeroSym(c.dg[j]) {
			continue // a constant metric costs O(d³), not O(d⁴)
		}
		blas64.Symm(blas.Left, 1, c.dg[j].RawSymmetric(), gen(V), 0, gen(c.tmp))
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, gen(V), gen(c.tmp), 0, gen(c.t))
		for k := range c.t {
			c.t[k] *= c.dd[k]
		}
		for a := range d {
			var s float64
			for b := range d {
				s += c.t[a*d+b] * V[j*d+b]
			}
			c.w[a] = s
		}
		for i := range d {
			var s float64
			for a := range d {
				s += V[i*d+a] * c.w[a]
			}
			c.gamma[i] += s
		}
	}
	if err := checkFinite(c.gamma, 0, "non-finite metric correction Γ"); err != nil {
		return err
	}
	copy(c.theta, th)
	c.valid = true
	return nil
}

// symView is the operator sign·M for a matrix M kept current by a cache.
type symView struct {
	m    *mat.SymDense
	sign float64
}

func (s symView) Dims() (int, int) { n := s.m.SymmetricDim(); return n, n }

func (s symView) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	n := s.m.SymmetricDim()
	for i := lo; i < hi; i++ {
		var v float64
		for j := range n {
			v += s.m.At(i, j) * x[j]
		}
		dst[i] += alpha * s.sign * v
	}
}

func (s symView) NonZero(int, int, int, int) bool { return true }

// isZeroSym reports whether every entry of m is zero.
func isZeroSym(m *mat.SymDense) bool {
	raw := m.RawSymmetric()
	for i := range raw.N {
		for _, v := range raw.Data[i*raw.Stride+i : i*raw.Stride+raw.N] {
			if v != 0 {
				return false
			}
		}
	}
	return true
}
