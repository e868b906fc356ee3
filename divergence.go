// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"
)

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
	vir     virial
}

// virial accumulates a chain's configurational temperature over the
// positions θ its transitions reach, each with the gradient computed there:
// T = mean (θ − a)·∇Ũ(θ) / d, for a fixed anchor a. Integration by parts
// gives E_π[(θ − a)·∇U(θ)] = d for any proper density π ∝ e^{−U} whose
// tails decay, and ∇Ũ is unbiased for ∇U: T is 1 on the target, whatever
// its shape, above 1 for a chain spread too wide (a step too large, a
// run-away) and below 1 for one too narrow (noise missing, or stuck).
// Run reads it in batches of steps (temperatureError).
type virial struct {
	anchor []float64 // a; empty while off
	stride int       // every stride-th position counts (Run's thinning)
	tick   int       // positions offered since start
	batch  int       // counted positions per batch
	n      int       // steps in the current batch
	cur    float64   // its sum
	means  []float64 // each full batch's mean (θ − a)·∇Ũ / d
}

// start turns the accumulation on, anchored at a, counting every
// stride-th position offered, in batches of batch; it keeps room for want
// batches so that add never allocates.
func (v *virial) start(a []float64, stride, batch, want int) {
	v.anchor = append(v.anchor[:0], a...)
	v.stride, v.tick = max(stride, 1), 0
	v.batch, v.n, v.cur = max(batch, 1), 0, 0
	if cap(v.means) < want+1 {
		v.means = make([]float64, 0, want+1)
	}
	v.means = v.means[:0]
}

// stop turns the accumulation off.
func (v *virial) stop() { v.anchor = v.anchor[:0] }

// on says whether the accumulation is on.
func (v *virial) on() bool { return len(v.anchor) > 0 }

// counts says whether the next position offered counts (every stride-th).
func (v *virial) counts() bool {
	v.tick++
	return v.tick%v.stride == 0
}

// add accumulates (θ − a)·g for a position θ and its gradient g, if it
// counts.
func (v *virial) add(theta, g []float64) {
	if !v.on() || !v.counts() {
		return
	}
	var s float64
	for i, a := range v.anchor {
		s += (theta[i] - a) * g[i]
	}
	v.sum(s)
}

// addSum accumulates one position's (θ − a)·g, computed by the caller,
// if it counts.
func (v *virial) addSum(s float64) {
	if !v.counts() {
		return
	}
	v.sum(s)
}

// sum accumulates one counted position's (θ − a)·g.
func (v *virial) sum(s float64) {
	v.cur += s
	v.n++
	if v.n == v.batch {
		if len(v.means) < cap(v.means) {
			v.means = append(v.means, v.cur/float64(v.n*len(v.anchor)))
		}
		v.cur, v.n = 0, 0
	}
}

// virialer is a sampler whose divTracker accumulates the virial.
type virialer interface{ virialState() *virial }

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
	d.vir.add(to, g)
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

// The configurational-temperature test of Run (virial): Run measures it
// at the positions of the steps after burn-in, every Thin-th (the kept
// draws' steps), of a run of at least virialMinSteps such positions, in
// virialBatches batches, and fails the run with ErrTemperature when the
// batches' mean lies outside [virialLow, virialHigh] by more than virialZ
// of its standard errors (from the batch means). Outside those bounds the
// chain's variance is off by a factor of two or more: on N(0, 1), SGLD's
// variance is 1/(1 − ε/2), T = 2 at ε = 1; a step past stability runs away
// and T grows without bound; a chain missing noise, or stuck, has T < 1.
const (
	virialMinSteps = 200
	virialBatches  = 20
	virialHigh     = 2
	virialLow      = 0.5
	virialZ        = 4
)

// temperatureError returns the error of a chain whose configurational
// temperature, accumulated in v over the run's sampling steps, fails the
// test; nil when it passes or v holds too few batches to judge.
func (v *virial) temperatureError(step int) error {
	b := len(v.means)
	if b < virialBatches/2 {
		return nil
	}
	var mean, ss float64
	for _, m := range v.means {
		mean += m
	}
	mean /= float64(b)
	for _, m := range v.means {
		ss += (m - mean) * (m - mean)
	}
	se := math.Sqrt(ss / float64(b-1) / float64(b))
	if !(math.Abs(mean-1) > virialZ*se) || (mean <= virialHigh && mean >= virialLow) {
		return nil
	}
	what := fmt.Sprintf("the chain is not at its target's temperature: its configurational temperature mean (θ − θ₀)·∇Ũ(θ)/d over the sampling steps is %.3g ± %.2g, where it is 1 on the target whatever its shape", mean, se)
	if mean > virialHigh || math.IsNaN(mean) {
		what += " — spread about that many times too wide in variance, or running away: the step size is too large for this sampler on this posterior (or the chain has not yet reached it: a longer burn-in)"
	} else {
		what += " — too narrow: the sampler injects too little noise for its drift (a missing correction term, a step too small for the chain to leave its start)"
	}
	return &StepError{Step: step, Index: -1, Value: mean, Err: ErrTemperature, What: what}
}
