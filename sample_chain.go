// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
)

// chainOut is one chain's share of a Result.
type chainOut struct {
	chain            *Chain
	adapted          Adapted
	evals, warmEvals int64
	warnings         []string
}

// countModel counts per-datum likelihood-gradient evaluations.
type countModel struct {
	Model
	n *int64
}

func (m countModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	*m.n++
	m.Model.LogLikGrad(dst, theta, i, scale)
}

// countBatchModel is countModel for a BatchModel.
type countBatchModel struct {
	countModel
	bm BatchModel
}

func (m countBatchModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	*m.n += int64(len(idx))
	m.bm.LogLikGradBatch(dst, theta, idx, scale)
}

// countGrad counts calls of a Gradient, forwarding SameBatchGradient.
type countGrad struct {
	g  Gradient
	sb SameBatchGradient
	n  *int64
}

func (c *countGrad) Grad(dst, theta []float64) { *c.n++; c.g.Grad(dst, theta) }

func (c *countGrad) NewBatch() {
	if c.sb != nil {
		c.sb.NewBatch()
	}
}

func (c *countGrad) GradSameBatch(dst, theta []float64) {
	if c.sb == nil {
		c.Grad(dst, theta)
		return
	}
	*c.n++
	c.sb.GradSameBatch(dst, theta)
}

// chainEnv is one chain's gradient sources.
type chainEnv struct {
	d, N     int      // N = 0 without a Model
	count    int64    // evaluations so far
	fixed    Gradient // θ-space gradient on a fixed batch
	sampling func(n int) (Gradient, error)
	n0       int
	rng      *rand.Rand
	mbSeed   [2]uint64
}

func newChainEnv(c int, p Problem, d int, src rand.Source) (*chainEnv, error) {
	e := &chainEnv{d: d, rng: rand.New(rand.NewPCG(src.Uint64(), src.Uint64()))}
	mbSeed := [2]uint64{src.Uint64(), src.Uint64()}
	e.mbSeed = mbSeed
	if p.Model != nil {
		var m Model = countModel{Model: p.Model, n: &e.count}
		if bm, ok := p.Model.(BatchModel); ok {
			m = countBatchModel{countModel: countModel{Model: p.Model, n: &e.count}, bm: bm}
		}
		e.N = p.Model.Len()
		nh := min(e.N, max(100*d, 2000))
		fixedMB, err := NewMinibatch(m, nh, false, rand.NewPCG(mbSeed[0]^0x9e3779b97f4a7c15, mbSeed[1]))
		if err != nil {
			return nil, err
		}
		idx := append([]int(nil), fixedMB.Draw()...)
		e.fixed = GradFunc(func(dst, theta []float64) { fixedMB.GradOn(dst, theta, idx) })
		e.n0 = min(e.N, max(100, e.N/10))
		e.sampling = func(n int) (Gradient, error) {
			return NewMinibatch(m, n, false, rand.NewPCG(mbSeed[0], mbSeed[1]))
		}
		return e, nil
	}
	g, err := p.Gradient(c, rand.NewPCG(mbSeed[0], mbSeed[1]))
	if err != nil {
		return nil, errorf(nil, "Sample: the Problem's Gradient for chain %d: %w", c, err)
	}
	if g == nil {
		return nil, errorf(ErrNil, "Sample: the Problem's Gradient returned nil for chain %d", c)
	}
	cg := &countGrad{g: g, n: &e.count}
	cg.sb, _ = g.(SameBatchGradient)
	if cg.sb != nil {
		cg.sb.NewBatch()
		e.fixed = GradFunc(cg.GradSameBatch)
	} else {
		e.fixed = cg
	}
	e.sampling = func(int) (Gradient, error) { return cg, nil }
	return e, nil
}

