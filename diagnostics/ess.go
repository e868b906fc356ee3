// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"
)

// MinDraws is the fewest draws per chain that ESS, R̂ and MCSE accept: each
// half of a split chain then holds at least two draws.
const MinDraws = 4

// ESSBulk returns the bulk effective sample size of one scalar quantity
// sampled by the given chains (Vehtari et al. 2021): the ESS of the
// split, rank-normalised draws. It measures how well the centre of the
// distribution is explored and is robust to heavy tails, for which the ESS of
// the raw draws (ESSMean) is meaningless.
//
// The chains must have equal length, at least MinDraws draws, all finite. A
// chain of odd length loses its middle draw when split. If all draws are
// equal ESSBulk returns the total number of draws, as ArviZ does.
//
// The result can exceed the number of draws for antithetic chains; it is at
// most S·log10(S) for S draws in total.
func ESSBulk(chains [][]float64) (float64, error) {
	n, err := checkChains("ESSBulk", chains, MinDraws)
	if err != nil {
		return math.NaN(), err
	}
	var w work
	w.init(len(chains), n)
	return w.ess(w.zscale(w.split(chains))), nil
}

// ESSTail returns the tail effective sample size of one scalar quantity
// (Vehtari et al. 2021): the smaller of the ESS of the 5% and the 95%
// quantile, each the ESS of the split indicator chains I(x ≤ q̂_p) with q̂_p
// the pooled sample quantile (type 7, linear interpolation, as R's and
// NumPy's default). Input requirements are those of ESSBulk.
func ESSTail(chains [][]float64) (float64, error) {
	n, err := checkChains("ESSTail", chains, MinDraws)
	if err != nil {
		return math.NaN(), err
	}
	var w work
	w.init(len(chains), n)
	sorted := w.sorted(chains)
	lo := w.essQuantile(chains, quantileSorted(sorted, 0.05))
	hi := w.essQuantile(chains, quantileSorted(sorted, 0.95))
	return math.Min(lo, hi), nil
}

// ESSMean returns the effective sample size of the split chains themselves,
// without rank normalisation: the ESS that governs the Monte Carlo error of
// the sample mean (see MCSEMean). Input requirements are those of ESSBulk.
func ESSMean(chains [][]float64) (float64, error) {
	n, err := checkChains("ESSMean", chains, MinDraws)
	if err != nil {
		return math.NaN(), err
	}
	var w work
	w.init(len(chains), n)
	return w.ess(w.split(chains)), nil
}

// ESSQuantile returns the effective sample size for the p-quantile, 0 < p < 1:
// the ESS of the split indicator chains I(x ≤ q̂_p), q̂_p the pooled sample
// quantile (type 7). Input requirements are those of ESSBulk.
func ESSQuantile(chains [][]float64, p float64) (float64, error) {
	if !(p > 0 && p < 1) {
		return math.NaN(), inputErr("ESSQuantile", fmt.Sprintf("probability %v not in (0, 1)", p))
	}
	n, err := checkChains("ESSQuantile", chains, MinDraws)
	if err != nil {
		return math.NaN(), err
	}
	var w work
	w.init(len(chains), n)
	return w.essQuantile(chains, quantileSorted(w.sorted(chains), p)), nil
}

// work holds the buffers of the chain diagnostics for m chains of n draws.
type work struct {
	m, n   int
	acf    acf
	halves [][]float64 // split chains, views of the input
	acov   []float64   // autocovariance of the split chains, averaged
	means  []float64
	rho    []float64
	z      []float64 // rank-normalised or indicator values, 2m·(n/2)
	zc     [][]float64
	pairs  []pair
	tmp    []pair
	sort   []float64 // pooled sorted draws
	keys   []uint64  // scratch of sorted
	fold   []float64 // folded draws, m·n
	foldc  [][]float64
}

func (w *work) init(m, n int) {
	w.m, w.n = m, n
	half := n / 2
	s := 2 * m * half
	w.halves = make([][]float64, 2*m)
	w.acov = make([]float64, half)
	w.means = make([]float64, 2*m)
	w.rho = make([]float64, half)
	w.z = make([]float64, s)
	w.zc = make([][]float64, 2*m)
	for c := range w.zc {
		w.zc[c] = w.z[c*half : (c+1)*half]
	}
}

// split returns the first and last halves of each chain (the middle draw of
// an odd-length chain is dropped), as views of chains.
func (w *work) split(chains [][]float64) [][]float64 {
	half := len(chains[0]) / 2
	for c, x := range chains {
		w.halves[2*c] = x[:half]
		w.halves[2*c+1] = x[len(x)-half:]
	}
	return w.halves
}

