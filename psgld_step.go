// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

// Step performs one pSGLD update with step size eps. On error the sampler
// is left exactly as it was, its generator included.
//
// The step is one pass over θ: the noise comes a block of normals at a
// time, and the pass also judges the previous transition's divergence and
// checks the new state; θ and v are written to second buffers that take
// their place when the step succeeds.
func (p *PSGLD) Step(eps float64) error {
	t := p.t + 1
	if err := checkStepSize(eps, t); err != nil {
		return err
	}
	if p.hg != nil {
		p.hg.GradDiagHessian(p.g, p.h, p.theta)
	} else {
		p.grad.Grad(p.g, p.theta)
	}
	genSave := *p.src
	p.blk.save()
	p.eps = eps
	p.blk.do(p)
	tot := psgldPart{idx: -1, uidx: -1}
	for k := range p.parts {
		q := &p.parts[k]
		if tot.idx < 0 || q.worst > tot.worst {
			if q.idx >= 0 {
				tot.worst, tot.idx = q.worst, q.idx
			}
		}
		if q.uidx >= 0 && (tot.uidx < 0 || q.unst > tot.unst) {
			tot.unst, tot.uidx = q.unst, q.uidx
		}
		if k == 0 {
			tot.du, tot.du2, tot.chk, tot.vchk, tot.vir = q.du, q.du2, q.chk, q.vchk, q.vir
		} else {
			tot.du += q.du
			tot.du2 += q.du2
			tot.chk += q.chk
			tot.vchk += q.vchk
			tot.vir += q.vir
		}
	}
	if tot.chk != 0 || tot.vchk != 0 {
		*p.src = genSave
		p.blk.restore()
		if p.hg != nil {
			if err := checkFinite(p.h, t, "non-finite Hessian diagonal"); err != nil {
				return err
			}
		}
		if err := checkGradValue(p.grad, p.g, t); err != nil {
			return err
		}
		if err := checkFinite(p.next, t, nonFiniteStateWhat); err != nil {
			return err
		}
		return checkFinite(p.vnext, t, "RMSprop accumulator overflowed (a gradient too large to square)")
	}
	if p.div.step != 0 {
		p.div.record(p.div.step, tot.idx, tot.du)
	}
	if p.div.vir.on() {
		p.div.vir.addSum(tot.vir)
	}
	if tot.unst > stableLimit {
		p.div.unstable(t, tot.uidx, tot.du2)
	}
	// θ_t and its gradient start the transition just made.
	p.div.from, p.theta, p.next = p.theta, p.next, p.div.from
	p.div.g, p.g = p.g, p.div.g
	p.div.step = t
	p.v, p.vnext = p.vnext, p.v
	p.t = t
	return nil
}

// psgldPart is one block's share of a pSGLD step's sums.
type psgldPart struct {
	du, worst float64 // divergence of the previous transition
	idx       int
	unst      float64 // the largest ε·G_ii·(∇²Ũ)_ii of the step, at uidx
	uidx      int
	du2       float64 // the step's ΔU to second order in the Hessian diagonal
	chk, vchk float64 // Σ (x − x) over the new θ (and the Hessian) and v
	vir       float64 // Σ (θ − a)·∇Ũ(θ) over the block, for the virial
}

// runBlock is pSGLD's pass over block k. Its sums stay in locals until
// the end: the blocks' parts share cache lines, and writing them for every
// coordinate would make the cores fight over those lines.
func (p *PSGLD) runBlock(k int) {
	lo, hi := p.blk.rng(k)
	g := p.blk.gen(k)
	q := psgldPart{idx: -1, uidx: -1}
	var chk, vchk, du2 float64
	eps := p.eps
	a := p.alpha
	if p.froz {
		a = 1
	}
	theta, gr, v, h := p.theta, p.g, p.v, p.h
	next, vnext := p.next, p.vnext
	from, g0 := p.div.from, p.div.g
	invN, lam, keep, hess := p.invN, p.lam, p.keep, p.hg != nil
	va := p.div.vir.anchor // the virial's anchor; empty while off
	var vir float64
	var nrm [fusedChunk]float64
	for c0 := lo; c0 < hi; c0 += fusedChunk {
		c1 := min(c0+fusedChunk, hi)
		w := nrm[:c1-c0]
		g.Fill(w)
		for j, z := range w {
			i := c0 + j
			th, gi := theta[i], gr[i]
			q.judge(i, 0.5*(th-from[i])*(g0[i]+gi))
			if len(va) > 0 {
				vir += (th - va[i]) * gi
			}
			gb := gi * invN
			vi := a*v[i] + (1-a)*gb*gb
			sq := math.Sqrt(vi)
			G := 1 / (lam + sq)
			x := th - eps*G*gi + math.Sqrt(2*eps*G)*z
			if hess {
				hii := h[i]
				chk += hii - hii
				if keep && sq > 0 {
					x -= eps * G * G * gb * hii * invN / sq
				}
				if u := eps * G * hii; u > q.unst || q.uidx < 0 {
					q.unst, q.uidx = u, i
				}
				s := x - th
				du2 += s * (gi + 0.5*hii*s)
			}
			next[i], vnext[i] = x, vi
			chk += x - x
			vchk += vi - vi
		}
	}
	q.chk, q.vchk, q.du2, q.vir = chk, vchk, du2, vir
	p.parts[k] = q
}

// judge accumulates one coordinate's term of the previous transition's
// trapezoid ΔU, as divTracker.judge does.
func (q *psgldPart) judge(i int, c float64) {
	q.du += c
	if a := math.Abs(c); a > q.worst || q.idx < 0 {
		q.worst, q.idx = a, i
	}
}
