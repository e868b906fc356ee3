// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
	"github.com/sgmcmc-go/sgmcmc/internal/testmodel"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// TestMinibatchUnbiased: the average of many minibatch gradients is the
// full gradient, with and without replacement; batches without replacement
// hold distinct items; the N/n scaling is applied.
func TestMinibatchUnbiased(t *testing.T) {
	t.Parallel()
	th := []float64{0.3, -0.7}
	full := make([]float64, 2)
	FullGradient(testModel{}).Grad(full, th)
	// ∇U = θ − Σ(x_i − θ) + ... : closed form check of FullGradient.
	want0 := th[0] - (45 - 10*th[0])
	if math.Abs(full[0]-want0) > 1e-12 {
		t.Fatalf("FullGradient = %v, want %v", full[0], want0)
	}
	for _, replace := range []bool{false, true} {
		mb, err := NewMinibatch(testModel{}, 3, replace, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		const n = 200000
		g := make([]float64, 2)
		var sum, sumsq [2]float64
		for range n {
			mb.Grad(g, th)
			if !replace {
				idx := slices.Clone(mb.Indices())
				slices.Sort(idx)
				if len(slices.Compact(idx)) != 3 {
					t.Fatalf("batch without replacement repeats an item: %v", mb.Indices())
				}
			}
			for j := range 2 {
				sum[j] += g[j]
				sumsq[j] += g[j] * g[j]
			}
		}
		for j := range 2 {
			m := sum[j] / n
			se := math.Sqrt((sumsq[j]/n - m*m) / n)
			if math.Abs(m-full[j]) > 4*se {
				t.Errorf("replace=%v: mean minibatch gradient[%d] = %.4f ± %.4f, full %.4f", replace, j, m, se, full[j])
			}
		}
	}
}

// TestMinibatchNoiseEstimate: the SGFS estimate averages to the true
// variance of the minibatch gradient. With replacement V̂ = (N²/n)·var_i(g_i)
// and var(ĝ) = (N²/n)·σ²_pop; without replacement the estimate carries the
// finite-population correction 1 − n/N (without it, it would be
// N/(N − n) = 10/6 too large here).
func TestMinibatchNoiseEstimate(t *testing.T) {
	t.Parallel()
	th := []float64{0.3, -0.7}
	for _, c := range []struct {
		replace bool
		seed    uint64
	}{{true, 3}, {false, 5}} {
		mb, _ := NewMinibatch(testModel{}, 4, c.replace, rand.NewPCG(c.seed, c.seed+1))
		mb.Noise = true
		const n = 200000
		g, v := make([]float64, 2), make([]float64, 2)
		var sum, sumsq, vsum [2]float64
		for range n {
			mb.Grad(g, th)
			mb.NoiseVar(v)
			for j := range 2 {
				sum[j] += g[j]
				sumsq[j] += g[j] * g[j]
				vsum[j] += v[j]
			}
		}
		for j := range 2 {
			m := sum[j] / n
			emp := sumsq[j]/n - m*m
			if rel := math.Abs(vsum[j]/n-emp) / emp; rel > 0.02 {
				t.Errorf("replace=%v, coordinate %d: mean V̂ %.4f, empirical variance %.4f", c.replace, j, vsum[j]/n, emp)
			}
		}
	}
}

// TestSGHMCEstimatedNoise: SGHMC on minibatches of 3 out of 10 with B̂
// estimated from the batch (Minibatch.Noise, EstimateNoise) samples the
// exact posterior N(45/11, 1/11) of testModel's first coordinate, while
// the uncorrected chain is visibly too wide (the gradient noise adds about
// εV/(2C) ≈ 11 % to the variance at ε = 0.01, C = 10).
func TestSGHMCEstimatedNoise(t *testing.T) {
	t.Parallel()
	steps := 2_000_000
	if testing.Short() {
		steps = 1_000_000
	}
	var ratio [2]float64
	for k, est := range []bool{false, true} {
		mb, _ := NewMinibatch(testModel{}, 3, false, rand.NewPCG(1, 1))
		mb.Noise = est
		s, err := NewSGHMC(mb, []float64{45.0 / 11, 0}, rand.NewPCG(2, 2), &SGHMCSettings{Friction: 10, EstimateNoise: est})
		if err != nil {
			t.Fatal(err)
		}
		// Averages over blocks of 10 steps keep the batch-means series short.
		y := make([]float64, steps/10)
		for i := range y {
			var a float64
			for range 10 {
				if err := s.Step(0.01); err != nil {
					t.Fatal(err)
				}
				x := s.Position()[0] - 45.0/11
				a += x * x
			}
			y[i] = a / 10 * 11 // variance relative to the truth
		}
		m, se := meanBatchSE(y)
		ratio[k] = m
		t.Logf("estimated B̂ %v: variance/truth %.4f ± %.4f", est, m, se)
		if est && math.Abs(m-1) > 4*se {
			t.Errorf("with estimated B̂: variance/truth %.4f, want 1 within 4 SE (%.4f)", m, 4*se)
		}
		if !est && m-1 < 4*se {
			t.Errorf("without B̂: variance/truth %.4f, want the gradient noise's excess above 4 SE (%.4f)", m, 4*se)
		}
	}
}

// meanBatchSE returns the mean of x and its standard error by 100 batch means.
func meanBatchSE(x []float64) (mean, se float64) {
	const nb = 100
	bs := len(x) / nb
	var means [nb]float64
	for b := range nb {
		for _, v := range x[b*bs : (b+1)*bs] {
			means[b] += v
		}
		means[b] /= float64(bs)
		mean += means[b]
	}
	mean /= nb
	var ss float64
	for _, m := range means {
		ss += (m - mean) * (m - mean)
	}
	return mean, math.Sqrt(ss / (nb - 1) / nb)
}

func TestCheckModelAndGradient(t *testing.T) {
	t.Parallel()
	c, err := CheckModel(testModel{}, []float64{0.4, 1.2}, []int{0, 3, 9})
	if err != nil {
		t.Fatal(err)
	}
	if c.RelErr > 1e-8 {
		t.Errorf("correct model: %v", c)
	}
	wrong := CheckGradient(func(x []float64) float64 { return x[0]*x[0] + 3*x[1] },
		func(dst, x []float64) { dst[0], dst[1] = 2*x[0], 2.5 }, []float64{1, 2})
	if wrong.Index != 1 || math.Abs(wrong.AbsErr-0.5) > 1e-6 || !strings.Contains(wrong.String(), "worst coordinate 1") {
		t.Errorf("wrong gradient: %v", wrong)
	}
	if _, err := CheckModel(testModel{}, []float64{1}, nil); err == nil {
		t.Error("dimension mismatch: no error")
	}
	// A wrong gradient is an error against GradTolerance, naming the term.
	for _, kind := range []string{"factor 2", "sign", "coordinate"} {
		m := &testmodel.WrongGrad{LDModel: testModel{}, Kind: kind, Coord: 1}
		c, err := CheckModel(m, []float64{0.4, 1.2}, []int{0, 3, 9})
		if !errors.Is(err, ErrGradient) || !strings.Contains(err.Error(), "LogLikGrad of item") || c.RelErr <= valid.GradTolerance {
			t.Errorf("%s: %v, %v; want an ErrGradient naming the item", kind, c, err)
		}
	}
	u := fullpass.Potential(testModel{}, []float64{0, 0})
	var want float64
	for i := range 10 {
		want += (float64(i)*float64(i) + float64(i)*float64(i)/4) / 2
	}
	if math.Abs(u-want) > 1e-12 {
		t.Errorf("Potential = %v, want %v", u, want)
	}
}

// batchTestModel adds the BatchModel capability to testModel.
type batchTestModel struct {
	testModel
	calls *int
}

func (m batchTestModel) LogLikGradBatch(dst, th []float64, idx []int, scale float64) {
	*m.calls++
	for _, i := range idx {
		m.LogLikGrad(dst, th, i, scale)
	}
}

// TestMinibatchUsesBatchModel: a BatchModel's batch gradient is used and
// gives the same stochastic gradient as the per-datum path.
func TestMinibatchUsesBatchModel(t *testing.T) {
	t.Parallel()
	calls := 0
	a, _ := NewMinibatch(testModel{}, 4, false, rand.NewPCG(5, 5))
	b, _ := NewMinibatch(batchTestModel{calls: &calls}, 4, false, rand.NewPCG(5, 5))
	ga, gb := make([]float64, 2), make([]float64, 2)
	th := []float64{0.2, 0.1}
	for range 10 {
		a.Grad(ga, th)
		b.Grad(gb, th)
		if ga[0] != gb[0] || ga[1] != gb[1] {
			t.Fatalf("batch path %v, per-datum path %v", gb, ga)
		}
	}
	if calls != 10 {
		t.Errorf("LogLikGradBatch called %d times, want 10", calls)
	}
}

// TestRejectionDraws: above permMaxN a batch without replacement is drawn
// by rejection; every batch has n distinct items, each item's inclusion
// frequency is n/N and each pair's n(n−1)/(N(N−1)) (uniform n-subsets),
// within 4.5 binomial standard errors over 40,000 batches; and a
// Minibatch over 3·10⁶ items holds no permutation.
func TestRejectionDraws(t *testing.T) {
	const N, n, B = 40, 15, 40000
	b := &Minibatch{n: n, rng: rand.New(rand.NewPCG(1, 2)), idx: make([]int, n), seen: make([]int, seenSize(n))}
	count := make([]float64, N)
	pair := 0.0 // items 3 and 17 together
	for range B {
		b.drawRejecting(N)
		s := slices.Clone(b.idx)
		slices.Sort(s)
		if len(slices.Compact(s)) != n {
			t.Fatalf("batch %v has repeated items", b.idx)
		}
		for _, i := range b.idx {
			count[i]++
		}
		if slices.Contains(b.idx, 3) && slices.Contains(b.idx, 17) {
			pair++
		}
	}
	check := func(what string, got, p float64) {
		t.Helper()
		if se := math.Sqrt(B * p * (1 - p)); math.Abs(got-B*p) > 4.5*se {
			t.Errorf("%s: %v draws, want %.0f ± %.0f", what, got, B*p, se)
		}
	}
	for i, c := range count {
		check(fmt.Sprintf("item %d", i), c, float64(n)/N)
	}
	check("pair (3, 17)", pair, float64(n*(n-1))/(N*(N-1)))

	big := lenModel(3_000_000)
	mb, err := NewMinibatch(big, 100, false, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if mb.perm != nil || len(mb.seen) != 256 {
		t.Fatalf("a batch of 100 of 3·10⁶ items holds a permutation of %d and a set of %d", len(mb.perm), len(mb.seen))
	}
	mb.Draw()
	ck, err := mb.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(mb.Draw())
	if err := mb.UnmarshalBinary(ck); err != nil {
		t.Fatal(err)
	}
	if got := mb.Draw(); !slices.Equal(got, want) {
		t.Fatalf("after restoring the checkpoint the next batch is %v, want %v", got[:3], want[:3])
	}
}

// lenModel is a model of n items whose gradients are zero: for tests of
// batch streams.
type lenModel int

func (lenModel) Dim() int                                              { return 1 }
func (m lenModel) Len() int                                            { return int(m) }
func (lenModel) LogPriorGrad(dst, theta []float64)                     {}
func (lenModel) LogLikGrad(dst, theta []float64, i int, scale float64) {}
