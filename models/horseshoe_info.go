// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"
	"slices"

	"github.com/sgmcmc-go/sgmcmc/transform"
)

// hsInfo returns, for each predictor j, I_j = Σ_i w_i E[−∂²ℓ_i/∂η²]
// (x_ij − x̄_j)²: the data's Fisher information about b_j at the plug-in
// point of the grouping factors' rule (doc.go: the intercept at g(ȳ),
// every coefficient 0, σ at its start, sd(y)), the predictor centred at
// its information-weighted mean x̄_j, as the intercept, estimated with
// it, takes its mean out. It is the information given the other
// coefficients, 1/I_j the variance of b_j's estimate had the others been
// known — for a Gaussian Σ_i (x_ij − x̄_j)²/σ̂² — and costs one pass over
// the data (a joint estimate's p × p matrix would cost N p² and is not
// what the map b_j = z_j s_j, coefficient by coefficient, can use).
func (m *Model) hsInfo() []float64 {
	eta0 := m.linkOfMean(0)
	if m.intercept {
		eta0 = m.start[0]
	}
	aHat, nuHat := 1.0, 4.0
	if m.iA >= 0 {
		aHat = m.start[m.iA]
	}
	if m.nu > 0 {
		nuHat = m.nu
	}
	weight := func(i int, o obs) float64 {
		eta := eta0
		if m.offset != nil {
			eta += m.offset[i]
		}
		return o.w * m.fam.info(m.link, o, eta, aHat, nuHat)
	}
	// Two passes over the rows, each row's weight computed in both: the
	// weighted means, then the weighted squared deviations.
	var sw float64
	mean := make([]float64, m.p)
	m.eachRow(func(i int, o obs, x []float64) {
		w := weight(i, o)
		sw += w
		for k, v := range x {
			mean[k] += w * v
		}
	})
	if !m.intercept || !(sw > 0) {
		clear(mean)
	} else {
		for k := range mean {
			mean[k] /= sw
		}
	}
	info := make([]float64, m.p)
	m.eachRow(func(i int, o obs, x []float64) {
		w := weight(i, o)
		for k, v := range x {
			d := v - mean[k]
			info[k] += w * d * d
		}
	})
	return info
}

// eachRow calls fn on every row in order: its observation and its
// predictors, dense (read from the Table, or a CSR row spread out).
func (m *Model) eachRow(fn func(i int, o obs, x []float64)) {
	if m.tab != nil {
		m.tab.eachRow(m.p, fn)
		return
	}
	x := make([]float64, m.p)
	for i := range m.n {
		switch {
		case m.x != nil:
			x = m.x[i*m.p : (i+1)*m.p]
		case m.sp != nil:
			clear(x)
			for q := m.sp.Ptr[i]; q < m.sp.Ptr[i+1]; q++ {
				x[m.sp.Idx[q]] += m.sp.Val[q]
			}
		}
		fn(i, m.obs(i), x)
	}
}

// describe says, for Describe, the horseshoe's constants and how its
// coefficients are sampled.
func (h *horseshoe) describe() string {
	lo, hi := slices.Min(h.info), slices.Max(h.info)
	return fmt.Sprintf("\nhorseshoe on the %d coefficients: τ₀ = %.3g, slab scale %.3g, slab df %.3g; each sampled as z_j, b_j = z_j·u_j/√(1 + κ_j), "+
		"κ_j = I_j·u_j², u_j = τλ̃_j its prior sd: non-centred where κ_j ≪ 1, centred where κ_j ≫ 1 (I_j, the data's information about b_j, from %.3g to %.3g: "+
		"standard errors %.3g to %.3g); λ_j sampled as y, log λ_j = y − e^{−y}",
		h.p, h.tau0, h.slabS, 2*h.slabA, lo, hi, 1/math.Sqrt(hi), 1/math.Sqrt(lo))
}

// localTransform is the transform of the local scales λ: gumbelScale at
// scale 1, the prior's median (Horseshoe says why).
func (h *horseshoe) localTransform() transform.Transform {
	s := make([]float64, h.p)
	for j := range s {
		s[j] = 1
	}
	return gumbelScale{s: s}
}
