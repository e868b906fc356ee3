// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The statistical tests draw defaultDraws normals (shortDraws under
// -short); set SGMCMC_RNG_DRAWS (e.g. 1e8 or 1e9) for a longer run.
const (
	defaultDraws = 20_000_000
	shortDraws   = 1_000_000
	alpha        = 1e-5 // per-check significance level; ~30 checks
)

func numDraws(t *testing.T) int {
	if s := os.Getenv("SGMCMC_RNG_DRAWS"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 1e4 || v > 1e13 {
			t.Fatalf("SGMCMC_RNG_DRAWS=%q: want a number of draws from 1e4 to 1e13", s)
		}
		return int(v)
	}
	if testing.Short() {
		return shortDraws
	}
	return defaultDraws
}

// Fine bins of width 1/binScale on [−binEdge, binEdge), plus one bin for
// each side beyond.
const (
	binEdge  = 8
	binScale = 128
	nBins    = 2*binEdge*binScale + 2
)

// tailCuts are the c of the tail-frequency checks P(X > c), P(X < −c).
var tailCuts = []float64{1, 2, 3, 3.5, 4, 4.5, 5, 5.5, 6}

// normalSample summarises draws for the tests without storing them.
type normalSample struct {
	n           int
	bins        [nBins]float64
	m1, m2      float64 // Σx, Σx²
	m3, m4      float64 // Σx³, Σx⁴
	pair, pair2 float64 // Σ x_{2k} x_{2k+1}, Σ (x_{2k}²−1)(x_{2k+1}²−1): the two halves of a word
	above       []int   // counts of x > c, c in tailCuts
	below       []int   // counts of x < −c
}

// sampleNormals draws n normals (n even) with fill, in blocks.
func sampleNormals(n int, fill func([]float64)) *normalSample {
	s := &normalSample{n: n, above: make([]int, len(tailCuts)), below: make([]int, len(tailCuts))}
	buf := make([]float64, 1<<16)
	for done := 0; done < n; {
		x := buf[:min(len(buf), n-done)]
		fill(x)
		done += len(x)
		for k, v := range x {
			j := 0
			switch {
			case v >= binEdge:
				j = nBins - 1
			case v >= -binEdge:
				j = 1 + int((v+binEdge)*binScale)
			}
			s.bins[j]++
			v2 := v * v
			s.m1 += v
			s.m2 += v2
			s.m3 += v2 * v
			s.m4 += v2 * v2
			if k%2 == 1 {
				u := x[k-1]
				s.pair += u * v
				s.pair2 += (u*u - 1) * (v2 - 1)
			}
			if a := math.Abs(v); a > tailCuts[0] {
				for c, cut := range tailCuts {
					if a <= cut {
						break
					}
					if v > 0 {
						s.above[c]++
					} else {
						s.below[c]++
					}
				}
			}
		}
	}
	return s
}

// upper returns P(X > x) for a standard normal X, accurate in both tails.
func upper(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }

// binProb returns P(a < X < b) without cancellation.
func binProb(a, b float64) float64 {
	switch {
	case a >= 0:
		return upper(a) - upper(b)
	case b <= 0:
		return upper(-b) - upper(-a)
	}
	return 1 - upper(b) - upper(-a)
}

// edge returns the lower edge of fine bin j (1 ≤ j < nBins).
func edge(j int) float64 { return float64(j-1)/binScale - binEdge }

// groups merges consecutive runs of width fine bins, then merges runs from
// the left until each expects at least 50 draws, and returns the observed
// and expected counts of the groups.
func (s *normalSample) groups(width int) (obs, exp []float64) {
	n := float64(s.n)
	var o, e float64
	flush := func() {
		obs, exp = append(obs, o), append(exp, e)
		o, e = 0, 0
	}
	o, e = s.bins[0], n*upper(binEdge)
	for j := 1; j < nBins-1; j++ {
		o += s.bins[j]
		e += n * binProb(edge(j), edge(j+1))
		if (j%width == 0 || j == nBins-2) && e >= 50 {
			flush()
		}
	}
	o += s.bins[nBins-1]
	e += n * upper(binEdge)
	if e < 50 && len(obs) > 0 {
		obs[len(obs)-1] += o
		exp[len(exp)-1] += e
	} else {
		flush()
	}
	return obs, exp
}

// chiSquare returns the χ² statistic of the groups of width fine bins, its
// degrees of freedom and p-value.
func (s *normalSample) chiSquare(width int) (stat float64, df int, p float64) {
	obs, exp := s.groups(width)
	for i := range obs {
		d := obs[i] - exp[i]
		stat += d * d / exp[i]
	}
	df = len(obs) - 1
	return stat, df, distuv.ChiSquared{K: float64(df)}.Survival(stat)
}

