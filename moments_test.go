// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// TestRunCoordsMoments: a run that keeps some coordinates and the moments
// stores exactly those coordinates of the draws a plain run keeps, and
// moments equal to the plain run's averages and variances.
func TestRunCoordsMoments(t *testing.T) {
	t.Parallel()
	const d = 6
	mk := func() Sampler {
		s, err := NewSGHMC(GradFunc(testGrad), []float64{1, -1, 0.5, 2, 0, -0.3}, rand.NewPCG(2, 3), nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	o := RunOptions{Draws: 500, BurnIn: 20, Thin: 3, Schedule: Polynomial{A: 0.05, B: 10, Gamma: 0.5}}
	full, err := Run(context.Background(), mk(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Coords, o.Moments = []int{4, 0}, true
	some, err := Run(context.Background(), mk(), o)
	if err != nil {
		t.Fatal(err)
	}
	if some.Dim != 2 || some.Len() != full.Len() || len(some.Draws) != 2*full.Len() {
		t.Fatalf("Dim %d, Len %d, %d floats; want 2, %d, %d", some.Dim, some.Len(), len(some.Draws), full.Len(), 2*full.Len())
	}
	for i := range full.Len() {
		if x, y := some.At(i), full.At(i); x[0] != y[4] || x[1] != y[0] {
			t.Fatalf("draw %d: kept %v, full %v", i, x, y)
		}
	}
	m := some.Moments
	if m == nil || m.N != full.Len() {
		t.Fatalf("moments %+v", m)
	}
	mean, wmean := make([]float64, d), make([]float64, d)
	full.Mean(mean)
	full.WeightedMean(wmean)
	v := m.Var(nil)
	for j := range d {
		var ss float64
		for i := range full.Len() {
			e := full.At(i)[j] - mean[j]
			ss += e * e
		}
		want := ss / float64(full.Len()-1)
		if math.Abs(m.Mean[j]-mean[j]) > 1e-12 || math.Abs(v[j]-want) > 1e-12*want || math.Abs(m.WeightedMean[j]-wmean[j]) > 1e-12 {
			t.Errorf("coordinate %d: mean %v, var %v, weighted %v; want %v, %v, %v", j, m.Mean[j], v[j], m.WeightedMean[j], mean[j], want, wmean[j])
		}
	}
	// No draws at all: only the moments.
	o.Coords = []int{}
	none, err := Run(context.Background(), mk(), o)
	if err != nil {
		t.Fatal(err)
	}
	if none.Dim != 0 || len(none.Draws) != 0 || none.Len() != full.Len() || none.Moments.Mean[3] != m.Mean[3] {
		t.Errorf("no coordinates: Dim %d, %d floats, Len %d, mean %v", none.Dim, len(none.Draws), none.Len(), none.Moments.Mean[3])
	}
	for _, bad := range [][]int{{6}, {-1}, {1, 1}, {0, 1, 2, 3, 4, 5, 0}} {
		o.Coords = bad
		if _, err := Run(context.Background(), mk(), o); !errors.Is(err, ErrRange) {
			t.Errorf("Coords %v: err = %v, want ErrRange", bad, err)
		}
	}
}

// TestMomentsBlocks: the moments of a large θ, updated in blocks on every
// core, are the same bits as one block's.
func TestMomentsBlocks(t *testing.T) {
	const d = 1000
	x := make([]float64, d)
	g := rng.NewNormal(1, 1)
	a := newMoments(d)
	restore := setBlocks(300, 128)
	b := newMoments(d)
	restore()
	if a.job != nil || b.job == nil {
		t.Fatal("blocks not as intended")
	}
	for k := range 50 {
		g.Fill(x)
		a.add(x, 0.1/float64(k+1))
		b.add(x, 0.1/float64(k+1))
	}
	for j := range d {
		if a.Mean[j] != b.Mean[j] || a.M2[j] != b.M2[j] || a.WeightedMean[j] != b.WeightedMean[j] {
			t.Fatalf("coordinate %d differs", j)
		}
	}
}

// TestRunMillionDims: at d = 10⁶ a run keeps the moments and two
// coordinates' draws, 1.6 kB of draws where all of them would take 800 MB.
func TestRunMillionDims(t *testing.T) {
	if testing.Short() {
		t.Skip("d = 10⁶")
	}
	t.Parallel()
	const d = 1000000
	th := make([]float64, d)
	rng.NewNormal(4, 4).Fill(th) // a draw of the target, N(0, I)
	s, err := NewSGLD(GradFunc(func(dst, x []float64) { copy(dst, x) }), th, rand.NewPCG(1, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Run(context.Background(), s, RunOptions{Draws: 100, Schedule: Constant(0.05), Coords: []int{0, d - 1}, Moments: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Draws) != 200 || c.Moments.N != 100 {
		t.Fatalf("%d floats of draws, %d moments", len(c.Draws), c.Moments.N)
	}
	// SGLD with ε = 0.05 on N(0, 1) has variance 2/(2 − ε), and the time
	// average of θ², M2/N + Mean², is unbiased for it from a stationary
	// start. θ² has the lag-k correlation ρ^{2k}, ρ = 1 − ε, so 100 draws are
	// worth 100(1 − ρ²)/(1 + ρ²) ≈ 5 independent ones per coordinate, 5·10⁶
	// in all: a standard error of about σ²√(2/(5·10⁶)) ≈ 6.5·10⁻⁴.
	want := 2 / (2 - 0.05)
	m := c.Moments
	var ms float64
	for j := range d {
		ms += m.M2[j]/float64(m.N) + m.Mean[j]*m.Mean[j]
	}
	ms /= d
	if se := 6.5e-4; math.Abs(ms-want) > 5*se {
		t.Errorf("mean of θ² %.5f, want %.5f ± %.5f", ms, want, 5*se)
	}
}
