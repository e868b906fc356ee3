// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parquet

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWithinGroupNoise checks the package doc's account of the alternative
// to staging, minibatches drawn within one random row group changed every
// K steps: the minibatch mean stays unbiased, but the variance of its sum
// over K steps is K·σ²/B·(σ_w²/σ² + K·B·σ_b²/σ²) instead of K·σ²/B, about
// 1 + K·B/G times more for a shuffled file and K·B times more for a file
// sorted by the label. The per-row "gradient" here is a 0/1 label.
func TestWithinGroupNoise(t *testing.T) {
	const n, g, b, k, reps = 20000, 500, 20, 10, 4000
	r := rand.New(rand.NewPCG(7, 8))
	y := make([]float64, n)
	for i := range y {
		if r.Float64() < 0.3 {
			y[i] = 1
		}
	}
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= n
	// sums returns the mean and variance over reps of the sum over k steps
	// of minibatch means, drawn uniformly (within false) or within one
	// random group (within true).
	sums := func(y []float64, within bool) (m, v float64) {
		s := make([]float64, reps)
		for rep := range s {
			lo, span := 0, n
			if within {
				lo, span = g*r.IntN(n/g), g
			}
			for range k {
				bm := 0.0
				for range b {
					bm += y[lo+r.IntN(span)]
				}
				s[rep] += bm / b
			}
		}
		for _, x := range s {
			m += x
		}
		m /= reps
		for _, x := range s {
			v += (x - m) * (x - m)
		}
		return m, v / (reps - 1)
	}
	sigma2 := mean * (1 - mean)
	iidVar := k * sigma2 / b
	sorted := slices.Clone(y)
	slices.Sort(sorted)
	for _, tc := range []struct {
		name string
		y    []float64
		want float64 // the variance ratio to uniform draws
	}{
		{"shuffled", y, predict(y, g, k*b, sigma2)},
		{"sorted by label", sorted, predict(sorted, g, k*b, sigma2)},
	} {
		m0, v0 := sums(tc.y, false)
		m1, v1 := sums(tc.y, true)
		t.Logf("%s: K-step sum mean %.3f (uniform) vs %.3f (within groups), want %.3f; variance ratio %.2f, predicted %.2f",
			tc.name, m0, m1, k*mean, v1/v0, tc.want)
		// Unbiased: the means agree within 4 standard errors.
		if se := math.Sqrt(v1 / reps); math.Abs(m1-k*mean) > 4*se {
			t.Errorf("%s: within-group mean %v, want %v ± %v", tc.name, m1, k*mean, 4*se)
		}
		if math.Abs(v0/iidVar-1) > 0.1 {
			t.Errorf("%s: uniform variance %v, want %v", tc.name, v0, iidVar)
		}
		if ratio := v1 / v0; math.Abs(ratio/tc.want-1) > 0.2 {
			t.Errorf("%s: variance ratio %.2f, predicted %.2f", tc.name, ratio, tc.want)
		}
	}
}

// predict returns the variance ratio σ_w²/σ² + K·B·σ_b²/σ² of y's groups
// of g (kb = K·B), σ_b² measured on y: for a shuffled file σ_b² ≈ σ²/G and
// the ratio ≈ 1 + K·B/G.
func predict(y []float64, g, kb int, sigma2 float64) float64 {
	vb := groupVar(y, g)
	return (sigma2-vb)/sigma2 + float64(kb)*vb/sigma2
}

// groupVar returns the variance of the means of y's consecutive groups of g.
func groupVar(y []float64, g int) float64 {
	var ms []float64
	all := 0.0
	for lo := 0; lo < len(y); lo += g {
		m := 0.0
		for _, v := range y[lo : lo+g] {
			m += v
		}
		ms = append(ms, m/float64(g))
		all += m
	}
	all /= float64(len(y))
	v := 0.0
	for _, m := range ms {
		v += (m - all) * (m - all)
	}
	return v / float64(len(ms))
}
