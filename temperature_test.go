// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// TestTemperatureScalesVariance: on N(0, I) every recipe sampler at
// temperature T ∈ {0.1, 1, 4} has variance T times its variance at T = 1,
// within 4 combined Monte Carlo standard errors. The step is scaled with
// T (ε ∝ T first order, ∝ √T with momentum) so that the discretisation
// bias is the same at every T.
func TestTemperatureScalesVariance(t *testing.T) {
	t.Parallel()
	const d = 20
	steps := 60_000
	if testing.Short() {
		steps = 15_000
	}
	grad := sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) })
	unit := sgmcmc.DiagMetricFunc(func(g, dg, _ []float64) {
		for i := range g {
			g[i], dg[i] = 1, 0
		}
	})
	cases := []struct {
		name     string
		momentum bool
		make     func(temp float64, src rand.Source) (sgmcmc.Sampler, error)
		// epsAt, if not nil, is the step at T that keeps the step's
		// discretisation bias as at T = 1, for a sampler whose
		// preconditioner adapts to the tempered gradient: pSGLD's G grows
		// as √T (√v as 1/√T), HAMCMC's L-BFGS H as T.
		epsAt func(T float64) float64
	}{
		{"SGLD", false, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewSGLD(grad, make([]float64, d), src, &sgmcmc.SGLDSettings{Temperature: T})
		}, nil},
		{"SGRLD", false, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewSGRLD(grad, make([]float64, d), unit, src, &sgmcmc.SGRLDSettings{Temperature: T})
		}, nil},
		{"SGHMC", true, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewSGHMC(grad, make([]float64, d), src, &sgmcmc.SGHMCSettings{Temperature: T})
		}, nil},
		{"SGHMC-BAOAB", true, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewSGHMC(grad, make([]float64, d), src, &sgmcmc.SGHMCSettings{Temperature: T, Integrator: sgmcmc.BAOAB{}})
		}, nil},
		{"SGNHT-BADODAB", true, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewSGNHT(grad, make([]float64, d), src, &sgmcmc.SGNHTSettings{Temperature: T, Integrator: sgmcmc.BADODAB{}})
		}, nil},
		{"gSGRHMC", true, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewSGRHMC(grad, make([]float64, d), unit, src, &sgmcmc.SGRHMCSettings{Temperature: T})
		}, nil},
		{"pSGLD", false, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewPSGLD(grad, make([]float64, d), src, &sgmcmc.PSGLDSettings{Temperature: T, V0: constVec(d, 1/T), Freeze: true})
		}, func(T float64) float64 { return 0.05 * math.Sqrt(T) }},
		{"HAMCMC", false, func(T float64, src rand.Source) (sgmcmc.Sampler, error) {
			return sgmcmc.NewHAMCMC(grad, make([]float64, d), src, &sgmcmc.HAMCMCSettings{Temperature: T, Gamma: T})
		}, func(float64) float64 { return 0.05 }},
	}
	for _, c := range cases {
		var base, baseSE float64
		for k, T := range []float64{1, 0.1, 4} {
			eps := 0.05 * T
			switch {
			case c.epsAt != nil:
				eps = c.epsAt(T)
			case c.momentum:
				eps = 0.2 * math.Sqrt(T)
			}
			s, err := c.make(T, rand.NewPCG(11, uint64(k)))
			if err != nil {
				t.Fatal(c.name, err)
			}
			v, se := relVar(t, s, eps, 1/T, 2000, steps)
			if k == 0 {
				base, baseSE = v, se
				continue
			}
			tol := 4 * math.Hypot(se, baseSE)
			t.Logf("%s T=%g: Var/T = %.4f ± %.4f, at T = 1 %.4f ± %.4f", c.name, T, v, se, base, baseSE)
			if math.Abs(v-base) > tol {
				t.Errorf("%s T=%g: Var/T = %.4f, at T = 1 %.4f: more than %.4f apart", c.name, T, v, base, tol)
			}
		}
	}
	if _, err := sgmcmc.NewSGLD(grad, make([]float64, d), rand.NewPCG(1, 1), &sgmcmc.SGLDSettings{Temperature: -1}); !errors.Is(err, sgmcmc.ErrRange) {
		t.Errorf("Temperature −1: error %v, want ErrRange", err)
	}
}

// constVec returns a vector of d copies of v.
func constVec(d int, v float64) []float64 {
	x := make([]float64, d)
	for i := range x {
		x[i] = v
	}
	return x
}
