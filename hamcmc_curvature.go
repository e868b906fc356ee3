// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/lbfgs"
)

// This file holds HAMCMC's curvature pairs: the gradients on one batch that
// make them, how they are offered to the L-BFGS memory, and the memory's
// checkpoint encoding.

// batchGrad evaluates a Gradient on one batch at a time when it implements
// SameBatchGradient, and freshly at every call otherwise.
type batchGrad struct {
	g    Gradient
	sb   SameBatchGradient
	same bool
}

func newBatchGrad(g Gradient) batchGrad {
	sb, ok := g.(SameBatchGradient)
	return batchGrad{g: g, sb: sb, same: ok}
}

func (b *batchGrad) newBatch() {
	if b.same {
		b.sb.NewBatch()
	}
}

// grad writes ∇Ũ(θ) on the current batch; for a plain Gradient each call is
// a fresh evaluation.
func (b *batchGrad) grad(dst, theta []float64) {
	if b.same {
		b.sb.GradSameBatch(dst, theta)
		return
	}
	b.g.Grad(dst, theta)
}

// push offers the pair s = x − base, y = g1 − g0 (damped by the L-BFGS memory).
func (h *HAMCMC) push(x, base []float64) {
	for i := range h.sv {
		h.sv[i] = x[i] - base[i]
		h.yv[i] = h.g1[i] - h.g0[i]
	}
	// The lengths are the sampler's own, so Push cannot fail.
	_, _ = h.lb.Push(h.sv, h.yv)
	st := h.lb.Stats()
	h.stats.PairsAccepted, h.stats.PairsRejected = st.Accepted, st.Rejected
}

// encodeLBFGS appends an L-BFGS memory: its size and settings, the window
// of pairs (s, y) as damped by Push, and the statistics.
func encodeLBFGS(e *encoder, l *lbfgs.Approx) {
	st := l.State()
	e.int(l.Dim())
	e.int(l.Mem())
	e.f64(l.Gamma())
	e.f64(l.Lambda())
	e.f64(l.MinCurvature)
	e.f64(l.MinScaledCurvature)
	e.int(st.Next)
	e.int(st.N)
	for k := range l.Mem() {
		e.bool(st.Have[k])
		e.floats(st.S[k])
		e.floats(st.Y[k])
	}
	e.int(st.Stats.Accepted)
	e.int(st.Stats.Rejected)
	e.int(st.Stats.Dropped)
}

// decodeLBFGS reads an L-BFGS memory of the same size and settings as
// like and returns it, its products rebuilt; nil after a failure.
func decodeLBFGS(d *decoder, like *lbfgs.Approx) *lbfgs.Approx {
	dim, mem := like.Dim(), like.Mem()
	d.equal("L-BFGS dimension", dim)
	d.equal("L-BFGS memory", mem)
	if d.err != nil {
		return nil
	}
	if g := d.f64("L-BFGS γ", anyValue); d.err == nil && math.Float64bits(g) != math.Float64bits(like.Gamma()) {
		d.fail("checkpoint has L-BFGS γ = %v, the receiver %v", g, like.Gamma())
	}
	if lam := d.f64("L-BFGS λ", anyValue); d.err == nil && math.Float64bits(lam) != math.Float64bits(like.Lambda()) {
		d.fail("checkpoint has L-BFGS λ = %v, the receiver %v", lam, like.Lambda())
	}
	minCurv := d.f64("L-BFGS MinCurvature", nonNegative)
	minScaled := d.f64("L-BFGS MinScaledCurvature", nonNegative)
	st := lbfgs.State{Have: make([]bool, mem), S: make([][]float64, mem), Y: make([][]float64, mem)}
	st.Next = d.int("L-BFGS next slot", 0, mem-1)
	st.N = d.int("L-BFGS pair count", 0, mem)
	for k := range mem {
		st.Have[k] = d.bool("L-BFGS slot in use")
		st.S[k] = d.floats("L-BFGS s", dim, anyFinite)
		st.Y[k] = d.floats("L-BFGS y", dim, anyFinite)
	}
	st.Stats.Accepted = d.count("L-BFGS accepted pairs")
	st.Stats.Rejected = d.count("L-BFGS rejected pairs")
	st.Stats.Dropped = d.count("L-BFGS dropped pairs")
	if d.err != nil {
		return nil
	}
	l, err := lbfgs.New(dim, mem, like.Gamma(), like.Lambda())
	if err != nil {
		d.fail("%v", err)
		return nil
	}
	l.MinCurvature, l.MinScaledCurvature = minCurv, minScaled
	if err := l.Restore(st); err != nil {
		d.fail("%v", err)
		return nil
	}
	return l
}
