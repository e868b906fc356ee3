// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Sample's warmup runs per chain (sampleChain, in sample_chain.go) in
// these phases (doc/equations.md §13), each tuned by the constants below:
//
//  0. Gradient sources (newChainEnv): a fixed batch for the curvature and
//     the Langevin windows, and the first sampling batch size n₀.
//  1. Newton (newton, this file): trust-region Newton steps on the fixed
//     batch from a dispersed start until the Newton decrement is that of
//     a point of the typical set. Then, for a Model without
//     PlainMinibatch, phase 1b (centre and chooseWindowGrad,
//     sample_centre.go): the chain's full-data mode θ̂ by Newton passes
//     over the data, the control variate centred there, and the windows'
//     gradient (doc/equations.md §13.7).
//  2. Windows (windows, sample_window.go): three windows of whitened
//     Langevin steps, Metropolis-adjusted on the fixed batch, the last in
//     windowParts parts; the curvature measured at the end of each window
//     or part but the first, averaged and blended with the last window's
//     covariance into the preconditioner. Then, for a Model whose data fit
//     in the fixed batch (or whose centre search did not converge), phase
//     1b's centre from the windows' end.
//  3. Step size (chainRun.once, sample_run.go): λ̂ by power iteration on the whitened
//     Hessians, ε = c/λ̂ or c/√λ̂ by the Method's rules (MethodRules).
//  4. Batch (chooseBatch, sample_batch.go): a probe of the gradient noise;
//     control variate or plain minibatches, batch size, B̂, friction and
//     heat; then the method's own adaptation (WarmupAdapter).
//  5. Thinning and burn-in (chainRun.once in sample_run.go, autocorrTime
//     in sample_method.go): from the predicted autocorrelation time.
//  6. Rounds (sample_rounds.go, doc/equations.md §13.17): a chain whose
//     draws do not fit its preconditioner re-adapts phases 3–5 from them
//     and samples again; a first-order method's chain first makes a
//     short pilot run, whose draws replace warmup's whitening when they
//     allow a much larger step (§13.19).
//
// The numerical pieces (finite-difference Hessians, power iteration,
// covariance) are in sample_curvature.go; each Method's own rules in its
// sample_method_*.go file. Above DenseMax the same phases run on vectors
// (sample_sym.go): diagonal curvature by random probes and λ̂ by Lanczos
// (sample_probe.go), then a low-rank factor and a sampling run that keeps
// moments (sample_large.go), doc/equations.md §13.11–§13.12; with the
// fixed batch capped below the data there, phase 1 is Adam to a mode and
// phase 2 does not run (sample_large_mode.go, §13.13).
const (
	// Phase 0: gradient sources. The fixed batch has
	// min(N, max(fixedBatchPerDim·d, fixedBatchMin)) items, drawn with the
	// minibatch seed's first word xored with fixedBatchSeed; the first
	// sampling batch has n₀ = min(N, max(firstBatchMin, N/firstBatchFrac)).
	fixedBatchPerDim = 100
	fixedBatchMin    = 2000
	fixedBatchSeed   = 0x9e3779b97f4a7c15
	// Phase 1b (sample_centre.go): the windows run on the control variate
	// when a batch that keeps their excess temperature windowEps·V/2 below
	// windowMaxHeat costs under a fixed-batch gradient; its size starts
	// at max(cvFirstBatch, windowBatchPerDim·d), drawn with the minibatch
	// seed's first word xored with windowBatchSeed.
	windowBatchPerDim = 10
	windowBatchSeed   = 0x7f4a7c159e3779b9
	windowMaxHeat     = 0.05
	firstBatchMin     = 100
	firstBatchFrac    = 10

	// Phase 1: Newton. At most newtonIters steps in a trust region of
	// radius newtonRadius·(√d + 1) at first, in whitened units. A step is
	// taken if it lowers the potential (the gradient's integral along it,
	// by Simpson's rule) by at least newtonDescent of the quadratic
	// model's prediction (a shrinking decrement alone can lead along a
	// ridge away from the posterior); the radius becomes
	// newtonGrow times the step's length after a step that also shrinks
	// √(decrement²) by at least newtonAccept of the step's share of it,
	// and the step's length over newtonGrow after a step not taken. The
	// search ends at a decrement² below newtonTypical·d (a point of the
	// typical set), or when the radius falls below minRadius (not
	// log-concave there).
	newtonIters   = 60
	newtonRadius  = 3
	newtonGrow    = 4
	newtonAccept  = 0.5
	newtonTypical = 2
	newtonDescent = 0.1
	minRadius     = 1e-6
	eigFloor      = 1e-12 // eigenvalue floor relative to the largest, in every inverse
	fdStep        = 1e-3  // finite-difference step of the Hessians, in whitened units

	// Phase 2: Langevin windows of windowSettle (which only moves into the
	// typical set), windowMid and windowLast steps (whose draws give the
	// covariance), starting at size windowEps, in units of 1/λ̂; the
	// covariance's weight in the blend is n_eff/(n_eff + blendPerDim·d).
	// The step adapts (sample_window.go); a window that has to shrink it
	// by maxShrink fails.
	windowSettle = 50
	windowMid    = 150
	windowLast   = 500
	windowEps    = 0.2
	blendPerDim  = 25
	maxShrink    = 1e12

	// Phase 3: step size. powerIters power iterations per warmup Hessian.
	powerIters = 50

	// Phase 4: batch. The noise probe draws
	// min(max(probeDraws, probePerDim·d), maxProbeDraws) gradients. The
	// heat check counts the gradient noise before B̂ at 1/uncorrectedShare
	// of its size (1 trusts B̂ with nothing; see chooseBatch).
	// With momentum, ε·C is kept at most maxEpsFriction, so that the
	// friction's factor 1 − εC per step never overshoots.
	maxEpsFriction = 1
	// maxNoiseShrink is the most by which a user's fixed BatchSize may
	// make warmup shrink the step to keep the heat within MaxHeat: beyond
	// it the run would need that many times more steps per effective draw
	// (hours where minutes would do) and Sample says that gradient noise
	// at that batch size is the problem instead.
	maxNoiseShrink   = 100
	probeDraws       = 256
	probePerDim      = 4
	maxProbeDraws    = 1000
	uncorrectedShare = 1

	// Phase 5: thinning and burn-in from the predicted autocorrelation
	// time τ, with the smallest whitened curvature taken as
	// autocorrLowCurvature and a friction below autocorrMinFriction
	// counted as that: Thin = ⌈τ/thinPerAutocorr⌉, BurnIn =
	// max(minBurnIn, burnInAutocorrs·τ).
	autocorrLowCurvature = 0.5
	autocorrMinFriction  = 0.5
	thinPerAutocorr      = 2.5
	burnInAutocorrs      = 3
	minBurnIn            = 100

	// Errors: a sampling run that diverges or overflows where the gradient
	// noise supplies at least noiseCause of the diffusion (NoiseScale) is
	// reported as caused by the noise, with the batch size and heat.
	noiseCause = 0.5

	// Warnings: none on the curvature spread (Adapted.CurvatureSpread,
	// the largest whitened curvature over the window points over the
	// smallest positive one above the eigenvalue floor). Measured on the
	// development set (examples/posteriordb -set dev, SGHMC, seeds 1 and
	// 2), a warning above 20 fired on 7 of the 21 cells that met the goal
	// — every false alarm of the run — and on none of the 17 that missed it
	// without another warning or an error already saying so: computed
	// from two or three noisy fixed-batch Hessians, the spread ranged over
	// 74–2.5·10⁴ on right answers and 85–2.4·10⁸ on wrong ones. A warning
	// that fires on right answers is no warning; R̂, ESS and divergences
	// flag those runs (the funnel included). The infinite spread (a window
	// point with no positive curvature) keeps its warning: it fires on
	// right answers on the t₃ and the Cauchy of examples/multimodal, but it
	// is the only warning on first-order methods' wrong Cauchy quantiles
	// (HAMCMC's 0.12–0.15 IQR off; removing it made that row wrong without
	// a warning), and on no development cell.
)

