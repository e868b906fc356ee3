// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

// Constant is a constant step size.
type Constant float64

// StepSize returns c.
func (c Constant) StepSize(int) float64 { return float64(c) }

// Polynomial is the SGLD schedule ε_t = A (B + t)^(−Gamma) of Welling & Teh
// (2011). Convergence theory asks for Gamma in (0.5, 1].
//
// Decay and Power are the same family written as their papers write it:
// Decay{H, Tau, Kappa} is Polynomial{H·Tau^Kappa, Tau, Kappa}, and
// Power{A, e} is Polynomial{A^e, 0, e}. Use whichever matches the
// parameters you are given; they differ only in floating-point rounding.
type Polynomial struct {
	A, B, Gamma float64
}

// StepSize returns A (B + t)^(−Gamma).
func (p Polynomial) StepSize(t int) float64 { return p.A * math.Pow(p.B+float64(t), -p.Gamma) }

// Decay is the schedule h_t = H (1 + t/Tau)^(−Kappa) used for SGRLD and SCIR on
// LDA (Patterson & Teh 2013; Baker et al. 2018).
type Decay struct {
	H, Tau, Kappa float64
}

// StepSize returns H (1 + t/Tau)^(−Kappa).
func (d Decay) StepSize(t int) float64 { return d.H * math.Pow(1+float64(t)/d.Tau, -d.Kappa) }

// Power is the HAMCMC schedule ε_t = (A/t)^Exponent of Şimşekli et al.
// (2016). The zero Exponent means 0.51, the paper's value.
type Power struct {
	A, Exponent float64
}

// StepSize returns (A/t)^Exponent.
func (p Power) StepSize(t int) float64 {
	e := p.Exponent
	if e == 0 {
		e = 0.51
	}
	return math.Pow(p.A/float64(t), e)
}

// ScheduleFunc adapts a function to the Schedule interface.
type ScheduleFunc func(t int) float64

// StepSize returns f(t).
func (f ScheduleFunc) StepSize(t int) float64 { return f(t) }
