// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
)

// batchPart is the rows of one part of a minibatch: the parts run in
// parallel (internal/parfor) when a batch has at least two, each into its
// own buffer, and are added in part order, so the result does not depend
// on which goroutine did which part.
const batchPart = 128

// batchWork is one call's parts, pooled so that a call allocates nothing
// once warm.
type batchWork struct {
	m     *Model
	x     []float64
	idx   []int
	scale float64
	ax    aux
	parts [][]float64
	aux   [][2]float64 // each part's Σ ∂ℓ/∂σ-or-φ and Σ ∂ℓ/∂ν
	job   *parfor.Job
}

// LogLikGradBatch adds scale·Σ_{i∈idx} ∇log p(y_i | x) to dst: the
// sgmcmc.BatchModel capability. The auxiliary parameters' constants are
// computed once a call; a part's rows take two sweeps, the linear
// predictors first, then the gradient, so that one row's work does not
// wait for the previous one's. (At the widths of most GLMs a BLAS call
// per row costs more than the row: the loops are Go's, four partial sums
// in the dot products.) It is safe for concurrent use and allocates
// nothing once warm.
func (m *Model) LogLikGradBatch(dst, x []float64, idx []int, scale float64) {
	if len(idx) == 0 {
		return
	}
	if m.hs != nil {
		s := m.scratch()
		m.hs.effective(s.xe, x)
		clear(s.g)
		m.batchGrad(s.g, s.xe, idx, scale)
		m.hs.mapGrad(dst, s.g, x)
		m.scratchPool.Put(s)
		return
	}
	m.batchGrad(dst, x, idx, scale)
}

// batchGrad is LogLikGradBatch in the coefficients b themselves.
func (m *Model) batchGrad(dst, x []float64, idx []int, scale float64) {
	if m.tab != nil {
		m.tab.batchGrad(dst, x, idx, scale)
		return
	}
	if m.cat != nil {
		for _, i := range idx {
			m.catLogLikGrad(dst, x, i, scale)
		}
		return
	}
	w := m.pool.Get().(*batchWork)
	w.m = m // the model, or a view of it on rows of its Table
	if w.job == nil {
		w.job = parfor.NewJob(w.part)
	}
	n := (len(idx) + batchPart - 1) / batchPart
	for len(w.parts) < n {
		w.parts = append(w.parts, make([]float64, m.dim))
		w.aux = append(w.aux, [2]float64{})
	}
	w.x, w.idx, w.scale, w.ax = x, idx, scale, m.auxAt(x)
	if n > 1 {
		w.job.Run(n)
	} else {
		w.part(0)
	}
	for k := range n {
		for j, v := range w.parts[k] {
			dst[j] += v
		}
		if m.iA >= 0 {
			dst[m.iA] += w.aux[k][0]
		}
		if m.iNu >= 0 {
			dst[m.iNu] += w.aux[k][1]
		}
	}
	w.x, w.idx = nil, nil
	m.pool.Put(w)
}

// part computes part k of the batch into its buffers.
func (w *batchWork) part(k int) {
	m := w.m
	dst := w.parts[k]
	clear(dst)
	lo := k * batchPart
	idx := w.idx[lo:min(lo+batchPart, len(w.idx))]
	var cs [batchPart]float64
	var sa, sn float64
	x := w.x
	fast := m.fam == Bernoulli && m.link == Logit && m.weight == nil
	off := 0
	if m.intercept {
		off = 1
	}
	b := x[off:m.nB]
	for r, i := range idx {
		var eta float64
		if len(m.groups) > 0 {
			eta = m.groupEta(x, i)
		}
		if m.intercept {
			eta += x[0]
		}
		if m.offset != nil {
			eta += m.offset[i]
		}
		switch {
		case m.x != nil && m.p > 0:
			eta += logreg.Dot(m.x[i*m.p:(i+1)*m.p], b)
		case m.sp != nil:
			s := m.sp
			for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
				eta += s.Val[q] * x[off+s.Idx[q]]
			}
		}
		if fast {
			// Unweighted logistic regression: ∂ℓ/∂η = y − σ(η), inline.
			cs[r] = w.scale * (m.y[i] - sigmoid(eta))
			continue
		}
		o := m.obs(i)
		de, da, dn := m.fam.grads(m.link, o, eta, &w.ax)
		c := w.scale * o.w
		cs[r] = c * de
		sa += c * da
		sn += c * dn
	}
	w.aux[k] = [2]float64{sa, sn}
	g := dst[off:m.nB]
	for r, i := range idx {
		v := cs[r]
		if m.intercept {
			dst[0] += v
		}
		switch {
		case m.x != nil && m.p > 0:
			row := m.x[i*m.p : (i+1)*m.p]
			g := g[:len(row)]
			for k, xk := range row {
				g[k] += v * xk
			}
		case m.sp != nil:
			s := m.sp
			for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
				dst[off+s.Idx[q]] += v * s.Val[q]
			}
		}
		if len(m.groups) > 0 {
			m.addGroups(dst, x, i, v)
		}
	}
}
