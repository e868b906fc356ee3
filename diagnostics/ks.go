// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// KS returns the one-sample Kolmogorov–Smirnov distance
// sup_x |F̂_n(x) − F(x)| between the empirical CDF of the draws x and the CDF
// cdf, which must return values in [0, 1]. x must be non-empty and finite;
// it is not modified.
//
// For n independent draws from F, √n·KS is asymptotically Kolmogorov
// distributed: its mean is about 0.87/√n and it exceeds 1.95/√n with
// probability 0.001.
func KS(x []float64, cdf func(float64) float64) (float64, error) {
	if err := checkSample("KS", x, 1); err != nil {
		return math.NaN(), err
	}
	if cdf == nil {
		return math.NaN(), inputErr("KS", "nil CDF")
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return ksSorted("KS", s, cdf)
}

// ksSorted is KS of sorted draws.
func ksSorted(fn string, s []float64, cdf func(float64) float64) (float64, error) {
	n := float64(len(s))
	var d float64
	for i, v := range s {
		f := cdf(v)
		if !(f >= 0 && f <= 1) {
			return math.NaN(), &InputError{Func: fn, Chain: -1, Index: -1, Coord: -1, Value: f,
				What: fmt.Sprintf("CDF(%v) = %v, not in [0, 1]", v, f)}
		}
		d = math.Max(d, math.Max(float64(i+1)/n-f, f-float64(i)/n))
	}
	return d, nil
}

// KSTwoSample returns the two-sample Kolmogorov–Smirnov distance
// sup_t |F̂_x(t) − F̂_y(t)| between the empirical CDFs of x and y. Both must be
// non-empty and finite; they are not modified.
func KSTwoSample(x, y []float64) (float64, error) {
	const fn = "KSTwoSample"
	a, b, err := sortedPair(fn, x, y)
	if err != nil {
		return math.NaN(), err
	}
	var d float64
	walkECDFs(a, b, func(_, _, fa, fb float64) {
		d = math.Max(d, math.Abs(fa-fb))
	})
	return d, nil
}

// walkECDFs visits the distinct values t_0 < t_1 < … of the sorted samples a
// and b, calling f(t_k, t_{k+1}, F̂_a(t_k), F̂_b(t_k)); for the last value
// t_{k+1} is +Inf.
func walkECDFs(a, b []float64, f func(t, next, fa, fb float64)) {
	na, nb := float64(len(a)), float64(len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var t float64
		switch {
		case j == len(b) || (i < len(a) && a[i] <= b[j]):
			t = a[i]
		default:
			t = b[j]
		}
		for i < len(a) && a[i] == t {
			i++
		}
		for j < len(b) && b[j] == t {
			j++
		}
		next := math.Inf(1)
		if i < len(a) {
			next = a[i]
		}
		if j < len(b) {
			next = math.Min(next, b[j])
		}
		f(t, next, float64(i)/na, float64(j)/nb)
	}
}

// RosenblattKS returns the mean over the first dims coordinates of the
// Kolmogorov–Smirnov distance to Uniform(0, 1) of the Rosenblatt transforms
// u_j = F(x_j | x_0, …, x_{j−1}) of the draws (Rosenblatt 1952), the distance
// Baker et al. (2018, Appendix E.2) use for Dirichlet targets. For exact
// draws every u_j is uniform and independent of the others.
//
// cond(j, x) returns the conditional CDF of coordinate j given the earlier
// coordinates, evaluated at draw x, and must lie in [0, 1]; a NaN from cond
// is reported as an error naming the draw and coordinate. Each draw must have
// at least dims finite coordinates. For targets on a simplex the last
// coordinate is determined by the others: pass dims = K − 1.
func RosenblattKS(draws [][]float64, cond func(j int, x []float64) float64, dims int) (float64, error) {
	const fn = "RosenblattKS"
	if len(draws) == 0 {
		return math.NaN(), inputErr(fn, "no draws")
	}
	if cond == nil {
		return math.NaN(), inputErr(fn, "nil conditional CDF")
	}
	if dims < 1 {
		return math.NaN(), inputErr(fn, fmt.Sprintf("dims = %d, want ≥ 1", dims))
	}
	for m, x := range draws {
		if len(x) < dims {
			return math.NaN(), &InputError{Func: fn, Chain: -1, Index: m, Coord: -1,
				What: fmt.Sprintf("%d coordinates, need %d", len(x), dims)}
		}
		for j, v := range x[:dims] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return math.NaN(), &InputError{Func: fn, Chain: -1, Index: m, Coord: j, Value: v,
					What: fmt.Sprintf("non-finite value %v", v)}
			}
		}
	}
	u := make([]float64, len(draws))
	var sum float64
	for j := range dims {
		for m, x := range draws {
			v := cond(j, x)
			if !(v >= 0 && v <= 1) {
				return math.NaN(), &InputError{Func: fn, Chain: -1, Index: m, Coord: j, Value: v,
					What: fmt.Sprintf("conditional CDF = %v, not in [0, 1]", v)}
			}
			u[m] = v
		}
		slices.Sort(u)
		d, _ := ksSorted(fn, u, uniformCDF)
		sum += d
	}
	return sum / float64(dims), nil
}

