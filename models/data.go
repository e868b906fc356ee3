// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// checkData checks the response, trials, offsets, weights and predictors
// for values the family cannot take, naming the row.
func (m *Model) checkData(g GLM) error {
	for _, v := range []struct {
		name string
		s    []float64
	}{{"Trials", g.Trials}, {"Offset", g.Offset}, {"Weights", g.Weights}} {
		if v.s != nil && len(v.s) != m.n {
			return errorf(sgmcmc.ErrDimension, "%s has %d values, Y %d", v.name, len(v.s), m.n)
		}
	}
	if g.SD != nil {
		if m.fam != Gaussian {
			return errorf(sgmcmc.ErrRange, "SD set for %v: known sds are a Gaussian's", m.fam)
		}
		if len(g.SD) != m.n {
			return errorf(sgmcmc.ErrDimension, "SD has %d values, Y %d", len(g.SD), m.n)
		}
		for i, s := range g.SD {
			if !(s > 0) || math.IsInf(s, 0) {
				return errorf(sgmcmc.ErrRange, "SD[%d] = %v: want finite and > 0", i, s)
			}
		}
	}
	if m.fam == Binomial && g.Trials == nil {
		return errorf(sgmcmc.ErrRange, "Binomial needs Trials")
	}
	if m.fam != Binomial && g.Trials != nil {
		return errorf(sgmcmc.ErrRange, "Trials set for %v, which has none", m.fam)
	}
	if m.fam == StudentT && (g.Nu < 0 || math.IsNaN(g.Nu) || math.IsInf(g.Nu, 0)) {
		return errorf(sgmcmc.ErrRange, "StudentT: Nu = %v, want > 0 (fixed) or 0 (estimated)", g.Nu)
	}
	if m.fam != StudentT && g.Nu != 0 {
		return errorf(sgmcmc.ErrRange, "Nu set for %v, which has no degrees of freedom", m.fam)
	}
	for i, y := range m.y {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return errorf(sgmcmc.ErrNonFinite, "Y[%d] = %v: missing or infinite responses are not allowed (drop the row)", i, y)
		}
		if err := m.checkY(g, i, y); err != nil {
			return err
		}
	}
	for i := range m.n {
		if g.Offset != nil && (math.IsNaN(g.Offset[i]) || math.IsInf(g.Offset[i], 0)) {
			return errorf(sgmcmc.ErrNonFinite, "Offset[%d] = %v: want finite", i, g.Offset[i])
		}
		if g.Weights != nil && (!(g.Weights[i] >= 0) || math.IsInf(g.Weights[i], 0)) {
			return errorf(sgmcmc.ErrRange, "Weights[%d] = %v: want finite and ≥ 0", i, g.Weights[i])
		}
	}
	vals := m.x
	if m.sp != nil {
		vals = m.sp.Val
	}
	for k, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			row, col := k/max(m.p, 1), k%max(m.p, 1)
			if m.sp != nil {
				row, col = sparseRow(m.sp, k), m.sp.Idx[k]
			}
			return errorf(sgmcmc.ErrNonFinite, "predictor %s, row %d: %v (missing values are not allowed: drop or impute the row)", m.colName(col), row, v)
		}
	}
	return nil
}

// checkY checks response i, a finite value, against the family.
func (m *Model) checkY(g GLM, i int, y float64) error {
	switch m.fam {
	case Bernoulli:
		if y != 0 && y != 1 {
			return errorf(sgmcmc.ErrRange, "Y[%d] = %v: Bernoulli wants 0 or 1", i, y)
		}
	case Binomial:
		n := g.Trials[i]
		if !(n >= 0) || n != math.Trunc(n) || math.IsInf(n, 0) {
			return errorf(sgmcmc.ErrRange, "Trials[%d] = %v: want a whole number ≥ 0", i, n)
		}
		if y < 0 || y > n || y != math.Trunc(y) {
			return errorf(sgmcmc.ErrRange, "Y[%d] = %v: Binomial wants a whole number in [0, Trials[%d] = %v]", i, y, i, n)
		}
	case Poisson, NegBinomial:
		if y < 0 || y != math.Trunc(y) {
			return errorf(sgmcmc.ErrRange, "Y[%d] = %v: %v wants a count (a whole number ≥ 0)", i, y, m.fam)
		}
	}
	return nil
}

// sparseRow returns the row of nonzero k.
func sparseRow(s *CSR, k int) int {
	lo, hi := 0, s.Rows
	for lo < hi {
		mid := (lo + hi) / 2
		if s.Ptr[mid+1] <= k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
