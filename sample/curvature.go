// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// This file holds the numerical pieces of warmup adaptation
// (doc/adaptation.md §2): Hessian-vector products by finite differences of
// a gradient, the dense Hessian they build, power iteration for the largest
// eigenvalue, and a running covariance.

// hvp writes the finite-difference Hessian-vector product
// H·v ≈ (∇Ũ(x + hv) − ∇Ũ(x − hv))/(2h) into dst. grad must be
// deterministic (a fixed batch); buf needs 2·len(x).
func hvp(dst []float64, grad sgmcmc.Gradient, x, v []float64, h float64, buf []float64) {
	d := len(x)
	xp, gm := buf[:d], buf[d:2*d]
	for i := range x {
		xp[i] = x[i] + h*v[i]
	}
	grad.Grad(dst, xp)
	for i := range x {
		xp[i] = x[i] - h*v[i]
	}
	grad.Grad(gm, xp)
	for i := range dst {
		dst[i] = (dst[i] - gm[i]) / (2 * h)
	}
}

// hessian returns the symmetrised finite-difference Hessian of grad at x,
// from the d forward differences (∇Ũ(x + h e_j) − ∇Ũ(x))/h: d + 1
// gradients, exact for a quadratic potential up to rounding, with an O(h)
// error otherwise. h is the difference step in x's units: in whitened
// coordinates, where the target's scale is 1, h = 1e-3 is small against
// the posterior and large against rounding.
func hessian(grad sgmcmc.Gradient, x []float64, h float64) *mat.SymDense {
	d := len(x)
	g0 := make([]float64, d)
	grad.Grad(g0, x)
	xp := append([]float64(nil), x...)
	col := make([]float64, d)
	m := mat.NewDense(d, d, nil)
	for j := range d {
		xp[j] = x[j] + h
		grad.Grad(col, xp)
		xp[j] = x[j]
		for i := range col {
			col[i] = (col[i] - g0[i]) / h
		}
		m.SetCol(j, col)
	}
	s := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(m.At(i, j)+m.At(j, i)))
		}
	}
	return s
}

// powerIteration estimates the largest eigenvalue in magnitude of the
// symmetric operator mul (dst ← A v) of dimension d by iters steps of the
// power method from a random start, returning the Rayleigh quotient of the
// last iterate. For a PSD A it converges to λmax from below, at the rate
// (λ₂/λmax)^k; a few dozen iterations give λmax to a few per cent, which
// is what a step-size rule needs.
func powerIteration(mul func(dst, v []float64), d, iters int, rng *rand.Rand) float64 {
	v := make([]float64, d)
	w := make([]float64, d)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	floats.Scale(1/floats.Norm(v, 2), v)
	var lam float64
	for range iters {
		mul(w, v)
		lam = floats.Dot(v, w)
		n := floats.Norm(w, 2)
		if !(n > 0) || math.IsInf(n, 0) {
			return lam
		}
		for i := range v {
			v[i] = w[i] / n
		}
	}
	return lam
}

// symEigen returns the eigenvalues (ascending) and eigenvectors of a.
func symEigen(a mat.Symmetric) ([]float64, *mat.Dense, bool) {
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		return nil, nil, false
	}
	var v mat.Dense
	es.VectorsTo(&v)
	return es.Values(nil), &v, true
}

// regularisedInverse returns V diag(1/λ̃) Vᵀ for a symmetric a with
// eigenvalues λ, where λ̃ = max(|λ|, floor·max|λ|): a negative curvature
// counts by its magnitude (the target is not locally log-concave there)
// and the floor is relative to the largest eigenvalue, so that condition
// numbers up to 1/floor survive and nothing is clamped at an absolute
// level that would depend on the parameters' units.
func regularisedInverse(a mat.Symmetric, floor float64) (*mat.SymDense, []float64, bool) {
	vals, vecs, ok := symEigen(a)
	if !ok {
		return nil, nil, false
	}
	var top float64
	for _, l := range vals {
		top = math.Max(top, math.Abs(l))
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return nil, nil, false
	}
	d := len(vals)
	reg := make([]float64, d)
	for i, l := range vals {
		reg[i] = math.Max(math.Abs(l), floor*top)
	}
	inv := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			var s float64
			for k := range d {
				s += vecs.At(i, k) * vecs.At(j, k) / reg[k]
			}
			inv.SetSym(i, j, s)
		}
	}
	return inv, reg, true
}

