// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/integrate/quad"
)

// Wasserstein returns the 1-D Wasserstein-1 distance ∫ |F̂_n(t) − F(t)| dt
// between the empirical CDF of the draws x and the CDF cdf.
//
// The integral is computed piecewise: between consecutive order statistics
// F̂_n is constant, and |F̂_n − F| is integrated by 8-point Gauss–Legendre on
// each side of the point where F crosses F̂_n (found by bisection), on panels
// no wider than 1/64 of the sample range. The tails
// ∫_{−∞}^{x_(1)} F and ∫_{x_(n)}^{∞} (1 − F) are truncated where F, or 1 − F,
// falls below 1e−13 (the truncation point found by doubling a distance from
// the sample range) and integrated by 8-point Gauss–Legendre on 64 panels.
// The cost is O(n log n) plus about 20 CDF evaluations per draw.
//
// x must be non-empty and finite; cdf must be a CDF, returning values in
// [0, 1], whose tails reach 1e−13 within 2^60 sample ranges. An error is
// returned otherwise.
func Wasserstein(x []float64, cdf func(float64) float64) (float64, error) {
	const fn = "Wasserstein"
	if err := checkSample(fn, x, 1); err != nil {
		return math.NaN(), err
	}
	if cdf == nil {
		return math.NaN(), inputErr(fn, "nil CDF")
	}
	s := slices.Clone(x)
	slices.Sort(s)
	w := w1{cdf: cdf}
	quad.Legendre{}.FixedLocations(w.x8[:], w.w8[:], 0, 1)

	n := len(s)
	lo, hi := s[0], s[n-1]
	scale := hi - lo
	if scale == 0 {
		scale = math.Max(math.Abs(lo), 1)
	}
	w.hmax = scale / 64
	total := w.tail(lo, -scale)
	total += w.tail(hi, scale)
	for i := 0; i < n-1; i++ {
		a, b := s[i], s[i+1]
		if a == b {
			continue
		}
		c := float64(i+1) / float64(n)
		fa, fb := w.f(a), w.f(b)
		switch {
		case fb <= c:
			total += c*(b-a) - w.integral(a, b)
		case fa >= c:
			total += w.integral(a, b) - c*(b-a)
		default:
			// F crosses c inside (a, b): bisect for the crossing.
			l, r := a, b
			for range 80 {
				mid := l + (r-l)/2
				if mid <= l || mid >= r {
					break
				}
				if w.f(mid) < c {
					l = mid
				} else {
					r = mid
				}
			}
			t := l + (r-l)/2
			total += c*(t-a) - w.integral(a, t)
			total += w.integral(t, b) - c*(b-t)
		}
	}
	if w.bad != nil {
		return math.NaN(), w.bad
	}
	return math.Max(total, 0), nil
}

// tailTol is where Wasserstein truncates the tails of F.
const tailTol = 1e-13

// w1 evaluates and integrates a CDF for Wasserstein.
type w1 struct {
	cdf    func(float64) float64
	x8, w8 [8]float64
	hmax   float64 // widest panel of integral
	bad    error
}

func (w *w1) f(t float64) float64 {
	v := w.cdf(t)
	if !(v >= 0 && v <= 1) {
		if w.bad == nil {
			w.bad = &InputError{Func: "Wasserstein", Chain: -1, Index: -1, Coord: -1, Value: v,
				What: fmt.Sprintf("CDF(%v) = %v, not in [0, 1]", t, v)}
		}
		return 0
	}
	return v
}

// integral returns ∫_a^b F by 8-point Gauss–Legendre on panels no wider
// than w.hmax.
func (w *w1) integral(a, b float64) float64 {
	panels := max(1, int(math.Ceil((b-a)/w.hmax)))
	h := (b - a) / float64(panels)
	var s float64
	for p := range panels {
		l := a + float64(p)*h
		for k, u := range w.x8 {
			s += w.w8[k] * w.f(l+u*h)
		}
	}
	return s * h
}

// tail returns ∫_{−∞}^{from} F if step < 0, ∫_{from}^{∞} (1 − F) if step > 0.
func (w *w1) tail(from, step float64) float64 {
	mass := func(t float64) float64 {
		if step < 0 {
			return w.f(t)
		}
		return 1 - w.f(t)
	}
	end := from + step
	for k := 0; mass(end) > tailTol; k++ {
		if k == 60 || math.IsInf(from+2*step, 0) {
			if w.bad == nil {
				w.bad = inputErr("Wasserstein", fmt.Sprintf("CDF tail does not fall below %g", tailTol))
			}
			return 0
		}
		step *= 2
		end = from + step
	}
	const panels = 64
	a, b := math.Min(from, end), math.Max(from, end)
	h := (b - a) / panels
	var s float64
	for p := range panels {
		l := a + float64(p)*h
		for k, u := range w.x8 {
			s += w.w8[k] * mass(l+u*h)
		}
	}
	return s * h
}

// WassersteinTwoSample returns the 1-D Wasserstein-1 distance
// ∫ |F̂_x(t) − F̂_y(t)| dt between the empirical distributions of x and y,
// exactly. Both must be non-empty and finite; they are not modified.
func WassersteinTwoSample(x, y []float64) (float64, error) {
	const fn = "WassersteinTwoSample"
	a, b, err := sortedPair(fn, x, y)
	if err != nil {
		return math.NaN(), err
	}
	var d float64
	walkECDFs(a, b, func(t, next, fa, fb float64) {
		if !math.IsInf(next, 1) {
			d += math.Abs(fa-fb) * (next - t)
		}
	})
	return d, nil
}
