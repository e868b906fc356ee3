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

// Positive constrains each coordinate to x > 0 by x = exp(y), log |J| = y:
// for scales, rates and variances.
type Positive struct{}

// FreeDim returns n.
func (Positive) FreeDim(n int) (int, error) { return elementwiseDim("Positive", n) }

// Constrain writes x = exp(y) and returns Σ y.
func (Positive) Constrain(x, y []float64) float64 {
	var lj float64
	for i, v := range y {
		x[i] = math.Exp(v)
		lj += v
	}
	return lj
}

// Unconstrain writes y = log x; x must be positive and finite.
func (Positive) Unconstrain(y, x []float64) error {
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 1) {
			return outside(i, v, "in (0, ∞)")
		}
		y[i] = ln(v)
	}
	return nil
}

// Pullback adds x ⊙ g to dy (∂x/∂y = exp(y) = x).
func (Positive) Pullback(dy, _, x, g []float64) {
	for i, v := range g {
		dy[i] += v * x[i]
	}
}

// LogJacobianGrad adds 1 to each coordinate of dy.
func (Positive) LogJacobianGrad(dy, _, _ []float64) {
	for i := range dy {
		dy[i]++
	}
}

// Lower constrains each coordinate to x > Bound by x = Bound + exp(y),
// log |J| = y. Lower{} is the positive reals.
type Lower struct{ Bound float64 }

// FreeDim returns n; Bound must be finite.
func (l Lower) FreeDim(n int) (int, error) {
	if math.IsNaN(l.Bound) || math.IsInf(l.Bound, 0) {
		return 0, errorf(sgmcmc.ErrRange, "Lower: bound %v, want finite", l.Bound)
	}
	return elementwiseDim("Lower", n)
}

// Constrain writes x = Bound + exp(y) and returns Σ y.
func (l Lower) Constrain(x, y []float64) float64 {
	var lj float64
	for i, v := range y {
		x[i] = l.Bound + math.Exp(v)
		lj += v
	}
	return lj
}

// Unconstrain writes y = log(x − Bound); x must exceed Bound.
func (l Lower) Unconstrain(y, x []float64) error {
	for i, v := range x {
		if !(v > l.Bound) || math.IsInf(v, 1) {
			return outside(i, v, fmt.Sprintf("in (%v, ∞)", l.Bound))
		}
		y[i] = logDiff(v, l.Bound)
	}
	return nil
}

// Pullback adds exp(y) ⊙ g to dy.
func (l Lower) Pullback(dy, y, _, g []float64) {
	for i, v := range g {
		dy[i] += v * math.Exp(y[i])
	}
}

// LogJacobianGrad adds 1 to each coordinate of dy.
func (Lower) LogJacobianGrad(dy, _, _ []float64) {
	for i := range dy {
		dy[i]++
	}
}

// Upper constrains each coordinate to x < Bound by x = Bound − exp(y),
// log |J| = y.
type Upper struct{ Bound float64 }

// FreeDim returns n; Bound must be finite.
func (u Upper) FreeDim(n int) (int, error) {
	if math.IsNaN(u.Bound) || math.IsInf(u.Bound, 0) {
		return 0, errorf(sgmcmc.ErrRange, "Upper: bound %v, want finite", u.Bound)
	}
	return elementwiseDim("Upper", n)
}

// Constrain writes x = Bound − exp(y) and returns Σ y.
func (u Upper) Constrain(x, y []float64) float64 {
	var lj float64
	for i, v := range y {
		x[i] = u.Bound - math.Exp(v)
		lj += v
	}
	return lj
}

// Unconstrain writes y = log(Bound − x); x must be below Bound.
func (u Upper) Unconstrain(y, x []float64) error {
	for i, v := range x {
		if !(v < u.Bound) || math.IsInf(v, -1) {
			return outside(i, v, fmt.Sprintf("in (−∞, %v)", u.Bound))
		}
		y[i] = logDiff(u.Bound, v)
	}
	return nil
}

