// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// whitenedGrad returns the fixed-batch gradient in the coordinates of w at
// z = 0.
func (e *chainEnv) whitenedGrad(w *whitening) ([]float64, error) {
	a, err := w.affine(e.fixed)
	if err != nil {
		return nil, err
	}
	g := make([]float64, e.d)
	a.Grad(g, make([]float64, e.d))
	if valid.FirstNonFinite(g) >= 0 {
		return nil, e.fault(w, "the whitened gradient")
	}
	return g, nil
}

// whitenedHessian returns the Hessian of the fixed-batch gradient in the
// coordinates of w at z = 0 — dense, or on the large-d path its diagonal
// by random probes (diagProbe) — and that gradient.
func (e *chainEnv) whitenedHessian(w *whitening, dense bool) (sym, []float64, error) {
	a, err := w.affine(e.fixed)
	if err != nil {
		return sym{}, nil, err
	}
	z := make([]float64, e.d)
	g := make([]float64, e.d)
	a.Grad(g, z)
	if valid.FirstNonFinite(g) >= 0 {
		return sym{}, nil, e.fault(w, "the whitened gradient")
	}
	var h sym
	if dense {
		h = sym{m: hessian(a, z, fdStep)}
	} else {
		h = sym{v: diagProbe(a, z, diagProbes, e.rng), at: append([]float64(nil), w.shift...)}
	}
	if !h.finite() {
		return sym{}, nil, e.fault(w, "the curvature (finite differences of the gradient)")
	}
	return h, g, nil
}

// mulSym writes a·v into dst.
func mulSym(dst []float64, a *mat.SymDense, v []float64) {
	dv := mat.NewVecDense(len(dst), dst)
	dv.MulVec(a, mat.NewVecDense(len(v), v))
}

// newton moves from start to the typical set by trust-region Newton steps
// on the fixed batch, and returns the whitening of the last Hessian and
// that Hessian (identity in its own coordinates).
func (e *chainEnv) newton(start []float64, dense bool) (*whitening, []sym, error) {
	d := e.d
	w := &whitening{shift: append([]float64(nil), start...)}
	if dense {
		w.lower = mat.NewTriDense(d, mat.Lower, nil)
		for i := range d {
			w.lower.SetTri(i, i, 1)
		}
	} else {
		w.diag = make([]float64, d)
		for i := range w.diag {
			w.diag[i] = 1
		}
	}
	radius := newtonRadius*math.Sqrt(float64(d)) + newtonRadius
	var h, hcur sym // hcur: the curvature carried over, in w's coordinates
	var g []float64
	for it := 0; it < newtonIters; it++ {
		var err error
		if hcur.dim() == 0 {
			h, g, err = e.whitenedHessian(w, dense)
		} else {
			h = hcur
			g, err = e.whitenedGrad(w)
		}
		if err != nil {
			return nil, nil, err
		}
		// Re-whiten at this point by the regularised curvature.
		nw, inv, err := e.rewhiten(w, h)
		if err != nil {
			return nil, nil, err
		}
		t := transition(w, nw)
		// The Newton step in the old coordinates: δz = −A⁻¹g.
		dz := make([]float64, d)
		inv.mulVec(dz, g)
		q := floats.Dot(dz, g) // Newton decrement², ≈ d in the typical set
		if q <= newtonTypical*float64(d) {
			if hcur.dim() != 0 { // measure the curvature where the search ends
				h, _, err = e.whitenedHessian(w, dense)
				if err != nil {
					return nil, nil, err
				}
			}
			return nw, []sym{reexpress(h, t)}, nil
		}
		scale := math.Min(1, radius/math.Sqrt(q))
		floats.Scale(-scale, dz)
		next := w.toTheta(dz)
		// Judge the step by the decrement at the new point in the old
		// metric: a good step shrinks it as the quadratic model predicts,
		// and then the curvature is kept for the next step (a Gaussian
		// posterior needs one Hessian however far the start is).
		ag, err := w.affine(e.fixed)
		if err != nil {
			return nil, nil, err
		}
		gn := make([]float64, d)
		ag.Grad(gn, dz)
		tmp := make([]float64, d)
		inv.mulVec(tmp, gn)
		qn := floats.Dot(tmp, gn)
		// The step must also lower the potential by a share of what the
		// quadratic model predicts, s·q − s²q/2: a shrinking decrement
		// alone can lead away from the posterior, along a ridge on which
		// the gradient fades (a scale parameter growing without bound
		// flattens the potential of every location). ΔU is the integral
		// of the gradient along the step, by Simpson's rule.
		mid := make([]float64, d)
		copy(mid, dz)
		floats.Scale(0.5, mid)
		gm := make([]float64, d)
		ag.Grad(gm, mid)
		du := (floats.Dot(dz, g) + 4*floats.Dot(dz, gm) + floats.Dot(dz, gn)) / 6
		lower := -du >= newtonDescent*(scale*q-scale*scale*q/2)
		finite := valid.FirstNonFinite(gn) < 0 && valid.FirstNonFinite(gm) < 0
		switch {
		case finite && lower && math.Sqrt(qn) < math.Sqrt(q)-newtonAccept*scale*math.Sqrt(q):
			nw.shift = next
			// Grow the region beyond the step taken (not beyond a radius
			// the steps never reached, which a rejection would then take
			// many quarterings to bring back to the step's length).
			radius = newtonGrow * scale * math.Sqrt(q)
			hcur = reexpress(h, t)
		case finite && lower:
			nw.shift = next
			hcur = sym{}
		default:
			radius = scale * math.Sqrt(q) / newtonGrow
			if radius < minRadius {
				// No step, however short, shrinks the decrement: the
				// posterior is not log-concave here (saddle-free Newton
				// moves downhill in U, not in |∇U|). The start is left to
				// the Langevin windows, which need no convexity, with the
				// curvature measured here.
				h, _, err := e.whitenedHessian(w, dense)
				if err != nil {
					return nil, nil, err
				}
				return w, []sym{h}, nil
			}
			hcur = reexpress(h, t) // same point, same curvature
		}
		w = nw
	}
	h, _, err := e.whitenedHessian(w, dense)
	if err != nil {
		return nil, nil, err
	}
	return w, []sym{h}, nil
}
