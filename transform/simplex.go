// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// Simplex constrains a vector of K ≥ 2 coordinates to the open unit
// simplex (x_k > 0, Σ x_k = 1) by Stan's stick-breaking transform from
// K − 1 unconstrained coordinates: for k = 1, …, K−1,
//
//	z_k = logit⁻¹(y_k − log(K − k)),  x_k = r_k z_k,  r_{k+1} = r_k − x_k,
//
// with r_1 = 1 and x_K = r_K. The offset log(K − k) maps y = 0 to the
// centre (1/K, …, 1/K). The log-Jacobian, of x_1 … x_{K−1} (which fix x_K),
// is Σ_k log z_k + log(1 − z_k) + log r_k.
//
// The model's gradient with respect to x is taken over all K coordinates
// as if they were free (x_K included, as a Dirichlet log density
// Σ (α_k − 1) log x_k is written); the chain rule through x_K = r_K
// accounts for the constraint.
type Simplex struct{}

// FreeDim returns n − 1; n must be at least 2.
func (Simplex) FreeDim(n int) (int, error) {
	if n < 2 {
		return 0, errorf(sgmcmc.ErrDimension, "Simplex: %d coordinates, want at least 2", n)
	}
	return n - 1, nil
}

// Constrain writes the simplex x (K coordinates) of y (K − 1) and returns
// the log-Jacobian.
func (Simplex) Constrain(x, y []float64) float64 {
	K := len(x)
	r, logR, lj := 1.0, 0.0, 0.0
	for k := range K - 1 {
		t := y[k] - math.Log(float64(K-1-k))
		z := logistic(t)
		x[k] = r * z
		sp, sm := softplus(t), softplus(-t) // −log(1 − z), −log z
		lj += logR - sm - sp
		logR -= sp
		r *= logistic(-t)
	}
	x[K-1] = r
	return lj
}

// simplexTol is how far from 1 the sum of a simplex given to Unconstrain
// may be (Stan's tolerance).
const simplexTol = 1e-8

// Unconstrain writes y of the simplex x: every x_k must be positive and
// finite and their sum within 1e−8 of 1 (Stan's tolerance); x is taken as
// normalised.
func (Simplex) Unconstrain(y, x []float64) error {
	K := len(x)
	var sum float64
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 1) {
			return outside(i, v, "in (0, 1) (a simplex)")
		}
		sum += v
	}
	if math.Abs(sum-1) > simplexTol {
		return errorf(sgmcmc.ErrRange, "the coordinates sum to %v, want 1 (a simplex, within %g)", sum, simplexTol)
	}
	s := x[K-1] // Σ_{i>k} x_i
	for k := K - 2; k >= 0; k-- {
		y[k] = ln(x[k]) - ln(s) + math.Log(float64(K-1-k))
		s += x[k]
	}
	return nil
}

// Pullback adds Jᵀg to dy: (Jᵀg)_j = g_j x_j (1 − z_j) − z_j Σ_{k>j} g_k x_k
// (0-based, the sum over k up to K − 1 computed from the end).
func (Simplex) Pullback(dy, y, x, g []float64) {
	K := len(x)
	s := g[K-1] * x[K-1]
	for j := K - 2; j >= 0; j-- {
		t := y[j] - math.Log(float64(K-1-j))
		z, zc := logistic(t), logistic(-t)
		dy[j] += g[j]*x[j]*zc - z*s
		s += g[j] * x[j]
	}
}

// LogJacobianGrad adds ∂ log |J| / ∂y_j = 1 − 2z_j − (K − 2 − j)·z_j
// (0-based j) to dy.
func (Simplex) LogJacobianGrad(dy, y, x []float64) {
	K := len(x)
	for j := range K - 1 {
		t := y[j] - math.Log(float64(K-1-j))
		z, zc := logistic(t), logistic(-t)
		dy[j] += zc - z - float64(K-2-j)*z
	}
}
