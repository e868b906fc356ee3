// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math/rand/v2"
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
// over-corrects), available through NoiseVar. That costs O(n·d) per call
// and needs n ≥ 2.
type Minibatch struct {
	// Noise enables the estimate of V̂. Set it before the first call to Grad.
	Noise bool

	model   Model
	n       int
	replace bool
	src     rand.Source
	rng     *rand.Rand
	perm    []int
	idx     []int

	// noise estimation buffers, allocated on first use
	gi, sum, sumsq, v []float64
}

// NewMinibatch returns a Minibatch of size n over m, drawing indices from
// src. With replace false each batch has n distinct items.
func NewMinibatch(m Model, n int, replace bool, src rand.Source) (*Minibatch, error) {
	if m == nil {
		return nil, errorf(ErrNil, "NewMinibatch: nil model")
	}
	if src == nil {
		return nil, errorf(ErrNil, "NewMinibatch: nil random source")
	}
	N := m.Len()
	if N <= 0 {
		return nil, errorf(ErrDimension, "NewMinibatch: model has %d data items", N)
	}
	if n <= 0 || (!replace && n > N) {
		return nil, errorf(ErrRange, "NewMinibatch: batch size %d not in [1, %d]", n, N)
	}
	b := &Minibatch{model: m, n: n, replace: replace, src: src, rng: rand.New(src), idx: make([]int, n)}
	if !replace {
		b.perm = make([]int, N)
		for i := range b.perm {
			b.perm[i] = i
		}
	}
	return b, nil
}

// Size returns the batch size n.
func (b *Minibatch) Size() int { return b.n }

// Indices returns the data indices of the last batch (read only).
func (b *Minibatch) Indices() []int { return b.idx }

// Draw draws a new batch of indices and returns it (read only). Grad calls it;
// call it directly to evaluate something else on the same batch.
func (b *Minibatch) Draw() []int {
	N := b.model.Len()
	if b.replace {
		for k := range b.idx {
			b.idx[k] = b.rng.IntN(N)
		}
		return b.idx
	}
	// Partial Fisher–Yates over a persistent permutation: O(n) per batch,
	// and uniform over n-subsets whatever order perm was left in.
	for k := range b.n {
		j := k + b.rng.IntN(N-k)
		b.perm[k], b.perm[j] = b.perm[j], b.perm[k]
		b.idx[k] = b.perm[k]
	}
	return b.idx
}

// Grad draws a new minibatch and writes ∇Ũ(θ) into dst.
func (b *Minibatch) Grad(dst, theta []float64) {
	b.Draw()
	b.GradOn(dst, theta, b.idx)
}

// GradOn writes ∇Ũ(θ) computed on the given indices into dst, with the
// scaling N/len(idx). It does not draw a batch.
func (b *Minibatch) GradOn(dst, theta []float64, idx []int) {
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

func (b *Minibatch) gradNoise(dst, theta []float64, idx []int, scale float64) {
	d := len(dst)
	if len(b.gi) != d {
		b.gi = make([]float64, d)
		b.sum = make([]float64, d)
		b.sumsq = make([]float64, d)
		b.v = make([]float64, d)
	}
	for j := range d {
		b.sum[j], b.sumsq[j] = 0, 0
	}
	m := b.model
	for _, i := range idx {
		for j := range d {
			b.gi[j] = 0
		}
		m.LogLikGrad(b.gi, theta, i, 1)
		for j, g := range b.gi {
			b.sum[j] += g
			b.sumsq[j] += g * g
			dst[j] += scale * g
		}
	}
	n := float64(len(idx))
	N := float64(m.Len())
	// Var(N·ḡ) = (N²/n)·S², times the finite-population correction 1 − n/N
	// when the batch is drawn without replacement; s² is unbiased for S².
	c := N * N / n
	if !b.replace {
		c *= 1 - n/N
	}
	for j := range d {
		if n < 2 {
			b.v[j] = 0
			continue
		}
		mean := b.sum[j] / n
		s2 := (b.sumsq[j] - n*mean*mean) / (n - 1)
		b.v[j] = max(c*s2, 0)
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
func (b *Minibatch) GradSameBatch(dst, theta []float64) { b.GradOn(dst, theta, b.idx) }

// CanEstimateNoise reports whether NoiseVar gives an estimate: Noise must
// be set and the batch must hold at least two items (NoiseEstimator).
func (b *Minibatch) CanEstimateNoise() error {
	if !b.Noise {
		return errorf(ErrUnsupported, "Minibatch: Noise is not set, so there is no estimate of the gradient noise")
	}
	if b.n < 2 {
		return errorf(ErrRange, "Minibatch: the noise estimate needs a batch of at least 2 items, have %d", b.n)
	}
	return nil
}

// NoiseVar writes the diagonal of V̂ for the last batch into dst. It writes
// zeros unless Noise was set.
func (b *Minibatch) NoiseVar(dst []float64) {
	if len(b.v) != len(dst) {
		for j := range dst {
			dst[j] = 0
		}
		return
	}
	copy(dst, b.v)
}

// FullGradient returns the exact gradient ∇U(θ) of m over all N items. It is
// for tests, references and small problems.
func FullGradient(m Model) Gradient {
	return GradFunc(func(dst, theta []float64) {
		for j := range dst {
			dst[j] = 0
		}
		m.LogPriorGrad(dst, theta)
		for i := range m.Len() {
			m.LogLikGrad(dst, theta, i, 1)
		}
		for j := range dst {
			dst[j] = -dst[j]
		}
	})
}
