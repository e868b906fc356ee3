// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// This file holds direct, O(n²) implementations of the published definitions
// (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021; Geyer 1992), written
// independently of the package's FFT and sorting code, to check it against.

// refAutocov is the biased autocovariance by its defining sum.
func refAutocov(x []float64) []float64 {
	n := len(x)
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(n)
	g := make([]float64, n)
	for t := range n {
		var s float64
		for i := 0; i+t < n; i++ {
			s += (x[i] - mean) * (x[i+t] - mean)
		}
		g[t] = s / float64(n)
	}
	return g
}

// refSplit splits each chain into its first and last ⌊n/2⌋ draws.
func refSplit(chains [][]float64) [][]float64 {
	var out [][]float64
	for _, x := range chains {
		h := len(x) / 2
		out = append(out, append([]float64(nil), x[:h]...), append([]float64(nil), x[len(x)-h:]...))
	}
	return out
}

// refZ rank-normalises the pooled draws: average ranks by counting, then
// Φ⁻¹((r − 3/8)/(S − 2·3/8 + 1)).
func refZ(chains [][]float64) [][]float64 {
	var all []float64
	for _, x := range chains {
		all = append(all, x...)
	}
	s := float64(len(all))
	out := make([][]float64, len(chains))
	for c, x := range chains {
		out[c] = make([]float64, len(x))
		for i, v := range x {
			var less, equal float64
			for _, u := range all {
				if u < v {
					less++
				} else if u == v {
					equal++
				}
			}
			r := less + (equal+1)/2
			out[c][i] = distuv.UnitNormal.Quantile((r - 3.0/8) / (s - 2*3.0/8 + 1))
		}
	}
	return out
}

// refQuantile is the type-7 sample quantile of the pooled draws.
func refQuantile(chains [][]float64, p float64) float64 {
	var all []float64
	for _, x := range chains {
		all = append(all, x...)
	}
	sort.Float64s(all)
	h := 1 + float64(len(all)-1)*p // 1-based position
	j := int(math.Floor(h))
	if j >= len(all) {
		return all[len(all)-1]
	}
	return all[j-1] + (h-float64(j))*(all[j]-all[j-1])
}

// refESS is the multi-chain ESS of Vehtari et al. (2021, §3.2): the combined
// autocorrelation ρ̂_t = 1 − (W − mean_m γ̂_{m,t})/var̂⁺ summed in pairs
// P_k = ρ̂_{2k} + ρ̂_{2k+1}, truncated at the first negative pair (Geyer's
// initial positive sequence), made monotone by a running minimum (initial
// monotone sequence), with the last positive even lag added (the paper's
// improvement for antithetic chains) and τ̂ bounded below by 1/log10(S).
func refESS(chains [][]float64) float64 {
	m, n := len(chains), len(chains[0])
	s := float64(m * n)
	first := chains[0][0]
	allEqual := true
	for _, x := range chains {
		for _, v := range x {
			allEqual = allEqual && v == first
		}
	}
	if allEqual {
		return s
	}
	acov := make([][]float64, m)
	means := make([]float64, m)
	for c, x := range chains {
		acov[c] = refAutocov(x)
		for _, v := range x {
			means[c] += v / float64(n)
		}
	}
	nf := float64(n)
	var w float64 // within-chain variance, divisor n−1
	for c := range m {
		w += acov[c][0] * nf / (nf - 1) / float64(m)
	}
	varPlus := (nf - 1) / nf * w
	if m > 1 {
		var mu, b float64
		for _, v := range means {
			mu += v / float64(m)
		}
		for _, v := range means {
			b += (v - mu) * (v - mu) / float64(m-1)
		}
		varPlus += b
	}
	rho := func(t int) float64 {
		if t == 0 {
			return 1
		}
		var g float64
		for c := range m {
			g += acov[c][t] / float64(m)
		}
		return 1 - (w-g)/varPlus
	}
	// Pairs P_k are computed for k = 1, 2, … while 2k − 1 < n − 3 and the
	// previous pair is positive; K is the last one computed. The estimate
	// sums the pairs before K and adds ρ̂_{2K} if pair K is non-negative
	// (kept by the positive sequence) or ρ̂_{2K} > 0 (the improvement).
	pairs := []float64{rho(0) + rho(1)}
	evenK, keptK := 1.0, true
	for k := 1; 2*k-1 < n-3 && pairs[k-1] > 0; k++ {
		e, o := rho(2*k), rho(2*k+1)
		pairs = append(pairs, e+o)
		evenK, keptK = e, e+o >= 0
	}
	pairs = pairs[:len(pairs)-1] // P_0 … P_{K−1}
	for k := 1; k < len(pairs); k++ {
		pairs[k] = math.Min(pairs[k], pairs[k-1])
	}
	tau := -1.0
	for _, p := range pairs {
		tau += 2 * p
	}
	if keptK || evenK > 0 {
		tau += evenK
	}
	tau = math.Max(tau, 1/math.Log10(s))
	return s / tau
}

// refRhat is the potential scale reduction of Gelman et al. in the form of
// Vehtari et al. (2021, eqs. 1–4): R̂ = √(var̂⁺/W), var̂⁺ = (n−1)/n W + B/n.
func refRhat(chains [][]float64) float64 {
	m, n := len(chains), float64(len(chains[0]))
	means := make([]float64, m)
	var grand float64
	for c, x := range chains {
		for _, v := range x {
			means[c] += v / n
		}
		grand += means[c] / float64(m)
	}
	var b, w float64
	for c, x := range chains {
		b += n * (means[c] - grand) * (means[c] - grand) / float64(m-1)
		var ss float64
		for _, v := range x {
			ss += (v - means[c]) * (v - means[c])
		}
		w += ss / (n - 1) / float64(m)
	}
	return math.Sqrt(((n-1)/n*w + b/n) / w)
}

func refESSBulk(chains [][]float64) float64 { return refESS(refZ(refSplit(chains))) }

func refESSQuantile(chains [][]float64, p float64) float64 {
	q := refQuantile(chains, p)
	ind := make([][]float64, len(chains))
	for c, x := range chains {
		ind[c] = make([]float64, len(x))
		for i, v := range x {
			if v <= q {
				ind[c][i] = 1
			}
		}
	}
	return refESS(refSplit(ind))
}

func refESSTail(chains [][]float64) float64 {
	return math.Min(refESSQuantile(chains, 0.05), refESSQuantile(chains, 0.95))
}

func refRHat(chains [][]float64) float64 {
	bulk := refRhat(refZ(refSplit(chains)))
	med := refQuantile(chains, 0.5)
	fold := make([][]float64, len(chains))
	for c, x := range chains {
		for _, v := range x {
			fold[c] = append(fold[c], math.Abs(v-med))
		}
	}
	tail := refRhat(refZ(refSplit(fold)))
	return math.Max(bulk, tail)
}

// refMCSEQuantile is the quantile MCSE of Vehtari et al. (2021, §4.3).
func refMCSEQuantile(chains [][]float64, p float64) float64 {
	ess := refESSQuantile(chains, p)
	b := distuv.Beta{Alpha: ess*p + 1, Beta: ess*(1-p) + 1}
	var all []float64
	for _, x := range chains {
		all = append(all, x...)
	}
	sort.Float64s(all)
	s := float64(len(all))
	i1 := math.Max(math.Floor(b.Quantile(distuv.UnitNormal.CDF(-1))*s), 1)
	i2 := math.Min(math.Ceil(b.Quantile(distuv.UnitNormal.CDF(1))*s), s)
	return (all[int(i2)-1] - all[int(i1)-1]) / 2
}
