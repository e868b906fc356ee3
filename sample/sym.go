// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/mat"
)

// Warmup's matrices on its two paths (doc/adaptation.md §4): up to
// Settings.DenseMax dimensions a whitened Hessian, a covariance and
// the maps between whitenings are dense d × d matrices; above it they are
// their diagonals, d floats each, and nothing of size d × d is ever
// allocated. sym and transform carry either, so that each phase is
// written once; the dense branches are the dense path's arithmetic
// unchanged.

// sym is a symmetric matrix: dense (m) or diagonal (v). On the diagonal
// path a curvature also records the point θ it was measured at (at), for
// the Hessian-vector products of P5.
type sym struct {
	m  *mat.SymDense
	v  []float64
	at []float64
}

// dim returns the matrix's dimension.
func (s sym) dim() int {
	if s.m != nil {
		return s.m.SymmetricDim()
	}
	return len(s.v)
}

// mulVec writes s·x into dst.
func (s sym) mulVec(dst, x []float64) {
	if s.m != nil {
		mulSym(dst, s.m, x)
		return
	}
	for i, v := range s.v {
		dst[i] = v * x[i]
	}
}

// finite says whether every entry is finite.
func (s sym) finite() bool {
	if s.m != nil {
		return valid.FirstNonFinite(s.m.RawSymmetric().Data) < 0
	}
	return valid.FirstNonFinite(s.v) < 0
}

// inverse returns the regularised inverse (regularisedInverse): for a
// diagonal, 1/max(|h_i|, floor·max|h|).
func (s sym) inverse(floor float64) (sym, bool) {
	if s.m != nil {
		inv, _, ok := regularisedInverse(s.m, floor)
		return sym{m: inv}, ok
	}
	var top float64
	for _, h := range s.v {
		top = math.Max(top, math.Abs(h))
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return sym{}, false
	}
	inv := make([]float64, len(s.v))
	for i, h := range s.v {
		inv[i] = 1 / math.Max(math.Abs(h), floor*top)
	}
	return sym{v: inv}, true
}

// meanSym returns the mean of hs, all of one kind and dimension.
func meanSym(hs []sym) sym {
	if hs[0].m != nil {
		avg := mat.NewSymDense(hs[0].dim(), nil)
		for _, h := range hs {
			avg.AddSym(avg, h.m)
		}
		avg.ScaleSym(1/float64(len(hs)), avg)
		return sym{m: avg}
	}
	avg := make([]float64, hs[0].dim())
	for _, h := range hs {
		for i, v := range h.v {
			avg[i] += v
		}
	}
	for i := range avg {
		avg[i] /= float64(len(hs))
	}
	return sym{v: avg}
}

// blendSym returns (1 − wt)·a + wt·b.
func blendSym(a, b sym, wt float64) sym {
	if a.m != nil {
		blend := mat.NewSymDense(a.dim(), nil)
		blend.ScaleSym(1-wt, a.m)
		sc := mat.NewSymDense(a.dim(), nil)
		sc.ScaleSym(wt, b.m)
		blend.AddSym(blend, sc)
		return sym{m: blend}
	}
	out := make([]float64, len(a.v))
	for i := range out {
		out[i] = (1-wt)*a.v[i] + wt*b.v[i]
	}
	return sym{v: out}
}

// transform is the map T = L_old⁻¹ L_new between two whitenings: dense
// (m) or diagonal (v).
type transform struct {
	m *mat.Dense
	v []float64
}

// reexpress returns Tᵀ A T, a whitened Hessian A in the coordinates
// reached by T, keeping the point it was measured at.
func reexpress(h sym, t transform) sym {
	if h.m != nil {
		return sym{m: reexpressDense(h.m, t.m)}
	}
	out := make([]float64, len(h.v))
	for i, v := range h.v {
		out[i] = t.v[i] * v * t.v[i]
	}
	return sym{v: out, at: h.at}
}
