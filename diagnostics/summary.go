// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"
	"reflect"
)

// Draws is one chain of vector-valued draws: Len draws, draw i being At(i),
// all of the same length. The chains of the root package (*sgmcmc.Chain)
// satisfy it, as do Rows and the chains read by package stancsv.
type Draws interface {
	// Len returns the number of draws.
	Len() int
	// At returns draw i, 0 ≤ i < Len(). The caller does not modify it.
	At(i int) []float64
}

// Rows is a chain of draws held as one slice per draw: draw i is Rows[i].
// It turns a [][]float64 of draws into Draws.
type Rows [][]float64

// Len returns the number of draws.
func (r Rows) Len() int { return len(r) }

// At returns draw i.
func (r Rows) At(i int) []float64 { return r[i] }

// Summary describes the draws of one scalar quantity from one or more
// chains: the measures of Stan's and the posterior package's default
// summaries. The JSON keys are posterior's column names.
type Summary struct {
	Mean     float64 `json:"mean"`      // pooled sample mean
	MCSEMean float64 `json:"mcse_mean"` // Monte Carlo standard error of Mean, see MCSEMean
	SD       float64 `json:"sd"`        // pooled sample standard deviation (divisor S − 1)
	MAD      float64 `json:"mad"`       // 1.4826 × median |x − Median|, as R's mad
	Q5       float64 `json:"q5"`        // pooled 5% quantile (type 7)
	Median   float64 `json:"median"`    // pooled median
	Q95      float64 `json:"q95"`       // pooled 95% quantile (type 7)
	ESSBulk  float64 `json:"ess_bulk"`  // see ESSBulk
	ESSTail  float64 `json:"ess_tail"`  // see ESSTail
	RHat     float64 `json:"rhat"`      // max(RHatBulk, RHatTail), see RHat
	RHatBulk float64 `json:"rhat_bulk"` // rank-normalised split R̂
	RHatTail float64 `json:"rhat_tail"` // rank-normalised split R̂ of the folded draws
}

// madScale makes the median absolute deviation a consistent estimator of
// the standard deviation of a normal distribution, R's default constant.
const madScale = 1.4826

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
	s.MAD = madScale * quantileSorted(w.sorted(w.foldc), 0.5)
	return s
}

// Columns returns coordinate j of the draws of each chain, one slice per
// chain, in the form the scalar diagnostics take. The chains must have the
// same dimension and number of draws.
func Columns[C Draws](chains []C, j int) ([][]float64, error) {
	n, d, err := checkDraws("Columns", chains)
	if err != nil {
		return nil, err
	}
	if j < 0 || j >= d {
		return nil, inputErr("Columns", fmt.Sprintf("coordinate %d out of range [0, %d)", j, d))
	}
	cols := make([][]float64, len(chains))
	for c, ch := range chains {
		cols[c] = column(make([]float64, n), ch, j)
	}
	return cols, nil
}

// column copies coordinate j of every draw of ch into dst.
func column[C Draws](dst []float64, ch C, j int) []float64 {
	for i := range dst {
		dst[i] = ch.At(i)[j]
	}
	return dst
}

// SummarizeChains summarises each coordinate of the draws of chains (for
// example the result of sgmcmc.RunChains) across the chains: element j of
// the result is Summarize of coordinate j. Table does the same and names
// the coordinates.
func SummarizeChains[C Draws](chains []C) ([]Summary, error) {
	return summarizeDraws("SummarizeChains", chains)
}

