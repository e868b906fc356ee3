// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import "math"

// MaxPoissonMean is the largest mean Poisson accepts: beyond 2⁵², counts
// are no longer exact integers in a float64.
const MaxPoissonMean = 1 << 52

// Poisson returns a Poisson(λ) variate as a float64 holding an integer, for
// 0 ≤ λ ≤ MaxPoissonMean (+0 for λ = 0 or −0), and NaN for any other λ
// (negative, NaN, ±Inf, above MaxPoissonMean). Means below 10 are drawn
// by inversion, larger ones by Hörmann's (1993) transformed rejection with
// squeeze (PTRS), whose acceptance test uses a log probability free of
// cancellation (Loader 2000) and rejects only negative counts, so that
// P(0) = e^{−λ} is kept exactly for every λ.
//
// The draws take uniform words from g's stream; exp and log are the
// package's own, so that the output is the same on every platform. Poisson
// does not allocate.
func (g *Normal) Poisson(lam float64) float64 {
	if !(lam >= 0 && lam <= MaxPoissonMean) {
		return math.NaN()
	}
	if lam < 10 {
		if lam == 0 {
			return 0
		}
		u := g.Float64()
		if u < 1-lam { // e^{−λ} ≥ 1 − λ: N = 0 without an exp
			return 0
		}
		p := expDet(-lam)
		F := p
		var k float64
		for u >= F && p > 0 {
			k++
			p = float64(p * (lam / k))
			F += p
		}
		return k
	}
	b := 0.931 + float64(2.53*math.Sqrt(lam))
	a := -0.059 + float64(0.02483*b)
	invAlpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := float64(g.Float64()) - 0.5 // the conversion keeps an FMA out of the inlined Float64
		v := g.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor(float64(float64(2*a/us+b)*u) + lam + 0.43)
		if us >= 0.07 && v <= vr {
			return k
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		if logPos(float64(v*invAlpha)/(a/float64(us*us)+b)) <= logPoissonPMF(k, lam) {
			return k
		}
	}
}

// logPoissonPMF returns log(e^{−λ} λ^k / k!) without the cancellation of
// k log λ − λ − log k! for large λ (Loader 2000: the Stirling error and
// bd0).
func logPoissonPMF(k, lam float64) float64 {
	if k == 0 {
		return -lam
	}
	return -stirlingError(k) - bd0(k, lam) - float64(0.5*logDet(float64(2*math.Pi*k)))
}

// stirlingErrors[k] = log k! − [(k + ½) log k − k + ½ log 2π], k = 1 … 15,
// computed to 60 digits and rounded.
var stirlingErrors = [16]float64{
	0, // k = 0: not used
	0.08106146679532726,
	0.0413406959554093,
	0.02767792568499834,
	0.020790672103765093,
	0.016644691189821193,
	0.013876128823070748,
	0.01189670994589177,
	0.010411265261972096,
	0.009255462182712733,
	0.00833056343336287,
	0.007573675487951841,
	0.00694284010720953,
	0.006408994188004207,
	0.0059513701127588475,
	0.005554733551962801,
}

// stirlingError returns log k! − [(k + ½) log k − k + ½ log 2π] for a
// positive integer k: from the table up to 15, by its asymptotic series
// beyond.
func stirlingError(k float64) float64 {
	if k <= 15 {
		return stirlingErrors[int(k)]
	}
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	kk := float64(k * k)
	return (s0 - (s1-(s2-(s3-s4/kk)/kk)/kk)/kk) / k
}

// bd0 returns x log(x/m) + m − x, accurately when x ≈ m.
func bd0(x, m float64) float64 {
	if math.Abs(x-m) < float64(0.1*(x+m)) {
		v := (x - m) / (x + m)
		s := float64((x - m) * v)
		ej := float64(2 * x * v)
		v2 := float64(v * v)
		for j := 1; j < 1000; j++ {
			ej = float64(ej * v2)
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return float64(x*logDet(x/m)) + m - x
}
