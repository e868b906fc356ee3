// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math"
	"strconv"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

// maxCategories bounds a Categorical response's categories: a row's
// linear predictors live in a fixed array on the stack.
const maxCategories = 64

// categorical is a Categorical GLM's layout: K categories, the first the
// reference (η₀ = 0), category k ≥ 1 with its own intercept and
// coefficients, w of them, at (k−1)·w.
type categorical struct {
	k, w  int
	names []string
}

// setCategories replicates the one-predictor layout setPriors made for
// each non-reference category: coefficients b.mu<category>.<name>, each
// with the prior setPriors gave its predictor, intercepts started at
// log(p_k/p₀).
func (m *Model) setCategories(g GLM) error {
	k := 0
	for i, y := range m.y {
		if y < 0 || y != math.Trunc(y) {
			return errorf(sgmcmc.ErrRange, "Y[%d] = %v: Categorical wants a category index 0, 1, … (Frame.Factor's)", i, y)
		}
		k = max(k, int(y)+1)
	}
	if g.Categories != nil {
		if len(g.Categories) < k {
			return errorf(sgmcmc.ErrDimension, "%d Categories for category indices up to %d", len(g.Categories), k-1)
		}
		k = len(g.Categories)
	}
	if k < 2 || k > maxCategories {
		return errorf(sgmcmc.ErrRange, "Categorical with %d categories: want 2 to %d", k, maxCategories)
	}
	if len(g.Groups) > 0 || g.Horseshoe != nil || g.Offset != nil {
		return errorf(sgmcmc.ErrRange, "Categorical takes no Groups, Horseshoe or Offset")
	}
	c := &categorical{k: k, w: m.nB, names: make([]string, k)}
	for j := range c.names {
		c.names[j] = strconv.Itoa(j + 1)
		if g.Categories != nil {
			c.names[j] = g.Categories[j]
		}
		if err := checkName(c.names[j]); err != nil {
			return errorf(sgmcmc.ErrRange, "category %d: %v", j+1, err)
		}
	}
	count := make([]float64, k)
	for i, y := range m.y {
		w := 1.0
		if m.weight != nil {
			w = m.weight[i]
		}
		count[int(y)] += w
	}
	priors, names := m.priorB, m.names[:m.nB]
	m.priorB, m.start = nil, nil
	var all []string
	for cat := 1; cat < k; cat++ {
		for j, p := range priors {
			m.priorB = append(m.priorB, p)
			all = append(all, "b.mu"+c.names[cat]+"."+names[j][2:])
			s := 0.0
			if j == 0 && m.intercept {
				s = math.Log((count[cat] + 0.5) / (count[0] + 0.5))
			}
			m.start = append(m.start, s)
		}
	}
	m.names = all
	m.nB = len(all)
	m.dim = m.nB
	m.cat = c
	return nil
}

// catEtas writes η_1 … η_{K−1} of row i into eta[1:K] (η₀ = 0).
func (m *Model) catEtas(eta *[maxCategories]float64, x []float64, i int) {
	c := m.cat
	for cat := 1; cat < c.k; cat++ {
		b := x[(cat-1)*c.w : cat*c.w]
		var e float64
		if m.intercept {
			e = b[0]
			b = b[1:]
		}
		if m.x != nil {
			e += logreg.Dot(m.x[i*m.p:(i+1)*m.p], b)
		} else if m.sp != nil {
			s := m.sp
			for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
				e += s.Val[q] * b[s.Idx[q]]
			}
		}
		eta[cat] = e
	}
}

// catLogLik returns row i's weighted log p(y_i | x) = η_y − log Σ_k e^{η_k}.
func (m *Model) catLogLik(x []float64, i int) float64 {
	var eta [maxCategories]float64
	m.catEtas(&eta, x, i)
	o := m.obs(i)
	return o.w * (eta[int(o.y)] - logSumExp(eta[:m.cat.k]))
}

// catLogLikGrad adds scale·∇log p(y_i | x): (1[y = k] − p_k)·(1, x_i) for
// each non-reference category k.
func (m *Model) catLogLikGrad(dst, x []float64, i int, scale float64) {
	c := m.cat
	var eta [maxCategories]float64
	m.catEtas(&eta, x, i)
	lse := logSumExp(eta[:c.k])
	o := m.obs(i)
	for cat := 1; cat < c.k; cat++ {
		g := -math.Exp(eta[cat] - lse)
		if int(o.y) == cat {
			g++
		}
		g *= scale * o.w
		b := dst[(cat-1)*c.w : cat*c.w]
		if m.intercept {
			b[0] += g
			b = b[1:]
		}
		if m.x != nil {
			row := m.x[i*m.p : (i+1)*m.p]
			b := b[:len(row)]
			for j, v := range row {
				b[j] += g * v
			}
		} else if m.sp != nil {
			s := m.sp
			for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
				b[s.Idx[q]] += g * s.Val[q]
			}
		}
	}
}

// logSumExp returns log Σ e^{v_k}.
func logSumExp(v []float64) float64 {
	mx := v[0]
	for _, x := range v[1:] {
		mx = math.Max(mx, x)
	}
	var s float64
	for _, x := range v {
		s += math.Exp(x - mx)
	}
	return mx + math.Log(s)
}
