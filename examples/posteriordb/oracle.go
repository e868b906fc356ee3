// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

// The oracle baseline (-oracle): every method run with settings chosen BY
// HAND from the reference posterior itself, which a user does not have. It
// stood in for sample.Run while sample.Run was being written, and remains
// as a comparison: when a sample.Run row misses the goal and the oracle row
// meets it, the adaptation is at fault, not the method. It can be deleted
// with its flag without touching anything else.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/rng"
)

// runOracle is a runner (see runMethod) with hand-set settings, on
// sgmcmc.RunChains: the target is whitened with the reference (θ = μ + L z,
// L Lᵀ the reference covariance), so that the posterior of z is close to
// N(0, I), the gradient noise of a batch of n is about V = N/n − 1 per
// coordinate in z (the per-datum scores have covariance ≈ the per-datum
// Fisher information), and one hand-set configuration per method serves
// every target; see tempConfig.
func runOracle(ctx context.Context, t *Target, method string, seed uint64, draws int) ([][][]float64, runInfo, error) {
	var info runInfo
	cm, err := newCountingModel(t.Model)
	if err != nil {
		return nil, info, err
	}
	d := cm.Dim()
	var chol mat.Cholesky
	if !chol.Factorize(t.refCovU) {
		return nil, info, fmt.Errorf("%s: reference covariance not positive definite", t.Name)
	}
	var l mat.TriDense
	chol.LTo(&l)
	lraw := l.RawTriangular()
	lrow := func(i int) []float64 { return lraw.Data[i*lraw.Stride : i*lraw.Stride+i+1] }
	mu := t.refMeanU
	batch := min(t.Batch, cm.Len())
	v := float64(cm.Len())/float64(batch) - 1
	cfg, err := tempConfig(method, v)
	if err != nil {
		return nil, info, err
	}
	if s := t.tempEpsScale; s > 0 {
		cfg.eps *= s
		cfg.time *= s
		cfg.thin = int(math.Ceil(float64(cfg.thin) / s))
	}
	// The chains start at the reference mean, dispersed by N(0, 2²I) in z:
	// the user's start is ignored, since from it the fixed step of the
	// whitened space can take very long to reach the typical set (from
	// σ = 1, β = 0 earnings' σ first shoots up, where β's curvature is
	// small). sample.Run must start from the user's start.
	z0 := make([]float64, d)
	burn := int(math.Ceil(20 / cfg.time))
	noise := make([]float64, d)
	for i := range noise {
		noise[i] = v
	}
	newSampler := func(c int, src rand.Source) (sgmcmc.Sampler, error) {
		mb, err := sgmcmc.NewMinibatch(cm, batch, false, rng.ChainSource(seed^0x6d696e69, c))
		if err != nil {
			return nil, err
		}
		g := &whitenedGrad{mb: mb, lrow: lrow, mu: mu, theta: make([]float64, d), g: make([]float64, d)}
		rng := rand.New(rng.ChainSource(seed^0x73746172, c))
		start := make([]float64, d)
		for i := range start {
			start[i] = z0[i] + 2*rng.NormFloat64()
		}
		return cfg.newSampler(g, start, src, noise)
	}
	res, runErr := sgmcmc.RunChains(ctx, numChains, seed, newSampler, sgmcmc.RunOptions{
		Draws: draws, BurnIn: burn, Thin: cfg.thin, Schedule: sgmcmc.Constant(cfg.eps),
	})
	cm.info(&info)
	out := make([][][]float64, len(res))
	for c, ch := range res {
		if ch == nil {
			continue
		}
		out[c] = make([][]float64, ch.Len())
		block := make([]float64, ch.Len()*d)
		for i := range ch.Len() {
			theta := block[i*d : (i+1)*d : (i+1)*d]
			z := ch.At(i)
			for r := range d {
				s := mu[r]
				for k, lv := range lrow(r) {
					s += lv * z[k]
				}
				theta[r] = s
			}
			out[c][i] = theta
		}
	}
	return out, info, runErr
}

// tempRun is a hand-set configuration of one method in whitened units.
type tempRun struct {
	eps  float64
	thin int
	// time is the time one step advances the dynamics in units of the
	// slowest relaxation (for the burn-in length).
	time       float64
	newSampler func(g sgmcmc.Gradient, z0 []float64, src rand.Source, noise []float64) (sgmcmc.Sampler, error)
}

