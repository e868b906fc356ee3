// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"math"
	"math/rand/v2"
)

// logGammaRand returns the logarithm of a Gamma(a, 1) draw, a > 0. For
// a < 1 it uses Gamma(a) = Gamma(a + 1)·U^{1/a} in log space, which stays
// finite where the draw itself underflows (a ≲ 0.01).
func logGammaRand(a float64, rng *rand.Rand) float64 {
	if a < 1 {
		u := 1 - rng.Float64() // (0, 1]
		return math.Log(gammaRand(a+1, rng)) + math.Log(u)/a
	}
	return math.Log(gammaRand(a, rng))
}

// gammaRand returns a Gamma(a, 1) draw, a ≥ 1, by Marsaglia & Tsang (2000).
func gammaRand(a float64, rng *rand.Rand) float64 {
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x {
			return d * v
		}
		if math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
