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
	"runtime"
	"strings"
	"testing"
)

// TestMinibatchSharedDetected: a Minibatch caught in use by two
// goroutines at once refuses to compute, and the sampler's step fails with
// a *StepError wrapping ErrUnsupported that says what happened. The
// overlap is simulated deterministically by marking a call under way.
func TestMinibatchSharedDetected(t *testing.T) {
	t.Parallel()
	mb, _ := NewMinibatch(ckModel{}, 4, false, rand.NewPCG(1, 1))
	samplers := map[string]func() (Sampler, error){
		"SGHMC": func() (Sampler, error) { return NewSGHMC(mb, make([]float64, 3), rand.NewPCG(2, 2), nil) },
		"PSGLD": func() (Sampler, error) {
			return NewPSGLD(mb, make([]float64, 3), rand.NewPCG(2, 2), &PSGLDSettings{DropGamma: true})
		},
		"HAMCMC": func() (Sampler, error) { return NewHAMCMC(mb, make([]float64, 3), rand.NewPCG(2, 2), nil) },
	}
	for name, build := range samplers {
		s, err := build()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Step(0.01); err != nil {
			t.Fatalf("%s: first step: %v", name, err)
		}
	}
	mb.busy.Store(true) // another goroutine is inside Grad
	for name, build := range samplers {
		s, _ := build()
		err := s.Step(0.01)
		var se *StepError
		if !errors.As(err, &se) || !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "two goroutines") {
			t.Errorf("%s: err = %v, want a *StepError wrapping ErrUnsupported about two goroutines", name, err)
		}
	}
	mb.busy.Store(false)
	// Poisoned for good: a shared Minibatch must not go on silently.
	if err := mb.GradOn(make([]float64, 3), make([]float64, 3), []int{0}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("GradOn after the overlap: err = %v, want ErrUnsupported", err)
	}
	if _, err := mb.MarshalBinary(); !errors.Is(err, ErrUnsupported) {
		t.Errorf("MarshalBinary after the overlap: err = %v, want ErrUnsupported", err)
	}
}

// slowModel is ckModel with a per-datum gradient that takes a few
// microseconds, so that two chains sharing a Minibatch overlap.
type slowModel struct{ ckModel }

func (m slowModel) LogLikGrad(dst, th []float64, i int, scale float64) {
	x := 1.0
	for range 300 {
		x = math.Sqrt(x + 1)
	}
	m.ckModel.LogLikGrad(dst, th, i, scale*x/x)
}

// TestRunChainsSharedMinibatch: RunChains over chains that (wrongly) share
// one Minibatch fails with a *ChainError wrapping ErrUnsupported instead of
// returning scheduling-dependent draws; chains that each build their own
// Minibatch from their source run clean and reproducibly.
func TestRunChainsSharedMinibatch(t *testing.T) {
	t.Parallel()
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS ≥ 2 for the chains to overlap")
	}
	// A burn-in of 2,000 steps: at ε = 10⁻³ the chains relax from their
	// start over about 1/(ε·4.25) = 235 steps, and Run's temperature test
	// flags draws taken before (too narrow).
	o := RunOptions{Draws: 3000, BurnIn: 2000, Schedule: Constant(1e-3)}
	shared, _ := NewMinibatch(slowModel{}, 10, false, rand.NewPCG(1, 1))
	detected := false
	for range 5 {
		_, err := RunChains(context.Background(), 2, 1, func(_ int, src rand.Source) (Sampler, error) {
			return NewSGLD(shared, make([]float64, 3), src, nil)
		}, o)
		if err != nil {
			var ce *ChainError
			if !errors.As(err, &ce) || !errors.Is(err, ErrUnsupported) {
				t.Fatalf("shared Minibatch: err = %v, want a *ChainError wrapping ErrUnsupported", err)
			}
			detected = true
			break
		}
	}
	if !detected {
		t.Error("a Minibatch shared by two running chains was never detected in 5 runs")
	}
	own := func(_ int, src rand.Source) (Sampler, error) {
		mb, err := NewMinibatch(ckModel{}, 10, false, rand.NewPCG(src.Uint64(), src.Uint64()))
		if err != nil {
			return nil, err
		}
		return NewSGLD(mb, make([]float64, 3), src, nil)
	}
	o.Draws = 500
	a, err := RunChains(context.Background(), 3, 9, own, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunChains(context.Background(), 3, 9, own, o)
	if err != nil {
		t.Fatal(err)
	}
	for c := range a {
		if !equalFloatBits(a[c].Draws, b[c].Draws) {
			t.Errorf("chain %d differs between two runs", c)
		}
	}
}

// spreadModel has per-datum gradients 1e8 + i/N for i = 0 … N−1 in every
// coordinate: a diverging chain's large, nearly equal gradients.
type spreadModel struct{}

