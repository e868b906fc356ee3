// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// smallMLP is a 12–5–3 network on 150 random inputs (more than two
// chunks of 64), with θ drawn from the prior.
func smallMLP(t testing.TB) (*MLP, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	const n, in, hid, out = 150, 12, 5, 3
	x := make([]float64, n*in)
	for i := range x {
		x[i] = rng.Float64()
	}
	y := make([]int, n)
	for i := range y {
		y[i] = rng.IntN(out)
	}
	m := newMLP(x, y, in, hid, out, priorGain)
	theta := make([]float64, m.Dim())
	for i := range theta {
		theta[i] = rng.NormFloat64()
	}
	return m, theta
}

// TestCheckModel: the hand-written gradients match finite differences of
// the log densities (sgmcmc.CheckModel), and the batch gradient over
// several chunks is the sum of the per-item ones.
func TestCheckModel(t *testing.T) {
	m, theta := smallMLP(t)
	if c, err := sgmcmc.CheckModel(m, theta, []int{0, 1, 77, 149}); err != nil {
		t.Fatal(err)
	} else {
		t.Logf("CheckModel: %v", c)
	}
	idx := make([]int, m.Len())
	for i := range idx {
		idx[i] = i
	}
	batch, single := make([]float64, m.Dim()), make([]float64, m.Dim())
	m.LogLikGradBatch(batch, theta, idx, 0.5)
	for _, i := range idx {
		m.LogLikGrad(single, theta, i, 0.5)
	}
	for j := range batch {
		if d := batch[j] - single[j]; d > 1e-10 || d < -1e-10 {
			t.Fatalf("coordinate %d: batch %g, per item %g", j, batch[j], single[j])
		}
	}
}

// TestGradAllocs: a batch gradient of the full-size network allocates
// nothing once its scratch pool is warm.
func TestGradAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector: allocation counts mean nothing there")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 200*nIn)
	for i := range x {
		x[i] = rng.Float64()
	}
	y := make([]int, 200)
	m := NewMLP(x, y)
	theta, dst := make([]float64, m.Dim()), make([]float64, m.Dim())
	idx := []int{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3, 9, 9, 3, 7, 5, 1, 0, 5, 8, 2, 0, 9, 7, 4, 9, 4, 4, 5, 9, 2, 3, 0, 7, 8, 1, 6, 4, 0, 6, 2, 8, 6, 2, 0, 8, 9}
	m.LogLikGradBatch(dst, theta, idx, 1)
	if a := testing.AllocsPerRun(5, func() { m.LogLikGradBatch(dst, theta, idx, 1) }); a != 0 {
		t.Errorf("%v allocations per batch gradient, want 0", a)
	}
}

// BenchmarkGrad100 times the gradient of 100 digits of the full-size
// network.
func BenchmarkGrad100(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 1000*nIn)
	for i := range x {
		x[i] = rng.Float64()
	}
	m := NewMLP(x, make([]int, 1000))
	theta, dst := make([]float64, m.Dim()), make([]float64, m.Dim())
	for i := range theta {
		theta[i] = rng.NormFloat64()
	}
	idx := rng.Perm(1000)[:100]
	b.ReportAllocs()
	for b.Loop() {
		m.LogLikGradBatch(dst, theta, idx, 1)
	}
}
