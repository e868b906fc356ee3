// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// A million draws: 4 chains of 250 000.
func millionDraws() [][]float64 {
	return ar1(rand.New(rand.NewPCG(1, 1)), 4, 250_000, 0.9, nil)
}

func benchChains(b *testing.B, f func([][]float64) (float64, error)) {
	chains := millionDraws()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := f(chains); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkESSBulk1e6(b *testing.B) { benchChains(b, diagnostics.ESSBulk) }
func BenchmarkESSTail1e6(b *testing.B) { benchChains(b, diagnostics.ESSTail) }
func BenchmarkESSMean1e6(b *testing.B) { benchChains(b, diagnostics.ESSMean) }
func BenchmarkRHat1e6(b *testing.B)    { benchChains(b, diagnostics.RHat) }

func BenchmarkSummarize1e6(b *testing.B) {
	benchChains(b, func(c [][]float64) (float64, error) {
		s, err := diagnostics.Summarize(c)
		return s.RHat, err
	})
}

func BenchmarkAutocovariance1e6(b *testing.B) {
	x := millionDraws()[0]
	x = append(x, millionDraws()[1]...)
	x = append(x, x...)
	dst := make([]float64, len(x))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := diagnostics.Autocovariance(dst, x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKSD1e4x10(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	draws := make([][]float64, 10_000)
	for i := range draws {
		draws[i] = normals(rng, 10, 0)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := diagnostics.KSD(draws, stdNormalScore, nil); err != nil {
			b.Fatal(err)
		}
	}
}
