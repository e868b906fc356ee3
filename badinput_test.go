// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/internal/badinput"
	"github.com/sgmcmc-go/sgmcmc/rng"
)

// badCase is one entry of the bad-input catalogue: a call with bad input
// and the outcome it must have. Exactly one of want (a sentinel the error
// must wrap), step (a *StepError, wrapping want if want is set too) and
// defined (run returns nil iff it observed the documented value) applies.
type badCase struct {
	name    string
	run     func() error
	want    error
	step    bool
	defined bool
	substr  string // if not empty, the error message must contain it
}

// outcome classifies a case for the closing counts.
func (c badCase) outcome() string { return c.spec().Outcome(sentinelName) }

// spec is the case as the shared machinery reads it.
func (c badCase) spec() badinput.Case {
	return badinput.Case{Run: c.run, Want: c.want, Step: c.step, Defined: c.defined, Substr: c.substr}
}

func sentinelName(err error) string {
	for _, s := range []struct {
		e    error
		name string
	}{{ErrNil, "ErrNil"}, {ErrDimension, "ErrDimension"}, {ErrNonFinite, "ErrNonFinite"}, {ErrRange, "ErrRange"},
		{ErrUnsupported, "ErrUnsupported"}, {ErrCheckpoint, "ErrCheckpoint"}, {ErrDivergence, "ErrDivergence"}} {
		if err == s.e {
			return s.name
		}
	}
	return fmt.Sprint(err)
}

// bigModel is ckModel with a datum whose gradient is 1e200.
type bigModel struct{ ckModel }

func (bigModel) LogLikGrad(dst, _ []float64, _ int, scale float64) {
	for j := range dst {
		dst[j] += scale * 1e200
	}
}

