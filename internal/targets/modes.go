// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"math"
	"math/rand/v2"
)

// FourModes is the 2-D mixture of four Gaussians with unit variances,
// means (4, 4), (−4, 4), (−4, −4), (4, −4) and weights 0.4, 0.3, 0.2, 0.1:
// modes eight standard deviations apart, which a sampler with a small
// constant step does not leave.
type FourModes struct{}

var _ Target = FourModes{}

// FourModesMeans and FourModesWeights are the components' means and
// weights, in quadrant order.
var (
	FourModesMeans   = [4][2]float64{{4, 4}, {-4, 4}, {-4, -4}, {4, -4}}
	FourModesWeights = [4]float64{0.4, 0.3, 0.2, 0.1}
)

// Dim returns 2.
func (FourModes) Dim() int { return 2 }

// Mode returns the component whose mean is nearest x (its quadrant).
func (FourModes) Mode(x []float64) int {
	switch {
	case x[0] >= 0 && x[1] >= 0:
		return 0
	case x[0] < 0 && x[1] >= 0:
		return 1
	case x[0] < 0:
		return 2
	}
	return 3
}

// logTerms writes log(w_k N(x; μ_k, I)) into lt and returns their
// log-sum-exp.
func (FourModes) logTerms(lt *[4]float64, x []float64) float64 {
	m := math.Inf(-1)
	for k, mu := range FourModesMeans {
		a, b := x[0]-mu[0], x[1]-mu[1]
		lt[k] = math.Log(FourModesWeights[k]) - (a*a+b*b)/2 - math.Log(2*math.Pi)
		m = math.Max(m, lt[k])
	}
	s := 0.0
	for _, v := range lt {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// LogProb returns the log density at x.
func (f FourModes) LogProb(x []float64) float64 {
	var lt [4]float64
	return f.logTerms(&lt, x)
}

// Grad writes ∇U(x) = Σ_k r_k (x − μ_k), r_k the components'
// responsibilities at x.
func (f FourModes) Grad(dst, x []float64) {
	var lt [4]float64
	lz := f.logTerms(&lt, x)
	dst[0], dst[1] = 0, 0
	for k, mu := range FourModesMeans {
		r := math.Exp(lt[k] - lz)
		dst[0] += r * (x[0] - mu[0])
		dst[1] += r * (x[1] - mu[1])
	}
}

// Draw writes an exact draw into dst.
func (FourModes) Draw(dst []float64, rng *rand.Rand) {
	u, k := rng.Float64(), 0
	for k < 3 && u >= FourModesWeights[k] {
		u -= FourModesWeights[k]
		k++
	}
	dst[0] = FourModesMeans[k][0] + rng.NormFloat64()
	dst[1] = FourModesMeans[k][1] + rng.NormFloat64()
}