func summarizeDraws[C Draws](fn string, chains []C) ([]Summary, error) {
	n, d, err := checkDraws(fn, chains)
	if err != nil {
		return nil, err
	}
	if n < MinDraws {
		return nil, inputErr(fn, fmt.Sprintf("chains have %d draws, need at least %d", n, MinDraws))
	}
	cols := make([][]float64, len(chains))
	for c := range cols {
		cols[c] = make([]float64, n)
	}
	var w work
	w.init(len(chains), n)
	out := make([]Summary, d)
	for j := range d {
		for c, ch := range chains {
			column(cols[c], ch, j)
		}
		for c, x := range cols {
			if err := nonFinite(fn, c, x); err != nil {
				e := err.(*InputError)
				e.Coord = j
				return nil, e
			}
		}
		out[j] = w.summarize(cols)
	}
	return out, nil
}

// isNil reports whether v is nil or a nil pointer, map, func or channel:
// a chain whose methods would fail. A nil slice (Rows) is an empty chain.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Chan:
		return r.IsNil()
	}
	return false
}

// checkDraws validates chains of equal length whose draws all have the same
// dimension, and returns the number of draws per chain and the dimension.
func checkDraws[C Draws](fn string, chains []C) (n, d int, err error) {
	if len(chains) == 0 {
		return 0, 0, inputErr(fn, "no chains")
	}
	d = -1
	for c, ch := range chains {
		if isNil(ch) {
			return 0, 0, &InputError{Func: fn, Chain: c, Index: -1, Coord: -1, What: "nil chain"}
		}
		if c == 0 {
			n = ch.Len()
		} else if ch.Len() != n {
			return 0, 0, &InputError{Func: fn, Chain: c, Index: -1, Coord: -1,
				What: fmt.Sprintf("%d draws, chain 0 has %d", ch.Len(), n)}
		}
		for i := range n {
			x := ch.At(i)
			if d < 0 {
				d = len(x)
			}
			if len(x) != d {
				return 0, 0, &InputError{Func: fn, Chain: c, Index: i, Coord: -1,
					What: fmt.Sprintf("dimension %d, chain 0 has dimension %d", len(x), d)}
			}
		}
	}
	if n == 0 {
		return 0, 0, inputErr(fn, "chains have no draws")
	}
	if d == 0 {
		return 0, 0, inputErr(fn, "draws have dimension 0")
	}
	return n, d, nil
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
	if m := s / sw; !math.IsNaN(m) && !math.IsInf(m, 0) && !math.IsInf(sw, 0) {
		return m, nil
	}
	return math.NaN(), inputErr(fn, "Σ ε·h or Σ ε overflows float64 (step sizes times values too large)")
}

// StepWeighted returns the step-weighted mean Σ ε f(θ) / Σ ε of f over the
// draws θ of all chains pooled, each draw weighted by the step size ε that
// produced it: eps[c][i] for draw i of chain c (for an sgmcmc.Chain, its
// Eps field). The chains may have different lengths. f must return finite
// values.
func StepWeighted[C Draws](chains []C, eps [][]float64, f func(theta []float64) float64) (float64, error) {
	const fn = "StepWeighted"
	if f == nil {
		return math.NaN(), inputErr(fn, "nil function")
	}
	if len(chains) == 0 {
		return math.NaN(), inputErr(fn, "no chains")
	}
	if len(eps) != len(chains) {
		return math.NaN(), inputErr(fn, fmt.Sprintf("%d chains and %d step-size slices", len(chains), len(eps)))
	}
	var sw, s float64
	for c, ch := range chains {
		if isNil(ch) {
			return math.NaN(), &InputError{Func: fn, Chain: c, Index: -1, Coord: -1, What: "nil chain"}
		}
		if len(eps[c]) != ch.Len() {
			return math.NaN(), &InputError{Func: fn, Chain: c, Index: -1, Coord: -1,
				What: fmt.Sprintf("%d draws and %d step sizes", ch.Len(), len(eps[c]))}
		}
		for i, e := range eps[c] {
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
	if m := s / sw; !math.IsNaN(m) && !math.IsInf(m, 0) && !math.IsInf(sw, 0) {
		return m, nil
	}
	return math.NaN(), inputErr(fn, "Σ ε·f or Σ ε overflows float64 (step sizes times values too large)")
}
