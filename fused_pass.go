// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// runBlock is the pass over block k.
func (f *fused) runBlock(k int) {
	lo, hi := f.blk.rng(k)
	g := f.blk.gen(k)
	if f.kind == fusedLD {
		f.passLD(lo, hi, g, &f.parts[k])
	} else {
		f.passHMC(lo, hi, g, &f.parts[k])
	}
}

// fusedChunk is the number of normals drawn at a time: small enough to stay
// in L1 with the state they update.
const fusedChunk = 256

// minLeanSD is the smallest noise scale for which the lean loops, which
// skip the generic path's additions of zero, give its bits: above it sd·x
// is never zero (|x| > 10⁻⁸ for every normal the generator draws).
const minLeanSD = 1e-290

// passLD is the fused SGLD/SGRLD step over θ[lo:hi]:
// θ ← θ + ε(Γ − D∇Ũ) + N(0, ε(2D − εB̂)).
//
// The sums run in local variables (a sum kept in *p would go through
// memory at every coordinate) and every slice is cut to the chunk, so that
// the loops carry no bounds checks.
func (f *fused) passLD(lo, hi int, g *rng.Normal, p *fusedPart) {
	r := f.r
	eps, b, dd, gam := f.eps, f.b, f.dd, f.gam
	a := -1 * f.c
	sd := math.Sqrt(2 * eps * f.c)
	lean := dd == nil && gam == nil && b == nil && sd > minLeanSD
	du, chk := 0.0, 0.0
	psd, psdV := -1, 0.0
	var nrm [fusedChunk]float64
	for c0 := lo; c0 < hi; c0 += fusedChunk {
		c1 := min(c0+fusedChunk, hi)
		n := c1 - c0
		w := nrm[:n]
		g.Fill(w)
		z, gr := r.z[c0:c1:c1], r.g[c0:c1:c1]
		from, g0 := r.div.from[c0:c1:c1], r.div.g[c0:c1:c1]
		bak := f.bak[c0:c1:c1]
		_, _, _, _, _ = z[n-1], gr[n-1], from[n-1], g0[n-1], bak[n-1]
		if lean {
			// SGLD with D = cI: the common case, kept lean. The generic
			// path's θ + (ε(0 + a(0 + g)) + sd·x) is θ + (ε·a·g + sd·x):
			// the additions of 0 only turn −0 into +0, which sd·x ≠ 0 hides.
			for k, x := range w {
				th, gi := z[k], gr[k]
				du += (th - from[k]) * (g0[k] + gi)
				bak[k] = th
				tn := th + (eps*(a*gi) + sd*x)
				z[k] = tn
				chk += tn
			}
			continue
		}
		for k, x := range w {
			i := c0 + k
			th, gi := z[k], gr[k]
			du += (th - from[k]) * (g0[k] + gi)
			bak[k] = th
			di, ai := f.c, a
			if dd != nil {
				di = dd[i]
				ai = -1 * di
			}
			inc := 0.0
			if gam != nil {
				inc = gam[i]
			}
			inc += ai * (0 + gi)
			var nz float64
			if dd == nil && b == nil {
				nz = sd * x
			} else {
				bi := 0.0
				if b != nil {
					bi = b[i]
				}
				v := 2*di - eps*bi
				if !(v >= 0) && psd < 0 {
					psd, psdV = i, v
				}
				nz = math.Sqrt(eps*v) * x
			}
			tn := th + (eps*inc + nz)
			z[k] = tn
			chk += tn
		}
	}
	// The ½ of each term, applied once: scaling by a power of two is exact.
	*p = fusedPart{du: 0.5 * du, chk: chk, psd: psd, psdV: psdV}
}

