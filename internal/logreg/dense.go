// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
	"gonum.org/v1/gonum/mat"
)

// DenseData is a labelled dense design matrix: row i is
// X[i·Cols : (i+1)·Cols], its label Y[i] ∈ {0, 1}. It has no bias column
// unless the caller puts one in.
type DenseData struct {
	Cols int
	X    []float64 // row-major, Rows()·Cols values
	Y    []float64
}

// Rows returns the number of rows.
func (d *DenseData) Rows() int { return len(d.Y) }

// Row returns row i of the design matrix.
func (d *DenseData) Row(i int) []float64 { return d.X[i*d.Cols : (i+1)*d.Cols : (i+1)*d.Cols] }

// SimChunk is the number of rows drawn from one random stream by Simulate.
const SimChunk = 1 << 16

// Simulate returns n rows of simulated logistic-regression data in d
// dimensions and the true coefficients β*: x_ij ~ N(0, 1) independent,
// y_i ~ Bernoulli(σ(x_iᵀβ*)), with β*_j = 1.5·z_j/√d, z_j ~ N(0, 1), so
// that x_iᵀβ* has an sd of about 1.5. Everything follows from seed: β*
// from the PCG stream (seed, 0), the rows in chunks of 65,536, chunk k from
// the stream (seed, k+1), each row's d features then the uniform for its
// label. The data of a smaller n are therefore the first rows of a larger
// n's, and the chunks are drawn in parallel.
func Simulate(n, d int, seed uint64) (*DenseData, []float64, error) {
	if n <= 0 || d <= 0 {
		return nil, nil, fmt.Errorf("logreg: Simulate: n = %d, d = %d, want both > 0", n, d)
	}
	beta := SimulateBeta(d, seed)
	x := &DenseData{Cols: d, X: make([]float64, n*d), Y: make([]float64, n)}
	job := parfor.NewJob(func(k int) {
		lo, hi := k*SimChunk, min(n, (k+1)*SimChunk)
		SimulateChunk(x.X[lo*d:hi*d], x.Y[lo:hi], beta, k, seed)
	})
	job.Run((n + SimChunk - 1) / SimChunk)
	return x, beta, nil
}

// SimulateBeta returns Simulate's true coefficients β* for d and seed.
func SimulateBeta(d int, seed uint64) []float64 { return SimulateSignedBeta(d, d, seed) }

// SimulateChunk draws chunk k of Simulate's rows for beta and seed: its
// len(y) rows (SimChunk, fewer for the last chunk of n) into x, row-major
// len(beta) features a row, and their labels into y. Simulate's data are
// its chunks in order, so that a file of any size can be written chunk by
// chunk with the same rows.
func SimulateChunk(x, y, beta []float64, k int, seed uint64) {
	d := len(beta)
	r := rand.New(rand.NewPCG(seed, uint64(k)+1))
	for i := range y {
		row := x[i*d : (i+1)*d]
		var z float64
		for j := range row {
			row[j] = r.NormFloat64()
			z += row[j] * beta[j]
		}
		y[i] = 0
		if r.Float64() < Sigmoid(z) {
			y[i] = 1
		}
	}
}

// DenseModel is Bayesian logistic regression on dense data with the prior
// θ ~ N(0, v·I) and the likelihood p(y_i = 1 | x_i, θ) = σ(x_iᵀθ). It
// implements sgmcmc.Model, sgmcmc.LogDensity and sgmcmc.BatchModel, and
// gives the full-data log posterior, its gradient and its exact Hessian,
// which a full-batch reference sampler needs. Full-data passes and
// minibatches are cut into fixed parts that run on every core, with the
// same bits for any GOMAXPROCS (dense_batch.go). Create it with
// NewDenseModel.
type DenseModel struct {
	x    *DenseData
	prec float64    // prior precision 1/v
	pool *sync.Pool // of *denseWork
}

