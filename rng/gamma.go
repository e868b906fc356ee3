// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import "math"

// Gamma returns a Gamma(a, 1) variate (shape a, unit scale) for
// 0 < a ≤ math.MaxFloat64, and NaN for any other a (zero, negative, NaN,
// ±Inf). For a ≥ 1 it uses the method of Marsaglia & Tsang (2000), with the
// acceptance test in a form that stays accurate for shapes up to 10¹⁵ and
// beyond (above about 10³², where the spread √a is below a's rounding,
// the draw is a up to rounding); for a < 1 it returns Gamma(a + 1)·U^{1/a},
// which underflows to 0 for tiny shapes (most draws for a < 10⁻³, all for
// subnormal a): use LogGamma there. The draw is always finite and
// non-negative.
//
// Each try takes one normal (Norm) and one uniform word from g's stream; the
// logarithms are the package's own, so that the output is the same on every
// platform. Gamma does not allocate.
func (g *Normal) Gamma(a float64) float64 {
	switch {
	case a >= 1 && a <= math.MaxFloat64:
		return g.gammaMT(a)
	case a > 0 && a < 1:
		return expDet(g.LogGamma(a))
	}
	return math.NaN()
}

// LogGamma returns log X for a Gamma(a, 1) variate X, 0 < a ≤
// math.MaxFloat64 (NaN for any other a), computed in log space: for a < 1
// it is log Gamma(a + 1) + log(U)/a, which stays finite for shapes as small
// as 2.1·10⁻³⁰⁷ while X itself underflows to zero; below that, for
// subnormal a, it is −Inf. For a ≥ 1 it is the logarithm of Gamma(a). The
// logarithms are the package's own (see Gamma).
func (g *Normal) LogGamma(a float64) float64 {
	switch {
	case a >= 1 && a <= math.MaxFloat64:
		return logDet(g.gammaMT(a))
	case a > 0 && a < 1:
		x := g.gammaMT(a + 1)
		return logDet(x) + logDet(g.open01())/a
	}
	return math.NaN()
}

// open01 returns a uniform variate in (0, 1): the midpoint of one of 2⁵³
// equal cells, so that its logarithm is finite.
func (g *Normal) open01() float64 {
	return (float64(g.Uint64()>>11) + 0.5) * 0x1p-53
}

// gammaMT draws Gamma(a, 1), a ≥ 1, by Marsaglia & Tsang (2000): with
// d = a − 1/3, c = 1/√(9d), x normal and v = (1 + cx)³, d·v is accepted
// when U < 1 − 0.0331x⁴ (the squeeze) or log U < x²/2 + d(1 − v + log v).
// The last term is written d(3 log1p(cx) − (v − 1)), because d(1 − v + log v)
// cancels catastrophically for large d. Every product that feeds a sum is
// rounded explicitly, so that no platform fuses it into an FMA.
func (g *Normal) gammaMT(a float64) float64 {
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := g.Norm()
		t := float64(c * x)
		if t <= -1 {
			continue
		}
		w := float64(t * float64(3+float64(t*float64(3+t)))) // v − 1, with v = (1 + t)³
		u := g.open01()
		x2 := float64(x * x)
		if u < 1-float64(float64(0.0331*x2)*x2) {
			return float64(d * float64(1+w))
		}
		if logDet(u) < float64(0.5*x2)+float64(d*float64(float64(3*log1pDet(t))-w)) {
			return float64(d * float64(1+w))
		}
	}
}
