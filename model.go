// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/valid"
	"gonum.org/v1/gonum/diff/fd"
)

// GradCheck is the result of comparing an analytic gradient with central
// finite differences: the worst coordinate and its errors.
type GradCheck struct {
	Index    int     // coordinate with the largest absolute error
	Analytic float64 // analytic derivative there
	Numeric  float64 // finite-difference derivative there
	AbsErr   float64 // |Analytic − Numeric|
	RelErr   float64 // AbsErr / max(1, |Analytic|, |Numeric|), compared with the tolerance 0.01
}

// String formats the check.
func (g GradCheck) String() string {
	return fmt.Sprintf("worst coordinate %d: analytic %.10g, finite difference %.10g, abs err %.3g, rel err %.3g",
		g.Index, g.Analytic, g.Numeric, g.AbsErr, g.RelErr)
}

// CheckGradient compares grad with the central finite-difference gradient of
// f (gonum's diff/fd) at x and reports the worst coordinate.
func CheckGradient(f func(x []float64) float64, grad func(dst, x []float64), x []float64) GradCheck {
	num := fd.Gradient(nil, f, x, &fd.Settings{Formula: fd.Central})
	ana := make([]float64, len(x))
	grad(ana, x)
	var w GradCheck
	w.Index = -1
	for i := range x {
		e := math.Abs(ana[i] - num[i])
		if math.IsNaN(e) {
			e = math.Inf(1)
		}
		if w.Index < 0 || e > w.AbsErr {
			w = GradCheck{Index: i, Analytic: ana[i], Numeric: num[i], AbsErr: e, RelErr: e / math.Max(1, math.Max(math.Abs(ana[i]), math.Abs(num[i])))}
		}
	}
	return w
}

// CheckModel checks a model's gradients against finite differences of its
// log densities at theta: the log prior and the log likelihood of each
// datum in items. It returns the worst of the checks, and an error
// wrapping ErrGradient naming the term and the coordinate if its RelErr
// exceeds 0.01 (Sample's warmup makes the same check, in units
// of the posterior's scale, whenever the model implements LogDensity). The
// model must implement LogDensity.
func CheckModel(m Model, theta []float64, items []int) (GradCheck, error) {
	ld, ok := m.(LogDensity)
	if !ok {
		return GradCheck{}, errorf(ErrUnsupported, "CheckModel: model does not implement LogDensity")
	}
	if len(theta) != m.Dim() {
		return GradCheck{}, errorf(ErrDimension, "CheckModel: len(theta) = %d, model dimension %d", len(theta), m.Dim())
	}
	worst := CheckGradient(ld.LogPrior, func(dst, x []float64) {
		clear(dst)
		m.LogPriorGrad(dst, x)
	}, theta)
	term := "LogPriorGrad"
	for _, i := range items {
		if i < 0 || i >= m.Len() {
			return worst, errorf(ErrRange, "CheckModel: item %d out of range [0, %d)", i, m.Len())
		}
		c := CheckGradient(func(x []float64) float64 { return ld.LogLik(x, i) }, func(dst, x []float64) {
			clear(dst)
			m.LogLikGrad(dst, x, i, 1)
		}, theta)
		if c.RelErr > worst.RelErr {
			worst, term = c, fmt.Sprintf("LogLikGrad of item %d", i)
		}
	}
	if !(worst.RelErr <= valid.GradTolerance) {
		return worst, errorf(ErrGradient, "CheckModel: %s does not match finite differences of the log density at coordinate %d: analytic %.10g, finite difference %.10g (relative error %.3g, tolerance %g)",
			term, worst.Index, worst.Analytic, worst.Numeric, worst.RelErr, valid.GradTolerance)
	}
	return worst, nil
}