// whitening is θ = shift + L z with a dense lower-triangular or diagonal
// L; on the large-d path the diagonal may carry a low-rank factor,
// L = diag(σ)(I + U diag(c) Uᵀ) (lowrank.go).
type whitening struct {
	shift []float64
	lower *mat.TriDense // nil when diagonal
	diag  []float64
	lr    *lowRank // nil unless diagonal with a low-rank factor
}

func (w *whitening) affine(g sgmcmc.Gradient) (*sgmcmc.Affine, error) {
	if w.lower != nil {
		d := len(w.shift)
		raw := w.lower.RawTriangular()
		l := make([]float64, d*d)
		for i := range d {
			copy(l[i*d:i*d+i+1], raw.Data[i*raw.Stride:i*raw.Stride+i+1])
		}
		return sgmcmc.NewAffine(g, w.shift, l, nil)
	}
	if w.lr != nil {
		return sgmcmc.NewAffineLowRank(g, w.shift, w.diag, w.lr.u, w.lr.c)
	}
	return sgmcmc.NewAffine(g, w.shift, nil, w.diag)
}

// moved returns w re-centred at shift, with the same L.
func (w *whitening) moved(shift []float64) *whitening {
	return &whitening{shift: shift, lower: w.lower, diag: w.diag, lr: w.lr}
}

