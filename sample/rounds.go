// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sgmcmc-go/sgmcmc"

	"gonum.org/v1/gonum/floats"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// Sampling rounds (doc/adaptation.md §5, §6). Warmup whitens a chain by
// the curvature at a few points and the covariance of short Langevin
// windows; where the posterior's curvature is not its covariance (a latent
// Gaussian process, a chain whose warmup ended in another part of the
// posterior) the frozen sampler then mixes far slower than its thinning
// assumes. A chain's draws say so themselves: after each sampling run on
// the dense path, the chain checks its own draws in the run's whitened
// coordinates z and, if they do not fit the preconditioner, re-adapts
// from them and samples again, the run before counting as warmup:
//
//   - an effective sample size below Draws/roundESS in some coordinate
//     (bulk ESS of the chain's own draws, split in two halves);
//   - a covariance with an eigenvalue above roundWidest times the largest
//     a sample covariance of n_eff independent draws of the identity
//     shows, (1 + √(d/n_eff))² (Marchenko–Pastur, n_eff the least ESS):
//     the draws extend more than √roundWidest of the preconditioner's
//     standard deviations along some direction, where the step size was
//     not measured (without the edge, right answers of a regression with
//     124 coefficients failed it at 4.7–5.4);
//   - a mean outside the warmup's Gaussian approximation, ‖z̄‖² above the
//     χ²_d quantile at 1 − settledTail (settledLimit, whose tail
//     modes.go's test of two chains' modes shares).
//
// A chain whose warmup fits its posterior passes all three at once, and
// its draws are those of a single run; in testing no check fired on a
// chain of a posterior whose answer met the accuracy goal (the largest
// eigenvalue there was 1.53; at d = 124 the centre check does, where
// 1,000 draws are too few to re-adapt from). A new round takes its
// whitening from the covariance of the last half of the previous round's
// draws (the first half may still be leaving where warmup ended), λ̂ from
// the Hessians at roundHessians draws spread over that half and the
// roundHessians farthest from its mean (fromDraws), and starts from the
// last draw; from the third round on, when the previous round's own
// draws-based whitening still gave a small ESS, its thinning is scaled by
// the ESS it lacked, at most roundThinGrowth-fold. The rounds after the
// first may together cost at most roundBudget times the first
// (budget.go): without that bound first-order methods on a funnel, whose
// later rounds' steps were set by the neck's curvature, ran 2–10 times
// longer than with one round. A first-order method's pilot run (pilot,
// doc/adaptation.md §6.1) draws 2·roundDrawsPerDim·d draws when that is
// at most Draws/pilotShare. The constants are in constants.go.

