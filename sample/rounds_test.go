// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// TestDrawsFit: each of the three checks of rounds.go fires on the
// draws it is for and none on independent draws of the preconditioner's
// own Gaussian.
func TestDrawsFit(t *testing.T) {
	const d, n = 5, 1000
	draws := func(rho, sd0, mean0 float64) *sgmcmc.Chain {
		rng := rand.New(rand.NewPCG(3, 4))
		c := &sgmcmc.Chain{Dim: d, Draws: make([]float64, n*d), Eps: make([]float64, n)}
		x := make([]float64, d)
		for i := range n {
			for j := range x {
				x[j] = rho*x[j] + math.Sqrt(1-rho*rho)*rng.NormFloat64()
				c.Draws[i*d+j] = x[j]
			}
			c.Draws[i*d] = mean0 + sd0*c.Draws[i*d]
		}
		return c
	}
	for _, tc := range []struct {
		name            string
		rho, sd0, mean0 float64
		fits            bool
	}{
		{"independent, unit covariance", 0, 1, 0, true},
		{"mildly autocorrelated (ESS ≈ n/2)", 0.3, 1, 0, true},
		{"slow (ESS ≈ n/100)", 0.98, 1, 0, false},
		{"wider than the preconditioner (sd 3)", 0, 3, 0, false},
		{"off the centre (mean 8 sds)", 0, 1, 8, false},
	} {
		ess, slow, off, reach := drawsFit(draws(tc.rho, tc.sd0, tc.mean0), n)
		if fits := !slow && !off && reach == ""; fits != tc.fits {
			t.Errorf("%s: fits %v (least ESS %.0f, %q), want %v", tc.name, fits, ess, reach, tc.fits)
		}
	}
}

