// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// The splitting integrators' fused passes (integrator_split.go). They run
// on the fused sweep's reading of the operators, its blocks, its
// bookkeeping (begin, total, finish, undo: the gradient at θ_t, B̂, the
// divergence tracker, the undo of a failed step) and its loops' habits
// (normals a chunk at a time, sums in locals, slices cut to the chunk).

// splitting is a splitting integrator's step.
type splitting struct {
	*fused
	scheme int
	pass   int // BADODAB's pass, 1 or 2
	// per step: the O step's damping and noise scale when they are the
	// same for every coordinate (scalar friction, unit mass, no B̂).
	oa, osd, ov float64
	gamma       float64 // the O step's friction rate for BADODAB (ξ's)
}

func (s *splitting) runBlock(k int) {
	lo, hi := s.blk.rng(k)
	g := s.blk.gen(k)
	p := &s.parts[k]
	switch {
	case s.scheme == splitBADODAB && s.pass == 1:
		s.passKickDrift(lo, hi, p)
	case s.scheme == splitBADODAB:
		s.passOU(lo, hi, g, p)
	default:
		s.passOne(lo, hi, g, p)
	}
}

// step is a splitting step: the fused sweep's begin and finish around
// the scheme's passes.
func (s *splitting) step(r *Recipe, eps float64, step int) error {
	f := s.fused
	if err := f.begin(r, eps, step); err != nil {
		return err
	}
	f.moved = true
	if s.scheme != splitBADODAB {
		s.setOU(f.c, f.c, eps)
		f.blk.do(s)
		return f.finish(r, step, f.total())
	}
	// B(ε) A(ε/2), then D(ε/2) with the kinetic energy after the kick.
	d := r.d
	fd := float64(d)
	h := 0.5 * eps
	s.pass = 1
	f.blk.do(s)
	p1 := f.total()
	xi := r.z[2*d] + h*(f.gamXi+(-1*f.srow)*p1.sumsq)
	// O(ε) with friction ξ, A(ε/2), then D(ε/2) with the kinetic energy
	// after O. The friction rate is D_rr − Q_rξ∇_ξK/r = c + s_c·d(ξ − A).
	s.gamma = f.c + f.scol*(fd*(xi-f.a))
	s.setOU(f.c, s.gamma, eps)
	s.pass = 2
	f.blk.do(s)
	tot := f.total()
	tot.du = p1.du
	r.z[2*d] = xi + h*(f.gamXi+(-1*f.srow)*tot.sumsq)
	tot.chk += r.z[2*d]
	return f.finish(r, step, tot)
}

// setOU sets the O step's damping and noise for diffusion c and friction
// rate gamma (unit mass), used where they are the same for every
// coordinate.
func (s *splitting) setOU(c, gamma, eps float64) {
	s.oa, s.ov = ouStep(c, gamma, eps)
	s.osd = math.Sqrt(s.ov)
}

// coordOU returns the O step's damping and noise scale at coordinate i
// (momentum index d+i), recording a negative variance in psd.
func (s *splitting) coordOU(i int, eps float64, psd *int, psdV *float64) (a, sd float64) {
	f := s.fused
	if f.dd == nil && f.im == nil && f.b == nil {
		return s.oa, s.osd
	}
	a, v := s.oa, s.ov
	if f.dd != nil || f.im != nil {
		c, im := f.c, 1.0
		if f.dd != nil {
			c = f.dd[i]
		}
		if f.im != nil {
			im = f.im[i]
		}
		a, v = ouStep(c, c*im, eps)
	}
	if f.b != nil {
		v = splitNoise(v, a, eps, f.b[s.r.d+i])
		if !(v >= 0) {
			if *psd < 0 {
				*psd, *psdV = s.r.d+i, v
			}
			return a, 0
		}
	}
	return a, math.Sqrt(v)
}

