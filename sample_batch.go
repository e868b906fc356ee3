// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
)

// chooseBatch probes the gradient noise at the end of warmup and sets the
// batch size, B̂, the friction and the heat estimate (doc/equations.md
// §13.3) by the method's rules r.
func (e *chainEnv) chooseBatch(a *Adapted, w *whitening, r MethodRules, s *SampleSettings) error {
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
	draws := min(max(probeDraws, probePerDim*d), maxProbeDraws)
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
