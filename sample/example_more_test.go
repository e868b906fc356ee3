// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// ExampleSettings_temperature samples a cold posterior, T = 0.25,
// of a Gaussian with sd 2: its sd is halved.
func ExampleSettings_temperature() {
	grad := func(int, rand.Source) (sgmcmc.Gradient, error) {
		return sgmcmc.GradFunc(func(dst, th []float64) { dst[0] = th[0] / 4 }), nil
	}
	res, err := sample.Run(context.Background(), sample.Problem{Gradient: grad}, []float64{0},
		&sample.Settings{Seed: 1, Temperature: 0.25, Draws: 2000}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("T = %g, sd %.1f (2 at T = 1), %d warnings\n", res.Temperature, res.Summary[0].SD, len(res.Warnings))
	// Output:
	// T = 0.25, sd 1.0 (2 at T = 1), 0 warnings
}

// Above DenseMax (here forced down to 2 on a 5-parameter standard normal)
// sample.Run keeps every coordinate's running moments in Result.Moments, and
// the draws of the coordinates that fit in DrawsMemory: here one of them.
func ExampleMoments() {
	grad := func(int, rand.Source) (sgmcmc.Gradient, error) {
		return sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) }), nil
	}
	s := &sample.Settings{Seed: 1, DenseMax: 2, DrawsMemory: 4 * 1000 * 8}
	res, err := sample.Run(context.Background(), sample.Problem{Gradient: grad}, make([]float64, 5), s, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := res.Moments
	fmt.Println("draws kept of coordinates", res.Chains[0].Coords, "; summary rows", len(res.Summary))
	for i := range m.Mean {
		fmt.Printf("θ_%d: mean within 4 MCSE of 0: %v, sd within 10%% of 1: %v\n", i, math.Abs(m.Mean[i]) < 4*m.MCSE[i], math.Abs(m.SD[i]-1) < 0.1)
	}
	// Output:
	// draws kept of coordinates [0] ; summary rows 1
	// θ_0: mean within 4 MCSE of 0: true, sd within 10% of 1: true
	// θ_1: mean within 4 MCSE of 0: true, sd within 10% of 1: true
	// θ_2: mean within 4 MCSE of 0: true, sd within 10% of 1: true
	// θ_3: mean within 4 MCSE of 0: true, sd within 10% of 1: true
	// θ_4: mean within 4 MCSE of 0: true, sd within 10% of 1: true
}
