// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"gonum.org/v1/gonum/stat/distuv"
)

// ar1 returns m chains of n draws of the stationary AR(1) process
// x_{t+1} = ρ x_t + √(1−ρ²) z_t with unit marginal variance, shifted by
// shift[c] for chain c (if shift is not nil).
func ar1(rng *rand.Rand, m, n int, rho float64, shift []float64) [][]float64 {
	s := math.Sqrt(1 - rho*rho)
	chains := make([][]float64, m)
	for c := range chains {
		x := rng.NormFloat64()
		chains[c] = make([]float64, n)
		for i := range n {
			chains[c][i] = x
			if shift != nil {
				chains[c][i] += shift[c]
			}
			x = rho*x + s*rng.NormFloat64()
		}
	}
	return chains
}

func relErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / math.Max(math.Abs(want), 1e-300)
}

func TestAutocovarianceMatchesDirectSum(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 3, 5, 7, 16, 97, 250, 1001} {
		x := ar1(rng, 1, n, 0.7, nil)[0]
		got, err := diagnostics.Autocovariance(nil, x)
		if err != nil {
			t.Fatal(err)
		}
		want := refAutocov(x)
		for k := range want {
			if math.Abs(got[k]-want[k]) > 1e-12*math.Max(want[0], 1) {
				t.Fatalf("n=%d lag %d: FFT %v, direct %v", n, k, got[k], want[k])
			}
		}
		rho, err := diagnostics.Autocorrelation(make([]float64, 0, n), x)
		if err != nil {
			t.Fatal(err)
		}
		if want[0] > 0 {
			for k := range want {
				if math.Abs(rho[k]-want[k]/want[0]) > 1e-12 {
					t.Fatalf("n=%d lag %d: autocorrelation %v, want %v", n, k, rho[k], want[k]/want[0])
				}
			}
		}
	}
	rho, err := diagnostics.Autocorrelation(nil, []float64{2, 2, 2})
	if err != nil || rho[0] != 1 || rho[1] != 0 || rho[2] != 0 {
		t.Errorf("constant autocorrelation = %v, %v; want [1 0 0]", rho, err)
	}
}

// TestAgainstReference checks every chain diagnostic against the direct
// O(n²) implementation of its published definition in reference_test.go.
func TestAgainstReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 3))
	const tol = 1e-9
	for _, tc := range []struct {
		m, n int
		rho  float64
	}{
		{1, 4, 0}, {1, 5, 0.3}, {2, 9, 0.5}, {4, 100, 0.9}, {4, 101, -0.5},
		{3, 300, 0.95}, {1, 1000, 0.2}, {8, 64, 0.6},
	} {
		name := fmt.Sprintf("m=%d,n=%d,rho=%v", tc.m, tc.n, tc.rho)
		chains := ar1(rng, tc.m, tc.n, tc.rho, nil)
		// Ties exercise the average ranks.
		chains[0][tc.n-1] = chains[0][0]
		for _, f := range []struct {
			name      string
			got, want func([][]float64) (float64, float64)
		}{
			{"ESSBulk", wrap(diagnostics.ESSBulk), refOnly(refESSBulk)},
			{"ESSTail", wrap(diagnostics.ESSTail), refOnly(refESSTail)},
			{"ESSMean", wrap(diagnostics.ESSMean), refOnly(func(c [][]float64) float64 { return refESS(refSplit(c)) })},
			{"ESSQuantile(0.3)", wrap(func(c [][]float64) (float64, error) { return diagnostics.ESSQuantile(c, 0.3) }),
				refOnly(func(c [][]float64) float64 { return refESSQuantile(c, 0.3) })},
			{"RHat", wrap(diagnostics.RHat), refOnly(refRHat)},
			{"MCSEQuantile(0.8)", wrap(func(c [][]float64) (float64, error) { return diagnostics.MCSEQuantile(c, 0.8) }),
				refOnly(func(c [][]float64) float64 { return refMCSEQuantile(c, 0.8) })},
			{"MCSEMean", wrap(diagnostics.MCSEMean), refOnly(func(c [][]float64) float64 {
				var all []float64
				for _, x := range c {
					all = append(all, x...)
				}
				var mu, ss float64
				for _, v := range all {
					mu += v / float64(len(all))
				}
				for _, v := range all {
					ss += (v - mu) * (v - mu)
				}
				return math.Sqrt(ss/float64(len(all)-1)) / math.Sqrt(refESS(refSplit(c)))
			})},
		} {
			got, err := f.got(chains)
			if math.IsNaN(err) {
				t.Fatalf("%s %s: error", name, f.name)
			}
			want, _ := f.want(chains)
			if relErr(got, want) > tol {
				t.Errorf("%s %s = %.15g, reference %.15g", name, f.name, got, want)
			}
		}
		s, err := diagnostics.Summarize(chains)
		if err != nil {
			t.Fatal(err)
		}
		bulk, tail, _ := diagnostics.RHatBulkTail(chains)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"ESSBulk", s.ESSBulk, refESSBulk(chains)},
			{"ESSTail", s.ESSTail, refESSTail(chains)},
			{"RHat", s.RHat, refRHat(chains)},
			{"RHatBulk", s.RHatBulk, bulk},
			{"RHatTail", s.RHatTail, tail},
			{"Q5", s.Q5, refQuantile(chains, 0.05)},
			{"Median", s.Median, refQuantile(chains, 0.5)},
			{"Q95", s.Q95, refQuantile(chains, 0.95)},
		} {
			if relErr(c.got, c.want) > tol {
				t.Errorf("%s Summary.%s = %.15g, reference %.15g", name, c.name, c.got, c.want)
			}
		}
	}
}

