// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import "math"

// auxAt returns the auxiliary parameters at x.
func (m *Model) auxAt(x []float64) aux {
	a, nu := 1.0, m.nu
	if m.iA >= 0 {
		a = x[m.iA]
	}
	if m.iNu >= 0 {
		nu = x[m.iNu]
	}
	return newAux(m.fam, a, nu, m.iNu >= 0)
}

// eta returns row i's linear predictor at x.
func (m *Model) eta(x []float64, i int) float64 {
	var e float64
	if m.offset != nil {
		e = m.offset[i]
	}
	b := x[:m.nB]
	if m.intercept {
		e += b[0]
		b = b[1:]
	}
	if m.x != nil {
		row := m.x[i*m.p : (i+1)*m.p]
		for k, v := range row {
			e += v * b[k]
		}
	} else if m.sp != nil {
		s := m.sp
		for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
			e += s.Val[q] * b[s.Idx[q]]
		}
	}
	return e + m.groupEta(x, i)
}

// groupEta returns the varying effects' part of row i's η.
func (m *Model) groupEta(x []float64, i int) float64 {
	var e float64
	for gi := range m.groups {
		q := &m.groups[gi]
		j := q.level[i]
		u := x[q.uOff+j*q.e : q.uOff+(j+1)*q.e]
		if q.cor {
			e += q.corEta(m, x, u, i)
			continue
		}
		c := q.centred[j]
		for k, uk := range u {
			r := uk
			if !c {
				r *= x[q.sdOff+k]
			}
			if k > 0 {
				r *= m.value(i, q.slopes[k-1])
			}
			e += r
		}
	}
	return e
}

// LogLik returns log p(y_i | x), weighted.
func (m *Model) LogLik(x []float64, i int) float64 {
	if m.hs != nil {
		s := m.scratch()
		defer m.scratchPool.Put(s)
		m.hs.effective(s.xe, x)
		x = s.xe
	}
	return m.logLik(x, i)
}

// logLik is LogLik at the coefficients b themselves.
func (m *Model) logLik(x []float64, i int) float64 {
	if m.tab != nil {
		return m.tab.logLik(x, i)
	}
	if m.cat != nil {
		return m.catLogLik(x, i)
	}
	ax := m.auxAt(x)
	o := m.obs(i)
	return o.w * m.fam.logLik(m.link, o, m.eta(x, i), &ax)
}

// LogLikGrad adds scale·∇ log p(y_i | x) to dst.
func (m *Model) LogLikGrad(dst, x []float64, i int, scale float64) {
	if m.hs != nil {
		s := m.scratch()
		defer m.scratchPool.Put(s)
		m.hs.effective(s.xe, x)
		clear(s.g)
		m.logLikGrad(s.g, s.xe, i, scale)
		m.hs.mapGrad(dst, s.g, x)
		return
	}
	m.logLikGrad(dst, x, i, scale)
}

// hsScratch is a horseshoe model's per-call buffers: x with the
// coefficients b, and the gradient in b.
type hsScratch struct{ xe, g []float64 }

// scratch returns a pooled hsScratch.
func (m *Model) scratch() *hsScratch {
	if s, ok := m.scratchPool.Get().(*hsScratch); ok {
		return s
	}
	return &hsScratch{xe: make([]float64, m.dim), g: make([]float64, m.dim)}
}

// logLikGrad is LogLikGrad in the coefficients b themselves.
func (m *Model) logLikGrad(dst, x []float64, i int, scale float64) {
	if m.tab != nil {
		m.tab.logLikGrad(dst, x, i, scale)
		return
	}
	if m.cat != nil {
		m.catLogLikGrad(dst, x, i, scale)
		return
	}
	ax := m.auxAt(x)
	o := m.obs(i)
	de, da, dn := m.fam.grads(m.link, o, m.eta(x, i), &ax)
	c := scale * o.w
	m.addRow(dst, x, i, c*de)
	if m.iA >= 0 {
		dst[m.iA] += c * da
	}
	if m.iNu >= 0 {
		dst[m.iNu] += c * dn
	}
}