// passOne is BAOAB's B(ε) A(ε/2) O(ε) A(ε/2), or OBABO's
// B(ε/2) O(ε) B(ε/2) A(ε), over coordinates [lo, hi) of θ and r.
func (s *splitting) passOne(lo, hi int, g *rng.Normal, p *fusedPart) {
	f := s.fused
	eps, im, qr, qt := f.eps, f.im, f.qr, f.qt
	h := 0.5 * eps
	baoab := s.scheme == splitBAOAB
	lean := f.dd == nil && im == nil && f.b == nil && qr == nil && qt == nil && f.cr == 1 && f.ct == -1
	oa, osd := s.oa, s.osd
	du, chk := 0.0, 0.0
	psd, psdV := -1, 0.0
	var nrm [fusedChunk]float64
	for c0 := lo; c0 < hi; c0 += fusedChunk {
		c1 := min(c0+fusedChunk, hi)
		n := c1 - c0
		w := nrm[:n]
		g.Fill(w)
		th, mom, gr, from, g0, bak, rbak := f.hmcViews(c0, c1)
		_, _, _, _, _, _, _ = th[n-1], mom[n-1], gr[n-1], from[n-1], g0[n-1], bak[n-1], rbak[n-1]
		if lean && baoab {
			// SGHMC with M = I, no B̂: the common case, kept lean.
			for k, x := range w {
				t, rv, gi := th[k], mom[k], gr[k]
				du += (t - from[k]) * (g0[k] + gi)
				bak[k], rbak[k] = t, rv
				r1 := rv - eps*gi
				t1 := t + h*r1
				r2 := oa*r1 + osd*x
				mom[k] = r2
				tn := t1 + h*r2
				th[k] = tn
				chk += tn
			}
			continue
		}
		if lean {
			for k, x := range w {
				t, rv, gi := th[k], mom[k], gr[k]
				du += (t - from[k]) * (g0[k] + gi)
				bak[k], rbak[k] = t, rv
				kick := h * gi
				r3 := (oa*(rv-kick) + osd*x) - kick
				mom[k] = r3
				tn := t + eps*r3
				th[k] = tn
				chk += tn
			}
			continue
		}
		for k, x := range w {
			i := c0 + k
			t, rv, gi := th[k], mom[k], gr[k]
			du += (t - from[k]) * (g0[k] + gi)
			bak[k], rbak[k] = t, rv
			q := -1 * f.cr // −Q_rθ
			if qr != nil {
				q = -1 * qr[i]
			}
			pt := -1 * f.ct // −Q_θr
			if qt != nil {
				pt = -1 * qt[i]
			}
			mi := 1.0
			if im != nil {
				mi = im[i]
			}
			a, sd := s.coordOU(i, eps, &psd, &psdV)
			var tn, rn float64
			if baoab {
				r1 := rv + eps*(q*gi)
				t1 := t + h*(pt*(r1*mi))
				rn = a*r1 + sd*x
				tn = t1 + h*(pt*(rn*mi))
			} else {
				kick := h * (q * gi)
				rn = (a*(rv+kick) + sd*x) + kick
				tn = t + eps*(pt*(rn*mi))
			}
			mom[k] = rn
			th[k] = tn
			chk += tn
		}
	}
	*p = fusedPart{du: 0.5 * du, chk: chk, psd: psd, psdV: psdV}
}

// passKickDrift is BADODAB's first pass over [lo, hi): B(ε) A(ε/2), with
// the divergence sum and Σ r² after the kick.
func (s *splitting) passKickDrift(lo, hi int, p *fusedPart) {
	f := s.fused
	eps, qr, qt := f.eps, f.qr, f.qt
	h := 0.5 * eps
	du, sumsq := 0.0, 0.0
	for c0 := lo; c0 < hi; c0 += fusedChunk {
		c1 := min(c0+fusedChunk, hi)
		n := c1 - c0
		th, mom, gr, from, g0, bak, rbak := f.hmcViews(c0, c1)
		_, _, _, _, _, _, _ = th[n-1], mom[n-1], gr[n-1], from[n-1], g0[n-1], bak[n-1], rbak[n-1]
		for k := range n {
			i := c0 + k
			t, rv, gi := th[k], mom[k], gr[k]
			du += (t - from[k]) * (g0[k] + gi)
			bak[k], rbak[k] = t, rv
			q := -1 * f.cr
			if qr != nil {
				q = -1 * qr[i]
			}
			pt := -1 * f.ct
			if qt != nil {
				pt = -1 * qt[i]
			}
			r1 := rv + eps*(q*gi)
			mom[k] = r1
			th[k] = t + h*(pt*r1)
			sumsq += r1 * r1
		}
	}
	*p = fusedPart{du: 0.5 * du, sumsq: sumsq, psd: -1}
}

// passOU is BADODAB's second pass over [lo, hi): O(ε) with the friction
// of ξ after the first half-move, A(ε/2), with Σ r² after O.
func (s *splitting) passOU(lo, hi int, g *rng.Normal, p *fusedPart) {
	f := s.fused
	r := f.r
	d := r.d
	eps, qt, b := f.eps, f.qt, f.b
	h := 0.5 * eps
	oa, osd, ov := s.oa, s.osd, s.ov
	chk, sumsq := 0.0, 0.0
	psd, psdV := -1, 0.0
	var nrm [fusedChunk]float64
	for c0 := lo; c0 < hi; c0 += fusedChunk {
		c1 := min(c0+fusedChunk, hi)
		n := c1 - c0
		w := nrm[:n]
		g.Fill(w)
		th, mom := r.z[c0:c1:c1], r.z[d+c0:d+c1:d+c1]
		_, _ = th[n-1], mom[n-1]
		for k, x := range w {
			i := c0 + k
			sd := osd
			if b != nil {
				v := splitNoise(ov, oa, eps, b[d+i])
				if !(v >= 0) && psd < 0 {
					psd, psdV = d+i, v
				}
				sd = math.Sqrt(max(v, 0))
			}
			pt := -1 * f.ct
			if qt != nil {
				pt = -1 * qt[i]
			}
			rn := oa*mom[k] + sd*x
			mom[k] = rn
			tn := th[k] + h*(pt*rn)
			th[k] = tn
			chk += tn
			sumsq += rn * rn
		}
	}
	*p = fusedPart{chk: chk, sumsq: sumsq, psd: psd, psdV: psdV}
}