// zscale rank-normalises the pooled draws of chains into w.zc: average ranks
// r of ties, then Φ⁻¹((r − 3/8)/(S + 1/4)).
func (w *work) zscale(chains [][]float64) [][]float64 {
	n := len(chains[0])
	s := len(chains) * n
	if cap(w.pairs) < s {
		w.pairs = make([]pair, 0, s)
		w.tmp = make([]pair, s)
	}
	p := w.pairs[:0]
	for c, x := range chains {
		for i, v := range x {
			p = append(p, pair{sortKey(v), c*n + i})
		}
	}
	p = sortPairs(p, w.tmp[:s])
	z := w.z[:s]
	den := float64(s) + 0.25
	for i := 0; i < s; {
		j := i + 1
		for j < s && p[j].key == p[i].key {
			j++
		}
		r := float64(i+1+j) / 2 // mean of the ranks i+1, …, j
		zv := mathext.NormalQuantile((r - 0.375) / den)
		for k := i; k < j; k++ {
			z[p[k].i] = zv
		}
		i = j
	}
	return w.zc[:len(chains)]
}

// sorted returns the pooled draws of chains, sorted.
func (w *work) sorted(chains [][]float64) []float64 {
	s := w.sort[:0]
	for _, x := range chains {
		s = append(s, x...)
	}
	if cap(w.keys) < 2*len(s) {
		w.keys = make([]uint64, 2*len(s))
	}
	sortFloats(s, w.keys[:len(s)], w.keys[len(s):2*len(s)])
	w.sort = s
	return s
}

// quantileSorted returns the type-7 p-quantile of sorted x.
func quantileSorted(x []float64, p float64) float64 {
	h := float64(len(x)-1) * p
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[i] + (h-lo)*(x[i+1]-x[i])
}

// essQuantile returns the ESS of the split indicator chains I(x ≤ q).
func (w *work) essQuantile(chains [][]float64, q float64) float64 {
	half := len(chains[0]) / 2
	for c, x := range w.split(chains) {
		dst := w.zc[c]
		for i, v := range x[:half] {
			dst[i] = 0
			if v <= q {
				dst[i] = 1
			}
		}
	}
	return w.ess(w.zc)
}

// ess is the multi-chain effective sample size of Vehtari et al. (2021),
// §3.2, with Geyer's initial monotone sequence, computed as posterior's and
// ArviZ's ess functions do. chains have equal length n ≥ 2. If all draws are
// equal it returns the number of draws.
func (w *work) ess(chains [][]float64) float64 {
	m := len(chains)
	n := len(chains[0])
	s := float64(m * n)
	if constant(chains) {
		return s
	}
	// The ESS does not change when the draws are scaled; scale raw draws
	// of extreme magnitude by a power of two so that the autocovariances
	// neither overflow nor underflow. (Rank-normalised and indicator
	// chains, which live in w.zc, never need it; split raw chains fit it.)
	if sc := powerScale(chains); sc != 1 && m <= len(w.zc) && n <= len(w.zc[0]) {
		for c, x := range chains {
			for i, v := range x {
				w.zc[c][i] = v * sc
			}
		}
		scaled := w.zc[:m]
		for c := range scaled {
			scaled[c] = scaled[c][:n]
		}
		chains = scaled
	}
	acov := w.acov[:n] // autocovariance averaged over chains
	w.acf.meanAutocov(acov, chains, w.means[:m])
	nf := float64(n)
	meanVar := acov[0] * nf / (nf - 1)
	varPlus := meanVar * (nf - 1) / nf
	if m > 1 {
		varPlus += sampleVar(w.means[:m])
	}
	if !(varPlus > 0) {
		return s
	}
	rho := w.rho[:n]
	clear(rho)
	rhoEven := 1.0
	rho[0] = rhoEven
	rhoOdd := 1 - (meanVar-acov[1])/varPlus
	rho[1] = rhoOdd
	// Geyer's initial positive sequence.
	t := 1
	for t < n-3 && rhoEven+rhoOdd > 0 {
		rhoEven = 1 - (meanVar-acov[t+1])/varPlus
		rhoOdd = 1 - (meanVar-acov[t+2])/varPlus
		if rhoEven+rhoOdd >= 0 {
			rho[t+1] = rhoEven
			rho[t+2] = rhoOdd
		}
		t += 2
	}
	maxT := t - 2
	// The improved estimate of Vehtari et al. keeps a positive last even lag.
	if rhoEven > 0 {
		rho[maxT+1] = rhoEven
	}
	// Geyer's initial monotone sequence.
	for t := 1; t <= maxT-2; t += 2 {
		if rho[t+1]+rho[t+2] > rho[t-1]+rho[t] {
			rho[t+1] = (rho[t-1] + rho[t]) / 2
			rho[t+2] = rho[t+1]
		}
	}
	tau := -1.0
	for _, r := range rho[:maxT+1] {
		tau += 2 * r
	}
	tau += rho[maxT+1]
	tau = math.Max(tau, 1/math.Log10(s))
	return s / tau
}

// constant reports whether all values of chains are equal.
func constant(chains [][]float64) bool {
	v := chains[0][0]
	for _, x := range chains {
		for _, u := range x {
			if u != v {
				return false
			}
		}
	}
	return true
}

// sampleVar returns the variance of x with divisor len(x) − 1.
func sampleVar(x []float64) float64 {
	var mean float64
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return ss / float64(len(x)-1)
}