// passHMC is the fused sweep of SGHMC, gSGRHMC and SGNHT over coordinates
// [lo:hi) of θ and r: first r ← r + ε(Γ_r − D_rr∇_rK − Q_rθ∇Ũ [− (ξ−A)r])
// + N(0, ε(2D_rr − εB̂)), then θ ← θ − εQ_θr∇_rK at the new r. Its loops
// are written as passLD's.
func (f *fused) passHMC(lo, hi int, g *rng.Normal, p *fusedPart) {
	r := f.r
	d := r.d
	eps, b, dd, gam, im, qr, qt := f.eps, f.b, f.dd, f.gam, f.im, f.qr, f.qt
	a := -1 * f.c
	sd := math.Sqrt(2 * eps * f.c)
	axi := f.axi
	lean := dd == nil && gam == nil && b == nil && im == nil && qr == nil && qt == nil &&
		f.cr == 1 && f.ct == -1 && !f.nht && sd > minLeanSD
	du, chk, sumsq := 0.0, 0.0, 0.0
	psd, psdV := -1, 0.0
	var nrm [fusedChunk]float64
	for c0 := lo; c0 < hi; c0 += fusedChunk {
		c1 := min(c0+fusedChunk, hi)
		n := c1 - c0
		w := nrm[:n]
		g.Fill(w)
		th, mom, gr, from, g0, bak, rbak := f.hmcViews(c0, c1)
		_, _, _, _, _, _, _ = th[n-1], mom[n-1], gr[n-1], from[n-1], g0[n-1], bak[n-1], rbak[n-1]
		if lean {
			// SGHMC with M = I: the common case, kept lean.
			for k, x := range w {
				t, rv, gi := th[k], mom[k], gr[k]
				du += (t - from[k]) * (g0[k] + gi)
				bak[k], rbak[k] = t, rv
				// As in passLD, the generic path's additions of 0 change
				// nothing here but the sign of a zero that sd·x ≠ 0 hides,
				// and ε(0 + r) + 0 is εr + 0.
				rn := rv + (eps*(a*rv-gi) + sd*x)
				mom[k] = rn
				tn := t + (eps*rn + 0)
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
			// ∇_r K at r_t.
			kr := rv
			if im != nil {
				kr = rv * im[i]
			}
			di, ai := f.c, a
			if dd != nil {
				di = dd[i]
				ai = -1 * di
			}
			q := -1 * f.cr // −Q_rθ
			if qr != nil {
				q = -1 * qr[i]
			}
			inc := 0.0
			if gam != nil {
				inc = gam[i]
			}
			inc = (inc + ai*kr) + q*(0+gi)
			if f.nht {
				inc += axi * rv
			}
			var nz float64
			if dd == nil && b == nil {
				nz = sd * x
			} else {
				bi := 0.0
				if b != nil {
					bi = b[d+i]
				}
				v := 2*di - eps*bi
				if !(v >= 0) && psd < 0 {
					psd, psdV = d+i, v
				}
				nz = math.Sqrt(eps*v) * x
			}
			rn := rv + (eps*inc + nz)
			mom[k] = rn
			if f.nht {
				sumsq += rn * rn
			}
			// ∇_r K at r_{t+1}, then θ.
			kn := rn
			if im != nil {
				kn = rn * im[i]
			}
			pt := -1 * f.ct // −Q_θr
			if qt != nil {
				pt = -1 * qt[i]
			}
			tn := t + (eps*(0+pt*kn) + 0)
			th[k] = tn
			chk += tn
		}
	}
	// The ½ of each term, applied once: scaling by a power of two is exact.
	*p = fusedPart{du: 0.5 * du, chk: chk, sumsq: sumsq, psd: psd, psdV: psdV}
}

// hmcViews returns chunk [c0, c1) of θ, r, ∇Ũ, the divergence tracker's
// start and gradient, and the copies of θ_t and r_t that undo restores.
func (f *fused) hmcViews(c0, c1 int) (th, mom, gr, from, g0, bak, rbak []float64) {
	r := f.r
	d := r.d
	return r.z[c0:c1:c1], r.z[d+c0 : d+c1 : d+c1], r.g[c0:c1:c1],
		r.div.from[c0:c1:c1], r.div.g[c0:c1:c1], f.bak[c0:c1:c1], f.rbak[c0:c1:c1]
}
