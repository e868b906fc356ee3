// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"
)

// IMQ is the inverse multiquadric kernel k(x, y) = (C² + ‖x − y‖²)^Beta of
// the kernel Stein discrepancy. With −1 < Beta < 0 the KSD controls weak
// convergence (Gorham & Mackey 2017, Theorem 8).
type IMQ struct {
	// C > 0 is the kernel's scale. Zero means 1.
	C float64
	// Beta in (−1, 0) is the kernel's exponent. Zero means −1/2.
	Beta float64
}

// KSD returns the kernel Stein discrepancy (Gorham & Mackey 2017) of the
// draws from the distribution p with score ∇log p, using the Langevin Stein
// operator and the IMQ kernel k:
//
//	KSD² = (1/n²) Σ_i Σ_j k₀(x_i, x_j),
//	k₀(x, y) = s(x)·s(y) k + s(x)·∇_y k + s(y)·∇_x k + ∇_x·∇_y k,
//
// the V-statistic, with s = ∇log p. It needs p only up to its normalising
// constant, is zero only for draws distributed as p in the limit n → ∞, and
// for n independent draws from p it is of order 1/√n.
//
// score(dst, x) writes ∇log p(x) (= −∇U(x)) into dst; it is called once per
// draw. kernel nil means IMQ{C: 1, Beta: −1/2}. All draws must have the same
// non-zero dimension and finite values within ±MaxAbs, and the scores must
// be finite; if KSD² overflows float64 (scores near 1e154 and beyond, or
// draws as far apart) the result is an error, not ±Inf or NaN. The cost is
// O(n² d) time and O(n d) memory, with no allocation per pair.
func KSD(draws [][]float64, score func(dst, x []float64), kernel *IMQ) (float64, error) {
	const fn = "KSD"
	c, beta := 1.0, -0.5
	if kernel != nil {
		if kernel.C != 0 {
			c = kernel.C
		}
		if kernel.Beta != 0 {
			beta = kernel.Beta
		}
	}
	if !(c > 0) || math.IsInf(c, 0) || !(beta > -1 && beta < 0) {
		return math.NaN(), inputErr(fn, fmt.Sprintf("kernel C = %v, Beta = %v: want C > 0, −1 < Beta < 0", c, beta))
	}
	if len(draws) == 0 {
		return math.NaN(), inputErr(fn, "no draws")
	}
	if score == nil {
		return math.NaN(), inputErr(fn, "nil score")
	}
	n, d := len(draws), len(draws[0])
	if d == 0 {
		return math.NaN(), inputErr(fn, "draws have dimension 0")
	}
	x := make([]float64, n*d)
	s := make([]float64, n*d)
	for i, p := range draws {
		if len(p) != d {
			return math.NaN(), &InputError{Func: fn, Chain: -1, Index: i, Coord: -1,
				What: fmt.Sprintf("dimension %d, draw 0 has %d", len(p), d)}
		}
		for j, v := range p {
			if w := badValue(v); w != "" {
				return math.NaN(), &InputError{Func: fn, Chain: -1, Index: i, Coord: j, Value: v, What: w}
			}
		}
		copy(x[i*d:], p)
		si := s[i*d : (i+1)*d]
		score(si, p)
		for j, v := range si {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return math.NaN(), &InputError{Func: fn, Chain: -1, Index: i, Coord: j, Value: v,
					What: fmt.Sprintf("non-finite score %v", v)}
			}
		}
	}
	c2 := c * c
	df := float64(d)
	// k₀(x, x) = ‖s‖² c^{2β} − 2βd c^{2(β−1)}.
	c2b := math.Pow(c2, beta)
	var diag float64
	for i := range n {
		var ss float64
		for _, v := range s[i*d : (i+1)*d] {
			ss += v * v
		}
		diag += ss*c2b - 2*beta*df*c2b/c2
	}
	halfPower := beta == -0.5
	// k₀ = s_x·s_y q^β + q^{β−1}(2β (s_y − s_x)·r − 2βd) − 4β(β−1) q^{β−2}‖r‖²,
	// q = c² + ‖r‖², r = x − y.
	a1, a2, a3 := 2*beta, -4*beta*(beta-1), -2*beta*df
	var off float64
	for i := range n {
		xi := x[i*d : (i+1)*d]
		si := s[i*d : (i+1)*d]
		si = si[:len(xi)]
		var row float64
		for j := i + 1; j < n; j++ {
			xj := x[j*d : (j+1)*d]
			sj := s[j*d : (j+1)*d]
			xj, sj = xj[:len(xi)], sj[:len(xi)] // bounds-check hints
			var r2, sdot, cross float64
			for k, a := range xi {
				r := a - xj[k]
				b, c := si[k], sj[k]
				r2 += r * r
				sdot += b * c
				cross += (c - b) * r
			}
			q := c2 + r2
			iq := 1 / q
			var qb float64 // q^β
			if halfPower {
				qb = math.Sqrt(iq)
			} else {
				qb = math.Pow(q, beta)
			}
			qb1 := qb * iq  // q^{β−1}
			qb2 := qb1 * iq // q^{β−2}
			row += sdot*qb + qb1*(a1*cross+a3) + a2*qb2*r2
		}
		off += row
	}
	ksd2 := (diag + 2*off) / (float64(n) * float64(n))
	// A sum that overflowed (‖s‖², or ‖x − y‖² beyond MaxFloat64) shows as
	// ±Inf or NaN here: every non-finite intermediate reaches the sum.
	if math.IsNaN(ksd2) || math.IsInf(ksd2, 0) {
		return math.NaN(), inputErr(fn, fmt.Sprintf("KSD² = %v: the scores or the distances between draws are too large for float64", ksd2))
	}
	return math.Sqrt(math.Max(ksd2, 0)), nil
}
