// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"context"
	"math"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/sample"
)

// gammaPrior is a model whose posterior is its Gamma(a, b) prior on x > 0
// (one datum with no likelihood).
type gammaPrior struct{ a, b float64 }

func (g gammaPrior) Dim() int { return 1 }
func (g gammaPrior) Len() int { return 1 }
func (g gammaPrior) LogPriorGrad(dst, x []float64) {
	dst[0] += (g.a-1)/x[0] - g.b
}
func (g gammaPrior) LogLikGrad(dst, x []float64, i int, scale float64) {}

// trigamma returns ψ₁(x), x > 0: the recurrence up to x ≥ 6, then the
// asymptotic series (error below 10⁻¹⁰ there).
func trigamma(x float64) float64 {
	var s float64
	for ; x < 6; x++ {
		s += 1 / (x * x)
	}
	x2 := x * x
	return s + 1/x + 1/(2*x2) + 1/(6*x2*x) - 1/(30*x2*x2*x) + 1/(42*x2*x2*x2*x) - 1/(30*x2*x2*x2*x2*x)
}

// TestSampleTemperatureGamma: sample.Run at temperature T on a Gamma(3, 1)
// posterior through the Positive transform samples y = log x from
// p(y)^{1/T} ∝ exp((3y − e^y)/T), the law of log of a Gamma(3/T, 1/T)
// variable, whose variance is ψ₁(3/T): 0.0339, 0.395 and 2.55 at
// T = 0.1, 1 and 4 (not T times the T = 1 variance: the log-Gamma is not
// Gaussian). Each within 4 Monte Carlo standard errors plus the
// integrator's 1 % allowance.
func TestSampleTemperatureGamma(t *testing.T) {
	if testing.Short() {
		t.Skip("three Sample runs")
	}
	sp, err := NewSpace(Param{Name: "x", Transform: Positive{}})
	if err != nil {
		t.Fatal(err)
	}
	um, err := sp.Model(gammaPrior{a: 3, b: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, T := range []float64{0.1, 1, 4} {
		res, err := sample.Run(context.Background(), sample.Problem{Model: um}, []float64{0},
			&sample.Settings{Seed: 5, Draws: 4000, Temperature: T}, nil)
		if err != nil {
			t.Fatal(T, err)
		}
		p := res.Summary[0]
		want := trigamma(3 / T)
		v := p.SD * p.SD
		// Var's Monte Carlo error is Var·√((2 + κ)/n_eff), κ the excess
		// kurtosis ψ₃/ψ₁² of log-Gamma: 0.07 at shape 30, 0.7 at 3, 3 at
		// 0.75, so √((2 + κ)/2) ≤ 1.6 and twice √(2/n_eff) covers it.
		se := 2 * v * math.Sqrt(2/p.ESSBulk)
		t.Logf("T = %g: Var(log x) = %.4f, ψ₁(3/T) = %.4f, ±%.4f (ESS %.0f), warnings %q", T, v, want, se, p.ESSBulk, res.Warnings)
		if math.Abs(v-want) > 4*se+0.01*want {
			t.Errorf("T = %g: Var(log x) = %.4f, want ψ₁(3/T) = %.4f within %.4f", T, v, want, 4*se+0.01*want)
		}
	}
}
