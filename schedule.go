// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

// Constant is a constant step size.
type Constant float64

// StepSize returns c.
func (c Constant) StepSize(int) float64 { return float64(c) }

// Polynomial is the schedule ε_t = A (B + t)^(−Gamma) of Welling & Teh
// (2011) for SGLD. Convergence theory asks for Gamma in (0.5, 1].
//
// The same family is written other ways in other papers: the schedule
// h_t = H (1 + t/τ)^(−κ) used for SGRLD and SCIR on LDA (Patterson & Teh
// 2013; Baker et al. 2018) is Polynomial{H·τ^κ, τ, κ}, and HAMCMC's
// ε_t = (a/t)^e of Şimşekli et al. (2016), with e = 0.51 in the paper, is
// Polynomial{a^e, 0, e}.
type Polynomial struct {
	A, B, Gamma float64
}

// StepSize returns A (B + t)^(−Gamma).
func (p Polynomial) StepSize(t int) float64 { return p.A * math.Pow(p.B+float64(t), -p.Gamma) }

// checkedSchedule is a schedule of the package's, whose settings Run
// checks before the first step.
type checkedSchedule interface {
	check(who string) error
}

func (c Constant) check(who string) error {
	if !(c > 0) || math.IsInf(float64(c), 0) {
		return errorf(ErrRange, "%s: Schedule Constant(%v), want a positive and finite step", who, float64(c))
	}
	return nil
}

func (p Polynomial) check(who string) error {
	switch {
	case !(p.A > 0) || math.IsInf(p.A, 0):
		return errorf(ErrRange, "%s: Schedule Polynomial{A: %v}, want A positive and finite", who, p.A)
	case !(p.B > -1) || math.IsInf(p.B, 0):
		return errorf(ErrRange, "%s: Schedule Polynomial{B: %v}, want B finite and above −1 (so that B + t > 0 from t = 1)", who, p.B)
	case !(p.Gamma >= 0) || math.IsInf(p.Gamma, 0):
		return errorf(ErrRange, "%s: Schedule Polynomial{Gamma: %v}, want Gamma finite and ≥ 0", who, p.Gamma)
	}
	return nil
}
