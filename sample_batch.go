// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
)

// chooseNoise probes the gradient noise at the end of warmup and sets
// the batch size, B̂, the friction and the heat estimate.
func (e *chainEnv) chooseNoise(a *Adapted, w *whitening, ms methodSpec, s *SampleSettings) error {
	d := e.d
	n0 := e.n0
	if s.BatchSize > 0 {
		n0 = s.BatchSize
	}
	g, err := e.sampling(max(n0, 1))
	if err != nil {
		return err
	}
	aff, err := w.affine(g)
	if err != nil {
		return err
	}
	z := make([]float64, d)
	cv := newCovariance(d)
	buf := make([]float64, d)
	draws := min(max(probeDraws, 4*d), maxProbeDraws)
	for range draws {
		aff.Grad(buf, z)
		cv.add(buf)
	}
	v0 := cv.cov()
	if firstNonFinite(v0.RawSymmetric().Data) >= 0 {
		return errorf(ErrNonFinite, "Sample: warmup: the gradient-noise estimate is not finite")
	}
	diag0 := make([]float64, d)
	var maxDiag0 float64
	for i := range d {
		diag0[i] = v0.At(i, i)
		maxDiag0 = math.Max(maxDiag0, diag0[i])
	}
	// The heat is judged along the directions the user reads the draws in:
	// the whitened axes z_j and the parameters θ_k = shift_k + ℓ_kᵀz (ℓ_k
	// row k of L). Along a unit u the gradient noise is uᵀVu, estimated by
	// uᵀV̂u with relative error √(2/(R − 1)) whatever d is (the spectral
	// norm of V̂ would be dominated by its sampling noise when R ≈ d).
	// With a diagonal B̂ = diag V̂ what remains along u is uᵀ(V̂ − diag V̂)u,
	// plus the diagonal estimate's own error.
	r1 := float64(draws - 1)
	worstQ, worstOff := maxDiag0, 0.0
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
			worstQ = math.Max(worstQ, q/nn)
			worstOff = math.Max(worstOff, math.Abs(q-dq)/nn)
		}
	}
	resid0 := worstQ
	if ms.bhat {
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
		fric = 1
		switch ms.name {
		case "SGNHT":
			fric = 0.5
		}
		if ms.momentum && ms.bhat {
			// 2C − εB̂ ≥ C: the friction absorbs the correction.
			fric = math.Max(fric, a.Eps*f*maxDiag0)
		}
		if !ms.momentum && ms.bhat && a.Eps*f*maxDiag0 > 1 {
			return math.Inf(1), fric // SGLD's 2 − εB̂ would lose more than half the noise
		}
		c := fric
		if !ms.momentum {
			c = 1
		}
		// B̂ is estimated at one point, and the noise varies over the
		// posterior (per-datum gradients of scale parameters are heavy
		// tailed): on earnings a chain whose B̂ should have cancelled all
		// but 2.4 % ran twice too hot. So B̂ is applied but given no credit:
		// the heat counted is the uncorrected one.
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
	if !ms.momentum {
		a.Friction = 0
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
	if ms.bhat && f > 0 {
		a.NoiseVar = make([]float64, d)
		for i, v := range diag0 {
			a.NoiseVar[i] = f * v
		}
	}
	if ms.name == "pSGLD" {
		return e.adaptPSGLD(a, w, n)
	}
	return nil
}

// uncorrectedShare: Sample's heat check counts the gradient noise before
// B̂ at 1/uncorrectedShare of its size (see chooseNoise); 1 trusts B̂ with
// nothing.
const uncorrectedShare = 1

// adaptPSGLD runs pSGLD's RMSprop accumulator over warmup steps at the
// chosen batch and freezes it; ε is rescaled to the preconditioned
// curvature.
func (e *chainEnv) adaptPSGLD(a *Adapted, w *whitening, n int) error {
	g, err := e.sampling(max(n, 1))
	if err != nil {
		return err
	}
	aff, err := w.affine(g)
	if err != nil {
		return err
	}
	N := float64(max(e.N, 1))
	p, err := NewPSGLD(aff, make([]float64, e.d), rand.NewPCG(e.rng.Uint64(), e.rng.Uint64()), &PSGLDSettings{DropGamma: true, N: N, Lambda: psgldLambda})
	if err != nil {
		return err
	}
	for range 200 {
		// Only v matters here: a tiny step keeps θ near the adapted point.
		if err := p.Step(1e-12); err != nil {
			return err
		}
	}
	a.Accumulator = make([]float64, e.d)
	p.Accumulator(a.Accumulator)
	var gmax float64
	for _, v := range a.Accumulator {
		gmax = math.Max(gmax, 1/(psgldLambda+math.Sqrt(v)))
	}
	a.Eps /= gmax
	return nil
}

// psgldLambda is pSGLD's λ for Sample: in whitened coordinates the mean
// per-datum gradient is of order 1/N, so λ must be smaller than that.
const psgldLambda = 1e-12
