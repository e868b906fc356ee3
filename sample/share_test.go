// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"slices"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/testmodel"
)

// TestSharedCentre: with data beyond the fixed batch the chains share one
// centre search: each chain's own search from it converges at once (no
// pass, its step within centreTol), the run's passes are the shared
// search's, and a chain run alone (ChainIDs) draws what it draws in a run
// of all the chains, the shared search being the same in both.
func TestSharedCentre(t *testing.T) {
	m := testmodel.NewLogit(60_000, 5, 3)
	s := &Settings{Seed: 2, Draws: 200}
	all, err := Run(context.Background(), Problem{Model: m}, make([]float64, 5), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for c, a := range all.Adapted {
		own += a.SetupPasses
		if !(a.CenterStep <= centreTol) || a.Center == nil {
			t.Errorf("chain %d: step %.3g sd from the shared centre after %d passes of its own", c, a.CenterStep, a.SetupPasses)
		}
	}
	if own > 0 || all.SetupPasses < 1 || all.SetupPasses > 12 {
		t.Errorf("%d setup passes in all, %d of them the chains' own; want the shared search's alone, at most 12", all.SetupPasses, own)
	}
	if len(all.Warnings) > 0 {
		t.Errorf("warnings: %v", all.Warnings)
	}
	one := *s
	one.ChainIDs = []int{2}
	res, err := Run(context.Background(), Problem{Model: m}, make([]float64, 5), &one, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Chains[0].Draws, all.Chains[2].Draws) {
		t.Errorf("chain 2 alone differs from chain 2 of all")
	}
	if res.SetupPasses != all.SetupPasses {
		t.Errorf("chain 2 alone: %d setup passes, all chains %d: the shared search differs", res.SetupPasses, all.SetupPasses)
	}
}

// TestSameBasin: the basin check along the segment from a chain's Newton
// end to the shared centre. The fixed batch's potential here is a double
// well U(θ) = 50(θ² − 4)², minima at ±2 and a barrier of 800 nats at 0:
// a chain that settled at −2 keeps its own search when the centre is at
// +2, and shares a centre in its own well; a convex potential always
// shares, also when the chain's Newton end is not its minimum.
func TestSameBasin(t *testing.T) {
	well := sgmcmc.GradFunc(func(dst, th []float64) { dst[0] = 200 * th[0] * (th[0]*th[0] - 4) })
	bowl := sgmcmc.GradFunc(func(dst, th []float64) { dst[0] = 3 * (th[0] - 1) })
	w := &whitening{shift: []float64{-2}, diag: []float64{0.05}}
	for _, c := range []struct {
		g      sgmcmc.Gradient
		centre float64
		same   bool
	}{
		{well, 2, false}, {well, -1.9, true}, {well, -2.1, true},
		{bowl, 40, true}, {bowl, -30, true}, {bowl, 1, true},
	} {
		e := &chainEnv{d: 1, fixed: c.g}
		if got := e.sameBasin(w, []float64{c.centre}); got != c.same {
			t.Errorf("centre %v: same basin %v, want %v", c.centre, got, c.same)
		}
	}
}
