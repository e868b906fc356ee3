// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/testmodel"
)

// unitMetric g_i = 1 + θ_i²: state-dependent, so that Γ matters. The
// stationary-distribution tests themselves live in validation_test.go.
var unitMetric = DiagMetricFunc(func(g, dg, th []float64) {
	for i, x := range th {
		g[i] = 1 + x*x
		dg[i] = 2 * x
	}
})

// stepAllocs fails the test if a step of s fails or allocates: it takes one
// step first (buffers allocated lazily on first use are allowed), then
// measures.
func stepAllocs(t *testing.T, name string, s Sampler, eps float64) {
	t.Helper()
	if err := s.Step(eps); err != nil {
		t.Fatalf("%s: first step: %v", name, err)
	}
	var err error
	a := testing.AllocsPerRun(200, func() {
		if e := s.Step(eps); e != nil && err == nil {
			err = e
		}
	})
	if err != nil {
		t.Fatalf("%s: step failed while measuring allocations: %v", name, err)
	}
	if a != 0 {
		t.Errorf("%s: %v allocations per step, want 0", name, a)
	}
}

// integ returns Euler{} if sim, else nil (the default sweep).
func integ(sim bool) Integrator {
	if sim {
		return Euler{}
	}
	return nil
}

// genericSweep is the default sweep through the operators' interfaces,
// never the fused pass: the reference the fused pass is compared with.
type genericSweep struct{}

func (genericSweep) stepper(r *Recipe) (stepper, error) {
	return newGeneric(r, defaultOrder(len(r.spec.Blocks))), nil
}

// The shared test models, under the names the tests use.
type (
	testModel  = testmodel.Test
	ckModel    = testmodel.Ck
	logitModel = testmodel.Logit
	batchLogit = testmodel.BatchLogit
)

var (
	testGrad      = testmodel.Grad
	newLogitModel = testmodel.NewLogit
	chainDigest   = testmodel.ChainDigest
)
