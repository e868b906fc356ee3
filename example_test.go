// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"context"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// gaussMeanModel is the posterior of the mean θ of unit-variance Gaussian
// data under a N(0, 10²) prior.
type gaussMeanModel struct{ x []float64 }

func (m gaussMeanModel) Dim() int                       { return 1 }
func (m gaussMeanModel) Len() int                       { return len(m.x) }
func (m gaussMeanModel) LogPriorGrad(dst, th []float64) { dst[0] -= th[0] / 100 }
func (m gaussMeanModel) LogLikGrad(dst, th []float64, i int, scale float64) {
	dst[0] += scale * (m.x[i] - th[0])
}

// Sample the posterior of a Gaussian mean from minibatches of 1,000 out of
// 10,000 data with SGHMC, its gradient noise B̂ = (N²/n)·Var x ≈ 10⁵
// corrected (2C − εB̂ = 10 ≥ 0): without the correction, or with batches of
// 100 at ε = 10⁻³, the noise would heat the chain many times over, which
// Run's temperature test reports (sgmcmc.ErrTemperature).
func ExampleNewSGHMC() {
	data := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 10000)
	var sum float64
	for i := range x {
		x[i] = 3 + data.NormFloat64()
		sum += x[i]
	}
	model := gaussMeanModel{x}
	batch, err := sgmcmc.NewMinibatch(model, 1000, false, rand.NewPCG(3, 4))
	if err != nil {
		log.Fatal(err)
	}
	s, err := sgmcmc.NewSGHMC(batch, []float64{0}, rand.NewPCG(5, 6), &sgmcmc.SGHMCSettings{Friction: 10, NoiseVar: []float64{1e5}})
	if err != nil {
		log.Fatal(err)
	}
	chain, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{
		Draws: 5000, BurnIn: 1000, Thin: 2, Schedule: sgmcmc.Constant(1e-4),
	})
	if err != nil {
		log.Fatal(err)
	}
	mean := make([]float64, 1)
	chain.Mean(mean)
	fmt.Printf("posterior mean %.1f (sample mean %.1f), %d draws\n", mean[0], sum/float64(len(x)), chain.Len())
	// Output:
	// posterior mean 3.0 (sample mean 3.0), 5000 draws
}

// A custom sampler from the complete recipe: underdamped Langevin dynamics
// with a position-dependent friction, checked numerically before use.
func ExampleNewRecipe() {
	grad := sgmcmc.GradFunc(func(dst, th []float64) { dst[0] = th[0] }) // U = θ²/2
	friction, _ := sgmcmc.NewDiagFunc(1, func(dst, z []float64) { dst[0] = 1 + z[0]*z[0] })
	D, _ := sgmcmc.NewBlock([]int{1, 1}, [][]sgmcmc.Operator{{nil, nil}, {nil, friction}})
	Q, _ := sgmcmc.NewBlock([]int{1, 1}, [][]sgmcmc.Operator{{nil, sgmcmc.Scalar{N: 1, C: -1}}, {sgmcmc.Scalar{N: 1, C: 1}, nil}})
	r, err := sgmcmc.NewRecipe(sgmcmc.RecipeSpec{
		Blocks: []int{1, 1},
		Grad:   grad,
		GradK:  sgmcmc.Kinetic{}, // K = r²/2
		D:      D,
		Q:      Q,
		// D_rr depends on θ only, so Γ_r = Σ_j ∂_j D_rj = ∂_r D_rr = 0.
		Z0:  []float64{0, 0},
		Src: rand.NewPCG(1, 1),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("check:", r.Check([]float64{0.5, -1}, 0.01, nil))
	chain, _ := sgmcmc.Run(context.Background(), r, sgmcmc.RunOptions{Draws: 1000000, Schedule: sgmcmc.Constant(0.01)})
	var m2 float64
	for i := range chain.Len() {
		m2 += chain.At(i)[0] * chain.At(i)[0]
	}
	fmt.Printf("E θ² ≈ %.1f\n", m2/float64(chain.Len()))
	// Output:
	// check: <nil>
	// E θ² ≈ 1.0
}

// Check finds a wrong correction term: here a friction that depends on the
// momentum itself, whose Γ_r = ∂_r D_rr = 2r was left out.
func ExampleRecipe_Check() {
	friction, _ := sgmcmc.NewDiagFunc(1, func(dst, z []float64) { dst[0] = 1 + z[1]*z[1] })
	D, _ := sgmcmc.NewBlock([]int{1, 1}, [][]sgmcmc.Operator{{nil, nil}, {nil, friction}})
	Q, _ := sgmcmc.NewBlock([]int{1, 1}, [][]sgmcmc.Operator{{nil, sgmcmc.Scalar{N: 1, C: -1}}, {sgmcmc.Scalar{N: 1, C: 1}, nil}})
	r, _ := sgmcmc.NewRecipe(sgmcmc.RecipeSpec{
		Blocks: []int{1, 1},
		Grad:   sgmcmc.GradFunc(func(dst, th []float64) { dst[0] = th[0] }),
		GradK:  sgmcmc.Kinetic{},
		D:      D, Q: Q,
		Z0: []float64{0, 0}, Src: rand.NewPCG(1, 1),
	})
	fmt.Println(r.Check([]float64{0.5, 0.25}, 0.01, nil))
	// Output:
	// sgmcmc: recipe check failed: Γ does not match Σ_j ∂_j(D+Q)_ij: coordinate 1 has closed form 0, finite differences 0.5
}

// Run with a decreasing schedule and the step-weighted mean of Eq. 12.
func ExampleRun() {
	s, _ := sgmcmc.NewSGLD(sgmcmc.GradFunc(func(dst, th []float64) {
		dst[0] = th[0] - 2 // N(2, 1)
	}), []float64{0}, rand.NewPCG(7, 7), nil)
	chain, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{
		Draws: 100000, BurnIn: 1000, Schedule: sgmcmc.Polynomial{A: 0.5, B: 10, Gamma: 0.33},
	})
	if err != nil {
		log.Fatal(err)
	}
	w := make([]float64, 1)
	chain.WeightedMean(w)
	fmt.Printf("step-weighted mean %.1f over %d steps\n", w[0], chain.Steps)
	// Output:
	// step-weighted mean 2.1 over 101000 steps
}
