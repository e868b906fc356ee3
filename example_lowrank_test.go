// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// A whitening with a low-rank factor: θ = shift + diag(σ)(I + U diag(c) Uᵀ) z
// stretches the whitened direction u = (1, 1)/√2 by 1 + c = 3, so the
// preconditioner L Lᵀ has variance 9 along it.
func ExampleNewAffineLowRank() {
	grad := sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) }) // U = |θ|²/2
	s := 1 / math.Sqrt2
	a, err := sgmcmc.NewAffineLowRank(grad, []float64{0, 0}, []float64{1, 1}, []float64{s, s}, []float64{2})
	if err != nil {
		fmt.Println(err)
		return
	}
	th, z := make([]float64, 2), make([]float64, 2)
	a.ToTheta(th, []float64{s, s}) // along u
	a.ToZ(z, th)
	fmt.Printf("θ = %.4f, back to z = %.4f\n", th, z)
	a.ToTheta(th, []float64{s, -s}) // across u: unchanged
	fmt.Printf("θ = %.4f\n", th)
	// Output:
	// θ = [2.1213 2.1213], back to z = [0.7071 0.7071]
	// θ = [0.7071 -0.7071]
}

// LowRankDiag as the diffusion of a hand-built recipe: preconditioned
// Langevin dynamics on a standard normal with D = I + 3uuᵀ, whose
// stationary distribution is still the standard normal.
func ExampleNewLowRankDiag() {
	s := 1 / math.Sqrt2
	d, err := sgmcmc.NewLowRankDiag([]float64{1, 1}, []float64{s, s}, []float64{3})
	if err != nil {
		fmt.Println(err)
		return
	}
	grad := sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) })
	r, err := sgmcmc.NewRecipe(sgmcmc.RecipeSpec{Grad: grad, D: d, Z0: []float64{0, 0}, Src: rand.NewPCG(1, 2)})
	if err != nil {
		fmt.Println(err)
		return
	}
	var v [2]float64
	const n = 200000
	for range n {
		if err := r.Step(0.01); err != nil {
			fmt.Println(err)
			return
		}
		for i, x := range r.Position() {
			v[i] += x * x / n
		}
	}
	fmt.Printf("variances ≈ %.1f, %.1f\n", v[0], v[1])
	// Output:
	// variances ≈ 1.0, 1.0
}
