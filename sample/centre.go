// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/floats"
)

// P3 of warmup (doc.go lists the phases): the centre of the chain's
// control variate, its own full-data mode θ̂, found by limited-memory BFGS
// on full-data gradients in the warmup's whitened coordinates, its initial
// inverse Hessian the fixed batch's averaged inverse curvature, one or two
// full passes over the data per iteration (doc/adaptation.md §2.3). The
// first step is the Newton step of the fixed batch's curvature; the
// pairs of full gradients then correct that curvature along the
// directions it got wrong (rare features the fixed batch barely holds,
// correlations a diagonal curvature leaves out, the curvature of a
// heavy-tailed likelihood moving with θ), which a Newton iteration with
// the fixed batch's curvature corrects only by √(d/n_fixed) a pass. Its
// constants are in constants.go.

// centre finds the chain's control-variate centre from the whitening w and
// the warmup Hessians hs (in w's coordinates), starting at w's shift, and
// sets e.center, e.cgrad, e.passes, e.centreStep (the last quasi-Newton
// step, in whitened units: the distance left to the mode as the search
// measures it) and e.centred (whether that step is within centreTol).
// A search that does not converge keeps its last point and its step
// (chooseBatch probes the noise where that step leads, and Run warns).
//
// With from (the run's shared centre, share.go), the search starts there,
// its full gradient known, when the chain's warmup settled in its basin.
func (e *chainEnv) centre(w *whitening, hs []sym, from *sharedCentre) error {
	d := e.d
	e.centred, e.centreStep = false, math.Inf(1)
	inv, ok := meanInverse(hs)
	if !ok {
		return nil // no usable curvature: plain minibatches
	}
	if inv.m == nil {
		// A diagonal curvature misses the directions that cut across
		// coordinates (an intercept shared by every row); the low-rank
		// factor of the fixed batch's curvature restores the farthest of
		// them, and in its coordinates H⁰ = I.
		if lw := e.withLowRank(w); lw != w {
			w, inv = lw, sym{v: ones(d)}
		}
	}
	pass := fullpass.New(e.model)
	lik := make([]float64, d)
	var known []float64 // the log-likelihood gradient at the next point asked for, when known
	full := sgmcmc.GradFunc(func(dst, theta []float64) {
		if known != nil {
			copy(lik, known)
		} else {
			pass.Grad(lik, theta)
		}
		clear(dst)
		e.model.LogPriorGrad(dst, theta)
		for j, v := range lik {
			dst[j] = -(dst[j] + v)
		}
	})
	aff, err := w.affine(full)
	if err != nil {
		return err
	}
	// grad evaluates the whitened gradient at z into g, the
	// log-likelihood gradient into l, and says whether g is finite.
	grad := func(g, l, z []float64) bool {
		t0 := time.Now()
		aff.Grad(g, z)
		e.setupSecs += time.Since(t0).Seconds()
		copy(l, lik)
		if known == nil {
			e.passes++
		}
		known = nil
		return valid.FirstNonFinite(g) < 0
	}
	z, g, l := make([]float64, d), make([]float64, d), make([]float64, d)
	if from != nil && e.sameBasin(w, from.center) {
		z, known = w.toZ(from.center), from.lik
	}
	zn, gn, ln := make([]float64, d), make([]float64, d), make([]float64, d)
	p, y := make([]float64, d), make([]float64, d)
	q := newQuasiNewton(inv, centreMemory)
	if !grad(g, l, z) {
		return nil // not finite where warmup ended: plain minibatches
	}
	// A step is at most the trust radius of P1, a few times the typical
	// set's radius, or twice the distance at which the fixed batch's mode
	// lies from the full data's, √(d·N/n_fixed) whitened units (each
	// coordinate of the batch's mode off by √(N/n_fixed) of the full
	// posterior's sds): with the first only, the search from the fixed
	// batch's mode took a pass or two for every 16 sds of the way, 22
	// passes at N = 10⁷ and the 30-pass cap short of the mode at 10⁸.
	radius := newtonRadius*math.Sqrt(float64(d)) + newtonRadius
	if e.nFixed > 0 && e.N > e.nFixed {
		radius = math.Max(radius, centreReach*math.Sqrt(float64(d)*float64(e.N)/float64(e.nFixed)))
	}
	for {
		q.mulH(p, g)
		floats.Scale(-1, p)
		d0 := floats.Dot(g, p)
		if !(d0 < 0) { // the pairs made H indefinite along g: start again from H⁰
			q.reset()
			q.mulH(p, g)
			floats.Scale(-1, p)
			d0 = floats.Dot(g, p)
		}
		e.centreStep = floats.Norm(p, 2)
		if e.centreStep <= centreTol {
			e.centred = true
			break
		}
		if e.passes >= centreMaxPasses || !(d0 < 0) {
			break
		}
		if err := e.ctx.Err(); err != nil {
			return err
		}
		alpha := math.Min(1, radius/e.centreStep)
		moved := false
		for e.passes < centreMaxPasses {
			floats.AddScaledTo(zn, z, alpha, p)
			if !grad(gn, ln, zn) {
				alpha /= 4 // not finite there: a shorter step
				continue
			}
			d1 := floats.Dot(gn, p)
			if d1 > -centreCurvature*d0 && e.passes < centreMaxPasses {
				// Past the minimum along p: the secant of the directional
				// derivative, exact for a quadratic, gives the step to it.
				alpha *= d0 / (d0 - d1)
				floats.AddScaledTo(zn, z, alpha, p)
				if !grad(gn, ln, zn) {
					alpha /= 4
					continue
				}
			}
			moved = true
			break
		}
		if !moved {
			break
		}
		// The curvature pair of the step taken, then move.
		floats.SubTo(y, gn, g)
		floats.Scale(alpha, p)
		q.push(p, y)
		z, zn = zn, z
		g, gn = gn, g
		l, ln = ln, l
	}
	e.center = w.toTheta(z)
	e.cgrad = l
	if !e.centred && !(e.centreStep <= centreGuessMax) {
		// The quasi-Newton step is no estimate of where the mode is (a
		// posterior far from Gaussian here): the noise is probed around
		// the centre itself. (Dropping the centre for plain minibatches
		// left a chain of a hidden Markov model at a mode 63 nats light,
		// where the control variate's chain had moved on.)
		return nil
	}
	floats.Add(p, z)
	e.modeGuess = w.toTheta(p)
	return nil
}

