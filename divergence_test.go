// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDivergencePlanted: SGLD on N(0, 1/λ) with ελ = 2.5 > 2 grows by a
// factor 1.5 per step. Run must stop with ErrDivergence naming a step long
// before the state overflows, keeping the draws before it, and the first
// divergent transitions must be those where |ΔU| first exceeds the
// threshold.
func TestDivergencePlanted(t *testing.T) {
	t.Parallel()
	const lambda = 100.0
	grad := GradFunc(func(dst, th []float64) {
		for i, x := range th {
			dst[i] = lambda * x
		}
	})
	for _, name := range []string{"SGLD", "SGHMC", "pSGLD", "HAMCMC"} {
		var s Sampler
		var err error
		th0 := []float64{0.1, -0.1, 0.05}
		switch name {
		case "SGLD":
			s, err = NewSGLD(grad, th0, rand.NewPCG(1, 1), nil)
		case "SGHMC":
			s, err = NewSGHMC(grad, th0, rand.NewPCG(1, 1), nil)
		case "pSGLD":
			s, err = NewPSGLD(grad, th0, rand.NewPCG(1, 1), &PSGLDSettings{V0: []float64{0, 0, 0}, Freeze: true, Lambda: 1})
		case "HAMCMC":
			s, err = NewHAMCMC(grad, th0, rand.NewPCG(1, 1), nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		eps := 2.5 / lambda
		if name == "SGHMC" {
			eps = 0.5 // ε√λ = 5
		}
		c, err := Run(context.Background(), s, RunOptions{Draws: 5000, Schedule: Constant(eps)})
		var se *StepError
		if !errors.Is(err, ErrDivergence) || !errors.As(err, &se) {
			t.Errorf("%s: err = %v, want a *StepError wrapping ErrDivergence", name, err)
			continue
		}
		if se.Step <= 0 || se.Index < 0 || se.Index > 2 || !(se.Value > divergenceNats) {
			t.Errorf("%s: error fields %+v", name, se)
		}
		if c.Len() == 0 || c.Len() > 500 {
			t.Errorf("%s: %d draws kept before the stop", name, c.Len())
		}
		if i := firstNonFinite(c.Draws); i >= 0 {
			t.Errorf("%s: non-finite draw kept", name)
		}
		if c.Divergences != 51 { // the default limit: 1 % of 5000 steps
			t.Errorf("%s: %d divergences at the stop, want 51", name, c.Divergences)
		}
	}
}

// TestDivergenceSilent: 10⁶ healthy steps of SGLD and SGHMC on a standard
// normal in 10 dimensions with gradient noise produce no divergence.
func TestDivergenceSilent(t *testing.T) {
	t.Parallel()
	n := 1000000
	if testing.Short() {
		n = 100000
	}
	noise := rand.New(rand.NewPCG(5, 5))
	grad := GradFunc(func(dst, th []float64) {
		for i, x := range th {
			dst[i] = x + noise.NormFloat64()
		}
	})
	sg, _ := NewSGLD(grad, make([]float64, 10), rand.NewPCG(2, 2), nil)
	sh, _ := NewSGHMC(grad, make([]float64, 10), rand.NewPCG(3, 3), nil)
	for name, s := range map[string]Sampler{"SGLD": sg, "SGHMC": sh} {
		eps := 0.1
		if name == "SGHMC" {
			eps = 0.3
		}
		c, err := Run(context.Background(), s, RunOptions{Draws: n / 100, Thin: 100, Schedule: Constant(eps), MaxDivergences: -1})
		if err != nil {
			t.Fatal(err)
		}
		if c.Divergences != 0 {
			_, last := s.(DivergenceCounter).Divergences()
			t.Errorf("%s: %d divergences in %d healthy steps (last %+v)", name, c.Divergences, n, last)
		}
		var m2 float64
		for _, x := range c.Draws {
			m2 += x * x
		}
		if m2 /= float64(len(c.Draws)); math.Abs(m2-1) > 0.3 {
			t.Errorf("%s: E θ² = %.3f; not the healthy chain the test assumes", name, m2)
		}
	}
}
