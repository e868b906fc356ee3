// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/transform"
)

// A correlated factor (Group.Correlated) of e effects has, besides its e
// sds, the e(e−1)/2 strictly lower entries of L, the Cholesky factor of
// its effects' correlation matrix Ω = LLᵀ, stored row by row (L₁₀, L₂₀,
// L₂₁, L₃₀, …); each row's diagonal entry is L_aa = √(1 − Σ_{b<a} L_ab²),
// so that every row of L has norm 1. A level's effects are
//
//	r_j = diag(sd)·L·z_j,   z_j ~ N(0, I),
//
// non-centred at every level, and L ~ LKJCholesky(η), Stan's
// lkj_corr_cholesky: log p(L) = log c_e(η) + Σ_{a≥1} (e − a − 1 + 2η − 2) log L_aa
// (a 0-based), c_e(η) the normalising constant of Lewandowski, Kurowicka
// & Joe (2009). Problem samples L through cholCorr, Stan's transform.

// rowOff is the offset of row a's strictly lower entries in L's storage.
func rowOff(a int) int { return a * (a - 1) / 2 }

// lkjLogConst returns log c_e(η), the LKJ density's normalising constant
// (Lewandowski, Kurowicka & Joe 2009, §3.2): the density of Ω is
// det(Ω)^{η−1}/C with C = Π_{k=1}^{e−1} [2^{2η−2+e−k} B(η + (e−k−1)/2,
// η + (e−k−1)/2)]^{e−k}, and this returns −log C.
func lkjLogConst(eta float64, e int) float64 {
	var lc float64
	for k := 1; k < e; k++ {
		a := eta + float64(e-k-1)/2
		la, _ := math.Lgamma(a)
		l2a, _ := math.Lgamma(2 * a)
		lbeta := 2*la - l2a
		lc += float64(e-k) * ((2*eta-2+float64(e-k))*math.Ln2 + lbeta)
	}
	return -lc
}

// corEta returns the correlated factor q's part of row i's η at x, z its
// level's standardised effects: Σ_a v_a sd_a (Lz)_a.
func (q *group) corEta(m *Model, x, z []float64, i int) float64 {
	var s float64
	for a := range q.e {
		off := q.corOff + rowOff(a)
		var t, ss float64
		for b, l := range x[off : off+a] {
			t += l * z[b]
			ss += l * l
		}
		t += math.Sqrt(1-ss) * z[a]
		r := x[q.sdOff+a] * t
		if a > 0 {
			r *= m.value(i, q.slopes[a-1])
		}
		s += r
	}
	return s
}

// corGrad adds g·∂η_i/∂x over the correlated factor q to dst, at the
// level's effects at: into z, the sds and L's free entries (L_aa moving
// with them: ∂L_aa/∂L_ab = −L_ab/L_aa).
func (q *group) corGrad(m *Model, dst, x []float64, i, at int, g float64) {
	z := x[at : at+q.e]
	for a := range q.e {
		v := g
		if a > 0 {
			v *= m.value(i, q.slopes[a-1])
		}
		off := q.corOff + rowOff(a)
		row := x[off : off+a]
		var t, ss float64
		for b, l := range row {
			t += l * z[b]
			ss += l * l
		}
		laa := math.Sqrt(1 - ss)
		t += laa * z[a]
		dst[q.sdOff+a] += v * t
		c := v * x[q.sdOff+a]
		for b, l := range row {
			dst[at+b] += c * l
			dst[off+b] += c * (z[b] - z[a]*l/laa)
		}
		dst[at+a] += c * laa
	}
}

// lkjLogPrior returns log LKJCholesky(L | η) at x, adding its gradient in
// L's free entries to dst if dst is not nil. Outside the set (a row of
// norm ≥ 1) it is −∞.
func (q *group) lkjLogPrior(dst, x []float64) float64 {
	lp := q.lkjConst
	for a := 1; a < q.e; a++ {
		off := q.corOff + rowOff(a)
		row := x[off : off+a]
		var ss float64
		for _, l := range row {
			ss += l * l
		}
		c := float64(q.e-a-1) + 2*q.eta - 2
		d := 1 - ss
		if !(d > 0) {
			return math.Inf(-1)
		}
		lp += c * 0.5 * math.Log(d)
		if dst != nil {
			for b, l := range row {
				dst[off+b] -= c * l / d
			}
		}
	}
	return lp
}

