// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns the distance between a and b in units of the last place of b.
func ulps(a, b float64) float64 {
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

func TestExpDet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	worst := 0.0
	check := func(z float64) {
		got, want := expDet(z), math.Exp(z)
		d := ulps(got, want)
		worst = max(worst, d)
		if d > 3 {
			t.Errorf("expDet(%v) = %v, math.Exp %v (%.1f ulp)", z, got, want, d)
		}
	}
	for range 200000 {
		check(-8 * r.Float64()) // the wedge's range
	}
	for range 20000 {
		check(1400*r.Float64() - 700)
	}
	for _, z := range []float64{0, -1e-300, 1e-300, -0.5, 0.5, -708, 709, math.Ln2, -math.Ln2 / 2} {
		check(z)
	}
	if expDet(0) != 1 {
		t.Errorf("expDet(0) = %v", expDet(0))
	}
	t.Logf("largest error %.2f ulp", worst)
	if expDet(710) != math.Inf(1) || expDet(-709) != 0 {
		t.Errorf("expDet does not saturate: %v, %v", expDet(710), expDet(-709))
	}
}

func TestLogDet(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	worst := 0.0
	check := func(u float64) {
		got, want := logDet(u), math.Log(u)
		d := ulps(got, want)
		if want == 0 {
			d = math.Abs(got) / 0x1p-1074
		}
		worst = max(worst, d)
		if d > 3 {
			t.Errorf("logDet(%v) = %v, math.Log %v (%.1f ulp)", u, got, want, d)
		}
	}
	for range 200000 {
		check((float64(r.Uint64()>>11) + 0.5) * 0x1p-53) // the tail's uniforms
	}
	for range 20000 {
		check(math.Exp(1400*r.Float64() - 700))
	}
	for _, u := range []float64{1, 0x1p-54, 0.5, 2, math.Sqrt2, math.Nextafter(math.Sqrt2, 0), math.Nextafter(1, 0), math.Nextafter(1, 2), math.E} {
		check(u)
	}
	t.Logf("largest error %.2f ulp", worst)
}
