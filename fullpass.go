// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "github.com/sgmcmc-go/sgmcmc/internal/parfor"

// passPart is the number of data items in one part of a full pass: large
// enough that handing a part to a core costs nothing next to its work,
// small enough that the parts share out evenly between the cores.
const passPart = 4096

// fullPass computes the full-data log-likelihood gradient Σ_i ∇log p(x_i | θ)
// of a Model, streaming the data in order in parts of passPart items on
// every core. Each part sums into its own buffer and the parts are added in
// part order, so the result is the same bits for any GOMAXPROCS. It is what
// a ControlVariate's centre and Sample's search for it cost: one pass is N
// per-datum gradient evaluations.
type fullPass struct {
	m     Model
	bm    BatchModel // m's batch capability, or nil
	n, d  int
	idx   []int       // 0 … N−1, the parts' index lists (with bm)
	parts [][]float64 // one sum per part
	theta []float64   // the point of the pass in progress
	job   *parfor.Job
}

func newFullPass(m Model) *fullPass {
	p := &fullPass{m: m, n: m.Len(), d: m.Dim()}
	p.bm, _ = m.(BatchModel)
	np := (p.n + passPart - 1) / passPart
	p.parts = make([][]float64, np)
	for k := range p.parts {
		p.parts[k] = make([]float64, p.d)
	}
	if p.bm != nil {
		p.idx = make([]int, p.n)
		for i := range p.idx {
			p.idx[i] = i
		}
	}
	p.job = parfor.NewJob(p.part)
	return p
}

// grad writes Σ_i ∇log p(x_i | θ) into dst.
func (p *fullPass) grad(dst, theta []float64) {
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
func (p *fullPass) part(k int) {
	s := p.parts[k]
	clear(s)
	lo, hi := k*passPart, min((k+1)*passPart, p.n)
	if p.bm != nil {
		p.bm.LogLikGradBatch(s, p.theta, p.idx[lo:hi], 1)
		return
	}
	for i := lo; i < hi; i++ {
		p.m.LogLikGrad(s, p.theta, i, 1)
	}
}
