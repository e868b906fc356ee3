// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
)

// Minibatch is the stochastic gradient of a Model on random minibatches:
//
//	∇Ũ(θ) = −∇log p(θ) − (N/n) Σ_{i∈S} ∇log p(x_i | θ),
//
// with S a fresh minibatch of size n at every call, drawn with or without
// replacement. The N/n scaling is applied here, once, so that the estimate is
// unbiased for ∇U.
//
// With Noise set, Grad also estimates the diagonal of the gradient-noise
// covariance from the per-datum gradients of the batch (the SGFS estimate of
// Ahn et al. 2012, doc/equations.md §7.2): V̂ = (N²/n) · var_i(g_i), times the
// finite-population correction (1 − n/N) for batches drawn without
// replacement (without it V̂ overestimates the noise by N/(N − n), and B̂
// over-corrects), available through NoiseVar. The variance is accumulated
// by Welford's update, which stays accurate when the per-datum gradients
// are large and nearly equal (far from the mode). That costs O(n·d) per
// call and needs n ≥ 2.
//
// Concurrency: a Minibatch is not safe for concurrent use. It owns its
// batch, its random stream and its buffers, so each chain needs its own;
// RunChains hands every chain its own random source to build one from.
// Calls that overlap in time (two chains sharing one Minibatch) are
// detected at the cost of two atomic operations per call: the Minibatch
// then refuses to compute, now and for good, writing NaN into every later
// gradient, and the sampler's step fails with a *StepError wrapping
// ErrUnsupported that says so (GradOn returns that error directly).
// Detection is best effort: calls that merely interleave without
// overlapping go unnoticed but make the chains share one stream of
// batches, so the results depend on scheduling.
type Minibatch struct {
	// Noise enables the estimate of V̂. Set it before the first call to Grad.
	Noise bool

	model   Model
	n       int
	replace bool
	src     rand.Source
	rng     *rand.Rand
	perm    []int // the persistent permutation (permuted draws), or nil
	seen    []int // the rejection draws' hash set (1 + index), or nil
	idx     []int

	busy   atomic.Bool // a call is under way
	shared atomic.Bool // two calls overlapped: refuse from now on

	gi    []float64 // a per-datum gradient, allocated on first use
	noise noiseAcc
}

// NewMinibatch returns a Minibatch of size n over m, drawing indices from
// src. With replace false each batch has n distinct items.
func NewMinibatch(m Model, n int, replace bool, src rand.Source) (*Minibatch, error) {
	if isNil(m) {
		return nil, errorf(ErrNil, "NewMinibatch: nil model")
	}
	if isNil(src) {
		return nil, errorf(ErrNil, "NewMinibatch: nil random source")
	}
	if d := m.Dim(); d <= 0 {
		return nil, errorf(ErrDimension, "NewMinibatch: model has dimension %d", d)
	}
	N := m.Len()
	if N <= 0 {
		return nil, errorf(ErrDimension, "NewMinibatch: model has %d data items", N)
	}
	if n <= 0 || (!replace && n > N) {
		return nil, errorf(ErrRange, "NewMinibatch: batch size %d not in [1, %d]", n, N)
	}
	permuted := !replace && (N <= permMaxN || 2*n > N)
	words, what := n, fmt.Sprintf("the indices of a batch of %d", n)
	if permuted {
		words, what = n+N, what+fmt.Sprintf(" and a permutation of N = %d", N)
	}
	if err := checkMemory("NewMinibatch", what, floatBytes(words), 0); err != nil {
		return nil, err
	}
	b := &Minibatch{model: m, n: n, replace: replace, src: src, rng: rand.New(src), idx: make([]int, n)}
	switch {
	case permuted:
		b.perm = make([]int, N)
		for i := range b.perm {
			b.perm[i] = i
		}
	case !replace:
		b.seen = make([]int, seenSize(n))
	}
	return b, nil
}

// permMaxN is the largest N whose batches without replacement are drawn
// from a persistent permutation of the N items (8 MiB of indices); above
// it, and for batches of at most N/2, they are drawn by rejection, so that
// a Minibatch over 10⁸ items holds O(n) memory, not 800 MB.
const permMaxN = 1 << 20

// seenSize returns the size of the rejection draws' hash set for batches
// of n: a power of two at least 2n, so that a probe finds a free slot in
// at most two looks on average.
func seenSize(n int) int {
	s := 16
	for s < 2*n {
		s <<= 1
	}
	return s
}

// sharedWhat and errShared are the fault of a Minibatch caught in use by
// two goroutines.
const sharedWhat = "Minibatch used by two goroutines at once: every chain needs its own Minibatch (build it in RunChains' newSampler from the chain's source)"

var errShared = errorf(ErrUnsupported, sharedWhat)

// acquire marks a call under way. It reports false, and poisons the
// Minibatch, if another call is under way or one was caught before.
func (b *Minibatch) acquire() bool {
	if !b.busy.CompareAndSwap(false, true) {
		b.shared.Store(true)
		return false
	}
	if b.shared.Load() {
		b.busy.Store(false)
		return false
	}
	return true
}

func (b *Minibatch) release() { b.busy.Store(false) }

// fault reports errShared once two calls have overlapped (faulter).
func (b *Minibatch) fault() (string, error) {
	if b.shared.Load() {
		return sharedWhat, errShared
	}
	return "", nil
}

func fillNaN(x []float64) {
	for i := range x {
		x[i] = math.NaN()
	}
}

// Dim returns the dimension of θ, the model's Dim. Sampler constructors
// check it against len(theta0).
func (b *Minibatch) Dim() int { return b.model.Dim() }

