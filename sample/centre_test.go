// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"math"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/testmodel"
)

// TestCentreConverges runs warmup on a Student-t regression with 3 % gross
// outliers at N = 10⁶ (d = 21), on which the earlier Newton passes with
// the fixed batch's curvature stopped at their cap 14 posterior sds from
// the mode on one chain of four (seed 1): every chain's centre search must
// converge (CenterStep ≤ centreTol) to within 0.1 posterior sd of the
// exact mode in every coordinate (the bound; converged, the
// distance is about centreTol).
func TestCentreConverges(t *testing.T) {
	if testing.Short() {
		t.Skip("N = 10⁶ rows: 170 MB and about 20 s; skipped with -short")
	}
	m, start := testmodel.SimulateStudentT(1_000_000, 20, 0.03, 1)
	mode, sd, err := testmodel.Laplace(m, start, m.Hessian)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Problem{Model: m}, make([]float64, m.Dim()), &Settings{Seed: 1, Draws: 100}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for c, a := range res.Adapted {
		if a.Center == nil {
			t.Errorf("chain %d: no control-variate centre (CenterStep %.3g after %d passes)", c, a.CenterStep, a.SetupPasses)
			continue
		}
		var worst float64
		for j := range a.Center {
			worst = math.Max(worst, math.Abs(a.Center[j]-mode[j])/sd[j])
		}
		if !(a.CenterStep <= centreTol) || !(worst <= 0.1) {
			t.Errorf("chain %d: centre %.3g sds from the mode in its worst coordinate, last step %.3g sd after %d passes; want ≤ 0.1 and ≤ %g", c, worst, a.CenterStep, a.SetupPasses, centreTol)
		}
	}
	if res.Warnings.Has(Centre) {
		t.Errorf("a Centre warning on converged searches: %v", res.Warnings)
	}
	// The chains share one search (share.go), which reaches the mode from
	// the fixed batch's in a few steps (centreReach). Each chain searched
	// alone before: 8–17 passes each.
	own := 0
	for c, a := range res.Adapted {
		own += a.SetupPasses
		t.Logf("chain %d: %d passes, step %.3g", c, a.SetupPasses, a.CenterStep)
	}
	t.Logf("%d setup passes in all, %d of them the chains' own", res.SetupPasses, own)
	if res.SetupPasses > 12 {
		t.Errorf("%d setup passes in all, %d of them the chains' own; want at most 12", res.SetupPasses, own)
	}
}
