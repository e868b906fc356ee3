// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// RecipeSpec.NumericGamma: Γ by central finite differences of D + Q, for
// prototyping a recipe whose Γ has no closed form yet; Recipe.Check uses it
// to check a closed-form Γ.

// column writes column j of (D+Q)(z) into dst.
func (r *Recipe) column(dst []float64, z []float64, j int, e []float64) error {
	clear(dst)
	clear(e)
	e[j] = 1
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(z); err != nil {
			return err
		}
	}
	r.spec.D.AddMulVec(dst, 1, e, z, 0, r.n)
	if r.spec.Q != nil {
		r.spec.Q.AddMulVec(dst, 1, e, z, 0, r.n)
	}
	return nil
}

// numericGamma writes Γ_i(z) = Σ_j ∂_j (D+Q)_ij(z) by central differences
// into dst, leaving any Prepare cache at z. It fails if Prepare fails at a
// perturbed state.
func (r *Recipe) numericGamma(dst, z []float64) error {
	n := r.n
	clear(dst)
	zz := make([]float64, n)
	e := make([]float64, n)
	jac := mat.NewDense(n, 1, nil)
	var ferr error
	for j := range n {
		// Column j of D + Q as a function of z_j alone.
		f := func(y, x []float64) {
			copy(zz, z)
			zz[j] += x[0]
			if err := r.column(y, zz, j, e); err != nil && ferr == nil {
				ferr = err
			}
		}
		fd.Jacobian(jac, f, []float64{0}, &fd.JacobianSettings{Formula: fd.Central})
		if ferr != nil {
			break
		}
		for i := range n {
			dst[i] += jac.At(i, 0)
		}
	}
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(z); err != nil && ferr == nil {
			ferr = err
		}
	}
	if ferr != nil {
		return errorf(nil, "numeric Γ: Prepare fails near the state: %w", ferr)
	}
	return nil
}
