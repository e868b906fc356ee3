// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"gonum.org/v1/gonum/stat/distuv"
)

// arChains returns 4 chains of 1000 draws of an AR(1) process with
// coefficient 0.5 and unit variance, whose ESS is S(1−ρ)/(1+ρ) = 4000/3.
func arChains() [][]float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	chains := make([][]float64, 4)
	for c := range chains {
		x := rng.NormFloat64()
		for range 1000 {
			chains[c] = append(chains[c], x)
			x = 0.5*x + math.Sqrt(0.75)*rng.NormFloat64()
		}
	}
	return chains
}

// The tail ESS of an AR(1) chain exceeds its bulk ESS: indicators of tail
// events decorrelate faster than the draws themselves.
func ExampleESSBulk() {
	chains := arChains()
	bulk, _ := diagnostics.ESSBulk(chains)
	tail, _ := diagnostics.ESSTail(chains)
	fmt.Printf("exact %.0f, bulk %.0f, tail %.0f\n", 4000.0/3, bulk, tail)
	// Output:
	// exact 1333, bulk 1373, tail 2381
}

func ExampleRHat() {
	chains := arChains()
	r, _ := diagnostics.RHat(chains)
	fmt.Printf("mixed: %.3f\n", r)
	for i := range chains[0] {
		chains[0][i] += 1 // one chain stuck one standard deviation away
	}
	r, _ = diagnostics.RHat(chains)
	fmt.Printf("one chain shifted: %.3f\n", r)
	// Output:
	// mixed: 1.002
	// one chain shifted: 1.105
}

func ExampleSummarize() {
	s, _ := diagnostics.Summarize(arChains())
	fmt.Printf("mean %.3f ± %.3f, median %.3f, ess_bulk %.0f, rhat %.3f\n", s.Mean, s.MCSEMean, s.Median, s.ESSBulk, s.RHat)
	// Output:
	// mean 0.040 ± 0.027, median 0.040, ess_bulk 1373, rhat 1.002
}

func ExampleKS() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	exact, _ := diagnostics.KS(x, distuv.UnitNormal.CDF)
	for i := range x {
		x[i] += 0.5
	}
	shifted, _ := diagnostics.KS(x, distuv.UnitNormal.CDF)
	fmt.Printf("exact draws %.3f, shifted by 0.5 %.3f (2Φ(0.25)−1 = %.3f)\n", exact, shifted, 2*distuv.UnitNormal.CDF(0.25)-1)
	// Output:
	// exact draws 0.028, shifted by 0.5 0.218 (2Φ(0.25)−1 = 0.197)
}

// The Dirichlet target of Baker et al. (2018): exact draws have a small
// Rosenblatt KS distance.
func ExampleRosenblattKS() {
	alpha := []float64{112.1, 119.1, 92.1, 98.1, 95.1, 96.1, 102.1, 92.1, 91.1, 103.1}
	rng := rand.New(rand.NewPCG(1, 2))
	draws := make([][]float64, 1000)
	for i := range draws {
		x := make([]float64, len(alpha))
		var s float64
		for j, a := range alpha {
			x[j] = distuv.Gamma{Alpha: a, Beta: 1, Src: rng}.Rand()
			s += x[j]
		}
		for j := range x {
			x[j] /= s
		}
		draws[i] = x
	}
	d, _ := diagnostics.RosenblattKS(draws, diagnostics.DirichletConditionalCDF(alpha), len(alpha)-1)
	fmt.Printf("%.3f\n", d)
	// Output:
	// 0.028
}

func ExampleKSD() {
	rng := rand.New(rand.NewPCG(1, 2))
	score := func(dst, x []float64) { // ∇log p for N(0, I)
		for i, v := range x {
			dst[i] = -v
		}
	}
	for _, shift := range []float64{0, 0.5} {
		draws := make([][]float64, 500)
		for i := range draws {
			draws[i] = []float64{rng.NormFloat64() + shift, rng.NormFloat64()}
		}
		k, _ := diagnostics.KSD(draws, score, nil)
		fmt.Printf("shift %.1f: KSD %.3f\n", shift, k)
	}
	// Output:
	// shift 0.0: KSD 0.067
	// shift 0.5: KSD 0.401
}

// With decreasing step sizes the posterior mean is the step-weighted average
// of the draws (Eq. 12 of Şimşekli et al. 2016).
func ExampleWeightedMean() {
	h := []float64{1.0, 2.0, 3.0}
	eps := []float64{0.5, 0.3, 0.2}
	m, _ := diagnostics.WeightedMean(h, eps)
	fmt.Printf("%.2f\n", m)
	// Output:
	// 1.70
}

// The histogram KL of exact draws is about (bins − 1)/(2n); a shift δ of a
// unit normal adds δ²/2.
func ExampleKL() {
	rng := rand.New(rand.NewPCG(1, 2))
	density := func(x float64) float64 { return math.Exp(-x * x / 2) } // unnormalised
	g := diagnostics.Grid{Min: -5, Max: 5, Bins: 50}
	for _, shift := range []float64{0, 0.5} {
		x := make([]float64, 10000)
		for i := range x {
			x[i] = rng.NormFloat64() + shift
		}
		kl, _ := diagnostics.KL(x, density, g)
		fmt.Printf("shift %.1f: KL %.4f\n", shift, kl)
	}
	// Output:
	// shift 0.0: KL 0.0024
	// shift 0.5: KL 0.1232
}

func ExampleWasserstein() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 2000)
	for i := range x {
		x[i] = rng.NormFloat64() + 0.3
	}
	w, _ := diagnostics.Wasserstein(x, distuv.UnitNormal.CDF)
	fmt.Printf("W1 to N(0, 1) of N(0.3, 1) draws: %.2f\n", w)
	// Output:
	// W1 to N(0, 1) of N(0.3, 1) draws: 0.34
}
