// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// hamBenchDims are the dimensions of the HAMCMC and pSGLD benchmarks.
var hamBenchDims = []int{10, 1000, 100000}

// hamCheapGrad is the standard Gaussian's gradient: one copy, so that the
// benchmarks measure the samplers.
var hamCheapGrad = GradFunc(func(dst, th []float64) { copy(dst, th) })

// hamCheapHessGrad adds the (unit) Hessian diagonal, for pSGLD with Γ.
type hamCheapHessGrad struct{}

func (hamCheapHessGrad) Grad(dst, th []float64) { copy(dst, th) }
func (hamCheapHessGrad) GradDiagHessian(dst, h, th []float64) {
	copy(dst, th)
	for i := range h {
		h[i] = 1
	}
}

func benchStep(b *testing.B, s Sampler, eps float64) {
	b.Helper()
	// Past the warm-up, if any.
	for range 20 {
		if err := s.Step(eps); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Step(eps); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHAMCMCStep measures one HAMCMC step (two gradient evaluations,
// the two-loop H∇Ũ, the product-form S z and the rebuild of the memory) at
// D = 10, 10³, 10⁵ and M = 2, 3, 5, with a trivially cheap gradient.
func BenchmarkHAMCMCStep(b *testing.B) {
	for _, d := range hamBenchDims {
		for _, m := range []int{2, 3, 5} {
			b.Run(fmt.Sprintf("D=%d/M=%d", d, m), func(b *testing.B) {
				h, err := NewHAMCMC(hamCheapGrad, make([]float64, d), rand.NewPCG(1, 1), &HAMCMCSettings{M: m, Gamma: 0.5})
				if err != nil {
					b.Fatal(err)
				}
				benchStep(b, h, 0.01)
			})
		}
	}
}

// BenchmarkHAMCMCBaselineSGLD is the reference for HAMCMC's cost: one step
// of the library's SGLD (NewSGLD) with the same gradient, and one
// evaluation of that gradient, to subtract.
func BenchmarkHAMCMCBaselineSGLD(b *testing.B) {
	for _, d := range hamBenchDims {
		b.Run(fmt.Sprintf("SGLD/D=%d", d), func(b *testing.B) {
			s, err := NewSGLD(hamCheapGrad, make([]float64, d), rand.NewPCG(1, 1), nil)
			if err != nil {
				b.Fatal(err)
			}
			benchStep(b, s, 0.01)
		})
		b.Run(fmt.Sprintf("Grad/D=%d", d), func(b *testing.B) {
			x, g := make([]float64, d), make([]float64, d)
			b.ReportAllocs()
			for b.Loop() {
				hamCheapGrad.Grad(g, x)
			}
		})
	}
}

// BenchmarkPSGLDStep measures one pSGLD step with Γ dropped (as in the
// paper's experiments) and kept, with a trivially cheap gradient.
func BenchmarkPSGLDStep(b *testing.B) {
	for _, d := range hamBenchDims {
		for _, drop := range []bool{true, false} {
			name := "GammaKept"
			if drop {
				name = "GammaDropped"
			}
			b.Run(fmt.Sprintf("%s/D=%d", name, d), func(b *testing.B) {
				p, err := NewPSGLD(hamCheapHessGrad{}, make([]float64, d), rand.NewPCG(1, 1), &PSGLDSettings{DropGamma: drop, Lambda: 1})
				if err != nil {
					b.Fatal(err)
				}
				benchStep(b, p, 0.01)
			})
		}
	}
}
