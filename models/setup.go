// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/transform"
)

// stats returns the weighted mean and sd of s (weights w, nil for 1).
func stats(s, w []float64) (mean, sd float64) {
	var sw, sx float64
	for i, v := range s {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		sw += wi
		sx += wi * v
	}
	mean = sx / sw
	var ss float64
	for i, v := range s {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		ss += wi * (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / sw)
}

// column returns predictor column k.
func (m *Model) column(k int) []float64 {
	c := make([]float64, m.n)
	if m.x != nil {
		for i := range c {
			c[i] = m.x[i*m.p+k]
		}
		return c
	}
	s := m.sp
	for i := range s.Rows {
		for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
			if s.Idx[q] == k {
				c[i] += s.Val[q]
			}
		}
	}
	return c
}

// yScale is s_y: sd(y) for Gaussian and StudentT, 1 for the others.
func (m *Model) yScale() float64 {
	if !m.fam.hasScale() {
		return 1
	}
	_, sd := m.yStats()
	return sd
}

// yStats returns the response's weighted mean and sd.
func (m *Model) yStats() (mean, sd float64) {
	if m.tab != nil {
		return m.tab.ymean, m.tab.ysd
	}
	return stats(m.y, m.weight)
}

// colStats returns predictor column k's mean and sd.
func (m *Model) colStats(k int) (mean, sd float64) {
	if m.tab != nil {
		return m.tab.xmean[k], m.tab.xsd[k]
	}
	return stats(m.column(k), nil)
}

// setPriors sets each parameter's prior, the defaults scaled to the data
// as doc.go states, and the starting point's population part.
func (m *Model) setPriors(g GLM) error {
	sy := m.yScale()
	if !(sy > 0) {
		return errorf(sgmcmc.ErrRange, "Y is constant (sd 0): nothing to model")
	}
	ybar, _ := m.yStats()
	m.priorB = make([]Prior, m.nB)
	off := 0
	if m.intercept {
		off = 1
	}
	var spread float64 // Σ (x̄_j / sd_j)²
	for k := range m.p {
		mean, sd := m.colStats(k)
		if !(sd > 0) && m.intercept {
			return errorf(sgmcmc.ErrRange, "predictor %s is constant (%v in every row): with the intercept it is not identified; drop it", m.colName(k), mean)
		}
		if !(sd > 0) {
			sd = math.Abs(mean)
		}
		spread += (mean / sd) * (mean / sd)
		if g.Prior.IsZero() {
			m.priorB[off+k] = Normal(0, 2.5*sy/sd)
		} else {
			if err := g.Prior.check("Prior", false); err != nil {
				return err
			}
			m.priorB[off+k] = g.Prior
		}
	}
	m.start = make([]float64, m.nB)
	if m.intercept {
		loc := 0.0
		if m.fam.hasScale() {
			loc = ybar
		}
		m.start[0] = m.linkOfMean(ybar)
		if g.InterceptPrior.IsZero() {
			m.priorB[0] = Normal(loc, 2.5*sy*math.Sqrt(1+spread))
		} else {
			if err := g.InterceptPrior.check("InterceptPrior", false); err != nil {
				return err
			}
			m.priorB[0] = g.InterceptPrior
		}
	} else if !g.InterceptPrior.IsZero() {
		return errorf(sgmcmc.ErrRange, "InterceptPrior set with NoIntercept")
	}
	next := m.nB
	switch {
	case m.sd != nil:
		// Known sds: no σ.
	case m.fam.hasScale():
		m.iA = next
		next++
		m.names = append(m.names, "sigma")
		m.priorA = Exponential(1 / sy)
		m.start = append(m.start, sy)
	case m.fam.hasShape():
		m.iA = next
		next++
		m.names = append(m.names, "shape")
		m.priorA = Exponential(1)
		m.start = append(m.start, 1)
	}
	if !g.AuxPrior.IsZero() {
		if m.iA < 0 {
			return errorf(sgmcmc.ErrRange, "AuxPrior set for %v, which has no σ or φ (or whose sds are known)", m.fam)
		}
		if err := g.AuxPrior.check("AuxPrior", true); err != nil {
			return err
		}
		m.priorA = g.AuxPrior
	}
	if m.fam == StudentT && m.nu == 0 {
		m.iNu = next
		next++
		m.names = append(m.names, "nu")
		m.priorNu = Gamma(2, 0.1)
		m.start = append(m.start, 4)
		if !g.NuPrior.IsZero() {
			if err := g.NuPrior.check("NuPrior", true); err != nil {
				return err
			}
			m.priorNu = g.NuPrior
		}
	} else if !g.NuPrior.IsZero() {
		return errorf(sgmcmc.ErrRange, "NuPrior set, but ν is fixed or absent")
	}
	m.dim = next
	return nil
}

// linkOfMean returns g(ȳ), kept off the edges of the link's range, less
// the mean offset: the intercept's start.
func (m *Model) linkOfMean(ybar float64) float64 {
	var off float64
	if m.offset != nil {
		off, _ = stats(m.offset, nil)
	}
	switch m.link {
	case Logit, Probit:
		p := ybar
		if m.fam == Binomial {
			tbar, _ := stats(m.trials, m.weight)
			p = ybar / tbar
		}
		p = math.Min(math.Max(p, 0.01), 0.99)
		if m.link == Probit {
			return math.Sqrt2*math.Erfinv(2*p-1) - off
		}
		return math.Log(p/(1-p)) - off
	case LogLink:
		return math.Log(ybar+0.1) - off
	}
	return ybar - off
}

// obs returns row i's response, trials and weight.
func (m *Model) obs(i int) obs {
	o := obs{y: m.y[i], n: 1, w: 1}
	if m.trials != nil {
		o.n = m.trials[i]
	}
	if m.sd != nil {
		o.sd = m.sd[i]
	}
	if m.weight != nil {
		o.w = m.weight[i]
	}
	return o
}

// setSpace builds the transform.Space of x: scales positive, ν > 1.
func (m *Model) setSpace() error {
	ps := []transform.Param{{Name: "b", Size: max(m.nB, 1)}}
	if m.nB == 0 {
		ps = nil
	}
	if m.iA >= 0 {
		ps = append(ps, transform.Param{Name: m.names[m.iA], Transform: transform.Positive{}})
	}
	if m.iNu >= 0 {
		ps = append(ps, transform.Param{Name: "nu", Transform: transform.Lower{Bound: 1}})
	}
	if m.hs != nil {
		ps = append(ps, transform.Param{Name: "hs_local", Size: m.p, Transform: m.hs.localTransform()},
			transform.Param{Name: "hs_global", Transform: transform.Positive{}},
			transform.Param{Name: "hs_slab", Transform: transform.Positive{}})
	}
	for gi := range m.groups {
		q := &m.groups[gi]
		ps = append(ps, transform.Param{Name: "sd_" + q.name, Size: q.e, Transform: m.sdTransform(q)})
		if q.cor {
			ps = append(ps, transform.Param{Name: "L_" + q.name, Size: rowOff(q.e), Transform: cholCorr{e: q.e}})
		}
		ps = append(ps, transform.Param{Name: "u_" + q.name, Size: q.k * q.e})
	}
	sp, err := transform.NewSpace(ps...)
	if err != nil {
		return err
	}
	if sp.Dim() != m.dim {
		return errorf(sgmcmc.ErrRange, "internal: space of %d coordinates for %d parameters", sp.Dim(), m.dim)
	}
	m.space = sp
	return nil
}
