// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MCSEMean returns the Monte Carlo standard error of the pooled sample mean of
// one scalar quantity: sd/√ESSMean, sd the pooled sample standard deviation
// (divisor S − 1). Input requirements are those of ESSBulk; for constant
// draws it is 0.
func MCSEMean(chains [][]float64) (float64, error) {
	n, err := checkChains("MCSEMean", chains, MinDraws)
	if err != nil {
		return math.NaN(), err
	}
	var w work
	w.init(len(chains), n)
	return w.mcseMean(chains), nil
}

func (w *work) mcseMean(chains [][]float64) float64 {
	ess := w.ess(w.split(chains))
	_, sd := pooledMeanSD(chains)
	return sd / math.Sqrt(ess)
}

// MCSEQuantile returns the Monte Carlo standard error of the pooled sample
// p-quantile, 0 < p < 1, as Vehtari et al. (2021, §4.3) define it: with
// E = ESSQuantile(chains, p) and a_∓ the Φ(∓1) quantiles of
// Beta(E·p + 1, E·(1−p) + 1), half the distance between the order statistics
// of ranks ⌊a_− S⌋ and ⌈a_+ S⌉ of the S pooled draws. Input requirements are
// those of ESSBulk.
func MCSEQuantile(chains [][]float64, p float64) (float64, error) {
	if !(p > 0 && p < 1) {
		return math.NaN(), inputErr("MCSEQuantile", fmt.Sprintf("probability %v not in (0, 1)", p))
	}
	n, err := checkChains("MCSEQuantile", chains, MinDraws)
	if err != nil {
		return math.NaN(), err
	}
	var w work
	w.init(len(chains), n)
	sorted := w.sorted(chains)
	ess := w.essQuantile(chains, quantileSorted(sorted, p))
	return mcseQuantileSorted(sorted, p, ess), nil
}

// Φ(−1) and Φ(1).
const (
	phiMinus1 = 0.15865525393145707
	phiPlus1  = 0.8413447460685429
)

func mcseQuantileSorted(sorted []float64, p, ess float64) float64 {
	b := distuv.Beta{Alpha: ess*p + 1, Beta: ess*(1-p) + 1}
	s := len(sorted)
	lo := max(int(math.Floor(b.Quantile(phiMinus1)*float64(s))), 1)
	hi := min(int(math.Ceil(b.Quantile(phiPlus1)*float64(s))), s)
	return (sorted[hi-1] - sorted[lo-1]) / 2
}

// pooledMeanSD returns the mean and the standard deviation (divisor S − 1)
// of all draws of chains. Draws far from 1 in magnitude are scaled by a
// power of two first, exactly, so that neither the sums nor the squares
// overflow or underflow; for draws within ±MaxAbs the results are finite.
func pooledMeanSD(chains [][]float64) (mean, sd float64) {
	sc := powerScale(chains)
	var s float64
	var cnt int
	for _, x := range chains {
		for _, v := range x {
			s += v * sc
		}
		cnt += len(x)
	}
	mean = s / float64(cnt)
	var ss float64
	for _, x := range chains {
		for _, v := range x {
			d := v*sc - mean
			ss += d * d
		}
	}
	return mean / sc, math.Sqrt(ss/float64(cnt-1)) / sc
}

// powerScale returns 1 for draws whose largest magnitude is in
// [2⁻⁵⁰⁰, 2⁵⁰⁰] (so that n of their squares neither overflow nor
// underflow), and otherwise the power of two that brings it near 1.
// Multiplying by a power of two is exact, so results computed on the scaled
// draws and scaled back are those of the draws themselves.
func powerScale(chains [][]float64) float64 {
	var m float64
	for _, x := range chains {
		for _, v := range x {
			m = math.Max(m, math.Abs(v))
		}
	}
	if m == 0 || (m >= 0x1p-500 && m <= 0x1p500) {
		return 1
	}
	_, e := math.Frexp(m)
	return math.Ldexp(1, -min(max(e, -1000), 1000))
}
