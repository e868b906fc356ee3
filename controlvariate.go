// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
)

// ControlVariateSettings configures NewControlVariate. The zero value (or
// nil) computes the centre's gradient by one full pass and never
// re-centres.
type ControlVariateSettings struct {
	// CenterGrad is the full-data log-likelihood gradient at the centre,
	// Σ_i ∇log p(x_i | θ̂) over all N items (copied). Nil means computed by
	// one full pass over the data.
	CenterGrad []float64
	// RecenterEvery, if positive, makes the estimator SVRG's (Dubey et
	// al. 2016): every RecenterEvery-th call of Grad after the first moves
	// the centre to the point it is called at, by a full pass over the
	// data, and that call's gradient is exact. Zero means never.
	RecenterEvery int
}

// ControlVariate is the control-variate stochastic gradient of a Model
// (Baker, Fearnhead, Fox & Nemeth 2019; doc/equations.md §7.4): with a
// centre θ̂ near the posterior mode, the full-data log-likelihood gradient
// ĝ = Σ_i ∇log p(x_i | θ̂) computed once, and a fresh minibatch S of size n
// at every call,
//
//	∇Ũ(θ) = −∇log p(θ) − ĝ − (N/n) Σ_{i∈S} [∇log p(x_i | θ) − ∇log p(x_i | θ̂)].
//
// It is unbiased for ∇U(θ) wherever θ̂ is, and exact at θ = θ̂. Its noise is
// that of a minibatch mean of the differences between θ and θ̂, which near
// a concentrated posterior's mode grow with ‖θ − θ̂‖ ~ N^(−1/2): the
// variance is O(N·d/n) where a Minibatch's is O(N²/n), so a batch that
// does not grow with N keeps the sampler's excess temperature fixed. Far
// from θ̂, or on a posterior that is not concentrated, the differences are
// as large as the gradients themselves and the estimator is up to twice
// as noisy as a Minibatch at twice the cost.
//
// Each call costs 2n per-datum gradient evaluations (at θ and at θ̂), with
// a BatchModel's batch call where the model has one and Noise is not set
// — one call for both when the BatchModel also has the method
// LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale
// float64), adding scale·Σ_{i∈idx} [∇log p(x_i | θ) − ∇log p(x_i | center)]
// (a dataset.Model reads each row once for both); it allocates nothing. With Noise set, Grad also estimates the diagonal of
// its own noise covariance from the batch's per-datum differences (as a
// Minibatch does from its per-datum gradients), for B̂ and for sample.Run's
// heat check. The batches are drawn as a Minibatch draws them, with or
// without replacement, and the concurrency rules are a Minibatch's: each
// chain needs its own ControlVariate. The full passes over the data stream
// the items in order on every core and give the same bits for any
// GOMAXPROCS.
type ControlVariate struct {
	// Noise enables the estimate of V̂. Set it before the first call to Grad.
	Noise bool

	mb     *Minibatch // the batch stream (and the concurrency guard)
	center []float64  // θ̂
	cgrad  []float64  // Σ_i ∇log p(x_i | θ̂)
	every  int
	calls  int // calls of Grad so far
	passes int // full passes made
	pass   *fullpass.Pass
	gi     []float64
}

// NewControlVariate returns the control-variate gradient of m centred at
// center (copied), on minibatches of size n drawn from src (with
// replacement if replace). Unless s gives the centre's gradient it makes
// one full pass over the data. center must be finite and of the model's
// dimension, and the full-data gradient at it finite.
func NewControlVariate(m Model, center []float64, n int, replace bool, src rand.Source, s *ControlVariateSettings) (*ControlVariate, error) {
	const who = "NewControlVariate"
	if s == nil {
		s = &ControlVariateSettings{}
	}
	mb, err := NewMinibatch(m, n, replace, src)
	if err != nil {
		return nil, errorf(nil, "%s: %w", who, err)
	}
	d := m.Dim()
	if err := checkVector(who, "center", center, d, anyFinite); err != nil {
		return nil, err
	}
	if s.CenterGrad != nil {
		if err := checkVector(who, "CenterGrad", s.CenterGrad, d, anyFinite); err != nil {
			return nil, err
		}
	}
	if s.RecenterEvery < 0 {
		return nil, errorf(ErrRange, "%s: RecenterEvery = %d, want ≥ 0", who, s.RecenterEvery)
	}
	c := &ControlVariate{mb: mb, center: append([]float64(nil), center...), cgrad: make([]float64, d), every: s.RecenterEvery, gi: make([]float64, d)}
	if s.CenterGrad != nil {
		copy(c.cgrad, s.CenterGrad)
		return c, nil
	}
	c.recenter(c.center)
	if i := firstNonFinite(c.cgrad); i >= 0 {
		return nil, errorf(ErrNonFinite, "%s: the full-data gradient at the centre is %v at coordinate %d", who, c.cgrad[i], i)
	}
	return c, nil
}

// recenter moves the centre to theta by a full pass.
func (c *ControlVariate) recenter(theta []float64) {
	if c.pass == nil {
		c.pass = fullpass.New(c.mb.model)
	}
	copy(c.center, theta)
	c.pass.Grad(c.cgrad, c.center)
	c.passes++
}

// Dim returns the dimension of θ, the model's.
func (c *ControlVariate) Dim() int { return c.mb.Dim() }

// Size returns the batch size n.
func (c *ControlVariate) Size() int { return c.mb.n }

// Center returns the centre θ̂ (read only).
func (c *ControlVariate) Center() []float64 { return c.center }

