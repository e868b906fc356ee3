// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/targets"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// modeWeights returns the share of r's draws in each mode of mode, with
// the largest MCSE over the modes' indicators.
func modeWeights(t *testing.T, r *sample.Result, modes int, mode func([]float64) int) (w []float64, mcse float64) {
	t.Helper()
	ind := make([][][]float64, modes)
	w = make([]float64, modes)
	n := 0
	for _, c := range r.Chains {
		for k := range ind {
			ind[k] = append(ind[k], make([]float64, c.Len()))
		}
		for i := range c.Len() {
			k := mode(c.At(i))
			ind[k][len(ind[k])-1][i] = 1
			w[k]++
			n++
		}
	}
	for k := range w {
		w[k] /= float64(n)
		se, err := diagnostics.MCSEMean(ind[k])
		if err != nil || math.IsNaN(se) {
			t.Fatalf("mode %d: MCSE %v, %v", k, se, err)
		}
		mcse = math.Max(mcse, se)
	}
	return w, mcse
}

// TestReplicaExchangeModes: ReplicaExchange with its defaults finds
// and weighs the modes that a local sampler started in one of them cannot
// know of — the equal mixture of N(∓μ, I) started at −μ (1-D and 10-D),
// and the four-mode mixture with weights 0.4, 0.3, 0.2, 0.1 — each weight
// within max(0.05, 4 MCSE), the MCSE itself at most 0.025, each mean
// within 0.1 sd and each sd within 10 % (the goal of examples/multimodal),
// and without a warning.
func TestReplicaExchangeModes(t *testing.T) {
	type tc struct {
		name    string
		t       targets.Target
		start   []float64
		mode    func([]float64) int
		weights []float64
		mean    []float64
		sd      []float64
	}
	b1, b10 := targets.Bimodal{D: 1}, targets.Bimodal{D: 10}
	m4mean, m4var := targets.Mixture4Moments()
	cases := []tc{
		{"bimodal 1-D from a mode", b1, []float64{-10}, b1.Mode, []float64{0.5, 0.5}, []float64{0}, []float64{math.Sqrt(b1.Var())}},
		{"mixture4", targets.FourModes{}, []float64{0, 0}, targets.FourModes{}.Mode, targets.FourModesWeights[:], m4mean[:], []float64{math.Sqrt(m4var[0]), math.Sqrt(m4var[1])}},
	}
	if !testing.Short() {
		st := make([]float64, 10)
		mean, sd := make([]float64, 10), make([]float64, 10)
		for i := range st {
			st[i], sd[i] = -b10.Offset(), math.Sqrt(b10.Var())
		}
		cases = append(cases, tc{"bimodal 10-D from a mode", b10, st, b10.Mode, []float64{0.5, 0.5}, mean, sd})
	}
	for _, c := range cases {
		r, err := sample.Run(context.Background(), sample.Problem{Model: targets.DensityModel{T: c.t}}, c.start, &sample.Settings{Seed: 7}, sample.ReplicaExchange{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Method != "ReplicaExchange" {
			t.Errorf("%s: Result.Method %q", c.name, r.Method)
		}
		if len(r.Warnings) > 0 {
			t.Errorf("%s: warnings %q", c.name, r.Warnings)
		}
		w, mcse := modeWeights(t, r, len(c.weights), c.mode)
		tol := math.Max(0.05, 4*mcse)
		t.Logf("%s: weights %.3f (exact %.2f), MCSE %.4f", c.name, w, c.weights, mcse)
		if mcse > 0.025 {
			t.Errorf("%s: weight MCSE %.4f above 0.025", c.name, mcse)
		}
		for k, v := range w {
			if math.Abs(v-c.weights[k]) > tol {
				t.Errorf("%s: mode %d weight %.3f, want %.2f ± %.3f", c.name, k, v, c.weights[k], tol)
			}
		}
		for j, row := range r.Summary {
			if e := math.Abs(row.Mean-c.mean[j]) / c.sd[j]; e > 0.1 {
				t.Errorf("%s: theta.%d mean %.3f, want %.3f (%.3f sd off)", c.name, j+1, row.Mean, c.mean[j], e)
			}
			if e := math.Abs(row.SD/c.sd[j] - 1); e > 0.1 {
				t.Errorf("%s: theta.%d sd %.3f, want %.3f", c.name, j+1, row.SD, c.sd[j])
			}
		}
	}
}

// TestReplicaExchangeLabels: on the label-switching posterior of a
// two-component mixture's means, the cold replica's sorted means have the
// exact moments (by quadrature) — the test that caught momentum replicas,
// whose exchanged positions met a momentum kicked by another position's
// gradient (sds 7 % small), and that a momentum Base is refused.
func TestReplicaExchangeLabels(t *testing.T) {
	if testing.Short() {
		t.Skip("a 40-point mixture posterior with 11 replicas: run without -short")
	}
	g := targets.NewGMMLabels()
	mean, sd := g.SortedMoments()
	r, err := sample.Run(context.Background(), sample.Problem{Model: g}, []float64{0, 0}, &sample.Settings{Seed: 3, Draws: 1000}, sample.ReplicaExchange{})
	if err != nil {
		t.Fatal(err)
	}
	var s, q [2]float64
	n := 0
	for _, c := range r.Chains {
		for i := range c.Len() {
			x := slices.Clone(c.At(i))
			slices.Sort(x)
			for j := range 2 {
				s[j] += x[j]
				q[j] += x[j] * x[j]
			}
			n++
		}
	}
	for j := range 2 {
		m := s[j] / float64(n)
		v := math.Sqrt(q[j]/float64(n) - m*m)
		t.Logf("sorted mean %d: %.4f (exact %.4f), sd %.4f (exact %.4f)", j, m, mean[j], v, sd[j])
		if math.Abs(m-mean[j]) > 0.1*sd[j] || math.Abs(v/sd[j]-1) > 0.05 {
			t.Errorf("sorted mean %d: mean %.4f sd %.4f, want %.4f and %.4f", j, m, v, mean[j], sd[j])
		}
	}
	_, err = sample.Run(context.Background(), sample.Problem{Model: g}, []float64{0, 0}, &sample.Settings{Seed: 3, Draws: 100}, sample.ReplicaExchange{Base: sample.SGHMC{}})
	if !errors.Is(err, sgmcmc.ErrUnsupported) {
		t.Errorf("momentum Base: error %v, want ErrUnsupported", err)
	}
}

// TestReplicaExchangeNeedsDensity: without LogDensity the method says
// what it needs.
func TestReplicaExchangeNeedsDensity(t *testing.T) {
	p := sample.Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) {
		return sgmcmc.GradFunc(func(dst, x []float64) { copy(dst, x) }), nil
	}}
	_, err := sample.Run(context.Background(), p, []float64{0}, &sample.Settings{Seed: 1, Draws: 100}, sample.ReplicaExchange{})
	if !errors.Is(err, sgmcmc.ErrUnsupported) || !strings.Contains(err.Error(), "LogDensity") {
		t.Errorf("error %v, want ErrUnsupported naming LogDensity", err)
	}
}

