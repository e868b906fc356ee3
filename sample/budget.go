// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// The budget (doc/adaptation.md §10). Each chain keeps one ledger of the
// gradient evaluations it spends (chainEnv.count, split into warmup and
// sampling at each freeze, and the setup passes apart), and every
// sampling run is projected before it starts — its steps, burn-in and
// Draws × Thin, times the evaluations a step makes (runCost) — and
// admitted by one rule (admit):
//
//   - the first round's run (a short first round is judged by the full
//     run it leads to) is refused with the cost-bound error, naming
//     MaxGradEvals, when it is projected past MaxGradEvals;
//   - a later round's run is not made — the chain keeps the round before
//     — when it is projected past MaxGradEvals or past what is left of
//     the rounds' allowance: roundBudget times the first round's
//     evaluations, or roundFloor, whichever is more.
//
// The control variate's setup passes are recorded (Result.SetupGradEvals)
// and never refused: they are the O(N) work a Model of N items asks for.

// admit applies the budget to the sampling run a describes, steps steps
// of perStep evaluations: nil if it may run, a roundCost if a later round
// may not, the cost-bound error if the first may not.
func (cr *chainRun) admit(a *Adapted, steps, perStep float64) error {
	cost := steps * perStep
	if cr.allow > 0 && (cost > cr.allow || cost > maxGradEvals(cr.s)) {
		return roundCost(cost)
	}
	return costBound(a, cr.r, cr.s, steps, perStep)
}

// maxGradEvals is the bound s.MaxGradEvals sets on one sampling run
// (+Inf for none). Its default, defaultMaxGradEvals, is about a minute of
// gradient work per chain at 10–100 ns per evaluation, and about seven
// times what the costliest chain that met the accuracy goal in testing
// needed (pSGLD on an ill-conditioned Gaussian of 100 dimensions,
// 7.5·10⁷); at 2·10⁹ a pSGLD chain on a ten-dimensional funnel, projected
// at 1.7·10⁹, ran for an hour towards a handful of effective draws.
func maxGradEvals(s *Settings) float64 {
	switch {
	case s.MaxGradEvals < 0:
		return math.Inf(1)
	case s.MaxGradEvals == 0:
		return defaultMaxGradEvals
	}
	return float64(s.MaxGradEvals)
}

// costBound returns an error if the chain's sampling run, as adapted,
// would need more gradient evaluations than s.MaxGradEvals: its steps
// (burn-in and draws × thinning) times the evaluations per step (the
// batch, twice it for a control variate; one call of a Problem's
// Gradient), as runCost gives them.
func costBound(a *Adapted, r Rules, s *Settings, steps, perStep float64) error {
	budget := maxGradEvals(s)
	if steps*perStep <= budget {
		return nil
	}
	hint := "the step size is set by the posterior's largest curvature and the gradient noise: a reparameterisation that evens out the curvature, or fewer draws, makes the run cheaper"
	if r.Multimodal {
		hint = "replica exchange steps every replica of a first-order method, K times a chain's gradients per step: fewer Replicas or Draws make the run cheaper"
	} else if !r.Momentum {
		hint = "a momentum method (SGHMC) needs about the square root of the steps a first-order method needs between independent draws"
	}
	return valid.Errorf(sgmcmc.ErrRange, "Sample: the run would cost about %.3g gradient evaluations per chain (%.3g steps — burn-in %d and %d draws × thinning %d — at %.0f evaluations per step, with the adapted step size %.3g), more than MaxGradEvals = %.3g; %s",
		steps*perStep, steps, a.BurnIn, s.Draws, a.Thin, perStep, a.Eps, budget, hint)
}

// runCost returns the steps of the sampling run a describes (burn-in and
// Draws × Thin) and the gradient evaluations each takes: the batch (twice
// it with a control variate; one call of a Problem's Gradient) times the
// method's GradsPerStep.
func runCost(a *Adapted, r Rules, s *Settings, model bool) (steps, perStep float64) {
	perStep = 1.0
	if model {
		perStep = float64(max(a.BatchSize, 1))
		if a.Center != nil {
			perStep *= cvCost
		}
	}
	perStep *= orDefault(r.GradsPerStep, 1)
	return float64(a.BurnIn) + float64(s.Draws)*float64(a.Thin), perStep
}

// roundCost is once's error for a round whose sampling run is projected
// past what the rounds have left: its projected gradient evaluations.
type roundCost float64

func (c roundCost) Error() string {
	return fmt.Sprintf("sgmcmc: a sampling round would cost %.3g gradient evaluations", float64(c))
}
