// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// FuzzNormal draws from a generator of any seed with any parameters and
// restores any bytes as a state, checking the documented values: Gamma and
// LogGamma NaN exactly for shapes outside (0, MaxFloat64], Gamma then
// finite and non-negative, LogGamma below +Inf and finite for shapes from
// 2.1e-307; Poisson NaN exactly for means outside [0, MaxPoissonMean], a
// finite non-negative integer inside; Float64 in [0, 1); Norm and Fill
// finite; UnmarshalBinary either an error leaving the generator as it was
// or a state that marshals back to the same bytes.
func FuzzNormal(f *testing.F) {
	good, _ := rng.NewNormal(1, 2).MarshalBinary()
	f.Add(uint64(1), uint64(2), 2.5, 30.0, good)
	f.Add(uint64(0), uint64(0), 0.0, 0.0, []byte{})
	f.Add(uint64(3), uint64(4), 1e-300, 9.999, []byte("normal:"))
	f.Add(uint64(5), uint64(6), math.MaxFloat64, float64(rng.MaxPoissonMean), good[:27])
	f.Add(uint64(7), uint64(8), math.NaN(), math.Inf(1), append(bytes.Clone(good), 1))
	f.Fuzz(func(t *testing.T, s1, s2 uint64, a, lam float64, data []byte) {
		g := rng.NewNormal(s1, s2)
		validShape := a > 0 && a <= math.MaxFloat64
		if v := g.Gamma(a); math.IsNaN(v) == validShape || (validShape && !(v >= 0 && !math.IsInf(v, 0))) {
			t.Fatalf("Gamma(%v) = %v", a, v)
		}
		if v := g.LogGamma(a); math.IsNaN(v) == validShape || math.IsInf(v, 1) || (a >= 2.1e-307 && math.IsInf(v, -1)) {
			t.Fatalf("LogGamma(%v) = %v", a, v)
		}
		validMean := lam >= 0 && lam <= rng.MaxPoissonMean
		if v := g.Poisson(lam); math.IsNaN(v) == validMean || (validMean && !(v >= 0 && v == math.Trunc(v) && !math.IsInf(v, 0))) {
			t.Fatalf("Poisson(%v) = %v", lam, v)
		}
		if u := g.Float64(); !(u >= 0 && u < 1) {
			t.Fatalf("Float64() = %v", u)
		}
		buf := make([]float64, int(s1%5))
		g.Fill(buf)
		for _, v := range append(buf, g.Norm()) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("a normal variate is %v", v)
			}
		}
		before, _ := g.MarshalBinary()
		if err := g.UnmarshalBinary(data); err != nil {
			if after, _ := g.MarshalBinary(); !bytes.Equal(before, after) {
				t.Fatalf("UnmarshalBinary(%q) failed (%v) but changed the state", data, err)
			}
			return
		}
		if after, _ := g.MarshalBinary(); !bytes.Equal(after, data) {
			t.Fatalf("UnmarshalBinary(%q) gives a state that marshals to %q", data, after)
		}
	})
}
