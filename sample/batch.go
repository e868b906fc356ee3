// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"errors"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// chooseBatch probes the gradient noise at the end of warmup and sets the
// gradient estimator (a control variate or plain minibatches), the batch
// size, B̂, the friction and the heat estimate (P6: doc/equations.md
// §13.3, doc/adaptation.md §2.6) by the method's rules r.
func (e *chainEnv) chooseBatch(a *Adapted, w *whitening, r Rules, s *Settings) error {
	d := e.d
	n0 := e.n0
	if s.BatchSize > 0 {
		n0 = s.BatchSize
	}
	var v0 *sym
	if e.center != nil {
		// The control variate's noise grows as ‖θ − θ̂‖²: probe both
		// estimators at the same points of the typical set, at the same
		// batch size, and take the control variate if the batch it needs
		// to keep the heat within bound, at twice the cost per item, is
		// cheaper than the plain minibatch's.
		nc := min(e.N, cvFirstBatch)
		if s.BatchSize > 0 {
			nc = s.BatchSize
		}
		pts := e.probePoints(w, cvProbePoints)
		vc, err := e.probe(e.cvSampling, nc, w, pts)
		cvOK := err == nil
		if err != nil && !errors.Is(err, sgmcmc.ErrNonFinite) {
			return err
		}
		vp, err := e.probe(e.sampling, nc, w, pts)
		if err != nil && !(cvOK || errors.Is(err, sgmcmc.ErrNonFinite)) {
			return err
		}
		// A probe that met a non-finite gradient at the probe points (the
		// control variate's around an unconverged centre) leaves its
		// estimator out; plain minibatches are probed again below, where
		// the windows ended.
		if cvOK && (err != nil || cvCost*e.batchFor(noiseOf(vc, w).worstQ, nc, a.Eps, r, s) < e.batchFor(noiseOf(vp, w).worstQ, nc, a.Eps, r, s)) {
			e.sampling, n0, v0 = e.cvSampling, nc, &vc
			a.Center, a.CenterGrad = e.center, e.cgrad
		}
	}
	a.SetupPasses, a.SetupSeconds = e.passes, e.setupSecs
	if e.passes > 0 || e.centred {
		a.CenterStep = e.centreStep
	}
	if v0 == nil {
		v, err := e.probe(e.sampling, n0, w, nil)
		if err != nil {
			return err
		}
		v0 = &v
	}
	nz := noiseOf(*v0, w)
	diag0, maxDiag0, worstQ, worstOff := nz.diag, nz.maxDiag, nz.worstQ, nz.worstOff
	r1 := float64(nz.draws - 1)
	resid0 := worstQ
	if r.NoiseCorrection {
		resid0 = worstOff + maxDiag0*math.Sqrt(2/r1)
	}
	// V(n) = V(n₀)·(n₀/n)·(1 − n/N)/(1 − n₀/N), without replacement.
	scale := func(n int) float64 {
		if e.N == 0 {
			return 1
		}
		if n >= e.N {
			return 0
		}
		if n0 >= e.N {
			return 0
		}
		return float64(n0) / float64(n) * (1 - float64(n)/float64(e.N)) / (1 - float64(n0)/float64(e.N))
	}
	heat := func(n int) (h, fric float64) {
		f := scale(n)
		c := 1.0 // the friction in the heat εV/(2C); 1 for first-order methods
		if r.Momentum {
			fric = r.MinFriction
			if r.NoiseCorrection {
				// 2C − εB̂ ≥ C: the friction absorbs the correction.
				fric = math.Max(fric, a.Eps*f*maxDiag0)
			}
			c = fric
		}
		if !r.Momentum && r.NoiseCorrection && a.Eps*f*maxDiag0 > 1 {
			return math.Inf(1), fric // SGLD's 2 − εB̂ would lose more than half the noise
		}
		// B̂ is estimated at one point, and the noise varies over the
		// posterior (per-datum gradients of scale parameters are heavy
		// tailed): on a regression with a scale parameter a chain whose B̂
		// should have cancelled all but 2.4 % ran twice too hot. So B̂ is
		// applied but given no credit: the heat counted is the uncorrected
		// one.
		return math.Max(a.Eps*f*resid0, a.Eps*f*worstQ/uncorrectedShare) / (2 * c), fric
	}
	n := n0
	if e.N > 0 && s.BatchSize == 0 {
		for h, _ := heat(n); h > s.MaxHeat && n < e.N; h, _ = heat(n) {
			n = min(2*n, e.N)
		}
	}
	if e.N > 0 {
		a.BatchSize = n
	}
	a.Heat, a.Friction = heat(n)
	if s.BatchSize > 0 && a.Heat > s.MaxHeat {
		// The batch cannot be raised: shrink the step until the heat is
		// within bound at the smallest friction, rather than raise the
		// friction past the range where the integrator is stable.
		f := scale(n)
		c := 1.0
		if r.Momentum {
			c = math.Max(r.MinFriction, autocorrMinFriction)
		}
		if q := f * math.Max(resid0, worstQ/uncorrectedShare); q > 0 {
			if shrink := a.Eps * q / (2 * s.MaxHeat * c); shrink > maxNoiseShrink {
				// Not a step any run could afford: the noise is the cause.
				need := int(math.Ceil(e.batchFor(worstQ, n0, a.Eps, r, s)))
				return valid.Errorf(sgmcmc.ErrRange, "Sample: gradient noise: at BatchSize = %d it would heat the chain by %.3g%% (MaxHeat %.0f%%) at the step the curvature allows; keeping within MaxHeat would take a step %.3g times smaller and as many times more steps per draw; raise BatchSize (about %d keeps the heat within bound) or leave it 0 for Sample to choose",
					n, 100*shrink*s.MaxHeat, 100*s.MaxHeat, shrink, need)
			}
			a.Eps = math.Min(a.Eps, 2*s.MaxHeat*c/q)
		}
		a.Heat, a.Friction = heat(n)
	}
	if r.Momentum && a.Eps*a.Friction > maxEpsFriction {
		// A large friction (a MinFriction, or one raised to absorb B̂)
		// would make the momentum's damping factor 1 − εC overshoot: shrink
		// the step instead. The friction only falls with ε, so one pass
		// suffices.
		a.Eps = maxEpsFriction / a.Friction
		a.Heat, a.Friction = heat(n)
	}
	f := scale(n)
	a.NoiseScale = 0
	for _, v := range diag0 {
		a.NoiseScale += f * v / float64(d)
	}
	if a.Friction > 0 {
		a.NoiseScale *= a.Eps / (2 * a.Friction)
	} else {
		a.NoiseScale *= a.Eps / 2
	}
	if r.NoiseCorrection && f > 0 {
		a.NoiseVar = make([]float64, d)
		for i, v := range diag0 {
			a.NoiseVar[i] = f * v
		}
	}
	return nil
}