// tempConfig returns the hand-set configuration of method for a whitened
// target whose gradient noise has variance about v per coordinate. The
// Recipe samplers get the B̂ correction with that v. HAMCMC and pSGLD have
// none: their step is cut to keep the excess heat εv/2 near 10 % at most
// where it can, and not below 0.01, so they run hot on the noisiest
// targets.
func tempConfig(method string, v float64) (tempRun, error) {
	const momentumEps = 0.1
	firstOrder := 0.04
	if v > 0 {
		firstOrder = min(firstOrder, 1/v)
	}
	switch method {
	case "SGLD":
		eps := firstOrder
		return tempRun{eps: eps, thin: int(math.Ceil(1 / eps)), time: eps,
			newSampler: func(g sgmcmc.Gradient, z0 []float64, src rand.Source, noise []float64) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGLD(g, z0, src, &sgmcmc.SGLDSettings{NoiseVar: noise})
			}}, nil
	case "SGHMC":
		const c = 2 // critical damping of a unit-curvature direction
		eps := momentumEps
		if v > 0 {
			eps = min(eps, c/v)
		}
		return tempRun{eps: eps, thin: int(math.Ceil(1 / eps)), time: eps,
			newSampler: func(g sgmcmc.Gradient, z0 []float64, src rand.Source, noise []float64) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGHMC(g, z0, src, &sgmcmc.SGHMCSettings{Friction: c, NoiseVar: noise})
			}}, nil
	case "SGNHT":
		const a = 2
		eps := momentumEps
		if v > 0 {
			eps = min(eps, a/v)
		}
		return tempRun{eps: eps, thin: int(math.Ceil(1 / eps)), time: eps,
			newSampler: func(g sgmcmc.Gradient, z0 []float64, src rand.Source, noise []float64) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGNHT(g, z0, src, &sgmcmc.SGNHTSettings{A: a, NoiseVar: noise})
			}}, nil
	case "gSGRHMC":
		// A constant metric G = g·I: SGHMC with friction 1/g and θ-speed
		// g^(−1/2) per unit momentum; g = 1/2 gives friction 2.
		const g = 0.5
		eps := 0.07
		if v > 0 {
			eps = min(eps, 1/v)
		}
		metric := sgmcmc.DiagMetricFunc(func(gd, dg, _ []float64) {
			for i := range gd {
				gd[i], dg[i] = g, 0
			}
		})
		return tempRun{eps: eps, thin: int(math.Ceil(1 / eps)), time: eps,
			newSampler: func(gr sgmcmc.Gradient, z0 []float64, src rand.Source, noise []float64) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGRHMC(gr, z0, metric, src, &sgmcmc.SGRHMCSettings{NoiseVar: noise})
			}}, nil
	case "HAMCMC":
		eps := 0.04
		if v > 0 {
			eps = max(min(eps, 0.2/v), 0.01)
		}
		return tempRun{eps: eps, thin: int(math.Ceil(0.25 / eps)), time: eps,
			newSampler: func(g sgmcmc.Gradient, z0 []float64, src rand.Source, _ []float64) (sgmcmc.Sampler, error) {
				return sgmcmc.NewHAMCMC(g, z0, src, &sgmcmc.HAMCMCSettings{M: 2, Gamma: 1, Lambda: 0.1})
			}}, nil
	case "pSGLD":
		// λ ten times the typical |∇Ũ| in z, so that G is nearly constant
		// (pSGLD reduces to SGLD with step εG, and dropping Γ costs little).
		lam := 10 * math.Sqrt(1+v)
		g0 := 1 / (lam + math.Sqrt(1+v))
		eps := 0.04
		if v > 0 {
			eps = max(min(eps, 0.2/v), 0.01)
		}
		return tempRun{eps: eps / g0, thin: int(math.Ceil(0.25 / eps)), time: eps,
			newSampler: func(g sgmcmc.Gradient, z0 []float64, src rand.Source, _ []float64) (sgmcmc.Sampler, error) {
				return sgmcmc.NewPSGLD(g, z0, src, &sgmcmc.PSGLDSettings{Lambda: lam, N: 1, DropGamma: true})
			}}, nil
	}
	return tempRun{}, fmt.Errorf("unknown method %q (have %v)", method, Methods)
}

// whitenedGrad is the stochastic gradient in z of a Minibatch in θ =
// μ + L z: ∇_z Ũ = Lᵀ ∇_θ Ũ. It keeps HAMCMC's pairs on one batch.
type whitenedGrad struct {
	mb       *sgmcmc.Minibatch
	lrow     func(i int) []float64
	mu       []float64
	theta, g []float64
}

func (w *whitenedGrad) toTheta(z []float64) {
	for r := range w.theta {
		s := w.mu[r]
		for k, lv := range w.lrow(r) {
			s += lv * z[k]
		}
		w.theta[r] = s
	}
}

func (w *whitenedGrad) toZ(dst []float64) {
	clear(dst)
	for r, gr := range w.g {
		for k, lv := range w.lrow(r) {
			dst[k] += lv * gr
		}
	}
}

// Grad draws a batch and writes ∇_z Ũ(z).
func (w *whitenedGrad) Grad(dst, z []float64) {
	w.toTheta(z)
	w.mb.Grad(w.g, w.theta)
	w.toZ(dst)
}

// NewBatch draws a batch for GradSameBatch.
func (w *whitenedGrad) NewBatch() { w.mb.NewBatch() }

// GradSameBatch writes ∇_z Ũ(z) on the last batch drawn.
func (w *whitenedGrad) GradSameBatch(dst, z []float64) {
	w.toTheta(z)
	w.mb.GradSameBatch(w.g, w.theta)
	w.toZ(dst)
}
