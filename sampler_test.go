// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func newTestSGHMC(t testing.TB, seed uint64) *Recipe {
	s, err := NewSGHMC(GradFunc(testGrad), []float64{0.3, -0.2, 0.1}, rand.NewPCG(seed, seed), &SGHMCSettings{Friction: 2})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRunMatchesManualStepping: Run with burn-in, thinning and a decreasing
// schedule equals stepping by hand, bit for bit.
func TestRunMatchesManualStepping(t *testing.T) {
	t.Parallel()
	sched := Polynomial{A: 0.05, B: 10, Gamma: 0.55}
	opt := RunOptions{Draws: 50, BurnIn: 37, Thin: 3, Schedule: sched}
	c, err := Run(context.Background(), newTestSGHMC(t, 1), opt)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 50 || c.Steps != 37+150 {
		t.Fatalf("Len = %d, Steps = %d", c.Len(), c.Steps)
	}
	s := newTestSGHMC(t, 1)
	k := 0
	for step := 1; step <= 37+150; step++ {
		eps := sched.StepSize(step)
		if err := s.Step(eps); err != nil {
			t.Fatal(err)
		}
		if step > 37 && (step-37)%3 == 0 {
			for j, v := range s.Position() {
				if c.At(k)[j] != v {
					t.Fatalf("draw %d coordinate %d: Run %v, manual %v", k, j, c.At(k)[j], v)
				}
			}
			if c.Eps[k] != eps {
				t.Fatalf("draw %d: Eps %v, want %v", k, c.Eps[k], eps)
			}
			k++
		}
	}
	// Same seed, same chain.
	c2, _ := Run(context.Background(), newTestSGHMC(t, 1), opt)
	for i := range c.Draws {
		if c.Draws[i] != c2.Draws[i] {
			t.Fatal("same seed gave a different chain")
		}
	}
	// Continuing a run with Start equals one long run.
	a := newTestSGHMC(t, 2)
	long, _ := Run(context.Background(), a, RunOptions{Draws: 20, Schedule: sched})
	b := newTestSGHMC(t, 2)
	first, _ := Run(context.Background(), b, RunOptions{Draws: 10, Schedule: sched})
	second, _ := Run(context.Background(), b, RunOptions{Draws: 10, Schedule: sched, Start: 10})
	got := append(append([]float64(nil), first.Draws...), second.Draws...)
	for i := range got {
		if got[i] != long.Draws[i] {
			t.Fatal("run continued with Start differs from one long run")
		}
	}
}

// TestRunStopsAndKeepsDraws: cancellation, a failing gradient and a
// callback all end the run with the draws taken so far.
func TestRunStopsAndKeepsDraws(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := Run(ctx, newTestSGHMC(t, 3), RunOptions{Draws: 1000, Schedule: Constant(0.01), Callback: func(si StepInfo) error {
		if si.T == 100 {
			cancel()
		}
		return nil
	}})
	if !errors.Is(err, context.Canceled) || c.Len() != 100 || len(c.Draws) != 100*3 {
		t.Errorf("cancel: err %v, %d draws", err, c.Len())
	}
	calls := 0
	bad := GradFunc(func(dst, th []float64) {
		calls++
		testGrad(dst, th)
		if calls == 57 {
			dst[1] = math.NaN()
		}
	})
	s, _ := NewSGLD(bad, []float64{0.1, 0.2, 0.3}, rand.NewPCG(1, 1), nil)
	c, err = Run(context.Background(), s, RunOptions{Draws: 100, Schedule: Constant(0.01)})
	var se *StepError
	if !errors.As(err, &se) || se.Step != 57 || se.Index != 1 || !strings.Contains(err.Error(), "gradient") {
		t.Errorf("NaN gradient: err = %v, want a StepError at step 57, coordinate 1", err)
	}
	if c.Len() != 56 {
		t.Errorf("NaN gradient: kept %d draws, want 56", c.Len())
	}
	for j, v := range s.Position() {
		if v != c.At(55)[j] {
			t.Errorf("state after the failed step is not the last good state")
		}
	}
	c, err = Run(context.Background(), newTestSGHMC(t, 4), RunOptions{Draws: 100, Schedule: Constant(0.01), Callback: func(si StepInfo) error {
		if si.T == 10 {
			return ErrStop
		}
		return nil
	}})
	if err != nil || c.Len() != 10 {
		t.Errorf("ErrStop: err %v, %d draws", err, c.Len())
	}
}

