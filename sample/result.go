// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// Result is what Run returns.
type Result struct {
	// Method is the name of the method the chains ran.
	Method string
	// Temperature is the temperature T of the target π(θ)^{1/T}
	// (Settings.Temperature); 1 for the posterior itself.
	Temperature float64
	// Chains holds each chain's draws of θ (warmup excluded).
	Chains []*sgmcmc.Chain
	// Adapted holds each chain's adapted settings: those of its last
	// round, from which Adapted.NewSampler rebuilds its draws bit for bit.
	Adapted []Adapted
	// Errors holds each chain's error, nil for a chain that ran to the
	// end. A chain that fails does not stop the others: Run returns an
	// error only when no chain has draws (or the run as a whole was
	// cancelled or stopped by the Callback), and a Failed warning names
	// the failed chains, which the summary leaves out.
	Errors []error
	// Rounds holds each chain's rounds in order (doc/adaptation.md §6):
	// the settings each sampled with, what the assessment of its draws
	// found and what the loop decided.
	Rounds [][]Round
	// Summary has one row per parameter: mean, sd, MCSE, quantiles, bulk
	// and tail ESS, R̂ across the chains. It prints as an aligned table.
	Summary diagnostics.Table
	// Warnings say, in words, why the draws may not be trusted, each of a
	// WarningKind (doc/adaptation.md §11 lists the tests that raise them:
	// an early stop, failed chains, R̂, ESS, divergences, heat, noise,
	// flat curvature, draws beyond the preconditioner, separate modes,
	// replica exchange's ladder). Empty means none of these was seen; it
	// prints one warning a line.
	Warnings Warnings
	// Divergences is the number of divergent transitions while sampling.
	Divergences int
	// GradEvals is the run's cost: per-datum likelihood-gradient
	// evaluations for a Model (calls to Grad for a Gradient), the sum of
	// its three parts. SetupGradEvals are those of the setup passes, N
	// per full pass over the data; WarmupGradEvals those of warmup (the
	// first round's adaptation, and every later round's with the runs
	// before it); and SamplingGradEvals those of each chain's last
	// sampling run, whose draws Chains holds. Settings.MaxGradEvals
	// bounds warmup and sampling, not the setup passes: their O(N) work is
	// what a Model of N items asks for.
	GradEvals, SetupGradEvals, WarmupGradEvals, SamplingGradEvals int64
	// SetupPasses is the number of full passes over the data that warmup
	// spent finding the control-variate centre and its full gradient
	// there: the run's shared search (doc/adaptation.md §2.3) and each
	// chain's own passes (Adapted.SetupPasses) together. SetupSeconds is
	// their wall time, summed.
	SetupPasses  int
	SetupSeconds float64
	// BytesRead and ReadSeconds are what the Model's data read during
	// Run, and the time spent reading (summed over concurrent readers),
	// when the Model reports them (a ReadStats method: dataset.NewModel's
	// models and the models package's over a dataset.File); zero
	// otherwise. Their ratio is the read throughput.
	BytesRead   int64
	ReadSeconds float64
	// Moments summarises every coordinate from the chains' running
	// moments above DenseMax, where the chains may keep the draws of only
	// some coordinates (Settings.DrawsMemory; Summary then covers
	// those); nil up to DenseMax.
	Moments *Moments
}

// Finished returns the chains that ran to the end of their sampling run,
// in order: those without an error, whose draws the summary covers. The
// others (Errors) stopped alone, and their draws, if any, may hold the
// excursion that made them fail.
func (r *Result) Finished() []*sgmcmc.Chain {
	var out []*sgmcmc.Chain
	for c, ch := range r.Chains {
		if (r.Errors == nil || r.Errors[c] == nil) && ch != nil && ch.Len() > 0 {
			out = append(out, ch)
		}
	}
	return out
}
