// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"math"
)

// RHat returns the rank-normalised split R̂ of one scalar quantity sampled by
// the given chains (Vehtari et al. 2021): the larger of the bulk R̂, the split
// R̂ of the rank-normalised draws, and the tail R̂, the split R̂ of the
// rank-normalised folded draws |x − median|. Values above 1.01 indicate that
// the chains have not mixed. RHatBulkTail returns both parts.
//
// A single chain is allowed: its two halves are compared. The chains must have
// equal length, at least MinDraws draws, all finite.
//
// Defined values instead of NaN: if the draws are all equal (no variation
// within or between chains) R̂ is 1; if there is variation between chains but
// none within them (each chain constant, the chains different) R̂ is +Inf.
func RHat(chains [][]float64) (float64, error) {
	bulk, tail, err := rhat("RHat", chains)
	return math.Max(bulk, tail), err
}

// RHatBulkTail returns the bulk and the tail R̂ whose maximum is RHat.
func RHatBulkTail(chains [][]float64) (bulk, tail float64, err error) {
	return rhat("RHatBulkTail", chains)
}

func rhat(fn string, chains [][]float64) (bulk, tail float64, err error) {
	n, err := checkChains(fn, chains, MinDraws)
	if err != nil {
		return math.NaN(), math.NaN(), err
	}
	var w work
	w.init(len(chains), n)
	bulk, tail = w.rhat(chains)
	return bulk, tail, nil
}

// rhat returns the bulk and tail R̂ of chains.
func (w *work) rhat(chains [][]float64) (bulk, tail float64) {
	bulk = rhatBasic(w.zscale(w.split(chains)))
	med := quantileSorted(w.sorted(chains), 0.5)
	w.folded(chains, med)
	tail = rhatBasic(w.zscale(w.split(w.foldc)))
	return bulk, tail
}

// folded writes |x − med| of chains into w.foldc.
func (w *work) folded(chains [][]float64, med float64) {
	n := len(chains[0])
	if len(w.fold) != len(chains)*n {
		w.fold = make([]float64, len(chains)*n)
		w.foldc = make([][]float64, len(chains))
		for c := range w.foldc {
			w.foldc[c] = w.fold[c*n : (c+1)*n]
		}
	}
	for c, x := range chains {
		for i, v := range x {
			w.foldc[c][i] = math.Abs(v - med)
		}
	}
}

// rhatBasic is Gelman et al.'s potential scale reduction of chains of equal
// length n ≥ 2, with the defined values of RHat for degenerate input.
func rhatBasic(chains [][]float64) float64 {
	m := len(chains)
	n := float64(len(chains[0]))
	var within float64
	means := make([]float64, m)
	for c, x := range chains {
		var mu float64
		for _, v := range x {
			mu += v
		}
		mu /= n
		means[c] = mu
		var ss float64
		for _, v := range x {
			ss += (v - mu) * (v - mu)
		}
		within += ss / (n - 1)
	}
	within /= float64(m)
	between := n * sampleVar(means)
	if within == 0 {
		if between == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return math.Sqrt((between/within + n - 1) / n)
}