func TestRunBadOptions(t *testing.T) {
	t.Parallel()
	s := newTestSGHMC(t, 5)
	for _, o := range []RunOptions{
		{Draws: 0, Schedule: Constant(1)},
		{Draws: 1},
		{Draws: 1, BurnIn: -1, Schedule: Constant(1)},
		{Draws: 1, Thin: -1, Schedule: Constant(1)},
		{Draws: 1, Start: -1, Schedule: Constant(1)},
	} {
		if _, err := Run(context.Background(), s, o); err == nil {
			t.Errorf("Run(%+v) = nil error", o)
		}
	}
	if _, err := Run(context.Background(), nil, RunOptions{Draws: 1, Schedule: Constant(1)}); err == nil {
		t.Error("nil sampler: no error")
	}
	for _, eps := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if err := s.Step(eps); err == nil {
			t.Errorf("Step(%v) = nil error", eps)
		}
	}
}

func TestSchedules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		s    Schedule
		t    int
		want float64
	}{
		{Constant(0.1), 7, 0.1},
		{Polynomial{A: 2, B: 3, Gamma: 0.5}, 6, 2.0 / 3},
		{linearSchedule{}, 3, 3},
	}
	for _, c := range cases {
		if got := c.s.StepSize(c.t); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%T.StepSize(%d) = %v, want %v", c.s, c.t, got, c.want)
		}
	}
}

