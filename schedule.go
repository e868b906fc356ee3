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
