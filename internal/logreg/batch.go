// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import "github.com/sgmcmc-go/sgmcmc/internal/parfor"

// Batch gradients.
//
// LogLikGradBatch cuts a minibatch into consecutive parts of batchPart rows
// (the last one shorter), sums each part's gradient into a buffer of its
// own, and adds the parts' buffers to dst in part order. The partition
// depends on the batch alone, never on the number of cores, so the result is
// the same bits for any GOMAXPROCS; with more than one core the parts run in
// parallel, on the calling goroutine and on internal/parfor's helpers.
//
// Within a part the rows are done in three sweeps, so that the work of one
// row does not wait for the previous one: all dot products x_iᵀθ first, then
// all the link functions y_i − σ(x_iᵀθ), then the scatter of the
// coefficients into the gradient.

// batchPart is the number of rows of a part.
const batchPart = 128

// minParallelRows is the smallest batch whose parts run in parallel.
const minParallelRows = 2 * batchPart

// batchWork is one call's parts: their buffers, the call's arguments, and
// the job that runs them. It is pooled, so that a call allocates nothing.
type batchWork struct {
	m     *Model
	theta []float64
	idx   []int
	scale float64
	parts [][]float64 // part buffers, Dim each
	job   *parfor.Job // runs part over the parts
}

func (m *Model) newBatchWork() *batchWork {
	w := &batchWork{m: m}
	w.job = parfor.NewJob(w.part)
	return w
}

// LogLikGradBatch adds scale·Σ_{i∈idx} (y_i − σ(x_iᵀθ))·x_i to dst: the
// sgmcmc.BatchModel capability, which sgmcmc.Minibatch uses. It is safe for
// concurrent use (chains sharing a Model) and allocates nothing once warm.
func (m *Model) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	if len(idx) == 0 {
		return
	}
	w := m.pool.Get().(*batchWork)
	w.m = m // a copy of a Model shares its pool
	n := (len(idx) + batchPart - 1) / batchPart
	for len(w.parts) < n {
		w.parts = append(w.parts, make([]float64, m.Dim()))
	}
	w.theta, w.idx, w.scale = theta, idx, scale
	if len(idx) < minParallelRows {
		for k := range n {
			w.part(k)
		}
	} else {
		w.job.Run(n)
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
	w.theta, w.idx = nil, nil
	m.pool.Put(w)
}

// part writes the gradient of part k into its buffer.
func (w *batchWork) part(k int) {
	lo := k * batchPart
	idx := w.idx[lo:min(lo+batchPart, len(w.idx))]
	dst := w.parts[k]
	clear(dst)
	w.m.partGrad(dst, w.theta, idx, w.scale)
}

// partGrad adds scale·Σ_{i∈idx} (y_i − σ(x_iᵀθ))·x_i to dst, for at most
// batchPart rows, in three sweeps.
func (m *Model) partGrad(dst, theta []float64, idx []int, scale float64) {
	var c [batchPart]float64
	cs := c[:len(idx)]
	if m.packed != nil {
		for k, i := range idx {
			row := m.packed[i*m.stride : (i+1)*m.stride]
			cs[k] = packedDot(row[1:1+row[0]>>1], theta)
		}
		for k, i := range idx {
			cs[k] = scale * (float64(m.packed[i*m.stride]&1) - Sigmoid(cs[k]))
		}
		for k, i := range idx {
			row := m.packed[i*m.stride : (i+1)*m.stride]
			v := cs[k]
			for _, j := range row[1 : 1+row[0]>>1] {
				dst[j] += v
			}
		}
		return
	}
	d := m.x
	for k, i := range idx {
		cs[k] = d.Dot(i, theta)
	}
	for k, i := range idx {
		cs[k] = scale * (d.Y[i] - Sigmoid(cs[k]))
	}
	for k, i := range idx {
		lo, hi := d.Ptr[i], d.Ptr[i+1]
		cols, val := d.Idx[lo:hi], d.Val[lo:hi]
		val = val[:len(cols)]
		v := cs[k]
		for a, j := range cols {
			dst[j] += v * val[a]
		}
	}
}