// rounds runs the chain's round loop from the warmup's whitening w and
// Hessians hs (doc/adaptation.md): each round freezes an adaptation, runs
// the sampler, assesses the draws and decides — accept them, re-adapt
// from them, or stop — while the budget may refuse a round before it
// runs. A first-order method's first round is a short one (pilot). Every
// round is recorded in out.rounds; it returns the chain's output.
func (cr *chainRun) rounds(w *whitening, hs []sym, out *chainOut) (chainOut, error) {
	e, s := cr.e, cr.s
	var resume []float64
	var prev *sgmcmc.Chain
	minThin := 0
	var left float64     // evaluations left for later rounds
	var lastReach string // the last round's spread check, if it failed
	piloted := false
	if n := 2 * roundDrawsPerDim * e.d; !cr.r.Momentum && cr.dense && !cr.multimodal && s.Rounds > 1 && pilotShare*n <= s.Draws {
		before := e.count
		th, z, runErr, err := cr.once(w, hs, out, nil, 0, n)
		if err != nil || runErr != nil {
			out.chain = th
			if err == nil {
				out.adapted.Rounds = 1
			}
			cr.record(out, before, th, notAssessed, Stop, fmt.Sprint(cmp.Or(err, runErr)))
			return *out, cmp.Or(err, runErr)
		}
		nw, nhs, as, why := cr.pilot(w, hs, th, z, out.adapted.LambdaMax)
		if nw != w {
			warm := out.adapted
			w, hs, out.warmup = nw, nhs, &warm
			cr.record(out, before, th, as, Readapt, why)
		} else {
			cr.record(out, before, th, as, Extend, why)
		}
		prev, resume, piloted = th, append([]float64(nil), th.At(th.Len()-1)...), true
		out.chain = th
	}
	for round := 1; ; round++ {
		kept, keptWarm := out.adapted, out.warmEvals
		if round > 1 || piloted {
			// A round's own sampler stream, so that Adapted rebuilds it.
			out.adapted.SamplerSeed = [2]uint64{e.rng.Uint64(), e.rng.Uint64()}
			e.warm = true
		}
		if round > 1 {
			cr.allow = left
		}
		before := e.count
		th, z, runErr, err := cr.once(w, hs, out, resume, minThin, s.Draws)
		var rc roundCost
		if errors.As(err, &rc) {
			hint := "reparametrise (a posterior whose curvature varies less over its typical set)"
			if !cr.r.Momentum {
				hint += ", or use a momentum method (SGHMC), whose steps between independent draws grow as the square root of a first-order method's"
			}
			why := fmt.Sprintf("the round would cost about %.3g gradient evaluations, more than the %.3g left for rounds or MaxGradEvals", float64(rc), math.Min(left, maxGradEvals(s)))
			cr.record(out, before, nil, notAssessed, Refuse, why)
			// The round would cost more than the rounds may: the chain
			// keeps the last one, as it was.
			// Its re-adaptation (the Hessians, P5–P7's noise probe) counts
			// as warmup.
			out.adapted, out.warmEvals, out.evals = kept, keptWarm+e.count-before, e.count
			if lastReach != "" {
				cr.reachWarning(out, round-1, lastReach, ", and another round would cost about "+fmt.Sprintf("%.3g gradient evaluations, more than the %.3g left for rounds", float64(rc), left), hint)
			}
			return *out, nil
		}
		if err != nil {
			// Nothing already sampled is lost: the last complete round.
			out.chain = prev
			cr.record(out, before, nil, notAssessed, Stop, err.Error())
			return *out, err
		}
		out.w, out.hs, out.fits = w, hs, false
		if round == 1 {
			left = math.Max(roundBudget*float64(e.count-before), roundFloor)
		} else {
			left -= float64(e.count - before)
		}
		out.adapted.Rounds = round
		if piloted {
			out.adapted.Rounds++
		}
		if th != nil && (prev == nil || th.Len() >= prev.Len()) {
			out.chain = th
		}
		if runErr != nil {
			cr.record(out, before, th, notAssessed, Stop, runErr.Error())
			return *out, runErr
		}
		if !cr.dense || cr.multimodal || z == nil || z.Len() < s.Draws {
			cr.record(out, before, th, notAssessed, Accept, "not assessed: "+cr.unassessed())
			return *out, nil
		}
		as := assess(z, s.Draws)
		if !as.slow && !as.off && as.reach == "" {
			out.fits = as.fits
			cr.record(out, before, th, as, Accept, "the draws fit the adaptation")
			return *out, nil
		}
		lastReach = as.reach
		lo, hi := z.Len()/2, z.Len()
		if z.Divergences > 0 {
			hi = slices.Index(z.Divergent, true)
			lo = 0
		}
		if z.Divergences > 0 && hi < roundDrawsPerDim*e.d {
			// A step unstable somewhere the chain went: its draws may
			// include excursions the posterior does not have, and a
			// preconditioner from them widens where it should not, round
			// after round. The run's divergence warning stands.
			cr.record(out, before, th, as, Accept, fmt.Sprintf("kept: the round diverged after %d draws, too few to re-adapt from", hi))
			return *out, nil
		}
		if round >= s.Rounds {
			if as.reach != "" {
				cr.reachWarning(out, round, as.reach, "", "reparametrise, or raise Rounds")
			}
			cr.record(out, before, th, as, Accept, fmt.Sprintf("kept: the last of Rounds = %d", s.Rounds))
			return *out, nil
		}
		if z.Len()/2 < roundDrawsPerDim*e.d {
			// Too few draws for the covariance of d parameters: the
			// whitening from them would be noisier than the one it replaces
			// (its smallest eigenvalues (1 − √(2d/n))² of the truth).
			if as.reach != "" {
				cr.reachWarning(out, 0, as.reach, fmt.Sprintf(", and %d draws are too few to re-adapt %d parameters from (want %d)", z.Len(), e.d, 2*roundDrawsPerDim*e.d), "raise Draws")
			}
			cr.record(out, before, th, as, Accept, fmt.Sprintf("kept: %d draws are too few to re-adapt %d parameters from", z.Len(), e.d))
			return *out, nil
		}
		nw, nhs, ok := e.fromDraws(th, lo, hi)
		if !ok {
			cr.record(out, before, th, as, Accept, "kept: the draws' covariance or Hessians could not be computed")
			return *out, nil
		}
		cr.record(out, before, th, as, Readapt, fmt.Sprintf("re-adapted from draws %d–%d", lo+1, hi))
		minThin = 0
		if round > 1 && s.Thin == 0 {
			t := float64(out.adapted.Thin)
			minThin = int(math.Min(roundThinGrowth*t, math.Ceil(t*float64(s.Draws)/(2*as.ess))))
		}
		prev, resume = th, append([]float64(nil), th.At(hi-1)...)
		w, hs = nw, nhs
	}
}

