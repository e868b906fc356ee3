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

// The large-d path's curvature (doc/adaptation.md §4): the diagonal of a
// whitened Hessian by random probes, and its extreme eigenpairs by the
// Lanczos process, each from Hessian-vector products (hvp) alone — O(d)
// memory and O(d) work besides the gradients. A diagonal estimate's
// coordinate i has standard error √(Σ_{j≠i} H_ij² / diagProbes), exact for
// a diagonal H; in whitened coordinates, where H ≈ I, an off-diagonal row
// of norm ρ gives a relative error of ρ/√32 ≈ 0.18ρ.

// diagProbe estimates diag H of grad's Hessian at z as the mean of
// v ⊙ Hv over m Rademacher vectors v (Bekas, Kokiopoulou & Saad 2007).
// E[v_i (Hv)_i] = H_ii and Var = Σ_{j≠i} H_ij², so the estimate is exact
// for a diagonal H and otherwise has standard error √(Σ_{j≠i} H_ij²/m),
// which is estimated from the probes' spread; an estimate within diagSE
// standard errors of zero is replaced by diagSE standard errors. The
// result is nonnegative.
func diagProbe(grad sgmcmc.Gradient, z []float64, m int, rng *rand.Rand) []float64 {
	d := len(z)
	v, hv, buf := make([]float64, d), make([]float64, d), make([]float64, 2*d)
	sum, sum2 := make([]float64, d), make([]float64, d)
	// The probe has unit length in the difference (a step of fdStep
	// whitened units, as for a unit vector); v ⊙ Hv is scaled back by d.
	unit, fd := 1/math.Sqrt(float64(d)), float64(d)
	for range m {
		var bits uint64
		for i := range v {
			if i%64 == 0 {
				bits = rng.Uint64()
			}
			v[i] = float64(int(bits&1)*2-1) * unit
			bits >>= 1
		}
		hvp(hv, grad, z, v, fdStep, buf)
		for i, x := range v {
			p := x * hv[i] * fd
			sum[i] += p
			sum2[i] += p * p
		}
	}
	fm := float64(m)
	for i := range sum {
		mean := sum[i] / fm
		se := 0.0
		if m > 1 {
			se = math.Sqrt(math.Max(0, sum2[i]-fm*mean*mean)/(fm-1)) / math.Sqrt(fm)
		}
		sum[i] = math.Max(math.Abs(mean), diagSE*se)
	}
	return sum
}

// lanczos runs up to m steps of the Lanczos process, with full
// reorthogonalisation, on the symmetric operator mul (dst ← A v) of
// dimension d from a random start. It returns the Ritz values
// (ascending), their residual norms ‖A y − θ y‖ and, if vecs, the unit
// Ritz vectors. Memory is m·d floats; the extreme eigenvalues converge
// first, far faster than by power iteration.
func lanczos(mul func(dst, v []float64), d, m int, rng *rand.Rand, vecs bool) (vals, resid []float64, ritz [][]float64) {
	m = min(m, d)
	q := make([][]float64, 0, m)
	alpha, beta := make([]float64, 0, m), make([]float64, 0, m)
	cur := make([]float64, d)
	for i := range cur {
		cur[i] = rng.NormFloat64()
	}
	floats.Scale(1/floats.Norm(cur, 2), cur)
	w := make([]float64, d)
	for j := 0; j < m; j++ {
		q = append(q, cur)
		mul(w, cur)
		a := floats.Dot(cur, w)
		if math.IsNaN(a) || math.IsInf(a, 0) {
			q = q[:len(q)-1]
			break
		}
		alpha = append(alpha, a)
		// Full reorthogonalisation, twice (Gram–Schmidt once more is
		// enough in floating point).
		for range 2 {
			for _, qi := range q {
				floats.AddScaled(w, -floats.Dot(qi, w), qi)
			}
		}
		b := floats.Norm(w, 2)
		beta = append(beta, b)
		if !(b > 1e-10*math.Abs(a)) || j == m-1 {
			break
		}
		cur = make([]float64, d)
		for i := range w {
			cur[i] = w[i] / b
		}
	}
	k := len(alpha)
	if k == 0 {
		return nil, nil, nil
	}
	t := mat.NewSymDense(k, nil)
	for i := range k {
		t.SetSym(i, i, alpha[i])
		if i+1 < k {
			t.SetSym(i, i+1, beta[i])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(t, true) {
		return nil, nil, nil
	}
	vals = es.Values(nil)
	var s mat.Dense
	es.VectorsTo(&s)
	resid = make([]float64, k)
	for i := range k {
		resid[i] = math.Abs(beta[k-1] * s.At(k-1, i))
	}
	if vecs {
		ritz = make([][]float64, k)
		for i := range k {
			y := make([]float64, d)
			for j, qj := range q {
				floats.AddScaled(y, s.At(j, i), qj)
			}
			ritz[i] = y
		}
	}
	return vals, resid, ritz
}

// hvpOp returns the finite-difference Hessian-vector product of grad at
// z as an operator for lanczos.
func hvpOp(grad sgmcmc.Gradient, z []float64) func(dst, v []float64) {
	buf := make([]float64, 2*len(z))
	return func(dst, v []float64) { hvp(dst, grad, z, v, fdStep, buf) }
}
