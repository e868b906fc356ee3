// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mathext"
)

// Univariate is a 1-D target p(θ) ∝ exp(−U(θ)) with its exact log density,
// CDF, quantile function, moments and exact draws. Build one with Normal1D,
// DoubleWell or Gamma.
type Univariate struct {
	name     string
	u, du    func(float64) float64 // potential and its derivative
	logZ     float64               // log ∫ exp(−U)
	cdf      func(float64) float64
	quantile func(float64) float64
	draw     func(*rand.Rand) float64 // nil: quantile of a uniform
	mean     float64
	variance float64
	lo, hi   float64 // support
}

var _ Target = (*Univariate)(nil)

// Normal1D returns the standard normal, U(θ) = θ²/2.
func Normal1D() *Univariate {
	return &Univariate{
		name:     "normal",
		u:        func(x float64) float64 { return x * x / 2 },
		du:       func(x float64) float64 { return x },
		logZ:     0.5 * math.Log(2*math.Pi),
		cdf:      func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) },
		quantile: normalQuantile,
		draw:     func(rng *rand.Rand) float64 { return rng.NormFloat64() },
		mean:     0,
		variance: 1,
		lo:       math.Inf(-1),
		hi:       math.Inf(1),
	}
}

// DoubleWell returns the bimodal density with U(θ) = θ⁴ − 2θ², modes at ±1
// separated by a barrier of height 1. Its normalising constant, CDF,
// quantile function and variance come from 8-point Gauss–Legendre quadrature
// on 7000 cells over [−3.5, 3.5], outside which the mass is below 1e−25;
// they are accurate to about 1e−14. Draws are by inversion of the CDF.
func DoubleWell() *Univariate {
	u := func(x float64) float64 { x2 := x * x; return x2*x2 - 2*x2 }
	t := newTable(u, -3.5, 3.5, 7000)
	return &Univariate{
		name:     "double well",
		u:        u,
		du:       func(x float64) float64 { return 4*x*x*x - 4*x },
		logZ:     t.logZ,
		cdf:      t.cdf,
		quantile: t.quantile,
		mean:     0,
		variance: t.variance,
		lo:       math.Inf(-1),
		hi:       math.Inf(1),
	}
}

// Gamma returns Gamma(a, 1) on (0, ∞), U(θ) = θ − (a−1) log θ, the
// stationary law of the CIR process that SCIR integrates. Its CDF is the
// regularised incomplete gamma function; draws are by Marsaglia & Tsang
// (with Gamma(a) = Gamma(a+1)·U^{1/a} for a < 1). It panics unless a is
// positive and finite.
func Gamma(a float64) *Univariate {
	if !(a > 0) || math.IsInf(a, 0) {
		panic("targets: Gamma: shape must be positive and finite")
	}
	lg, _ := math.Lgamma(a)
	return &Univariate{
		name: "gamma",
		u: func(x float64) float64 {
			if x <= 0 {
				return math.Inf(1)
			}
			return x - (a-1)*math.Log(x)
		},
		du: func(x float64) float64 {
			if x <= 0 {
				return math.NaN()
			}
			return 1 - (a-1)/x
		},
		logZ: lg,
		cdf: func(x float64) float64 {
			if x <= 0 {
				return 0
			}
			return mathext.GammaIncReg(a, x)
		},
		quantile: func(p float64) float64 { return mathext.GammaIncRegInv(a, p) },
		draw:     func(rng *rand.Rand) float64 { return math.Exp(logGammaRand(a, rng)) },
		mean:     a,
		variance: a,
		lo:       0,
		hi:       math.Inf(1),
	}
}

// Name returns a short description.
func (t *Univariate) Name() string { return t.name }

// Dim returns 1.
func (t *Univariate) Dim() int { return 1 }

// LogDensity returns log p(x).
func (t *Univariate) LogDensity(x float64) float64 {
	if x < t.lo || x > t.hi {
		return math.Inf(-1)
	}
	return -t.u(x) - t.logZ
}

// Density returns p(x).
func (t *Univariate) Density(x float64) float64 { return math.Exp(t.LogDensity(x)) }

// LogProb returns log p(x[0]).
func (t *Univariate) LogProb(x []float64) float64 { return t.LogDensity(x[0]) }

// Potential returns U(x[0]), without the normalising constant.
func (t *Univariate) Potential(x []float64) float64 { return t.u(x[0]) }

