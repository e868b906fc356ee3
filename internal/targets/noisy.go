// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// NoisyGradient is an exact gradient plus independent N(0, σ²) noise in
// each coordinate: a stochastic gradient with known noise covariance
// V = σ²I, which it reports as an sgmcmc.NoiseEstimator.
type NoisyGradient struct {
	g     func(dst, x []float64)
	sigma float64
	rng   *rand.Rand
}

var (
	_ sgmcmc.Gradient       = (*NoisyGradient)(nil)
	_ sgmcmc.NoiseEstimator = (*NoisyGradient)(nil)
)

// Noisy returns the gradient g with N(0, sigma²) noise added to each
// coordinate at every call, drawn from src. For a Target t pass t.Grad. It
// panics if g or src is nil or sigma is negative or not finite. The result
// is not safe for concurrent use (it owns a random stream).
func Noisy(g func(dst, x []float64), sigma float64, src rand.Source) sgmcmc.Gradient {
	if g == nil || src == nil || !(sigma >= 0) || math.IsInf(sigma, 0) {
		panic("targets: Noisy: need a gradient, a source and a finite sigma ≥ 0")
	}
	return &NoisyGradient{g: g, sigma: sigma, rng: rand.New(src)}
}

// Grad writes ∇U(x) + σz, z ~ N(0, I), into dst.
func (n *NoisyGradient) Grad(dst, x []float64) {
	n.g(dst, x)
	if n.sigma == 0 {
		return
	}
	for i := range dst {
		dst[i] += n.sigma * n.rng.NormFloat64()
	}
}

// NoiseVar writes σ² into each element of dst.
func (n *NoisyGradient) NoiseVar(dst []float64) {
	for i := range dst {
		dst[i] = n.sigma * n.sigma
	}
}

// CanEstimateNoise returns nil: the noise variance is known exactly.
func (n *NoisyGradient) CanEstimateNoise() error { return nil }
