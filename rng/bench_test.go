// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/cputime"
)

// BenchmarkNormals compares ways of drawing d standard normals per
// operation on one core: Normal's Fill and Norm, and math/rand/v2's
// NormFloat64 on PCG and on ChaCha8 (the library's chain source). The
// ns/normal metric is the wall time per normal, cpu-ns/normal the process's
// CPU time per normal (on a shared machine, wall time also counts the time
// other processes hold the core); "PCG-words" is the cost of the d/2 PCG
// words the Normal generator consumes, its floor.
func BenchmarkNormals(b *testing.B) {
	const d = 100_000
	x := make([]float64, d)
	// run runs body b.N times and reports the time per normal.
	run := func(b *testing.B, body func()) {
		b.ReportAllocs()
		c0, ok := cputime.Process()
		for b.Loop() {
			body()
		}
		c1, _ := cputime.Process()
		per := float64(b.N) * d
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/normal")
		if ok {
			b.ReportMetric(float64((c1-c0).Nanoseconds())/per, "cpu-ns/normal")
		}
	}
	suffix := "/d=" + strconv.Itoa(d)
	b.Run("Fill"+suffix, func(b *testing.B) {
		g := NewNormal(1, 2)
		run(b, func() { g.Fill(x) })
	})
	b.Run("Norm"+suffix, func(b *testing.B) {
		g := NewNormal(1, 2)
		run(b, func() {
			for i := range x {
				x[i] = g.Norm()
			}
		})
	})
	b.Run("NormFloat64-PCG"+suffix, func(b *testing.B) {
		r := rand.New(rand.NewPCG(1, 2))
		run(b, func() {
			for i := range x {
				x[i] = r.NormFloat64()
			}
		})
	})
	b.Run("NormFloat64-ChaCha8"+suffix, func(b *testing.B) {
		r := rand.New(rand.NewChaCha8([32]byte{1, 2}))
		run(b, func() {
			for i := range x {
				x[i] = r.NormFloat64()
			}
		})
	})
	b.Run("PCG-words"+suffix, func(b *testing.B) {
		p := rand.NewPCG(1, 2)
		w := make([]uint64, d/2)
		run(b, func() {
			for i := range w {
				w[i] = p.Uint64()
			}
		})
	})
}
