// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/floats"
)

// P4 of warmup (doc.go lists the phases): three windows of Langevin steps
// in the Newton phase's whitened coordinates (doc/adaptation.md §2.4).
//
// On an exact gradient (the fixed batch) the windows are Metropolis-
// adjusted (MALA), with the potential's change along a proposal taken as
// the integral of the gradient by the trapezoidal rule, so that they need
// no log density and no gradient beyond the proposal's: exact for a
// Gaussian, in error by O(|δ|³) times the third derivative otherwise —
// the windows only need to sample near the posterior, not exactly. Unadjusted, a
// Langevin chain started where the Newton phase stopped — often the
// shoulder of a scale parameter, where the location parameters' curvature
// is small — does not return to the posterior: as it nears it, the
// curvature grows past the step's stability limit, the chain heats, the
// scale grows back, and the chain settles on the scale at which its step
// is just stable (doc/adaptation.md §2.4). Metropolis rejections remove
// that fixed point: the windows sample the fixed batch's posterior, and
// their step adapts to an acceptance rate of malaTarget.
//
// On a stochastic gradient (the control variate, at large N) no such
// correction exists; the windows are SGLD with a step halved at each
// divergence.

// windows runs three windows of whitened Langevin steps, measures the
// curvature at the end of each but the first, and blends the last
// window's covariance into the averaged curvature.
func (e *chainEnv) windows(w *whitening, hs []sym, dense bool) (*whitening, []sym, error) {
	d := e.d
	eps := windowEps
	// The last window in windowParts parts, with the curvature measured
	// at the end of each: the mean curvature over the typical set, not at
	// two points of it.
	lens := []int{windowSettle, windowMid}
	for range windowParts {
		lens = append(lens, windowLast/windowParts)
	}
	newton := len(hs) // the Newton phase's Hessians come first
	cv := newCovariance(d, dense)
	var neff float64
	for k, n := range lens {
		wg := e.fixed
		if e.windowGrad != nil {
			wg = e.windowGrad
		}
		a, err := w.affine(wg)
		if err != nil {
			return nil, nil, err
		}
		var keep *covariance // the covariance from the last window only, in the typical set
		if k >= 2 {
			keep = cv
		}
		var z []float64
		var moved float64
		if e.windowGrad == nil {
			z, moved, err = e.malaWindow(a, n, &eps, keep)
		} else {
			z, moved, err = e.langevinWindow(a, n, &eps, keep)
		}
		if err != nil {
			return nil, nil, err
		}
		if keep != nil {
			neff += moved / 2
		}
		// Re-centre at the window's end and, after the first (which only
		// moves into the typical set), measure the curvature there, in the
		// Newton phase's last coordinates.
		w = w.moved(w.toTheta(z))
		if k == 0 {
			continue
		}
		h, _, err := e.whitenedHessian(w, dense)
		if err != nil {
			return nil, nil, err
		}
		hs = append(hs, h)
	}
	// Average the curvature (all Hessians are in the same coordinates),
	// invert, and blend the windows' covariance with a weight that grows
	// with their effective size (about the time the last window covered,
	// Σ ε·α over its steps, over 2).
	inv, ok := meanInverse(hs[newton:])
	if !ok {
		return nil, nil, e.fault(w, "the mean curvature of the windows")
	}
	pc := w.thetaCov(inv)
	wt := neff / (neff + blendPerDim*float64(d))
	nw, err := fromCov(w.shift, blendSym(pc, cv.cov(), wt))
	if err != nil {
		nw, err = fromCov(w.shift, pc)
		if err != nil {
			if dir := flatDirection(hs[newton:], w); dir != nil {
				return nil, nil, improperError(dir, e.names)
			}
			return nil, nil, valid.Errorf(nil, "Sample: warmup: %w", err)
		}
	}
	// Express the warmup Hessians in the new coordinates: A' = Tᵀ A T with
	// T = L_old⁻¹ L_new.
	t := transition(w, nw)
	out := make([]sym, len(hs))
	for k, h := range hs {
		out[k] = reexpress(h, t)
	}
	return nw, out, nil
}

