// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/sgmcmc-go/sgmcmc"
)

// panicModel is a well-posed 2-d Gaussian-mean model (N = 200) that panics
// in the method named by where, after `after` calls of it (0: at once).
type panicModel struct {
	where string
	after int64
	calls *atomic.Int64
}

func newPanicModel(where string, after int64) panicModel {
	return panicModel{where: where, after: after, calls: new(atomic.Int64)}
}

func (m panicModel) hit(where string) {
	if where == m.where && m.calls.Add(1) > m.after {
		panic("planted panic in " + where)
	}
}

func (m panicModel) Dim() int { return 2 }
func (m panicModel) Len() int { return 200 }
func (m panicModel) LogPriorGrad(dst, th []float64) {
	m.hit("prior")
	for j, x := range th {
		dst[j] -= x / 100
	}
}
func (m panicModel) LogLikGrad(dst, th []float64, i int, scale float64) {
	m.hit("lik")
	if m.where == "index" && m.calls.Add(1) > m.after {
		var a []float64
		_ = a[i] // a runtime error, not a panic call
	}
	x := float64(i%7) - 3
	for j := range dst {
		dst[j] += scale * (x - th[j])
	}
}

// panicBatchModel adds a batch gradient that panics.
type panicBatchModel struct{ panicModel }

func (m panicBatchModel) LogLikGradBatch(dst, th []float64, idx []int, scale float64) {
	m.hit("batch")
	for _, i := range idx {
		m.LogLikGrad(dst, th, i, scale)
	}
}

// panicMethod is SGLD with a planted panic in one of its methods.
type panicMethod struct{ where string }

func (m panicMethod) Name() string {
	if m.where == "name" {
		panic("planted panic in Name")
	}
	return "panicky SGLD"
}
func (m panicMethod) Rules(d int) Rules {
	if m.where == "rules" {
		panic("planted panic in Rules")
	}
	return SGLD{}.Rules(d)
}
func (m panicMethod) NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, a *Adapted) (sgmcmc.Sampler, error) {
	if m.where == "new" {
		panic("planted panic in NewSampler")
	}
	s, err := SGLD{}.NewSampler(g, z0, src, a)
	if m.where == "step" {
		return panicStepper{Sampler: s, left: new(atomic.Int64)}, err
	}
	return s, err
}

// panicStepper panics on its 60th step.
type panicStepper struct {
	sgmcmc.Sampler
	left *atomic.Int64
}

func (s panicStepper) Step(eps float64) error {
	if s.left.Add(1) == 60 {
		panic("planted panic in Step")
	}
	return s.Sampler.Step(eps)
}

// gaussMeanModel is the mean of N(θ, 9) data, flat prior: the posterior
// is N(x̄, 9/N).
type gaussMeanModel struct{ x []float64 }

func newGaussMean(n int) gaussMeanModel {
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, n)
	for i := range x {
		x[i] = 3 * r.NormFloat64()
	}
	return gaussMeanModel{x}
}

func (m gaussMeanModel) Dim() int                       { return 1 }
func (m gaussMeanModel) Len() int                       { return len(m.x) }
func (m gaussMeanModel) LogPriorGrad(dst, th []float64) {}
func (m gaussMeanModel) LogLikGrad(dst, th []float64, i int, s float64) {
	dst[0] += s * (m.x[i] - th[0]) / 9
}

// hugeModel's gradient is finite but of order 1e300 at its start, and
// its curvature 1e300: finite differences of it overflow.
type hugeModel struct{}

func (hugeModel) Dim() int                       { return 1 }
func (hugeModel) Len() int                       { return 10 }
func (hugeModel) LogPriorGrad(dst, th []float64) {}
func (hugeModel) LogLikGrad(dst, th []float64, i int, s float64) {
	dst[0] -= s * 1e299 * th[0]
}

