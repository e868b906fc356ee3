// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/lbfgs"
	"gonum.org/v1/gonum/floats"
)

// This file holds HAMCMC's curvature pairs: the gradients on one batch that
// make them, the test of a runaway each pair must pass before the L-BFGS
// memory takes it, and the memory's checkpoint encoding.

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

// offer offers the pair s = x − base, y = g1 − g0 of a step with step size
// eps to the L-BFGS memory (which damps it and tests its curvature), unless
// the pair shows that the step which made it was unstable and ran away
// (doc/equations.md §10.8). gammaI says that the step was preconditioned by
// γI (a warm-up step, or a step with no pair in use) rather than by the
// memory's H; eps = 0 (the pairs of Settings.Init) skips the test.
//
// The test. The pair's segment ran away if its trapezoid ΔU,
// ½ sᵀ(g0 + g1), exceeds the divergence threshold. Its step was unstable if
// ε·r > 2 (stableLimit), where r = yᵀH y / sᵀy and H is the step's
// preconditioner: with y = Ā s, Ā the Hessian of Ũ averaged over the
// segment (∇²Ũ for a quadratic), r is the Rayleigh quotient of Ā^½ H Ā^½ at
// Ā^½ s, a lower bound on the largest eigenvalue of H Ā, so the step
// multiplied some direction by |1 − ελ| > 1. A pair that passes both tests
// is rejected (a gap in the window, counted in Stats.PairsRejected):
// accepted, it would fit H to the runaway, and the chain would relax from
// far out without another divergence (on a target whose scales differ by
// 10⁶, from |θ| ≈ 10³⁴ for thousands of steps). Rejected, H stays the
// preconditioner that diverged, and the following transitions diverge and
// are counted as SGLD's would be. A step that is unstable without running
// away keeps its pair: repairing such steps is what H is for (decreasing
// schedules start with them). The product by H is computed only for a
// divergent segment. A pair with sᵀy ≤ 0 (a concave direction, or noise)
// is left to the memory's own test.
func (h *HAMCMC) offer(eps float64, x, base, g1, g0 []float64, gammaI bool) {
	var sy, du float64
	for i := range h.sv {
		si, yi := x[i]-base[i], g1[i]-g0[i]
		h.sv[i], h.yv[i] = si, yi
		sy += si * yi
		du += si * (g0[i] + g1[i])
	}
	if eps > 0 && sy > 0 && !(0.5*du <= divergenceThreshold(h.d)) {
		var yhy float64
		if gammaI {
			yhy = h.gamma * floats.Dot(h.yv, h.yv)
		} else {
			// The lengths are the sampler's own, so MulH cannot fail.
			_ = h.lb.MulH(h.z, h.yv)
			yhy = floats.Dot(h.yv, h.z)
		}
		if r := yhy / sy; !(eps*r <= stableLimit) { // NaN too
			// An empty pair: the memory rejects it and leaves its slot
			// a gap.
			clear(h.sv)
			clear(h.yv)
		}
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
