// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"math"
	"math/big"
)

// With math.Exp, the exponential was a third of the time of a minibatch
// gradient of a9a (profiled on amd64); expNonPos takes about half as long.
// expNonPos is the table-driven
// exponential of Tang (1989), as in glibc and musl, restricted to the
// arguments the sigmoid needs: e^x = 2^(k/64) · e^r with |r| ≤ ln2/128, the
// 64 values 2^(j/64) from a table and e^r from a degree-5 polynomial whose
// truncation error, r⁶/720 < 4e−17, is below half an ulp. The result is
// within about two ulps of e^x, as math.Exp's is.

const (
	expTabBits = 6
	expTabSize = 1 << expTabBits
	// ln2/64 = ln2HiN + ln2LoN, ln2HiN with 32 significant bits so that
	// k·ln2HiN is exact for the |k| < 2^17 that occur.
	ln2HiN = 0x1.62e42feep-7
	ln2LoN = 0x1.a39ef35793c76p-39
)

// expTab[j] = 2^(j/64), correctly rounded (math.Exp2 is not), from
// 2^(1/64) = √√√√√√2 in 256-bit arithmetic.
var expTab = func() (t [expTabSize]float64) {
	const prec = 256
	root := new(big.Float).SetPrec(prec).SetInt64(2)
	for range expTabBits {
		root.Sqrt(root)
	}
	v := new(big.Float).SetPrec(prec).SetInt64(1)
	for j := range t {
		t[j], _ = v.Float64()
		v.Mul(v, root)
	}
	return t
}()

// expNonPos returns e^x for x ≤ 0 within about two ulps, and 0 for x < −708
// (where e^x < 3.3e−308). It is exact at x = 0.
func expNonPos(x float64) float64 {
	if !(x >= -708) {
		if math.IsNaN(x) {
			return x
		}
		return 0
	}
	const (
		invLn2N = expTabSize / math.Ln2
		shift   = 0x1.8p52 // adding it rounds to an integer held in the low bits
		c2      = 1.0 / 2
		c3      = 1.0 / 6
		c4      = 1.0 / 24
		c5      = 1.0 / 120
	)
	kf := x*invLn2N + shift
	k := int64(math.Float64bits(kf)) // low 51 bits: round(x·64/ln2) in two's complement
	kf -= shift
	r := x - kf*ln2HiN - kf*ln2LoN
	r2 := r * r
	p := 1 + (r + r2*((c2+r*c3)+r2*(c4+r*c5))) // one rounding where it matters
	j := k & (expTabSize - 1)
	e := (k << (64 - 51)) >> (64 - 51 + expTabBits) // sign-extended k >> 6
	scale := math.Float64frombits(math.Float64bits(expTab[j]) + uint64(e)<<52)
	return scale * p
}
