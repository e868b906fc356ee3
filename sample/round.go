// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// A Round is one pass of a chain's round loop (doc/adaptation.md): the
// settings it sampled with, what the assessment of its draws found, and
// what the loop decided and why. Result.Rounds keeps every chain's rounds
// in order; the last one that ran is the chain's draws, and Result.Adapted
// rebuilds it bit for bit.
type Round struct {
	// Settings are the settings the round sampled with. They do not
	// change once the round has run.
	Settings Adapted
	// Draws is the number of draws the round kept (0 for a round the
	// budget refused).
	Draws int
	// GradEvals are the gradient evaluations the round spent, its
	// adaptation included.
	GradEvals int64
	// MinESS is the least bulk effective sample size of the round's own
	// draws over its whitened coordinates; NaN when they were not
	// assessed.
	MinESS float64
	// Fits says the draws fit what the adaptation assumed: enough
	// effective draws, a spread the preconditioner covers, a mean inside
	// the warmup's Gaussian approximation, and no divergence.
	Fits bool
	// Found says, in words, what the assessment found wrong; empty when
	// the draws fit or were not assessed.
	Found string
	// Decision is what the loop did next, and Reason why.
	Decision Decision
	Reason   string
}

// Decision is what a chain's round loop does after a round.
type Decision int

// The decisions of the round loop.
const (
	// Accept: the round's draws are the chain's.
	Accept Decision = iota + 1
	// Readapt: another round samples, adapted from this round's draws.
	Readapt
	// Extend: another round samples the full Draws with the same
	// adaptation (after a short first round whose draws did not improve
	// on it).
	Extend
	// Relocate: the chain samples again in another chain's place, its
	// draws having found next to no posterior mass.
	Relocate
	// Refuse: the budget refused this round before it ran; the chain
	// keeps the round before.
	Refuse
	// Stop: the round ended in an error; the chain keeps what it drew.
	Stop
)

var decisionNames = [...]string{"", "accept", "re-adapt", "extend", "relocate", "refuse", "stop"}

// String names the decision.
func (d Decision) String() string {
	if d > 0 && int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// String summarises the round on one line.
func (r Round) String() string {
	s := fmt.Sprintf("%s: %d draws, ε %.3g, λ̂ %.3g, thin %d, %d evaluations", r.Decision, r.Draws, r.Settings.Eps, r.Settings.LambdaMax, r.Settings.Thin, r.GradEvals)
	if !math.IsNaN(r.MinESS) {
		s += fmt.Sprintf(", min ESS %.0f", r.MinESS)
	}
	if r.Found != "" {
		s += "; found: " + r.Found
	}
	if r.Reason != "" {
		s += "; " + r.Reason
	}
	return s
}

// record appends a round to the chain's history: its settings as they are
// now, the draws th it kept, the evaluations since before, and the
// assessment and decision.
func (cr *chainRun) record(out *chainOut, before int64, th *sgmcmc.Chain, as assessment, d Decision, reason string) {
	n := 0
	if th != nil {
		n = th.Len()
	}
	found := as.found
	if a := &out.adapted; a.Center != nil && a.CenterStep > centreTol {
		// A setup that did not reach what it set out to is never silent.
		c := fmt.Sprintf("the control variate's centre search stopped about %.3g posterior sds from the mode, after %d full passes (doc/adaptation.md §2.3)", a.CenterStep, a.SetupPasses)
		if found != "" {
			c = "; " + c
		}
		found += c
	}
	out.rounds = append(out.rounds, Round{Settings: out.adapted, Draws: n, GradEvals: cr.e.count - before,
		MinESS: as.ess, Fits: as.fits, Found: found, Decision: d, Reason: reason})
}

// assessment is what the assessment of a round's draws found (drawsFit).
type assessment struct {
	ess       float64 // least bulk ESS, NaN if not assessed
	slow, off bool
	reach     string // the spread check's finding, "" if it passed
	fits      bool
	found     string
}

// notAssessed is the assessment of a round whose draws were not judged.
var notAssessed = assessment{ess: math.NaN()}

// assess judges a round's draws z (in its whitened coordinates) against
// what its adaptation assumed (drawsFit's checks) and its divergences.
func assess(z *sgmcmc.Chain, draws int) assessment {
	ess, slow, off, reach := drawsFit(z, draws)
	as := assessment{ess: ess, slow: slow, off: off, reach: reach}
	as.fits = !slow && !off && reach == "" && z.Divergences == 0
	var found []string
	if slow {
		found = append(found, fmt.Sprintf("least bulk ESS %.0f, below Draws/%d", ess, roundESS))
	}
	if off {
		found = append(found, "a mean outside the warmup's Gaussian approximation")
	}
	if reach != "" {
		found = append(found, reach)
	}
	if z.Divergences > 0 {
		found = append(found, fmt.Sprintf("%d divergent transitions", z.Divergences))
	}
	for i, f := range found {
		if i > 0 {
			as.found += "; "
		}
		as.found += f
	}
	return as
}
