// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// TestRoundsGP: on gp_pois_regr, whose curvature is not its covariance
// (doc/adaptation.md §5–§6), one sampling run a chain warns (its
// chains mix tens of times slower than their thinning assumes), and
// sample.Run's default — a second round re-adapted from the first's draws
// where they do not fit warmup's preconditioner — meets the goal
// without a warning. A chain that ran several rounds is rebuilt from its
// Adapted bit for bit.
func TestRoundsGP(t *testing.T) {
	if testing.Short() {
		t.Skip("two Sample runs of a few seconds; skipped under -short")
	}
	tg := loadTarget(t, "gp_pois_regr-gp_pois_regr")
	p := sample.Problem{Model: tg.Model, Names: tg.UNames}
	one, err := sample.Run(context.Background(), p, tg.Start, &sample.Settings{Chains: numChains, Draws: tg.Draws, Seed: 1, Rounds: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Warnings) == 0 {
		t.Error("one round: no warning")
	}
	r, err := RunRow(context.Background(), runMethod, tg, defaultMethod, 1, tg.Draws)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Pass() || len(r.Warnings) > 0 {
		t.Errorf("default: pass %v (mean err/tol %.3g, sd err %.3g, R̂ %.4g, ESS %.0f), warnings %q", r.Pass(), r.MeanErrOverTol, r.MaxSDRelErr, r.MaxRHat, r.MinESSBulk, r.Warnings)
	}
	res, err := sample.Run(context.Background(), p, tg.Start, &sample.Settings{Chains: numChains, Draws: tg.Draws, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rebuilt := false
	for c, a := range res.Adapted {
		if a.Rounds < 2 {
			continue
		}
		rebuilt = true
		checkRebuilt(t, tg, a, res.Chains[c], fmt.Sprintf("chain %d (round %d)", c, a.Rounds))
	}
	if !rebuilt {
		t.Error("no chain ran a second round")
	}
}

// TestPilotDrive: on the drive HMM, chain 1 of seed 1 ends its warmup
// where the posterior is stiff (λ̂ 61 in its whitening, where its own draws'
// Hessians reach 4–5). A first-order method pays that λ̂ in every step
// between independent draws; its pilot run (doc/adaptation.md §6.1)
// re-measures λ̂ at its draws and samples with their whitening. The chain
// is rebuilt from its Adapted bit for bit.
func TestPilotDrive(t *testing.T) {
	if testing.Short() {
		t.Skip("a Sample run of a few seconds; skipped under -short")
	}
	tg := loadTarget(t, "bball_drive_event_0-hmm_drive_0")
	p := sample.Problem{Model: tg.Model, Names: tg.UNames}
	const draws = 240 // the pilot's 2·10·d = 120 draws are at most half of them
	set := func(rounds, draws int) *sample.Settings {
		return &sample.Settings{Chains: numChains, ChainIDs: []int{1}, Draws: draws, Seed: 1, Rounds: rounds}
	}
	one, err := sample.Run(context.Background(), p, tg.Start, set(1, 10), sample.SGLD{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sample.Run(context.Background(), p, tg.Start, set(0, draws), sample.SGLD{})
	if err != nil {
		t.Fatal(err)
	}
	warm, a := one.Adapted[0].LambdaMax, res.Adapted[0]
	if a.Rounds < 2 || !(a.LambdaMax < warm/4) {
		t.Fatalf("rounds %d, λ̂ %.3g after the pilot, %.3g from warmup: want a pilot and a λ̂ at least 4 times smaller", a.Rounds, a.LambdaMax, warm)
	}
	checkRebuilt(t, tg, a, res.Chains[0], "chain 1")
}

// checkRebuilt checks that a chain's draws are those of a sampler rebuilt
// from its Adapted, bit for bit.
func checkRebuilt(t *testing.T, tg *Target, a sample.Adapted, ch *sgmcmc.Chain, what string) {
	t.Helper()
	g, err := a.NewGradient(tg.Model)
	if err != nil {
		t.Fatal(err)
	}
	aff, err := sgmcmc.NewAffine(g, a.Shift, a.Lower, a.Diag)
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.NewSampler(aff)
	if err != nil {
		t.Fatal(err)
	}
	zc, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: ch.Len(), Thin: a.Thin, BurnIn: a.BurnIn, Schedule: sgmcmc.Constant(a.Eps)})
	if err != nil {
		t.Fatal(err)
	}
	th := make([]float64, len(a.Shift))
	for i := range zc.Len() {
		aff.ToTheta(th, zc.At(i))
		for j, v := range th {
			if want := ch.At(i)[j]; v != want {
				t.Fatalf("%s: draw %d coordinate %d: rebuilt %v, Sample %v", what, i, j, v, want)
			}
		}
	}
}
