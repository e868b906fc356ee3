// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/targets"
)

// TestCyclicalFourModes: on the four-mode mixture (internal/targets), SGHMC
// (friction 0.05) started at the mode (4, 4) stays in that mode at the
// constant step 0.1, and visits all four with the cyclical schedule
// (Eps0 1.9, cycles of 400 steps, half exploration), on every seed. The
// weights it finds are logged: weight accuracy is not the schedule's job.
func TestCyclicalFourModes(t *testing.T) {
	t.Parallel()
	var f targets.FourModes
	const cycles = 60
	for seed := range uint64(4) {
		run := func(sch sgmcmc.Schedule, draws int) [4]int {
			s, err := sgmcmc.NewSGHMC(sgmcmc.GradFunc(f.Grad), []float64{4, 4}, rand.NewPCG(seed, 1), &sgmcmc.SGHMCSettings{Friction: 0.05})
			if err != nil {
				t.Fatal(err)
			}
			c, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: draws, Schedule: sch, MaxDivergences: -1})
			if err != nil {
				t.Fatal(err)
			}
			var n [4]int
			for i := range c.Len() {
				n[f.Mode(c.At(i))]++
			}
			return n
		}
		constant := run(sgmcmc.Constant(0.1), 400*cycles)
		cyc := run(sgmcmc.Cyclical{Eps0: 1.9, Cycle: 400}, 400*cycles)
		total := 0
		for _, v := range cyc {
			total += v
		}
		w := make([]float64, 4)
		for k, v := range cyc {
			w[k] = math.Round(100*float64(v)/float64(total)) / 100
		}
		t.Logf("seed %d: constant step visits %v, cyclical %v (weights %v; truth 0.4 0.3 0.2 0.1)", seed, constant, cyc, w)
		if constant[0] != 400*cycles {
			t.Logf("seed %d: the constant step left its mode; no comparison", seed)
			continue
		}
		for k, v := range cyc {
			if v == 0 {
				t.Errorf("seed %d: cyclical SGHMC never visited mode %d", seed, k)
			}
		}
		if total != 200*cycles {
			t.Errorf("seed %d: %d draws kept, want the %d of the sampling phases", seed, total, 200*cycles)
		}
	}
}

// ExampleCyclical shows the step sizes of a cyclical schedule and which
// steps Run keeps.
func ExampleCyclical() {
	c := sgmcmc.Cyclical{Eps0: 0.1, Cycle: 4}
	for t := 1; t <= 5; t++ {
		fmt.Printf("step %d: ε = %.4f, kept %v\n", t, c.StepSize(t), c.Sampling(t))
	}
	// Output:
	// step 1: ε = 0.1000, kept false
	// step 2: ε = 0.0854, kept false
	// step 3: ε = 0.0500, kept true
	// step 4: ε = 0.0146, kept true
	// step 5: ε = 0.1000, kept false
}