// Pullback adds −exp(y) ⊙ g to dy.
func (u Upper) Pullback(dy, y, _, g []float64) {
	for i, v := range g {
		dy[i] -= v * math.Exp(y[i])
	}
}

// LogJacobianGrad adds 1 to each coordinate of dy.
func (Upper) LogJacobianGrad(dy, _, _ []float64) {
	for i := range dy {
		dy[i]++
	}
}

// Bounded constrains each coordinate to Lower < x < Upper by the scaled
// inverse logit x = Lower + (Upper − Lower)·logit⁻¹(y), with
// log |J| = log(Upper − Lower) + log logit⁻¹(y) + log(1 − logit⁻¹(y)).
// Bounded{0, 1} is the unit interval, for probabilities. Any finite bounds
// in order will do, even those whose width Upper − Lower exceeds float64's
// range (Bounded{−1e308, 1e308}): the arithmetic never forms the width
// itself then.
type Bounded struct{ Lower, Upper float64 }

// FreeDim returns n; the bounds must be finite with Lower < Upper.
func (b Bounded) FreeDim(n int) (int, error) {
	switch {
	case math.IsNaN(b.Lower) || math.IsNaN(b.Upper):
		return 0, errorf(sgmcmc.ErrRange, "Bounded: bounds (%v, %v): a bound is NaN", b.Lower, b.Upper)
	case math.IsInf(b.Lower, 0) || math.IsInf(b.Upper, 0):
		return 0, errorf(sgmcmc.ErrRange, "Bounded: bounds (%v, %v): a bound is infinite (use Lower or Upper for a half-line, Identity for the real line)", b.Lower, b.Upper)
	case !(b.Lower < b.Upper):
		return 0, errorf(sgmcmc.ErrRange, "Bounded: bounds (%v, %v) are not in order, want Lower < Upper", b.Lower, b.Upper)
	}
	return elementwiseDim("Bounded", n)
}

// scaled returns (Upper − Lower)·t for 0 ≤ t ≤ ½, finite even where the
// width overflows.
func (b Bounded) scaled(t float64) float64 {
	if w := b.Upper - b.Lower; !math.IsInf(w, 0) {
		return w * t
	}
	return 2 * ((b.Upper/2 - b.Lower/2) * t)
}

// Constrain writes x = Lower + (Upper − Lower)·logit⁻¹(y) (computed from
// the nearer bound, so that x keeps its precision there) and returns the
// log-Jacobian.
func (b Bounded) Constrain(x, y []float64) float64 {
	lw := logDiff(b.Upper, b.Lower)
	var lj float64
	for i, v := range y {
		if v > 0 {
			x[i] = b.Upper - b.scaled(logistic(-v))
		} else {
			x[i] = b.Lower + b.scaled(logistic(v))
		}
		lj += lw - softplus(-v) - softplus(v)
	}
	return lj
}

// Unconstrain writes y = log(x − Lower) − log(Upper − x); x must lie
// strictly between the bounds.
func (b Bounded) Unconstrain(y, x []float64) error {
	for i, v := range x {
		if !(v > b.Lower && v < b.Upper) {
			return outside(i, v, fmt.Sprintf("in (%v, %v)", b.Lower, b.Upper))
		}
		y[i] = logDiff(v, b.Lower) - logDiff(b.Upper, v)
	}
	return nil
}

// Pullback adds (Upper − Lower)·u(1 − u) ⊙ g to dy, u = logit⁻¹(y).
func (b Bounded) Pullback(dy, y, _, g []float64) {
	for i, v := range g {
		dy[i] += v * b.scaled(logistic(y[i])*logistic(-y[i]))
	}
}

// LogJacobianGrad adds 1 − 2·logit⁻¹(y) to dy.
func (Bounded) LogJacobianGrad(dy, y, _ []float64) {
	for i, v := range y {
		dy[i] += logistic(-v) - logistic(v)
	}
}