// unassessed says why a round's draws were not assessed.
func (cr *chainRun) unassessed() string {
	switch {
	case !cr.dense:
		return "above DenseMax the rounds do not re-adapt"
	case cr.multimodal:
		return "the method's chains are meant to visit several modes"
	}
	return "fewer draws than Draws"
}

// pilot returns the whitening and Hessians a first-order method's full
// run samples with after its pilot run (doc/adaptation.md §6.1): those of
// the pilot's draws th (z in warmup's whitening w) as fromDraws gives
// them, from their last half or those before the first divergence, when
// there are at least roundDrawsPerDim per parameter, the draws fit w (none
// of drawsFit's checks fires) and the new Hessians' largest eigenvalue is
// positive and below lam/pilotGain, where lam is warmup's λ̂; else w and
// hs. A first-order method's steps between independent draws grow as λ̂
// (a momentum method's as √λ̂): a warmup that ended in a stiff corner of
// the posterior (on a hidden Markov model, one chain's λ̂ 61 where its
// draws' Hessians reach 3.9) costs it 15 times the steps for every draw,
// and its draws, which fit, would never have re-adapted.
func (cr *chainRun) pilot(w *whitening, hs []sym, th, z *sgmcmc.Chain, lam float64) (*whitening, []sym, assessment, string) {
	e := cr.e
	lo, hi := z.Len()/2, z.Len()
	if z.Divergences > 0 {
		lo, hi = 0, slices.Index(z.Divergent, true)
	}
	if hi-lo < roundDrawsPerDim*e.d {
		return w, hs, notAssessed, "a short first round with too few draws before a divergence to re-adapt from"
	}
	as := assess(z, z.Len())
	if as.slow || as.off || as.reach != "" {
		return w, hs, as, "a short first round whose draws do not fit warmup's whitening: the full run keeps it, and its rounds judge it"
	}
	nw, nhs, ok := e.fromDraws(th, lo, hi)
	if !ok {
		return w, hs, as, "a short first round: its draws' covariance or Hessians could not be computed"
	}
	var top float64
	for _, h := range nhs {
		vals, _, ok := symEigen(h.m)
		if !ok {
			return w, hs, as, "a short first round: its draws' Hessians could not be decomposed"
		}
		top = math.Max(top, vals[e.d-1])
	}
	if top > 0 && pilotGain*top < lam {
		return nw, nhs, as, fmt.Sprintf("a short first round: its draws' whitening gives λ̂ %.3g, below warmup's %.3g by more than %d times", top, lam, pilotGain)
	}
	return w, hs, as, fmt.Sprintf("a short first round: its draws' whitening gives λ̂ %.3g, not %d times below warmup's %.3g", top, pilotGain, lam)
}

