// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Batch gradients.
//
// LogLikGradBatch cuts a minibatch into consecutive parts of batchPart rows
// (the last one shorter), sums each part's gradient into a buffer of its
// own, and adds the parts' buffers to dst in part order. The partition
// depends on the batch alone, never on the number of cores, so the result is
// the same bits for any GOMAXPROCS; with more than one core the parts run in
// parallel, on the calling goroutine and on the package's helper goroutines.
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
// the counters that hand the parts out. It is pooled, so that a call
// allocates nothing.
type batchWork struct {
	m     *Model
	theta []float64
	idx   []int
	scale float64
	n     int         // parts of this call
	parts [][]float64 // part buffers, Dim each
	next  atomic.Int64
	fin   chan struct{} // each helper's sign-off
}

func (m *Model) newBatchWork() *batchWork {
	return &batchWork{m: m, fin: make(chan struct{}, maxHelpers)}
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
	w.theta, w.idx, w.scale, w.n = theta, idx, scale, n
	procs := runtime.GOMAXPROCS(0)
	if procs == 1 || len(idx) < minParallelRows {
		for k := range n {
			w.part(k)
		}
	} else {
		h := min(procs, n, maxHelpers+1) - 1
		startHelpers(h)
		w.next.Store(0)
		// Only idle helpers take the work (the channel is unbuffered): a
		// busy one would start late and hold w after the call.
		sent := 0
		for range h {
			select {
			case helperWork <- w:
				sent++
			default:
			}
		}
		w.work()
		// Every part is done once every worker has left work(); wait for
		// the helpers to let go of w before it goes back to the pool.
		for range sent {
			<-w.fin
		}
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

// work runs parts until none is left.
func (w *batchWork) work() {
	for {
		k := w.next.Add(1) - 1
		if k >= int64(w.n) {
			return
		}
		w.part(int(k))
	}
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
			cols := row[1 : 1+row[0]>>1]
			var z0, z1, z2, z3 float64
			j := 0
			for ; j+4 <= len(cols); j += 4 {
				z0 += theta[cols[j]]
				z1 += theta[cols[j+1]]
				z2 += theta[cols[j+2]]
				z3 += theta[cols[j+3]]
			}
			for ; j < len(cols); j++ {
				z0 += theta[cols[j]]
			}
			cs[k] = (z0 + z1) + (z2 + z3)
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

// maxHelpers bounds the helper goroutines.
const maxHelpers = 63

var (
	helperWork = make(chan *batchWork)
	helperMu   sync.Mutex
	helpers    int
	nHelpers   atomic.Int64
)

// startHelpers makes sure n helper goroutines are running. They live for
// the life of the program, blocked on a channel when idle, and serve every
// Model's batch gradients.
func startHelpers(n int) {
	n = min(n, maxHelpers)
	if nHelpers.Load() >= int64(n) {
		return
	}
	helperMu.Lock()
	defer helperMu.Unlock()
	for ; helpers < n; helpers++ {
		go func() {
			for w := range helperWork {
				w.work()
				w.fin <- struct{}{}
			}
		}()
	}
	nHelpers.Store(int64(helpers))
}
