// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package fullpass computes a model's full-data log-likelihood gradient on
// every core, in a fixed order, so that the sum has the same bits whatever
// GOMAXPROCS is.
package fullpass

import (
	"sync"

	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
)

// Model is the part of sgmcmc.Model a pass uses.
type Model interface {
	Len() int
	Dim() int
	LogLikGrad(dst, theta []float64, i int, scale float64)
}

// BatchModel is sgmcmc.BatchModel's batch gradient, used when a Model has
// it.
type BatchModel interface {
	LogLikGradBatch(dst, theta []float64, idx []int, scale float64)
}

// PartSize is the least number of data items in one part of a full pass:
// large enough that handing a part to a core costs nothing next to its
// work, small enough that the parts share out evenly between the cores.
// Above MaxParts·PartSize items the parts grow, so that a pass holds at
// most MaxParts partial sums whatever N is (at d = 10⁴, 20 MB).
const (
	PartSize = 4096
	MaxParts = 256
)

// Pass computes the full-data log-likelihood gradient Σ_i ∇log p(x_i | θ)
// of a Model, streaming the data in order in parts of PartSize items on
// every core. Each part sums into its own buffer and the parts are added in
// part order, so the result is the same bits for any GOMAXPROCS. It is what
// a ControlVariate's centre and sample.Run's search for it cost: one pass is N
// per-datum gradient evaluations.
type Pass struct {
	m     Model
	bm    BatchModel // m's batch capability, or nil
	n, d  int
	size  int         // items a part
	idx   sync.Pool   // of *[]int: a part's index list (with bm)
	parts [][]float64 // one sum per part
	theta []float64   // the point of the pass in progress
	job   *parfor.Job
}

// New returns a Pass over m's items.
func New(m Model) *Pass {
	p := &Pass{m: m, n: m.Len(), d: m.Dim()}
	p.bm, _ = m.(BatchModel)
	p.size = max(PartSize, (p.n+MaxParts-1)/MaxParts)
	np := (p.n + p.size - 1) / p.size
	p.parts = make([][]float64, np)
	for k := range p.parts {
		p.parts[k] = make([]float64, p.d)
	}
	p.idx.New = func() any { s := make([]int, p.size); return &s }
	p.job = parfor.NewJob(p.part)
	return p
}

// Grad writes Σ_i ∇log p(x_i | θ) into dst.
func (p *Pass) Grad(dst, theta []float64) {
	p.theta = theta
	p.job.Run(len(p.parts))
	p.theta = nil
	copy(dst, p.parts[0])
	for _, s := range p.parts[1:] {
		for j, v := range s {
			dst[j] += v
		}
	}
}

// part sums the items of part k.
func (p *Pass) part(k int) {
	s := p.parts[k]
	clear(s)
	lo, hi := k*p.size, min((k+1)*p.size, p.n)
	if p.bm != nil {
		// The part's items in order: a model reading its data from a file
		// reads them as one range (dataset.Model).
		b := p.idx.Get().(*[]int)
		idx := (*b)[:hi-lo]
		for j := range idx {
			idx[j] = lo + j
		}
		p.bm.LogLikGradBatch(s, p.theta, idx, 1)
		p.idx.Put(b)
		return
	}
	for i := lo; i < hi; i++ {
		p.m.LogLikGrad(s, p.theta, i, 1)
	}
}