// TestSampleImproper: a flat direction — a parameter nothing informs, or
// two that enter the likelihood only as a sum — is an ErrImproper naming
// the direction, for every method.
func TestSampleImproper(t *testing.T) {
	for _, c := range []struct {
		name string
		m    sgmcmc.Model
		want string
	}{
		{"improper", targets.Improper{}, "1.00·b"},
		{"nonidentified", targets.NewNonidentified(), "0.71·a − 0.71·b"},
	} {
		for _, m := range []sample.Method{sample.SGLD{}, sample.SGHMC{}, sample.ReplicaExchange{}} {
			_, err := sample.Run(context.Background(), sample.Problem{Model: c.m, Names: []string{"a", "b"}}, []float64{0, 0}, &sample.Settings{Seed: 2, Draws: 100}, m)
			if !errors.Is(err, sgmcmc.ErrImproper) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s, %s: error %v, want ErrImproper along %s", c.name, m.Name(), err, c.want)
			}
		}
	}
}

// TestSampleStarts: StartScale changes the chains, and four chains' sampling
// runs start at distinct points spread on the posterior's scale (in
// whitened units each start is StartScale·U(−1, 1) per coordinate from the
// centre), not at the one point the Newton phase sends them all to.
func TestSampleStarts(t *testing.T) {
	g := targets.StandardGaussian(3)
	p := sample.Problem{Gradient: func(int, rand.Source) (sgmcmc.Gradient, error) { return sgmcmc.GradFunc(g.Grad), nil }}
	run := func(scale float64) *sample.Result {
		r, err := sample.Run(context.Background(), p, []float64{5, 5, 5}, &sample.Settings{Seed: 4, Draws: 100, StartScale: scale}, sample.SGHMC{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(1), run(0.001)
	if slices.Equal(a.Chains[0].Draws, b.Chains[0].Draws) {
		t.Errorf("StartScale 1 and 0.001 give the same chain")
	}
	// The starts in θ, and their distances in the chains' whitened units.
	th := make([][]float64, len(a.Adapted))
	for c := range a.Adapted {
		ad := &a.Adapted[c]
		aff, err := ad.Affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
		if err != nil {
			t.Fatal(err)
		}
		th[c] = make([]float64, 3)
		aff.ToTheta(th[c], ad.Start)
		for _, v := range ad.Start {
			if math.Abs(v) > 1 {
				t.Errorf("chain %d: start %v outside StartScale = 1 posterior sds", c, ad.Start)
			}
		}
	}
	for c := range th {
		for k := c + 1; k < len(th); k++ {
			d := 0.0
			for i := range 3 {
				d += (th[c][i] - th[k][i]) * (th[c][i] - th[k][i])
			}
			// Posterior sds are 1: two uniform starts in (−1, 1)³ are
			// √2 apart on average; below 0.05 has probability < 10⁻⁴.
			if math.Sqrt(d) < 0.05 {
				t.Errorf("chains %d and %d start %.3g apart: %v, %v", c, k, math.Sqrt(d), th[c], th[k])
			}
		}
	}
}

// TestWarmupModeWarning: chains whose warmups settle in the two modes of
// the 1-D bimodal mixture get the warmup's mode warning, naming the
// chains; chains on one-mode posteriors — a Gaussian, and the heavy-tailed
// t₃ — get none.
func TestWarmupModeWarning(t *testing.T) {
	b := targets.Bimodal{D: 1}
	split := 0
	for seed := uint64(1); seed <= 3; seed++ {
		r, err := sample.Run(context.Background(), sample.Problem{Model: targets.DensityModel{T: b}}, []float64{0}, &sample.Settings{Seed: seed, Draws: 100}, sample.SGHMC{})
		if err != nil {
			t.Fatal(err)
		}
		var side [2]int
		for _, c := range r.Chains {
			side[b.Mode(c.At(0))]++
		}
		var mw string
		for _, w := range r.Warnings {
			if strings.Contains(w.Message, "warmups settled in 2 separate modes") {
				mw = w.Message
			}
		}
		t.Logf("seed %d: chains per mode %v: %.120q", seed, side, mw)
		if (side[0] > 0 && side[1] > 0) != (mw != "") {
			t.Errorf("seed %d: chains per mode %v, warmup mode warning %q", seed, side, mw)
		}
		if side[0] > 0 && side[1] > 0 {
			split++
		}
	}
	if split == 0 {
		t.Error("no seed split the chains: the test does not test the warning")
	}
	for _, tg := range []targets.Target{targets.StandardGaussian(5), targets.HeavyTail{Nu: 3}} {
		for seed := uint64(1); seed <= 3; seed++ {
			r, err := sample.Run(context.Background(), sample.Problem{Model: targets.DensityModel{T: tg}}, make([]float64, tg.Dim()), &sample.Settings{Seed: seed, Draws: 100}, sample.SGHMC{})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range r.Warnings {
				if strings.Contains(w.Message, "separate") {
					t.Errorf("%d-D one-mode target, seed %d: %q", tg.Dim(), seed, w)
				}
			}
		}
	}
}
