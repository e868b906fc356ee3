// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// ksAlpha is the level of the Kolmogorov–Smirnov and χ² tests of the gamma
// and Poisson variates; the seeds are fixed, so the tests are deterministic.
const ksAlpha = 1e-4

// checkKS fails if the probability integral transforms u (sorted in place)
// are not uniform at level ksAlpha (asymptotic Kolmogorov distribution with
// Stephens' finite-sample correction).
func checkKS(t *testing.T, name string, u []float64) {
	t.Helper()
	slices.Sort(u)
	n := float64(len(u))
	var d float64
	for i, v := range u {
		d = max(d, float64(i+1)/n-v, v-float64(i)/n)
	}
	rn := math.Sqrt(n)
	crit := math.Sqrt(-0.5*math.Log(ksAlpha/2)) / (rn + 0.12 + 0.11/rn)
	if d > crit {
		t.Errorf("%s: KS distance %.4f > critical %.4f (n = %d)", name, d, crit, len(u))
	}
}

// gammaCDFLog returns P(X ≤ e^l) for X ~ Gamma(a, 1), from l = log x so that
// it is right where x underflows: there P(a, x) = x^a/Γ(a+1) (1 + O(x)).
func gammaCDFLog(a, l float64) float64 {
	if l < -30 {
		lg, _ := math.Lgamma(a + 1)
		return math.Exp(a*l - lg)
	}
	if a >= 1e4 {
		// Wilson–Hilferty: (x/a)^{1/3} is normal to O(1/a).
		s := 1 / (9 * a)
		return distuv.UnitNormal.CDF((math.Cbrt(math.Exp(l)/a) - (1 - s)) / math.Sqrt(s))
	}
	return mathext.GammaIncReg(a, math.Exp(l))
}

func TestGamma(t *testing.T) {
	t.Parallel()
	n := 20000
	if testing.Short() {
		n = 4000
	}
	g := NewNormal(12, 12)
	for _, a := range []float64{1, 1.0001, 1.5, 3.7, 100, 1e6, 1e12, 1e15} {
		u := make([]float64, n)
		for i := range u {
			x := g.Gamma(a)
			if !(x > 0) {
				t.Fatalf("Gamma(%g) = %v", a, x)
			}
			u[i] = gammaCDFLog(a, math.Log(x))
		}
		checkKS(t, "Gamma("+strconv.FormatFloat(a, 'g', -1, 64)+")", u)
	}
	// Shapes below 1, in log space, down to where X underflows.
	for _, a := range []float64{0.7, 0.1, 1e-4, 1e-100} {
		u := make([]float64, n)
		for i := range u {
			l := g.LogGamma(a)
			if math.IsNaN(l) || math.IsInf(l, 0) {
				t.Fatalf("LogGamma(%g) = %v", a, l)
			}
			u[i] = gammaCDFLog(a, l)
		}
		checkKS(t, "LogGamma("+strconv.FormatFloat(a, 'g', -1, 64)+")", u)
	}
	for _, a := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if x := g.Gamma(a); !math.IsNaN(x) {
			t.Errorf("Gamma(%v) = %v, want NaN", a, x)
		}
		if x := g.LogGamma(a); !math.IsNaN(x) {
			t.Errorf("LogGamma(%v) = %v, want NaN", a, x)
		}
	}
}

