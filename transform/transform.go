// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// Transform is a smooth bijection x = f(y) from unconstrained coordinates y
// onto the constrained set of one parameter. The package's transforms are
// Stan's (Stan Reference Manual, "Constraint transforms"); a user may add
// others by implementing the interface. A Transform must be safe for
// concurrent use (the package's transforms are values without state), and
// its methods must not allocate or retain their arguments.
type Transform interface {
	// FreeDim returns the number of unconstrained coordinates of a
	// parameter of n constrained coordinates, or an error if the transform
	// does not apply to n coordinates (a simplex needs at least two) or its
	// own settings are invalid (bounds out of order).
	FreeDim(n int) (int, error)
	// Constrain writes x = f(y) into x and returns log |det J(y)|, the log
	// absolute determinant of the Jacobian J = ∂x/∂y (for a simplex, of its
	// first n−1 coordinates, which determine the last). For y that is
	// not finite, or beyond what float64 can map (exp(y) overflows for
	// y > 709.78), x or the log-Jacobian is not finite; Space.Constrain
	// and Space.Chain report that as an error. Where f(y) is closer to a
	// bound than float64 resolves, x rounds onto the bound.
	Constrain(x, y []float64) float64
	// Unconstrain writes y = f⁻¹(x) into y, or returns an error naming the
	// offending coordinate (0-based, within the parameter) if x is outside
	// the constrained set.
	Unconstrain(y, x []float64) error
	// Pullback adds J(y)ᵀ g to dy: the gradient with respect to y of a
	// function of x whose gradient with respect to x is g. x = f(y), as
	// Constrain wrote it.
	Pullback(dy, y, x, g []float64)
	// LogJacobianGrad adds ∇_y log |det J(y)| to dy; x = f(y).
	LogJacobianGrad(dy, y, x []float64)
}

// Compile-time checks.
var (
	_ Transform = Identity{}
	_ Transform = Positive{}
	_ Transform = Lower{}
	_ Transform = Upper{}
	_ Transform = Bounded{}
	_ Transform = Simplex{}
)

// Identity leaves a parameter unconstrained: x = y, log |J| = 0.
type Identity struct{}

// FreeDim returns n.
func (Identity) FreeDim(n int) (int, error) { return elementwiseDim("Identity", n) }

// Constrain copies y into x and returns 0.
func (Identity) Constrain(x, y []float64) float64 {
	copy(x, y)
	return 0
}

// Unconstrain copies x into y; x must be finite.
func (Identity) Unconstrain(y, x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return outside(i, v, "a finite real")
		}
		y[i] = v
	}
	return nil
}

// Pullback adds g to dy.
func (Identity) Pullback(dy, _, _, g []float64) {
	for i, v := range g {
		dy[i] += v
	}
}

// LogJacobianGrad adds nothing.
func (Identity) LogJacobianGrad(_, _, _ []float64) {}

// elementwiseDim is FreeDim of a coordinate-wise transform.
func elementwiseDim(name string, n int) (int, error) {
	if n < 1 {
		return 0, errorf(sgmcmc.ErrDimension, "%s: %d coordinates, want at least 1", name, n)
	}
	return n, nil
}

// outside reports a value outside a transform's constrained set.
func outside(i int, v float64, want string) error {
	return errorf(sgmcmc.ErrRange, "coordinate %d is %v, want %s", i, v, want)
}

// kindError is an error with its own message that wraps one of sgmcmc's
// error classes (sgmcmc.ErrRange, sgmcmc.ErrDimension, sgmcmc.ErrNil), so
// that errors.Is works as for the root package's errors.
type kindError struct {
	msg  string
	kind error
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// errorf returns a kindError of the formatted message.
func errorf(kind error, format string, args ...any) error {
	return &kindError{msg: fmt.Sprintf(format, args...), kind: kind}
}

// logDiff returns log(a − b) for a > b, finite for finite a and b even
// where a − b overflows.
func logDiff(a, b float64) float64 {
	if d := a - b; !math.IsInf(d, 0) {
		return ln(d)
	}
	return math.Log(a/2-b/2) + math.Ln2
}

// ln returns math.Log(v), correct also for subnormal v: on amd64,
// math.Log takes a subnormal for the smallest normal number (Go issue
// 56600; ln(5e−324) came out as −709.09, not −744.44), which would send
// Unconstrain of a tiny positive x far from the y that maps to it.
func ln(v float64) float64 {
	if v > 0 && v < 0x1p-1022 {
		return math.Log(v*0x1p52) - 52*math.Ln2 // v·2⁵² is exact
	}
	return math.Log(v)
}

// logistic returns 1/(1 + exp(−t)) without overflow.
func logistic(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// softplus returns log(1 + exp(t)) without overflow or loss of precision.
func softplus(t float64) float64 {
	if t > 0 {
		return t + math.Log1p(math.Exp(-t))
	}
	return math.Log1p(math.Exp(t))
}
