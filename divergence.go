// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

// divergenceNats is the change in potential, in nats, above which a
// transition of a chain of dimension d ≤ 1000 is divergent; above d = 1000
// the threshold is d nats. As in Stan (whose threshold on the energy error
// is also 1000), a healthy chain's per-step change is of order √d at
// equilibrium and of order εd while it relaxes from the mode (which at
// d = 10⁶ exceeds 1000); an exploding one exceeds any fixed bound within a
// few steps.
const divergenceNats = 1000

// divergenceThreshold returns the threshold for dimension d.
func divergenceThreshold(d int) float64 { return max(divergenceNats, float64(d)) }

// Divergence describes a divergent transition: the step that made it, the
// coordinate of θ contributing most to it, and the estimated change in the
// potential U over the transition. For a transition that PSGLD counts
// because its step was unstable, Index is the unstable coordinate and
// DeltaU the change predicted to second order when the step was taken.
type Divergence struct {
	Step   int
	Index  int
	DeltaU float64
}

// divTracker holds a transition awaiting judgement.
type divTracker struct {
	from, g []float64 // θ and ∇Ũ(θ) at the start of the pending transition
	step    int       // its step number; 0 if none is pending
	n       int
	last    Divergence
}

func newDivTracker(d int) divTracker {
	return divTracker{from: make([]float64, d), g: make([]float64, d)}
}

// begin records the start θ and gradient of transition step.
func (d *divTracker) begin(step int, from, g []float64) {
	copy(d.from, from)
	copy(d.g, g)
	d.step = step
}

// finish judges the pending transition, if any, given θ' and ∇Ũ(θ').
func (d *divTracker) finish(to, g []float64) {
	if d.step == 0 {
		return
	}
	d.judge(d.step, d.from, to, d.g, g)
	d.step = 0
}

// judge counts the transition from → to if it is divergent.
func (d *divTracker) judge(step int, from, to, g0, g1 []float64) {
	var du, worst float64
	idx := -1
	for i, x := range to {
		c := 0.5 * (x - from[i]) * (g0[i] + g1[i])
		du += c
		if a := math.Abs(c); a > worst || idx < 0 {
			worst, idx = a, i
		}
	}
	d.record(step, idx, du)
}

// record counts transition step, whose estimated change in potential is du
// and worst coordinate idx, if it is divergent and was not already counted
// as unstable.
func (d *divTracker) record(step, idx int, du float64) {
	if d.n > 0 && d.last.Step == step {
		return
	}
	if du > divergenceThreshold(len(d.from)) || du != du {
		d.n++
		d.last = Divergence{Step: step, Index: idx, DeltaU: du}
	}
}

// stableLimit bounds ε·κ for a stable step: the deterministic part of a
// Langevin step along a direction of curvature κ (in the step's metric)
// multiplies the distance to the mode by 1 − εκ, which grows in magnitude
// once εκ > 2. A chain driven by a fixed preconditioner then runs away
// geometrically and its ΔU soon exceeds the threshold; one whose
// preconditioner adapts to its own spread (pSGLD's RMSprop) shrinks the
// step as it runs away, and can settle at several times the posterior's
// scale with a small ΔU per step. PSGLD judges the step itself by this
// limit (doc/equations.md §11.4); HAMCMC rejects the curvature pairs of
// steps beyond it that ran away (§10.8).
const stableLimit = 2

// unstable counts transition step as divergent: the step that made it was
// linearly unstable along coordinate idx (ε·κ > stableLimit). du is the
// change in potential predicted for it, the judgement of its ΔU being to
// come; record will not count the transition a second time.
func (d *divTracker) unstable(step, idx int, du float64) {
	d.n++
	d.last = Divergence{Step: step, Index: idx, DeltaU: du}
}

// divMark is the part of a divTracker that a step changes in place: a
// failed step puts it back (the start θ and gradient change only when a
// step succeeds).
type divMark struct {
	step, n int
	last    Divergence
}

func (d *divTracker) mark() divMark { return divMark{step: d.step, n: d.n, last: d.last} }

func (d *divTracker) reset(m divMark) { d.step, d.n, d.last = m.step, m.n, m.last }

// count returns the DivergenceCounter values.
func (d *divTracker) count() (int, Divergence) { return d.n, d.last }
