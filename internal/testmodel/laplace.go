// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package testmodel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Laplace finds the mode of m by Newton's method from start with the
// exact Hessian hess of the potential, and returns it and the sds of
// N(mode, H⁻¹).
func Laplace(m LDModel, start []float64, hess func(*mat.SymDense, []float64)) (mode, sd []float64, err error) {
	d := m.Dim()
	th := append([]float64(nil), start...)
	g := make([]float64, d)
	h := mat.NewSymDense(d, nil)
	var chol mat.Cholesky
	for it := 0; it < 50; it++ {
		fullGrad(m, g, th)
		hess(h, th)
		if !chol.Factorize(h) {
			return nil, nil, fmt.Errorf("testmodel: Laplace: Hessian not positive definite at iteration %d", it)
		}
		var step mat.VecDense
		if err := chol.SolveVecTo(&step, mat.NewVecDense(d, g)); err != nil {
			return nil, nil, err
		}
		// Damped: halve while the potential rises.
		u0 := potential(m, th)
		a := 1.0
		next := make([]float64, d)
		for k := 0; k < 30; k++ {
			for j := range d {
				next[j] = th[j] - a*step.AtVec(j)
			}
			if potential(m, next) <= u0+1e-9*math.Abs(u0) {
				break
			}
			a /= 2
		}
		copy(th, next)
		dec := mat.Dot(&step, mat.NewVecDense(d, g))
		if dec < 1e-16*float64(d) {
			break
		}
	}
	hess(h, th)
	if !chol.Factorize(h) {
		return nil, nil, fmt.Errorf("testmodel: Laplace: Hessian not positive definite at the mode")
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return nil, nil, err
	}
	sd = make([]float64, d)
	for j := range d {
		sd[j] = math.Sqrt(cov.At(j, j))
	}
	return th, sd, nil
}

// fullGrad writes ∇U(θ) over all rows into g.
func fullGrad(m LDModel, g, th []float64) {
	clear(g)
	m.LogPriorGrad(g, th)
	for i := range m.Len() {
		m.LogLikGrad(g, th, i, 1)
	}
	for j := range g {
		g[j] = -g[j]
	}
}

// potential returns U(θ) over all rows.
func potential(m LDModel, th []float64) float64 {
	u := -m.LogPrior(th)
	for i := range m.Len() {
		u -= m.LogLik(th, i)
	}
	return u
}