// sampleBadCases are the catalogue's cases for Run, sgmcmc.Run and
// sgmcmc.RunChains with user code that panics, returns nothing usable or
// stops the run; the ones that run goroutines of the library's run in a
// child process.
func sampleBadCases() []badCase {
	bg := context.Background()
	few := &Settings{Seed: 1, Chains: 2, Draws: 100}
	sample := func(p Problem, s *Settings, m Method) func() error {
		return func() error { _, err := Run(bg, p, []float64{0.5, -0.5}, s, m); return err }
	}
	sample1 := func(p Problem, s *Settings, m Method) func() error {
		return func() error { _, err := Run(bg, p, []float64{0.5}, s, m); return err }
	}
	model := func(where string, after int64) Problem { return Problem{Model: newPanicModel(where, after)} }
	grad := func(f func(dst, th []float64)) Problem {
		return Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) { return sgmcmc.GradFunc(f), nil }}
	}
	factory := func(g sgmcmc.Gradient, err error) Problem {
		return Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) { return g, err }}
	}
	// partial checks the partial-result contract and returns Run's
	// error, or an error of its own if the contract is broken.
	partial := func(p Problem, s *Settings, m Method, wantDraws bool) func() error {
		return func() error {
			res, err := Run(bg, p, []float64{0.5, -0.5}, s, m)
			if err == nil {
				return nil
			}
			switch {
			case res == nil:
				return fmt.Errorf("no partial Result with %w", err)
			case len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Message, "stopped early"):
				return fmt.Errorf("partial Result's warnings %q do not say the run stopped early (%w)", res.Warnings, err)
			case wantDraws && (res.Chains[0] == nil || res.Chains[0].Len() == 0 || res.Summary == nil):
				return fmt.Errorf("partial Result lost the draws or the summary (%w)", err)
			}
			return err
		}
	}
	var pe *sgmcmc.PanicError
	isPanic := func(f func() error, fn string) func() error {
		return func() error {
			err := f()
			var ce *sgmcmc.ChainError
			if err != nil && (!errors.As(err, &pe) || !errors.As(err, &ce) || pe.Func != fn || len(pe.Stack) == 0) {
				return fmt.Errorf("want a *ChainError wrapping a *PanicError from %s with its stack: %w", fn, err)
			}
			return err
		}
	}
	errPanic := errors.New("panic instead")
	// stopAt returns err from the callback of a one-chain run once it has
	// kept `kept` draws (at the step after it, if kept > 0).
	stopAt := func(kept int, err error) func(sgmcmc.StepInfo) error {
		n := 0
		return func(si sgmcmc.StepInfo) error {
			if n >= kept {
				if err == errPanic {
					panic("planted")
				}
				return err
			}
			if si.Kept {
				n++
			}
			return nil
		}
	}
	errMine := errors.New("my callback's error")
	gauss := Problem{Model: newGaussMean(1000)}
	inf := func(v float64) func(dst, th []float64) {
		return func(dst, th []float64) {
			for j := range dst {
				dst[j] = v
			}
		}
	}
	var nilMB *sgmcmc.Minibatch
	var nilMethod *SGLD
	var nilModel *linReg
	cancelled, cancel := context.WithCancel(bg)
	cancel()
	return []badCase{
		// Panics in user code on the library's goroutines.
		{name: "Sample Model.LogLikGrad panics at once", child: true,
			run: isPanic(sample(model("lik", 0), few, nil), "Model.LogLikGrad"), substr: "warmup: Newton: Model.LogLikGrad panicked: planted panic"},
		{name: "Sample Model.LogLikGrad panics while sampling, draws kept", child: true,
			run: isPanic(partial(model("lik", 400000), &Settings{Seed: 1, Chains: 1, Draws: 2000, PlainMinibatch: true}, SGLD{}, true), "Model.LogLikGrad"), substr: "sampling, step"},
		{name: "Sample Model.LogLikGrad index out of range", child: true,
			run: isPanic(sample(model("index", 0), few, nil), "Model.LogLikGrad"), substr: "index out of range"},
		{name: "Sample LogDensity.LogPrior panics in the gradient check", child: true,
			run: isPanic(sample(Problem{Model: panicDensity{newPanicModel("logprior", 0)}}, few, nil), "LogDensity.LogPrior"), substr: "gradient check: LogDensity.LogPrior panicked"},
		{name: "Sample LogDensity.LogLik panics in the gradient check", child: true,
			run: isPanic(sample(Problem{Model: panicDensity{newPanicModel("loglik", 0)}}, few, nil), "LogDensity.LogLik"), substr: "gradient check: LogDensity.LogLik panicked"},
		{name: "Sample Model.LogPriorGrad panics", child: true,
			run: isPanic(sample(model("prior", 0), few, nil), "Model.LogPriorGrad"), substr: "Model.LogPriorGrad panicked"},
		{name: "Sample BatchModel.LogLikGradBatch panics", child: true,
			run: isPanic(sample(Problem{Model: panicBatchModel{newPanicModel("batch", 0)}}, few, nil), "Model.LogLikGradBatch"), substr: "LogLikGradBatch panicked"},
		{name: "Sample Gradient.Grad panics", child: true,
			run: isPanic(sample(grad(func([]float64, []float64) { panic("planted") }), few, nil), "Gradient.Grad"), substr: "Gradient.Grad panicked: planted"},
		{name: "Sample Gradient.Grad writes past theta", child: true,
			run: isPanic(sample(grad(func(dst, _ []float64) { dst[len(dst)] = 1 }), few, nil), "Gradient.Grad"), substr: "index out of range"},
		{name: "Sample Problem.Gradient panics", child: true,
			run: func() error {
				err := sample(Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) { panic("planted") }}, few, nil)()
				if !errors.As(err, &pe) || pe.Func != "Problem.Gradient" {
					return fmt.Errorf("want a *PanicError from Problem.Gradient: %w", err)
				}
				return err
			}, substr: "Problem.Gradient panicked: planted"},
		{name: "Sample Callback panics, draws kept", child: true,
			run: isPanic(partial(gauss1(), &Settings{Seed: 1, Chains: 1, Draws: 200, Callback: stopAt(50, errPanic)}, nil, true), "Callback"), substr: "Callback panicked: planted"},
		{name: "Sample Method.Rules panics", child: true,
			run: func() error {
				err := sample(model("", 0), few, panicMethod{"rules"})()
				if !errors.As(err, &pe) || pe.Func != "Method.Rules" {
					return fmt.Errorf("want a *PanicError from Method.Rules: %w", err)
				}
				return err
			}, substr: "Method.Rules panicked"},
		{name: "Sample Method.Name panics", child: true,
			run: func() error {
				err := sample(model("", 0), few, panicMethod{"name"})()
				if !errors.As(err, &pe) || pe.Func != "Method.Name" {
					return fmt.Errorf("want a *PanicError from Method.Name: %w", err)
				}
				return err
			}, substr: "Method.Name panicked"},
		{name: "Sample Method.NewSampler panics", child: true,
			run: isPanic(sample(model("", 0), few, panicMethod{"new"}), "Method.NewSampler"), substr: "NewSampler panicked"},
		{name: "Sample a method's Sampler.Step panics, draws kept", child: true,
			run: isPanic(partial(model("", 0), few, panicMethod{"step"}, false), "Sampler.Step"), substr: "sampling, step 60: Sampler.Step panicked"},
		// Problem.Gradient's result.
		{name: "Sample Problem.Gradient returns nil", child: true, run: sample(factory(nil, nil), few, nil), want: sgmcmc.ErrNil, substr: "nil Gradient"},
		{name: "Sample Problem.Gradient returns a typed nil", child: true, run: sample(factory(nilMB, nil), few, nil), want: sgmcmc.ErrNil, substr: "a nil *sgmcmc.Minibatch"},
		{name: "Sample Problem.Gradient returns a nil GradFunc", child: true, run: sample(factory(sgmcmc.GradFunc(nil), nil), few, nil), want: sgmcmc.ErrNil, substr: "nil Gradient"},
		{name: "Sample Problem.Gradient of the wrong dimension", child: true, run: func() error {
			m, err := sgmcmc.NewMinibatch(ckModel{}, 10, false, rand.NewPCG(1, 2))
			if err != nil {
				return err
			}
			return sample(factory(m, nil), few, nil)()
		}, want: sgmcmc.ErrDimension, substr: "dimension 3, θ has 2"},
		{name: "Sample Problem.Gradient returns an error", child: true, run: sample(factory(nil, sgmcmc.ErrRange), few, nil), want: sgmcmc.ErrRange, substr: "the Problem's Gradient for chain 0"},
		// Arguments.
		{name: "Sample nil context", run: func() error {
			//lint:ignore SA1012 a nil context is the bad input under test
			_, err := Run(nil, model("", 0), []float64{0, 0}, nil, nil) //nolint:staticcheck
			return err
		}, want: sgmcmc.ErrNil, substr: "nil context"},
		{name: "Sample typed nil method", run: sample(model("", 0), few, nilMethod), want: sgmcmc.ErrNil, substr: "a nil *sample.SGLD"},
		{name: "Sample typed nil Model", run: sample(Problem{Model: nilModel}, few, nil), want: sgmcmc.ErrNil, substr: "nil *sample.linReg"},
		{name: "Sample Chains = MaxInt", run: sample(model("", 0), &Settings{Chains: math.MaxInt}, nil), want: sgmcmc.ErrRange, substr: "Chains"},
		{name: "Sample Chains = 2^20 beyond memory", run: sample(model("", 0), &Settings{Chains: 1 << 20, Draws: 1 << 20}, nil), want: sgmcmc.ErrRange, substr: "memory limit"},
		{name: "Sample MemoryLimit too small", run: sample(model("", 0), &Settings{MemoryLimit: 1024}, nil), want: sgmcmc.ErrRange, substr: "more than the memory limit of 1.0 KiB"},
		{name: "Sample MemoryLimit negative", run: sample(model("", 0), &Settings{MemoryLimit: -1}, nil), want: sgmcmc.ErrRange, substr: "MemoryLimit = -1"},
		// Above DenseMax the warmup takes O(d) memory (large.go);
		// the dense path asked for explicitly at d = 10⁵ cannot fit.
		{name: "Sample d = 10^5 dense warmup beyond memory", run: func() error {
			_, err := Run(bg, Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) { return sgmcmc.GradFunc(testGrad), nil }}, make([]float64, 100000), &Settings{DenseMax: 100000}, nil)
			return err
		}, want: sgmcmc.ErrRange, substr: "warmup's d × d matrices"},
		// Runs that stop early.
		{name: "Sample cancelled before it starts", child: true, run: func() error {
			res, err := Run(cancelled, model("", 0), []float64{0, 0}, few, nil)
			if res == nil || len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0].Message, "stopped early") {
				return fmt.Errorf("no partial Result saying so: %w", err)
			}
			return err
		}, want: context.Canceled, substr: "context canceled"},
		{name: "Sample stopped by its callback before the first kept draw", child: true,
			run: partial(gauss1(), &Settings{Seed: 1, Chains: 1, Callback: stopAt(0, sgmcmc.ErrStop)}, nil, false), want: sgmcmc.ErrStop, substr: "stopped by the callback before the first kept draw"},
		{name: "Sample stopped by its callback after some draws", child: true,
			run: partial(gauss1(), &Settings{Seed: 1, Chains: 1, Draws: 200, Callback: stopAt(50, sgmcmc.ErrStop)}, nil, true), want: sgmcmc.ErrStop, substr: "after 50 of 200 draws"},
		{name: "Sample callback's own error, draws kept", child: true,
			run: partial(gauss1(), &Settings{Seed: 1, Chains: 1, Draws: 200, Callback: stopAt(50, errMine)}, nil, true), want: errMine, substr: "my callback's error"},
		// Messages that name the true cause.
		{name: "Sample BatchSize 1 on a Gaussian: gradient noise", child: true, run: sample1(gauss, &Settings{Seed: 1, BatchSize: 1, PlainMinibatch: true}, nil), want: sgmcmc.ErrRange, substr: "gradient noise: at BatchSize = 1"},
		{name: "Sample BatchSize 2 on a Gaussian: gradient noise", child: true, run: sample1(gauss, &Settings{Seed: 1, BatchSize: 2, PlainMinibatch: true}, SGLD{}), want: sgmcmc.ErrRange, substr: "gradient noise: at BatchSize = 2"},
		{name: "Sample SGNHT (the sweep) blown up by gradient noise at BatchSize 10", child: true,
			run: sample1(gauss, &Settings{Seed: 1, Chains: 2, Draws: 300, BatchSize: 10, PlainMinibatch: true, MaxHeat: 0.5}, SGNHT{Integrator: sgmcmc.Sweep{}}), step: true, substr: "gradient noise at batch size 10"},
		{name: "Sample gradient +Inf everywhere", child: true, run: sample(grad(inf(math.Inf(1))), few, nil), want: sgmcmc.ErrNonFinite, substr: "+Inf"},
		{name: "Sample gradient -Inf everywhere", child: true, run: sample(grad(inf(math.Inf(-1))), few, nil), want: sgmcmc.ErrNonFinite, substr: "-Inf"},
		{name: "Sample gradient NaN everywhere", child: true, run: sample(grad(inf(math.NaN())), few, nil), want: sgmcmc.ErrNonFinite, substr: "NaN"},
		{name: "Sample gradient finite but overflowing in warmup", child: true, run: func() error {
			_, err := Run(bg, Problem{Model: hugeModel{}}, []float64{1}, few, nil)
			return err
		}, want: sgmcmc.ErrNonFinite, substr: "overflow"},
		{name: "Sample run projected past MaxGradEvals", child: true,
			run: partial(model("", 0), &Settings{Seed: 1, Chains: 1, MaxGradEvals: 10000}, SGLD{}, false), want: sgmcmc.ErrRange, substr: "more than MaxGradEvals = 1e+04; a momentum method"},
		{name: "Sample run projected past MaxGradEvals with momentum", child: true,
			run: partial(model("", 0), &Settings{Seed: 1, Chains: 1, MaxGradEvals: 10000}, nil, false), want: sgmcmc.ErrRange, substr: "more than MaxGradEvals = 1e+04; the step size is set by"},
		// Run and RunChains.
		{name: "Run Sampler.Step panics, draws kept", run: func() error {
			s := panicStepper{Sampler: sgldOn2(), left: new(atomic.Int64)}
			c, err := sgmcmc.Run(bg, s, sgmcmc.RunOptions{Draws: 100, Schedule: sgmcmc.Constant(0.01)})
			if c == nil || c.Len() != 59 || !errors.As(err, &pe) || pe.Step != 60 {
				return fmt.Errorf("want 59 draws and a *PanicError at step 60: %w", err)
			}
			return err
		}, substr: "sampling, step 60: Sampler.Step panicked"},
		{name: "Run Schedule panics", run: func() error {
			_, err := sgmcmc.Run(bg, sgldOn2(), sgmcmc.RunOptions{Draws: 10, Schedule: panicSchedule{}})
			return err
		}, substr: "Schedule.StepSize panicked"},
		{name: "Run LogDensity panics, draws kept", run: func() error {
			calls := 0
			c, err := sgmcmc.Run(bg, sgldOn2(), sgmcmc.RunOptions{Draws: 10, Schedule: sgmcmc.Constant(0.01), LogDensity: func([]float64) float64 {
				if calls++; calls == 4 {
					panic("planted")
				}
				return 0
			}})
			if c == nil || c.Len() != 3 || len(c.LogDensity) != 3 {
				return fmt.Errorf("want 3 draws with their log densities kept: %w", err)
			}
			return err
		}, substr: "LogDensity panicked: planted"},
		{name: "Run Callback panics", run: func() error {
			_, err := sgmcmc.Run(bg, sgldOn2(), sgmcmc.RunOptions{Draws: 10, Schedule: sgmcmc.Constant(0.01), Callback: func(sgmcmc.StepInfo) error { panic("planted") }})
			return err
		}, substr: "step 1: Callback panicked"},
		{name: "Run Draws beyond memory", run: func() error {
			_, err := sgmcmc.Run(bg, sgldOn2(), sgmcmc.RunOptions{Draws: 1 << 33, Schedule: sgmcmc.Constant(0.01)})
			return err
		}, want: sgmcmc.ErrRange, substr: "memory limit"},
		{name: "RunChains a chain's Step panics", child: true, run: func() error {
			_, err := sgmcmc.RunChains(bg, 2, 1, func(c int, src rand.Source) (sgmcmc.Sampler, error) {
				return panicStepper{Sampler: sgldOn2(), left: new(atomic.Int64)}, nil
			}, sgmcmc.RunOptions{Draws: 100, Schedule: sgmcmc.Constant(0.01)})
			var ce *sgmcmc.ChainError
			if !errors.As(err, &ce) || !errors.As(err, &pe) {
				return fmt.Errorf("want a *ChainError wrapping a *PanicError: %w", err)
			}
			return err
		}, substr: "Sampler.Step panicked"},
		{name: "NewMinibatch of all 2^60 items without replacement", run: func() error {
			// A batch of 10 needs no permutation (rejection draws); a
			// batch of all N does.
			if _, err := sgmcmc.NewMinibatch(hugeLenModel{}, 10, false, rand.NewPCG(1, 2)); err != nil {
				return err
			}
			_, err := sgmcmc.NewMinibatch(hugeLenModel{}, 1<<60, false, rand.NewPCG(1, 2))
			return err
		}, want: sgmcmc.ErrRange, substr: "permutation of N = 1152921504606846976"},
		{name: "RunChains beyond memory", run: func() error {
			_, err := sgmcmc.RunChains(bg, 1000, 1, func(c int, src rand.Source) (sgmcmc.Sampler, error) { return sgldOn2(), nil },
				sgmcmc.RunOptions{Draws: 1 << 24, Schedule: sgmcmc.Constant(0.01)})
			return err
		}, want: sgmcmc.ErrRange, substr: "1000 chains of 16777216 draws"},
	}
}

type panicSchedule struct{}

func (panicSchedule) StepSize(int) float64 { panic("planted") }

// gauss1 is a 2-d Gaussian Problem with an exact gradient.
func gauss1() Problem {
	return Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) {
		return sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) }), nil
	}}
}

// sgldOn2 is SGLD on a 2-d standard Gaussian.
func sgldOn2() sgmcmc.Sampler {
	s, err := sgmcmc.NewSGLD(sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) }), []float64{0, 0}, rand.NewPCG(1, 2), nil)
	if err != nil {
		panic(err)
	}
	return s
}

// hugeLenModel claims 2⁶⁰ data items.
type hugeLenModel struct{ hugeModel }

func (hugeLenModel) Len() int { return 1 << 60 }

// panicDensity is panicModel with a log density, which panics where
// "logprior" or "loglik" says.
type panicDensity struct{ panicModel }

func (m panicDensity) LogPrior(th []float64) float64 {
	m.hit("logprior")
	return -(th[0]*th[0] + th[1]*th[1]) / 2
}

func (m panicDensity) LogLik(th []float64, i int) float64 {
	m.hit("loglik")
	return 0
}
