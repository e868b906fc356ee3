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

// SparseRows is Model's likelihood written on rows of a fixed width (a
// dataset.RowModel for sparse designs on disk): a row is K feature
// indices (whole numbers stored as values; −1 pads a row with fewer
// nonzeros), then their K values, then the label, 2K+1 values. A float32
// table holds indices below 2²⁴ exactly.
type SparseRows struct {
	D, K int     // features, and nonzeros a row at most
	Prec float64 // prior precision 1/v on every coefficient
}

// Dim returns D.
func (r SparseRows) Dim() int { return r.D }

// LogPriorGrad adds −θ/v to dst.
func (r SparseRows) LogPriorGrad(dst, theta []float64) {
	Rows{D: r.D, Prec: r.Prec}.LogPriorGrad(dst, theta)
}

// LogPrior returns log p(θ), the normalising constant included.
func (r SparseRows) LogPrior(theta []float64) float64 {
	return Rows{D: r.D, Prec: r.Prec}.LogPrior(theta)
}

// dot returns x_rᵀθ of one row.
func (r SparseRows) dot(row, theta []float64) float64 {
	var s float64
	for k, j := range row[:r.K] {
		if j >= 0 {
			s += row[r.K+k] * theta[int(j)]
		}
	}
	return s
}

// LogLikGradRows adds scale·Σ_r (y_r − σ(x_rᵀθ))·x_r to dst.
func (r SparseRows) LogLikGradRows(dst, theta, rows []float64, scale float64) {
	w := 2*r.K + 1
	for ; len(rows) >= w; rows = rows[w:] {
		row := rows[:w:w]
		c := scale * (row[2*r.K] - Sigmoid(r.dot(row, theta)))
		for k, j := range row[:r.K] {
			if j >= 0 {
				dst[int(j)] += c * row[r.K+k]
			}
		}
	}
}

// LogLikRows returns Σ_r log σ(±x_rᵀθ).
func (r SparseRows) LogLikRows(theta, rows []float64) float64 {
	w := 2*r.K + 1
	var s float64
	for ; len(rows) >= w; rows = rows[w:] {
		z := r.dot(rows[:w], theta)
		if rows[2*r.K] == 0 {
			z = -z
		}
		s += LogSigmoid(z)
	}
	return s
}

// SparseRowsOf returns x's rows in SparseRows' layout, k nonzeros wide
// (the widest row's count when k is 0), row-major.
func SparseRowsOf(x *Data, k int) (rows []float64, width int) {
	for i := range x.Rows() {
		k = max(k, int(x.Ptr[i+1]-x.Ptr[i]))
	}
	w := 2*k + 1
	rows = make([]float64, x.Rows()*w)
	for i := range x.Rows() {
		row := rows[i*w : (i+1)*w]
		lo, hi := int(x.Ptr[i]), int(x.Ptr[i+1])
		for q := range k {
			row[q] = -1
			if lo+q < hi {
				row[q], row[k+q] = float64(x.Idx[lo+q]), x.Val[lo+q]
			}
		}
		row[2*k] = x.Y[i]
	}
	return rows, k
}