func (spreadModel) Dim() int                       { return 2 }
func (spreadModel) Len() int                       { return 1000 }
func (spreadModel) LogPriorGrad(dst, th []float64) {}
func (spreadModel) datum(i int) float64            { return 1e8 + float64(i)/1000 }
func (m spreadModel) LogLikGrad(dst, _ []float64, i int, scale float64) {
	for j := range dst {
		dst[j] += scale * m.datum(i)
	}
}

// TestNoiseEstimateStable: the SGFS noise estimate V̂ agrees with a
// two-pass variance of the batch's per-datum gradients to 1e-6 relative
// when those gradients are 10⁸ with a spread of 0.3, where the one-pass
// Σg² − n·ḡ² used before lost every digit (it is computed here too, to
// show that the test can tell).
func TestNoiseEstimateStable(t *testing.T) {
	t.Parallel()
	const n = 50
	mb, _ := NewMinibatch(spreadModel{}, n, false, rand.NewPCG(3, 3))
	mb.Noise = true
	g, v := make([]float64, 2), make([]float64, 2)
	var worstNaive float64
	for range 20 {
		mb.Grad(g, []float64{0, 0})
		mb.NoiseVar(v)
		var mean float64
		var sum, sumsq float64
		for _, i := range mb.Indices() {
			x := spreadModel{}.datum(i)
			mean += x
			sum += x
			sumsq += x * x
		}
		mean /= n
		var ss float64
		for _, i := range mb.Indices() {
			d := spreadModel{}.datum(i) - mean
			ss += d * d
		}
		N := 1000.0
		c := N * N / n * (1 - n/N)
		want := c * ss / (n - 1)
		naive := c * max((sumsq-n*(sum/n)*(sum/n))/(n-1), 0)
		worstNaive = max(worstNaive, math.Abs(naive-want)/want)
		for j := range v {
			if math.Abs(v[j]-want) > 1e-6*want {
				t.Fatalf("V̂[%d] = %v, two-pass %v (relative error %.3g)", j, v[j], want, math.Abs(v[j]-want)/want)
			}
		}
	}
	if worstNaive < 1e-3 {
		t.Errorf("the one-pass formula is accurate here (worst relative error %.3g): the test cannot tell", worstNaive)
	}
}

// TestPSGLDOverflowReported: one finite gradient of 1e200 overflows the
// RMSprop accumulator; pSGLD reports it and keeps its state, instead of
// freezing the coordinate with G = 0.
func TestPSGLDOverflowReported(t *testing.T) {
	t.Parallel()
	big := GradFunc(func(dst, th []float64) {
		copy(dst, th)
		dst[1] = 1e200
	})
	p, err := NewPSGLD(big, []float64{0.5, 0.5}, rand.NewPCG(1, 1), &PSGLDSettings{DropGamma: true})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Step(1e-3)
	var se *StepError
	if !errors.As(err, &se) || se.Index != 1 || !strings.Contains(se.What, "accumulator overflowed") {
		t.Fatalf("err = %v, want a *StepError at coordinate 1 about the accumulator", err)
	}
	v := make([]float64, 2)
	p.Accumulator(v)
	if v[0] != 0 || v[1] != 0 || p.Steps() != 0 || p.Position()[1] != 0.5 {
		t.Errorf("after the failed step: v = %v, steps %d, θ = %v; want unchanged", v, p.Steps(), p.Position())
	}
}

// TestGradOnUnchanged: GradOn's checks do not change its result, and Grad
// equals GradOn on the batch it drew.
func TestGradOnUnchanged(t *testing.T) {
	t.Parallel()
	a, _ := NewMinibatch(ckModel{}, 5, false, rand.NewPCG(1, 1))
	th := []float64{0.2, -0.4, 1}
	g1, g2 := make([]float64, 3), make([]float64, 3)
	a.Grad(g1, th)
	if err := a.GradOn(g2, th, a.Indices()); err != nil {
		t.Fatal(err)
	}
	if !equalFloatBits(g1, g2) {
		t.Errorf("Grad %v, GradOn on its batch %v", g1, g2)
	}
}

// BenchmarkMinibatchGuard measures what the concurrent-use guard costs a
// Minibatch gradient: Grad against the same work without the guard, for a
// tiny batch (where the guard's two atomic operations weigh most) and a
// typical one.
func BenchmarkMinibatchGuard(b *testing.B) {
	for _, n := range []int{1, 10} {
		mb, _ := NewMinibatch(fuzzModel{d: 10, n: 1000}, n, false, rand.NewPCG(1, 1))
		th, g := make([]float64, 10), make([]float64, 10)
		b.Run(fmt.Sprintf("guarded/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				mb.Grad(g, th)
			}
		})
		b.Run(fmt.Sprintf("unguarded/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				mb.draw()
				mb.gradOn(g, th, mb.idx)
			}
		})
	}
}
