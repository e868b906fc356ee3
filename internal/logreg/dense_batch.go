// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
)

// Batch and full-data passes of DenseModel, as batch.go's for sparse rows:
// the rows are cut into consecutive parts (batchPart rows of a minibatch,
// fullPart rows of the data), each part sums into a buffer of its own, and
// the buffers are added in part order. The partition depends on the rows
// alone, never on the number of cores, so the result is the same bits for
// any GOMAXPROCS.

// fullPart is the number of rows of a part of a full-data pass.
const fullPart = 2048

// logGroup is the number of rows whose factors 1 + e^(−|z|), each in
// (1, 2], are multiplied before one logarithm is taken.
const logGroup = 32

// denseWork is one call's parts and arguments, pooled so that a call
// allocates nothing once warm.
type denseWork struct {
	m     *DenseModel
	theta []float64
	idx   []int // the minibatch; nil for a full-data pass
	scale float64
	value bool        // a full-data log likelihood rather than a gradient
	parts [][]float64 // gradient buffers, Dim each
	vals  []float64   // log-likelihood sums of the parts
	job   *parfor.Job
}

func (m *DenseModel) newDenseWork() *denseWork {
	w := &denseWork{m: m}
	w.job = parfor.NewJob(w.part)
	return w
}

// LogLikGradBatch adds scale·Σ_{i∈idx} (y_i − σ(x_iᵀθ))·x_i to dst: the
// sgmcmc.BatchModel capability. It is safe for concurrent use and
// allocates nothing once warm.
func (m *DenseModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	if len(idx) == 0 {
		return
	}
	w := m.pool.Get().(*denseWork)
	w.idx, w.scale = idx, scale
	w.run(dst, theta, (len(idx)+batchPart-1)/batchPart, len(idx) >= minParallelRows)
	m.pool.Put(w)
}

// full adds Σ_i ∇log p(y_i | x_i, θ) over all rows to dst, or, if dst is
// nil, returns Σ_i log p(y_i | x_i, θ).
func (m *DenseModel) full(dst, theta []float64) float64 {
	w := m.pool.Get().(*denseWork)
	w.idx, w.scale, w.value = nil, 1, dst == nil
	s := w.run(dst, theta, (m.Len()+fullPart-1)/fullPart, true)
	w.value = false
	m.pool.Put(w)
	return s
}

// run does n parts, in parallel if par, and combines them in part order.
func (w *denseWork) run(dst, theta []float64, n int, par bool) float64 {
	d := w.m.Dim()
	w.theta = theta
	for len(w.parts) < n {
		w.parts = append(w.parts, make([]float64, d))
	}
	for len(w.vals) < n {
		w.vals = append(w.vals, 0)
	}
	if par {
		w.job.Run(n)
	} else {
		for k := range n {
			w.part(k)
		}
	}
	w.theta, w.idx = nil, nil
	if w.value {
		var s float64
		for _, v := range w.vals[:n] {
			s += v
		}
		return s
	}
	acc := w.parts[0]
	for k := 1; k < n; k++ {
		for j, v := range w.parts[k] {
			acc[j] += v
		}
	}
	for j, v := range acc {
		dst[j] += v
	}
	return 0
}

// part computes part k into its buffer.
func (w *denseWork) part(k int) {
	m := w.m
	if w.idx == nil {
		lo, hi := k*fullPart, min((k+1)*fullPart, m.Len())
		if w.value {
			w.vals[k] = m.rangeLogLik(w.theta, lo, hi)
			return
		}
		dst := w.parts[k]
		clear(dst)
		for i0 := lo; i0 < hi; i0 += batchPart {
			m.rowsGrad(dst, w.theta, nil, i0, min(i0+batchPart, hi), w.scale)
		}
		return
	}
	lo := k * batchPart
	dst := w.parts[k]
	clear(dst)
	idx := w.idx[lo:min(lo+batchPart, len(w.idx))]
	m.rowsGrad(dst, w.theta, idx, 0, len(idx), w.scale)
}

// rowsGrad adds scale·Σ (y_i − σ(x_iᵀθ))·x_i to dst over at most batchPart
// rows: idx[0:n] if idx is not nil, else the rows lo … hi−1. The rows are
// done in two sweeps, the coefficients first, so that the work of one row
// does not wait for the previous one's.
func (m *DenseModel) rowsGrad(dst, theta []float64, idx []int, lo, hi int, scale float64) {
	var c [batchPart]float64
	cs := c[:hi-lo]
	row := func(k int) int {
		if idx != nil {
			return idx[k]
		}
		return lo + k
	}
	for k := range cs {
		i := row(k)
		cs[k] = scale * (m.x.Y[i] - Sigmoid(Dot(m.x.Row(i), theta)))
	}
	dst = dst[:m.x.Cols]
	for k, v := range cs {
		x := m.x.Row(row(k))
		for j, xj := range x {
			dst[j] += v * xj
		}
	}
}

// rangeLogLik returns Σ log σ(s_i) over the rows lo … hi−1, s_i = ±x_iᵀθ
// (+ for y_i = 1): log σ(s) = min(s, 0) − log(1 + e^(−|s|)), with one
// logarithm per logGroup rows.
func (m *DenseModel) rangeLogLik(theta []float64, lo, hi int) float64 {
	var lin, logs float64
	for g := lo; g < hi; g += logGroup {
		prod := 1.0
		for i := g; i < min(g+logGroup, hi); i++ {
			s := Dot(m.x.Row(i), theta)
			if m.x.Y[i] == 0 {
				s = -s
			}
			if s < 0 {
				lin += s
				s = -s
			}
			prod *= 1 + expNonPos(-s)
		}
		logs += math.Log(prod)
	}
	return lin - logs
}