// sampleChain runs chain c: warmup, then the frozen sampler.
func sampleChain(ctx context.Context, c int, p Problem, theta0 []float64, s *SampleSettings, ms methodSpec) (chainOut, error) {
	var out chainOut
	d := len(theta0)
	dense := d <= s.DenseMax
	src := ChainSource(s.Seed, c)
	e, err := newChainEnv(c, p, d, src)
	if err != nil {
		return out, err
	}
	out.adapted.Method = ms.name
	out.adapted.SamplerSeed = [2]uint64{src.Uint64(), src.Uint64()}
	out.adapted.MinibatchSeed = e.mbSeed
	// Dispersed start.
	start := make([]float64, d)
	for i, v := range theta0 {
		start[i] = v + s.StartScale*(2*e.rng.Float64()-1)
	}
	w, hs, err := e.newton(start, dense)
	if err != nil {
		return out, err
	}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	w, hs, err = e.windows(w, hs, dense)
	if err != nil {
		return out, err
	}
	a := &out.adapted
	a.Shift = w.shift
	if w.lower != nil {
		raw := w.lower.RawTriangular()
		a.Lower = make([]float64, d*d)
		for i := range d {
			copy(a.Lower[i*d:i*d+i+1], raw.Data[i*raw.Stride:i*raw.Stride+i+1])
		}
	} else {
		a.Diag = w.diag
	}
	// λ̂ and the curvature spread over the warmup points, by power
	// iteration on the whitened Hessians.
	// The spread is judged on the windows' points, inside the typical set;
	// λ̂ on every point, the Newton phase's end included.
	lamMax, lamMin, spreadMax := 0.0, math.Inf(1), 0.0
	for k, h := range hs {
		hm := h
		lamMax = math.Max(lamMax, powerIteration(func(dst, v []float64) { mulSym(dst, hm, v) }, d, 50, e.rng))
		if vals, _, ok := symEigen(h); ok {
			top := vals[len(vals)-1]
			lamMax = math.Max(lamMax, top)
			if k > 0 {
				lamMin = math.Min(lamMin, math.Max(vals[0], eigFloor*top))
				spreadMax = math.Max(spreadMax, top)
			}
		}
	}
	if !(lamMax > 0) || math.IsInf(lamMax, 0) {
		return out, errorf(ErrNonFinite, "Sample: warmup: no positive curvature found (λ̂ = %v)", lamMax)
	}
	a.LambdaMax = lamMax
	a.CurvatureSpread = spreadMax / lamMin
	if !(a.CurvatureSpread >= 1) {
		// A warmup point with no positive curvature at all (or none
		// measurable): the posterior is not log-concave there.
		a.CurvatureSpread = math.Inf(1)
	}
	if ms.momentum {
		a.Eps = ms.c / math.Sqrt(lamMax)
	} else {
		a.Eps = ms.c / lamMax
	}
	if err := e.chooseNoise(a, w, ms, s); err != nil {
		return out, err
	}
	out.warmEvals = e.count
	// The frozen sampler.
	g, err := e.sampling(max(a.BatchSize, 1))
	if err != nil {
		return out, err
	}
	smp, err := a.newSampler(g, ms)
	if err != nil {
		return out, err
	}
	thin := s.Thin
	tau := a.autocorrTime(ms)
	if thin == 0 {
		thin = max(1, int(math.Round(tau/4)))
	}
	a.Thin = thin
	a.BurnIn = max(100, int(3*tau))
	zc, runErr := Run(ctx, smp, RunOptions{Draws: s.Draws, Thin: thin, BurnIn: a.BurnIn, Schedule: Constant(a.Eps), Callback: s.Callback})
	out.evals = e.count
	var se *StepError
	if errors.As(runErr, &se) && se.Err == ErrNonFiniteGradient {
		// The gradient was finite at every warmup point: a non-finite value
		// at a point the frozen sampler reached is the sampler's doing.
		runErr = &StepError{Step: se.Step, Index: se.Index, Value: se.Value, Err: ErrDivergence,
			What: "non-finite gradient at a point the sampler reached (a divergence: the step is too large for this part of the posterior, or the model overflows there)"}
	}
	if zc != nil {
		out.chain = a.toTheta(zc)
	}
	return out, runErr
}

// autocorrTime is the predicted integrated autocorrelation time, in
// steps, of the slowest whitened direction.
func (a *Adapted) autocorrTime(ms methodSpec) float64 {
	lo := firstOrderLow
	if !ms.momentum {
		eps := a.Eps
		if a.Accumulator != nil {
			// pSGLD: the effective step is ε·G, smallest G sets the pace.
			gmin := math.Inf(1)
			for _, v := range a.Accumulator {
				gmin = math.Min(gmin, 1/(psgldLambda+math.Sqrt(v)))
			}
			eps *= gmin
		}
		if ms.name == "HAMCMC" {
			return hamcmcM * 2 / (eps * lo)
		}
		return 2 / (eps * lo)
	}
	c := math.Max(a.Friction, 0.5)
	return 2 * math.Max(c/lo, 1/c) / a.Eps
}

// hamcmcM is HAMCMC's memory in Sample.
const hamcmcM = 2

// newSampler builds the frozen sampler on the whitened gradient.
func (a *Adapted) newSampler(g Gradient, ms methodSpec) (Sampler, error) {
	aff, err := NewAffine(g, a.Shift, a.Lower, a.Diag)
	if err != nil {
		return nil, err
	}
	src := rand.NewPCG(a.SamplerSeed[0], a.SamplerSeed[1])
	z0 := make([]float64, len(a.Shift))
	switch ms.name {
	case "SGLD":
		return NewSGLD(aff, z0, src, &SGLDSettings{NoiseVar: a.NoiseVar})
	case "SGHMC":
		return NewSGHMC(aff, z0, src, &SGHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar})
	case "SGNHT":
		return NewSGNHT(aff, z0, src, &SGNHTSettings{A: a.Friction, NoiseVar: a.NoiseVar})
	case "gSGRHMC":
		one := DiagMetricFunc(func(g, dg, _ []float64) {
			for i := range g {
				g[i], dg[i] = 1, 0
			}
		})
		return NewSGRHMC(aff, z0, one, src, &SGRHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar})
	case "HAMCMC":
		return NewHAMCMC(aff, z0, src, &HAMCMCSettings{M: hamcmcM, Gamma: 1, MinPairCurvature: 0.2})
	case "pSGLD":
		return NewPSGLD(aff, z0, src, &PSGLDSettings{V0: a.Accumulator, Freeze: true, Lambda: psgldLambda, N: 1})
	}
	return nil, errorf(ErrUnsupported, "Sample: unknown method %q", ms.name)
}

// toTheta maps a chain of z draws to θ.
func (a *Adapted) toTheta(zc *Chain) *Chain {
	aff, _ := NewAffine(GradFunc(func([]float64, []float64) {}), a.Shift, a.Lower, a.Diag)
	c := &Chain{Dim: zc.Dim, Draws: make([]float64, len(zc.Draws)), Eps: zc.Eps, Steps: zc.Steps, Divergent: zc.Divergent, Divergences: zc.Divergences}
	for i := range zc.Len() {
		aff.ToTheta(c.At(i), zc.At(i))
	}
	return c
}