// TestSampleRoundsSetting: Rounds 1 is one run a chain, the default runs
// no second round where warmup fits the posterior (the draws are those of
// Rounds 1, bit for bit), and a negative Rounds is an error.
func TestSampleRoundsSetting(t *testing.T) {
	m := newLinReg(500, 66, 4, 2)
	one, err := Run(t.Context(), Problem{Model: m}, []float64{1, 0}, &Settings{Seed: 9, Chains: 2, Draws: 300, Rounds: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	def, err := Run(t.Context(), Problem{Model: m}, []float64{1, 0}, &Settings{Seed: 9, Chains: 2, Draws: 300}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for c := range def.Chains {
		if r := def.Adapted[c].Rounds; r != 1 {
			t.Errorf("chain %d: %d rounds on a Gaussian posterior, want 1", c, r)
		}
		for i, v := range def.Chains[c].Draws {
			if v != one.Chains[c].Draws[i] {
				t.Fatalf("chain %d: draws differ from Rounds 1 at %d", c, i)
			}
		}
	}
	if _, err := Run(t.Context(), Problem{Model: m}, []float64{1, 0}, &Settings{Rounds: -1}, nil); err == nil {
		t.Error("Rounds −1: no error")
	}
}

// TestRoundBudget: on Neal's funnel in 10-D, where no preconditioner fits
// and each re-adapted round's step is set by the neck's curvature, SGLD's
// later rounds together cost at most roundBudget times the first round's
// sampling, or roundFloor evaluations (plus each round's few Hessians and
// noise probe), and a chain that stops for the budget says so, its
// refused round's Hessians counted in the warmup's evaluations.
func TestRoundBudget(t *testing.T) {
	const d = 10
	run := func(rounds int) *Result {
		res, err := Run(t.Context(), Problem{Gradient: funnelGradient}, make([]float64, d), &Settings{Chains: 1, Draws: 1000, Seed: 2, Rounds: rounds}, SGLD{})
		if err != nil {
			t.Fatalf("Rounds %d: %v", rounds, err)
		}
		return res
	}
	one, all := run(1), run(0)
	first := float64(one.SamplingGradEvals)
	extra := float64(all.GradEvals - one.GradEvals)
	const overhead = 1e4 // per round: 16 Hessians of 2d gradients, a noise probe
	if lim := math.Max(roundBudget*first, roundFloor) + 2*overhead; extra > lim {
		t.Errorf("later rounds cost %.3g evaluations, more than %.3g (first round %.3g)", extra, lim, first)
	}
	var said bool
	for _, w := range all.Warnings {
		said = said || strings.Contains(w.Message, "another round would cost")
	}
	if !said || extra <= 0 {
		t.Errorf("the budget stopped no round (later rounds %.3g evaluations; warnings %q)", extra, all.Warnings)
	}
	t.Logf("first round %.3g evaluations, later rounds %.3g, %d rounds, warnings %q", first, extra, all.Adapted[0].Rounds, all.Warnings)

	// A MaxGradEvals that allows the kept round but not the refused one
	// refuses that round as the rounds' budget does: the chain keeps its
	// round, the same draws, no error (it was the cost-bound error).
	kept := all.SamplingGradEvals
	res, err := Run(t.Context(), Problem{Gradient: funnelGradient}, make([]float64, d), &Settings{Chains: 1, Draws: 1000, Seed: 2, MaxGradEvals: kept + kept/100}, SGLD{})
	if err != nil {
		t.Fatalf("MaxGradEvals %d (the kept round's %d evaluations and 1 %%): %v", kept+kept/100, kept, err)
	}
	if !slices.Equal(res.Chains[0].At(res.Chains[0].Len()-1), all.Chains[0].At(all.Chains[0].Len()-1)) || !slices.Equal(res.Warnings, all.Warnings) {
		t.Errorf("under MaxGradEvals %d the chain or warnings differ: %q, want %q", kept+kept/100, res.Warnings, all.Warnings)
	}
}

// panicLogLik is testModel whose log density panics.
type panicLogLik struct{ testModel }

func (panicLogLik) LogLik([]float64, int) float64 { panic("user LogLik") }

// TestLaplaceMass: on draws of N(0, I₂), testModel's Laplace mass is its
// log density at the medians plus ½ log det of the draws' covariance; a
// model whose log density panics gives no estimate (NaN), not a crash.
func TestLaplaceMass(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ch := &sgmcmc.Chain{Dim: 2, Eps: make([]float64, 400)}
	for range ch.Len() {
		ch.Draws = append(ch.Draws, rng.NormFloat64(), rng.NormFloat64())
	}
	lp, mass := laplaceMass(testModel{}, ch, 1)
	if math.IsNaN(lp) || math.Abs(mass-lp) > 0.3 {
		t.Errorf("log density %v, mass %v: want ½ log det ≈ 0 between them", lp, mass)
	}
	if lp, mass := laplaceMass(panicLogLik{}, ch, 1); !math.IsNaN(lp) || !math.IsNaN(mass) {
		t.Errorf("panicking LogLik: %v, %v, want NaN", lp, mass)
	}
}

// TestRoundHistory: Result.Rounds records every round a chain ran and
// every round the budget refused, in order: on a Gaussian posterior one
// accepted round whose draws fit; on the funnel, where no preconditioner
// fits, SGLD's short first round, rounds re-adapted from their draws and a
// last decision that keeps a round. In both the rounds that ran number
// Adapted.Rounds, the last of them sampled with Result.Adapted's settings
// and kept the chain's draws, and the rounds' evaluations add up to no
// more than the run's warmup and sampling.
func TestRoundHistory(t *testing.T) {
	check := func(name string, res *Result) {
		for c, rs := range res.Rounds {
			ran, last := 0, -1
			var evals int64
			for k, r := range rs {
				evals += r.GradEvals
				if r.Draws > 0 {
					ran++
					last = k
				}
				if r.Decision == 0 || r.Reason == "" {
					t.Errorf("%s: chain %d round %d: no decision or reason: %v", name, c, k, r)
				}
			}
			a := res.Adapted[c]
			if ran != a.Rounds || last < 0 {
				t.Fatalf("%s: chain %d: %d rounds ran, Adapted.Rounds %d: %v", name, c, ran, a.Rounds, rs)
			}
			if r := rs[last]; r.Settings.Eps != a.Eps || r.Settings.Thin != a.Thin || r.Settings.SamplerSeed != a.SamplerSeed || r.Draws != res.Chains[c].Len() {
				t.Errorf("%s: chain %d: the last round that ran (%v) is not the chain's (ε %v, thin %d, %d draws)", name, c, r, a.Eps, a.Thin, res.Chains[c].Len())
			}
			if d := rs[len(rs)-1].Decision; d != Accept && d != Refuse {
				t.Errorf("%s: chain %d ends with %v", name, c, d)
			}
			if evals > res.WarmupGradEvals+res.SamplingGradEvals {
				t.Errorf("%s: chain %d's rounds spent %d evaluations, the run %d", name, c, evals, res.WarmupGradEvals+res.SamplingGradEvals)
			}
			for k, r := range rs {
				t.Logf("%s: chain %d round %d: %v", name, c, k, r)
			}
		}
	}
	gauss, err := Run(t.Context(), Problem{Model: newLinReg(500, 66, 4, 2)}, []float64{1, 0}, &Settings{Seed: 9, Chains: 2, Draws: 300}, nil)
	if err != nil {
		t.Fatal(err)
	}
	check("Gaussian", gauss)
	for c, rs := range gauss.Rounds {
		if len(rs) != 1 || rs[0].Decision != Accept || !rs[0].Fits {
			t.Errorf("Gaussian: chain %d: %v, want one accepted round that fits", c, rs)
		}
	}
	const d = 10
	funnel, err := Run(t.Context(), Problem{Gradient: funnelGradient}, make([]float64, d), &Settings{Chains: 1, Draws: 1000, Seed: 2}, SGLD{})
	if err != nil {
		t.Fatal(err)
	}
	check("funnel", funnel)
	rs := funnel.Rounds[0]
	if len(rs) < 3 || rs[0].Draws >= 1000 || !slices.ContainsFunc(rs, func(r Round) bool { return r.Decision == Readapt }) {
		t.Errorf("funnel: %d rounds, want a short first round and a re-adapted one", len(rs))
	}
}
