// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/rng"
)

// arSampler is a d-dimensional AR(1) chain θ ← ρθ + √(1−ρ²) z with N(0, I)
// stationary law, written by hand so that these tests depend on no named
// sampler. It fails at step failAt if failAt > 0.
type arSampler struct {
	rho    float64
	theta  []float64
	rng    *rand.Rand
	step   int
	failAt int
}

func newAR(rho float64, d int, src rand.Source) *arSampler {
	return &arSampler{rho: rho, theta: make([]float64, d), rng: rand.New(src)}
}

func (s *arSampler) Dim() int            { return len(s.theta) }
func (s *arSampler) Position() []float64 { return s.theta }
func (s *arSampler) Step(eps float64) error {
	s.step++
	if s.step == s.failAt {
		return &sgmcmc.StepError{Step: s.step, Index: -1, Value: math.NaN(), What: "test failure"}
	}
	c := math.Sqrt(1 - s.rho*s.rho)
	for i := range s.theta {
		s.theta[i] = s.rho*s.theta[i] + c*s.rng.NormFloat64()
	}
	return nil
}

var _ sgmcmc.Sampler = (*arSampler)(nil)

func arFactory(rho float64, d int) func(int, rand.Source) (sgmcmc.Sampler, error) {
	return func(_ int, src rand.Source) (sgmcmc.Sampler, error) { return newAR(rho, d, src), nil }
}

// TestRunChainsDeterministic: the draws are bit-identical for GOMAXPROCS 1,
// 2 and 8, and chain c equals a plain Run from rng.ChainSource(seed, c).
func TestRunChainsDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const k, seed = 7, 42
	o := sgmcmc.RunOptions{Draws: 300, BurnIn: 20, Thin: 2, Schedule: sgmcmc.Constant(0.1)}
	var first []*sgmcmc.Chain
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		chains, err := sgmcmc.RunChains(context.Background(), k, seed, arFactory(0.8, 3), o)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = chains
			continue
		}
		for c := range chains {
			if !equalBits(chains[c].Draws, first[c].Draws) || !equalBits(chains[c].Eps, first[c].Eps) || chains[c].Steps != first[c].Steps {
				t.Fatalf("GOMAXPROCS=%d: chain %d differs from GOMAXPROCS=1", procs, c)
			}
		}
	}
	for c := range k {
		want, err := sgmcmc.Run(context.Background(), newAR(0.8, 3, rng.ChainSource(seed, c)), o)
		if err != nil {
			t.Fatal(err)
		}
		if !equalBits(first[c].Draws, want.Draws) {
			t.Errorf("chain %d differs from Run with rng.ChainSource(seed, %d)", c, c)
		}
	}
}

func equalBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestChainSourceIndependent: streams of different chains and seeds are
// uncorrelated: the sample correlation of n pairs of normals has standard
// deviation 1/√n.
func TestChainSourceIndependent(t *testing.T) {
	t.Parallel()
	const n = 20000
	type id struct {
		seed uint64
		c    int
	}
	ids := []id{{1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {0, 0}}
	draws := make([][]float64, len(ids))
	for i, s := range ids {
		rng := rand.New(rng.ChainSource(s.seed, s.c))
		draws[i] = make([]float64, n)
		for j := range draws[i] {
			draws[i][j] = rng.NormFloat64()
		}
	}
	for i := range draws {
		for j := i + 1; j < len(draws); j++ {
			var r float64
			for k := range n {
				r += draws[i][k] * draws[j][k]
			}
			r /= n
			if math.Abs(r) > 4/math.Sqrt(n) {
				t.Errorf("streams %v and %v: correlation %v", ids[i], ids[j], r)
			}
		}
	}
}

func TestRunChainsErrors(t *testing.T) {
	t.Parallel()
	o := sgmcmc.RunOptions{Draws: 1000, Schedule: sgmcmc.Constant(0.1)}
	ctx := context.Background()

	_, err := sgmcmc.RunChains(ctx, 3, 1, func(c int, src rand.Source) (sgmcmc.Sampler, error) {
		if c == 2 {
			return nil, errors.New("no sampler")
		}
		return newAR(0.5, 1, src), nil
	}, o)
	var ce *sgmcmc.ChainError
	if !errors.As(err, &ce) || ce.Chain != 2 {
		t.Errorf("newSampler failing for chain 2: err = %v", err)
	}

	// Chain 1 fails at step 100: its draws so far are kept and its error
	// is reported; the other chains are cancelled or finish.
	chains, err := sgmcmc.RunChains(ctx, 4, 1, func(c int, src rand.Source) (sgmcmc.Sampler, error) {
		s := newAR(0.5, 1, src)
		if c == 1 {
			s.failAt = 100
		}
		return s, nil
	}, o)
	var se *sgmcmc.StepError
	if !errors.As(err, &ce) || ce.Chain != 1 || !errors.As(err, &se) || se.Step != 100 {
		t.Fatalf("chain 1 failing: err = %v", err)
	}
	if len(chains) != 4 || chains[1].Len() != 99 {
		t.Errorf("chain 1 failing: kept %d draws, want 99", chains[1].Len())
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	chains, err = sgmcmc.RunChains(cctx, 2, 1, arFactory(0.5, 1), o)
	if !errors.Is(err, context.Canceled) || len(chains) != 2 {
		t.Errorf("cancelled context: %d chains, err = %v", len(chains), err)
	}
	if _, err := sgmcmc.RunChains(ctx, 0, 1, arFactory(0.5, 1), o); err == nil {
		t.Error("k = 0: no error")
	}
	if _, err := sgmcmc.RunChains(ctx, 2, 1, arFactory(0.5, 1), sgmcmc.RunOptions{}); err == nil {
		t.Error("invalid options: no error")
	}
}

// TestRunChainsSummary runs AR(1) chains and summarises them across chains:
// R̂ near 1 and the bulk ESS within its Monte Carlo error (see the
// diagnostics tests) of S(1−ρ)/(1+ρ).
func TestRunChainsSummary(t *testing.T) {
	t.Parallel()
	const k, n, rho = 4, 5000, 0.6
	chains, err := sgmcmc.RunChains(context.Background(), k, 7, arFactory(rho, 2), sgmcmc.RunOptions{Draws: n, BurnIn: 100, Schedule: sgmcmc.Constant(1)})
	if err != nil {
		t.Fatal(err)
	}
	sums, err := diagnostics.SummarizeChains(chains)
	if err != nil {
		t.Fatal(err)
	}
	want := float64(k*n) * (1 - rho) / (1 + rho)
	for j, s := range sums {
		if s.RHat > 1.01 {
			t.Errorf("coordinate %d: R̂ = %v", j, s.RHat)
		}
		// Relative sd of the ESS estimate ≈ √(2(2L+1)/ESS) for a truncation
		// lag L ≈ 10: 4 sd ≈ 0.26 relative at ESS 5000.
		if math.Abs(s.ESSBulk-want) > 4*math.Sqrt(2*21/want)*want {
			t.Errorf("coordinate %d: bulk ESS %v, want %v", j, s.ESSBulk, want)
		}
	}
}

// countWriter counts writes; Progress serialises its writes itself.
type countWriter struct {
	bytes.Buffer
	lines int
}

func (w *countWriter) Write(p []byte) (int, error) {
	w.lines++
	return w.Buffer.Write(p)
}

func TestProgress(t *testing.T) {
	// One chain: a line at every block of 64 steps when every = 0.
	var w countWriter
	o := sgmcmc.RunOptions{Draws: 640, BurnIn: 64, Schedule: sgmcmc.Constant(0.1)}
	total := o.BurnIn + o.Draws
	o.Callback = sgmcmc.Progress(&w, 0, total)
	if _, err := sgmcmc.Run(context.Background(), newAR(0.5, 1, rand.NewPCG(1, 1)), o); err != nil {
		t.Fatal(err)
	}
	out := w.String()
	if w.lines != total/64 || !strings.Contains(out, fmt.Sprintf("sgmcmc: %d/%d steps (100.0%%), ", total, total)) || !strings.Contains(out, " steps/s, ETA 0s\n") {
		t.Errorf("%d lines, want %d; output:\n%s", w.lines, total/64, out)
	}

	// Several chains: the callback is shared; concurrent blocks may skip a
	// report but never double one.
	w = countWriter{}
	const k = 3
	o.Callback = sgmcmc.Progress(&w, 0, k*total)
	if _, err := sgmcmc.RunChains(context.Background(), k, 1, arFactory(0.5, 1), o); err != nil {
		t.Fatal(err)
	}
	if w.lines < 1 || w.lines > k*total/64 || !strings.Contains(w.String(), fmt.Sprintf("/%d steps (", k*total)) {
		t.Errorf("%d chains: %d lines, want 1 to %d; output:\n%s", k, w.lines, k*total/64, w.String())
	}

	// No allocation per step, whether or not a block ends.
	var quiet countWriter
	cb := sgmcmc.Progress(&quiet, time.Hour, 1000)
	s := newAR(0.5, 1, rand.NewPCG(1, 1))
	step := 0
	allocs := testing.AllocsPerRun(1000, func() {
		step++
		_ = cb(sgmcmc.StepInfo{T: step, Eps: 0.1, Sampler: s})
	})
	if allocs != 0 || quiet.lines != 0 {
		t.Errorf("Progress callback: %v allocs per step, %d lines", allocs, quiet.lines)
	}
}

// ExampleRunChains runs four AR(1) chains in parallel and summarises them
// across chains.
func ExampleRunChains() {
	newSampler := func(chain int, src rand.Source) (sgmcmc.Sampler, error) {
		return newAR(0.5, 1, src), nil
	}
	chains, err := sgmcmc.RunChains(context.Background(), 4, 2026, newSampler,
		sgmcmc.RunOptions{Draws: 2000, BurnIn: 100, Schedule: sgmcmc.Constant(1)})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := diagnostics.SummarizeChains(chains)
	fmt.Printf("R̂ %.2f, bulk ESS %.0f of %d draws (exact %.0f)\n", s[0].RHat, s[0].ESSBulk, 4*2000, 8000.0/3)
	// Output:
	// R̂ 1.00, bulk ESS 2715 of 8000 draws (exact 2667)
}

// BenchmarkRunChains runs K = 1, 2, 4 chains of 10⁵ steps of a 10-d AR(1)
// sampler; with GOMAXPROCS ≥ K, steps/s over K = 1 is the parallel speed-up.
func BenchmarkRunChains(b *testing.B) {
	o := sgmcmc.RunOptions{Draws: 10_000, Thin: 10, Schedule: sgmcmc.Constant(0.1)}
	for _, k := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := sgmcmc.RunChains(context.Background(), k, 1, arFactory(0.5, 10), o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(k*o.Draws*o.Thin)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkRunChainsProgress is BenchmarkRunChains with a Progress callback.
func BenchmarkRunChainsProgress(b *testing.B) {
	k := runtime.GOMAXPROCS(0)
	o := sgmcmc.RunOptions{Draws: 10_000, Thin: 10, Schedule: sgmcmc.Constant(0.1)}
	var w bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		o.Callback = sgmcmc.Progress(&w, time.Hour, k*o.Draws*o.Thin)
		if _, err := sgmcmc.RunChains(context.Background(), k, 1, arFactory(0.5, 10), o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(k*o.Draws*o.Thin)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
