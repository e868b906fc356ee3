// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"math"
	"math/big"
	"testing"
)

// tailMass is ∫_r^∞ exp(−x²/2) dx.
func tailMass(r float64) float64 { return math.Sqrt(math.Pi/2) * math.Erfc(r/math.Sqrt2) }

// TestTableShape checks the fixed points of the tables and that the layer
// edges decrease and the heights are exp(−x²/2) at them.
func TestTableShape(t *testing.T) {
	if zigX[1] != zigR || zigX[256] != 0 || zigF[0] != 0 || zigF[256] != 1 {
		t.Fatalf("table ends: zigX[1] = %v (want zigR = %v), zigX[256] = %v, zigF[0] = %v, zigF[256] = %v",
			zigX[1], zigR, zigX[256], zigF[0], zigF[256])
	}
	for i := 1; i < 256; i++ {
		if !(zigX[i] > zigX[i+1]) {
			t.Errorf("zigX not decreasing at %d: %v, %v", i, zigX[i], zigX[i+1])
		}
		want := math.Exp(-0.5 * zigX[i] * zigX[i])
		if d := math.Abs(zigF[i]-want) / want; d > 4e-16 {
			t.Errorf("zigF[%d] = %v, exp(−zigX[%d]²/2) = %v (relative error %.2g)", i, zigF[i], i, want, d)
		}
	}
}

// TestTableAreas checks the defining property of the ziggurat against the
// exact density: every layer has the same area zigV under exp(−x²/2)
// counted as a rectangle, the base strip's rectangle [0, r)×[0, f(r)) plus
// the tail beyond r has area zigV, its virtual width zigX[0] carries that
// area at height f(r), and the top layer closes at the mode.
func TestTableAreas(t *testing.T) {
	const tol = 1e-12 // float64 rounding of r, amplified up the layers
	r := zigR
	fr := math.Exp(-0.5 * r * r)
	if a := r*fr + tailMass(r); math.Abs(a/zigV-1) > 1e-14 {
		t.Errorf("base strip plus tail: area %.17g, zigV %.17g", a, zigV)
	}
	if a := zigX[0] * zigF[1]; math.Abs(a/zigV-1) > 1e-15 {
		t.Errorf("base strip's virtual rectangle: area %.17g, zigV %.17g", a, zigV)
	}
	worst := 0.0
	for i := 1; i < 256; i++ {
		// exp(−b²/2) − exp(−a²/2) without cancellation.
		lo, hi := zigX[i], zigX[i+1]
		a := lo * (math.Expm1(-0.5*hi*hi) - math.Expm1(-0.5*lo*lo))
		d := math.Abs(a/zigV - 1)
		worst = max(worst, d)
		if d > tol {
			t.Errorf("layer %d: area %.17g, zigV %.17g (relative error %.2g)", i, a, zigV, d)
		}
	}
	t.Logf("largest relative error of a layer's area: %.2g", worst)
	// The ziggurat's total area exceeds the half-density's √(π/2) only by
	// the parts that the wedge test rejects.
	eff := math.Sqrt(math.Pi/2) / (256 * zigV)
	t.Logf("acceptance rate of a try √(π/2)/(256 v) = %.5f", eff)
	if !(eff > 0.99 && eff < 1) {
		t.Errorf("acceptance rate of a try √(π/2)/(256 v) = %.5f, want in (0.99, 1)", eff)
	}
}

// TestTableThresholds checks the fast path's integer thresholds and widths
// exactly, in rational arithmetic: a point m (odd) of layer i is accepted
// at once exactly when m·zigX[i]/2²⁴ < zigX[i+1], i.e. when it lies inside
// the part of the layer wholly under the density (for the base strip: left
// of the tail edge r).
func TestTableThresholds(t *testing.T) {
	two24 := new(big.Rat).SetInt64(1 << 24)
	for j, e := range zig {
		i := j & 0xff
		w := zigX[i] * 0x1p-24
		if j >= 256 {
			w = -w
		}
		if e.w != w {
			t.Errorf("entry %d: w = %v, want %v", j, e.w, w)
		}
		x := new(big.Rat).SetFloat64(zigX[i])
		lim := new(big.Rat).Mul(two24, new(big.Rat).SetFloat64(zigX[i+1]))
		k := new(big.Rat).SetInt64(int64(e.k))
		if new(big.Rat).Mul(k, x).Cmp(lim) < 0 {
			t.Errorf("entry %d: k = %d too small", j, e.k)
		}
		if e.k > 0 {
			k1 := new(big.Rat).SetInt64(int64(e.k) - 1)
			if new(big.Rat).Mul(k1, x).Cmp(lim) >= 0 {
				t.Errorf("entry %d: k = %d too large", j, e.k)
			}
		}
		if e.k > 1<<24 {
			t.Errorf("entry %d: k = %d exceeds 2²⁴", j, e.k)
		}
	}
}