// NewDenseModel returns the model of the data x with prior variance
// priorVar > 0 on every coordinate. x must not be modified afterwards.
func NewDenseModel(x *DenseData, priorVar float64) (*DenseModel, error) {
	if x == nil || x.Rows() == 0 || x.Cols <= 0 {
		return nil, errors.New("logreg: NewDenseModel: no data")
	}
	if len(x.X) != x.Rows()*x.Cols {
		return nil, fmt.Errorf("logreg: NewDenseModel: %d values for %d rows of %d columns", len(x.X), x.Rows(), x.Cols)
	}
	if !(priorVar > 0) || math.IsInf(priorVar, 0) {
		return nil, fmt.Errorf("logreg: NewDenseModel: prior variance %v, want finite and > 0", priorVar)
	}
	for i, y := range x.Y {
		if y != 0 && y != 1 {
			return nil, fmt.Errorf("logreg: NewDenseModel: label %v of row %d not in {0, 1}", y, i)
		}
	}
	for k, v := range x.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("logreg: NewDenseModel: value %v in row %d", v, k/x.Cols)
		}
	}
	m := &DenseModel{x: x, prec: 1 / priorVar, pool: new(sync.Pool)}
	m.pool.New = func() any { return m.newDenseWork() }
	return m, nil
}

// Data returns the data.
func (m *DenseModel) Data() *DenseData { return m.x }

// Dim returns the number of columns.
func (m *DenseModel) Dim() int { return m.x.Cols }

// Len returns the number of rows.
func (m *DenseModel) Len() int { return m.x.Rows() }

// LogPriorGrad adds ∇log p(θ) = −θ/v to dst.
func (m *DenseModel) LogPriorGrad(dst, theta []float64) { Rows{Prec: m.prec}.LogPriorGrad(dst, theta) }

// LogPrior returns log p(θ), the normalising constant included.
func (m *DenseModel) LogPrior(theta []float64) float64 { return Rows{Prec: m.prec}.LogPrior(theta) }

// Dot returns aᵀb with four partial sums, so that the adds do not form
// one chain of dependent additions (at the widths of most regressions a
// BLAS call costs more than the row). The models package uses it too.
func Dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	for ; len(a) >= 4; a, b = a[4:], b[4:] {
		s0 += a[0] * b[0]
		s1 += a[1] * b[1]
		s2 += a[2] * b[2]
		s3 += a[3] * b[3]
	}
	for k, v := range a {
		s0 += v * b[k]
	}
	return (s0 + s1) + (s2 + s3)
}

// LogLikGrad adds scale·(y_i − σ(x_iᵀθ))·x_i to dst.
func (m *DenseModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	row := m.x.Row(i)
	c := scale * (m.x.Y[i] - Sigmoid(Dot(row, theta)))
	dst = dst[:len(row)]
	for j, v := range row {
		dst[j] += c * v
	}
}

// LogLik returns log p(y_i | x_i, θ) = log σ(±x_iᵀθ), computed stably.
func (m *DenseModel) LogLik(theta []float64, i int) float64 {
	z := Dot(m.x.Row(i), theta)
	if m.x.Y[i] == 0 {
		z = -z
	}
	return LogSigmoid(z)
}

// LogPosterior returns log p(θ) + Σ_i log p(y_i | x_i, θ) over all rows,
// in one parallel pass. Its log-likelihood sum takes one logarithm per 32
// rows (of the product of their factors 1 + e^(−|z|), each in (1, 2]), and
// agrees with the sum of LogLik to about 1e−15 relative to the sum of
// |log p(y_i | x_i, θ)|.
func (m *DenseModel) LogPosterior(theta []float64) float64 {
	return m.LogPrior(theta) + m.full(nil, theta)
}

// LogPosteriorGrad writes ∇log p(θ | data) over all rows into dst, in one
// parallel pass.
func (m *DenseModel) LogPosteriorGrad(dst, theta []float64) {
	clear(dst)
	m.full(dst, theta)
	m.LogPriorGrad(dst, theta)
}

// Hessian writes the Hessian of the potential U(θ) = −log p(θ | data),
// I/v + Σ_i σ_i(1 − σ_i) x_i x_iᵀ, into h, which must be Dim×Dim. It costs
// one pass over the data and N·d²/2 multiply-adds.
func (m *DenseModel) Hessian(h *mat.SymDense, theta []float64) {
	d := m.Dim()
	raw := h.RawSymmetric()
	for a := range d {
		row := raw.Data[a*raw.Stride : a*raw.Stride+d]
		clear(row[a:])
		row[a] = m.prec
	}
	for i := range m.Len() {
		x := m.x.Row(i)
		p := Sigmoid(Dot(x, theta))
		w := p * (1 - p)
		for a, xa := range x {
			wa := w * xa
			row := raw.Data[a*raw.Stride+a : a*raw.Stride+d]
			for b, xb := range x[a:] {
				row[b] += wa * xb
			}
		}
	}
}
