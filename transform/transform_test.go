// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc"
)

// cases are the transforms under test with a parameter size each.
var cases = []struct {
	name string
	t    Transform
	n    int
}{
	{"Identity", Identity{}, 3},
	{"Positive", Positive{}, 3},
	{"Lower", Lower{Bound: -2.5}, 2},
	{"Upper", Upper{Bound: 4}, 2},
	{"Bounded", Bounded{Lower: -1, Upper: 3}, 3},
	{"Unit", Bounded{Lower: 0, Upper: 1}, 1},
	{"Simplex2", Simplex{}, 2},
	{"Simplex5", Simplex{}, 5},
}

// TestRoundTrip: Unconstrain(Constrain(y)) = y, and x is in the set.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, c := range cases {
		ny, err := c.t.FreeDim(c.n)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		y, x, back := make([]float64, ny), make([]float64, c.n), make([]float64, ny)
		for range 200 {
			for i := range y {
				y[i] = 3 * r.NormFloat64()
			}
			c.t.Constrain(x, y)
			if err := c.t.Unconstrain(back, x); err != nil {
				t.Fatalf("%s: Unconstrain(Constrain(%v)) = %v: %v", c.name, y, x, err)
			}
			for i := range y {
				if math.Abs(back[i]-y[i]) > 1e-9*math.Max(1, math.Abs(y[i])) {
					t.Fatalf("%s: y = %v → x = %v → %v", c.name, y, x, back)
				}
			}
		}
	}
	// The simplex's centre is y = 0.
	x := make([]float64, 4)
	Simplex{}.Constrain(x, []float64{0, 0, 0})
	for _, v := range x {
		if math.Abs(v-0.25) > 1e-15 {
			t.Errorf("Simplex of y = 0: %v, want the centre", x)
		}
	}
}

// jacobian returns the numerical Jacobian ∂x/∂y (of the first ny
// coordinates of x, as the log-Jacobian is defined).
func jacobian(tr Transform, y []float64, nx int) *mat.Dense {
	ny := len(y)
	j := mat.NewDense(ny, ny, nil)
	x := make([]float64, nx)
	fd.Jacobian(j, func(dst, y []float64) {
		tr.Constrain(x, y)
		copy(dst, x[:ny])
	}, y, &fd.JacobianSettings{Formula: fd.Central})
	return j
}

// TestLogJacobian: the returned log |det J| against the determinant of a
// finite-difference Jacobian, and the gradient pieces (Pullback,
// LogJacobianGrad) against finite differences of g·x(y) + log |det J(y)|.
func TestLogJacobian(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 1))
	for _, c := range cases {
		ny, _ := c.t.FreeDim(c.n)
		y, x, g := make([]float64, ny), make([]float64, c.n), make([]float64, c.n)
		for range 20 {
			for i := range y {
				y[i] = 1.5 * r.NormFloat64()
			}
			for i := range g {
				g[i] = r.NormFloat64()
			}
			lj := c.t.Constrain(x, y)
			det := mat.LogDet
			want, sign := det(jacobian(c.t, y, c.n))
			if sign == 0 || math.Abs(lj-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Errorf("%s at y = %v: log |J| = %v, finite differences %v", c.name, y, lj, want)
			}
			h := func(y []float64) float64 {
				xx := make([]float64, c.n)
				v := c.t.Constrain(xx, y)
				for i := range xx {
					v += g[i] * xx[i]
				}
				return v
			}
			grad := func(dst, y []float64) {
				clear(dst)
				c.t.Constrain(x, y)
				c.t.Pullback(dst, y, x, g)
				c.t.LogJacobianGrad(dst, y, x)
			}
			if chk := sgmcmc.CheckGradient(h, grad, y); chk.RelErr > 1e-6 {
				t.Errorf("%s at y = %v: %v", c.name, y, chk)
			}
		}
	}
}

