// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"math/rand/v2"
)

// Exact is a distribution that can be sampled exactly.
type Exact interface {
	// Dim returns the dimension of a draw.
	Dim() int
	// Draw writes one exact, independent draw into dst (length Dim()).
	Draw(dst []float64, rng *rand.Rand)
}

// Target is a distribution p(θ) ∝ exp(−U(θ)) on a subset of R^d with known
// answers. Its Grad method makes it an sgmcmc.Gradient.
type Target interface {
	Exact
	// LogProb returns the exact, normalised log density at x (−Inf outside
	// the support).
	LogProb(x []float64) float64
	// Grad writes ∇U(x) = −∇log p(x) into dst. It allocates nothing and is
	// safe for concurrent use.
	Grad(dst, x []float64)
}

// Score returns the score ∇log p = −∇U of t, in the form diagnostics.KSD
// takes.
func Score(t Target) func(dst, x []float64) {
	return func(dst, x []float64) {
		t.Grad(dst, x)
		for i := range dst {
			dst[i] = -dst[i]
		}
	}
}

// SampleN returns n exact draws of e, each in its own slice, in the form
// the multivariate diagnostics take.
func SampleN(e Exact, n int, rng *rand.Rand) [][]float64 {
	d := e.Dim()
	block := make([]float64, n*d)
	out := make([][]float64, n)
	for i := range out {
		out[i] = block[i*d : (i+1)*d : (i+1)*d]
		e.Draw(out[i], rng)
	}
	return out
}

// Column returns coordinate j of each draw.
func Column(draws [][]float64, j int) []float64 {
	out := make([]float64, len(draws))
	for i, x := range draws {
		out[i] = x[j]
	}
	return out
}
