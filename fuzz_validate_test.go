// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// FuzzSchedules: Run with any Cyclical or Polynomial schedule either
// refuses it with ErrRange before a step, or runs: never a panic, never a
// non-finite draw with a nil error.
func FuzzSchedules(f *testing.F) {
	f.Add(0.1, 10.0, 0.5, 0.1, 1.0, 0.55)
	f.Add(0.1, 0.0, math.NaN(), -1.0, 0.0, 2.0)
	f.Add(math.Inf(1), -5.0, -1.0, 0.0, -3.0, 0.0)
	f.Fuzz(func(t *testing.T, eps0, cycle, explore, a, b, gamma float64) {
		g := sgmcmc.GradFunc(func(dst, th []float64) { dst[0] = th[0] })
		for _, sch := range []sgmcmc.Schedule{sgmcmc.Cyclical{Eps0: eps0, Cycle: int(math.Mod(cycle, 1e4)), Explore: explore}, sgmcmc.Polynomial{A: a, B: b, Gamma: gamma}} {
			s, err := sgmcmc.NewSGLD(g, []float64{0.5}, rand.NewPCG(1, 2), nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 50, Schedule: sch})
			if err != nil {
				continue
			}
			for _, v := range c.Draws {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("%+v: a non-finite draw with a nil error", sch)
				}
			}
		}
	})
}

// FuzzOperatorShapes: NewRecipe with a LowRankDiag diffusion of any shape
// (built as a struct literal, as NewLowRankDiag would refuse) either
// refuses it, with an error, or steps without a panic.
func FuzzOperatorShapes(f *testing.F) {
	f.Add(3, 6, 2, 1.0, 0.5)
	f.Add(3, 5, 2, 1.0, 0.5)
	f.Add(2, 0, 0, -1.0, 0.0)
	f.Add(0, 3, 9, 1.0, math.NaN())
	f.Fuzz(func(t *testing.T, na, nu, ns int, av, sv float64) {
		if na < 0 || nu < 0 || ns < 0 || na > 64 || nu > 4096 || ns > 64 {
			return
		}
		fill := func(n int, v float64) []float64 {
			s := make([]float64, n)
			for i := range s {
				s[i] = v
			}
			return s
		}
		op := &sgmcmc.LowRankDiag{A: fill(na, av), U: fill(nu, 0.1), S: fill(ns, sv)}
		g := sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) })
		r, err := sgmcmc.NewRecipe(sgmcmc.RecipeSpec{Grad: g, D: op, Z0: make([]float64, 3), Src: rand.NewPCG(1, 2), Integrator: sgmcmc.Euler{}})
		if err != nil {
			return
		}
		if err := r.Step(0.01); err != nil && !errors.Is(err, sgmcmc.ErrNonFinite) && !errors.Is(err, sgmcmc.ErrRange) {
			var nps *sgmcmc.NotPSDError
			if !errors.As(err, &nps) {
				t.Fatalf("%+v: Step: %v", op, err)
			}
		}
	})
}