func uniformCDF(u float64) float64 { return u }

// DirichletConditionalCDF returns the conditional CDFs of a Dirichlet(alpha)
// distribution for RosenblattKS: for a point x of the simplex and
// j = 0, …, K−2,
//
//	x_j | x_0, …, x_{j−1}  ~  (1 − Σ_{k<j} x_k) · Beta(α_j, Σ_{k>j} α_k),
//
// so the function returns I_y(α_j, Σ_{k>j} α_k), the regularised incomplete
// beta function at y = x_j / (1 − Σ_{k<j} x_k) clamped to [0, 1]. The last
// coordinate j = K−1 is determined by the others: call RosenblattKS with
// dims = K − 1.
//
// For j outside [0, K−2], or if alpha is invalid (fewer than two components,
// or a component not positive and finite), the function returns NaN, which
// RosenblattKS reports as an error. It allocates nothing and is safe for
// concurrent use.
func DirichletConditionalCDF(alpha []float64) func(j int, x []float64) float64 {
	k := len(alpha)
	valid := k >= 2
	for _, a := range alpha {
		if !(a > 0) || math.IsInf(a, 0) {
			valid = false
		}
	}
	if !valid {
		return func(int, []float64) float64 { return math.NaN() }
	}
	a := slices.Clone(alpha)
	rest := make([]float64, k) // rest[j] = Σ_{i>j} α_i
	for j := k - 2; j >= 0; j-- {
		rest[j] = rest[j+1] + a[j+1]
	}
	return func(j int, x []float64) float64 {
		if j < 0 || j > k-2 || len(x) <= j {
			return math.NaN()
		}
		rem := 1.0
		for _, v := range x[:j] {
			rem -= v
		}
		if rem <= 0 {
			return 1
		}
		y := x[j] / rem
		switch {
		case math.IsNaN(y):
			return math.NaN()
		case y <= 0:
			return 0
		case y >= 1:
			return 1
		}
		return mathext.RegIncBeta(a[j], rest[j], y)
	}
}

// sortedPair validates two samples for a two-sample distance (chain 0 is x,
// chain 1 is y) and returns sorted copies.
func sortedPair(fn string, x, y []float64) (a, b []float64, err error) {
	for c, s := range [][]float64{x, y} {
		if err := checkSample(fn, s, 1); err != nil {
			err.(*InputError).Chain = c
			return nil, nil, err
		}
	}
	a, b = slices.Clone(x), slices.Clone(y)
	slices.Sort(a)
	slices.Sort(b)
	return a, b, nil
}