// CenterGrad returns Σ_i ∇log p(x_i | θ̂) at the centre (read only).
func (c *ControlVariate) CenterGrad() []float64 { return c.cgrad }

// Passes returns the number of full passes over the data made so far.
func (c *ControlVariate) Passes() int { return c.passes }

// Grad draws a new minibatch and writes ∇Ũ(θ) into dst, re-centring first
// if an SVRG re-centring is due.
func (c *ControlVariate) Grad(dst, theta []float64) {
	b := c.mb
	if !b.acquire() {
		fillNaN(dst)
		return
	}
	c.calls++
	if c.every > 0 && c.calls > 1 && (c.calls-1)%c.every == 0 {
		c.recenter(theta)
	}
	b.draw()
	c.gradOn(dst, theta, b.idx)
	b.release()
}

// NewBatch draws a new batch (SameBatchGradient); GradSameBatch evaluates
// on it.
func (c *ControlVariate) NewBatch() { c.mb.Draw() }

// GradSameBatch writes ∇Ũ(θ) on the batch of the last call to NewBatch or
// Grad (SameBatchGradient).
func (c *ControlVariate) GradSameBatch(dst, theta []float64) {
	b := c.mb
	if !b.acquire() {
		fillNaN(dst)
		return
	}
	c.gradOn(dst, theta, b.idx)
	b.release()
}

// gradOn writes the estimate on the batch idx into dst.
func (c *ControlVariate) gradOn(dst, theta []float64, idx []int) {
	m := c.mb.model
	clear(dst)
	m.LogPriorGrad(dst, theta)
	for j, g := range c.cgrad {
		dst[j] += g
	}
	scale := float64(m.Len()) / float64(len(idx))
	switch bm, ok := m.(BatchModel); {
	case c.Noise:
		c.mb.noise.reset(len(dst))
		for k, i := range idx {
			clear(c.gi)
			m.LogLikGrad(c.gi, theta, i, 1)
			m.LogLikGrad(c.gi, c.center, i, -1)
			c.mb.noise.add(k, c.gi, dst, scale)
		}
		c.mb.noise.finish(len(idx), m.Len(), c.mb.replace)
	case ok:
		if dm, ok := bm.(diffBatchModel); ok {
			dm.LogLikGradDiffBatch(dst, theta, c.center, idx, scale)
			break
		}
		bm.LogLikGradBatch(dst, theta, idx, scale)
		bm.LogLikGradBatch(dst, c.center, idx, -scale)
	default:
		for _, i := range idx {
			m.LogLikGrad(dst, theta, i, scale)
			m.LogLikGrad(dst, c.center, i, -scale)
		}
	}
	for j := range dst {
		dst[j] = -dst[j]
	}
}

// diffBatchModel is the optional method of a BatchModel that gives the
// control variate's correction in one call (ControlVariate).
type diffBatchModel interface {
	LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale float64)
}

// fault reports the batch stream's fault (faulter).
func (c *ControlVariate) fault() (string, error) { return c.mb.fault() }

// CanEstimateNoise reports whether NoiseVar gives an estimate: Noise must
// be set and the batch must hold at least two items (NoiseEstimator).
func (c *ControlVariate) CanEstimateNoise() error {
	if !c.Noise {
		return errorf(ErrUnsupported, "ControlVariate: Noise is not set, so there is no estimate of the gradient noise")
	}
	if c.mb.n < 2 {
		return errorf(ErrRange, "ControlVariate: the noise estimate needs a batch of at least 2 items, have %d", c.mb.n)
	}
	return nil
}

// NoiseVar writes the diagonal of V̂ for the last batch into dst, from
// the per-datum differences. It writes zeros unless Noise was set.
func (c *ControlVariate) NoiseVar(dst []float64) { c.mb.noise.noiseVar(dst) }

var (
	_ SameBatchGradient = (*ControlVariate)(nil)
	_ NoiseEstimator    = (*ControlVariate)(nil)
)

// kindControlVariate is the checkpoint kind of a ControlVariate
// (checkpoint.go): an on-disk string that must never change.
const kindControlVariate = "ControlVariate"

// MarshalBinary checkpoints the estimator in the package's checkpoint
// format (documented in checkpoint.go), of kind "ControlVariate": the
// batch stream's fields (as a Minibatch's), the centre, the gradient
// there, the calls and full passes so far, and the random source's state.
func (c *ControlVariate) MarshalBinary() ([]byte, error) {
	b := c.mb
	if !b.acquire() {
		return nil, errShared
	}
	defer b.release()
	return marshal("ControlVariate.MarshalBinary", kindControlVariate, b.model.Dim(), []any{b.src}, func(e *encoder) {
		b.encode(e)
		e.floats(c.center)
		e.floats(c.cgrad)
		e.int(c.calls)
		e.int(c.passes)
	})
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// ControlVariate over the same model with the same batch size,
// replacement and RecenterEvery. On error, which wraps ErrCheckpoint, c is
// left as it was.
func (c *ControlVariate) UnmarshalBinary(data []byte) error {
	b := c.mb
	if !b.acquire() {
		return errShared
	}
	defer b.release()
	d := b.model.Dim()
	return restore("ControlVariate.UnmarshalBinary", kindControlVariate, d, data, []any{b.src}, func(dec *decoder) commit {
		setBatch := b.decode(dec)
		center := dec.floats("centre", d, anyFinite)
		cgrad := dec.floats("centre gradient", d, anyFinite)
		calls := dec.count("calls")
		passes := dec.count("full passes")
		return commit{set: func() {
			setBatch()
			copy(c.center, center)
			copy(c.cgrad, cgrad)
			c.calls, c.passes = calls, passes
		}}
	})
}
