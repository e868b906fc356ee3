// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package parfor runs the parts of a job on the calling goroutine and on a
// pool of helper goroutines shared by the whole program: the large-d steps
// of the samplers and the examples' batch gradients. Which goroutine does a
// part never matters to the result: callers give each part its own output
// and combine the parts in a fixed order.
package parfor

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Job is a reusable parallel loop over parts 0 … n−1 of some work. It
// allocates nothing per Run.
type Job struct {
	part   func(k int)
	n      int64
	next   atomic.Int64 // next part to hand out
	active atomic.Int32 // helpers inside work()
	// panicked holds the first panic of a part, raised again by Run on
	// its caller's goroutine once every part is done.
	panicked atomic.Pointer[Panic]
}

// Panic is the value Run panics with when a part panicked: the part's
// panic value and the stack of the goroutine that ran it (a helper's, or
// the caller's). A caller that recovers it can tell where the panic began.
type Panic struct {
	Value any
	Stack []byte
}

// NewJob returns a Job whose parts are done by part(k).
func NewJob(part func(k int)) *Job { return &Job{part: part} }

// Run calls part(k) for every k in [0, n) and returns when all are done.
// With one part or GOMAXPROCS = 1 it calls them in order on the calling
// goroutine; otherwise idle helpers join in. A Job must not be Run by two
// goroutines at once.
//
// A part that panics on a helper does not end the program: Run lets the
// other parts finish and then panics on its caller's goroutine with a
// *Panic (the first part's panic, whichever goroutine ran it), which the
// caller can recover as if the parts had run there. With one part or
// GOMAXPROCS = 1 a panic propagates unchanged.
func (j *Job) Run(n int) {
	procs := runtime.GOMAXPROCS(0)
	if procs == 1 || n <= 1 {
		for k := range n {
			j.part(k)
		}
		return
	}
	h := min(procs, n, maxHelpers+1) - 1
	startHelpers(h)
	j.n = int64(n)
	j.next.Store(0)
	j.panicked.Store(nil)
	post(j, h)
	j.work()
	// Every part is done once every helper that joined has left work();
	// retract the job first, so that no helper joins late.
	current.CompareAndSwap(j, nil)
	for j.active.Load() != 0 {
		runtime.Gosched()
	}
	if p := j.panicked.Load(); p != nil {
		panic(p)
	}
}

// work does parts until none is left.
func (j *Job) work() {
	for {
		k := j.next.Add(1) - 1
		if k >= j.n {
			return
		}
		j.safePart(int(k))
	}
}

// safePart runs part k, recording a panic instead of letting it unwind
// the goroutine; the remaining parts are abandoned.
func (j *Job) safePart(k int) {
	defer func() {
		if v := recover(); v != nil {
			p, ok := v.(*Panic)
			if !ok {
				p = &Panic{Value: v, Stack: debug.Stack()}
			}
			j.panicked.CompareAndSwap(nil, p)
			j.next.Store(j.n) // no more parts
		}
	}()
	j.part(k)
}

// maxHelpers bounds the helper goroutines.
const maxHelpers = 63

// Helpers. Run posts its Job in current and bumps posted; idle helpers
// watch posted, yielding the core between looks (runtime.Gosched, so that
// they take no time from goroutines with work to do), for spinLooks looks
// before they park on wake. A Run that finds helpers parked wakes as many
// as it can use. Between the steps of a chain, microseconds apart, the
// helpers therefore never park, and joining costs them well under a
// microsecond instead of a wake-up through the scheduler (several
// microseconds, as long as a whole a9a gradient).
//
// One slot serves every Job: a Run that finds the slot taken by another's
// (chains sharing cores) replaces it, and the earlier Run does its
// remaining parts itself.
var (
	current  atomic.Pointer[Job]
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

// post offers j to the helpers, waking up to h parked ones.
func post(j *Job, h int) {
	current.Store(j)
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
// the life of the program.
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

// helper joins posted Jobs until the program ends.
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
		j := current.Load()
		if j == nil {
			continue
		}
		// Join only while the Job is still posted: once its Run has
		// retracted it and seen no helper inside, it may be Run again
		// with other parts.
		j.active.Add(1)
		if current.Load() == j {
			j.work()
		}
		j.active.Add(-1)
	}
}
