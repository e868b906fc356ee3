// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package refmcmc

import (
	"errors"
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// Moments are the posterior means and sds of each coordinate estimated
// from a run, with their Monte Carlo standard errors.
type Moments struct {
	Mean, SD         []float64
	MCSEMean, MCSESD []float64
	// ESSBulk and RHat are each coordinate's bulk ESS and R̂
	// (diagnostics.Summarize).
	ESSBulk, RHat []float64
}

// MinESS returns the smallest bulk ESS.
func (m *Moments) MinESS() float64 {
	e := math.Inf(1)
	for _, v := range m.ESSBulk {
		e = math.Min(e, v)
	}
	return e
}

// MaxRHat returns the largest R̂.
func (m *Moments) MaxRHat() float64 {
	r := math.Inf(-1)
	for _, v := range m.RHat {
		r = math.Max(r, v)
	}
	return r
}

// NewMoments summarises draws (chain × draw × coordinate, equal lengths).
// MCSESD is the delta-method error of the sd, MCSEMean of (θ_j − mean_j)²
// over 2·sd_j.
func NewMoments(chains [][][]float64) (*Moments, error) {
	if len(chains) == 0 || len(chains[0]) == 0 {
		return nil, errors.New("refmcmc: NewMoments: no draws")
	}
	k, n, d := len(chains), len(chains[0]), len(chains[0][0])
	m := &Moments{}
	col := make([][]float64, k)
	sq := make([][]float64, k)
	for c := range col {
		if len(chains[c]) != n {
			return nil, fmt.Errorf("refmcmc: NewMoments: chain %d has %d draws, chain 0 has %d", c, len(chains[c]), n)
		}
		col[c] = make([]float64, n)
		sq[c] = make([]float64, n)
	}
	for j := range d {
		for c, ch := range chains {
			for i, th := range ch {
				col[c][i] = th[j]
			}
		}
		s, err := diagnostics.Summarize(col)
		if err != nil {
			return nil, fmt.Errorf("refmcmc: coordinate %d: %w", j, err)
		}
		for c := range col {
			for i, v := range col[c] {
				sq[c][i] = (v - s.Mean) * (v - s.Mean)
			}
		}
		mv, err := diagnostics.MCSEMean(sq)
		if err != nil {
			return nil, fmt.Errorf("refmcmc: coordinate %d: %w", j, err)
		}
		m.Mean = append(m.Mean, s.Mean)
		m.SD = append(m.SD, s.SD)
		m.MCSEMean = append(m.MCSEMean, s.MCSEMean)
		m.MCSESD = append(m.MCSESD, mv/(2*s.SD))
		m.ESSBulk = append(m.ESSBulk, s.ESSBulk)
		m.RHat = append(m.RHat, s.RHat)
	}
	return m, nil
}
