// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// cheapGrad is the gradient of the standard Gaussian: O(d) and trivially
// cheap, so that the benchmarks measure the sampler.
func cheapGrad(dst, th []float64) { copy(dst, th) }

type benchCase struct {
	name string
	eps  float64
	make func(d int) (Sampler, error)
}

func benchSamplers() []benchCase {
	g := GradFunc(cheapGrad)
	return []benchCase{
		{"SGLD", 0.01, func(d int) (Sampler, error) { return NewSGLD(g, make([]float64, d), rand.NewPCG(1, 1), nil) }},
		{"SGHMC", 0.01, func(d int) (Sampler, error) { return NewSGHMC(g, make([]float64, d), rand.NewPCG(1, 1), nil) }},
		{"SGNHT", 0.01, func(d int) (Sampler, error) { return NewSGNHT(g, make([]float64, d), rand.NewPCG(1, 1), nil) }},
		{"SGRLD", 0.01, func(d int) (Sampler, error) {
			return NewSGRLD(g, make([]float64, d), unitMetric, rand.NewPCG(1, 1), nil)
		}},
		{"SGRHMC", 0.01, func(d int) (Sampler, error) {
			return NewSGRHMC(g, make([]float64, d), unitMetric, rand.NewPCG(1, 1), nil)
		}},
	}
}

// BenchmarkStep measures one step of each named sampler at d = 10, 10³,
// 10⁵ with a trivially cheap gradient.
func BenchmarkStep(b *testing.B) {
	for _, c := range benchSamplers() {
		for _, d := range []int{10, 1000, 100000} {
			b.Run(fmt.Sprintf("%s/d=%d", c.name, d), func(b *testing.B) {
				s, err := c.make(d)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := s.Step(c.eps); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkNormals is the floor a step cannot beat: drawing d standard
// normals.
func BenchmarkNormals(b *testing.B) {
	for _, d := range []int{10, 1000, 100000} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			x := make([]float64, d)
			b.ReportAllocs()
			for b.Loop() {
				for i := range x {
					x[i] = rng.NormFloat64()
				}
			}
		})
	}
}