// maxBin returns the largest standardised deviation of a fine bin (a
// group, in the tails) and its Bonferroni-corrected p-value: the test for a
// defect confined to a narrow range of x, such as one layer's edge, which
// χ² on a thousand bins dilutes.
func (s *normalSample) maxBin() (z float64, at float64, p float64) {
	obs, exp := s.groups(1)
	c := 0.0
	for i := range obs {
		if d := (obs[i] - exp[i]) / math.Sqrt(exp[i]); math.Abs(d) > math.Abs(z) {
			z = d
			at = c / float64(s.n) // share of draws below the group
		}
		c += obs[i]
	}
	return z, at, min(1, float64(len(obs))*zP(z))
}

// ks returns the Kolmogorov–Smirnov distance between the sample's
// distribution function and Φ at the fine bins' edges, and its asymptotic
// p-value. On the edges only, the distance is a lower bound on the
// continuous one; with 128 edges per unit it misses only deviations narrower
// than a bin, which the fine χ² sees.
func (s *normalSample) ks() (d, p float64) {
	n := float64(s.n)
	c := s.bins[0]
	for j := 1; j < nBins; j++ {
		x := edge(j)
		phi := upper(-x)
		if x > 0 {
			phi = 1 - upper(x)
		}
		d = max(d, math.Abs(c/n-phi))
		c += s.bins[j]
	}
	sn := math.Sqrt(n)
	lambda := (sn + 0.12 + 0.11/sn) * d
	return d, kolmogorovQ(lambda)
}

// kolmogorovQ is P(K > λ) for the Kolmogorov distribution.
func kolmogorovQ(lambda float64) float64 {
	if lambda < 0.2 {
		return 1
	}
	q := 0.0
	for k := 1; k <= 100; k++ {
		term := 2 * math.Exp(-2*float64(k*k)*lambda*lambda)
		if k%2 == 0 {
			term = -term
		}
		q += term
		if math.Abs(term) < 1e-20 {
			break
		}
	}
	return min(max(q, 0), 1)
}

// twoSided returns the two-sided p-value of a binomial count k of n with
// success probability p.
func twoSided(k, n int, p float64) float64 {
	b := distuv.Binomial{N: float64(n), P: p}
	lo := b.CDF(float64(k))
	hi := 1.0
	if k > 0 {
		hi = 1 - b.CDF(float64(k-1))
	}
	return min(1, 2*min(lo, hi))
}

// zP returns the two-sided normal p-value of a z-score.
func zP(z float64) float64 { return math.Erfc(math.Abs(z) / math.Sqrt2) }

// check is one named test result.
type check struct {
	name string
	p    float64
	info string
}

// checks returns every test of the sample against the standard normal.
func (s *normalSample) checks() []check {
	n := float64(s.n)
	var cs []check
	for _, w := range []int{1, 16} {
		stat, df, p := s.chiSquare(w)
		cs = append(cs, check{fmt.Sprintf("χ², bins of width 1/%d", binScale/w), p, fmt.Sprintf("%.1f on %d df", stat, df)})
	}
	z, at, p := s.maxBin()
	cs = append(cs, check{"largest bin deviation", p, fmt.Sprintf("z = %.2f at the %.4f quantile", z, at)})
	d, p := s.ks()
	cs = append(cs, check{"Kolmogorov–Smirnov", p, fmt.Sprintf("D = %.3g", d)})
	half := n / 2 // pairs of normals from one word
	for _, m := range []struct {
		name      string
		sum, want float64
		sd, terms float64 // standard deviation of one term, number of terms
	}{
		{"mean", s.m1, 0, 1, n},
		{"E x²", s.m2, 1, math.Sqrt2, n},
		{"E x³", s.m3, 0, math.Sqrt(15), n},
		{"E x⁴", s.m4, 3, math.Sqrt(96), n},
		{"E x₂ₖx₂ₖ₊₁ (halves of a word)", s.pair, 0, 1, half},
		{"E (x₂ₖ²−1)(x₂ₖ₊₁²−1)", s.pair2, 0, 2, half},
	} {
		mean := m.sum / m.terms
		z := (mean - m.want) / (m.sd / math.Sqrt(m.terms))
		cs = append(cs, check{m.name, zP(z), fmt.Sprintf("%.6g (z = %.2f)", mean, z)})
	}
	for c, cut := range tailCuts {
		pc := upper(cut)
		cs = append(cs,
			check{fmt.Sprintf("P(X > %g)", cut), twoSided(s.above[c], s.n, pc), fmt.Sprintf("%d, expected %.1f", s.above[c], n*pc)},
			check{fmt.Sprintf("P(X < −%g)", cut), twoSided(s.below[c], s.n, pc), fmt.Sprintf("%d, expected %.1f", s.below[c], n*pc)})
	}
	return cs
}

