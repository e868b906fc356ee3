// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// SCIR on the sparse Dirichlet posterior of the SCIR paper: N = 1000
// categorical observations with counts (800, 100, 100, 0, …, 0) over ten
// categories and a Dir(0.1, …, 0.1) prior, from minibatches of ten.
func ExampleSCIR() {
	counts := []int{800, 100, 100, 0, 0, 0, 0, 0, 0, 0}
	var labels sgmcmc.Categorical
	for j, n := range counts {
		for range n {
			labels = append(labels, j)
		}
	}
	alpha := make([]float64, len(counts))
	theta0 := make([]float64, len(counts))
	for j := range alpha {
		alpha[j], theta0[j] = 0.1, 1
	}
	est, err := sgmcmc.NewCountMinibatch(alpha, labels, 10, rand.NewPCG(1, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := sgmcmc.NewSCIR(est, theta0, rand.NewPCG(3, 4), &sgmcmc.SCIRSettings{Simplex: len(counts)})
	if err != nil {
		fmt.Println(err)
		return
	}
	chain, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{
		Draws: 5000, BurnIn: 1000, Schedule: sgmcmc.Constant(0.5),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	mean := make([]float64, len(counts))
	chain.Mean(mean)
	fmt.Printf("posterior mean of ω_1..ω_3: %.2f (exact 0.80 0.10 0.10)\n", mean[:3])
	// The sparse components stay strictly positive with finite logarithms.
	logw := s.LogPosition(nil)
	fmt.Printf("ω_5 > 0: %v, log ω_5 finite: %v\n", s.Position()[4] > 0, !math.IsInf(logw[4], 0))
	// Output:
	// posterior mean of ω_1..ω_3: [0.80 0.10 0.10] (exact 0.80 0.10 0.10)
	// ω_5 > 0: true, log ω_5 finite: true
}

// SCIR inside a larger Gibbs sampler: the caller computes the shape â from
// its latent variables and hands it to StepShape. Here the "latent counts"
// are fixed, so the draws of θ are exact Gamma(a, 1) draws.
func ExampleSCIR_StepShape() {
	s, err := sgmcmc.NewSCIR(nil, []float64{1, 1}, rand.NewPCG(5, 6), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	ahat := []float64{0.5, 20}
	var sum [2]float64
	const n = 20000
	for range n {
		if err := s.StepShape(3, ahat); err != nil {
			fmt.Println(err)
			return
		}
		sum[0] += s.Theta()[0]
		sum[1] += s.Theta()[1]
	}
	fmt.Printf("mean θ: %.1f %.1f (exact 0.5 20)\n", sum[0]/n, sum[1]/n)
	// Output:
	// mean θ: 0.5 20.0 (exact 0.5 20)
}
