// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import "math"

// Small dense helpers for p×p systems, p ≤ a few dozen, used inside the
// Gibbs samplers' loops where gonum's general routines would allocate and
// warn about conditioning that does not matter here (a τ_j near zero makes
// A = XᵀX + D⁻¹ badly conditioned, but its Cholesky factor is still
// accurate for sampling). Matrices are row-major []float64.

// cholesky overwrites the lower triangle of l with the Cholesky factor L of
// the symmetric positive definite a (A = LLᵀ) and reports success. l and a
// may be the same slice.
func cholesky(l, a []float64, p int) bool {
	for j := range p {
		s := a[j*p+j]
		for k := range j {
			s -= l[j*p+k] * l[j*p+k]
		}
		if !(s > 0) {
			return false
		}
		d := math.Sqrt(s)
		l[j*p+j] = d
		for i := j + 1; i < p; i++ {
			s := a[i*p+j]
			for k := range j {
				s -= l[i*p+k] * l[j*p+k]
			}
			l[i*p+j] = s / d
		}
	}
	for i := range p {
		for j := i + 1; j < p; j++ {
			l[i*p+j] = 0
		}
	}
	return true
}

// solveLower overwrites x with L⁻¹x.
func solveLower(l, x []float64, p int) {
	for i := range p {
		s := x[i]
		for k := range i {
			s -= l[i*p+k] * x[k]
		}
		x[i] = s / l[i*p+i]
	}
}

// solveUpperT overwrites x with L⁻ᵀx.
func solveUpperT(l, x []float64, p int) {
	for i := p - 1; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < p; k++ {
			s -= l[k*p+i] * x[k]
		}
		x[i] = s / l[i*p+i]
	}
}

// gram returns XᵀX (p×p) and Xᵀy of the n×p row-major x.
func gram(x, y []float64, n, p int) (g, xty []float64) {
	g = make([]float64, p*p)
	xty = make([]float64, p)
	for i := range n {
		r := x[i*p : (i+1)*p]
		for j, a := range r {
			xty[j] += a * y[i]
			for k := j; k < p; k++ {
				g[j*p+k] += a * r[k]
			}
		}
	}
	for j := range p {
		for k := range j {
			g[j*p+k] = g[k*p+j]
		}
	}
	return g, xty
}

// invert returns A⁻¹ of the symmetric positive definite a, or nil.
func invert(a []float64, p int) []float64 {
	l := make([]float64, p*p)
	if !cholesky(l, a, p) {
		return nil
	}
	inv := make([]float64, p*p)
	e := make([]float64, p)
	for j := range p {
		clear(e)
		e[j] = 1
		solveLower(l, e, p)
		solveUpperT(l, e, p)
		for i := range p {
			inv[i*p+j] = e[i]
		}
	}
	return inv
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