// quasiNewton is the limited-memory BFGS inverse Hessian H of the centre
// search (Nocedal & Wright 2006, Algorithm 7.4): the two-loop recursion
// over the last mem curvature pairs (s, y) on the initial H⁰ = h0, here
// the fixed batch's inverse curvature rather than a multiple of I (the
// samplers' internal/lbfgs fixes H⁰ = γI for its product forms).
type quasiNewton struct {
	h0       sym
	mem      int
	s, y     [][]float64
	rho, alf []float64
	r        []float64 // the two-loop's work vector
}

func newQuasiNewton(h0 sym, mem int) *quasiNewton {
	return &quasiNewton{h0: h0, mem: mem, alf: make([]float64, mem)}
}

// reset forgets the pairs: H = H⁰.
func (q *quasiNewton) reset() { q.s, q.y, q.rho = q.s[:0], q.y[:0], q.rho[:0] }

// push adds the pair (s, y) if its curvature sᵀy is positive (a
// non-convex stretch gives none, and is left out), dropping the oldest
// beyond the memory.
func (q *quasiNewton) push(s, y []float64) {
	sy := floats.Dot(s, y)
	if !(sy > 0) || math.IsInf(sy, 0) {
		return
	}
	if len(q.s) == q.mem {
		q.s, q.y, q.rho = slices.Delete(q.s, 0, 1), slices.Delete(q.y, 0, 1), slices.Delete(q.rho, 0, 1)
	}
	q.s = append(q.s, append([]float64(nil), s...))
	q.y = append(q.y, append([]float64(nil), y...))
	q.rho = append(q.rho, 1/sy)
}

