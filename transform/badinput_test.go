// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/transform"
)

// badTransform is a user's transform that gets things wrong: FreeDim
// returns free, Constrain writes x and returns lj, Unconstrain writes y.
type badTransform struct{ free, x, lj, y float64 }

func (b badTransform) FreeDim(int) (int, error) { return int(b.free), nil }
func (b badTransform) Constrain(x, _ []float64) float64 {
	for i := range x {
		x[i] = b.x
	}
	return b.lj
}
func (b badTransform) Unconstrain(y, _ []float64) error {
	for i := range y {
		y[i] = b.y
	}
	return nil
}
func (badTransform) Pullback(_, _, _, _ []float64)     {}
func (badTransform) LogJacobianGrad(_, _, _ []float64) {}

// flat is a model of any dimension with a flat density.
type flat int

func (f flat) Dim() int                                  { return int(f) }
func (flat) Len() int                                    { return 1 }
func (flat) LogPriorGrad(_, _ []float64)                 {}
func (flat) LogLikGrad(_, _ []float64, _ int, _ float64) {}

// TestBadInputTransform is the package's catalogue of bad input: each case
// must not panic, and must fail with an error of the right class naming
// the true cause (a substring of the message), or give the documented
// value.
func TestBadInputTransform(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	const max = math.MaxFloat64
	space := func(ps ...transform.Param) func() (*transform.Space, error) {
		return func() (*transform.Space, error) { return transform.NewSpace(ps...) }
	}
	scalar := func(tr transform.Transform) func() (*transform.Space, error) {
		return space(transform.Param{Name: "p", Transform: tr})
	}
	vector := func(n int, tr transform.Transform) func() (*transform.Space, error) {
		return space(transform.Param{Name: "v", Size: n, Transform: tr})
	}
	// constrain maps y in the space and checks x with ok.
	constrain := func(mk func() (*transform.Space, error), y []float64, ok func(x []float64, lj float64) bool) func() error {
		return func() error {
			s, err := mk()
			if err != nil {
				return err
			}
			x := make([]float64, s.Dim())
			lj, err := s.Constrain(x, y)
			if err == nil && ok != nil && !ok(x, lj) {
				return errors.New("unexpected value")
			}
			return err
		}
	}
	// unconstrain maps x back and checks y with ok.
	unconstrain := func(mk func() (*transform.Space, error), x []float64, ok func(y []float64) bool) func() error {
		return func() error {
			s, err := mk()
			if err != nil {
				return err
			}
			y := make([]float64, s.FreeDim())
			err = s.Unconstrain(y, x)
			if err == nil && ok != nil && !ok(y) {
				return errors.New("unexpected value")
			}
			return err
		}
	}
	chain := func(mk func() (*transform.Space, error), c *sgmcmc.Chain) func() error {
		return func() error {
			s, err := mk()
			if err != nil {
				return err
			}
			_, err = s.Chains([]*sgmcmc.Chain{{Dim: s.FreeDim(), Draws: make([]float64, s.FreeDim()), Eps: []float64{1}}, c})
			return err
		}
	}
	build := func(mk func() (*transform.Space, error)) func() error {
		return func() error { _, err := mk(); return err }
	}
	finite := func(x []float64, lj float64) bool {
		for _, v := range append(x, lj) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	wide := transform.Bounded{Lower: -1e308, Upper: 1e308}
	widest := transform.Bounded{Lower: -max, Upper: max}
	for _, tc := range []struct {
		name string
		run  func() error
		want string // a substring of the error; "" if none is due
		kind error  // the class the error wraps
	}{
		// Spaces and transforms that cannot be built.
		{"no parameters", build(space()), "no parameters", sgmcmc.ErrDimension},
		{"empty name", build(space(transform.Param{})), "parameter 0 has no name", sgmcmc.ErrRange},
		{"negative size", build(vector(-1, nil)), "Size = -1", sgmcmc.ErrDimension},
		{"size beyond MaxDim", build(vector(1<<40, nil)), "beyond MaxDim", sgmcmc.ErrRange},
		{"sizes summing beyond MaxDim", build(space(transform.Param{Name: "a", Size: transform.MaxDim}, transform.Param{Name: "b"})), "parameter b: Size = 0 takes the space beyond MaxDim", sgmcmc.ErrRange},
		{"repeated coordinate name", build(space(transform.Param{Name: "a", Size: 2}, transform.Param{Name: "a.2"})), `two coordinates named "a.2"`, sgmcmc.ErrRange},
		{"Bounded lower NaN", build(scalar(transform.Bounded{Lower: nan, Upper: 1})), "a bound is NaN", sgmcmc.ErrRange},
		{"Bounded upper NaN", build(scalar(transform.Bounded{Lower: 0, Upper: nan})), "a bound is NaN", sgmcmc.ErrRange},
		{"Bounded out of order", build(scalar(transform.Bounded{Lower: 1, Upper: 0})), "not in order", sgmcmc.ErrRange},
		{"Bounded equal bounds", build(scalar(transform.Bounded{Lower: 1, Upper: 1})), "not in order", sgmcmc.ErrRange},
		{"Bounded upper infinite", build(scalar(transform.Bounded{Lower: 0, Upper: inf})), "a bound is infinite", sgmcmc.ErrRange},
		{"Bounded lower infinite", build(scalar(transform.Bounded{Lower: -inf, Upper: 0})), "a bound is infinite", sgmcmc.ErrRange},
		{"Lower bound NaN", build(scalar(transform.Lower{Bound: nan})), "bound NaN, want finite", sgmcmc.ErrRange},
		{"Lower bound infinite", build(scalar(transform.Lower{Bound: -inf})), "bound -Inf, want finite", sgmcmc.ErrRange},
		{"Upper bound infinite", build(scalar(transform.Upper{Bound: inf})), "bound +Inf, want finite", sgmcmc.ErrRange},
		{"Simplex of one coordinate", build(vector(1, transform.Simplex{})), "1 coordinates, want at least 2", sgmcmc.ErrDimension},
		{"Simplex scalar", build(scalar(transform.Simplex{})), "want at least 2", sgmcmc.ErrDimension},
		{"user FreeDim too large", build(scalar(badTransform{free: 2})), "FreeDim(1) = 2, want in [0, 1]", sgmcmc.ErrDimension},
		{"user FreeDim negative", build(scalar(badTransform{free: -1})), "FreeDim(1) = -1", sgmcmc.ErrDimension},
		// Bounds at float64's extremes are accepted and map finitely.
		{"Bounded width overflowing", constrain(scalar(wide), []float64{0}, func(x []float64, lj float64) bool {
			return x[0] == 0 && math.Abs(lj-(math.Log(1e308)-math.Ln2)) < 1e-12
		}), "", nil},
		{"Bounded widest near upper", constrain(scalar(widest), []float64{30}, func(x []float64, lj float64) bool {
			return finite(x, lj) && x[0] > 0.99999*max && x[0] < max
		}), "", nil},
		{"Bounded widest near lower", constrain(scalar(widest), []float64{-30}, func(x []float64, lj float64) bool { return finite(x, lj) && x[0] < -0.99999*max }), "", nil},
		{"Bounded widest unconstrain", unconstrain(scalar(widest), []float64{0.5 * max}, func(y []float64) bool { return math.Abs(y[0]-math.Log(3)) < 1e-12 }), "", nil},
		{"Bounded tiny width", constrain(scalar(transform.Bounded{Lower: 0, Upper: 5e-324}), []float64{0}, finite), "", nil},
		{"Lower near the top unconstrain", unconstrain(scalar(transform.Lower{Bound: -max}), []float64{max}, func(y []float64) bool {
			return math.Abs(y[0]-(math.Log(max)+math.Ln2)) < 1e-12
		}), "", nil},
		{"Upper near the bottom unconstrain", unconstrain(scalar(transform.Upper{Bound: max}), []float64{-max}, func(y []float64) bool { return y[0] > 709 && !math.IsInf(y[0], 0) }), "", nil},
		{"Positive x subnormal", unconstrain(scalar(transform.Positive{}), []float64{5e-324}, func(y []float64) bool { return math.Abs(y[0]+744.4400719213812) < 1e-12 }), "", nil},
		{"Lower x just above the bound", unconstrain(scalar(transform.Lower{Bound: 0}), []float64{1e-310}, func(y []float64) bool { return math.Abs(y[0]+713.801378828154) < 1e-9 }), "", nil},
		{"Positive y underflowing", constrain(scalar(transform.Positive{}), []float64{-800}, func(x []float64, lj float64) bool { return x[0] == 0 && lj == -800 }), "", nil},
		// y that is not finite, or that overflows.
		{"Positive y NaN", constrain(scalar(transform.Positive{}), []float64{nan}, nil), "coordinate p_free is NaN", sgmcmc.ErrNonFinite},
		{"Positive y +Inf", constrain(scalar(transform.Positive{}), []float64{inf}, nil), "coordinate p_free is +Inf", sgmcmc.ErrNonFinite},
		{"Positive y -Inf", constrain(scalar(transform.Positive{}), []float64{-inf}, nil), "coordinate p_free is -Inf", sgmcmc.ErrNonFinite},
		{"Positive y overflowing", constrain(scalar(transform.Positive{}), []float64{710}, nil), "coordinate p is +Inf at y = 710: transform.Positive maps y beyond float64's range", sgmcmc.ErrNonFinite},
		{"Lower y overflowing", constrain(vector(2, transform.Lower{Bound: 1e308}), []float64{0, 709}, nil), "coordinate v.2 is +Inf at y = 709", sgmcmc.ErrNonFinite},
		{"Upper y overflowing", constrain(scalar(transform.Upper{Bound: -1e308}), []float64{709}, nil), "is -Inf at y = 709", sgmcmc.ErrNonFinite},
		{"Identity y Inf", constrain(scalar(transform.Identity{}), []float64{-inf}, nil), "p_free is -Inf", sgmcmc.ErrNonFinite},
		{"Bounded y NaN", constrain(scalar(transform.Bounded{Lower: 0, Upper: 1}), []float64{nan}, nil), "is NaN", sgmcmc.ErrNonFinite},
		{"Bounded y +Inf", constrain(scalar(transform.Bounded{Lower: 0, Upper: 1}), []float64{inf}, nil), "is +Inf", sgmcmc.ErrNonFinite},
		{"Bounded log-Jacobian overflowing", constrain(vector(2, transform.Bounded{Lower: 0, Upper: 1}), []float64{-1e308, -1e308}, nil),
			"the log-Jacobian is -Inf at y = [-1e+308 -1e+308]", sgmcmc.ErrNonFinite},
		{"Bounded far out is finite", constrain(scalar(transform.Bounded{Lower: 0, Upper: 1}), []float64{1e308}, func(x []float64, lj float64) bool { return x[0] == 1 && lj == -1e308 }), "", nil},
		{"Simplex y NaN", constrain(vector(3, transform.Simplex{}), []float64{0, nan}, nil), "v_free.2 is NaN", sgmcmc.ErrNonFinite},
		{"Simplex log-Jacobian overflowing", constrain(vector(3, transform.Simplex{}), []float64{1e308, 1e308}, nil), "log-Jacobian is -Inf", sgmcmc.ErrNonFinite},
		{"sum of log-Jacobians overflowing", constrain(space(transform.Param{Name: "a", Transform: transform.Positive{}}, transform.Param{Name: "b", Transform: transform.Bounded{Lower: 0, Upper: 1}}),
			[]float64{-1e308, -1e308}, nil), "summed over the parameters overflows to -Inf", sgmcmc.ErrNonFinite},
		{"user Constrain NaN", constrain(scalar(badTransform{free: 1, x: nan}), []float64{0}, nil), "coordinate p is NaN at y = 0: transform_test.badTransform", sgmcmc.ErrNonFinite},
		{"user log-Jacobian Inf", constrain(scalar(badTransform{free: 1, lj: inf}), []float64{0}, nil), "the log-Jacobian is +Inf", sgmcmc.ErrNonFinite},
		{"Constrain lengths", constrain(scalar(transform.Positive{}), []float64{0, 1}, nil), "len(y) = 2, want 1 and 1", sgmcmc.ErrDimension},
		// x outside the set.
		{"Unconstrain Positive zero", unconstrain(scalar(transform.Positive{}), []float64{0}, nil), "is 0, want in (0, ∞)", sgmcmc.ErrRange},
		{"Unconstrain Positive NaN", unconstrain(scalar(transform.Positive{}), []float64{nan}, nil), "is NaN", sgmcmc.ErrRange},
		{"Unconstrain Bounded at its bound", unconstrain(scalar(wide), []float64{1e308}, nil), "is 1e+308, want in (-1e+308, 1e+308)", sgmcmc.ErrRange},
		{"Unconstrain Simplex not summing to 1", unconstrain(vector(2, transform.Simplex{}), []float64{0.5, 0.6}, nil), "sum to 1.1", sgmcmc.ErrRange},
		{"Unconstrain Simplex NaN", unconstrain(vector(2, transform.Simplex{}), []float64{nan, 1}, nil), "coordinate 0 is NaN", sgmcmc.ErrRange},
		{"Unconstrain lengths", unconstrain(scalar(transform.Positive{}), []float64{1, 2}, nil), "len(x) = 2", sgmcmc.ErrDimension},
		{"user Unconstrain Inf", unconstrain(scalar(badTransform{free: 1, y: -inf}), []float64{1}, nil), "badTransform gives p_free = -Inf for x = [1]", sgmcmc.ErrNonFinite},
		// Chains and models.
		{"Chains nil chain", chain(scalar(transform.Positive{}), nil), "chain 1: nil chain", sgmcmc.ErrNil},
		{"Chains wrong dimension", chain(scalar(transform.Positive{}), &sgmcmc.Chain{Dim: 2, Draws: make([]float64, 2), Eps: []float64{1}}), "dimension 2", sgmcmc.ErrDimension},
		{"Chains short draws", chain(scalar(transform.Positive{}), &sgmcmc.Chain{Dim: 1, Eps: []float64{1}}), "0 values for 1 draws", sgmcmc.ErrDimension},
		{"Chains NaN draw", chain(scalar(transform.Positive{}), &sgmcmc.Chain{Dim: 1, Draws: []float64{0, nan}, Eps: []float64{1, 1}}), "chain 1: draw 1: parameter p: unconstrained coordinate p_free is NaN", sgmcmc.ErrNonFinite},
		{"Chains overflowing draw", chain(scalar(transform.Positive{}), &sgmcmc.Chain{Dim: 1, Draws: []float64{1000}, Eps: []float64{1}}), "draw 0: parameter p: coordinate p is +Inf", sgmcmc.ErrNonFinite},
		{"Summary overflowing draw", func() error {
			s, _ := transform.NewSpace(transform.Param{Name: "p", Transform: transform.Positive{}})
			_, err := s.Summary([]*sgmcmc.Chain{{Dim: 1, Draws: []float64{0, 800}, Eps: []float64{1, 1}}})
			return err
		}, "draw 1", sgmcmc.ErrNonFinite},
		{"Model nil", func() error {
			s, _ := transform.NewSpace(transform.Param{Name: "p"})
			_, err := s.Model(nil)
			return err
		}, "nil model", sgmcmc.ErrNil},
		{"Model wrong dimension", func() error {
			s, _ := transform.NewSpace(transform.Param{Name: "p"})
			_, err := s.Model(flat(2))
			return err
		}, "the model has dimension 2, the space 1", sgmcmc.ErrDimension},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			err := tc.run()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one saying %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %q does not wrap %v", err, tc.kind)
			}
		})
	}
}