func badInputCases() []badCase {
	g := GradFunc(testGrad)
	th2, th3 := []float64{0.1, 0.2}, []float64{0.1, 0.2, 0.3}
	src := func() rand.Source { return rand.NewPCG(1, 2) }
	mb := func(n int) *Minibatch {
		m, err := NewMinibatch(ckModel{}, n, false, src())
		if err != nil {
			panic(err)
		}
		return m
	}
	noisy := func(n int) *Minibatch {
		m := mb(n)
		m.Noise = true
		return m
	}
	var nilMB *Minibatch
	var nilCount *CountMinibatch
	var nilDiag *DiagFunc
	var nilBlock *Block
	var nilRecipe *Recipe
	var nilMetric DiagMetricFunc
	sgld := func() *Recipe {
		s, err := NewSGLD(g, th2, src(), nil)
		if err != nil {
			panic(err)
		}
		return s
	}
	opts := func(o RunOptions) RunOptions {
		if o.Schedule == nil {
			o.Schedule = Constant(0.01)
		}
		return o
	}
	run := func(o RunOptions) func() error {
		return func() error { _, err := Run(context.Background(), sgld(), o); return err }
	}
	chains := func(k int, o RunOptions, f func(int, rand.Source) (Sampler, error)) func() error {
		return func() error { _, err := RunChains(context.Background(), k, 1, f, o); return err }
	}
	goodFactory := func(_ int, s rand.Source) (Sampler, error) { return NewSGLD(g, th2, s, nil) }
	hmcCP := func() []byte {
		s, _ := NewSGHMC(g, th2, src(), nil)
		_ = s.Step(0.01)
		b, err := s.MarshalBinary()
		if err != nil {
			panic(err)
		}
		return b
	}
	chain := &Chain{Dim: 2, Draws: []float64{1, 2, 3, 4, 5, 6}, Eps: []float64{1, 1, 1}}
	f := func(dst, z []float64) { copy(dst, z) }
	pos := []float64{1, 1}

	return []badCase{
		// Constructors: the gradient and θ₀.
		{name: "NewSGLD nil gradient", run: func() error { _, err := NewSGLD(nil, th2, src(), nil); return err }, want: ErrNil},
		{name: "NewSGLD nil *Minibatch (issue panic 2)", run: func() error { _, err := NewSGLD(nilMB, th2, src(), nil); return err }, want: ErrNil, substr: "*sgmcmc.Minibatch"},
		{name: "NewSGLD nil GradFunc", run: func() error { _, err := NewSGLD(GradFunc(nil), th2, src(), nil); return err }, want: ErrNil},
		{name: "NewSGLD Minibatch of Dim 3, theta0 of 2 (issue panic 1)", run: func() error { _, err := NewSGLD(mb(4), th2, src(), nil); return err }, want: ErrDimension, substr: "dimension 3, θ has 2"},
		{name: "NewSGLD Minibatch of Dim 3, theta0 of 4 (issue silent 1)", run: func() error { _, err := NewSGLD(mb(4), make([]float64, 4), src(), nil); return err }, want: ErrDimension},
		{name: "NewSGLD FullGradient of Dim 3, theta0 of 2", run: func() error { _, err := NewSGLD(FullGradient(ckModel{}), th2, src(), nil); return err }, want: ErrDimension},
		{name: "NewSGLD FullGradient(nil)", run: func() error { _, err := NewSGLD(FullGradient(nil), th2, src(), nil); return err }, want: ErrNil},
		{name: "NewSGLD empty theta0", run: func() error { _, err := NewSGLD(g, nil, src(), nil); return err }, want: ErrDimension},
		{name: "NewSGLD NaN in theta0", run: func() error { _, err := NewSGLD(g, []float64{0, math.NaN()}, src(), nil); return err }, want: ErrNonFinite},
		{name: "NewSGLD nil source", run: func() error { _, err := NewSGLD(g, th2, nil, nil); return err }, want: ErrNil},
		{name: "NewSGLD negative Precond", run: func() error { _, err := NewSGLD(g, th2, src(), &SGLDSettings{Precond: []float64{1, -1}}); return err }, want: ErrRange},
		{name: "NewSGLD Precond of wrong length", run: func() error { _, err := NewSGLD(g, th2, src(), &SGLDSettings{Precond: []float64{1}}); return err }, want: ErrDimension},
		{name: "NewSGLD negative NoiseVar", run: func() error { _, err := NewSGLD(g, th2, src(), &SGLDSettings{NoiseVar: []float64{1, -1}}); return err }, want: ErrRange},
		{name: "NewSGLD EstimateNoise on a GradFunc", run: func() error { _, err := NewSGLD(g, th2, src(), &SGLDSettings{EstimateNoise: true}); return err }, want: ErrUnsupported},
		{name: "NewSGLD EstimateNoise with a batch of 1 (issue silent 3)", run: func() error { _, err := NewSGLD(noisy(1), th3, src(), &SGLDSettings{EstimateNoise: true}); return err }, want: ErrRange, substr: "at least 2 items"},
		{name: "NewSGLD EstimateNoise, Noise not set", run: func() error { _, err := NewSGLD(mb(4), th3, src(), &SGLDSettings{EstimateNoise: true}); return err }, want: ErrUnsupported},
		{name: "NewSGHMC negative Friction", run: func() error { _, err := NewSGHMC(g, th2, src(), &SGHMCSettings{Friction: -1}); return err }, want: ErrRange},
		{name: "NewSGHMC NaN Friction", run: func() error { _, err := NewSGHMC(g, th2, src(), &SGHMCSettings{Friction: math.NaN()}); return err }, want: ErrRange},
		{name: "NewSGHMC zero Mass", run: func() error { _, err := NewSGHMC(g, th2, src(), &SGHMCSettings{Mass: []float64{1, 0}}); return err }, want: ErrRange},
		{name: "NewSGHMC R0 of wrong length", run: func() error { _, err := NewSGHMC(g, th2, src(), &SGHMCSettings{R0: []float64{1}}); return err }, want: ErrDimension},
		{name: "NewSGHMC negative ResampleEvery", run: func() error { _, err := NewSGHMC(g, th2, src(), &SGHMCSettings{ResampleEvery: -1}); return err }, want: ErrRange},
		{name: "NewSGHMC Minibatch dimension mismatch", run: func() error { _, err := NewSGHMC(mb(4), th2, src(), nil); return err }, want: ErrDimension},
		{name: "NewSGHMC Naive nil source", run: func() error { _, err := NewSGHMC(g, th2, nil, &SGHMCSettings{Naive: true}); return err }, want: ErrNil},
		{name: "NewSGRHMCDense Naive", run: func() error {
			_, err := NewSGRHMCDense(g, th2, quadMetric{}, src(), &SGRHMCSettings{Naive: true})
			return err
		}, want: ErrUnsupported},
		{name: "NewSGNHT negative A", run: func() error { _, err := NewSGNHT(g, th2, src(), &SGNHTSettings{A: -1}); return err }, want: ErrRange},
		{name: "NewSGNHT infinite Xi0", run: func() error {
			x := math.Inf(1)
			_, err := NewSGNHT(g, th2, src(), &SGNHTSettings{Xi0: &x})
			return err
		}, want: ErrNonFinite},
		{name: "NewSGNHT nil *Minibatch", run: func() error { _, err := NewSGNHT(nilMB, th2, src(), nil); return err }, want: ErrNil},
		{name: "NewSGRLD nil metric", run: func() error { _, err := NewSGRLD(g, th2, nil, src(), nil); return err }, want: ErrNil},
		{name: "NewSGRLD nil DiagMetricFunc", run: func() error { _, err := NewSGRLD(g, th2, nilMetric, src(), nil); return err }, want: ErrNil},
		{name: "NewSGRLD Minibatch dimension mismatch", run: func() error { _, err := NewSGRLD(mb(4), th2, unitMetric, src(), nil); return err }, want: ErrDimension},
		{name: "NewSGRLDDense with NoiseVar", run: func() error {
			_, err := NewSGRLDDense(g, th2, quadMetric{}, src(), &SGRLDSettings{NoiseVar: []float64{1, 1}})
			return err
		}, want: ErrUnsupported},
		{name: "NewSGRHMC negative Friction", run: func() error {
			_, err := NewSGRHMC(g, th2, unitMetric, src(), &SGRHMCSettings{Friction: -2})
			return err
		}, want: ErrRange},
		{name: "NewSGRHMCDense with Friction", run: func() error {
			_, err := NewSGRHMCDense(g, th2, quadMetric{}, src(), &SGRHMCSettings{Friction: 2})
			return err
		}, want: ErrUnsupported},
		{name: "NewSGRHMCDense nil metric", run: func() error { _, err := NewSGRHMCDense(g, th2, nil, src(), nil); return err }, want: ErrNil},
		{name: "NewSGRHMCDense empty theta0", run: func() error { _, err := NewSGRHMCDense(g, nil, quadMetric{}, src(), nil); return err }, want: ErrDimension},

		// Recipe and operators.
		{name: "NewRecipe nil Grad", run: func() error { _, err := NewRecipe(RecipeSpec{D: Scalar{N: 2, C: 1}, Z0: th2, Src: src()}); return err }, want: ErrNil},
		{name: "NewDiagFunc(-1, f) (issue panic 3)", run: func() error { _, err := NewDiagFunc(-1, f); return err }, want: ErrDimension},
		{name: "NewDiagFunc(2, nil) (issue panic 4)", run: func() error { _, err := NewDiagFunc(2, nil); return err }, want: ErrNil},
		{name: "NewRecipe D = zero SymMatrix (issue panic 5)", run: func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: &SymMatrix{}, Z0: th2, Src: src()})
			return err
		}, want: ErrDimension},
		{name: "NewSymMatrix(nil)", run: func() error { _, err := NewSymMatrix(nil); return err }, want: ErrNil},
		{name: "NewSymMatrix(empty)", run: func() error { _, err := NewSymMatrix(&mat.SymDense{}); return err }, want: ErrDimension},
		{name: "NewSymFunc(0, f)", run: func() error { _, err := NewSymFunc(0, func(*mat.SymDense, []float64) {}); return err }, want: ErrDimension},
		{name: "NewRecipe D a nil *DiagFunc", run: func() error { _, err := NewRecipe(RecipeSpec{Grad: g, D: nilDiag, Z0: th2, Src: src()}); return err }, want: ErrNil},
		{name: "NewRecipe Q a nil *Block", run: func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, Q: nilBlock, Z0: th2, Src: src()})
			return err
		}, want: ErrNil},
		{name: "NewRecipe NaN Z0", run: func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, Z0: []float64{math.NaN(), 0}, Src: src()})
			return err
		}, want: ErrNonFinite},
		{name: "NewRecipe Refresh with RefreshEvery 0", run: func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, Z0: th2, Src: src(), Refresh: func([]float64, *rng.Normal) {}})
			return err
		}, want: ErrRange},
		{name: "NewRecipe EstimateNoise without NoiseMap", run: func() error {
			_, err := NewRecipe(RecipeSpec{Grad: noisy(4), D: Scalar{N: 3, C: 1}, Z0: th3, Src: src(), EstimateNoise: true})
			return err
		}, want: ErrUnsupported},
		{name: "NewRecipe Minibatch dimension mismatch", run: func() error {
			_, err := NewRecipe(RecipeSpec{Grad: mb(4), D: Scalar{N: 2, C: 1}, Z0: th2, Src: src()})
			return err
		}, want: ErrDimension},
		{name: "NewBlock negative size", run: func() error { _, err := NewBlock([]int{1, -1}, [][]Operator{{nil, nil}, {nil, nil}}); return err }, want: ErrDimension},

		// pSGLD, HAMCMC.
		{name: "NewPSGLD Alpha 1", run: func() error { _, err := NewPSGLD(g, th2, src(), &PSGLDSettings{Alpha: 1, DropGamma: true}); return err }, want: ErrRange},
		{name: "NewPSGLD negative Lambda", run: func() error {
			_, err := NewPSGLD(g, th2, src(), &PSGLDSettings{Lambda: -1, DropGamma: true})
			return err
		}, want: ErrRange},
		{name: "NewPSGLD Freeze without V0", run: func() error { _, err := NewPSGLD(g, th2, src(), &PSGLDSettings{Freeze: true}); return err }, want: ErrUnsupported},
		{name: "NewPSGLD Γ without a Hessian", run: func() error { _, err := NewPSGLD(g, th2, src(), nil); return err }, want: ErrUnsupported},
		{name: "NewPSGLD negative V0", run: func() error {
			_, err := NewPSGLD(g, th2, src(), &PSGLDSettings{V0: []float64{1, -1}, DropGamma: true})
			return err
		}, want: ErrRange},
		{name: "NewPSGLD Minibatch dimension mismatch", run: func() error { _, err := NewPSGLD(mb(4), th2, src(), &PSGLDSettings{DropGamma: true}); return err }, want: ErrDimension},
		{name: "NewPSGLD nil *Minibatch", run: func() error { _, err := NewPSGLD(nilMB, th2, src(), &PSGLDSettings{DropGamma: true}); return err }, want: ErrNil},
		{name: "NewHAMCMC M = 1", run: func() error { _, err := NewHAMCMC(g, th2, src(), &HAMCMCSettings{M: 1}); return err }, want: ErrRange},
		{name: "NewHAMCMC negative Gamma", run: func() error { _, err := NewHAMCMC(g, th2, src(), &HAMCMCSettings{Gamma: -1}); return err }, want: ErrRange},
		{name: "NewHAMCMC theta0 and Init", run: func() error {
			_, err := NewHAMCMC(g, th2, src(), &HAMCMCSettings{Init: make([][]float64, 5)})
			return err
		}, want: ErrRange},
		{name: "NewHAMCMC Init of wrong count", run: func() error {
			_, err := NewHAMCMC(g, nil, src(), &HAMCMCSettings{Init: [][]float64{th2, th2}})
			return err
		}, want: ErrRange},
		{name: "NewHAMCMC nil *Minibatch", run: func() error { _, err := NewHAMCMC(nilMB, th2, src(), nil); return err }, want: ErrNil},
		{name: "NewHAMCMC Minibatch dimension mismatch", run: func() error { _, err := NewHAMCMC(mb(4), th2, src(), nil); return err }, want: ErrDimension},
		{name: "NewHAMCMC MinCurvature 1", run: func() error { _, err := NewHAMCMC(g, th2, src(), &HAMCMCSettings{MinCurvature: 1}); return err }, want: ErrRange},

		// SCIR, SGRLDSimplex, CountMinibatch.
		{name: "NewSCIR nil source", run: func() error { _, err := NewSCIR(FixedShape{1, 1}, pos, nil, nil); return err }, want: ErrNil},
		{name: "NewSCIR negative theta0", run: func() error { _, err := NewSCIR(FixedShape{1, 1}, []float64{1, -1}, src(), nil); return err }, want: ErrRange},
		{name: "NewSCIR Simplex not dividing d", run: func() error {
			_, err := NewSCIR(FixedShape{1, 1}, pos, src(), &SCIRSettings{Simplex: 3})
			return err
		}, want: ErrDimension},
		{name: "NewSCIR negative Rate", run: func() error { _, err := NewSCIR(FixedShape{1, 1}, pos, src(), &SCIRSettings{Rate: -1}); return err }, want: ErrRange},
		{name: "NewSCIR shape of wrong dimension", run: func() error { _, err := NewSCIR(FixedShape{1, 1, 1}, pos, src(), nil); return err }, want: ErrDimension},
		{name: "NewSCIR nil *CountMinibatch", run: func() error { _, err := NewSCIR(nilCount, pos, src(), nil); return err }, want: ErrNil},
		{name: "NewSCIR zero shape", run: func() error { _, err := NewSCIR(FixedShape{1, 0}, pos, src(), nil); return err }, want: ErrRange},
		{name: "NewSGRLDSimplex simplex block all zero", run: func() error {
			_, err := NewSGRLDSimplex(nil, []float64{0, 0, 1, 1}, src(), &SGRLDSimplexSettings{Simplex: 2})
			return err
		}, want: ErrRange},
		{name: "NewCountMinibatch label out of range", run: func() error { _, err := NewCountMinibatch(pos, Categorical{0, 2}, 1, src()); return err }, want: ErrRange},
		{name: "NewCountMinibatch batch larger than N", run: func() error { _, err := NewCountMinibatch(pos, Categorical{0, 1}, 3, src()); return err }, want: ErrRange},
		{name: "NewCountMinibatch zero alpha", run: func() error { _, err := NewCountMinibatch([]float64{1, 0}, Categorical{0, 1}, 1, src()); return err }, want: ErrRange},
		{name: "NewCountMinibatch nil data", run: func() error { _, err := NewCountMinibatch(pos, nil, 1, src()); return err }, want: ErrNil},

		// Minibatch.
		{name: "NewMinibatch nil model", run: func() error { _, err := NewMinibatch(nil, 1, false, src()); return err }, want: ErrNil},
		{name: "NewMinibatch batch size 0", run: func() error { _, err := NewMinibatch(ckModel{}, 0, true, src()); return err }, want: ErrRange},
		{name: "NewMinibatch model of dimension 0", run: func() error { _, err := NewMinibatch(dim0Model{}, 1, true, src()); return err }, want: ErrDimension},
		{name: "Minibatch.GradOn index 99 (issue panic 6)", run: func() error { return mb(4).GradOn(make([]float64, 3), th3, []int{99}) }, want: ErrRange, substr: "idx[0] = 99"},
		{name: "Minibatch.GradOn index -1", run: func() error { return mb(4).GradOn(make([]float64, 3), th3, []int{0, -1}) }, want: ErrRange},
		{name: "Minibatch.GradOn no index", run: func() error { return mb(4).GradOn(make([]float64, 3), th3, nil) }, want: ErrRange},
		{name: "Minibatch.GradOn dst of wrong length", run: func() error { return mb(4).GradOn(make([]float64, 2), th3, []int{0}) }, want: ErrDimension},
		{name: "NewAffine nil gradient", run: func() error { _, err := NewAffine(nil, th2, nil, pos); return err }, want: ErrNil},
		{name: "NewAffine singular diag", run: func() error { _, err := NewAffine(g, th2, nil, []float64{1, 0}); return err }, want: ErrRange},

		// Run.
		{name: "Run nil context (issue panic 8)", run: func() error {
			var ctx context.Context
			_, err := Run(ctx, sgld(), opts(RunOptions{Draws: 1}))
			return err
		}, want: ErrNil},
		{name: "Run (*Recipe)(nil) (issue panic 7)", run: func() error { _, err := Run(context.Background(), nilRecipe, opts(RunOptions{Draws: 1})); return err }, want: ErrNil},
		{name: "Run nil sampler", run: func() error { _, err := Run(context.Background(), nil, opts(RunOptions{Draws: 1})); return err }, want: ErrNil},
		{name: "Run Draws 1<<62 (issue panic 9)", run: run(opts(RunOptions{Draws: 1 << 62})), want: ErrRange},
		{name: "Run Draws 0", run: run(opts(RunOptions{})), want: ErrRange},
		{name: "Run Thin MaxInt/2+1 (issue silent 4)", run: run(opts(RunOptions{Draws: 2, Thin: math.MaxInt/2 + 1})), want: ErrRange, substr: "overflows"},
		{name: "Run BurnIn MaxInt (issue silent 5)", run: run(opts(RunOptions{Draws: 1, BurnIn: math.MaxInt})), want: ErrRange, substr: "overflows"},
		{name: "Run Start MaxInt", run: run(opts(RunOptions{Draws: 1, Start: math.MaxInt})), want: ErrRange},
		{name: "Run nil Schedule", run: func() error { _, err := Run(context.Background(), sgld(), RunOptions{Draws: 1}); return err }, want: ErrNil},
		{name: "Run negative BurnIn", run: run(opts(RunOptions{Draws: 1, BurnIn: -1})), want: ErrRange},
		{name: "Run Schedule giving NaN", run: run(RunOptions{Draws: 1, Schedule: nanSchedule{}}), step: true},
		{name: "Run Constant NaN", run: run(RunOptions{Draws: 1, Schedule: Constant(math.NaN())}), want: ErrRange, substr: "Constant(NaN)"},
		{name: "Run Constant 0", run: run(RunOptions{Draws: 1, Schedule: Constant(0)}), want: ErrRange, substr: "positive"},
		{name: "Run Constant -Inf", run: run(RunOptions{Draws: 1, Schedule: Constant(math.Inf(-1))}), want: ErrRange, substr: "Constant(-Inf)"},
		{name: "Run Polynomial A 0", run: run(RunOptions{Draws: 1, Schedule: Polynomial{Gamma: 0.55}}), want: ErrRange, substr: "A: 0"},
		{name: "Run Polynomial B -1", run: run(RunOptions{Draws: 1, Schedule: Polynomial{A: 1, B: -1, Gamma: 0.55}}), want: ErrRange, substr: "B: -1"},
		{name: "Run Polynomial B NaN", run: run(RunOptions{Draws: 1, Schedule: Polynomial{A: 1, B: math.NaN(), Gamma: 0.55}}), want: ErrRange, substr: "B: NaN"},
		{name: "Run Polynomial Gamma negative", run: run(RunOptions{Draws: 1, Schedule: Polynomial{A: 1, Gamma: -0.5}}), want: ErrRange, substr: "Gamma: -0.5"},
		{name: "Run Polynomial Gamma Inf", run: run(RunOptions{Draws: 1, Schedule: Polynomial{A: 1, Gamma: math.Inf(1)}}), want: ErrRange, substr: "Gamma: +Inf"},
		{name: "Run Cyclical Cycle 0", run: run(RunOptions{Draws: 1, Schedule: Cyclical{Eps0: 0.1}}), want: ErrRange, substr: "Cycle: 0"},
		{name: "Run Cyclical Cycle -5", run: run(RunOptions{Draws: 1, Schedule: Cyclical{Eps0: 0.1, Cycle: -5}}), want: ErrRange, substr: "Cycle: -5"},
		{name: "Run Cyclical Explore NaN", run: run(RunOptions{Draws: 1, Schedule: Cyclical{Eps0: 0.1, Cycle: 10, Explore: math.NaN()}}), want: ErrRange, substr: "Explore: NaN"},
		{name: "Run Cyclical Explore -1", run: run(RunOptions{Draws: 1, Schedule: Cyclical{Eps0: 0.1, Cycle: 10, Explore: -1}}), want: ErrRange, substr: "Explore: -1"},
		{name: "Run Cyclical Explore 1", run: run(RunOptions{Draws: 1, Schedule: Cyclical{Eps0: 0.1, Cycle: 10, Explore: 1}}), want: ErrRange, substr: "no draw is kept"},
		{name: "Run Cyclical Eps0 0", run: run(RunOptions{Draws: 1, Schedule: Cyclical{Cycle: 10}}), want: ErrRange, substr: "Eps0: 0"},
		{name: "Run Cyclical Eps0 Inf", run: run(RunOptions{Draws: 1, Schedule: Cyclical{Eps0: math.Inf(1), Cycle: 10}}), want: ErrRange, substr: "Eps0: +Inf"},

		// RunChains.
		{name: "RunChains nil context", run: func() error {
			var ctx context.Context
			_, err := RunChains(ctx, 1, 1, goodFactory, opts(RunOptions{Draws: 1}))
			return err
		}, want: ErrNil},
		{name: "RunChains k = 0", run: chains(0, opts(RunOptions{Draws: 1}), goodFactory), want: ErrRange},
		{name: "RunChains k = 1<<40", run: chains(1<<40, opts(RunOptions{Draws: 1}), goodFactory), want: ErrRange},
		{name: "RunChains nil newSampler", run: chains(1, opts(RunOptions{Draws: 1}), nil), want: ErrNil},
		{name: "RunChains newSampler returns a nil *Recipe", run: chains(2, opts(RunOptions{Draws: 1}), func(int, rand.Source) (Sampler, error) { return nilRecipe, nil }), want: ErrNil},
		{name: "RunChains Draws -1", run: chains(2, opts(RunOptions{Draws: -1}), goodFactory), want: ErrRange},
		{name: "RunChains k·Draws too large", run: chains(1<<20, opts(RunOptions{Draws: 1 << 30}), goodFactory), want: ErrRange},

		// Steps.
		{name: "Step size 0", run: func() error { return sgld().Step(0) }, step: true},
		{name: "Step size NaN", run: func() error { return sgld().Step(math.NaN()) }, step: true},
		{name: "pSGLD gradient 1e200 (issue silent 2)", run: func() error {
			m, _ := NewMinibatch(bigModel{}, 2, false, src())
			p, err := NewPSGLD(m, th3, src(), &PSGLDSettings{DropGamma: true})
			if err != nil {
				return err
			}
			return p.Step(1e-3)
		}, step: true, substr: "accumulator overflowed"},
		{name: "SCIR StepShape of wrong length", run: func() error {
			s, _ := NewSCIR(nil, pos, src(), nil)
			return s.StepShape(0.1, []float64{1})
		}, step: true},
		{name: "SCIR Step without an estimator", run: func() error {
			s, _ := NewSCIR(nil, pos, src(), nil)
			return s.Step(0.1)
		}, step: true, substr: "StepShape"},
		{name: "SGRLDSimplex StepShape negative shape", run: func() error {
			s, _ := NewSGRLDSimplex(nil, pos, src(), nil)
			return s.StepShape(0.1, []float64{1, -1})
		}, step: true, substr: "shape estimate"},
		{name: "Recipe metric turning negative", run: func() error {
			s, err := NewSGRLD(g, th2, DiagMetricFunc(func(g, dg, th []float64) {
				for i, x := range th {
					g[i], dg[i] = 1-10*x*x, -20*x
				}
			}), src(), nil)
			if err != nil {
				return err
			}
			for range 100 {
				if err := s.Step(0.1); err != nil {
					return err
				}
			}
			return nil
		}, step: true, substr: "metric not positive definite"},

		// Chain.
		{name: "Chain.Column(nil, 7) (issue panic 10)", run: func() error { return wantNil(chain.Column(nil, 7)) }, defined: true},
		{name: "Chain.Column(nil, -1)", run: func() error { return wantNil(chain.Column(nil, -1)) }, defined: true},
		{name: "Chain.Column with a short dst", run: func() error {
			c := chain.Column(make([]float64, 1), 1)
			if len(c) != 3 || c[2] != 6 {
				return fmt.Errorf("Column = %v, want [2 4 6]", c)
			}
			return nil
		}, defined: true},
		{name: "Chain.At(3) past the end", run: func() error { return wantNil(chain.At(3)) }, defined: true},
		{name: "Chain with Draws shorter than Len·Dim", run: func() error {
			c := &Chain{Dim: 2, Draws: []float64{1}, Eps: []float64{1, 1}}
			return errors.Join(wantNil(c.At(1)), wantNil(c.Column(nil, 0)))
		}, defined: true},
		{name: "Chain.Mean into dst of wrong length", run: func() error {
			dst := make([]float64, 3)
			chain.Mean(dst)
			for _, v := range dst {
				if !math.IsNaN(v) {
					return fmt.Errorf("Mean = %v, want NaN", dst)
				}
			}
			return nil
		}, defined: true},

		{name: "CountMinibatch.Shape into a short dst", run: func() error {
			c, _ := NewCountMinibatch([]float64{1, 1, 1}, Categorical{0, 1, 2}, 2, src())
			dst := make([]float64, 1)
			c.Shape(dst)
			if !math.IsNaN(dst[0]) {
				return fmt.Errorf("Shape wrote %v, want NaN", dst)
			}
			return nil
		}, defined: true},
		{name: "Progress with a nil writer", run: func() error {
			cb := Progress(nil, 0, 100)
			for t := 1; t <= 2*progressBlock; t++ {
				if err := cb(StepInfo{T: t}); err != nil {
					return err
				}
			}
			return nil
		}, defined: true},
		{name: "SCIR.LogPosition into a short dst", run: func() error {
			s, _ := NewSCIR(FixedShape{1, 2}, pos, src(), nil)
			if lp := s.LogPosition(make([]float64, 1)); len(lp) != 2 {
				return fmt.Errorf("LogPosition has length %d, want 2", len(lp))
			}
			return nil
		}, defined: true},

		// Checkpoints.
		{name: "SGHMC d=2 checkpoint into SGLD d=4 (issue silent 8)", run: func() error {
			s, _ := NewSGLD(g, make([]float64, 4), src(), nil)
			return s.UnmarshalBinary(hmcCP())
		}, want: ErrCheckpoint, substr: `checkpoint of a "SGHMC"`},
		{name: "SGHMC checkpoint into SGRHMC (issue silent 9)", run: func() error {
			s, _ := NewSGRHMC(g, th2, unitMetric, src(), nil)
			return s.UnmarshalBinary(hmcCP())
		}, want: ErrCheckpoint, substr: `into a "SGRHMC"`},
		{name: "checkpoint with step count 0xFF…FB (issue silent 6)", run: func() error {
			s, _ := NewSGHMC(g, th2, src(), nil)
			cp := hmcCP()
			p := cp[ckptHeader+5 : len(cp)-4]
			for i := range 8 {
				p[8+2*8+i] = 0xFF
			}
			p[8+2*8] = 0xFB
			return s.UnmarshalBinary(seal("SGHMC", 2, p))
		}, want: ErrCheckpoint, substr: "step count"},
		{name: "checkpoint with a flipped bit in the random state (issue silent 7)", run: func() error {
			s, _ := NewSGHMC(g, th2, src(), nil)
			cp := hmcCP()
			cp[len(cp)-10] ^= 4
			return s.UnmarshalBinary(cp)
		}, want: ErrCheckpoint, substr: "checksum"},
		{name: "checkpoint truncated to 20 bytes (issue misleading)", run: func() error {
			s, _ := NewSGHMC(g, th2, src(), nil)
			return s.UnmarshalBinary(hmcCP()[:20])
		}, want: ErrCheckpoint, substr: "truncated: 20 bytes"},
		{name: "HAMCMC checkpoint into PSGLD", run: func() error {
			h, _ := NewHAMCMC(g, th2, src(), nil)
			cp, _ := h.MarshalBinary()
			p, _ := NewPSGLD(g, th2, src(), &PSGLDSettings{DropGamma: true})
			return p.UnmarshalBinary(cp)
		}, want: ErrCheckpoint},
		{name: "Minibatch checkpoint of another batch size", run: func() error {
			cp, _ := mb(4).MarshalBinary()
			return mb(5).UnmarshalBinary(cp)
		}, want: ErrCheckpoint, substr: "batch size"},
		{name: "CountMinibatch checkpoint into a Minibatch", run: func() error {
			c, _ := NewCountMinibatch([]float64{1, 1, 1}, Categorical{0, 1, 2}, 2, src())
			cp, _ := c.MarshalBinary()
			return mb(4).UnmarshalBinary(cp)
		}, want: ErrCheckpoint},
		{name: "empty checkpoint", run: func() error { return sgld().UnmarshalBinary(nil) }, want: ErrCheckpoint},
		{name: "Minibatch checkpoint with a source that cannot marshal", run: func() error {
			m, err := NewMinibatch(ckModel{}, 2, false, plainSource{})
			if err != nil {
				return err
			}
			_, err = m.MarshalBinary()
			return err
		}, want: ErrUnsupported},
	}
}

