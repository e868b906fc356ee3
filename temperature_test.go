// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// stdNormal is N(0, I) in its dimension: ∇U = θ, with its Hessian diagonal.
type stdNormal struct{}

func (stdNormal) Grad(dst, th []float64) { copy(dst, th) }
func (stdNormal) GradDiagHessian(dst, h, th []float64) {
	copy(dst, th)
	for i := range h {
		h[i] = 1
	}
}

// quartic is U = Σ θ⁴/4: sd 0.83 (Γ(3/4)/Γ(1/4))^½·√2 per coordinate.
type quartic struct{}

func (quartic) Grad(dst, th []float64) {
	for i, x := range th {
		dst[i] = x * x * x
	}
}

// TestRunAway: Run fails with ErrTemperature, keeping every draw, the runs
// that used to return a wrong answer with nothing flagged — pSGLD with a
// fixed step on N(0, 1) at ε = 2.5 (sd 1.8, configurational temperature
// 3.2), and on a quartic from θ₀ = 30 at ε = 1 (the tails too heavy, T =
// 3.5) — and the one spread too narrow: pSGLD with its Γ kept at ε = 0.1
// (sd 0.64, T = 0.42). At ε = 10 the divergences stop it first. And SGLD
// at a stable step whose variance is 2.5 times the target's.
func TestRunAway(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    sgmcmc.Gradient
		x0   float64
		eps  float64
		drop bool
		want string
	}{
		{"pSGLD N(0,1) eps 2.5", stdNormal{}, 0, 2.5, true, "temperature"},
		{"pSGLD N(0,1) eps 10", stdNormal{}, 0, 10, true, "divergent"},
		{"pSGLD quartic from 30 eps 1", quartic{}, 30, 1, true, "temperature"},
		{"pSGLD N(0,1) with Γ eps 0.1", stdNormal{}, 0, 0.1, false, "too narrow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := sgmcmc.NewPSGLD(tc.g, []float64{tc.x0}, rand.NewPCG(1, 2), &sgmcmc.PSGLDSettings{DropGamma: tc.drop})
			if err != nil {
				t.Fatal(err)
			}
			c, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 10000, BurnIn: 1000, Schedule: sgmcmc.Constant(tc.eps)})
			want := sgmcmc.ErrTemperature
			if tc.want == "divergent" {
				want = sgmcmc.ErrDivergence
			}
			if !errors.Is(err, want) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %v saying %q", err, want, tc.want)
			}
			if c == nil || (tc.want != "divergent" && c.Len() != 10000) {
				t.Fatalf("the draws were not kept: %v", c)
			}
		})
	}
	// SGLD (the Recipe's fused pass) at ε = 1.2 on N(0, I₃): stable, its
	// variance 1/(1 − ε/2) = 2.5 times the target's; thinned by 5, the
	// test reads every fifth position.
	s, err := sgmcmc.NewSGLD(stdNormal{}, make([]float64, 3), rand.NewPCG(3, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 2000, Thin: 5, BurnIn: 100, Schedule: sgmcmc.Constant(1.2)})
	if !errors.Is(err, sgmcmc.ErrTemperature) || c.Len() != 2000 {
		t.Errorf("SGLD at ε = 1.2: err = %v (%d draws), want ErrTemperature with every draw", err, c.Len())
	}
}

// TestTemperatureNoFalseAlarm: right runs of every gradient sampler with a
// divergence tracker, 20 seeds each on N(0, I₅) (SGLD's O(ε) variance
// excess 1/(1 − ε/2) is 2.6 % at ε = 0.05), never fail the test.
func TestTemperatureNoFalseAlarm(t *testing.T) {
	seeds := 20
	if testing.Short() {
		seeds = 5
	}
	x0 := make([]float64, 5)
	build := map[string]func(src rand.Source) (sgmcmc.Sampler, float64, error){
		"SGLD": func(src rand.Source) (sgmcmc.Sampler, float64, error) {
			s, err := sgmcmc.NewSGLD(stdNormal{}, x0, src, nil)
			return s, 0.05, err
		},
		"SGHMC": func(src rand.Source) (sgmcmc.Sampler, float64, error) {
			s, err := sgmcmc.NewSGHMC(stdNormal{}, x0, src, nil)
			return s, 0.05, err
		},
		"HAMCMC": func(src rand.Source) (sgmcmc.Sampler, float64, error) {
			s, err := sgmcmc.NewHAMCMC(stdNormal{}, x0, src, nil)
			return s, 0.05, err
		},
		"pSGLD frozen": func(src rand.Source) (sgmcmc.Sampler, float64, error) {
			v0 := []float64{1, 1, 1, 1, 1}
			s, err := sgmcmc.NewPSGLD(stdNormal{}, x0, src, &sgmcmc.PSGLDSettings{V0: v0, Freeze: true})
			return s, 0.05, err
		},
	}
	for name, b := range build {
		for seed := range uint64(seeds) {
			s, eps, err := b(rand.NewPCG(seed, 7))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 2000, Thin: 5, BurnIn: 500, Schedule: sgmcmc.Constant(eps)}); err != nil {
				t.Errorf("%s seed %d: %v", name, seed, err)
			}
		}
	}
}
