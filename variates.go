// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
)

// scirMaxPoissonMean bounds the Poisson mean θe^{−bh}/(1 − e^{−bh}) of a step:
// beyond 2^52 the draw is no longer an exact integer in float64.
const scirMaxPoissonMean = 1 << 52

// scirGamma draws from Gamma(a, 1), a ≥ 1, by Marsaglia & Tsang (2000). The
// log acceptance test is written with log1p so that it stays accurate for
// very large shapes (d·(1 − v + log v) cancels catastrophically otherwise).
func scirGamma(r *rand.Rand, a float64) float64 {
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		t := c * x
		if t <= -1 {
			continue
		}
		w := t * (3 + t*(3+t)) // v − 1, with v = (1 + t)³
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			return d * (1 + w)
		}
		if math.Log(u) < 0.5*x2+d*(3*math.Log1p(t)-w) {
			return d * (1 + w)
		}
	}
}

// poisson draws from Poisson(lam), 0 ≤ lam ≤ 2^52: by inversion for lam < 10
// and by Hörmann's (1993) transformed rejection with squeeze (PTRS) above.
func scirPoisson(r *rand.Rand, lam float64) float64 {
	if lam < 10 {
		if lam == 0 {
			return 0
		}
		u := r.Float64()
		if u < 1-lam { // e^{−λ} ≥ 1 − λ: N = 0 without an exp
			return 0
		}
		p := math.Exp(-lam)
		F := p
		var k float64
		for u >= F && p > 0 {
			k++
			p *= lam / k
			F += p
		}
		return k
	}
	b := 0.931 + 2.53*math.Sqrt(lam)
	a := -0.059 + 0.02483*b
	invAlpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := r.Float64() - 0.5
		v := r.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + lam + 0.43)
		if us >= 0.07 && v <= vr {
			return k
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		if math.Log(v*invAlpha/(a/(us*us)+b)) <= scirLogPoissonPMF(k, lam) {
			return k
		}
	}
}

// scirLogPoissonPMF returns log(e^{−λ} λ^k / k!) without the cancellation of
// k log λ − λ − log k! for large λ (Loader 2000: Stirling error and scirBD0).
func scirLogPoissonPMF(k, lam float64) float64 {
	if k == 0 {
		return -lam
	}
	return -scirStirlingError(k) - scirBD0(k, lam) - 0.5*math.Log(2*math.Pi*k)
}

// scirStirlingError returns log k! − [(k + ½) log k − k + ½ log 2π].
func scirStirlingError(k float64) float64 {
	if k <= 15 {
		lg, _ := math.Lgamma(k + 1)
		return lg - (k+0.5)*math.Log(k) + k - 0.5*math.Log(2*math.Pi)
	}
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	kk := k * k
	return (s0 - (s1-(s2-(s3-s4/kk)/kk)/kk)/kk) / k
}

// scirBD0 returns x log(x/m) + m − x, accurately when x ≈ m.
func scirBD0(x, m float64) float64 {
	if math.Abs(x-m) < 0.1*(x+m) {
		v := (x - m) / (x + m)
		s := (x - m) * v
		ej := 2 * x * v
		v2 := v * v
		for j := 1; j < 1000; j++ {
			ej *= v2
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/m) + m - x
}
