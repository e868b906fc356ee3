// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/larged"
)

// TestCapFixedBatch: the cap of doc/adaptation.md §4.2 on the sizes it
// was set for — the BNN's fixed batch falls to 10⁸/d, the examples/larged
// targets keep all their data (sparse_logreg sits on the cap).
func TestCapFixedBatch(t *testing.T) {
	for _, c := range []struct{ nh, n0, d, want int }{
		{8000, 800, 79510, 1257},     // examples/bnn
		{10000, 1000, 10000, 10000},  // sparse_logreg, d = N = 10⁴
		{100, 100, 100000, 100},      // the Gaussian, N = 100
		{50000, 5000, 100000, 5000},  // n₀ above 10⁸/d
		{300000, 30000, 300, 300000}, // below the cap
	} {
		if got := capFixedBatch(c.nh, c.n0, c.d); got != c.want {
			t.Errorf("capFixedBatch(%d, %d, %d) = %d, want %d", c.nh, c.n0, c.d, got, c.want)
		}
	}
}

// TestModeSearch: Adam from a start three units out on every coordinate
// ends within two posterior sds of the mode of the large-d test Gaussian
// (d = 300, sds 0.24–10, a rank-10 correlated part), and the whitening
// there is the probed curvature's: 1/√H_ii, the sd of a coordinate given
// the others, at most its marginal sd (up to the probes' error, ρ/√32)
// and equal to it off the correlated part.
func TestModeSearch(t *testing.T) {
	g, err := larged.NewGaussian(300, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newChainEnv(0, Problem{Model: g}, g.Dim(), rand.NewPCG(1, 2), false)
	if err != nil {
		t.Fatal(err)
	}
	e.ctx = context.Background()
	start := make([]float64, g.Dim())
	for i := range start {
		start[i] = g.Mean()[i] + 3*(2*e.rng.Float64()-1)
	}
	w, hs, err := e.modeSearch(start, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 2 {
		t.Fatalf("%d curvatures, want the mode's twice", len(hs))
	}
	sd := g.SD()
	var worst float64
	for i, m := range g.Mean() {
		worst = math.Max(worst, math.Abs(w.shift[i]-m)/sd[i])
	}
	if worst > 2 {
		t.Errorf("Adam ended %.3g posterior sds from the mode on some coordinate, want within 2", worst)
	}
	var near int
	for i, s := range sd {
		r := w.diag[i] / s
		if !(r > 0) || r > 1.2 {
			t.Fatalf("whitening scale %g at coordinate %d, %g times the marginal sd", w.diag[i], i, r)
		}
		if r > 0.8 {
			near++
		}
	}
	if near < g.Dim()/2 {
		t.Errorf("%d of %d whitening scales within 20 %% of the marginal sd, want over half", near, g.Dim())
	}
}
