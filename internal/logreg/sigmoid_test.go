// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns the distance between a and b in units in the last place of b.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	u := math.Nextafter(b, math.Inf(1)) - b
	return math.Abs(a-b) / u
}

func TestExpNonPos(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	worst, at := 0.0, 0.0
	check := func(x float64) {
		if u := ulps(expNonPos(x), math.Exp(x)); u > worst {
			worst, at = u, x
		}
	}
	for range 1_000_000 {
		check(-708 * rng.Float64())
		check(-5 * rng.Float64())
		check(-1e-3 * rng.Float64())
	}
	for k := range 65000 { // down to −703.9
		check(-float64(k) * math.Ln2 / 64) // the table's nodes and rounding boundaries
		check(-(float64(k) + 0.5) * math.Ln2 / 64)
	}
	// Both are within about two ulps of e^x (expNonPos checked against
	// 30-digit decimal arithmetic; math.Exp is not correctly rounded either).
	if worst > 4 {
		t.Errorf("expNonPos(%v) = %v, math.Exp = %v: %.2f ulps", at, expNonPos(at), math.Exp(at), worst)
	}
	for _, c := range []struct{ x, want float64 }{
		{0, 1}, {math.Copysign(0, -1), 1}, {-708.5, 0}, {-1000, 0}, {math.Inf(-1), 0},
	} {
		if got := expNonPos(c.x); got != c.want {
			t.Errorf("expNonPos(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if got := expNonPos(math.NaN()); !math.IsNaN(got) {
		t.Errorf("expNonPos(NaN) = %v, want NaN", got)
	}
	if got, want := expNonPos(-708), math.Exp(-708); ulps(got, want) > 2 {
		t.Errorf("expNonPos(-708) = %v, want %v", got, want)
	}
}

func TestSigmoid(t *testing.T) {
	t.Parallel()
	for _, z := range []float64{0, 1e-300, -1e-300, 0.5, -0.5, 3, -3, 36, -36, 40, -40, 700, -700, 745, -745, 1e308, -1e308, math.Inf(1), math.Inf(-1)} {
		want := 1 / (1 + math.Exp(-z))
		if z < 0 {
			want = math.Exp(z) / (1 + math.Exp(z))
		}
		if math.IsNaN(want) {
			want = 0
		}
		got := Sigmoid(z)
		if ulps(got, want) > 2 && math.Abs(got-want) > 1e-300 {
			t.Errorf("Sigmoid(%v) = %v, want %v", z, got, want)
		}
		// σ(z) + σ(−z) = 1 to rounding.
		if s := Sigmoid(z) + Sigmoid(-z); math.Abs(s-1) > 4.5e-16 {
			t.Errorf("Sigmoid(%v) + Sigmoid(%v) = %v", z, -z, s)
		}
		ls := LogSigmoid(z)
		wantLS := math.Log(want)
		if z < -700 {
			wantLS = z // log σ(z) = z − log1p(e^z) ≈ z
		}
		if z == math.Inf(-1) {
			if !math.IsInf(ls, -1) {
				t.Errorf("LogSigmoid(-Inf) = %v", ls)
			}
			continue
		}
		if math.Abs(ls-wantLS) > 4e-16*math.Max(1, math.Abs(wantLS)) {
			t.Errorf("LogSigmoid(%v) = %v, want %v", z, ls, wantLS)
		}
	}
	if !math.IsNaN(Sigmoid(math.NaN())) {
		t.Error("Sigmoid(NaN) is not NaN")
	}
}

func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range xs {
		xs[i] = -10 * rng.Float64()
	}
	var s float64
	b.Run("math.Exp", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s += math.Exp(xs[i&1023])
		}
	})
	b.Run("expNonPos", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s += expNonPos(xs[i&1023])
		}
	})
	b.Run("Sigmoid", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			s += Sigmoid(xs[i&1023] + 5)
		}
	})
	_ = s
}