// addRow adds g·∂η_i/∂x to dst.
func (m *Model) addRow(dst, x []float64, i int, g float64) {
	b := dst[:m.nB]
	if m.intercept {
		b[0] += g
		b = b[1:]
	}
	if m.x != nil {
		row := m.x[i*m.p : (i+1)*m.p]
		for k, v := range row {
			b[k] += g * v
		}
	} else if m.sp != nil {
		s := m.sp
		for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
			b[s.Idx[q]] += g * s.Val[q]
		}
	}
	m.addGroups(dst, x, i, g)
}

// addGroups adds g·∂η_i/∂x over the varying effects to dst.
func (m *Model) addGroups(dst, x []float64, i int, g float64) {
	for gi := range m.groups {
		q := &m.groups[gi]
		j := q.level[i]
		at := q.uOff + j*q.e
		if q.cor {
			q.corGrad(m, dst, x, i, at, g)
			continue
		}
		c := q.centred[j]
		for k := range q.e {
			v := g
			if k > 0 {
				v *= m.value(i, q.slopes[k-1])
			}
			if c {
				dst[at+k] += v
			} else {
				dst[at+k] += v * x[q.sdOff+k]
				dst[q.sdOff+k] += v * x[at+k]
			}
		}
	}
}

// LogPrior returns log p(x): the coefficients', auxiliary parameters',
// sds' priors, a correlated factor's LKJCholesky(η) and each level's
// effects, N(0, sd²) for r (centred) or N(0, 1) for z (non-centred).
func (m *Model) LogPrior(x []float64) float64 {
	var lp float64
	for k, p := range m.priorB {
		v, _ := p.logPdf(x[k])
		lp += v
	}
	if m.iA >= 0 {
		v, _ := m.priorA.logPdf(x[m.iA])
		lp += v
	}
	if m.iNu >= 0 {
		v, _ := m.priorNu.logPdf(x[m.iNu])
		lp += v
	}
	if m.hs != nil {
		lp += m.hs.logPrior(nil, x)
	}
	const half = 0.91893853320467274178 // ½ log 2π
	for gi := range m.groups {
		q := &m.groups[gi]
		for e := range q.e {
			v, _ := q.prior.logPdf(x[q.sdOff+e])
			lp += v
		}
		if q.cor {
			lp += q.lkjLogPrior(nil, x)
		}
		for j, c := range q.centred {
			for e := range q.e {
				u := x[q.uOff+j*q.e+e]
				if c {
					s := x[q.sdOff+e]
					lp -= math.Log(s) + u*u/(2*s*s) + half
				} else {
					lp -= u*u/2 + half
				}
			}
		}
	}
	return lp
}

// LogPriorGrad adds ∇log p(x) to dst.
func (m *Model) LogPriorGrad(dst, x []float64) {
	for k, p := range m.priorB {
		_, d := p.logPdf(x[k])
		dst[k] += d
	}
	if m.iA >= 0 {
		_, d := m.priorA.logPdf(x[m.iA])
		dst[m.iA] += d
	}
	if m.iNu >= 0 {
		_, d := m.priorNu.logPdf(x[m.iNu])
		dst[m.iNu] += d
	}
	if m.hs != nil {
		m.hs.logPrior(dst, x)
	}
	for gi := range m.groups {
		q := &m.groups[gi]
		for e := range q.e {
			_, d := q.prior.logPdf(x[q.sdOff+e])
			dst[q.sdOff+e] += d
		}
		if q.cor {
			q.lkjLogPrior(dst, x)
		}
		for j, c := range q.centred {
			for e := range q.e {
				at := q.uOff + j*q.e + e
				u := x[at]
				if c {
					s := x[q.sdOff+e]
					dst[at] -= u / (s * s)
					dst[q.sdOff+e] += -1/s + u*u/(s*s*s)
				} else {
					dst[at] -= u
				}
			}
		}
	}
}
