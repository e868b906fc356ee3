// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// Summary describes the draws of one scalar quantity from one or more chains.
type Summary struct {
	Mean     float64 // pooled sample mean
	SD       float64 // pooled sample standard deviation (divisor S − 1)
	MCSEMean float64 // Monte Carlo standard error of Mean, see MCSEMean
	Q5       float64 // pooled 5% quantile (type 7)
	Median   float64 // pooled median
	Q95      float64 // pooled 95% quantile (type 7)
	ESSBulk  float64 // see ESSBulk
	ESSTail  float64 // see ESSTail
	RHat     float64 // max(RHatBulk, RHatTail), see RHat
	RHatBulk float64 // rank-normalised split R̂
	RHatTail float64 // rank-normalised split R̂ of the folded draws
}

// String formats the summary on one line.
func (s Summary) String() string {
	return fmt.Sprintf("mean %.4g ± %.2g  sd %.4g  q5 %.4g  median %.4g  q95 %.4g  ess_bulk %.0f  ess_tail %.0f  rhat %.4f",
		s.Mean, s.MCSEMean, s.SD, s.Q5, s.Median, s.Q95, s.ESSBulk, s.ESSTail, s.RHat)
}

// Summarize computes every field of Summary for one scalar quantity, sharing
// the work (sorting, rank normalisation) between them. Input requirements and
// defined values for constant draws are those of ESSBulk and RHat.
func Summarize(chains [][]float64) (Summary, error) {
	n, err := checkChains("Summarize", chains, MinDraws)
	if err != nil {
		return Summary{}, err
	}
	var w work
	w.init(len(chains), n)
	return w.summarize(chains), nil
}

func (w *work) summarize(chains [][]float64) Summary {
	var s Summary
	s.Mean, s.SD = pooledMeanSD(chains)
	s.MCSEMean = s.SD / math.Sqrt(w.ess(w.split(chains)))
	sorted := w.sorted(chains)
	s.Q5 = quantileSorted(sorted, 0.05)
	s.Median = quantileSorted(sorted, 0.5)
	s.Q95 = quantileSorted(sorted, 0.95)
	s.ESSTail = math.Min(w.essQuantile(chains, s.Q5), w.essQuantile(chains, s.Q95))
	z := w.zscale(w.split(chains))
	s.RHatBulk = rhatBasic(z)
	s.ESSBulk = w.ess(z)
	w.folded(chains, s.Median)
	s.RHatTail = rhatBasic(w.zscale(w.split(w.foldc)))
	s.RHat = math.Max(s.RHatBulk, s.RHatTail)
	return s
}

// Columns returns coordinate j of the draws of each chain, one slice per
// chain, in the form the chain diagnostics take. The chains must have the
// same dimension and number of draws.
func Columns(chains []*sgmcmc.Chain, j int) ([][]float64, error) {
	if err := checkSgChains("Columns", chains); err != nil {
		return nil, err
	}
	if j < 0 || j >= chains[0].Dim {
		return nil, inputErr("Columns", fmt.Sprintf("coordinate %d out of range [0, %d)", j, chains[0].Dim))
	}
	cols := make([][]float64, len(chains))
	for c, ch := range chains {
		cols[c] = ch.Column(nil, j)
	}
	return cols, nil
}

// SummarizeChains summarises each coordinate of the draws of chains (for
// example the result of sgmcmc.RunChains) across the chains: element j of
// the result is Summarize of coordinate j.
func SummarizeChains(chains []*sgmcmc.Chain) ([]Summary, error) {
	if err := checkSgChains("SummarizeChains", chains); err != nil {
		return nil, err
	}
	n := chains[0].Len()
	if n < MinDraws {
		return nil, inputErr("SummarizeChains", fmt.Sprintf("chains have %d draws, need at least %d", n, MinDraws))
	}
	d := chains[0].Dim
	cols := make([][]float64, len(chains))
	for c := range cols {
		cols[c] = make([]float64, n)
	}
	var w work
	w.init(len(chains), n)
	out := make([]Summary, d)
	for j := range d {
		for c, ch := range chains {
			ch.Column(cols[c], j)
		}
		for c, x := range cols {
			if err := nonFinite("SummarizeChains", c, x); err != nil {
				e := err.(*InputError)
				e.Coord = j
				return nil, e
			}
		}
		out[j] = w.summarize(cols)
	}
	return out, nil
}

