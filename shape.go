// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
)

// FixedShape is an exact, full-data shape a: with it SCIR is the exact CIR
// process, whose every step leaves Gamma(a_j, 1) invariant.
type FixedShape []float64

// Shape copies a into dst.
func (a FixedShape) Shape(dst []float64) { copy(dst, a) }

// Dim returns len(a).
func (a FixedShape) Dim() int { return len(a) }

// Categorical is N categorical observations: item i is the one-hot vector at
// coordinate c[i].
type Categorical []int

// Len returns len(c).
func (c Categorical) Len() int { return len(c) }

// AddCounts adds scale to dst[c[i]].
func (c Categorical) AddCounts(dst []float64, i int, scale float64) { dst[c[i]] += scale }

// CountMinibatch is the minibatch shape estimate of the SCIR paper (Baker et
// al. 2018, Section 3.1),
//
//	â = α + (N/n) Σ_{i∈S} z_i,
//
// with S a fresh minibatch of n distinct items (drawn without replacement) at
// every call. It is unbiased for a = α + Σ_i z_i. With n = N the estimate is
// exact and computed once. Successive calls draw independent batches, so one
// CountMinibatch may feed several samplers in turn, but it is not safe for
// concurrent use.
type CountMinibatch struct {
	alpha []float64
	data  Counts
	n     int
	src   rand.Source
	rng   *rand.Rand
	perm  []int
	idx   []int
	full  []float64 // α + Σ_i z_i when n = N
}

// NewCountMinibatch returns the minibatch estimate of the shape α + Σ_i z_i
// from batches of n of the data's N items, drawn from src. Every α_j must be
// positive and finite. A Categorical dataset's labels are checked to lie in
// [0, len(alpha)); other Counts are checked through the shape at every step.
func NewCountMinibatch(alpha []float64, data Counts, n int, src rand.Source) (*CountMinibatch, error) {
	if len(alpha) == 0 {
		return nil, errorf(ErrDimension, "NewCountMinibatch: empty alpha")
	}
	for j, a := range alpha {
		if !(a > 0) || math.IsInf(a, 1) {
			return nil, errorf(ErrRange, "NewCountMinibatch: alpha[%d] = %v, want positive and finite", j, a)
		}
	}
	if isNil(data) {
		return nil, errorf(ErrNil, "NewCountMinibatch: nil data")
	}
	if isNil(src) {
		return nil, errorf(ErrNil, "NewCountMinibatch: nil random source")
	}
	N := data.Len()
	if N <= 0 {
		return nil, errorf(ErrDimension, "NewCountMinibatch: data has %d items", N)
	}
	if n <= 0 || n > N {
		return nil, errorf(ErrRange, "NewCountMinibatch: batch size %d not in [1, %d]", n, N)
	}
	if c, ok := data.(Categorical); ok {
		for i, l := range c {
			if l < 0 || l >= len(alpha) {
				return nil, errorf(ErrRange, "NewCountMinibatch: label %d of item %d not in [0, %d)", l, i, len(alpha))
			}
		}
	}
	b := &CountMinibatch{
		alpha: append([]float64(nil), alpha...),
		data:  data,
		n:     n,
		src:   src,
		rng:   rand.New(src),
		idx:   make([]int, n),
	}
	if n == N {
		b.full = make([]float64, len(alpha))
		b.FullShape(b.full)
		for i := range b.idx {
			b.idx[i] = i
		}
		return b, nil
	}
	b.perm = make([]int, N)
	for i := range b.perm {
		b.perm[i] = i
	}
	return b, nil
}

// Dim returns the number of coordinates, len(α).
func (b *CountMinibatch) Dim() int { return len(b.alpha) }

// Size returns the batch size n.
func (b *CountMinibatch) Size() int { return b.n }

// Indices returns the items of the last batch (read only).
func (b *CountMinibatch) Indices() []int { return b.idx }

// Shape draws a new minibatch and writes â = α + (N/n) Σ_{i∈S} z_i into dst.
// dst must have length Dim; otherwise Shape fills it with NaN, which the
// samplers report as an invalid shape estimate, and draws nothing.
func (b *CountMinibatch) Shape(dst []float64) {
	if len(dst) != len(b.alpha) {
		fillNaN(dst)
		return
	}
	if b.full != nil {
		copy(dst, b.full)
		return
	}
	copy(dst, b.alpha)
	N := b.data.Len()
	scale := float64(N) / float64(b.n)
	// Partial Fisher–Yates over a persistent permutation, as in Minibatch.
	for k := range b.n {
		j := k + b.rng.IntN(N-k)
		b.perm[k], b.perm[j] = b.perm[j], b.perm[k]
		b.idx[k] = b.perm[k]
		b.data.AddCounts(dst, b.perm[k], scale)
	}
}

