// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// builtinMethods are the package's methods at their defaults.
var builtinMethods = []Method{SGLD{}, SGHMC{}, SGNHT{}, HAMCMC{}, PSGLD{}}

// TestSampleRebuildEveryMethod: for every method, a chain rebuilt through
// the exported API alone (Adapted.NewGradient, NewAffine,
// Adapted.NewSampler, sgmcmc.Run with the adapted Thin, BurnIn and Eps)
// equals Run's chain bit for bit.
func TestSampleRebuildEveryMethod(t *testing.T) {
	m := newLinReg(500, 66, 4, 2)
	for _, meth := range builtinMethods {
		res, err := Run(context.Background(), Problem{Model: m}, []float64{1, 0}, &Settings{Seed: 9, Chains: 2, Draws: 200}, meth)
		if err != nil {
			t.Fatalf("%s: %v", meth.Name(), err)
		}
		if res.Method != meth.Name() {
			t.Errorf("Result.Method %q, want %q", res.Method, meth.Name())
		}
		for c, a := range res.Adapted {
			if a.Method != meth {
				t.Errorf("%s chain %d: Adapted.Method %#v, want %#v", meth.Name(), c, a.Method, meth)
			}
			mb, err := a.NewGradient(m)
			if err != nil {
				t.Fatal(err)
			}
			aff, err := sgmcmc.NewAffine(mb, a.Shift, a.Lower, a.Diag)
			if err != nil {
				t.Fatal(err)
			}
			s, err := a.NewSampler(aff)
			if err != nil {
				t.Fatalf("%s: %v", meth.Name(), err)
			}
			zc, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 200, Thin: a.Thin, BurnIn: a.BurnIn, Schedule: sgmcmc.Constant(a.Eps)})
			if err != nil {
				t.Fatalf("%s: %v", meth.Name(), err)
			}
			th := make([]float64, 2)
			for i := range zc.Len() {
				aff.ToTheta(th, zc.At(i))
				for j, v := range th {
					if want := res.Chains[c].At(i)[j]; v != want {
						t.Fatalf("%s chain %d draw %d coordinate %d: rebuilt %v, Sample %v", meth.Name(), c, i, j, v, want)
					}
				}
			}
		}
	}
}

// TestSampleMethodConfig: a method's fields change what warmup adapts as
// documented, and the zero value is the default spelled out. The batch is
// fixed, since pSGLD's accumulator depends on it.
func TestSampleMethodConfig(t *testing.T) {
	m := newLinReg(300, 2, 1, 5)
	run := func(meth Method) Adapted {
		t.Helper()
		res, err := Run(context.Background(), Problem{Model: m}, []float64{0.5, -0.5}, &Settings{Seed: 3, Chains: 1, Draws: 50, BatchSize: 100, Rounds: 1}, meth)
		if err != nil {
			t.Fatalf("%#v: %v", meth, err)
		}
		return res.Adapted[0]
	}
	for _, c := range []struct {
		zero, spelled, half Method
		ratio               float64 // of the half's ε to the default's
	}{
		{SGLD{}, SGLD{StepConstant: 0.1}, SGLD{StepConstant: 0.05}, 0.5},
		{SGHMC{}, SGHMC{StepConstant: 0.5, MinFriction: 1, Integrator: sgmcmc.BAOAB{}}, SGHMC{StepConstant: 0.25}, 0.5},
		{SGHMC{Integrator: sgmcmc.Sweep{}}, SGHMC{StepConstant: 0.3, MinFriction: 1, Integrator: sgmcmc.Sweep{}}, SGHMC{StepConstant: 0.15, Integrator: sgmcmc.Sweep{}}, 0.5},
		{SGNHT{}, SGNHT{StepConstant: 0.5, MinA: 0.5, Integrator: sgmcmc.BADODAB{}}, SGNHT{StepConstant: 0.25}, 0.5},
		{SGNHT{Integrator: sgmcmc.Sweep{}}, SGNHT{StepConstant: 0.1, MinA: 0.5, Integrator: sgmcmc.Sweep{}}, SGNHT{StepConstant: 0.05, Integrator: sgmcmc.Sweep{}}, 0.5},
		{HAMCMC{}, HAMCMC{StepConstant: 0.1, M: 2, Gamma: 1, MinPairCurvature: 1}, HAMCMC{StepConstant: 0.05}, 0.5},
		{PSGLD{}, PSGLD{StepConstant: 0.1, Lambda: 1e-12, AdaptSteps: 200}, PSGLD{StepConstant: 0.05}, 0.5},
	} {
		a0, a1, a2 := run(c.zero), run(c.spelled), run(c.half)
		if a0.Eps != a1.Eps || a0.Thin != a1.Thin || a0.Friction != a1.Friction {
			t.Errorf("%s: zero value ε %v thin %d friction %v, spelled-out defaults %v %d %v", c.zero.Name(), a0.Eps, a0.Thin, a0.Friction, a1.Eps, a1.Thin, a1.Friction)
		}
		if r := a2.Eps / a0.Eps; math.Abs(r-c.ratio) > 1e-12 {
			t.Errorf("%s: half the step constant gives ε ratio %v, want %v", c.zero.Name(), r, c.ratio)
		}
	}
	if a := run(SGHMC{MinFriction: 7}); a.Friction < 7 {
		t.Errorf("SGHMC MinFriction 7: friction %v", a.Friction)
	}
	if a := run(SGNHT{MinA: 3}); a.Friction < 3 {
		t.Errorf("SGNHT MinA 3: A %v", a.Friction)
	}
	if a0, a1 := run(HAMCMC{}), run(HAMCMC{M: 4}); a1.BurnIn <= a0.BurnIn {
		t.Errorf("HAMCMC M = 4: burn-in %d, want more than M = 2's %d", a1.BurnIn, a0.BurnIn)
	}
}

// TestSampleBadMethod: invalid rules are an ErrRange before any work, and
// an Adapted without a Method cannot rebuild a sampler.
func TestSampleBadMethod(t *testing.T) {
	m := newLinReg(100, 0, 1, 1)
	for _, meth := range []Method{SGLD{StepConstant: -1}, SGHMC{StepConstant: math.Inf(1)}, SGHMC{MinFriction: math.NaN()}, SGNHT{MinA: -1}} {
		if _, err := Run(context.Background(), Problem{Model: m}, []float64{0, 0}, nil, meth); !errors.Is(err, sgmcmc.ErrRange) {
			t.Errorf("%#v: err %v, want ErrRange", meth, err)
		}
	}
	var a Adapted
	if _, err := a.NewSampler(sgmcmc.FullGradient(m)); !errors.Is(err, sgmcmc.ErrNil) {
		t.Errorf("Adapted{}.NewSampler: err %v, want ErrNil", err)
	}
}
