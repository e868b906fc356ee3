// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// scirBenchShape is a sparse-Dirichlet-like shape: three coordinates in ten
// carry counts, the rest only the prior 0.1.
func scirBenchShape(d int) FixedShape {
	a := make(FixedShape, d)
	for j := range a {
		a[j] = 0.1
		if j%10 < 3 {
			a[j] = 100.1
		}
	}
	return a
}

var scirBenchDims = []int{10, 1000, 100000}

// BenchmarkSCIRStep times one step at d = 10, 10³, 10⁵ as a Gamma target,
// as one simplex block, and as d/10 blocks of 10. Divide ns/op by d for the
// cost per coordinate, to compare with BenchmarkSCIRGammaDraw.
func BenchmarkSCIRStep(b *testing.B) {
	for _, layout := range []string{"gamma", "one-block", "blocks-of-10"} {
		for _, d := range scirBenchDims {
			b.Run(layout+"/d="+strconv.Itoa(d), func(b *testing.B) {
				var set SCIRSettings
				switch layout {
				case "one-block":
					set.Simplex = d
				case "blocks-of-10":
					set.Simplex = 10
				}
				a := scirBenchShape(d)
				s, err := NewSCIR(a, []float64(a), rand.NewPCG(1, 1), &set)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := s.Step(0.5); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d), "ns/coord")
			})
		}
	}
}

// BenchmarkSCIRStepMinibatch times the paper's sparse experiment step: d =
// 10, N = 1000, minibatch of 10 (proportion 0.01).
func BenchmarkSCIRStepMinibatch(b *testing.B) {
	alpha := []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}
	est, err := NewCountMinibatch(alpha, scirCategorical([]int{800, 100, 100}), 10, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSCIR(est, scirOnes(10), rand.NewPCG(1, 2), &SCIRSettings{Simplex: 10})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Step(0.5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSGRLDSimplexStep is BenchmarkSCIRStep for the SGRLD baseline.
func BenchmarkSGRLDSimplexStep(b *testing.B) {
	for _, d := range scirBenchDims {
		b.Run("blocks-of-10/d="+strconv.Itoa(d), func(b *testing.B) {
			a := scirBenchShape(d)
			g, err := NewSGRLDSimplex(a, []float64(a), rand.NewPCG(1, 1), &SGRLDSimplexSettings{Simplex: 10})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := g.Step(0.01); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d), "ns/coord")
		})
	}
}

var scirSink float64

// BenchmarkSCIRGammaDraw times one Gamma(a, 1) draw as SCIR makes it
// (rng.Normal.Gamma; for a < 1 LogGamma, the U^{1/a} boost in log space,
// plus the exp back to θ), next to gonum's distuv.Gamma.
func BenchmarkSCIRGammaDraw(b *testing.B) {
	for _, a := range []float64{0.1, 10, 800} {
		b.Run("scir/a="+strconv.FormatFloat(a, 'g', -1, 64), func(b *testing.B) {
			g := rng.NewNormal(1, 1)
			b.ReportAllocs()
			for b.Loop() {
				if a >= 1 {
					scirSink += g.Gamma(a)
				} else {
					scirSink += math.Exp(g.LogGamma(a))
				}
			}
		})
		b.Run("distuv/a="+strconv.FormatFloat(a, 'g', -1, 64), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			b.ReportAllocs()
			for b.Loop() {
				scirSink += distuv.Gamma{Alpha: a, Beta: 1, Src: r}.Rand()
			}
		})
	}
}

// BenchmarkSCIRPoissonDraw times one Poisson(λ) draw by SCIR's generator
// (rng.Normal.Poisson) and by gonum's distuv.Poisson.
func BenchmarkSCIRPoissonDraw(b *testing.B) {
	for _, lam := range []float64{0.01, 5, 50, 1e6} {
		b.Run("scir/lambda="+strconv.FormatFloat(lam, 'g', -1, 64), func(b *testing.B) {
			g := rng.NewNormal(1, 1)
			b.ReportAllocs()
			for b.Loop() {
				scirSink += g.Poisson(lam)
			}
		})
		b.Run("distuv/lambda="+strconv.FormatFloat(lam, 'g', -1, 64), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			b.ReportAllocs()
			for b.Loop() {
				scirSink += distuv.Poisson{Lambda: lam, Src: r}.Rand()
			}
		})
	}
}