// TestConstructorsRejectBadInput: every constructor returns an error naming
// the problem, never panics.
func TestConstructorsRejectBadInput(t *testing.T) {
	t.Parallel()
	g := GradFunc(testGrad)
	th := []float64{0.1, 0.2}
	src := rand.NewPCG(1, 1)
	nan := math.NaN()
	cases := []struct {
		name string
		f    func() error
		want string
	}{
		{"SGLD nil source", func() error { _, err := NewSGLD(g, th, nil, nil); return err }, "random source"},
		{"SGLD nil grad", func() error { _, err := NewSGLD(nil, th, src, nil); return err }, "Grad"},
		{"SGLD empty theta", func() error { _, err := NewSGLD(g, nil, src, nil); return err }, "theta0"},
		{"SGLD NaN theta", func() error { _, err := NewSGLD(g, []float64{nan, 0}, src, nil); return err }, "theta0[0]"},
		{"SGLD precond length", func() error { _, err := NewSGLD(g, th, src, &SGLDSettings{Precond: []float64{1}}); return err }, "Precond has length 1"},
		{"SGLD precond negative", func() error {
			_, err := NewSGLD(g, th, src, &SGLDSettings{Precond: []float64{1, -1}})
			return err
		}, "Precond[1]"},
		{"SGLD noise var negative", func() error {
			_, err := NewSGLD(g, th, src, &SGLDSettings{NoiseVar: []float64{1, -1}})
			return err
		}, "NoiseVar[1]"},
		{"SGLD estimate without estimator", func() error {
			_, err := NewSGLD(g, th, src, &SGLDSettings{EstimateNoise: true})
			return err
		}, "NoiseEstimator"},
		{"SGHMC friction", func() error { _, err := NewSGHMC(g, th, src, &SGHMCSettings{Friction: -1}); return err }, "Friction"},
		{"SGHMC friction NaN", func() error { _, err := NewSGHMC(g, th, src, &SGHMCSettings{Friction: nan}); return err }, "Friction"},
		{"SGHMC mass", func() error { _, err := NewSGHMC(g, th, src, &SGHMCSettings{Mass: []float64{1, 0}}); return err }, "Mass[1]"},
		{"SGHMC R0 length", func() error { _, err := NewSGHMC(g, th, src, &SGHMCSettings{R0: []float64{1}}); return err }, "R0"},
		{"SGHMC resample", func() error { _, err := NewSGHMC(g, th, src, &SGHMCSettings{ResampleEvery: -1}); return err }, "ResampleEvery"},
		{"SGNHT A", func() error { _, err := NewSGNHT(g, th, src, &SGNHTSettings{A: -2}); return err }, "A ="},
		{"SGRLD nil metric", func() error { _, err := NewSGRLD(g, th, nil, src, nil); return err }, "metric"},
		{"SGRLD metric not PD", func() error {
			_, err := NewSGRLD(g, th, DiagMetricFunc(func(gg, dg, _ []float64) { gg[0], gg[1] = 1, -1 }), src, nil)
			return err
		}, "not positive definite"},
		{"SGRLD dense with noise", func() error {
			_, err := NewSGRLDDense(g, th, rotMetric{}, src, &SGRLDSettings{NoiseVar: []float64{1, 1}})
			return err
		}, "diagonal metrics only"},
		{"SGRHMC nil metric", func() error { _, err := NewSGRHMC(g, th, nil, src, nil); return err }, "metric"},
		{"SGRHMC dense not PD", func() error {
			_, err := NewSGRHMCDense(g, th, negMetric{}, src, nil)
			return err
		}, "not positive definite"},
		{"recipe nil D", func() error { _, err := NewRecipe(RecipeSpec{Grad: g, Z0: th, Src: src}); return err }, "nil D"},
		{"recipe D size", func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 3, C: 1}, Z0: th, Src: src})
			return err
		}, "D is 3×3"},
		{"recipe blocks", func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, Blocks: []int{1, 2}, Z0: th, Src: src})
			return err
		}, "blocks sum"},
		{"recipe order", func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, Blocks: []int{1, 1}, Integrator: Sweep{Order: []int{0, 0}}, Z0: th, Src: src})
			return err
		}, "permutation"},
		{"recipe noise map", func() error {
			_, err := NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, NoiseVar: []float64{1, 1}, Z0: th, Src: src})
			return err
		}, "NoiseMap"},
		{"block dims", func() error {
			_, err := NewBlock([]int{1, 1}, [][]Operator{{Scalar{N: 2}, nil}, {nil, nil}})
			return err
		}, "block (0,0)"},
		{"minibatch size", func() error { _, err := NewMinibatch(testModel{}, 0, false, src); return err }, "batch size"},
		{"minibatch too large", func() error { _, err := NewMinibatch(testModel{}, 11, false, src); return err }, "batch size 11"},
		{"minibatch nil source", func() error { _, err := NewMinibatch(testModel{}, 2, false, nil); return err }, "random source"},
	}
	for _, c := range cases {
		err := c.f()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

type negMetric struct{}

func (negMetric) Dense(g *mat.SymDense, _ []*mat.SymDense, _ []float64) {
	g.SetSym(0, 0, 1)
	g.SetSym(1, 1, -1)
	g.SetSym(0, 1, 0)
}

// TestStepErrors: a noise covariance that is not PSD and a metric that goes
// bad mid-run are errors naming the step, and the state is kept.
func TestStepErrors(t *testing.T) {
	t.Parallel()
	s, err := NewSGHMC(GradFunc(testGrad), []float64{0.1, 0.2}, rand.NewPCG(1, 1), &SGHMCSettings{Friction: 0.1, NoiseVar: []float64{1, 100}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Step(0.001); err != nil {
		t.Fatal(err)
	}
	before := append([]float64(nil), s.State()...)
	err = s.Step(0.01)
	var se *StepError
	if !errors.As(err, &se) || se.Step != 2 || se.Index != 3 || !strings.Contains(err.Error(), "2D − εB̂") {
		t.Errorf("err = %v, want a StepError at step 2, coordinate 3 naming 2D − εB̂", err)
	}
	for i, v := range s.State() {
		if v != before[i] {
			t.Fatal("state changed by a failed step")
		}
	}
	m := DiagMetricFunc(func(g, dg, th []float64) {
		for i, x := range th {
			g[i], dg[i] = 1-x, -1 // stops being positive at θ ≥ 1
		}
	})
	r, err := NewSGRLD(GradFunc(func(dst, _ []float64) { dst[0] = -50 }), []float64{0}, m, rand.NewPCG(2, 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for range 1000 {
		if last = r.Step(0.01); last != nil {
			break
		}
	}
	if last == nil || !strings.Contains(last.Error(), "not positive definite") || !errors.As(last, &se) || se.Step != r.Steps()+1 {
		t.Errorf("metric going bad: err = %v", last)
	}
	if r.Position()[0] >= 1 {
		t.Errorf("state %v kept from the failed step", r.Position())
	}
}

// TestStepsAllocateNothing: after construction a step allocates nothing.
func TestStepsAllocateNothing(t *testing.T) {
	for _, c := range benchSamplers() {
		s, err := c.make(64)
		if err != nil {
			t.Fatal(err)
		}
		stepAllocs(t, c.name, s, c.eps)
	}
	for _, c := range []struct {
		name string
		make func() (*Recipe, error)
	}{
		{"SGRLD dense", func() (*Recipe, error) {
			return NewSGRLDDense(GradFunc(testGrad), []float64{0.3, -0.2}, quadMetric{}, rand.NewPCG(1, 3), nil)
		}},
		{"gSGRHMC dense", func() (*Recipe, error) {
			return NewSGRHMCDense(GradFunc(testGrad), []float64{0.3, -0.2}, quadMetric{}, rand.NewPCG(1, 3), nil)
		}},
	} {
		s, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		stepAllocs(t, c.name, s, 0.01)
	}
	mb, _ := NewMinibatch(testModel{}, 4, false, rand.NewPCG(1, 1))
	mb.Noise = true
	s, err := NewSGHMC(mb, []float64{0.1, 0.1}, rand.NewPCG(1, 2), &SGHMCSettings{EstimateNoise: true, Friction: 50})
	if err != nil {
		t.Fatal(err)
	}
	stepAllocs(t, "SGHMC with a Minibatch estimating B̂", s, 0.001)
}

// quadMetric is the state-dependent dense metric
// G = [[2 + θ₀², 0.5], [0.5, 1 + θ₁²]], written without allocating.
type quadMetric struct{}

func (quadMetric) Dense(g *mat.SymDense, dg []*mat.SymDense, th []float64) {
	g.SetSym(0, 0, 2+th[0]*th[0])
	g.SetSym(0, 1, 0.5)
	g.SetSym(1, 1, 1+th[1]*th[1])
	dg[0].Zero()
	dg[0].SetSym(0, 0, 2*th[0])
	dg[1].Zero()
	dg[1].SetSym(1, 1, 2*th[1])
}

// TestCheckpoint: a chain restored from MarshalBinary checkpoints of the
// sampler and its Minibatch continues bit for bit as the original.
func TestCheckpoint(t *testing.T) {
	t.Parallel()
	build := func() (*Recipe, *Minibatch) {
		mb, err := NewMinibatch(testModel{}, 3, false, rand.NewPCG(4, 4))
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSGHMC(mb, []float64{0.2, -0.1}, rand.NewPCG(5, 5), &SGHMCSettings{Friction: 20})
		if err != nil {
			t.Fatal(err)
		}
		return s, mb
	}
	a, amb := build()
	for range 100 {
		if err := a.Step(0.01); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	cm, err := amb.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b, bmb := build()
	if err := b.UnmarshalBinary(cs); err != nil {
		t.Fatal(err)
	}
	if err := bmb.UnmarshalBinary(cm); err != nil {
		t.Fatal(err)
	}
	if b.Steps() != 100 {
		t.Errorf("restored Steps = %d, want 100", b.Steps())
	}
	for k := range 100 {
		_ = a.Step(0.01)
		_ = b.Step(0.01)
		for i, v := range a.State() {
			if b.State()[i] != v {
				t.Fatalf("step %d after restore: coordinate %d differs", k+1, i)
			}
		}
	}
	if err := b.UnmarshalBinary(cs[:10]); err == nil {
		t.Error("truncated checkpoint: no error")
	}
	// The source only seeds the sampler's generator, whose state is what a
	// checkpoint keeps: any source will do.
	c, err := NewSGLD(GradFunc(testGrad), []float64{0.1}, plainSource{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.MarshalBinary(); err != nil {
		t.Errorf("source without MarshalBinary: err = %v, want none", err)
	}
}

// plainSource is a rand.Source that cannot be checkpointed.
type plainSource struct{}

func (plainSource) Uint64() uint64 { return 42 }

// linearSchedule is ε_t = t.
type linearSchedule struct{}

func (linearSchedule) StepSize(t int) float64 { return float64(t) }
