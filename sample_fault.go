// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"
)

// Warmup's failures, explained by their cause.

// fault explains a warmup failure at w's shift — a non-finite whitened
// gradient or curvature, or a curvature that cannot be inverted (what) —
// by the θ-gradient there: non-finite (the model's value, +Inf, −Inf or
// NaN, and where), or finite and so large that the arithmetic of warmup
// overflowed, or neither (the curvature itself is degenerate). It costs
// one gradient evaluation, on the failure path only.
func (e *chainEnv) fault(w *whitening, what string) error {
	g := make([]float64, e.d)
	e.fixed.Grad(g, w.shift)
	if i := firstNonFinite(g); i >= 0 {
		return errorf(ErrNonFinite, "Sample: warmup: the gradient is %v at coordinate %d of θ = %s", g[i], i, brief(w.shift))
	}
	j := 0
	for i, v := range g {
		if math.Abs(v) > math.Abs(g[j]) {
			j = i
		}
	}
	if math.Abs(g[j]) > overflowGrad {
		return errorf(ErrNonFinite, "Sample: warmup: overflow: the gradient at θ = %s is finite but as large as %.3g (coordinate %d), and %s overflowed float64: the start is far out in the tails, or the posterior's scale is too small for float64 arithmetic (curvature near 1e300); start nearer the bulk of the posterior or rescale the parameters",
			brief(w.shift), g[j], j, what)
	}
	return errorf(ErrNonFinite, "Sample: warmup: %s is degenerate at θ = %s (the gradient there is finite, at most %.3g in size): the posterior may be improper, flat or not identified there", what, brief(w.shift), math.Abs(g[j]))
}

// overflowGrad is the gradient size past which warmup's arithmetic on it
// (finite differences, whitening, Newton steps) is likely to overflow.
const overflowGrad = 1e150

// brief formats a point for a message: all of it if short, else its
// first coordinates.
func brief(x []float64) string {
	if len(x) <= 4 {
		return fmt.Sprintf("%.4g", x)
	}
	return fmt.Sprintf("%.4g…", x[:4])
}
