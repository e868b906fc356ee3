// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/targets"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// TestJoin: on the mixture (1 − 10⁻¹²)·N(−10, 1) + 10⁻¹²·N(10, 1), whose
// second mode holds e^−27.6 of the mass, started where the two
// components' densities are equal, the
// chains whose warmups settle in the light mode join the heavy one
// (Adapted.Joined): every chain then samples N(−10, 1), within its Monte
// Carlo error, without a warning, and each joined chain is rebuilt from
// its Adapted bit for bit. With Rounds = 1 the same seeds keep the split
// and warn. On the equal mixture no chain joins.
func TestJoin(t *testing.T) {
	b := targets.Bimodal{D: 1, W: 1e-12}
	m := targets.DensityModel{T: b}
	// Where the two components' densities are equal, x = log(W⁻¹ − 1)/20,
	// so that the starts (±1 around it) fall in either basin.
	start := math.Log(1/b.W-1) / 20
	joined := 0
	for seed := uint64(1); seed <= 3; seed++ {
		one, err := sample.Run(context.Background(), sample.Problem{Model: m}, []float64{start}, &sample.Settings{Seed: seed, Draws: 200, Rounds: 1}, sample.SGHMC{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sample.Run(context.Background(), sample.Problem{Model: m}, []float64{start}, &sample.Settings{Seed: seed, Draws: 200}, sample.SGHMC{})
		if err != nil {
			t.Fatal(err)
		}
		light := 0
		for _, c := range one.Chains {
			light += b.Mode(c.At(0))
		}
		n := 0
		for c, ch := range res.Chains {
			a := &res.Adapted[c]
			if a.Joined {
				n++
			}
			if got := b.Mode(ch.At(ch.Len() - 1)); got != 0 {
				t.Errorf("seed %d: chain %d ends in the light mode (joined %v)", seed, c, a.Joined)
			}
			if !a.Joined {
				continue
			}
			// The joined chain, rebuilt from its Adapted.
			g, err := a.NewGradient(m)
			if err != nil {
				t.Fatal(err)
			}
			aff, err := a.Affine(g)
			if err != nil {
				t.Fatal(err)
			}
			s, err := a.NewSampler(aff)
			if err != nil {
				t.Fatal(err)
			}
			z, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 200, Thin: a.Thin, BurnIn: a.BurnIn, Schedule: sgmcmc.Constant(a.Eps)})
			if err != nil {
				t.Fatal(err)
			}
			th := make([]float64, 1)
			for i := range z.Len() {
				aff.ToTheta(th, z.At(i))
				if th[0] != ch.At(i)[0] {
					t.Fatalf("seed %d: joined chain %d draw %d: rebuilt %v, sampled %v", seed, c, i, th[0], ch.At(i)[0])
				}
			}
		}
		if n != light {
			t.Errorf("seed %d: %d chains settled in the light mode with one round, %d joined", seed, light, n)
		}
		joined += n
		t.Logf("seed %d: %d of %d chains settled in the light mode with one round, %d joined", seed, light, len(one.Chains), n)
		if len(res.Warnings) > 0 {
			t.Errorf("seed %d: warnings %q", seed, res.Warnings)
		}
		if light > 0 && !strings.Contains(strings.Join(one.Warnings.Messages(), " "), "separate") {
			t.Errorf("seed %d: one round, %d chains in the light mode, no mode warning: %q", seed, light, one.Warnings)
		}
		// Every chain samples N(−10, 1): the pooled mean within 4 MCSE.
		row := res.Summary[0]
		if math.Abs(row.Mean+10) > 4*row.MCSEMean || math.Abs(row.SD-1) > 0.15 {
			t.Errorf("seed %d: mean %.3f (MCSE %.3f), sd %.3f: want N(−10, 1)", seed, row.Mean, row.MCSEMean, row.SD)
		}
	}
	if joined == 0 {
		t.Error("no chain settled in the light mode: the test does not test joining")
	}
	// Modes of equal mass: no chain joins another (the chains split on
	// these seeds, TestWarmupModeWarning).
	for seed := uint64(1); seed <= 3; seed++ {
		res, err := sample.Run(context.Background(), sample.Problem{Model: targets.DensityModel{T: targets.Bimodal{D: 1}}}, []float64{0}, &sample.Settings{Seed: seed, Draws: 100}, sample.SGHMC{})
		if err != nil {
			t.Fatal(err)
		}
		for c, a := range res.Adapted {
			if a.Joined {
				t.Errorf("equal mixture, seed %d: chain %d joined another", seed, c)
			}
		}
	}
}