// Simplex constrains a vector of K ≥ 2 coordinates to the open unit
// simplex (x_k > 0, Σ x_k = 1) by Stan's stick-breaking transform from
// K − 1 unconstrained coordinates: for k = 1, …, K−1,
//
//	z_k = logit⁻¹(y_k − log(K − k)),  x_k = r_k z_k,  r_{k+1} = r_k − x_k,
//
// with r_1 = 1 and x_K = r_K. The offset log(K − k) maps y = 0 to the
// centre (1/K, …, 1/K). The log-Jacobian, of x_1 … x_{K−1} (which fix x_K),
// is Σ_k log z_k + log(1 − z_k) + log r_k.
//
// The model's gradient with respect to x is taken over all K coordinates
// as if they were free (x_K included, as a Dirichlet log density
// Σ (α_k − 1) log x_k is written); the chain rule through x_K = r_K
// accounts for the constraint.
type Simplex struct{}

// FreeDim returns n − 1; n must be at least 2.
func (Simplex) FreeDim(n int) (int, error) {
	if n < 2 {
		return 0, errorf(sgmcmc.ErrDimension, "Simplex: %d coordinates, want at least 2", n)
	}
	return n - 1, nil
}

// Constrain writes the simplex x (K coordinates) of y (K − 1) and returns
// the log-Jacobian.
func (Simplex) Constrain(x, y []float64) float64 {
	K := len(x)
	r, logR, lj := 1.0, 0.0, 0.0
	for k := range K - 1 {
		t := y[k] - math.Log(float64(K-1-k))
		z := logistic(t)
		x[k] = r * z
		sp, sm := softplus(t), softplus(-t) // −log(1 − z), −log z
		lj += logR - sm - sp
		logR -= sp
		r *= logistic(-t)
	}
	x[K-1] = r
	return lj
}

// simplexTol is how far from 1 the sum of a simplex given to Unconstrain
// may be (Stan's tolerance).
const simplexTol = 1e-8

// Unconstrain writes y of the simplex x: every x_k must be positive and
// finite and their sum within 1e−8 of 1 (Stan's tolerance); x is taken as
// normalised.
func (Simplex) Unconstrain(y, x []float64) error {
	K := len(x)
	var sum float64
	for i, v := range x {
		if !(v > 0) || math.IsInf(v, 1) {
			return outside(i, v, "in (0, 1) (a simplex)")
		}
		sum += v
	}
	if math.Abs(sum-1) > simplexTol {
		return errorf(sgmcmc.ErrRange, "the coordinates sum to %v, want 1 (a simplex, within %g)", sum, simplexTol)
	}
	s := x[K-1] // Σ_{i>k} x_i
	for k := K - 2; k >= 0; k-- {
		y[k] = ln(x[k]) - ln(s) + math.Log(float64(K-1-k))
		s += x[k]
	}
	return nil
}

// Pullback adds Jᵀg to dy: (Jᵀg)_j = g_j x_j (1 − z_j) − z_j Σ_{k>j} g_k x_k
// (0-based, the sum over k up to K − 1 computed from the end).
func (Simplex) Pullback(dy, y, x, g []float64) {
	K := len(x)
	s := g[K-1] * x[K-1]
	for j := K - 2; j >= 0; j-- {
		t := y[j] - math.Log(float64(K-1-j))
		z, zc := logistic(t), logistic(-t)
		dy[j] += g[j]*x[j]*zc - z*s
		s += g[j] * x[j]
	}
}

// LogJacobianGrad adds ∂ log |J| / ∂y_j = 1 − 2z_j − (K − 2 − j)·z_j
// (0-based j) to dy.
func (Simplex) LogJacobianGrad(dy, y, x []float64) {
	K := len(x)
	for j := range K - 1 {
		t := y[j] - math.Log(float64(K-1-j))
		z, zc := logistic(t), logistic(-t)
		dy[j] += zc - z - float64(K-2-j)*z
	}
}

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