func checkSgChains(fn string, chains []*sgmcmc.Chain) error {
	if len(chains) == 0 {
		return inputErr(fn, "no chains")
	}
	for c, ch := range chains {
		if ch == nil {
			return &InputError{Func: fn, Chain: c, Index: -1, Coord: -1, What: "nil chain"}
		}
		if ch.Dim != chains[0].Dim || ch.Len() != chains[0].Len() {
			return &InputError{Func: fn, Chain: c, Index: -1, Coord: -1,
				What: fmt.Sprintf("%d draws of dimension %d, chain 0 has %d of dimension %d", ch.Len(), ch.Dim, chains[0].Len(), chains[0].Dim)}
		}
		if len(ch.Draws) < ch.Len()*ch.Dim {
			return &InputError{Func: fn, Chain: c, Index: -1, Coord: -1,
				What: fmt.Sprintf("%d values in Draws for %d draws of dimension %d", len(ch.Draws), ch.Len(), ch.Dim)}
		}
	}
	if chains[0].Len() == 0 {
		return inputErr(fn, "chains have no draws")
	}
	return nil
}

// WeightedMean returns the step-weighted mean Σ_t ε_t h_t / Σ_t ε_t of the
// values h_t of a quantity at the draws of a chain run with step sizes ε_t
// (Eq. 12 of Şimşekli et al. 2016), the consistent estimator of a posterior
// expectation when the step size decreases. h and eps must have equal,
// non-zero length, finite values and positive step sizes.
func WeightedMean(h, eps []float64) (float64, error) {
	const fn = "WeightedMean"
	if len(h) != len(eps) {
		return math.NaN(), inputErr(fn, fmt.Sprintf("%d values and %d step sizes", len(h), len(eps)))
	}
	if err := checkSample(fn, h, 1); err != nil {
		return math.NaN(), err
	}
	var sw, s float64
	for i, e := range eps {
		if !(e > 0) || math.IsInf(e, 0) {
			return math.NaN(), &InputError{Func: fn, Chain: -1, Index: i, Coord: -1, Value: e,
				What: fmt.Sprintf("step size %v not positive and finite", e)}
		}
		sw += e
		s += e * h[i]
	}
	return s / sw, nil
}

// StepWeighted returns the step-weighted mean Σ ε_t f(θ_t) / Σ ε_t of f over
// the draws of all chains pooled, each draw weighted by the step size that
// produced it (Chain.Eps). f must return finite values.
func StepWeighted(chains []*sgmcmc.Chain, f func(theta []float64) float64) (float64, error) {
	const fn = "StepWeighted"
	if f == nil {
		return math.NaN(), inputErr(fn, "nil function")
	}
	if len(chains) == 0 {
		return math.NaN(), inputErr(fn, "no chains")
	}
	var sw, s float64
	for c, ch := range chains {
		if ch == nil {
			return math.NaN(), &InputError{Func: fn, Chain: c, Index: -1, Coord: -1, What: "nil chain"}
		}
		for i := range ch.Len() {
			e := ch.Eps[i]
			if !(e > 0) || math.IsInf(e, 0) {
				return math.NaN(), &InputError{Func: fn, Chain: c, Index: i, Coord: -1, Value: e,
					What: fmt.Sprintf("step size %v not positive and finite", e)}
			}
			v := f(ch.At(i))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return math.NaN(), &InputError{Func: fn, Chain: c, Index: i, Coord: -1, Value: v,
					What: fmt.Sprintf("f returned %v", v)}
			}
			sw += e
			s += e * v
		}
	}
	if sw == 0 {
		return math.NaN(), inputErr(fn, "chains have no draws")
	}
	return s / sw, nil
}