// failures returns the checks with p-value below alpha.
func failures(cs []check) []check {
	var f []check
	for _, c := range cs {
		if c.p < alpha {
			f = append(f, c)
		}
	}
	return f
}

// TestNormalDistribution checks Fill's output (and so Norm's, which is
// the same sequence) against the standard normal: χ² on fine and coarse
// bins, Kolmogorov–Smirnov, the first four moments, independence of the two
// normals taken from one 64-bit word, and the frequencies of both tails out
// to 6σ.
func TestNormalDistribution(t *testing.T) {
	n := numDraws(t)
	g := NewNormal(0x5eed, 2026)
	s := sampleNormals(n, g.Fill)
	cs := s.checks()
	for _, c := range cs {
		t.Logf("%-36s p = %-9.3g %s", c.name, c.p, c.info)
	}
	for _, c := range failures(cs) {
		t.Errorf("%d draws: %s: p = %.3g (%s)", n, c.name, c.p, c.info)
	}
}

// TestTailRoutine checks the tail method on its own, far beyond what the
// full sample reaches: Kolmogorov–Smirnov of its draws against the normal
// conditioned on X > r, and the frequencies beyond 4.5σ to 6σ.
func TestTailRoutine(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	g := NewNormal(31, 41)
	x := make([]float64, n)
	for i := range x {
		x[i] = g.tail()
		if x[i] <= zigR {
			t.Fatalf("tail draw %v not beyond r = %v", x[i], zigR)
		}
	}
	sort.Float64s(x)
	qr := upper(zigR)
	d := 0.0
	for i, v := range x {
		f := 1 - upper(v)/qr
		d = max(d, math.Abs(f-float64(i)/float64(n)), math.Abs(f-float64(i+1)/float64(n)))
	}
	sn := math.Sqrt(float64(n))
	if p := kolmogorovQ((sn + 0.12 + 0.11/sn) * d); p < alpha {
		t.Errorf("tail draws: Kolmogorov–Smirnov D = %.3g, p = %.3g", d, p)
	} else {
		t.Logf("tail draws: Kolmogorov–Smirnov D = %.3g, p = %.3g", d, p)
	}
	for _, c := range []float64{4.5, 5, 5.5, 6} {
		k := n - sort.SearchFloat64s(x, c)
		pc := upper(c) / qr
		p := twoSided(k, n, pc)
		t.Logf("P(X > %g | X > r): %d of %d, expected %.1f, p = %.3g", c, k, n, float64(n)*pc, p)
		if p < alpha {
			t.Errorf("P(X > %g | X > r): %d of %d, expected %.1f, p = %.3g", c, k, n, float64(n)*pc, p)
		}
	}
}

// TestChecksCatchWrongTables shows that TestNormalDistribution's checks,
// at their default size, fail for generators with wrong tables: each case
// corrupts the tables the way a plausible bug would (the first is one this
// package had while it was written), draws, and expects a check to fail.
// Subtler errors, such as one layer a few per cent too narrow (a 0.1 %
// deficit over a band of x), need 10⁹ draws to be seen; TestTableAreas
// bounds every layer's error to 10⁻¹² instead. It changes the package's
// tables while it runs, so no test of this package may run in parallel.
func TestChecksCatchWrongTables(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	n := defaultDraws
	for _, c := range []struct {
		name   string
		mutate func()
	}{
		{"top layer's wedge always accepts", func() { wedgeLo[255] = 2 }},
		{"every wedge rejects", func() {
			for i := range wedgeLo {
				wedgeLo[i], wedgeHi[i] = -2, -2
			}
		}},
		{"widths shifted by one layer", func() {
			for j := range 255 {
				zig[j].w, zig[j+256].w = zig[j+1].w, zig[j+257].w
			}
		}},
		{"layer 100's negative half positive", func() { zig[356].w = zig[100].w }},
		{"no tail: base strip accepted whole", func() { zig[0].k = 1 << 24; zig[256].k = 1 << 24 }},
		{"tail 10% short", func() { zig[0].k += (1<<24 - zig[0].k) / 10; zig[256].k = zig[0].k }},
	} {
		saveZig, saveLo, saveHi := zig, wedgeLo, wedgeHi
		c.mutate()
		s := sampleNormals(n, NewNormal(0x5eed, 2026).Fill)
		zig, wedgeLo, wedgeHi = saveZig, saveLo, saveHi
		f := failures(s.checks())
		if len(f) == 0 {
			t.Errorf("%s: no check fails", c.name)
			continue
		}
		t.Logf("%s: %d checks fail, e.g. %s: p = %.3g (%s)", c.name, len(f), f[0].name, f[0].p, f[0].info)
	}
}
