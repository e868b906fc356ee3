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
)

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
		if gr.Correlated {
			switch {
			case q.e < 2:
				return errorf(sgmcmc.ErrRange, "group %s: Correlated with one effect: give Slopes", gr.Name)
			case gr.Param == Centred:
				return errorf(sgmcmc.ErrRange, "group %s: Correlated effects are sampled non-centred; Param Centred is not built for them", gr.Name)
			case gr.LKJ < 0 || math.IsNaN(gr.LKJ) || math.IsInf(gr.LKJ, 0):
				return errorf(sgmcmc.ErrRange, "group %s: LKJ = %v, want a shape η > 0 (0: 1)", gr.Name, gr.LKJ)
			}
			q.cor, q.eta = true, gr.LKJ
			if q.eta == 0 {
				q.eta = 1
			}
			q.lkjConst = lkjLogConst(q.eta, q.e)
		} else if gr.LKJ != 0 {
			return errorf(sgmcmc.ErrRange, "group %s: LKJ set without Correlated", gr.Name)
		}
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
		ruled := 0 // the levels the rule would centre
		for _, c := range q.centred {
			if c {
				ruled++
			}
		}
		if q.cor {
			clear(q.centred)
		}
		q.sdOff = m.dim
		m.dim += q.e
		q.corOff = m.dim
		if q.cor {
			m.dim += rowOff(q.e)
		}
		q.uOff = m.dim
		m.dim += q.k * q.e
		effects := q.effectNames(m)
		for _, e := range effects {
			m.names = append(m.names, "sd_"+q.name+"."+e)
			m.start = append(m.start, math.Max(tau, 0.1*m.yScale()))
		}
		if q.cor {
			for a := 1; a < q.e; a++ {
				for b := range a {
					m.names = append(m.names, "cor_"+q.name+"."+effects[b]+"."+effects[a])
					m.start = append(m.start, 0) // L = I
				}
			}
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
		switch {
		case q.cor:
			fmt.Fprintf(&desc, " (correlated effects, r_j = diag(sd)·L·z_j, L ~ LKJCholesky(%g), are sampled non-centred at every level", q.eta)
			if gr.Param == Auto {
				fmt.Fprintf(&desc, "; the rule, κ_j = I_j·τ̂² ≥ 1, would centre %d: τ̂ = %.3g, κ from %.3g to %.3g", ruled, tau, lo, hi)
			}
			desc.WriteString(")")
		case gr.Param == Auto:
			fmt.Fprintf(&desc, " (centred where κ_j = I_j·τ̂² ≥ 1: τ̂ = %.3g, κ from %.3g to %.3g)", tau, lo, hi)
		case gr.Param == Centred:
			desc.WriteString(" (Centred, as set)")
		case gr.Param == NonCentred:
			desc.WriteString(" (NonCentred, as set)")
		}
		if nc == q.k {
			desc.WriteString("; sds sampled as y, log(sd/ŝ) = y − e^{−y} at the plug-in ŝ")
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
		if q.cor {
			effects := q.effectNames(m)
			for a := 1; a < q.e; a++ {
				for b := range a {
					m.xnames[q.corOff+rowOff(a)+b] = "L_" + q.name + "." + effects[a] + "." + effects[b]
				}
			}
		}
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
	if m.hs != nil {
		desc.WriteString(m.hs.describe())
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