// TestBaseStripSplit checks that the base strip's grid sends to the tail
// the share of its draws that the tail's mass has in the strip,
// (v − r f(r))/v, up to one cell (2⁻²³).
func TestBaseStripSplit(t *testing.T) {
	// Odd m < k for m in 1 … 2²⁴−1: ⌈(k−1)/2⌉… counted directly.
	k := int64(zig[0].k)
	inside := (k + 1) / 2 // odd m = 1, 3, …, < k
	toTail := 1 - float64(inside)/(1<<23)
	want := tailMass(zigR) / zigV
	if math.Abs(toTail-want) > 0x1p-23 {
		t.Errorf("share of base-strip draws sent to the tail %.9g, want %.9g", toTail, want)
	}
}

// TestFastPathShare checks that the share of half words accepted without
// the wedge or tail (the generator's speed rests on it) is, up to one grid
// cell, the exact share of the ziggurat lying in the layers' inner
// rectangles, the mean over layers of zigX[i+1]/zigX[i].
func TestFastPathShare(t *testing.T) {
	grid, exact := 0.0, 0.0
	for i := range 256 {
		grid += float64((int64(zig[i].k)+1)/2) / (1 << 23) // odd m < k among 2²³
		exact += zigX[i+1] / zigX[i]
	}
	grid /= 256
	exact /= 256
	t.Logf("fast-path share %.6f", grid)
	if math.Abs(grid-exact) > 0x1p-23 {
		t.Errorf("fast-path share %.9f, exact %.9f", grid, exact)
	}
}

// TestTailMethodAnalytic checks Marsaglia's tail method by quadrature: the
// proposal a with density r·e^{−ra}, accepted with probability e^{−a²/2},
// gives r + a the distribution of a normal beyond r, and the acceptance
// rate is r·e^{r²/2}·∫_r^∞ e^{−x²/2} dx.
func TestTailMethodAnalytic(t *testing.T) {
	r := zigR
	// ∫_0^s r e^{−ra} e^{−a²/2} da by composite Simpson's rule.
	integral := func(s float64) float64 {
		const n = 20000
		h := s / n
		sum := 0.0
		for j := 0; j <= n; j++ {
			a := float64(j) * h
			w := 2.0
			switch {
			case j == 0 || j == n:
				w = 1
			case j%2 == 1:
				w = 4
			}
			sum += w * r * math.Exp(-r*a-0.5*a*a)
		}
		return sum * h / 3
	}
	total := integral(12)
	if want := r * math.Exp(0.5*r*r) * tailMass(r); math.Abs(total/want-1) > 1e-10 {
		t.Errorf("acceptance rate %.12g, want %.12g", total, want)
	}
	for _, s := range []float64{0.05, 0.2, 0.5, 1, 2, 3} {
		got := integral(s) / total
		want := 1 - tailMass(r+s)/tailMass(r)
		if math.Abs(got-want) > 1e-10 {
			t.Errorf("P(X < r+%v | X > r): method %.12g, exact %.12g", s, got, want)
		}
	}
}

// TestWedgeBounds proves the chord bounds that decide most wedge points
// without the density: for every layer, g(s) − s (the density's height in
// the wedge's unit coordinates minus the chord) lies inside
// (wedgeLo[i], wedgeHi[i]) with room to spare on a grid of s, and the
// spare room exceeds the most that g − s can move between grid points,
// max|g″|·h²/8 = max|f″|·(a − b)²/(f(b) − f(a))·h²/8 on the layer's
// wedge [b, a], where f(x) = exp(−x²/2) has |f″(x)| = |x² − 1|·f(x) ≤
// max(|a² − 1|, |b² − 1|)·f(b).
func TestWedgeBounds(t *testing.T) {
	const (
		n     = 20000
		h     = 1.0 / n
		slack = 5e-9 // half the margin built into the tables
	)
	exp := 0.0
	for i := 1; i < 256; i++ {
		a, b := zigX[i], zigX[i+1]
		df := zigF[i+1] - zigF[i]
		f2 := max(math.Abs(a*a-1), math.Abs(b*b-1)) * math.Exp(-0.5*b*b)
		if move := f2 * (a - b) * (a - b) / df * h * h / 8; move > slack {
			t.Fatalf("layer %d: g − s can move %.2g between grid points, more than %.2g", i, move, slack)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := 0; j <= n; j++ {
			s := float64(j) * h
			x := a - s*(a-b)
			d := (math.Exp(-0.5*x*x)-zigF[i])/df - s
			lo, hi = min(lo, d), max(hi, d)
		}
		if lo < wedgeLo[i]+slack || hi > wedgeHi[i]-slack {
			t.Errorf("layer %d: g − s spans [%.3g, %.3g], bounds [%.3g, %.3g]", i, lo, hi, wedgeLo[i], wedgeHi[i])
		}
		// Share of the layer's draws that reach the exact test: the wedge's
		// share of the layer times the band's height.
		exp += (1 - b/a) * (wedgeHi[i] - wedgeLo[i]) / 256
	}
	t.Logf("share of all draws that evaluate the density: %.2g", exp)
}