// TestPoisson checks the Poisson variates by a χ² test on each side of the
// switch from inversion to PTRS at λ = 10, by their first two moments for
// means up to 10¹⁵, and by the frequency of zero just above the switch.
func TestPoisson(t *testing.T) {
	t.Parallel()
	g := NewNormal(11, 11)
	n := 100000
	if testing.Short() {
		n = 20000
	}
	for _, lam := range []float64{1e-3, 0.3, 3, 9.99, 10, 37.5, 1000} {
		p := distuv.Poisson{Lambda: lam}
		hi := int(lam + 8*math.Sqrt(lam) + 10)
		obs := make([]float64, hi+1)
		for range n {
			k := g.Poisson(lam)
			if k != math.Floor(k) || k < 0 {
				t.Fatalf("λ = %g: draw %v", lam, k)
			}
			obs[min(int(k), hi)]++
		}
		// Bins with expected count ≥ 5, tails merged into their neighbours.
		var chi2, o, e float64
		var df int
		for k := 0; k <= hi; k++ {
			o += obs[k]
			if k < hi {
				e += float64(n) * p.Prob(float64(k))
			} else {
				e += float64(n) * (1 - p.CDF(float64(hi-1)))
			}
			if e >= 5 && (k == hi || float64(n)*(1-p.CDF(float64(k))) >= 5) {
				chi2 += (o - e) * (o - e) / e
				df++
				o, e = 0, 0
			}
		}
		if e > 0 {
			chi2 += (o - e) * (o - e) / e
			df++
		}
		df--
		if df < 1 {
			if want := float64(n) * math.Exp(-lam); math.Abs(obs[0]-want) > 5*math.Sqrt(float64(n)-want)+1 {
				t.Errorf("λ = %g: %v zeros, want %.0f", lam, obs[0], want)
			}
			continue
		}
		if crit := (distuv.ChiSquared{K: float64(df)}).Quantile(1 - ksAlpha); chi2 > crit {
			t.Errorf("λ = %g: χ² = %.1f > %.1f (df %d)", lam, chi2, crit, df)
		}
	}
	for _, lam := range []float64{1e6, 1e12, 1e15} {
		x := make([]float64, 20000)
		var m float64
		for i := range x {
			x[i] = g.Poisson(lam)
			m += x[i]
		}
		m /= float64(len(x))
		var v float64
		for _, xi := range x {
			v += (xi - m) * (xi - m)
		}
		v /= float64(len(x) - 1)
		if se := math.Sqrt(lam / float64(len(x))); math.Abs(m-lam) > 5*se {
			t.Errorf("λ = %g: mean %.6g, want ± %.3g", lam, m, 5*se)
		}
		if math.Abs(v/lam-1) > 5*math.Sqrt(2/float64(len(x))) {
			t.Errorf("λ = %g: variance/λ = %.4f", lam, v/lam)
		}
	}
	// The zero class just above the switch to PTRS: P(0) = e^{−10.5} ≈ 2.8e−5.
	// (PTRS must reject only k < 0; rejecting k ≤ 0, as gonum's distuv.Poisson
	// does, never returns 0 for λ ≥ 10.)
	lam0, n0 := 10.5, 4000000
	if testing.Short() {
		n0 = 400000
	}
	var zeros float64
	for range n0 {
		if g.Poisson(lam0) == 0 {
			zeros++
		}
	}
	if want := float64(n0) * math.Exp(-lam0); math.Abs(zeros-want) > 5*math.Sqrt(want) {
		t.Errorf("λ = %g: %v zeros in %d draws, want %.0f ± %.0f", lam0, zeros, n0, want, 5*math.Sqrt(want))
	}
	for _, lam := range []float64{-1, math.NaN(), math.Inf(1), 2 * MaxPoissonMean} {
		if x := g.Poisson(lam); !math.IsNaN(x) {
			t.Errorf("Poisson(%v) = %v, want NaN", lam, x)
		}
	}
}

// TestLogPoissonPMF checks the cancellation-free log probability against the
// direct formula where both are accurate, and the Stirling-error table
// against math.Lgamma.
func TestLogPoissonPMF(t *testing.T) {
	for _, c := range [][2]float64{{0, 3}, {1, 3}, {7, 3}, {15, 12}, {16, 12}, {40, 31.2}, {1000, 1011}} {
		lg, _ := math.Lgamma(c[0] + 1)
		want := c[0]*math.Log(c[1]) - c[1] - lg
		if got := logPoissonPMF(c[0], c[1]); math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) {
			t.Errorf("log pmf(%g; %g) = %.15g, want %.15g", c[0], c[1], got, want)
		}
	}
	for k := 1; k <= 15; k++ {
		lg, _ := math.Lgamma(float64(k) + 1)
		fk := float64(k)
		want := lg - ((fk+0.5)*math.Log(fk) - fk + 0.5*math.Log(2*math.Pi))
		if got := stirlingErrors[k]; math.Abs(got-want) > 1e-14 {
			t.Errorf("Stirling error %d: table %.17g, Lgamma gives %.17g", k, got, want)
		}
	}
	// The series beyond 15 continues the table smoothly.
	if a, b := stirlingErrors[15], stirlingError(16); !(b < a && b > 0.9*a) {
		t.Errorf("Stirling error 15 → 16: %v → %v", a, b)
	}
}

func TestLog1pDet(t *testing.T) {
	for _, x := range []float64{-0.999999, -0.5, -1e-10, -1e-300, 0, 1e-300, 1e-17, 1e-8, 0.3, 1, 7, 1e10, 1e300} {
		got, want := log1pDet(x), math.Log1p(x)
		if math.Abs(got-want) > 4e-16*math.Abs(want) {
			t.Errorf("log1pDet(%g) = %.17g, want %.17g", x, got, want)
		}
	}
}

// TestVariatesFixedSequence pins the gamma and Poisson streams: the same
// values on every platform (the logarithms and exponentials are the
// package's own, and no product is fused into an add).
func TestVariatesFixedSequence(t *testing.T) {
	g := NewNormal(3, 4)
	h := fnv.New64a()
	var buf [8]byte
	put := func(x float64) {
		b := math.Float64bits(x)
		for i := range buf {
			buf[i] = byte(b >> (8 * i))
		}
		h.Write(buf[:])
	}
	for i := range 20000 {
		put(g.Gamma([]float64{1, 2.5, 0.3, 1e6}[i%4]))
		put(g.LogGamma([]float64{1e-5, 0.5, 3}[i%3]))
		put(g.Poisson([]float64{0.1, 4, 12, 1e3, 1e9}[i%5]))
	}
	if got, want := h.Sum64(), uint64(0x3de44721b21873a6); got != want {
		t.Errorf("hash of 60000 variates = %#x, want %#x", got, want)
	}
}

func TestVariatesAllocs(t *testing.T) {
	g := NewNormal(1, 2)
	if n := testing.AllocsPerRun(100, func() { _ = g.Gamma(2.5) + g.LogGamma(0.1) + g.Poisson(30) }); n != 0 {
		t.Errorf("%v allocations per draw", n)
	}
}
