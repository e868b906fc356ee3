// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
)

// Moments are the running moments of every coordinate of θ over the draws a
// run keeps (RunOptions.Moments): what a long run in many dimensions can
// afford to keep when its draws cannot be (1,000 draws at d = 10⁶ take
// 8 GB; the moments take 32 MB). They are updated at every kept draw by
// Welford's method, which has no cancellation however far the draws are
// from zero.
type Moments struct {
	// N is the number of draws.
	N int
	// Mean is the plain average of each coordinate.
	Mean []float64
	// M2 is Σ (θ_i − Mean_i)² over the draws, from which Var and SD
	// derive.
	M2 []float64
	// WeightedMean is the step-weighted average Σ ε_t θ_t / Σ ε_t (as
	// Chain.WeightedMean), the consistent estimate of the posterior mean
	// when the step size decreases.
	WeightedMean []float64
	// SumEps is Σ ε_t over the draws.
	SumEps float64

	blk split
	job *parfor.Job // the update of a large θ, in blocks on every core
	x   []float64   // the draw being added
	eps float64
}

func newMoments(d int) *Moments {
	m := &Moments{Mean: make([]float64, d), M2: make([]float64, d), WeightedMean: make([]float64, d), blk: blockSplit(d)}
	if m.blk.nb > 1 {
		m.job = parfor.NewJob(m.runBlock)
	}
	return m
}

// Var writes the sample variance M2/(N − 1) of each coordinate into dst
// and returns it; dst is allocated if nil. With fewer than two draws it
// writes NaN.
func (m *Moments) Var(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(m.M2))
	}
	for i, s := range m.M2 {
		if m.N < 2 {
			dst[i] = math.NaN()
			continue
		}
		dst[i] = s / float64(m.N-1)
	}
	return dst
}

// add updates the moments with the draw x of step size eps.
func (m *Moments) add(x []float64, eps float64) {
	m.N++
	m.SumEps += eps
	m.x, m.eps = x, eps
	if m.job != nil {
		m.job.Run(m.blk.nb)
	} else {
		m.runBlock(0)
	}
	m.x = nil
}

// runBlock updates the moments of block k's coordinates. Each coordinate's
// update is its own, so the result does not depend on the blocks.
func (m *Moments) runBlock(k int) {
	lo, hi := m.blk.rng(k)
	inv := 1 / float64(m.N)
	f := 0.0
	if m.SumEps > 0 {
		f = m.eps / m.SumEps
	}
	x := m.x[lo:hi]
	mean, m2, wm := m.Mean[lo:hi:hi], m.M2[lo:hi:hi], m.WeightedMean[lo:hi:hi]
	_, _, _ = mean[len(x)-1], m2[len(x)-1], wm[len(x)-1]
	for i, v := range x {
		dev := v - mean[i]
		mu := mean[i] + dev*inv
		mean[i] = mu
		m2[i] += dev * (v - mu)
		wm[i] += f * (v - wm[i])
	}
}
