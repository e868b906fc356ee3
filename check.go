// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Check validates the recipe at state z (nil means the current state) for
// step size eps and θ-space gradient-noise variance v (nil means the
// configured NoiseVar, or none): D symmetric positive semidefinite, Q
// skew-symmetric, the closed-form Γ against central finite differences of
// D + Q, and 2D − εB̂ positive semidefinite. It returns nil if all hold,
// and otherwise an error whose message names each failure and by how
// much.
// Check builds dense matrices: O(n²) memory and O(n³) time.
func (r *Recipe) Check(z []float64, eps float64, v []float64) error {
	if z == nil {
		z = r.z
	}
	if len(z) != r.n {
		return errorf(ErrDimension, "Check: state has length %d, want %d", len(z), r.n)
	}
	if v == nil {
		v = r.spec.NoiseVar
	}
	if v != nil && len(v) != r.d {
		return errorf(ErrDimension, "Check: noise variance has length %d, want %d", len(v), r.d)
	}
	if err := checkMemory("Check", fmt.Sprintf("the dense operators at z (%d × %d)", r.n, r.n), floatBytes(8, r.n, r.n), 0); err != nil {
		return err
	}
	zc := append([]float64(nil), z...)
	n := r.n
	tol := 1e-9
	var ce checkProblems
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(zc); err != nil {
			ce.Problems = append(ce.Problems, fmt.Sprintf("Prepare fails at z: %v", err))
			return &ce
		}
	}
	dm := denseOf(r.spec.D, zc)
	var scale float64
	for i := range n {
		for j := range n {
			scale = math.Max(scale, math.Abs(dm.At(i, j)))
		}
	}
	atol := tol * math.Max(1, scale)
	if asym := maxAbsSym(dm, 1); asym > atol {
		ce.Problems = append(ce.Problems, fmt.Sprintf("D is not symmetric: max |D_ij − D_ji| = %.3g", asym))
	}
	if mn := minEigen(dm); mn < -atol {
		ce.Problems = append(ce.Problems, fmt.Sprintf("D is not positive semidefinite: smallest eigenvalue %.6g", mn))
	}
	if r.spec.Q != nil {
		qm := denseOf(r.spec.Q, zc)
		if sk := maxAbsSym(qm, -1); sk > atol {
			ce.Problems = append(ce.Problems, fmt.Sprintf("Q is not skew-symmetric: max |Q_ij + Q_ji| = %.3g", sk))
		}
	}
	num := make([]float64, n)
	if err := r.numericGamma(num, zc); err != nil {
		ce.Problems = append(ce.Problems, err.Error())
		return &ce
	}
	cl := make([]float64, n)
	if !r.spec.NumericGamma && r.spec.Gamma != nil {
		r.spec.Gamma.At(cl, zc)
	}
	if !r.spec.NumericGamma {
		worst, wi := 0.0, -1
		for i := range n {
			if e := math.Abs(cl[i]-num[i]) / math.Max(1, math.Abs(num[i])); e > worst {
				worst, wi = e, i
			}
		}
		if worst > 1e-5 {
			ce.Problems = append(ce.Problems, fmt.Sprintf("Γ does not match Σ_j ∂_j(D+Q)_ij: coordinate %d has closed form %.6g, finite differences %.6g", wi, cl[wi], num[wi]))
		}
	}
	if v != nil && eps > 0 {
		// The exact B̂ = A V Aᵀ with A = (D + Q)[:, θ], the way the
		// gradient noise enters z; NoiseMap is the step's fast diagonal form.
		am := mat.DenseCopyOf(dm)
		if r.spec.Q != nil {
			am.Add(am, denseOf(r.spec.Q, zc))
		}
		a := am.Slice(0, n, 0, r.d)
		m := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				var avat float64
				for k := range r.d {
					avat += a.At(i, k) * v[k] * a.At(j, k)
				}
				m.SetSym(i, j, dm.At(i, j)+dm.At(j, i)-eps*avat)
			}
		}
		if r.spec.NoiseMap != nil {
			b := make([]float64, n)
			r.spec.NoiseMap(b, zc, v)
			for i := range n {
				var want float64
				for k := range r.d {
					want += a.At(i, k) * v[k] * a.At(i, k)
				}
				if math.Abs(b[i]-want) > 1e-9*math.Max(1, math.Abs(want)) {
					ce.Problems = append(ce.Problems, fmt.Sprintf("NoiseMap gives B̂_%d%d = %.6g, but diag((D+Q)[:,θ] V (D+Q)[:,θ]ᵀ) is %.6g", i, i, b[i], want))
					break
				}
			}
		}
		if mn := minEigen(m); mn < -atol {
			ce.Problems = append(ce.Problems, fmt.Sprintf("2D − εB̂ is not positive semidefinite at ε = %g: smallest eigenvalue %.6g (the gradient noise is not absorbed)", eps, mn))
		}
	}
	if r.spec.Naive != "" {
		ce.Problems = append(ce.Problems, "not a complete-recipe sampler: "+r.spec.Naive)
	}
	if len(ce.Problems) == 0 {
		return nil
	}
	return &ce
}

// denseOf materialises op at z by applying it to unit vectors.
func denseOf(op Operator, z []float64) *mat.Dense {
	rr, c := op.Dims()
	m := mat.NewDense(rr, c, nil)
	e := make([]float64, c)
	col := make([]float64, rr)
	for j := range c {
		clear(e)
		clear(col)
		e[j] = 1
		op.AddMulVec(col, 1, e, z, 0, rr)
		for i := range rr {
			m.Set(i, j, col[i])
		}
	}
	return m
}

// maxAbsSym returns max |A_ij − sign·A_ji|.
func maxAbsSym(a *mat.Dense, sign float64) float64 {
	n, _ := a.Dims()
	var w float64
	for i := range n {
		for j := range n {
			w = math.Max(w, math.Abs(a.At(i, j)-sign*a.At(j, i)))
		}
	}
	return w
}

// minEigen returns the smallest eigenvalue of the symmetric part of a.
func minEigen(a mat.Matrix) float64 {
	n, _ := a.Dims()
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, false) {
		return math.NaN()
	}
	vals := es.Values(nil)
	return vals[0]
}

// checkProblems is what Check found wrong, one entry a problem.
type checkProblems struct {
	Problems []string
}

// Error lists every problem found.
func (e *checkProblems) Error() string {
	return "sgmcmc: recipe check failed: " + strings.Join(e.Problems, "; ")
}