// wrap adapts a diagnostic to a common signature; the second result is NaN
// on error.
func wrap(f func([][]float64) (float64, error)) func([][]float64) (float64, float64) {
	return func(c [][]float64) (float64, float64) {
		v, err := f(c)
		if err != nil {
			return math.NaN(), math.NaN()
		}
		return v, 0
	}
}

func refOnly(f func([][]float64) float64) func([][]float64) (float64, float64) {
	return func(c [][]float64) (float64, float64) { return f(c), 0 }
}

// TestESSAR1 checks the ESS of AR(1) chains against the exact value
// S(1−ρ)/(1+ρ) for S draws in all.
//
// Each estimate must lie within four of its own standard deviations (the
// spread over replicates) of the exact value. The mean over replicates must
// lie within four standard errors plus the estimator's known bias: the
// initial-sequence truncation keeps pairs of autocorrelations that are
// positive by chance, which adds about E[2·max(P, 0)] + E[max(ρ̂, 0)] to τ̂,
// P ~ N(0, 2τ/S) the noise of a pair (Bartlett), a relative bias of about
// 1.5/√ESS; we allow 2/√ESS.
func TestESSAR1(t *testing.T) {
	t.Parallel()
	const (
		reps = 40
		m    = 4
		n    = 2500
	)
	rng := rand.New(rand.NewPCG(4, 5))
	for _, rho := range []float64{0, 0.5, 0.9, -0.3} {
		want := float64(m*n) * (1 - rho) / (1 + rho)
		for _, f := range []struct {
			name string
			fn   func([][]float64) (float64, error)
		}{
			{"ESSMean", diagnostics.ESSMean},
			{"ESSBulk", diagnostics.ESSBulk},
		} {
			ess := make([]float64, reps)
			var sum, sum2 float64
			for r := range ess {
				e, err := f.fn(ar1(rng, m, n, rho, nil))
				if err != nil {
					t.Fatal(err)
				}
				ess[r] = e
				sum += e
				sum2 += e * e
			}
			mean := sum / reps
			sd := math.Sqrt((sum2 - reps*mean*mean) / (reps - 1))
			for r, e := range ess {
				if math.Abs(e-want) > 4*sd {
					t.Errorf("rho=%v %s replicate %d: %.1f, want %.1f ± %.1f", rho, f.name, r, e, want, 4*sd)
				}
			}
			se := sd / math.Sqrt(reps)
			bias := 2 / math.Sqrt(want) * want
			if math.Abs(mean-want) > 4*se+bias {
				t.Errorf("rho=%v %s: mean over %d replicates %.1f ± %.1f, want %.1f (bias allowance %.1f)", rho, f.name, reps, mean, se, want, bias)
			}
		}
	}
}