// TestUnconstrainErrors: values outside the set are errors naming the
// coordinate and wrapping sgmcmc.ErrRange.
func TestUnconstrainErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		t    Transform
		x    []float64
		want string
	}{
		{Identity{}, []float64{0, nan}, "coordinate 1 is NaN"},
		{Identity{}, []float64{-inf}, "coordinate 0 is -Inf"},
		{Positive{}, []float64{1, 0}, "coordinate 1 is 0, want in (0, ∞)"},
		{Positive{}, []float64{inf}, "coordinate 0 is +Inf"},
		{Lower{Bound: 1}, []float64{2, 1}, "coordinate 1 is 1, want in (1, ∞)"},
		{Upper{Bound: 1}, []float64{1.5}, "coordinate 0 is 1.5, want in (−∞, 1)"},
		{Bounded{Lower: 0, Upper: 1}, []float64{0.5, 1}, "coordinate 1 is 1, want in (0, 1)"},
		{Bounded{Lower: 0, Upper: 1}, []float64{nan}, "coordinate 0 is NaN"},
		{Simplex{}, []float64{0.5, 0.5, 0}, "coordinate 2 is 0"},
		{Simplex{}, []float64{0.5, 0.6}, "sum to 1.1"},
	} {
		y := make([]float64, len(c.x))
		err := c.t.Unconstrain(y, c.x)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, sgmcmc.ErrRange) {
			t.Errorf("%T.Unconstrain(%v) = %v, want an ErrRange containing %q", c.t, c.x, err, c.want)
		}
	}
}

// TestFreeDimErrors: invalid bounds and sizes.
func TestFreeDimErrors(t *testing.T) {
	for _, c := range []struct {
		t    Transform
		n    int
		want error
	}{
		{Simplex{}, 1, sgmcmc.ErrDimension},
		{Positive{}, 0, sgmcmc.ErrDimension},
		{Lower{Bound: math.Inf(-1)}, 1, sgmcmc.ErrRange},
		{Upper{Bound: math.NaN()}, 1, sgmcmc.ErrRange},
		{Bounded{Lower: 1, Upper: 1}, 1, sgmcmc.ErrRange},
		{Bounded{Lower: 0, Upper: math.Inf(1)}, 1, sgmcmc.ErrRange},
	} {
		if _, err := c.t.FreeDim(c.n); !errors.Is(err, c.want) {
			t.Errorf("%#v.FreeDim(%d): err = %v, want %v", c.t, c.n, err, c.want)
		}
	}
}

// TestExtremes: far out in y the transforms stay in their closed sets and
// finite where they can.
func TestExtremes(t *testing.T) {
	for _, y := range []float64{-800, -40, 40, 800} {
		x := make([]float64, 1)
		lj := Bounded{Lower: 2, Upper: 3}.Constrain(x, []float64{y})
		if !(x[0] >= 2 && x[0] <= 3) || math.IsNaN(lj) {
			t.Errorf("Bounded{2, 3} at y = %v: x = %v, log |J| = %v", y, x[0], lj)
		}
		xs := make([]float64, 3)
		lj = Simplex{}.Constrain(xs, []float64{y, -y})
		if s := xs[0] + xs[1] + xs[2]; math.Abs(s-1) > 1e-15 || math.IsNaN(lj) || xs[0] < 0 || xs[1] < 0 || xs[2] < 0 {
			t.Errorf("Simplex at y = (%v, %v): x = %v (sum %v), log |J| = %v", y, -y, xs, s, lj)
		}
	}
	// Near the upper bound, 1 − x ≈ e^−20 is kept to float64's spacing
	// there (1e−16 in 2e−9), enough to come back.
	x := make([]float64, 1)
	b := Bounded{Lower: 0, Upper: 1}
	b.Constrain(x, []float64{20})
	y := make([]float64, 1)
	if err := b.Unconstrain(y, x); err != nil || math.Abs(y[0]-20) > 1e-6 {
		t.Errorf("Bounded{0, 1} round trip at y = 20: %v, %v", y[0], err)
	}
}