// fromCov returns the whitening of covariance p (dense: its Cholesky
// factor; diagonal: square roots of its diagonal) centred at shift.
func fromCov(shift []float64, p sym) (*whitening, error) {
	w := &whitening{shift: append([]float64(nil), shift...)}
	d := len(shift)
	if p.m != nil {
		var ch mat.Cholesky
		if !ch.Factorize(p.m) {
			return nil, fmt.Errorf("preconditioner not positive definite")
		}
		var l mat.TriDense
		ch.LTo(&l)
		w.lower = &l
		return w, nil
	}
	w.diag = make([]float64, d)
	for i := range d {
		w.diag[i] = math.Sqrt(p.v[i])
		if !(w.diag[i] > 0) || math.IsInf(w.diag[i], 0) {
			return nil, fmt.Errorf("preconditioner not positive definite (variance %v of θ_%d)", p.v[i], i)
		}
	}
	return w, nil
}

// toZ maps θ to z = L⁻¹(θ − shift).
func (w *whitening) toZ(theta []float64) []float64 {
	d := len(theta)
	z := make([]float64, d)
	if w.lower == nil {
		a, _ := w.affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
		a.ToZ(z, theta)
		return z
	}
	for i := range z {
		z[i] = theta[i] - w.shift[i]
	}
	zv := mat.NewVecDense(d, z)
	if err := zv.SolveVec(w.lower, zv); err != nil {
		return make([]float64, d) // singular L: take the shift
	}
	return z
}

// toTheta maps z to θ.
func (w *whitening) toTheta(z []float64) []float64 {
	a, _ := w.affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
	th := make([]float64, len(z))
	a.ToTheta(th, z)
	return th
}

// thetaCov returns the whitened covariance a in θ: L a Lᵀ (before any
// low-rank factor is added).
func (w *whitening) thetaCov(a sym) sym {
	d := len(w.shift)
	if a.m == nil {
		out := make([]float64, d)
		for i, v := range w.diag {
			out[i] = v * a.v[i] * v
		}
		return sym{v: out}
	}
	l := mat.NewDense(d, d, nil)
	if w.lower != nil {
		l.Copy(w.lower)
	} else {
		for i, v := range w.diag {
			l.Set(i, i, v)
		}
	}
	var t mat.Dense
	t.Mul(l, a.m)
	var out mat.Dense
	out.Mul(&t, l.T())
	s := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(out.At(i, j)+out.At(j, i)))
		}
	}
	return sym{m: s}
}

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

// reexpressDense returns Tᵀ A T for dense A and T.
func reexpressDense(h *mat.SymDense, t *mat.Dense) *mat.SymDense {
	d := h.SymmetricDim()
	var m1, m2 mat.Dense
	m1.Mul(t.T(), h)
	m2.Mul(&m1, t)
	s := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			s.SetSym(i, j, 0.5*(m2.At(i, j)+m2.At(j, i)))
		}
	}
	return s
}

// meanInverse returns the regularised inverse of the mean of the
// Hessians hs (all in the same coordinates), or false if it has none.
func meanInverse(hs []sym) (sym, bool) {
	return meanSym(hs).inverse(eigFloor)
}

// transition returns L_old⁻¹ L_new (neither with a low-rank factor).
func transition(old, nw *whitening) transform {
	d := len(old.shift)
	if nw.lower == nil {
		t := make([]float64, d)
		for i := range d {
			t[i] = nw.diag[i] / old.diag[i]
		}
		return transform{v: t}
	}
	ln := mat.NewDense(d, d, nil)
	lo := mat.NewDense(d, d, nil)
	ln.Copy(nw.lower)
	lo.Copy(old.lower)
	var t mat.Dense
	if err := t.Solve(lo, ln); err != nil {
		t.Copy(ln)
	}
	return transform{m: &t}
}

// rewhiten returns the whitening by the regularised inverse of the
// curvature h (in w's coordinates) centred at w's shift, and that
// inverse. A curvature that cannot be inverted is a fault; a whitening
// that fails along a flat direction is ErrImproper (sample_flat.go).
func (e *chainEnv) rewhiten(w *whitening, h sym) (*whitening, sym, error) {
	inv, ok := h.inverse(eigFloor)
	if !ok {
		return nil, sym{}, e.fault(w, "the curvature")
	}
	nw, err := fromCov(w.shift, w.thetaCov(inv))
	if err != nil {
		if dir := flatDirection([]sym{h}, w); dir != nil {
			return nil, sym{}, improperError(dir, e.names)
		}
		return nil, sym{}, valid.Errorf(nil, "Sample: warmup: %w", err)
	}
	return nw, inv, nil
}
