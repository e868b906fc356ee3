// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
)

// Regression is the normal linear regression of the posteriordb models
// of regressionSpecs (earnings-logearn_height, kidiq-kidscore_momiq and
// nine more):
//
//	y_i ~ N(x_iᵀβ, σ),   β flat,   σ flat on (0, ∞) or σ ~ half-Cauchy(0, s),
//
// sampled in the unconstrained θ = (β, log σ). The log prior of θ includes
// the Jacobian log σ of σ = e^θ_p, as Stan's does, and the Cauchy density
// when CauchyScale > 0; the flat priors are improper (constant 0), which is
// fine for the gradient.
type Regression struct {
	// X is the N × P design, row-major, and Y the N responses.
	X, Y []float64
	// P is the number of coefficients β.
	P int
	// CauchyScale is s of σ ~ half-Cauchy(0, s); 0 means σ flat.
	CauchyScale float64
}

// Dim returns P + 1: β and log σ.
func (r *Regression) Dim() int { return r.P + 1 }

// Len returns the number of observations N.
func (r *Regression) Len() int { return len(r.Y) }

// LogPrior returns the log prior density of θ (up to a constant for flat
// priors): log σ plus, with a Cauchy prior, its log density at σ.
func (r *Regression) LogPrior(theta []float64) float64 {
	s := theta[r.P]
	lp := s
	if a := r.CauchyScale; a > 0 {
		z := math.Exp(s) / a
		lp += math.Log(2/(math.Pi*a)) - math.Log1p(z*z)
	}
	return lp
}

// LogPriorGrad adds ∇ log p(θ) to dst.
func (r *Regression) LogPriorGrad(dst, theta []float64) {
	g := 1.0
	if a := r.CauchyScale; a > 0 {
		z := math.Exp(theta[r.P]) / a
		z2 := z * z
		g -= 2 * z2 / (1 + z2)
	}
	dst[r.P] += g
}

// resid returns y_i − x_iᵀβ and 1/σ.
func (r *Regression) resid(theta []float64, i int) (res, invSigma float64) {
	x := r.X[i*r.P : (i+1)*r.P]
	res = r.Y[i]
	for j, v := range x {
		res -= v * theta[j]
	}
	return res, math.Exp(-theta[r.P])
}

// LogLik returns log N(y_i | x_iᵀβ, σ).
func (r *Regression) LogLik(theta []float64, i int) float64 {
	res, is := r.resid(theta, i)
	z := res * is
	return -0.5*z*z - theta[r.P] - 0.5*math.Log(2*math.Pi)
}

// LogLikGrad adds scale · ∇ log N(y_i | x_iᵀβ, σ) to dst.
func (r *Regression) LogLikGrad(dst, theta []float64, i int, scale float64) {
	res, is := r.resid(theta, i)
	w := scale * res * is * is
	x := r.X[i*r.P : (i+1)*r.P]
	for j, v := range x {
		dst[j] += w * v
	}
	z := res * is
	dst[r.P] += scale * (z*z - 1)
}

func ones(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	return x
}

// loadRegression reads a posteriordb regression and its reference draws
// from dataDir/spec.dir.
func loadRegression(dataDir string, spec regressionSpec) (*Target, error) {
	dir := filepath.Join(dataDir, spec.dir)
	d, err := readData(dir)
	if err != nil {
		return nil, err
	}
	cols, y, err := spec.build(d)
	if err != nil {
		return nil, err
	}
	p := len(cols)
	if p != len(spec.names)-1 {
		return nil, fmt.Errorf("%s: %d predictors for %d coefficient names", spec.dir, p, len(spec.names)-1)
	}
	m := &Regression{X: make([]float64, d.n*p), Y: y, P: p, CauchyScale: spec.cauchy}
	for i := range d.n {
		for j, c := range cols {
			m.X[i*p+j] = c[i]
		}
	}
	t := &Target{
		Name:   spec.dir,
		Model:  m,
		Start:  make([]float64, p+1), // β = 0, σ = 1
		Names:  spec.names,
		UNames: append(slices.Clone(spec.names[:p]), "log(sigma)"),
		Constrain: func(dst, theta []float64) {
			copy(dst, theta[:p])
			dst[p] = math.Exp(theta[p])
		},
		Draws: regressionDraws,
		Batch: min(100, d.n),
	}
	draws, err := readDraws(dir, spec.names)
	if err != nil {
		return nil, err
	}
	err = t.refFromDraws(draws, func(dst, x []float64) {
		copy(dst, x[:p])
		dst[p] = math.Log(x[p])
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, drawsFile), err)
	}
	return t, nil
}
