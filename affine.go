// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Affine is a Gradient in whitened coordinates z, with θ = Shift + L·z for
// a lower-triangular (dense) or diagonal L:
//
//	∇_z Ũ(z) = Lᵀ ∇_θ Ũ(Shift + L z).
//
// Running a sampler on an Affine gradient is running it with a constant
// preconditioner: SGLD on z with D = I is SGLD on θ with D = L Lᵀ, SGHMC on
// z with M = I is SGHMC on θ with the mass matrix (L Lᵀ)⁻¹. sample.Run adapts
// Shift and L during warmup and runs every method this way; build one by
// hand with the adapted values to reproduce sample.Run's chains exactly.
//
// Affine forwards SameBatchGradient, so HAMCMC's curvature pairs stay on
// one batch. It is not safe for concurrent use.
type Affine struct {
	grad  Gradient
	sb    SameBatchGradient
	d     int
	shift []float64
	lower []float64 // d×d row-major lower triangle, or nil
	diag  []float64 // d diagonal, or nil
	th, g []float64
	// With diag, an optional low-rank factor (NewAffineLowRank):
	// L = diag(I + U diag(c) Uᵀ), u column-major (column j at
	// [j·d, (j+1)·d)), kb of length k.
	u, c, kb []float64
	k        int
}

var _ SameBatchGradient = (*Affine)(nil)

// NewAffine returns the whitened gradient of grad with θ = shift + L z.
// Exactly one of lower (d×d, row-major, lower-triangular; the upper
// triangle is ignored) and diag (length d, nonzero) must be given; shift
// has length d. The slices are copied.
func NewAffine(grad Gradient, shift, lower, diag []float64) (*Affine, error) {
	if isNil(grad) {
		return nil, errorf(ErrNil, "NewAffine: nil gradient")
	}
	d := len(shift)
	if d == 0 {
		return nil, errorf(ErrDimension, "NewAffine: empty shift")
	}
	if dg, ok := grad.(interface{ Dim() int }); ok && dg.Dim() != d {
		return nil, errorf(ErrDimension, "NewAffine: the gradient has dimension %d, shift has length %d", dg.Dim(), d)
	}
	if err := checkVector("NewAffine", "shift", shift, d, anyFinite); err != nil {
		return nil, err
	}
	a := &Affine{grad: grad, d: d, shift: append([]float64(nil), shift...), th: make([]float64, d), g: make([]float64, d)}
	switch {
	case (lower == nil) == (diag == nil):
		return nil, errorf(ErrUnsupported, "NewAffine: give exactly one of lower and diag")
	case lower != nil:
		if err := checkMemory("NewAffine", fmt.Sprintf("a copy of lower (%d × %d)", d, d), floatBytes(d, d), 0); err != nil {
			return nil, err
		}
		if err := checkVector("NewAffine", "lower", lower, d*d, anyFinite); err != nil {
			return nil, err
		}
		a.lower = make([]float64, d*d)
		for i := range d {
			if lower[i*d+i] == 0 {
				return nil, errorf(ErrRange, "NewAffine: lower[%d,%d] = 0, want a nonsingular L", i, i)
			}
			copy(a.lower[i*d:i*d+i+1], lower[i*d:i*d+i+1])
		}
	default:
		if err := checkVector("NewAffine", "diag", diag, d, anyFinite); err != nil {
			return nil, err
		}
		for i, v := range diag {
			if v == 0 {
				return nil, errorf(ErrRange, "NewAffine: diag[%d] = 0, want a nonsingular L", i)
			}
		}
		a.diag = append([]float64(nil), diag...)
	}
	a.sb, _ = grad.(SameBatchGradient)
	return a, nil
}

// Dim returns d.
func (a *Affine) Dim() int { return a.d }

// ToTheta writes θ = Shift + L z into dst.
func (a *Affine) ToTheta(dst, z []float64) {
	if a.k > 0 {
		a.lowRankTheta(dst, z)
		return
	}
	if a.diag != nil {
		for i, s := range a.shift {
			dst[i] = s + a.diag[i]*z[i]
		}
		return
	}
	if &dst[0] != &z[0] {
		copy(dst, z)
	}
	blas64.Trmv(blas.NoTrans, a.tri(), blas64.Vector{N: a.d, Inc: 1, Data: dst})
	for i, s := range a.shift {
		dst[i] += s
	}
}

// ToZ writes z = L⁻¹(θ − Shift) into dst.
func (a *Affine) ToZ(dst, theta []float64) {
	for i, s := range a.shift {
		dst[i] = theta[i] - s
	}
	if a.diag != nil {
		for i, v := range a.diag {
			dst[i] /= v
		}
		if a.k > 0 {
			a.lowRankSolve(dst)
		}
		return
	}
	blas64.Trsv(blas.NoTrans, a.tri(), blas64.Vector{N: a.d, Inc: 1, Data: dst})
}

func (a *Affine) tri() blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: a.d, Stride: a.d, Data: a.lower}
}

// pull writes Lᵀ a.g into dst.
func (a *Affine) pull(dst []float64) {
	if a.diag != nil {
		for i, v := range a.diag {
			dst[i] = v * a.g[i]
		}
		if a.k > 0 {
			a.lowRankMul(dst)
		}
		return
	}
	copy(dst, a.g)
	blas64.Trmv(blas.Trans, a.tri(), blas64.Vector{N: a.d, Inc: 1, Data: dst})
}

// Grad writes ∇_z Ũ(z) = Lᵀ ∇_θ Ũ(Shift + L z) into dst.
func (a *Affine) Grad(dst, z []float64) {
	a.ToTheta(a.th, z)
	a.grad.Grad(a.g, a.th)
	a.pull(dst)
}

// NewBatch draws a new batch of the underlying gradient if it implements
// SameBatchGradient; otherwise it does nothing.
func (a *Affine) NewBatch() {
	if a.sb != nil {
		a.sb.NewBatch()
	}
}

// GradSameBatch evaluates on the underlying gradient's current batch when
// it implements SameBatchGradient, and calls Grad otherwise.
func (a *Affine) GradSameBatch(dst, z []float64) {
	if a.sb == nil {
		a.Grad(dst, z)
		return
	}
	a.ToTheta(a.th, z)
	a.sb.GradSameBatch(a.g, a.th)
	a.pull(dst)
}
