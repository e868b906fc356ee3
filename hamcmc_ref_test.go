// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// The dense references of HAMCMC's tests, as internal/lbfgs's tests have
// them.

// randSPD returns a random symmetric positive definite d×d matrix with
// eigenvalues in [lo, hi].
func randSPD(rng *rand.Rand, d int, lo, hi float64) *mat.SymDense {
	q := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			q.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(q)
	var o mat.Dense
	qr.QTo(&o)
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

// denseLBFGS is the reference: the recursion
// H^m = (I − ρ s yᵀ) H^(m−1) (I − ρ y sᵀ) + ρ s sᵀ built explicitly.
type denseLBFGS struct {
	d int
	h *mat.Dense
}

func (r *denseLBFGS) update(s, y []float64) {
	d := r.d
	sv, yv := mat.NewVecDense(d, s), mat.NewVecDense(d, y)
	rho := 1 / mat.Dot(sv, yv)
	v := mat.NewDense(d, d, nil) // I − ρ y sᵀ
	v.Outer(-rho, yv, sv)
	for i := range d {
		v.Set(i, i, v.At(i, i)+1)
	}
	var t, h mat.Dense
	t.Mul(v.T(), r.h)
	h.Mul(&t, v)
	var ss mat.Dense
	ss.Outer(rho, sv, sv)
	h.Add(&h, &ss)
	r.h = &h
}
