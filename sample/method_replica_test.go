// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// TestReplicaStepAllocs: a replica-exchange step, exchanges included,
// allocates nothing, and the exchanges are accepted at the rate a
// Gaussian's ladder predicts (between 0.2 and 0.8).
func TestReplicaStepAllocs(t *testing.T) {
	const d = 10
	g := sgmcmc.GradFunc(func(dst, z []float64) { copy(dst, z) })
	u := func(z []float64) float64 {
		s := 0.0
		for _, v := range z {
			s += v * v
		}
		return s / 2
	}
	a := &Adapted{Method: SGLD{}, Shift: make([]float64, d), BatchSize: 1, Items: 1}
	smp, err := ReplicaExchange{}.NewPotentialSampler(g, u, make([]float64, d), rand.NewPCG(1, 2), a)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if err := smp.Step(0.3); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(200, func() { _ = smp.Step(0.3) }); n != 0 {
		t.Errorf("%v allocs per step", n)
	}
	rs := smp.(*replicaSampler)
	for k, n := range rs.attempts {
		if f := float64(rs.accepts[k]) / float64(n); f < 0.2 || f > 0.8 {
			t.Errorf("pair %d (T %.3g, %.3g): exchanges accepted %.2f of %d", k, rs.temps[k], rs.temps[k+1], f, n)
		}
	}
	if rs.trips == 0 {
		t.Error("no round trips")
	}
}
