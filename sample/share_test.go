// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"slices"
	"testing"

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