// batchFor is the batch, as a real number, whose noise along the worst
// direction keeps the excess temperature εV/(2C) (doc/equations.md §13.3)
// at MaxHeat, from the noise q measured at batch size nc, with V(n) =
// V(nc)·(nc/n)(1 − n/N)/(1 − nc/N) (without replacement) and C the
// method's smallest friction (1 without momentum). At most N.
func (e *chainEnv) batchFor(q float64, nc int, eps float64, r Rules, s *Settings) float64 {
	c := 1.0
	if r.Momentum {
		c = math.Max(r.MinFriction, autocorrMinFriction)
	}
	qmax := 2 * s.MaxHeat * c / eps // the noise the heat bound allows
	fN, fc := float64(e.N), float64(nc)
	if nc >= e.N || q <= 0 {
		return fc
	}
	return fN / (1 + fN*qmax*(1-fc/fN)/(q*fc))
}

// probe estimates the covariance of the whitened gradient noise of
// sampling's estimator at batch size n: from repeated draws at z = 0 when
// pts is nil, and otherwise averaged over the points pts, an equal share
// of the draws at each.
func (e *chainEnv) probe(sampling func(int) (sgmcmc.Gradient, error), n int, w *whitening, pts [][]float64) (sym, error) {
	d := e.d
	dense := w.lower != nil
	g, err := sampling(max(n, 1))
	if err != nil {
		return sym{}, err
	}
	aff, err := w.affine(g)
	if err != nil {
		return sym{}, err
	}
	buf := make([]float64, d)
	draws := probeDrawsFor(d, dense)
	var v sym
	if pts == nil {
		z := make([]float64, d)
		cv := newCovariance(d, dense)
		for range draws {
			aff.Grad(buf, z)
			cv.add(buf)
		}
		v = cv.cov()
	} else {
		per := max(2, draws/len(pts))
		var sum []sym
		for _, z := range pts {
			cv := newCovariance(d, dense)
			for range per {
				aff.Grad(buf, z)
				cv.add(buf)
			}
			sum = append(sum, cv.cov())
		}
		v = meanSym(sum)
	}
	if !v.finite() {
		return sym{}, valid.Errorf(sgmcmc.ErrNonFinite, "Sample: warmup: the gradient-noise estimate is not finite%s", e.blame(w.shift))
	}
	return v, nil
}

