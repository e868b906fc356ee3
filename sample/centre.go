// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/floats"
)

// P3 of warmup (doc.go lists the phases): the centre of the chain's
// control variate, its own full-data mode θ̂, found by Newton iterations in
// the warmup's whitened coordinates with the fixed batch's averaged
// Hessian, one full pass over the data per iteration (doc/adaptation.md
// §2.3). The fixed batch's curvature is the full data's within
// O(√(d/n_fixed)), so each pass shrinks the distance to the mode by about
// that factor. Its constants are in constants.go.

// centre finds the chain's control-variate centre from the whitening w and
// the warmup Hessians hs (in w's coordinates), starting at w's shift, and
// sets e.center, e.cgrad, e.passes and e.centred (whether the search
// converged). A search that does not converge keeps its best
// point: the control variate is unbiased wherever it is centred, and the
// noise probe decides whether it is worth using.
func (e *chainEnv) centre(w *whitening, hs []sym) error {
	d := e.d
	e.centred, e.centreStep = false, math.Inf(1)
	inv, ok := meanInverse(hs)
	if !ok {
		return nil // no usable curvature: plain minibatches
	}
	pass := fullpass.New(e.model)
	lik := make([]float64, d)
	full := sgmcmc.GradFunc(func(dst, theta []float64) {
		pass.Grad(lik, theta)
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
	z, g, step := make([]float64, d), make([]float64, d), make([]float64, d)
	best, bestG, bestLik := make([]float64, d), make([]float64, d), make([]float64, d)
	bestNorm := math.Inf(1)
	scale := 1.0 // the Newton step's length, quartered after a step that did not help
	for e.passes < centreMaxPasses {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		aff.Grad(g, z)
		e.passes++
		gn := floats.Norm(g, 2)
		if valid.FirstNonFinite(g) >= 0 {
			gn = math.Inf(1)
		}
		if gn < bestNorm {
			bestNorm = gn
			copy(best, z)
			copy(bestG, g)
			copy(bestLik, lik)
			scale = 1
		} else {
			scale /= 4 // back to the best point, with a shorter step
		}
		if math.IsInf(bestNorm, 1) {
			return nil // not finite at the warmup's end: plain minibatches
		}
		inv.mulVec(step, bestG)
		e.centreStep = scale * floats.Norm(step, 2)
		if e.centreStep <= centreTol {
			e.centred = true
			break
		}
		copy(z, best)
		floats.AddScaled(z, -scale, step)
	}
	e.center = w.toTheta(best)
	e.cgrad = bestLik
	return nil
}

// probePoints returns k points of the full posterior's typical set in the
// whitened coordinates of w, N(ẑ, I) around the centre ẑ. (When the
// windows ran on the fixed batch, the warmup's shift, z = 0, is in the
// typical set of the fixed batch's posterior, which at large N lies
// √(N/n_fixed) standard deviations from the full posterior's: probed
// there, the control variate's noise would grow with N.)
func (e *chainEnv) probePoints(w *whitening, k int) [][]float64 {
	zc := w.toZ(e.center)
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
