// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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
	_, sd := stats(m.y, m.weight)
	return sd
}

// setPriors sets each parameter's prior, the defaults scaled to the data
// as doc.go states, and the starting point's population part.
func (m *Model) setPriors(g GLM) error {
	sy := m.yScale()
	if !(sy > 0) {
		return errorf(sgmcmc.ErrRange, "Y is constant (sd 0): nothing to model")
	}
	ybar, _ := stats(m.y, m.weight)
	m.priorB = make([]Prior, m.nB)
	off := 0
	if m.intercept {
		off = 1
	}
	var spread float64 // Σ (x̄_j / sd_j)²
	for k := range m.p {
		mean, sd := stats(m.column(k), nil)
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

// setGroups lays out the grouping factors' parameters and chooses each
// level's parameterisation (doc.go's rule).
func (m *Model) setGroups(g GLM) error {
	var desc strings.Builder
	fmt.Fprintf(&desc, "%v(%v) GLM: %d rows, %d predictors", m.fam, m.link, m.n, m.p)
	if m.intercept {
		desc.WriteString(" and an intercept")
	}
	// The plug-in point: the intercept at g(ȳ), every effect 0, σ from the
	// residuals within the first factor's levels.
	eta0 := m.start[0]
	if !m.intercept {
		eta0 = m.linkOfMean(0)
	}
	aHat, nuHat := 1.0, 4.0
	if m.iA >= 0 && m.fam.hasScale() {
		aHat = m.start[m.iA]
	}
	if m.nu > 0 {
		nuHat = m.nu
	}
	seen := map[string]bool{}
	for gi, gr := range g.Groups {
		if err := checkName(gr.Name); err != nil {
			return fmt.Errorf("group %d: %w", gi+1, err)
		}
		if seen[gr.Name] {
			return errorf(sgmcmc.ErrRange, "Groups[%d]: a second factor named %q", gi, gr.Name)
		}
		seen[gr.Name] = true
		if len(gr.Index) != m.n {
			return errorf(sgmcmc.ErrDimension, "group %s: Index has %d values, Y %d", gr.Name, len(gr.Index), m.n)
		}
		k := 0
		for i, j := range gr.Index {
			if j < 0 {
				return errorf(sgmcmc.ErrRange, "group %s: Index[%d] = %d, want ≥ 0", gr.Name, i, j)
			}
			k = max(k, j+1)
		}
		if gr.Levels != nil {
			if len(gr.Levels) < k {
				return errorf(sgmcmc.ErrDimension, "group %s: %d Levels for level indices up to %d", gr.Name, len(gr.Levels), k-1)
			}
			k = len(gr.Levels)
		}
		for _, c := range gr.Slopes {
			if c < 0 || c >= m.p {
				return errorf(sgmcmc.ErrRange, "group %s: slope column %d not in [0, %d)", gr.Name, c, m.p)
			}
		}
		if gr.Param < Auto || gr.Param > NonCentred {
			return errorf(sgmcmc.ErrRange, "group %s: Param %d, want Auto, Centred or NonCentred", gr.Name, gr.Param)
		}
		q := group{name: gr.Name, level: gr.Index, slopes: slices.Clone(gr.Slopes), k: k, e: 1 + len(gr.Slopes)}
		q.levels = make([]string, k)
		for j := range k {
			q.levels[j] = strconv.Itoa(j + 1)
			if gr.Levels != nil {
				q.levels[j] = gr.Levels[j]
			}
			if err := checkName(q.levels[j]); err != nil {
				return fmt.Errorf("group %s, level %d: %w", gr.Name, j+1, err)
			}
		}
		q.prior = Exponential(1 / m.yScale())
		if !gr.Prior.IsZero() {
			if err := gr.Prior.check("group "+gr.Name, true); err != nil {
				return err
			}
			q.prior = gr.Prior
		}
		if m.fam.hasScale() && gi == 0 && m.sd == nil {
			aHat = withinSD(m.y, gr.Index, k, aHat)
		}
		tau := q.choose(m, gr.Param, eta0, aHat, nuHat)
		q.sdOff = m.dim
		m.dim += q.e
		q.uOff = m.dim
		m.dim += q.k * q.e
		effects := q.effectNames(m)
		for _, e := range effects {
			m.names = append(m.names, "sd_"+q.name+"."+e)
			m.start = append(m.start, math.Max(tau, 0.1*m.yScale()))
		}
		for j := range q.k {
			for _, e := range effects {
				m.names = append(m.names, "r_"+q.name+"."+q.levels[j]+"."+e)
				m.start = append(m.start, 0)
			}
		}
		nc := 0
		for _, c := range q.centred {
			if !c {
				nc++
			}
		}
		lo, hi := slices.Min(q.kappa), slices.Max(q.kappa)
		fmt.Fprintf(&desc, "\ngroup %s: %d levels, effects %s, sd prior %v; %d levels centred, %d non-centred", q.name, q.k, strings.Join(effects, ", "), q.prior, q.k-nc, nc)
		switch gr.Param {
		case Auto:
			fmt.Fprintf(&desc, " (centred where κ_j = I_j·τ̂² ≥ 1: τ̂ = %.3g, κ from %.3g to %.3g)", tau, lo, hi)
		case Centred:
			desc.WriteString(" (Centred, as set)")
		case NonCentred:
			desc.WriteString(" (NonCentred, as set)")
		}
		m.groups = append(m.groups, q)
	}
	m.xnames = slices.Clone(m.names)
	if m.hs != nil {
		for j := range m.p {
			m.xnames[m.hs.off+j] = "z_" + m.xnames[m.hs.off+j]
		}
	}
	for _, q := range m.groups {
		for j, c := range q.centred {
			if c {
				continue
			}
			for e := range q.e {
				at := q.uOff + j*q.e + e
				m.xnames[at] = "z" + m.xnames[at][1:]
			}
		}
	}
	m.desc = desc.String()
	return nil
}

// effectNames names a group's effects: Intercept, then its slopes'
// predictors.
func (q *group) effectNames(m *Model) []string {
	out := []string{"Intercept"}
	for _, c := range q.slopes {
		out = append(out, m.colName(c))
	}
	return out
}

// withinSD returns the pooled within-level sd of y, or def if no level
// has two rows.
func withinSD(y []float64, level []int, k int, def float64) float64 {
	sum, cnt := make([]float64, k), make([]float64, k)
	for i, j := range level {
		sum[j] += y[i]
		cnt[j]++
	}
	var ss, dof float64
	for i, j := range level {
		d := y[i] - sum[j]/cnt[j]
		ss += d * d
	}
	for _, c := range cnt {
		if c > 0 {
			dof += c - 1
		}
	}
	if !(dof > 0) || !(ss > 0) {
		return def
	}
	return math.Sqrt(ss / dof)
}

// choose sets each level's parameterisation and returns the plug-in τ̂.
// From the common start η̂ (every effect 0), each level's data give a
// one-step Fisher-scoring estimate of its effect, ĝ_j = S_j / I_j (S_j
// the level's score, I_j its information), whose sampling variance is
// 1/I_j; the method of moments gives τ̂² = max(0, mean ĝ_j² − mean 1/I_j).
// A level is centred where κ_j = I_j τ̂² ≥ 1: its data say more about its
// effect than the prior does (Papaspiliopoulos, Roberts & Sköld 2007).
func (q *group) choose(m *Model, p Param, eta0, aHat, nuHat float64) float64 {
	info, score := make([]float64, q.k), make([]float64, q.k)
	ax := newAux(m.fam, aHat, nuHat, false)
	for i, j := range q.level {
		eta := eta0
		if m.offset != nil {
			eta += m.offset[i]
		}
		o := m.obs(i)
		w := 1.0
		if m.weight != nil {
			w = m.weight[i]
		}
		info[j] += w * m.fam.info(m.link, o, eta, aHat, nuHat)
		de, _, _ := m.fam.grads(m.link, o, eta, &ax)
		score[j] += w * de
	}
	var g2, v float64
	var used float64
	for j := range q.k {
		if info[j] > 0 {
			g := score[j] / info[j]
			g2 += g * g
			v += 1 / info[j]
			used++
		}
	}
	tau2 := 0.0
	if used > 0 {
		tau2 = math.Max(0, (g2-v)/used)
	}
	q.centred, q.kappa = make([]bool, q.k), make([]float64, q.k)
	for j := range q.k {
		q.kappa[j] = info[j] * tau2
		switch p {
		case Centred:
			q.centred[j] = true
		case NonCentred:
		default:
			q.centred[j] = q.kappa[j] >= 1
		}
	}
	return math.Sqrt(tau2)
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
		ps = append(ps, transform.Param{Name: "hs_local", Size: m.p, Transform: transform.Positive{}},
			transform.Param{Name: "hs_global", Transform: transform.Positive{}},
			transform.Param{Name: "hs_slab", Transform: transform.Positive{}})
	}
	for _, q := range m.groups {
		ps = append(ps, transform.Param{Name: "sd_" + q.name, Size: q.e, Transform: transform.Positive{}},
			transform.Param{Name: "u_" + q.name, Size: q.k * q.e})
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
