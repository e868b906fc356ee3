// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/mat"
)

// whitening is θ = shift + L z with a dense lower-triangular or diagonal
// L; on the large-d path the diagonal may carry a low-rank factor,
// L = diag(σ)(I + U diag(c) Uᵀ) (lowRank, large.go).
type whitening struct {
	shift []float64
	lower *mat.TriDense // nil when diagonal
	diag  []float64
	lr    *lowRank // nil unless diagonal with a low-rank factor
}

func (w *whitening) affine(g sgmcmc.Gradient) (*sgmcmc.Affine, error) {
	if w.lower != nil {
		d := len(w.shift)
		raw := w.lower.RawTriangular()
		l := make([]float64, d*d)
		for i := range d {
			copy(l[i*d:i*d+i+1], raw.Data[i*raw.Stride:i*raw.Stride+i+1])
		}
		return sgmcmc.NewAffine(g, w.shift, l, nil)
	}
	if w.lr != nil {
		return sgmcmc.NewAffineLowRank(g, w.shift, w.diag, w.lr.u, w.lr.c)
	}
	return sgmcmc.NewAffine(g, w.shift, nil, w.diag)
}

// moved returns w re-centred at shift, with the same L.
func (w *whitening) moved(shift []float64) *whitening {
	return &whitening{shift: shift, lower: w.lower, diag: w.diag, lr: w.lr}
}

// fromCov returns the whitening of covariance p (dense: its Cholesky
// factor; diagonal: square roots of its diagonal) centred at shift.
func fromCov(shift []float64, p sym) (*whitening, error) {
	w := &whitening{shift: append([]float64(nil), shift...)}
	d := len(shift)
	if p.m != nil {
		var ch mat.Cholesky
		if !ch.Factorize(p.m) {
			return nil, fmt.Errorf("preconditioner not positive definite")
		}
		var l mat.TriDense
		ch.LTo(&l)
		w.lower = &l
		return w, nil
	}
	w.diag = make([]float64, d)
	for i := range d {
		w.diag[i] = math.Sqrt(p.v[i])
		if !(w.diag[i] > 0) || math.IsInf(w.diag[i], 0) {
			return nil, fmt.Errorf("preconditioner not positive definite (variance %v of θ_%d)", p.v[i], i)
		}
	}
	return w, nil
}

// toZ maps θ to z = L⁻¹(θ − shift).
func (w *whitening) toZ(theta []float64) []float64 {
	d := len(theta)
	z := make([]float64, d)
	if w.lower == nil {
		a, _ := w.affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
		a.ToZ(z, theta)
		return z
	}
	for i := range z {
		z[i] = theta[i] - w.shift[i]
	}
	zv := mat.NewVecDense(d, z)
	if err := zv.SolveVec(w.lower, zv); err != nil {
		return make([]float64, d) // singular L: take the shift
	}
	return z
}

// toTheta maps z to θ.
func (w *whitening) toTheta(z []float64) []float64 {
	a, _ := w.affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
	th := make([]float64, len(z))
	a.ToTheta(th, z)
	return th
}

// thetaCov returns the whitened covariance a in θ: L a Lᵀ (before any
// low-rank factor is added).
func (w *whitening) thetaCov(a sym) sym {
	d := len(w.shift)
	if a.m == nil {
		out := make([]float64, d)
		for i, v := range w.diag {
			out[i] = v * a.v[i] * v
		}
		return sym{v: out}
	}
	l := mat.NewDense(d, d, nil)
	if w.lower != nil {
		l.Copy(w.lower)
	} else {
		for i, v := range w.diag {
			l.Set(i, i, v)
		}
	}
	var t mat.Dense
	t.Mul(l, a.m)
	var out mat.Dense
	out.Mul(&t, l.T())
	s := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(out.At(i, j)+out.At(j, i)))
		}
	}
	return sym{m: s}
}

// reexpressDense returns Tᵀ A T for dense A and T.
func reexpressDense(h *mat.SymDense, t *mat.Dense) *mat.SymDense {
	d := h.SymmetricDim()
	var m1, m2 mat.Dense
	m1.Mul(t.T(), h)
	m2.Mul(&m1, t)
	s := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(m2.At(i, j)+m2.At(j, i)))
		}
	}
	return s
}

// meanInverse returns the regularised inverse of the mean of the
// Hessians hs (all in the same coordinates), or false if it has none.
func meanInverse(hs []sym) (sym, bool) {
	return meanSym(hs).inverse(eigFloor)
}

// transition returns L_old⁻¹ L_new (neither with a low-rank factor).
func transition(old, nw *whitening) transform {
	d := len(old.shift)
	if nw.lower == nil {
		t := make([]float64, d)
		for i := range d {
			t[i] = nw.diag[i] / old.diag[i]
		}
		return transform{v: t}
	}
	ln := mat.NewDense(d, d, nil)
	lo := mat.NewDense(d, d, nil)
	ln.Copy(nw.lower)
	lo.Copy(old.lower)
	var t mat.Dense
	if err := t.Solve(lo, ln); err != nil {
		t.Copy(ln)
	}
	return transform{m: &t}
}

// rewhiten returns the whitening by the regularised inverse of the
// curvature h (in w's coordinates) centred at w's shift, and that
// inverse. A curvature that cannot be inverted is a fault; a whitening
// that fails along a flat direction is ErrImproper (flat.go).
func (e *chainEnv) rewhiten(w *whitening, h sym) (*whitening, sym, error) {
	inv, ok := h.inverse(eigFloor)
	if !ok {
		return nil, sym{}, e.fault(w, "the curvature")
	}
	nw, err := fromCov(w.shift, w.thetaCov(inv))
	if err != nil {
		if dir := flatDirection([]sym{h}, w); dir != nil {
			return nil, sym{}, improperError(dir, e.names)
		}
		return nil, sym{}, valid.Errorf(nil, "Sample: warmup: %w", err)
	}
	return nw, inv, nil
}