// Grad writes U′(x[0]) into dst[0] (NaN outside the support).
func (t *Univariate) Grad(dst, x []float64) { dst[0] = t.du(x[0]) }

// CDF returns P(θ ≤ x).
func (t *Univariate) CDF(x float64) float64 { return t.cdf(x) }

// Quantile returns the p-quantile, 0 < p < 1.
func (t *Univariate) Quantile(p float64) float64 { return t.quantile(p) }

// Mean returns E[θ].
func (t *Univariate) Mean() float64 { return t.mean }

// Variance returns Var[θ].
func (t *Univariate) Variance() float64 { return t.variance }

// Support returns the interval outside which the density is zero.
func (t *Univariate) Support() (lo, hi float64) { return t.lo, t.hi }

// Rand returns one exact draw.
func (t *Univariate) Rand(rng *rand.Rand) float64 {
	if t.draw != nil {
		return t.draw(rng)
	}
	for {
		if u := rng.Float64(); u > 0 {
			return t.quantile(u)
		}
	}
}

// Draw writes one exact draw into dst[0].
func (t *Univariate) Draw(dst []float64, rng *rand.Rand) { dst[0] = t.Rand(rng) }

// table is a 1-D density exp(−u) tabulated on equal cells of [lo, hi], with
// the cumulative mass at the cell edges by 8-point Gauss–Legendre per cell.
type table struct {
	u        func(float64) float64
	lo, h    float64
	umin     float64   // shift of u for the exponent
	z        float64   // ∫ exp(−(u − umin)) over [lo, hi]
	cum      []float64 // normalised CDF at the cell edges
	gx, gw   [8]float64
	logZ     float64
	variance float64 // about 0
}

func newTable(u func(float64) float64, lo, hi float64, cells int) *table {
	t := &table{u: u, lo: lo, h: (hi - lo) / float64(cells), cum: make([]float64, cells+1)}
	quad.Legendre{}.FixedLocations(t.gx[:], t.gw[:], 0, 1)
	t.umin = math.Inf(1)
	for i := range cells + 1 {
		t.umin = math.Min(t.umin, u(lo+float64(i)*t.h))
	}
	var mass, m1, m2 float64
	for i := range cells {
		a := lo + float64(i)*t.h
		var s, s1, s2 float64
		for k, g := range t.gx {
			x := a + g*t.h
			f := t.gw[k] * math.Exp(-(u(x) - t.umin))
			s += f
			s1 += f * x
			s2 += f * x * x
		}
		mass += s * t.h
		m1 += s1 * t.h
		m2 += s2 * t.h
		t.cum[i+1] = mass
	}
	t.z = mass
	for i := range t.cum {
		t.cum[i] /= mass
	}
	t.logZ = math.Log(mass) - t.umin
	mean := m1 / mass
	t.variance = m2/mass - mean*mean
	return t
}

func (t *table) pdf(x float64) float64 { return math.Exp(-(t.u(x) - t.umin)) / t.z }

// cdf returns the normalised mass below x.
func (t *table) cdf(x float64) float64 {
	cells := len(t.cum) - 1
	if x <= t.lo {
		return 0
	}
	i := int((x - t.lo) / t.h)
	if i >= cells {
		return 1
	}
	a := t.lo + float64(i)*t.h
	w := x - a
	var s float64
	for k, g := range t.gx {
		s += t.gw[k] * math.Exp(-(t.u(a+g*w) - t.umin))
	}
	return math.Min(t.cum[i]+s*w/t.z, 1)
}

// quantile inverts cdf: the cell by binary search, then safeguarded Newton.
func (t *table) quantile(p float64) float64 {
	cells := len(t.cum) - 1
	if p <= 0 {
		return t.lo
	}
	if p >= 1 {
		return t.lo + float64(cells)*t.h
	}
	i := sort.Search(cells, func(i int) bool { return t.cum[i+1] > p }) // cum[i] ≤ p < cum[i+1]
	i = min(i, cells-1)
	a, b := t.lo+float64(i)*t.h, t.lo+float64(i+1)*t.h
	x := a + (p-t.cum[i])/(t.cum[i+1]-t.cum[i])*t.h
	for range 60 {
		f := t.cdf(x) - p
		if f > 0 {
			b = x
		} else {
			a = x
		}
		next := x - f/t.pdf(x)
		if !(next > a && next < b) {
			next = a + (b-a)/2
		}
		if math.Abs(next-x) <= 1e-15*math.Max(1, math.Abs(x)) {
			return next
		}
		x = next
	}
	return x
}