// covariance accumulates the mean and covariance of vectors (Welford's
// algorithm, stable for draws far from the origin): all of it (m2), or on
// the large-d path only its diagonal (v2).
type covariance struct {
	n    int
	mean []float64
	m2   *mat.SymDense
	v2   []float64
	dx   []float64
}

// newCovariance returns an empty accumulator of dimension d, dense or
// diagonal.
func newCovariance(d int, dense bool) *covariance {
	c := &covariance{mean: make([]float64, d), dx: make([]float64, d)}
	if dense {
		c.m2 = mat.NewSymDense(d, nil)
	} else {
		c.v2 = make([]float64, d)
	}
	return c
}

func (c *covariance) add(x []float64) {
	c.n++
	for i, v := range x {
		c.dx[i] = v - c.mean[i]
		c.mean[i] += c.dx[i] / float64(c.n)
	}
	if c.v2 != nil {
		for i, a := range c.dx {
			c.v2[i] += a * (x[i] - c.mean[i])
		}
		return
	}
	d := len(x)
	raw := c.m2.RawSymmetric()
	for i := range d {
		a := c.dx[i]
		for j := i; j < d; j++ {
			raw.Data[i*raw.Stride+j] += a * (x[j] - c.mean[j])
		}
	}
}

// chainCovariance returns the dense covariance accumulator of draws
// from, …, to−1 of c.
func chainCovariance(c *sgmcmc.Chain, from, to int) *covariance {
	cv := newCovariance(c.Dim, true)
	for i := from; i < to; i++ {
		cv.add(c.At(i))
	}
	return cv
}

// cov returns the sample covariance (divisor n − 1).
func (c *covariance) cov() sym {
	d := len(c.mean)
	if c.v2 != nil {
		v := make([]float64, d)
		if c.n >= 2 {
			for i, s := range c.v2 {
				v[i] = s / float64(c.n-1)
			}
		}
		return sym{v: v}
	}
	s := mat.NewSymDense(d, nil)
	if c.n < 2 {
		return sym{m: s}
	}
	s.ScaleSym(1/float64(c.n-1), c.m2)
	return sym{m: s}
}

// curvatureDense returns λ̂ over the dense path's warmup points hs, and
// the smallest curvature above the floor and the largest over the
// windows' points hs[1:], by power iteration and eigendecomposition.
func (e *chainEnv) curvatureDense(hs []sym) (lamMax, lamMin, spreadMax float64) {
	cr := curvatureRange{lamMin: math.Inf(1)}
	for k, h := range hs {
		hm := h.m
		cr.lamMax = math.Max(cr.lamMax, powerIteration(func(dst, v []float64) { mulSym(dst, hm, v) }, e.d, powerIters, e.rng))
		if vals, _, ok := symEigen(hm); ok {
			cr.add(k, vals)
		}
	}
	return cr.lamMax, cr.lamMin, cr.spreadMax
}

// curvatureRange gathers λ̂ over the warmup points and the curvature
// spread over the windows' points.
type curvatureRange struct{ lamMax, lamMin, spreadMax float64 }

// add folds in the ascending eigenvalues vals of warmup point k; k = 0,
// the Newton phase's end, counts in λ̂ only.
func (c *curvatureRange) add(k int, vals []float64) {
	top := vals[len(vals)-1]
	c.lamMax = math.Max(c.lamMax, top)
	if k > 0 {
		// The smallest curvature above the floor: directions of zero or
		// negative curvature (hierarchical scales, mixtures, heavy tails)
		// are not a spread a step size must span, and counting them made
		// the spread the floor, 10¹², on most posteriors.
		c.spreadMax = math.Max(c.spreadMax, top)
		c.lamMin = math.Min(c.lamMin, minAbove(vals, eigFloor*top))
	}
}

// minAbove returns the smallest of the ascending vals above floor, +Inf if
// none is.
func minAbove(vals []float64, floor float64) float64 {
	for _, v := range vals {
		if v > floor {
			return v
		}
	}
	return math.Inf(1)
}
