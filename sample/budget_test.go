// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"testing"
)

// TestBudgetProjection: the budget's projection of a sampling run (steps
// times evaluations per step, the method's GradsPerStep included) is what
// the run then spends, for every method, with plain minibatches and with
// control variates, so that MaxGradEvals bounds what it says it bounds.
func TestBudgetProjection(t *testing.T) {
	m := newLogitModel(300, 2, 5)
	for _, plain := range []bool{true, false} {
		for _, meth := range []Method{SGLD{}, SGHMC{}, SGNHT{}, HAMCMC{}, PSGLD{}, ReplicaExchange{Replicas: 3}} {
			s := &Settings{Seed: 3, Chains: 1, Draws: 200, Rounds: 1, PlainMinibatch: plain}
			res, err := Run(t.Context(), Problem{Model: m}, []float64{0.5, -0.5}, s, meth)
			if err != nil {
				t.Fatalf("%s: %v", meth.Name(), err)
			}
			a := res.Adapted[0]
			r, err := checkRules(meth, 2)
			if err != nil {
				t.Fatal(err)
			}
			steps, perStep := runCost(&a, r, s, true)
			got := float64(res.SamplingGradEvals)
			if math.Abs(got-steps*perStep) > perStep {
				t.Errorf("plain %v, %s: projected %.0f evaluations (%.0f steps × %.0f), spent %.0f", plain, meth.Name(), steps*perStep, steps, perStep, got)
			}
		}
	}
}
