// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"
)

// Moments summarises every coordinate of a run above DenseMax from
// the chains' running moments (doc/adaptation.md §4): what a run keeps
// when it cannot keep every draw (4 chains × 1,000 draws at d = 10⁵ are
// 3.2 GB; the moments and batch means 4 × 54 × d floats, 170 MB).
type Moments struct {
	// Mean and SD are the mean and standard deviation of each coordinate
	// over all chains' draws.
	Mean, SD []float64
	// MCSE is the Monte Carlo standard error of Mean by batch means: the
	// root mean square of the Batches batch means about Mean, over
	// √Batches. Each chain's draws are cut into 50 consecutive batches
	// (fewer when it has fewer draws), all chains pooled, so that chains
	// that disagree raise it.
	MCSE []float64
	// RHat is the potential scale reduction factor of each coordinate
	// from the chains' means and variances (Gelman & Rubin's, without
	// rank normalisation or splitting); NaN with one chain.
	RHat []float64
	// Batches is the number of batch means behind MCSE.
	Batches int
}

// ESS returns the effective sample size of coordinate i's mean implied by
// MCSE, (SD/MCSE)².
func (m *Moments) ESS(i int) float64 {
	r := m.SD[i] / m.MCSE[i]
	return r * r
}

// mergeMoments pools the chains' moments; nil if no chain has any.
func mergeMoments(cs []*chainMoments) *Moments {
	var use []*chainMoments
	for _, c := range cs {
		if c != nil && c.n >= 2 && len(c.batches) >= 2 {
			use = append(use, c)
		}
	}
	if len(use) == 0 {
		return nil
	}
	d := len(use[0].mean)
	m := &Moments{Mean: make([]float64, d), SD: make([]float64, d), MCSE: make([]float64, d), RHat: make([]float64, d)}
	var n int
	for _, c := range use {
		n += c.n
		m.Batches += len(c.batches)
	}
	k := float64(len(use))
	for i := range d {
		var mean float64
		for _, c := range use {
			mean += c.mean[i] * float64(c.n)
		}
		mean /= float64(n)
		var ss, bm, w, b float64
		for _, c := range use {
			dm := c.mean[i] - mean
			ss += c.m2[i] + float64(c.n)*dm*dm
			for _, x := range c.batches {
				bm += (x[i] - mean) * (x[i] - mean)
			}
			w += c.m2[i] / float64(c.n-1) / k
			b += dm * dm
		}
		m.Mean[i] = mean
		m.SD[i] = math.Sqrt(ss / float64(n-1))
		nb := float64(m.Batches)
		m.MCSE[i] = math.Sqrt(bm / nb / nb)
		if len(use) < 2 {
			m.RHat[i] = math.NaN()
			continue
		}
		// R̂ with the chains' mean length: B/n = Σ(μ_c − μ)²/(K − 1).
		nc := float64(n) / k
		bn := b / (k - 1)
		m.RHat[i] = math.Sqrt(((nc-1)/nc*w + bn) / w)
	}
	return m
}

// momentWarnings states what the moments say is wrong: R̂ above 1.01 or an
// effective size below 100 per chain at some coordinate.
func momentWarnings(m *Moments, chains int) []Warning {
	var out []Warning
	worstR, worstE := 0, 0
	for i := range m.Mean {
		if m.RHat[i] > m.RHat[worstR] || math.IsNaN(m.RHat[i]) && !math.IsNaN(m.RHat[worstR]) {
			worstR = i
		}
		if m.ESS(i) < m.ESS(worstE) || math.IsNaN(m.ESS(i)) {
			worstE = i
		}
	}
	if r := m.RHat[worstR]; r > rhatLimit {
		out = append(out, runWarning(NotMixed, fmt.Sprintf("theta.%d", worstR+1), "R̂ = %.3f for theta.%d (above %.2f, from the running moments of every coordinate): the chains disagree; they have not converged or do not mix", r, worstR+1, rhatLimit))
	}
	if e := m.ESS(worstE); !(e >= 100*float64(chains)) {
		out = append(out, runWarning(FewDraws, fmt.Sprintf("theta.%d", worstE+1), "effective size %.0f for theta.%d (below 100 per chain, from the batch means of every coordinate): too few effective draws for reliable estimates; run longer", e, worstE+1))
	}
	return out
}