// corNatural writes into dst the correlated factor q's natural
// parameters at x: each level's r_j = diag(sd)·L·z_j, and the
// correlations Ω_ab = Σ_k L_ak L_bk (a > b) in place of L's entries. dst
// may be x.
func (q *group) corNatural(dst, x []float64) {
	e := q.e
	L := make([]float64, e*e) // row-major, lower triangle
	for a := range e {
		off := q.corOff + rowOff(a)
		var ss float64
		for b, l := range x[off : off+a] {
			L[a*e+b] = l
			ss += l * l
		}
		L[a*e+a] = math.Sqrt(1 - ss)
	}
	z := make([]float64, e)
	for j := range q.k {
		at := q.uOff + j*e
		copy(z, x[at:at+e])
		for a := range e {
			var t float64
			for b := 0; b <= a; b++ {
				t += L[a*e+b] * z[b]
			}
			dst[at+a] = x[q.sdOff+a] * t
		}
	}
	for a := 1; a < e; a++ {
		for b := range a {
			var w float64
			for k := 0; k <= b; k++ {
				w += L[a*e+k] * L[b*e+k]
			}
			dst[q.corOff+rowOff(a)+b] = w
		}
	}
}

// cholCorr maps e(e−1)/2 unconstrained coordinates y onto the strictly
// lower entries of a correlation matrix's Cholesky factor L, as Stan's
// cholesky_factor_corr: the canonical partial correlations are tanh y,
// and row a's entries are L_ab = tanh(y_ab)·w_ab, w_a0 = 1, w_a,b+1 =
// w_ab·√(1 − tanh² y_ab) = √(1 − Σ_{c≤b} L_ac²). Its log-Jacobian is
// Stan's, Σ log(1 − tanh² y) + ½ Σ_a Σ_{1≤b<a} log(1 − Σ_{c<b} L_ac²) =
// Σ_{a>b} (1 + (a − 1 − b)/2)·log(1 − tanh² y_ab).
type cholCorr struct{ e int }

// FreeDim returns n, which must be e(e−1)/2.
func (t cholCorr) FreeDim(n int) (int, error) {
	if t.e < 2 || n != rowOff(t.e) {
		return 0, errorf(sgmcmc.ErrDimension, "cholCorr: %d coordinates for a %d×%d correlation matrix, want %d", n, t.e, t.e, rowOff(t.e))
	}
	return n, nil
}

// logSech2 returns log(1 − tanh² y) = 2 log sech y, without cancellation.
func logSech2(y float64) float64 {
	a := math.Abs(y)
	return 2 * (math.Ln2 - a - math.Log1p(math.Exp(-2*a)))
}

// Constrain writes L's entries and returns the log-Jacobian.
func (t cholCorr) Constrain(x, y []float64) float64 {
	var lj float64
	for a := 1; a < t.e; a++ {
		off := rowOff(a)
		w := 1.0
		for b := range a {
			v := y[off+b]
			x[off+b] = math.Tanh(v) * w
			w /= math.Cosh(v)
			lj += (1 + 0.5*float64(a-1-b)) * logSech2(v)
		}
	}
	return lj
}

// Unconstrain inverts Constrain: y_ab = atanh(L_ab/w_ab).
func (t cholCorr) Unconstrain(y, x []float64) error {
	for a := 1; a < t.e; a++ {
		off := rowOff(a)
		var ss float64
		for b := range a {
			l := x[off+b]
			d := 1 - ss
			if math.IsNaN(l) || !(d > 0) || math.Abs(l) >= math.Sqrt(d) {
				return errorf(sgmcmc.ErrRange, "Cholesky factor entry %d = %v: row %d's entries' squares sum to 1 or more", off+b, l, a)
			}
			y[off+b] = math.Atanh(l / math.Sqrt(d))
			ss += l * l
		}
	}
	return nil
}

// Pullback adds Jᵀg to dy: ∂L_ab/∂y_ab = w_ab(1 − tanh² y_ab), and for
// c > b ∂L_ac/∂y_ab = −tanh(y_ab)·L_ac.
func (t cholCorr) Pullback(dy, y, x, g []float64) {
	for a := 1; a < t.e; a++ {
		off := rowOff(a)
		var tail float64 // Σ_{c>b} g_ac L_ac
		for b := a - 1; b >= 0; b-- {
			v := y[off+b]
			ch := math.Cosh(v)
			w := 1.0 // w_ab = Π_{c<b} sech y_ac
			for c := range b {
				w /= math.Cosh(y[off+c])
			}
			dy[off+b] += g[off+b]*w/(ch*ch) - math.Tanh(v)*tail
			tail += g[off+b] * x[off+b]
		}
	}
}

// LogJacobianGrad adds −2 tanh(y_ab)·(1 + (a − 1 − b)/2) to dy.
func (t cholCorr) LogJacobianGrad(dy, y, _ []float64) {
	for a := 1; a < t.e; a++ {
		off := rowOff(a)
		for b := range a {
			dy[off+b] -= 2 * math.Tanh(y[off+b]) * (1 + 0.5*float64(a-1-b))
		}
	}
}

var _ transform.Transform = cholCorr{}
