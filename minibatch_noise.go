// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

func (b *Minibatch) gradNoise(dst, theta []float64, idx []int, scale float64) {
	d := len(dst)
	if len(b.gi) != d {
		b.gi = make([]float64, d)
	}
	b.noise.reset(d)
	m := b.model
	for k, i := range idx {
		clear(b.gi)
		m.LogLikGrad(b.gi, theta, i, 1)
		b.noise.add(k, b.gi, dst, scale)
	}
	b.noise.finish(len(idx), m.Len(), b.replace)
}

// noiseAcc estimates the diagonal of the covariance of N times the mean of
// a batch's per-datum terms g_i (gradients for a Minibatch, differences
// for a ControlVariate) from the batch itself: the SGFS estimate of
// doc/equations.md §7.2. The mean and the sum of squared deviations M2 are
// kept by Welford's update: no cancellation between Σg² and n·ḡ².
type noiseAcc struct{ mean, m2, v []float64 }

// reset starts a batch of d-vectors.
func (a *noiseAcc) reset(d int) {
	if len(a.v) != d {
		a.mean, a.m2, a.v = make([]float64, d), make([]float64, d), make([]float64, d)
	}
	clear(a.mean)
	clear(a.m2)
}

// add takes the term g of the k-th item (from 0) and adds scale·g to dst.
func (a *noiseAcc) add(k int, g, dst []float64, scale float64) {
	w := 1 / float64(k+1)
	for j, x := range g {
		dev := x - a.mean[j]
		a.mean[j] += dev * w
		a.m2[j] += dev * (x - a.mean[j])
		dst[j] += scale * x
	}
}

// finish sets v to the estimate for a batch of n of N items.
func (a *noiseAcc) finish(n, N int, replace bool) {
	fn, fN := float64(n), float64(N)
	// Var(N·ḡ) = (N²/n)·S², times the finite-population correction 1 − n/N
	// when the batch is drawn without replacement; s² is unbiased for S².
	c := fN * fN / fn
	if !replace {
		c *= 1 - fn/fN
	}
	for j := range a.v {
		if n < 2 {
			a.v[j] = 0
			continue
		}
		a.v[j] = max(c*(a.m2[j]/(fn-1)), 0)
	}
}

// CanEstimateNoise reports whether NoiseVar gives an estimate: Noise must
// be set and the batch must hold at least two items (NoiseEstimator).
func (b *Minibatch) CanEstimateNoise() error {
	if !b.Noise {
		return errorf(ErrUnsupported, "Minibatch: Noise is not set, so there is no estimate of the gradient noise")
	}
	if b.n < 2 {
		return errorf(ErrRange, "Minibatch: the noise estimate needs a batch of at least 2 items, have %d", b.n)
	}
	return nil
}

// NoiseVar writes the diagonal of V̂ for the last batch into dst. It writes
// zeros unless Noise was set.
func (b *Minibatch) NoiseVar(dst []float64) { b.noise.noiseVar(dst) }

// noiseVar writes the last batch's estimate into dst, or zeros if there
// is none.
func (a *noiseAcc) noiseVar(dst []float64) {
	if len(a.v) != len(dst) {
		clear(dst)
		return
	}
	copy(dst, a.v)
}
