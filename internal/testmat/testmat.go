// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package testmat holds the random matrices and dense references that the
// tests of several packages share: random orthogonal and symmetric
// positive definite matrices, and the L-BFGS inverse-Hessian recursion
// built explicitly.
package testmat

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// RandOrthogonal returns a random d×d orthogonal matrix, the Q factor of a
// matrix of standard normals.
func RandOrthogonal(rng *rand.Rand, d int) *mat.Dense {
	g := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return &q
}

// RandSPD returns a random symmetric positive definite d×d matrix with
// eigenvalues drawn uniformly in [lo, hi] and random eigenvectors.
func RandSPD(rng *rand.Rand, d int, lo, hi float64) *mat.SymDense {
	o := RandOrthogonal(rng, d)
	a := mat.NewSymDense(d, nil)
	for k := range d {
		l := lo + (hi-lo)*rng.Float64()
		for i := range d {
			for j := i; j < d; j++ {
				a.SetSym(i, j, a.At(i, j)+l*o.At(i, k)*o.At(j, k))
			}
		}
	}
	return a
}

// DenseLBFGS is the reference L-BFGS inverse Hessian: the recursion
// H^m = (I − ρ s yᵀ) H^(m−1) (I − ρ y sᵀ) + ρ s sᵀ built explicitly.
type DenseLBFGS struct {
	D int
	H *mat.Dense
}

// NewDenseLBFGS returns the recursion started at H⁰ = γI.
func NewDenseLBFGS(d int, gamma float64) *DenseLBFGS {
	h := mat.NewDense(d, d, nil)
	for i := range d {
		h.Set(i, i, gamma)
	}
	return &DenseLBFGS{D: d, H: h}
}

// Update applies one step of the recursion with the pair (s, y).
func (r *DenseLBFGS) Update(s, y []float64) {
	d := r.D
	sv, yv := mat.NewVecDense(d, s), mat.NewVecDense(d, y)
	rho := 1 / mat.Dot(sv, yv)
	v := mat.NewDense(d, d, nil) // I − ρ y sᵀ
	v.Outer(-rho, yv, sv)
	for i := range d {
		v.Set(i, i, v.At(i, i)+1)
	}
	var t, h mat.Dense
	t.Mul(v.T(), r.H)
	h.Mul(&t, v)
	var ss mat.Dense
	ss.Outer(rho, sv, sv)
	h.Add(&h, &ss)
	r.H = &h
}
