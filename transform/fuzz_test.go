// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform_test

import (
	"errors"
	"math"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/transform"
)

// eps is float64's unit round-off, 2⁻⁵³.
const eps = 0x1p-53

// FuzzTransform maps y to x and back through a space of one parameter, of
// a transform and bounds of the fuzzer's choosing, and checks the
// package's promises (see "Round trips" in the package documentation):
// no panic; bounds that are not finite and in order refused; non-finite y
// an error, finite y a finite x and log-Jacobian or an ErrNonFinite, and
// never an error for |y| ≤ 700 and bounds within ±10³⁰⁰; x in the closed
// constrained set; Unconstrain(x) fails only for an x rounded onto a
// bound, and otherwise returns y within the documented tolerance (for the
// simplex, maps back to x within it).
func FuzzTransform(f *testing.F) {
	for k := range 6 {
		f.Add(uint8(k), -1.0, 3.0, 0.3, -2.0, 5.0)
	}
	f.Add(uint8(4), -1e308, 1e308, 700.0, -30.0, 0.0)
	f.Add(uint8(4), 0.0, 5e-324, 1.0, 0.0, 0.0)
	f.Add(uint8(2), 1e308, 0.0, 709.0, 0.0, 0.0)
	f.Add(uint8(1), 0.0, 0.0, -745.0, 710.0, 0.0)
	f.Add(uint8(5), 0.0, 0.0, 1e308, -1e308, 0.0)
	f.Fuzz(func(t *testing.T, kind uint8, a, b, y0, y1, y2 float64) {
		var tr transform.Transform
		size := 2
		switch kind % 6 {
		case 0:
			tr = transform.Identity{}
		case 1:
			tr = transform.Positive{}
		case 2:
			tr = transform.Lower{Bound: a}
		case 3:
			tr = transform.Upper{Bound: a}
		case 4:
			tr = transform.Bounded{Lower: a, Upper: b}
		case 5:
			tr, size = transform.Simplex{}, 3
		}
		s, err := transform.NewSpace(transform.Param{Name: "v", Size: size, Transform: tr})
		finiteBounds := !math.IsNaN(a) && !math.IsInf(a, 0) && !math.IsNaN(b) && !math.IsInf(b, 0)
		wantOK := finiteBounds || kind%6 < 2 || kind%6 == 5 || (kind%6 != 4 && !math.IsNaN(a) && !math.IsInf(a, 0))
		if kind%6 == 4 {
			wantOK = finiteBounds && a < b
		}
		if (err == nil) != wantOK {
			t.Fatalf("NewSpace(%#v): err = %v", tr, err)
		}
		if err != nil {
			if !errors.Is(err, sgmcmc.ErrRange) {
				t.Fatalf("NewSpace(%#v): error %v is not an ErrRange", tr, err)
			}
			return
		}
		y := []float64{y0, y1, y2}[:s.FreeDim()]
		x := make([]float64, s.Dim())
		lj, err := s.Constrain(x, y)
		finiteY, moderate := true, math.Abs(a) <= 1e300 && math.Abs(b) <= 1e300
		for _, v := range y {
			finiteY = finiteY && !math.IsNaN(v) && !math.IsInf(v, 0)
			moderate = moderate && math.Abs(v) <= 700
		}
		switch {
		case !finiteY && err == nil:
			t.Fatalf("%#v: Constrain(%v) = %v, %v: no error", tr, y, x, lj)
		case err != nil && !errors.Is(err, sgmcmc.ErrNonFinite):
			t.Fatalf("%#v: Constrain(%v): error %v is not an ErrNonFinite", tr, y, err)
		case err != nil && finiteY && moderate:
			t.Fatalf("%#v: Constrain(%v): %v", tr, y, err)
		case err != nil:
			return
		}
		if math.IsNaN(lj) || math.IsInf(lj, 0) {
			t.Fatalf("%#v: Constrain(%v) = %v, log-Jacobian %v", tr, y, x, lj)
		}
		for i, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) || !inClosedSet(tr, v) {
				t.Fatalf("%#v: Constrain(%v): x[%d] = %v, outside the closed set", tr, y, i, v)
			}
		}
		back := make([]float64, len(y))
		if err := s.Unconstrain(back, x); err != nil {
			if !errors.Is(err, sgmcmc.ErrRange) || !onBound(tr, x) {
				t.Fatalf("%#v: Unconstrain(%v) of Constrain(%v): %v", tr, x, y, err)
			}
			return
		}
		if _, ok := tr.(transform.Simplex); ok {
			x2 := make([]float64, len(x))
			if _, err := s.Constrain(x2, back); err != nil {
				t.Fatalf("Simplex: Constrain(%v) of Unconstrain(%v): %v", back, x, err)
			}
			for k := range x {
				if math.Abs(x2[k]-x[k]) > 1e-12*x[k]+0x1p-1000 {
					t.Fatalf("Simplex: x = %v maps to y = %v and back to %v", x, back, x2)
				}
			}
			return
		}
		for i := range y {
			if tol := roundTripTol(tr, y[i], x[i]); !(math.Abs(back[i]-y[i]) <= tol) {
				t.Fatalf("%#v: y = %v maps to x = %v and back to %v, %v off (tolerance %v)", tr, y[i], x[i], back[i], back[i]-y[i], tol)
			}
		}
	})
}

// roundTripTol is the documented bound on |Unconstrain(Constrain(y)) − y|
// for a coordinate-wise transform: 10⁻⁹·(1 + |y|) plus x's rounding,
// δx = 8ε·(|x| + |bounds|) + 2⁻¹⁰⁷², divided by |∂x/∂y|.
func roundTripTol(tr transform.Transform, y, x float64) float64 {
	var bounds, slope float64
	switch tr := tr.(type) {
	case transform.Identity:
		slope = 1
	case transform.Positive:
		slope = x
	case transform.Lower:
		bounds, slope = math.Abs(tr.Bound), math.Exp(y)
	case transform.Upper:
		bounds, slope = math.Abs(tr.Bound), math.Exp(y)
	case transform.Bounded:
		bounds = math.Abs(tr.Lower) + math.Abs(tr.Upper)
		u := 1 / (1 + math.Exp(-math.Abs(y)))
		slope = 2 * ((tr.Upper/2 - tr.Lower/2) * u * (1 - u))
	}
	dx := 8*eps*(math.Abs(x)+bounds) + 0x1p-1072
	return 1e-9*(1+math.Abs(y)) + dx/slope
}

// inClosedSet reports whether v is in the closure of tr's set.
func inClosedSet(tr transform.Transform, v float64) bool {
	switch tr := tr.(type) {
	case transform.Positive:
		return v >= 0
	case transform.Lower:
		return v >= tr.Bound
	case transform.Upper:
		return v <= tr.Bound
	case transform.Bounded:
		return v >= tr.Lower && v <= tr.Upper
	case transform.Simplex:
		return v >= 0 && v <= 1
	}
	return true
}

// onBound reports whether a coordinate of x lies on a bound of tr's set.
func onBound(tr transform.Transform, x []float64) bool {
	for _, v := range x {
		switch tr := tr.(type) {
		case transform.Positive, transform.Simplex:
			if v == 0 {
				return true
			}
		case transform.Lower:
			if v == tr.Bound {
				return true
			}
		case transform.Upper:
			if v == tr.Bound {
				return true
			}
		case transform.Bounded:
			if v == tr.Lower || v == tr.Upper {
				return true
			}
		}
	}
	return false
}
