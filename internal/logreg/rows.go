// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import "math"

// Rows is DenseModel's likelihood written on rows (a dataset.RowModel): a
// row is the D features then the label, D+1 values, so that the data can
// live in a dataset.Table (a file on disk) rather than in a DenseData.
type Rows struct {
	D    int     // features
	Prec float64 // prior precision 1/v on every coefficient
}

// Dim returns D.
func (r Rows) Dim() int { return r.D }

// LogPriorGrad adds −θ/v to dst.
func (r Rows) LogPriorGrad(dst, theta []float64) {
	for j, t := range theta {
		dst[j] -= r.Prec * t
	}
}

// LogLikGradRows adds scale·Σ_r (y_r − σ(x_rᵀθ))·x_r to dst.
func (r Rows) LogLikGradRows(dst, theta, rows []float64, scale float64) {
	w := r.D + 1
	dst = dst[:r.D]
	for ; len(rows) >= w; rows = rows[w:] {
		x := rows[:r.D:r.D]
		c := scale * (rows[r.D] - Sigmoid(Dot(x, theta)))
		for j, v := range x {
			dst[j] += c * v
		}
	}
}

// LogPrior returns log p(θ), the normalising constant included.
func (r Rows) LogPrior(theta []float64) float64 {
	var s float64
	for _, t := range theta {
		s += t * t
	}
	return -0.5*r.Prec*s + 0.5*float64(len(theta))*math.Log(r.Prec/(2*math.Pi))
}

// LogLikRows returns Σ_r log σ(±x_rᵀθ).
func (r Rows) LogLikRows(theta, rows []float64) float64 {
	w := r.D + 1
	var s float64
	for ; len(rows) >= w; rows = rows[w:] {
		z := Dot(rows[:r.D], theta)
		if rows[r.D] == 0 {
			z = -z
		}
		s += LogSigmoid(z)
	}
	return s
}
