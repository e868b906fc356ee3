// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mathext"
)

// Banana is the 2-D banana-shaped density with
//
//	U(θ₁, θ₂) = θ₁⁴/10 + (4(θ₂ + 1.2) − θ₁²)²/2.
//
// Integrating out θ₂ leaves p(θ₁) ∝ exp(−θ₁⁴/10), so Y = θ₁⁴/10 is
// Gamma(1/4, 1) and θ₁ = ±(10Y)^{1/4} with a random sign; given θ₁,
// θ₂ ~ N(θ₁²/4 − 1.2, 1/16). Both steps are exact, and so is the marginal
// CDF of θ₁ (a regularised incomplete gamma function). The normalising
// constant is Z = [Γ(1/4)/2 · 10^{1/4}] · [√(2π)/4].
type Banana struct{}

var _ Target = Banana{}

// bananaLogZ is log Z.
var bananaLogZ = func() float64 {
	lg, _ := math.Lgamma(0.25)
	return lg - math.Ln2 + 0.25*math.Log(10) + 0.5*math.Log(2*math.Pi) - math.Log(4)
}()

// Dim returns 2.
func (Banana) Dim() int { return 2 }

// Potential returns U(θ).
func (Banana) Potential(x []float64) float64 {
	g := 4*(x[1]+1.2) - x[0]*x[0]
	x2 := x[0] * x[0]
	return x2*x2/10 + g*g/2
}

// LogProb returns −U(θ) − log Z.
func (b Banana) LogProb(x []float64) float64 { return -b.Potential(x) - bananaLogZ }

// Grad writes ∇U(θ) into dst.
func (Banana) Grad(dst, x []float64) {
	g := 4*(x[1]+1.2) - x[0]*x[0]
	dst[0] = 0.4*x[0]*x[0]*x[0] - 2*x[0]*g
	dst[1] = 4 * g
}

// Draw writes an exact draw into dst.
func (Banana) Draw(dst []float64, rng *rand.Rand) {
	t := math.Pow(10*math.Exp(logGammaRand(0.25, rng)), 0.25)
	if rng.Uint64()&1 == 1 {
		t = -t
	}
	dst[0] = t
	dst[1] = (t*t+rng.NormFloat64())/4 - 1.2
}

// Theta1CDF returns the marginal CDF of θ₁: ½ + sign(t)·½·P(1/4, t⁴/10).
func (Banana) Theta1CDF(t float64) float64 {
	p := 0.5 * mathext.GammaIncReg(0.25, t*t*t*t/10)
	if t < 0 {
		return 0.5 - p
	}
	return 0.5 + p
}

// Theta1Quantile returns the p-quantile of θ₁, 0 < p < 1.
func (Banana) Theta1Quantile(p float64) float64 {
	q := math.Abs(2*p - 1)
	t := math.Pow(10*mathext.GammaIncRegInv(0.25, q), 0.25)
	if p < 0.5 {
		return -t
	}
	return t
}

// CondCDF returns the Rosenblatt conditional CDFs for
// diagnostics.RosenblattKS: the marginal CDF of θ₁ for j = 0 and
// Φ(4(θ₂ + 1.2) − θ₁²) for j = 1.
func (b Banana) CondCDF(j int, x []float64) float64 {
	if j == 0 {
		return b.Theta1CDF(x[0])
	}
	return 0.5 * math.Erfc(-(4*(x[1]+1.2)-x[0]*x[0])/math.Sqrt2)
}

// Mean writes E[θ] = (0, E[θ₁²]/4 − 1.2) into dst, with
// E[θ₁²] = √10 Γ(3/4)/Γ(1/4).
func (Banana) Mean(dst []float64) {
	dst[0] = 0
	dst[1] = BananaTheta1SecondMoment()/4 - 1.2
}

// BananaTheta1SecondMoment returns E[θ₁²] = √10 Γ(3/4)/Γ(1/4) of Banana.
func BananaTheta1SecondMoment() float64 {
	return math.Sqrt(10) * math.Gamma(0.75) / math.Gamma(0.25)
}
