// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/cputime"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// cheapGrad is the gradient of the standard Gaussian: O(d) and trivially
// cheap, so that the benchmarks measure the sampler.
func cheapGrad(dst, th []float64) { copy(dst, th) }

type benchCase struct {
	name string
	eps  float64
	make func(d int) (Sampler, error)
}

// benchSamplers are the samplers BenchmarkStep times, by the names the
// package's documentation uses; SGHMC and SGNHT with the default sweep,
// <sampler>-<integrator> with a splitting integrator. The chains start from a draw of their
// target, N(0, I) (and so does the momentum), so that the steps timed are
// those of a chain in equilibrium: a chain started at the mode moves its
// potential by about d·ε per step while it relaxes, which at d = 10⁶ makes
// every early transition count as divergent (and look for its worst
// coordinate).
func benchSamplers() []benchCase {
	g := GradFunc(cheapGrad)
	src := func() rand.Source { return rand.NewPCG(1, 1) }
	normal := func(d int, seed uint64) []float64 {
		x := make([]float64, d)
		rng.NewNormal(seed, 3).Fill(x)
		return x
	}
	return []benchCase{
		{name: "SGLD", eps: 0.01, make: func(d int) (Sampler, error) { return NewSGLD(g, normal(d, 1), src(), nil) }},
		{name: "SGHMC", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewSGHMC(g, normal(d, 1), src(), &SGHMCSettings{R0: normal(d, 2)})
		}},
		{name: "SGNHT", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewSGNHT(g, normal(d, 1), src(), &SGNHTSettings{R0: normal(d, 2)})
		}},
		{name: "SGHMC-BAOAB", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewSGHMC(g, normal(d, 1), src(), &SGHMCSettings{R0: normal(d, 2), Integrator: BAOAB{}})
		}},
		{name: "SGHMC-OBABO", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewSGHMC(g, normal(d, 1), src(), &SGHMCSettings{R0: normal(d, 2), Integrator: OBABO{}})
		}},
		{name: "SGNHT-BADODAB", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewSGNHT(g, normal(d, 1), src(), &SGNHTSettings{R0: normal(d, 2), Integrator: BADODAB{}})
		}},
		{name: "SGRLD", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewSGRLD(g, normal(d, 1), unitMetric, src(), nil)
		}},
		{name: "gSGRHMC", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewSGRHMC(g, normal(d, 1), unitMetric, src(), &SGRHMCSettings{R0: normal(d, 2)})
		}},
		{name: "pSGLD", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewPSGLD(hamCheapHessGrad{}, normal(d, 1), src(), &PSGLDSettings{Lambda: 1})
		}},
		{name: "HAMCMC", eps: 0.01, make: func(d int) (Sampler, error) {
			return NewHAMCMC(g, normal(d, 1), src(), &HAMCMCSettings{M: 2, Lambda: 1})
		}},
		{name: "SCIR", eps: 0.01, make: func(d int) (Sampler, error) {
			th := make([]float64, d)
			for i := range th {
				th[i] = 1
			}
			return NewSCIR(scirBenchShape(d), th, src(), nil)
		}},
	}
}

// benchDims are BenchmarkStep's dimensions: 10, 10³, 10⁵ and 10⁶ (the last
// two above parallelDim, so that a step runs in blocks on every core).
var benchDims = []int{10, 1000, 100000, 1000000}

// BenchmarkStep measures one step of each sampler with a trivially cheap
// gradient (the standard Gaussian's), divergence detection on, at
// d = 10, 10³, 10⁵ and 10⁶. Besides ns/op it reports ns/coord and, where
// the platform tells, cpu-ns/op: the process's CPU time per step, which on
// a shared machine excludes the time other processes hold the cores (and
// at d = 10⁵ and 10⁶ adds up the time of every core the step uses).
func BenchmarkStep(b *testing.B) {
	for _, c := range benchSamplers() {
		for _, d := range benchDims {
			b.Run(fmt.Sprintf("%s/d=%d", c.name, d), func(b *testing.B) {
				s, err := c.make(d)
				if err != nil {
					b.Fatal(err)
				}
				// Past HAMCMC's warm-up, and every buffer warm.
				for range 6 {
					if err := s.Step(c.eps); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				c0, ok := cputime.Process()
				for b.Loop() {
					if err := s.Step(c.eps); err != nil {
						b.Fatal(err)
					}
				}
				c1, _ := cputime.Process()
				n := float64(b.N)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/float64(d), "ns/coord")
				if ok {
					b.ReportMetric(float64((c1-c0).Nanoseconds())/n, "cpu-ns/op")
				}
			})
		}
	}
}

// BenchmarkNormals is the floor a step cannot beat: drawing d standard
// normals, by the samplers' generator (rng.Normal's Fill, one block at a
// time) and by math/rand/v2's NormFloat64 on PCG and on ChaCha8 (the
// source ChainSource hands out). Besides ns/op it reports ns/normal and,
// where the platform tells, cpu-ns/normal (process CPU time).
func BenchmarkNormals(b *testing.B) {
	run := func(b *testing.B, d int, body func()) {
		b.ReportAllocs()
		c0, ok := cputime.Process()
		for b.Loop() {
			body()
		}
		c1, _ := cputime.Process()
		n := float64(b.N) * float64(d)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/normal")
		if ok {
			b.ReportMetric(float64((c1-c0).Nanoseconds())/n, "cpu-ns/normal")
		}
	}
	for _, d := range []int{10, 1000, 100000} {
		x := make([]float64, d)
		b.Run(fmt.Sprintf("Fill/d=%d", d), func(b *testing.B) {
			g := rng.NewNormal(1, 1)
			run(b, d, func() { g.Fill(x) })
		})
		for _, s := range []struct {
			name string
			src  rand.Source
		}{{"NormFloat64-PCG", rand.NewPCG(1, 1)}, {"NormFloat64-ChaCha8", rng.ChainSource(1, 0)}} {
			b.Run(fmt.Sprintf("%s/d=%d", s.name, d), func(b *testing.B) {
				r := rand.New(s.src)
				run(b, d, func() {
					for i := range x {
						x[i] = r.NormFloat64()
					}
				})
			})
		}
	}
}