// TestMCSEQuantileIID checks the quantile MCSE of independent normal draws
// against the asymptotic √(p(1−p)/S)/φ(q_p), within the Monte Carlo error
// over replicates.
func TestMCSEQuantileIID(t *testing.T) {
	t.Parallel()
	const reps, m, n = 40, 2, 2000
	rng := rand.New(rand.NewPCG(6, 7))
	for _, p := range []float64{0.5, 0.8} {
		q := distuv.UnitNormal.Quantile(p)
		want := math.Sqrt(p*(1-p)/(m*n)) / distuv.UnitNormal.Prob(q)
		var sum, sum2 float64
		for range reps {
			e, err := diagnostics.MCSEQuantile(ar1(rng, m, n, 0, nil), p)
			if err != nil {
				t.Fatal(err)
			}
			sum += e
			sum2 += e * e
		}
		mean := sum / reps
		se := math.Sqrt((sum2-reps*mean*mean)/(reps-1)) / math.Sqrt(reps)
		if math.Abs(mean-want) > 4*se {
			t.Errorf("p=%v: MCSEQuantile mean %.5f ± %.5f, want %.5f", p, mean, se, want)
		}
	}
}

func TestRHatMixing(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(8, 9))
	const m, n = 4, 1000
	// Same distribution: for independent chains (B/W − 1) is of order
	// √(2/(2m−1)) and R̂ − 1 ≈ (B/W − 1)/(2n′) ≈ 3e−4 with n′ = 500, far
	// below 1.01 (which needs B/W ≈ 11).
	same, err := diagnostics.RHat(ar1(rng, m, n, 0.5, nil))
	if err != nil {
		t.Fatal(err)
	}
	if same > 1.005 {
		t.Errorf("R̂ of chains from one distribution = %v, want ≈ 1", same)
	}
	// One chain shifted by one standard deviation.
	shifted, err := diagnostics.RHat(ar1(rng, m, n, 0.5, []float64{0, 0, 0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if shifted < 1.05 {
		t.Errorf("R̂ of chains with a shifted mean = %v, want clearly > 1.01", shifted)
	}
	// Equal means, one chain with three times the scale: the bulk R̂ sees
	// little, the tail (folded) R̂ catches it.
	chains := ar1(rng, m, n, 0, nil)
	for i := range chains[3] {
		chains[3][i] *= 3
	}
	bulk, tail, err := diagnostics.RHatBulkTail(chains)
	if err != nil {
		t.Fatal(err)
	}
	if tail < 1.05 || tail <= bulk {
		t.Errorf("scale difference: bulk R̂ %v, tail R̂ %v; want tail clearly > 1.01 and > bulk", bulk, tail)
	}
}

func TestConstantChains(t *testing.T) {
	t.Parallel()
	c := [][]float64{{3, 3, 3, 3, 3}, {3, 3, 3, 3, 3}}
	for _, f := range []struct {
		name string
		fn   func([][]float64) (float64, error)
		want float64
	}{
		{"ESSBulk", diagnostics.ESSBulk, 8}, // 2 chains × 2 halves × 2 draws
		{"ESSTail", diagnostics.ESSTail, 8},
		{"ESSMean", diagnostics.ESSMean, 8},
		{"RHat", diagnostics.RHat, 1},
		{"MCSEMean", diagnostics.MCSEMean, 0},
	} {
		got, err := f.fn(c)
		if err != nil || got != f.want {
			t.Errorf("constant %s = %v, %v; want %v", f.name, got, err, f.want)
		}
	}
	// Each chain constant, the chains different: no mixing at all.
	got, err := diagnostics.RHat([][]float64{{0, 0, 0, 0}, {1, 1, 1, 1}})
	if err != nil || !math.IsInf(got, 1) {
		t.Errorf("R̂ of different constant chains = %v, %v; want +Inf", got, err)
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	fns := map[string]func([][]float64) (float64, error){
		"ESSBulk":  diagnostics.ESSBulk,
		"ESSTail":  diagnostics.ESSTail,
		"ESSMean":  diagnostics.ESSMean,
		"RHat":     diagnostics.RHat,
		"MCSEMean": diagnostics.MCSEMean,
		"Summarize": func(c [][]float64) (float64, error) {
			s, err := diagnostics.Summarize(c)
			return s.Mean, err
		},
	}
	for _, tc := range []struct {
		name         string
		chains       [][]float64
		chain, index int
	}{
		{"no chains", nil, -1, -1},
		{"empty chain", [][]float64{{}}, -1, -1},
		{"too short", [][]float64{{1, 2, 3}, {1, 2, 3}}, -1, -1},
		{"unequal", [][]float64{{1, 2, 3, 4}, {1, 2, 3, 4, 5}}, 1, -1},
		{"NaN", [][]float64{{1, 2, 3, 4}, {1, 2, math.NaN(), 4}}, 1, 2},
		{"Inf", [][]float64{{1, 2, 3, math.Inf(-1)}, {1, 2, 3, 4}}, 0, 3},
	} {
		for name, fn := range fns {
			t.Run(name+" "+tc.name, func(t *testing.T) {
				v, err := fn(tc.chains)
				var ie *diagnostics.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("err = %v, want *InputError", err)
				}
				if ie.Chain != tc.chain || ie.Index != tc.index {
					t.Errorf("error names chain %d draw %d, want %d, %d (%v)", ie.Chain, ie.Index, tc.chain, tc.index, err)
				}
				if name != "Summarize" && !math.IsNaN(v) {
					t.Errorf("value %v with error, want NaN", v)
				}
			})
		}
	}
	if _, err := diagnostics.ESSQuantile([][]float64{{1, 2, 3, 4}}, 1); err == nil {
		t.Error("ESSQuantile(p = 1): no error")
	}
	if _, err := diagnostics.MCSEQuantile([][]float64{{1, 2, 3, 4}}, 0); err == nil {
		t.Error("MCSEQuantile(p = 0): no error")
	}
	if _, err := diagnostics.Autocovariance(nil, nil); err == nil {
		t.Error("Autocovariance(empty): no error")
	}
}

// flat is a chain stored as sgmcmc.Chain stores it: draw i in
// draws[i*dim : (i+1)*dim].
type flat struct {
	dim   int
	draws []float64
}

func (f *flat) Len() int           { return len(f.draws) / f.dim }
func (f *flat) At(i int) []float64 { return f.draws[i*f.dim : (i+1)*f.dim] }

func TestSummarizeChains(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(10, 11))
	const k, n, d = 3, 200, 2
	chains := make([]*flat, k)
	rows := make([]diagnostics.Rows, k)
	cols := make([][][]float64, d)
	for j := range cols {
		cols[j] = ar1(rng, k, n, 0.3*float64(j), nil)
	}
	for c := range chains {
		ch := &flat{dim: d, draws: make([]float64, n*d)}
		rows[c] = make(diagnostics.Rows, n)
		for i := range n {
			for j := range d {
				ch.draws[i*d+j] = cols[j][c][i]
			}
			rows[c][i] = ch.At(i)
		}
		chains[c] = ch
	}
	sums, err := diagnostics.SummarizeChains(chains)
	if err != nil {
		t.Fatal(err)
	}
	fromRows, err := diagnostics.SummarizeChains(rows)
	if err != nil {
		t.Fatal(err)
	}
	for j := range d {
		col, err := diagnostics.Columns(chains, j)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := diagnostics.Summarize(cols[j])
		if fmt.Sprint(col) != fmt.Sprint(cols[j]) || sums[j] != want || fromRows[j] != want {
			t.Errorf("coordinate %d: SummarizeChains %v (of Rows %v), Summarize of the column %v", j, sums[j], fromRows[j], want)
		}
	}
	if _, err := diagnostics.Columns(chains, d); err == nil {
		t.Error("Columns(d): no error")
	}
	chains[1].draws[5*d+1] = math.NaN()
	_, err = diagnostics.SummarizeChains(chains)
	var ie *diagnostics.InputError
	if !errors.As(err, &ie) || ie.Chain != 1 || ie.Index != 5 || ie.Coord != 1 {
		t.Errorf("NaN at chain 1 draw 5 coordinate 1: err = %v", err)
	}
	for _, tc := range []struct {
		name   string
		chains []*flat
	}{
		{"unequal length", []*flat{chains[0], {dim: d}}},
		{"nil chain", []*flat{chains[0], nil}},
		{"no chains", nil},
		{"no draws", []*flat{{dim: d}, {dim: d}}},
		{"unequal dimension", []*flat{chains[0], {dim: 1, draws: chains[2].draws}}},
		{"too short", []*flat{{dim: 1, draws: []float64{1, 2, 3}}}},
	} {
		if _, err := diagnostics.SummarizeChains(tc.chains); !errors.As(err, &ie) {
			t.Errorf("%s: err = %v, want an *InputError", tc.name, err)
		}
	}
	ragged := diagnostics.Rows{{1, 2}, {3, 4}, {5}, {7, 8}}
	if _, err := diagnostics.SummarizeChains([]diagnostics.Rows{ragged}); !errors.As(err, &ie) || ie.Index != 2 {
		t.Errorf("draw 2 of dimension 1 among draws of dimension 2: err = %v", err)
	}
}

func TestStepWeighted(t *testing.T) {
	t.Parallel()
	// Decreasing steps ε_t = t^{−0.51}, values h_t = t: Σ ε h / Σ ε by hand.
	const n = 50
	h := make([]float64, n)
	eps := make([]float64, n)
	var num, den float64
	for i := range n {
		ti := float64(i + 1)
		h[i], eps[i] = ti, math.Pow(ti, -0.51)
		num += eps[i] * h[i]
		den += eps[i]
	}
	got, err := diagnostics.WeightedMean(h, eps)
	if err != nil || relErr(got, num/den) > 1e-14 {
		t.Errorf("WeightedMean = %v, %v; want %v", got, err, num/den)
	}
	c := &flat{dim: 1, draws: h[:25]}
	c2 := &flat{dim: 1, draws: h[25:]}
	id := func(x []float64) float64 { return x[0] }
	got, err = diagnostics.StepWeighted([]*flat{c, c2}, [][]float64{eps[:25], eps[25:]}, id)
	if err != nil || relErr(got, num/den) > 1e-14 {
		t.Errorf("StepWeighted = %v, %v; want %v", got, err, num/den)
	}
	want, _ := diagnostics.WeightedMean(h[:25], eps[:25])
	single, _ := diagnostics.StepWeighted([]*flat{c}, [][]float64{eps[:25]}, id)
	if relErr(single, want) > 1e-14 {
		t.Errorf("StepWeighted of one chain %v, WeightedMean %v", single, want)
	}
	if _, err := diagnostics.StepWeighted([]*flat{c, c2}, [][]float64{eps[:25]}, id); err == nil {
		t.Error("StepWeighted with step sizes for one of two chains: no error")
	}
	if _, err := diagnostics.StepWeighted([]*flat{c}, [][]float64{eps[:24]}, id); err == nil {
		t.Error("StepWeighted with 24 step sizes for 25 draws: no error")
	}
	if _, err := diagnostics.StepWeighted([]*flat{c}, [][]float64{eps[:25]}, func([]float64) float64 { return math.Inf(1) }); err == nil {
		t.Error("StepWeighted of an infinite f: no error")
	}
	if _, err := diagnostics.WeightedMean([]float64{1, 2}, []float64{1, 0}); err == nil {
		t.Error("WeightedMean with a zero step: no error")
	}
	if _, err := diagnostics.WeightedMean([]float64{1, 2}, []float64{1}); err == nil {
		t.Error("WeightedMean with unequal lengths: no error")
	}
}
