// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// regression is y_i ~ N(a + b·x_i, 0.8²) with a flat prior. With x
// uncentred (height in inches, as in Gelman & Hill's earnings data) the
// intercept and slope correlate at −0.999: a posterior that a sampler
// without a dense preconditioner cannot mix on.
type regression struct{ x, y []float64 }

func (m regression) Dim() int                       { return 2 }
func (m regression) Len() int                       { return len(m.x) }
func (m regression) LogPriorGrad(dst, th []float64) {}
func (m regression) LogLikGrad(dst, th []float64, i int, scale float64) {
	r := (m.y[i] - th[0] - th[1]*m.x[i]) / 0.64
	dst[0] += scale * r
	dst[1] += scale * r * m.x[i]
}

// Sample with every setting adapted: only the model and a start are given.
// The posterior sds come out within a few per cent of the exact ones (1.0
// printed to one decimal).
func ExampleRun() {
	r := rand.New(rand.NewPCG(1, 1))
	m := regression{x: make([]float64, 1000), y: make([]float64, 1000)}
	for i := range m.x {
		m.x[i] = 66 + 4*r.NormFloat64()
		m.y[i] = 5.8 + 0.06*m.x[i] + 0.8*r.NormFloat64()
	}
	res, err := sample.Run(context.Background(), sample.Problem{Model: m, Names: []string{"a", "b"}},
		[]float64{0, 0}, &sample.Settings{Seed: 1}, nil)
	if err != nil {
		log.Fatal(err)
	}
	// The exact posterior sds, from (XᵀX)⁻¹·0.64.
	var sx, sxx float64
	for _, x := range m.x {
		sx, sxx = sx+x, sxx+x*x
	}
	n := float64(len(m.x))
	det := n*sxx - sx*sx
	exact := []float64{math.Sqrt(0.64 * sxx / det), math.Sqrt(0.64 * n / det)}
	for j, p := range res.Summary {
		fmt.Printf("%s: sd / exact sd = %.1f, R̂ < 1.01: %v\n", p.Name, p.SD/exact[j], p.RHat < 1.01)
	}
	fmt.Println("warnings:", len(res.Warnings))
	// Output:
	// a: sd / exact sd = 1.0, R̂ < 1.01: true
	// b: sd / exact sd = 1.0, R̂ < 1.01: true
	// warnings: 0
}

// A run that stops early — here its callback stops it after 50 kept draws
// — returns a partial Result with the draws kept, their summary and a
// warning saying why, together with an error wrapping the cause.
func ExampleRun_stoppedEarly() {
	gauss := sample.Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) {
		return sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) }), nil // N(0, I)
	}}
	kept := 0
	stop := func(si sgmcmc.StepInfo) error {
		if kept == 50 {
			return sgmcmc.ErrStop
		}
		if si.Kept {
			kept++
		}
		return nil
	}
	res, err := sample.Run(context.Background(), gauss, []float64{0, 0}, &sample.Settings{Seed: 1, Chains: 1, Callback: stop}, nil)
	fmt.Println(errors.Is(err, sgmcmc.ErrStop))
	fmt.Println(res.Chains[0].Len(), "draws kept;", len(res.Summary), "parameters summarised")
	fmt.Println(res.Warnings[0].Kind, "|", res.Warnings[0].Message[:24])
	// Output:
	// true
	// 50 draws kept; 2 parameters summarised
	// stopped | the run stopped early (c
}
