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

// CheckModel checks what sampling needs of a model at theta, for the log
// prior and for each datum in items (nil means up to checkItems items
// spread evenly over the data):
//
//   - every log density (LogPrior, LogLik, when the model implements
//     LogDensity) and every gradient (LogPriorGrad, LogLikGrad) is finite:
//     a NaN or ±Inf is an error wrapping ErrNonFinite naming the function,
//     the item and the parameter (0-based);
//   - each gradient matches the central finite differences of its log
//     density: a relative error above 0.01 is an error wrapping
//     ErrGradient naming the term and the parameter (package sample's
//     warmup makes the same check, in units of the posterior's scale).
//
// It returns the worst of the gradient checks. A model without
// LogDensity has its gradients checked for finiteness only, and the error
// then wraps ErrUnsupported, saying that the gradient could not be
// compared with anything: implement LogPrior and LogLik, and both this
// check and sampling's own gradient check guard against a wrong gradient,
// which no diagnostic of the draws can see.
func CheckModel(m Model, theta []float64, items []int) (GradCheck, error) {
	if isNil(m) {
		return GradCheck{}, errorf(ErrNil, "CheckModel: nil model")
	}
	d := m.Dim()
	if len(theta) != d {
		return GradCheck{}, errorf(ErrDimension, "CheckModel: len(theta) = %d, model dimension %d", len(theta), d)
	}
	if i := firstNonFinite(theta); i >= 0 {
		return GradCheck{}, errorf(ErrNonFinite, "CheckModel: theta[%d] = %v, want finite", i, theta[i])
	}
	n := m.Len()
	if items == nil {
		k := min(n, checkItems)
		for j := range k {
			items = append(items, j*n/k)
		}
	}
	for _, i := range items {
		if i < 0 || i >= n {
			return GradCheck{}, errorf(ErrRange, "CheckModel: item %d out of range [0, %d)", i, n)
		}
	}
	// Finite gradients, the prior's and each item's.
	g := make([]float64, d)
	m.LogPriorGrad(g, theta)
	if j := firstNonFinite(g); j >= 0 {
		return GradCheck{}, errorf(ErrNonFinite, "CheckModel: LogPriorGrad is %v in parameter %d (0-based) at theta: the prior's gradient, not the data's", g[j], j)
	}
	for _, i := range items {
		clear(g)
		m.LogLikGrad(g, theta, i, 1)
		if j := firstNonFinite(g); j >= 0 {
			return GradCheck{}, errorf(ErrNonFinite, "CheckModel: LogLikGrad of item %d is %v in parameter %d (0-based) at theta: the likelihood of that datum (is the datum itself NaN or infinite?)", i, g[j], j)
		}
	}
	ld, ok := m.(LogDensity)
	if !ok {
		return GradCheck{}, errorf(ErrUnsupported, "CheckModel: the gradients are finite at theta for the prior and the %d items checked, but the model does not implement LogDensity (LogPrior and LogLik), so they cannot be compared with anything: a wrong gradient samples the wrong posterior and no diagnostic of the draws can see it; implement them", len(items))
	}
	// Finite log densities.
	if v := ld.LogPrior(theta); math.IsNaN(v) || math.IsInf(v, 0) {
		return GradCheck{}, errorf(ErrNonFinite, "CheckModel: LogPrior is %v at theta: the prior, not the data", v)
	}
	for _, i := range items {
		if v := ld.LogLik(theta, i); math.IsNaN(v) || math.IsInf(v, 0) {
			return GradCheck{}, errorf(ErrNonFinite, "CheckModel: LogLik of item %d is %v at theta: the likelihood of that datum (is the datum itself NaN or infinite?)", i, v)
		}
	}
	// The gradients against finite differences of the log densities.
	worst := CheckGradient(ld.LogPrior, func(dst, x []float64) {
		clear(dst)
		m.LogPriorGrad(dst, x)
	}, theta)
	term := "LogPriorGrad"
	for _, i := range items {
		c := CheckGradient(func(x []float64) float64 { return ld.LogLik(x, i) }, func(dst, x []float64) {
			clear(dst)
			m.LogLikGrad(dst, x, i, 1)
		}, theta)
		if c.RelErr > worst.RelErr || math.IsNaN(c.RelErr) && !math.IsNaN(worst.RelErr) {
			worst, term = c, fmt.Sprintf("LogLikGrad of item %d", i)
		}
	}
	if !(worst.RelErr <= valid.GradTolerance) {
		return worst, errorf(ErrGradient, "CheckModel: %s does not match finite differences of the log density in parameter %d (0-based): analytic %.10g, finite difference %.10g (relative error %.3g, tolerance %g)",
			term, worst.Index, worst.Analytic, worst.Numeric, worst.RelErr, valid.GradTolerance)
	}
	return worst, nil
}

// checkItems is how many items CheckModel checks when it is given none.
const checkItems = 100
