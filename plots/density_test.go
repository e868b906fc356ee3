// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestBinnedKDE compares the binned density estimate with the exact one
// on the same draws: normal, heavy-tailed and bimodal, the largest
// difference within 10⁻⁴ of the peak.
func TestBinnedKDE(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for name, draw := range map[string]func() float64{
		"normal":  rng.NormFloat64,
		"cauchy":  func() float64 { return rng.NormFloat64() / rng.NormFloat64() },
		"bimodal": func() float64 { return rng.NormFloat64() + 6*float64(rng.IntN(2)) },
	} {
		x := make([]float64, 3*exactKDE)
		for i := range x {
			x[i] = draw()
		}
		sorted := slices.Sorted(slices.Values(x))
		bw := bandwidth(sorted)
		lo, hi := densityRange(sorted, bw)
		binned := densityCurve(x, lo, hi, bw)
		var peak, worst float64
		for k, q := range binned {
			exact := kde(x, q.X, bw)
			peak = max(peak, exact)
			worst = max(worst, math.Abs(q.Y-exact))
			if k > 0 && q.X <= binned[k-1].X {
				t.Fatalf("%s: points out of order at %d", name, k)
			}
		}
		t.Logf("%s: worst %.2g of the peak", name, worst/peak)
		if worst > 1e-4*peak {
			t.Errorf("%s: binned estimate off by %v, peak %v", name, worst, peak)
		}
	}
}

// TestDecimate checks the min/max decimation: short lines untouched, long
// ones at most the points asked for, in draw order, with every bucket's
// extremes and hence the global ones.
func TestDecimate(t *testing.T) {
	x := []float64{3, 1, 2}
	if got := decimate(x, 4); len(got) != 3 || got[1] != (plotter.XY{X: 2, Y: 1}) {
		t.Errorf("short line: %v", got)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	x = make([]float64, 100_003)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	x[5], x[99_999] = -100, 100
	got := decimate(x, 1000)
	if len(got) > 1000 || len(got) < 900 {
		t.Fatalf("%d points for at most 1000", len(got))
	}
	for k := 1; k < len(got); k++ {
		if got[k].X <= got[k-1].X {
			t.Fatalf("points out of order at %d: %v then %v", k, got[k-1], got[k])
		}
		if got[k].Y != x[int(got[k].X)-1] {
			t.Fatalf("point %v is not draw %v", got[k], got[k].X)
		}
	}
	lo, hi := slices.MinFunc(got, func(a, b plotter.XY) int { return cmp.Compare(a.Y, b.Y) }), slices.MaxFunc(got, func(a, b plotter.XY) int { return cmp.Compare(a.Y, b.Y) })
	if lo != (plotter.XY{X: 6, Y: -100}) || hi != (plotter.XY{X: 100_000, Y: 100}) {
		t.Errorf("extremes %v and %v, want draws 6 and 100000", lo, hi)
	}
	// Each bucket's min and max are kept.
	n, buckets := len(x), 500
	for b := range buckets {
		seg := x[b*n/buckets : (b+1)*n/buckets]
		mn, mx := slices.Min(seg), slices.Max(seg)
		var hasMin, hasMax bool
		for _, q := range got {
			hasMin = hasMin || q.Y == mn
			hasMax = hasMax || q.Y == mx
		}
		if !hasMin || !hasMax {
			t.Fatalf("bucket %d: min %v or max %v dropped", b, mn, mx)
		}
	}
}
