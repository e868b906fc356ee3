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
	m      *Model
	theta  []float64
	idx    []int
	scale  float64
	n      int         // parts of this call
	parts  [][]float64 // part buffers, Dim each
	next   atomic.Int64
	active atomic.Int32 // helpers inside work() on this call
}

func (m *Model) newBatchWork() *batchWork {
	return &batchWork{m: m}
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
		post(w, h)
		w.work()
		// Every part is done once every helper that joined has left
		// work(); retract the call first, so that no helper joins late.
		current.CompareAndSwap(w, nil)
		for w.active.Load() != 0 {
			runtime.Gosched()
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

// maxHelpers bounds the helper goroutines.
const maxHelpers = 63

// Helpers. A call posts its batchWork in current and bumps posted; idle
// helpers watch posted, yielding the core between looks (runtime.Gosched,
// so that they take no time from goroutines with work to do), for about
// spinLooks looks before they park on wake. A call that finds helpers
// parked wakes as many as it can use. Between the steps of a chain, a few
// microseconds apart, the helpers therefore never park, and joining a
// call costs them well under a microsecond instead of a wake-up through
// the scheduler (several microseconds, as long as the gradient itself on
// a9a).
//
// One slot serves every Model: a call that finds the slot taken by
// another's (chains sharing cores) replaces it, and the earlier call does
// its remaining parts itself; the result never depends on who does a part.
var (
	current  atomic.Pointer[batchWork]
	posted   atomic.Uint64
	parked   atomic.Int32
	wake     = make(chan struct{}, maxHelpers)
	helperMu sync.Mutex
	helpers  int
	nHelpers atomic.Int64
)

// spinLooks is how many times an idle helper looks for work, yielding
// between looks, before it parks: some tens of microseconds.
const spinLooks = 256

// post offers w to the helpers, waking up to h parked ones.
func post(w *batchWork, h int) {
	current.Store(w)
	posted.Add(1)
	for n := min(int(parked.Load()), h); n > 0; n-- {
		select {
		case wake <- struct{}{}:
		default:
			return
		}
	}
}

// startHelpers makes sure n helper goroutines are running. They live for
// the life of the program and serve every Model's batch gradients.
func startHelpers(n int) {
	n = min(n, maxHelpers)
	if nHelpers.Load() >= int64(n) {
		return
	}
	helperMu.Lock()
	defer helperMu.Unlock()
	for ; helpers < n; helpers++ {
		go helper()
	}
	nHelpers.Store(int64(helpers))
}

// helper joins posted calls until the program ends.
func helper() {
	seen := posted.Load()
	for {
		for looks := 0; posted.Load() == seen; looks++ {
			if looks < spinLooks {
				runtime.Gosched()
				continue
			}
			parked.Add(1)
			if posted.Load() == seen {
				<-wake
			}
			parked.Add(-1)
			looks = 0
		}
		seen = posted.Load()
		w := current.Load()
		if w == nil {
			continue
		}
		// Join only while the call is still posted: once its caller has
		// retracted it and seen no helper inside, w may go back to the
		// pool and serve another call.
		w.active.Add(1)
		if current.Load() == w {
			w.work()
		}
		w.active.Add(-1)
	}
}
