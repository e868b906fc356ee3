// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// A low-rank-plus-diagonal preconditioner (doc/adaptation.md §4.1): the
// covariance diag(σ)(I + U diag(λ) Uᵀ)diag(σ) with U a d×k matrix of
// orthonormal columns, held in O(kd) memory and applied in O(kd) work. It
// appears twice: as a Diffusion of the recipe (LowRankDiag), and as the
// whitening sample.Run uses above DenseMax (NewAffineLowRank), where the k
// directions are the whitened curvature's extreme eigenvectors found by
// the Lanczos process.

// maxLowRank is the largest rank k of a low-rank factor: the operators
// keep k-vectors on the stack.
const maxLowRank = 64

// checkLowRank validates U (d×k row-major, orthonormal columns to 1e-8)
// and the k scales with lo < c_j (finite).
func checkLowRank(who string, d int, u, c []float64, lo float64) error {
	k := len(c)
	if k == 0 || k > maxLowRank {
		return errorf(ErrRange, "%s: rank %d, want in [1, %d]", who, k, maxLowRank)
	}
	if len(u) != d*k {
		return errorf(ErrDimension, "%s: u has %d entries, want d·k = %d·%d", who, len(u), d, k)
	}
	if err := checkVector(who, "u", u, d*k, anyFinite); err != nil {
		return err
	}
	for j, v := range c {
		if !(v > lo) || math.IsInf(v, 0) {
			return errorf(ErrRange, "%s: scale %d = %v, want finite and > %v", who, j, v, lo)
		}
	}
	for a := range k {
		for b := a; b < k; b++ {
			var s float64
			for i := range d {
				s += u[i*k+a] * u[i*k+b]
			}
			want := 0.0
			if a == b {
				want = 1
			}
			if math.Abs(s-want) > 1e-8 {
				return errorf(ErrRange, "%s: columns %d and %d of u have inner product %.3g, want orthonormal columns", who, a, b, s)
			}
		}
	}
	return nil
}

// colMajor returns the d×k row-major u in column-major order (column j
// at [j·d, (j+1)·d)), where the products below are dot products and
// axpys over contiguous columns.
func colMajor(u []float64, d, k int) []float64 {
	t := make([]float64, d*k)
	for i := range d {
		for j := range k {
			t[j*d+i] = u[i*k+j]
		}
	}
	return t
}

// utMul writes Uᵀx into dst (k) for a column-major U.
func utMul(dst, ut, x []float64) {
	d := len(x)
	for j := range dst {
		dst[j] = floats.Dot(ut[j*d:(j+1)*d], x)
	}
}

// uAdd adds U y to dst for a column-major U.
func uAdd(dst, ut, y []float64) {
	d := len(dst)
	for j, v := range y {
		floats.AddScaled(dst, v, ut[j*d:(j+1)*d])
	}
}

// rowsUt writes Uᵀx into dst (k) for a row-major d×k U.
func rowsUt(dst, u, x []float64) {
	k := len(dst)
	clear(dst)
	for i, xi := range x {
		for j, v := range u[i*k : i*k+k] {
			dst[j] += v * xi
		}
	}
}

// uDot returns row i of the row-major U times y.
func uDot(u []float64, i int, y []float64) float64 {
	k := len(y)
	var s float64
	for j, v := range u[i*k : i*k+k] {
		s += v * y[j]
	}
	return s
}

// NewAffineLowRank returns the whitened gradient of grad with
// θ = shift + L z for L = diag(σ)(I + U diag(c) Uᵀ): the preconditioner
// L Lᵀ = diag(σ)(I + U diag((1+c)² − 1) Uᵀ)diag(σ) scales the whitened
// direction u_j by (1+c_j)². u holds U row-major (u[i·k+j] = U_ij, d×k),
// with orthonormal columns; each c_j > −1; k = len(c) at most 64; σ = diag
// nonzero. Mapping z to θ, θ to z and pulling a gradient back cost O(kd)
// and allocate nothing. The slices are copied.
func NewAffineLowRank(grad Gradient, shift, diag, u, c []float64) (*Affine, error) {
	a, err := NewAffine(grad, shift, nil, diag)
	if err != nil {
		return nil, err
	}
	if err := checkLowRank("NewAffineLowRank", a.d, u, c, -1); err != nil {
		return nil, err
	}
	a.k = len(c)
	a.u, a.c, a.kb = colMajor(u, a.d, a.k), append([]float64(nil), c...), make([]float64, len(c))
	return a, nil
}

