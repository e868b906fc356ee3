// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

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