// FullShape writes the exact shape a = α + Σ_i z_i into dst. It costs O(N).
func (b *CountMinibatch) FullShape(dst []float64) {
	copy(dst, b.alpha)
	for i := range b.data.Len() {
		b.data.AddCounts(dst, i, 1)
	}
}

// drawShape validates the step size of step and fills buf with the shape
// estimate from est: the input of Step for SCIR and SGRLDSimplex.
func drawShape(h float64, step int, est ShapeEstimator, buf []float64) error {
	if err := checkStepSize(h, step); err != nil {
		return err
	}
	if est == nil {
		return &StepError{Step: step, Index: -1, Value: math.NaN(), What: "no ShapeEstimator: use StepShape"}
	}
	est.Shape(buf)
	return nil
}

// checkShapeInput validates the step size of step and a caller-supplied
// shape estimate of length d: the input of StepShape.
func checkShapeInput(h float64, step, d int, ahat []float64) error {
	if err := checkStepSize(h, step); err != nil {
		return err
	}
	if len(ahat) != d {
		return &StepError{Step: step, Index: -1, Value: float64(len(ahat)), What: "length of shape estimate differs from dimension"}
	}
	return nil
}

// checkSimplexSetup validates the arguments shared by NewSCIR and
// NewSGRLDSimplex and returns the block length (0 for none).
func checkSimplexSetup(name string, est ShapeEstimator, theta0 []float64, src rand.Source, block int) (int, error) {
	d := len(theta0)
	if d == 0 {
		return 0, errorf(ErrDimension, "%s: empty theta0", name)
	}
	if isNil(src) {
		return 0, errorf(ErrNil, "%s: nil random source", name)
	}
	if est != nil && isNil(est) {
		return 0, errorf(ErrNil, "%s: the shape estimator is a nil %T (pass a nil ShapeEstimator to supply â with StepShape)", name, est)
	}
	if e, ok := est.(dimensioned); ok && e.Dim() != d {
		return 0, errorf(ErrDimension, "%s: shape estimator dimension %d, len(theta0) = %d", name, e.Dim(), d)
	}
	if block < 0 || (block > 0 && d%block != 0) {
		return 0, errorf(ErrDimension, "%s: Simplex = %d does not divide the dimension %d", name, block, d)
	}
	for j, v := range theta0 {
		if !(v >= 0) || math.IsInf(v, 1) {
			return 0, errorf(ErrRange, "%s: theta0[%d] = %v, want non-negative and finite", name, j, v)
		}
	}
	if block > 0 {
		for lo := 0; lo < d; lo += block {
			var sum float64
			for _, v := range theta0[lo : lo+block] {
				sum += v
			}
			if sum == 0 {
				return 0, errorf(ErrRange, "%s: theta0 is zero on the simplex block at %d", name, lo)
			}
		}
	}
	return block, nil
}

// kindCountMinibatch is the checkpoint kind of a CountMinibatch (checkpoint.go): an on-disk
// string that must never change.
const kindCountMinibatch = "CountMinibatch"

// MarshalBinary checkpoints the batch stream in the package's checkpoint
// format (documented in checkpoint.go), of kind "CountMinibatch": N, the
// batch size, the permutation (empty when the batch is all N items), the
// last batch and the random source's state. The source must implement
// encoding.BinaryMarshaler.
func (b *CountMinibatch) MarshalBinary() ([]byte, error) {
	return marshal("CountMinibatch.MarshalBinary", kindCountMinibatch, len(b.alpha), []any{b.src}, func(e *encoder) {
		e.int(b.data.Len())
		e.int(b.n)
		e.ints(b.perm)
		e.ints(b.idx)
	})
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// CountMinibatch over the same data with the same α and batch size. On
// error, which wraps ErrCheckpoint, b is left as it was.
func (b *CountMinibatch) UnmarshalBinary(data []byte) error {
	return restore("CountMinibatch.UnmarshalBinary", kindCountMinibatch, len(b.alpha), data, []any{b.src}, func(d *decoder) commit {
		N := b.data.Len()
		d.equal("number of data items N", N)
		d.equal("batch size", b.n)
		var perm, idx []int
		if b.full != nil {
			d.length("permutation", 0)
			idx = d.ints("last batch", b.n, N)
			for i, v := range idx {
				if d.err == nil && v != i {
					d.fail("last batch[%d] = %d; a batch of all N items is 0, 1, …, N−1", i, v)
				}
			}
		} else {
			perm = d.perm("permutation", N)
			idx = d.ints("last batch", b.n, N)
		}
		return commit{set: func() {
			copy(b.perm, perm)
			copy(b.idx, idx)
		}}
	})
}