// lowRankTheta writes θ = shift + diag(σ)(z + U c ⊙ Uᵀz) into dst (dst
// may be z).
func (a *Affine) lowRankTheta(dst, z []float64) {
	utMul(a.kb, a.u, z)
	for j, c := range a.c {
		a.kb[j] *= c
	}
	if &dst[0] != &z[0] {
		copy(dst, z)
	}
	uAdd(dst, a.u, a.kb)
	for i, s := range a.shift {
		dst[i] = s + a.diag[i]*dst[i]
	}
}

// lowRankSolve replaces y by (I + U diag(c) Uᵀ)⁻¹ y = y − U (c/(1+c) ⊙ Uᵀy).
func (a *Affine) lowRankSolve(y []float64) {
	utMul(a.kb, a.u, y)
	for j, c := range a.c {
		a.kb[j] *= -c / (1 + c)
	}
	uAdd(y, a.u, a.kb)
}

// lowRankMul replaces x by (I + U diag(c) Uᵀ) x.
func (a *Affine) lowRankMul(x []float64) {
	utMul(a.kb, a.u, x)
	for j, c := range a.c {
		a.kb[j] *= c
	}
	uAdd(x, a.u, a.kb)
}

// LowRankDiag is the diffusion D = diag(A) + U diag(S) Uᵀ of size d×d: a
// diagonal plus k ≤ 64 directions (the columns of U, d×k row-major, need
// not be orthonormal) with weights S ≥ 0. Applying it costs O(kd), and so
// does its noise, √ε(√(2A − εb) ⊙ ξ + U(√(2S) ⊙ ξ′)) with ξ (d) and ξ′
// (k) standard normals drawn in that order: covariance exactly
// ε(2D − ε diag(b)). Neither allocates. The fields are read at every use.
type LowRankDiag struct {
	A, U, S []float64
}

// NewLowRankDiag returns the operator diag(a) + U diag(s) Uᵀ, checking
// that a ≥ 0 and s ≥ 0 are finite, u has len(a)·len(s) entries and the
// rank is in [1, 64]. The slices are not copied.
func NewLowRankDiag(a, u, s []float64) (*LowRankDiag, error) {
	d, k := len(a), len(s)
	if d == 0 {
		return nil, errorf(ErrDimension, "NewLowRankDiag: empty diagonal")
	}
	if k == 0 || k > maxLowRank {
		return nil, errorf(ErrRange, "NewLowRankDiag: rank %d, want in [1, %d]", k, maxLowRank)
	}
	if len(u) != d*k {
		return nil, errorf(ErrDimension, "NewLowRankDiag: u has %d entries, want d·k = %d·%d", len(u), d, k)
	}
	if err := checkVector("NewLowRankDiag", "a", a, d, nonNegative); err != nil {
		return nil, err
	}
	if err := checkVector("NewLowRankDiag", "s", s, k, nonNegative); err != nil {
		return nil, err
	}
	if err := checkVector("NewLowRankDiag", "u", u, d*k, anyFinite); err != nil {
		return nil, err
	}
	return &LowRankDiag{A: a, U: u, S: s}, nil
}

var _ Diffusion = (*LowRankDiag)(nil)

// Dims returns (d, d).
func (l *LowRankDiag) Dims() (int, int) { return len(l.A), len(l.A) }

// NonZero reports true: U mixes every coordinate.
func (l *LowRankDiag) NonZero(int, int, int, int) bool { return true }

// AddMulVec adds alpha·(D x)[lo:hi] to dst[lo:hi]. Each call forms Uᵀx
// over all of x (O(kd)).
func (l *LowRankDiag) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	var buf [maxLowRank]float64
	k := len(l.S)
	y := buf[:k]
	rowsUt(y, l.U, x)
	for j, s := range l.S {
		y[j] *= s
	}
	for i := lo; i < hi; i++ {
		dst[i] += alpha * (l.A[i]*x[i] + uDot(l.U, i, y))
	}
}

// Noise draws N(0, ε(2D − ε diag(b))) as the diagonal part's noise, one
// normal per coordinate in order (as Diagonal), plus U(√(2εS) ⊙ ξ′) from k
// more normals. The correction εb is taken from the diagonal part alone:
// a coordinate with 2A_i < εb_i is a *NotPSDError.
func (l *LowRankDiag) Noise(dst, _ []float64, eps float64, b []float64, g *rng.Normal) error {
	if err := diagNoise(dst, eps, b, g, l.A, 0); err != nil {
		return err
	}
	var buf [maxLowRank]float64
	k := len(l.S)
	y := buf[:k]
	g.Fill(y)
	for j, s := range l.S {
		y[j] *= math.Sqrt(2 * eps * s)
	}
	for i := range dst {
		dst[i] += uDot(l.U, i, y)
	}
	return nil
}