type dim0Model struct{ ckModel }

func (dim0Model) Dim() int { return 0 }

func wantNil(x []float64) error {
	if x != nil {
		return fmt.Errorf("got %v, want nil", x)
	}
	return nil
}

// TestBadInputCatalogue runs the bad-input catalogue: every case must
// give its documented outcome, never a panic, and the counts by outcome are
// logged (go test -v -run TestBadInputCatalogue).
func TestBadInputCatalogue(t *testing.T) {
	t.Parallel()
	cases := badInputCases()
	counts := map[string]int{}
	for _, c := range cases {
		counts[c.outcome()]++
		t.Run(subtestName(c.name), func(t *testing.T) {
			c.check(t)
		})
	}
	if len(cases) < 80 {
		t.Errorf("%d cases, want at least 80", len(cases))
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("%d cases:", len(cases))
	for _, k := range keys {
		t.Logf("  %3d  %s", counts[k], k)
	}
}

// subtestName makes a case's name a subtest name one level deep.
func subtestName(name string) string { return badinput.SubtestName(name) }

// check runs the case and reports an outcome other than its documented one.
func (c badCase) check(t *testing.T) {
	c.spec().Check(t, func(err error) bool {
		var se *StepError
		return errors.As(err, &se)
	}, sentinelName)
}

// nanSchedule is a Schedule of the user's that gives NaN at every step.
type nanSchedule struct{}

func (nanSchedule) StepSize(int) float64 { return math.NaN() }
