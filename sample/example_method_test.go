// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// criticalSGHMC is a user's own method: SGHMC with the friction held at
// C = 2, critical damping of a whitened direction of unit curvature
// (doc/equations.md §13.2), and no noise correction B̂, so that sample.Run
// raises the batch until the gradient noise heats the chain by at most
// sample.Settings.MaxHeat.
type criticalSGHMC struct{}

func (criticalSGHMC) Name() string { return "critical SGHMC" }

func (criticalSGHMC) Rules(int) sample.Rules {
	return sample.Rules{StepConstant: 0.2, Momentum: true, MinFriction: 2}
}

func (criticalSGHMC) NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, a *sample.Adapted) (sgmcmc.Sampler, error) {
	return sgmcmc.NewSGHMC(g, z0, src, &sgmcmc.SGHMCSettings{Friction: a.Friction})
}

// A method of one's own, run by sample.Run with every setting adapted: warmup
// learns from Rules how to choose the step size, friction and batch, and
// builds the sampler with NewSampler in the whitened coordinates. The
// posterior sds come out within a few per cent of the exact ones.
func ExampleMethod() {
	r := rand.New(rand.NewPCG(1, 1))
	m := regression{x: make([]float64, 1000), y: make([]float64, 1000)}
	for i := range m.x {
		m.x[i] = 66 + 4*r.NormFloat64()
		m.y[i] = 5.8 + 0.06*m.x[i] + 0.8*r.NormFloat64()
	}
	res, err := sample.Run(context.Background(), sample.Problem{Model: m, Names: []string{"a", "b"}},
		[]float64{0, 0}, &sample.Settings{Seed: 1}, criticalSGHMC{})
	if err != nil {
		log.Fatal(err)
	}
	var sx, sxx float64
	for _, x := range m.x {
		sx, sxx = sx+x, sxx+x*x
	}
	n := float64(len(m.x))
	det := n*sxx - sx*sx
	exact := []float64{math.Sqrt(0.64 * sxx / det), math.Sqrt(0.64 * n / det)}
	a := res.Adapted[0]
	fmt.Printf("%s: friction %g, noise correction: %v\n", res.Method, a.Friction, a.NoiseVar != nil)
	for j, p := range res.Summary {
		fmt.Printf("%s: sd / exact sd = %.1f, R̂ < 1.01: %v\n", p.Name, p.SD/exact[j], p.RHat < 1.01)
	}
	fmt.Println("warnings:", len(res.Warnings))
	// Output:
	// critical SGHMC: friction 2, noise correction: false
	// a: sd / exact sd = 1.0, R̂ < 1.01: true
	// b: sd / exact sd = 1.0, R̂ < 1.01: true
	// warnings: 0
}