// probeDrawsFor is the number of gradients a noise probe draws at
// dimension d: on the large-d path (not dense) probeDraws, since it
// estimates only diag V, each entry to √(2/(probeDraws − 1)) = 9 %
// whatever d is (doc/adaptation.md §4).
func probeDrawsFor(d int, dense bool) int {
	if !dense {
		return probeDraws
	}
	return min(max(probeDraws, probePerDim*d), maxProbeDraws)
}

// noise is what the heat check reads of a noise covariance V.
type noise struct {
	diag             []float64 // diag V
	maxDiag          float64
	worstQ, worstOff float64 // max of uᵀVu and of uᵀ(V − diag V)u over the directions read
	draws            int     // draws behind the estimate
}

// noiseOf reads V along the directions the user reads the draws in: the
// whitened axes z_j and the parameters θ_k = shift_k + ℓ_kᵀz (ℓ_k row k of
// L). Along a unit u the gradient noise is uᵀVu, estimated by uᵀV̂u with
// relative error √(2/(R − 1)) whatever d is (the spectral norm of V̂ would
// be dominated by its sampling noise when R ≈ d). With a diagonal
// B̂ = diag V̂ what remains along u is uᵀ(V̂ − diag V̂)u, plus the diagonal
// estimate's own error.
func noiseOf(s sym, w *whitening) noise {
	d := s.dim()
	nz := noise{diag: make([]float64, d), draws: probeDrawsFor(d, s.m != nil)}
	if s.m == nil {
		for i, v := range s.v {
			nz.diag[i] = v
			nz.maxDiag = math.Max(nz.maxDiag, v)
		}
		nz.worstQ = nz.maxDiag
		return nz
	}
	v0 := s.m
	for i := range d {
		nz.diag[i] = v0.At(i, i)
		nz.maxDiag = math.Max(nz.maxDiag, nz.diag[i])
	}
	nz.worstQ = nz.maxDiag
	if w.lower != nil {
		raw := w.lower.RawTriangular()
		for k := range d {
			l := raw.Data[k*raw.Stride : k*raw.Stride+k+1]
			var q, dq, nn float64
			for i, li := range l {
				nn += li * li
				dq += li * li * v0.At(i, i)
				for j, lj := range l {
					q += li * lj * v0.At(i, j)
				}
			}
			nz.worstQ = math.Max(nz.worstQ, q/nn)
			nz.worstOff = math.Max(nz.worstOff, math.Abs(q-dq)/nn)
		}
	}
	return nz
}
