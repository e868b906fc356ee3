// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package fullpass

// Density is the part of sgmcmc.Model and sgmcmc.LogDensity that a
// potential needs.
type Density interface {
	Len() int
	LogPrior(theta []float64) float64
	LogLik(theta []float64, i int) float64
}

// Potential returns U(θ) = −log p(θ) − Σ_i log p(x_i | θ) over the whole
// dataset, summed in item order.
func Potential(m Density, theta []float64) float64 {
	u := -m.LogPrior(theta)
	for i := range m.Len() {
		u -= m.LogLik(theta, i)
	}
	return u
}