// windowFailed is the error of a window whose step had to shrink by more
// than maxShrink.
func windowFailed(eps float64, why string) error {
	return valid.Errorf(sgmcmc.ErrDivergence, "Sample: warmup: tried Langevin steps from %g down to %.3g (in units of the curvature measured at the start) and every one diverged (%s): the curvature at the start does not describe the posterior nearby", windowEps, eps, why)
}

// malaWindow runs n Metropolis-adjusted Langevin steps on the exact
// whitened gradient a from z = 0 with the step *eps, adapting it, and
// adds every state to cv if not nil. It returns the last state and the
// time covered, Σ ε·α.
func (e *chainEnv) malaWindow(a *sgmcmc.Affine, n int, eps *float64, cv *covariance) ([]float64, float64, error) {
	d := e.d
	z, gz := make([]float64, d), make([]float64, d)
	prop, gp := make([]float64, d), make([]float64, d)
	back := make([]float64, d)
	th := make([]float64, d)
	a.Grad(gz, z)
	if valid.FirstNonFinite(gz) >= 0 {
		return nil, 0, windowFailed(*eps, "the gradient at the start is not finite")
	}
	logH := math.Log(*eps)
	var moved float64
	for range n {
		h := math.Exp(logH)
		sd := math.Sqrt(2 * h)
		var xi2 float64
		for i := range prop {
			xi := e.rng.NormFloat64()
			xi2 += xi * xi
			prop[i] = z[i] - h*gz[i] + sd*xi
		}
		alpha := 0.0
		a.Grad(gp, prop)
		if valid.FirstNonFinite(gp) < 0 {
			// ΔU = ∫ ∇U·δ along the segment, by the trapezoidal rule, and
			// log q(z | z') − log q(z' | z).
			var du float64
			for i := range prop {
				du += (prop[i] - z[i]) * (gz[i] + gp[i])
				back[i] = z[i] - prop[i] + h*gp[i]
			}
			logA := -du/2 - floats.Dot(back, back)/(4*h) + xi2/2
			if !math.IsNaN(logA) {
				alpha = math.Exp(math.Min(0, logA))
			}
		}
		if e.rng.Float64() < alpha {
			copy(z, prop)
			copy(gz, gp)
		}
		moved += h * alpha
		logH += malaGain * (alpha - malaTarget)
		if alpha < malaHalve {
			logH -= math.Ln2 // a proposal far beyond the curvature: halve
		}
		if windowEps/math.Exp(logH) > maxShrink {
			return nil, 0, windowFailed(math.Exp(logH), "Metropolis-adjusted proposals were rejected at every step size")
		}
		if cv != nil {
			a.ToTheta(th, z)
			cv.add(th)
		}
	}
	*eps = math.Exp(logH)
	return z, moved, nil
}

// langevinWindow runs n SGLD steps on the stochastic whitened gradient a
// from z = 0 with the step *eps, halving it and restarting at a
// divergence, and adds every state to cv if not nil. It returns the last
// state and the time covered, n·ε.
func (e *chainEnv) langevinWindow(a *sgmcmc.Affine, n int, eps *float64, cv *covariance) ([]float64, float64, error) {
	d := e.d
	th := make([]float64, d)
	smp, err := sgmcmc.NewSGLD(a, make([]float64, d), rand.NewPCG(e.rng.Uint64(), e.rng.Uint64()), nil)
	if err != nil {
		return nil, 0, err
	}
	for t := 0; t < n; t++ {
		before, _ := smp.Divergences()
		serr := smp.Step(*eps)
		after, last := smp.Divergences()
		if serr != nil || after > before {
			// Divergence: shrink and restart the window from z = 0.
			*eps /= 2
			if windowEps / *eps > maxShrink {
				why := fmt.Sprintf("a transition changed the potential by %.3g", last.DeltaU)
				if serr != nil {
					why = serr.Error()
				}
				return nil, 0, windowFailed(*eps, why)
			}
			smp, err = sgmcmc.NewSGLD(a, make([]float64, d), rand.NewPCG(e.rng.Uint64(), e.rng.Uint64()), nil)
			if err != nil {
				return nil, 0, err
			}
			if cv != nil {
				*cv = *newCovariance(d, cv.m2 != nil)
			}
			t = -1
			continue
		}
		if cv != nil {
			a.ToTheta(th, smp.Position())
			cv.add(th)
		}
	}
	return smp.Position(), float64(n) * *eps, nil
}