// mulH writes H·v into dst.
func (q *quasiNewton) mulH(dst, v []float64) {
	q.r = append(q.r[:0], v...)
	r := q.r
	for k := len(q.s) - 1; k >= 0; k-- {
		q.alf[k] = q.rho[k] * floats.Dot(q.s[k], r)
		floats.AddScaled(r, -q.alf[k], q.y[k])
	}
	q.h0.mulVec(dst, r)
	for k := range q.s {
		b := q.rho[k] * floats.Dot(q.y[k], dst)
		floats.AddScaled(dst, q.alf[k]-b, q.s[k])
	}
}

// probePoints returns k points of the full posterior's typical set in the
// whitened coordinates of w, N(ẑ, I) around the centre ẑ — around the
// mode as the centre search last estimated it, its centre plus its last
// quasi-Newton step, if the search did not converge: the chains sample
// there, and the control variate's noise grows with the distance from
// its centre. (When the
// windows ran on the fixed batch, the warmup's shift, z = 0, is in the
// typical set of the fixed batch's posterior, which at large N lies
// √(N/n_fixed) standard deviations from the full posterior's: probed
// there, the control variate's noise would grow with N.)
func (e *chainEnv) probePoints(w *whitening, k int) [][]float64 {
	zc := w.toZ(e.center)
	if !e.centred && e.modeGuess != nil {
		zc = w.toZ(e.modeGuess)
	}
	pts := make([][]float64, k)
	for i := range pts {
		pts[i] = make([]float64, e.d)
		for j := range pts[i] {
			pts[i][j] = zc[j] + e.rng.NormFloat64()
		}
	}
	return pts
}

// cvSampling returns the chain's control-variate gradient of batch size n.
func (e *chainEnv) cvSampling(n int) (sgmcmc.Gradient, error) { return e.controlVariate(n, 0) }

// controlVariate returns the chain's control variate of batch size n,
// its batches drawn from the minibatch seed with salt xored into its
// first word.
func (e *chainEnv) controlVariate(n int, salt uint64) (sgmcmc.Gradient, error) {
	return sgmcmc.NewControlVariate(e.counted, e.center, n, false, rand.NewPCG(e.mbSeed[0]^salt, e.mbSeed[1]),
		&sgmcmc.ControlVariateSettings{CenterGrad: e.cgrad})
}

// chooseWindowGrad sets the Langevin windows' gradient to the control
// variate when a batch small enough to be cheaper than the fixed batch
// keeps the windows' excess temperature windowEps·V/2 (V the largest
// whitened noise variance, probed around the centre) below windowMaxHeat.
// The windows then move in the full posterior rather than the fixed
// batch's, whose typical set lies √(N/n_fixed) standard deviations away.
func (e *chainEnv) chooseWindowGrad(w *whitening) error {
	n := min(e.N, max(cvFirstBatch, windowBatchPerDim*e.d))
	if cvCost*n >= e.nFixed {
		return nil
	}
	sampling := func(n int) (sgmcmc.Gradient, error) { return e.controlVariate(n, windowBatchSeed) }
	v, err := e.probe(sampling, n, w, e.probePoints(w, cvProbePoints))
	if err != nil {
		return err
	}
	heat := windowEps * noiseOf(v, w).worstQ / 2
	if heat > windowMaxHeat {
		// The noise falls as 1/n: the batch that meets the bound.
		n = int(math.Ceil(float64(n) * heat / windowMaxHeat))
		if cvCost*n >= e.nFixed || n > e.N {
			return nil
		}
	}
	e.windowGrad, err = sampling(n)
	return err
}