// Size returns the batch size n.
func (b *Minibatch) Size() int { return b.n }

// Indices returns the data indices of the last batch (read only).
func (b *Minibatch) Indices() []int { return b.idx }

// Draw draws a new batch of indices and returns it (read only). Grad calls it;
// call it directly to evaluate something else on the same batch.
func (b *Minibatch) Draw() []int {
	if b.acquire() {
		b.draw()
		b.release()
	}
	return b.idx
}

func (b *Minibatch) draw() {
	N := b.model.Len()
	if b.replace {
		for k := range b.idx {
			b.idx[k] = b.rng.IntN(N)
		}
		return
	}
	if b.perm == nil {
		b.drawRejecting(N)
		return
	}
	// Partial Fisher–Yates over a persistent permutation: O(n) per batch,
	// and uniform over n-subsets whatever order perm was left in.
	for k := range b.n {
		j := k + b.rng.IntN(N-k)
		b.perm[k], b.perm[j] = b.perm[j], b.perm[k]
		b.idx[k] = b.perm[k]
	}
}

// drawRejecting draws n distinct items of N ≥ 2n by rejection: uniform
// draws, each kept unless the batch already holds it. Each ordered batch of
// distinct items is as likely as any other, so the batch is uniform over
// n-subsets; a draw is rejected with probability below n/N ≤ ½, so a batch
// costs at most 2n draws on average, and O(n) memory.
func (b *Minibatch) drawRejecting(N int) {
	clear(b.seen)
	mask := uint64(len(b.seen) - 1)
	for k := 0; k < b.n; {
		i := b.rng.IntN(N)
		// Open addressing with linear probing, slots holding 1 + index.
		h := (uint64(i) * 0x9e3779b97f4a7c15 >> 32) & mask
		for b.seen[h] != 0 && b.seen[h] != i+1 {
			h = (h + 1) & mask
		}
		if b.seen[h] == i+1 {
			continue
		}
		b.seen[h] = i + 1
		b.idx[k] = i
		k++
	}
}

// Grad draws a new minibatch and writes ∇Ũ(θ) into dst. dst and theta
// have length Dim (the samplers check it at construction).
func (b *Minibatch) Grad(dst, theta []float64) {
	if !b.acquire() {
		fillNaN(dst)
		return
	}
	b.draw()
	b.gradOn(dst, theta, b.idx)
	b.release()
}

// GradOn writes ∇Ũ(θ) computed on the given indices into dst, with the
// scaling N/len(idx). It does not draw a batch. It returns an error, and
// writes nothing, if dst or theta is not of length Dim, idx is empty, or an
// index is outside [0, N); or if the Minibatch is in use by another
// goroutine.
func (b *Minibatch) GradOn(dst, theta []float64, idx []int) error {
	d, N := b.model.Dim(), b.model.Len()
	if len(dst) != d || len(theta) != d {
		return errorf(ErrDimension, "Minibatch.GradOn: len(dst) = %d, len(theta) = %d, want the model's dimension %d", len(dst), len(theta), d)
	}
	if len(idx) == 0 {
		return errorf(ErrRange, "Minibatch.GradOn: no indices")
	}
	for k, i := range idx {
		if uint(i) >= uint(N) {
			return errorf(ErrRange, "Minibatch.GradOn: idx[%d] = %d not in [0, %d)", k, i, N)
		}
	}
	if !b.acquire() {
		return errShared
	}
	b.gradOn(dst, theta, idx)
	b.release()
	return nil
}

// gradOn is GradOn on valid arguments.
func (b *Minibatch) gradOn(dst, theta []float64, idx []int) {
	clear(dst)
	m := b.model
	m.LogPriorGrad(dst, theta)
	scale := float64(m.Len()) / float64(len(idx))
	switch bm, ok := m.(BatchModel); {
	case b.Noise:
		b.gradNoise(dst, theta, idx, scale)
	case ok:
		bm.LogLikGradBatch(dst, theta, idx, scale)
	default:
		for _, i := range idx {
			m.LogLikGrad(dst, theta, i, scale)
		}
	}
	for j := range dst {
		dst[j] = -dst[j]
	}
}

var (
	_ SameBatchGradient = (*Minibatch)(nil)
	_ NoiseEstimator    = (*Minibatch)(nil)
)

// NewBatch draws a new batch (SameBatchGradient); GradSameBatch evaluates
// on it.
func (b *Minibatch) NewBatch() { b.Draw() }

// GradSameBatch writes ∇Ũ(θ) on the batch of the last call to NewBatch,
// Draw or Grad (SameBatchGradient).
func (b *Minibatch) GradSameBatch(dst, theta []float64) {
	if !b.acquire() {
		fillNaN(dst)
		return
	}
	b.gradOn(dst, theta, b.idx)
	b.release()
}

// FullGradient returns the exact gradient ∇U(θ) of m over all N items. It is
// for tests, references and small problems. The Gradient it returns has a
// method Dim() int, the model's, which the sampler constructors check
// against len(theta0). It returns nil if m is nil, which the constructors
// report as a nil gradient.
func FullGradient(m Model) Gradient {
	if isNil(m) {
		return nil
	}
	return fullGradient{m}
}

type fullGradient struct{ m Model }

func (f fullGradient) Dim() int { return f.m.Dim() }

func (f fullGradient) Grad(dst, theta []float64) {
	clear(dst)
	f.m.LogPriorGrad(dst, theta)
	for i := range f.m.Len() {
		f.m.LogLikGrad(dst, theta, i, 1)
	}
	for j := range dst {
		dst[j] = -dst[j]
	}
}