// reachWarning adds the warning of a chain whose draws after rounds
// sampling rounds (0: before any re-adaptation could run) still fail the
// spread check (reach), with why no further round ran and a hint.
func (cr *chainRun) reachWarning(out *chainOut, rounds int, reach, why, hint string) {
	lead := "its draws reach"
	if rounds > 0 {
		lead = fmt.Sprintf("after %d sampling round(s) its draws still reach", rounds)
	}
	out.warnings = append(out.warnings, Warning{Kind: Unreached, Chain: cr.c, Message: fmt.Sprintf("chain %d: %s where its preconditioner did not look (%s)%s: parts of the posterior may be undersampled or the step too large for them; %s", cr.c, lead, reach, why, hint)})
}

// drawsFit returns the least single-chain bulk ESS over the coordinates
// of a round's draws z, in its whitened coordinates, whether it is below
// Draws/roundESS (slow), whether their mean is off the centre (off), and
// how far they spread beyond the preconditioner ("" if they do not).
// Only the spread warns: a slow chain is judged by the summary's R̂ and
// ESS on the pooled draws (a warning on one chain's ESS of 241 of 1,000
// fired on a right answer, a non-centred hierarchical model with SGLD),
// and a mean off the centre (the mode) is also the skew of a right answer
// (a logistic regression at d = 124: 16–18.5 whitened sds, its answer
// within 0.055 sd): both re-adapt, neither warns.
func drawsFit(z *sgmcmc.Chain, draws int) (ess float64, slow, off bool, reach string) {
	d, n := z.Dim, z.Len()
	col := make([]float64, n)
	ess = math.Inf(1)
	for j := range d {
		v, err := diagnostics.ESSBulk([][]float64{z.Column(col, j)})
		if err != nil {
			return 0, false, false, "" // a constant coordinate: nothing to re-adapt from
		}
		ess = math.Min(ess, v)
	}
	cv := chainCovariance(z, 0, z.Len())
	vals, _, ok := symEigen(cv.cov().m)
	if !ok {
		return ess, false, false, ""
	}
	if top, edge := vals[d-1], math.Pow(1+math.Sqrt(float64(d)/math.Max(ess, 1)), 2); top > roundWidest*edge {
		reach = fmt.Sprintf("they spread %.3g times the variance it assumes along a direction, where %.0f independent draws would spread at most about %.3g", top, ess, edge)
	}
	return ess, ess < float64(draws)/roundESS, floats.Dot(cv.mean, cv.mean) > settledLimit(d), reach
}

// fromDraws returns the whitening of the covariance of draws lo, …, n−1
// of a round's draws th (in θ: the last half, or those before its first
// divergence), centred at their mean, and the whitened Hessians at
// roundHessians of them and the roundHessians farthest from their mean;
// false if either fails (a singular covariance, a non-finite gradient),
// when the chain keeps its draws.
func (e *chainEnv) fromDraws(th *sgmcmc.Chain, lo, n int) (*whitening, []sym, bool) {
	cv := chainCovariance(th, lo, n)
	w, err := fromCov(cv.mean, cv.cov())
	if err != nil {
		return nil, nil, false
	}
	// The Hessians at roundHessians draws spread over the last half and at
	// the roundHessians farthest from its mean in the new whitening: a
	// momentum sampler's step must be stable at the edges of the typical
	// set too, where the curvature of a non-Gaussian posterior differs
	// most (on a latent Gaussian process a step from evenly spaced draws
	// alone let a chain leave the posterior for a while, to log ρ 3.7 and
	// f̃ 11).
	pts := make([]int, 0, 2*roundHessians)
	far := make([]float64, n-lo)
	for i := lo; i < n; i++ {
		z := w.toZ(th.At(i))
		far[i-lo] = floats.Dot(z, z)
	}
	idx := make([]int, len(far))
	floats.Argsort(far, idx)
	for k := range roundHessians {
		pts = append(pts, lo+k*(n-lo)/roundHessians, lo+idx[len(idx)-1-k])
	}
	hs := make([]sym, 0, len(pts))
	for _, i := range pts {
		at := append([]float64(nil), th.At(i)...)
		h, _, err := e.whitenedHessian(w.moved(at), true)
		if err != nil {
			return nil, nil, false
		}
		hs = append(hs, h)
	}
	return w, hs, true
}
