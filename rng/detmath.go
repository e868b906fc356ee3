// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import "math"

// This file holds exp and log built from IEEE-754 additions,
// multiplications and divisions only, each rounded explicitly (a float64
// conversion forbids fusing a multiply and an add into an FMA), so that
// their results are the same bits on every platform. math.Exp and math.Log
// are not: on amd64 they run assembly that uses FMA when the CPU has it, and
// other architectures use other code. The ziggurat's rare wedge and tail
// draws go through these two functions, which makes its output bit-identical
// across machines. Both are accurate to a few units in the last place; the
// tests compare them with math.Exp and math.Log.

const (
	ln2Hi  = 6.93147180369123816490e-01 // high bits of ln 2: n·ln2Hi is exact for |n| < 2¹¹
	ln2Lo  = 1.90821492927058770002e-10 // ln 2 − ln2Hi
	invLn2 = 1.44269504088896338700e+00 // 1/ln 2
)

// expDet returns e^z for −708 ≤ z ≤ 709; outside that range the result
// saturates to 0 or +Inf.
func expDet(z float64) float64 {
	switch {
	case z > 709:
		return math.Inf(1)
	case z < -708:
		return 0
	}
	// z = n·ln 2 + r with |r| ≤ ln 2 / 2 (Cody–Waite reduction).
	n := math.Floor(float64(z*invLn2) + 0.5)
	r := float64(z-float64(n*ln2Hi)) - float64(n*ln2Lo)
	// e^r by its Taylor series to r¹³/13!, the first omitted term being
	// below 4·10⁻¹⁸ relative for |r| ≤ 0.347, summed by Estrin's scheme
	// (independent products, a short dependency chain), e^r − 1 first.
	r2 := float64(r * r)
	r4 := float64(r2 * r2)
	r8 := float64(r4 * r4)
	a1 := 1.0/2 + float64(r*(1.0/6))
	a2 := 1.0/24 + float64(r*(1.0/120))
	a3 := 1.0/720 + float64(r*(1.0/5040))
	a4 := 1.0/40320 + float64(r*(1.0/362880))
	a5 := 1.0/3628800 + float64(r*(1.0/39916800))
	a6 := 1.0/479001600 + float64(r*(1.0/6227020800))
	b0 := r + float64(a1*r2)
	b1 := a2 + float64(a3*r2)
	b2 := a4 + float64(a5*r2)
	c0 := b0 + float64(b1*r4)
	c1 := b2 + float64(a6*r4)
	p := 1 + (c0 + float64(c1*r8)) // e^r − 1 first, then the 1
	// Scale by 2ⁿ: exact, since −1022 ≤ n ≤ 1023 here.
	return p * math.Float64frombits(uint64(int64(n)+1023)<<52)
}

// logDet returns ln u for a positive, finite, normal u (subnormals, zero,
// negative and non-finite arguments are not handled; the generator only
// takes logarithms of uniforms in [2⁻⁵⁴, 1)).
func logDet(u float64) float64 {
	// u = m·2ᵉ with √½ ≤ m < √2.
	b := math.Float64bits(u)
	e := int64(b>>52&0x7ff) - 1023
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52) // in [1, 2)
	if m >= math.Sqrt2 {
		m *= 0.5
		e++
	}
	// ln m = 2 atanh s = 2(s + s³/3 + s⁵/5 + …) with s = (m−1)/(m+1),
	// |s| ≤ 0.1716; the series is summed to s²³/23, the first omitted term
	// being below 10⁻¹⁹ relative. m − 1 is exact (Sterbenz).
	s := (m - 1) / (m + 1)
	s2 := float64(s * s)
	p := 1.0 / 23
	for k := 21; k >= 1; k -= 2 {
		p = float64(p*s2) + 1/float64(k)
	}
	lm := 2 * float64(s*p)
	fe := float64(e)
	return float64(fe*ln2Hi) + (float64(fe*ln2Lo) + lm)
}

// log1pDet returns ln(1 + t) for t > −1, accurate also when |t| is tiny:
// with u = 1 + t rounded, ln(1 + t) = ln u · t/(u − 1) to a few ulp
// (Goldberg 1991, Theorem 4), since u − 1 is exact.
func log1pDet(t float64) float64 {
	u := 1 + t
	if u == 1 {
		return t
	}
	return float64(logDet(u)*t) / (u - 1)
}

// logPos is logDet extended to 0, where it returns −Inf.
func logPos(u float64) float64 {
	if u == 0 {
		return math.Inf(-1)
	}
	return logDet(u)
}
