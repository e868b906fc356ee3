// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/dataset"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// logitTables returns simulated logistic-regression data of n rows and d
// features as a logreg.DenseModel, a Memory of rows (features, then the
// label) and a float64 File of the same rows.
func logitTables(t *testing.T, n, d int) (*logreg.DenseModel, *dataset.Memory, *dataset.File) {
	t.Helper()
	x, _, err := logreg.Simulate(n, d, 7)
	if err != nil {
		t.Fatal(err)
	}
	dm, err := logreg.NewDenseModel(x, 25)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]float64, 0, n*(d+1))
	names := make([]string, d+1)
	for j := range names {
		names[j] = "x"
	}
	path := filepath.Join(t.TempDir(), "logit.bin")
	w, err := dataset.Create(path, names, 8)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		row := append(slices.Clone(x.Row(i)), x.Y[i])
		vals = append(vals, row...)
		if err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mem, err := dataset.NewMemory(vals, d+1)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dataset.Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return dm, mem, f
}

// TestModelGradients: a Model over a Memory or a File gives the
// hand-written dense model's gradients (random minibatches, a full pass's
// run of consecutive rows, and single rows) and log densities, to
// rounding, and its minibatch gradient allocates nothing once warm; also
// once the file is cached within a budget that holds it, and not cached
// within one that does not.
func TestModelGradients(t *testing.T) {
	const n, d = 3000, 5
	dm, mem, f := logitTables(t, n, d)
	r := rand.New(rand.NewPCG(1, 1))
	theta := make([]float64, d)
	for j := range theta {
		theta[j] = r.NormFloat64()
	}
	random := make([]int, 200)
	for k := range random {
		random[k] = r.IntN(n)
	}
	run := make([]int, 2500)
	for k := range run {
		run[k] = 300 + k
	}
	check := func(tb dataset.Table) {
		t.Helper()
		m, err := dataset.NewModel(tb, logreg.Rows{D: d, Prec: 1.0 / 25})
		if err != nil {
			t.Fatal(err)
		}
		bm := m.(sgmcmc.BatchModel)
		for _, idx := range [][]int{random, run, {17}} {
			want, got := make([]float64, d), make([]float64, d)
			dm.LogLikGradBatch(want, theta, idx, 3)
			bm.LogLikGradBatch(got, theta, idx, 3)
			for j := range want {
				if math.Abs(got[j]-want[j]) > 1e-12*(1+math.Abs(want[j])) {
					t.Fatalf("%T, %d rows: gradient %v, want %v", tb, len(idx), got, want)
				}
			}
		}
		ld := m.(sgmcmc.LogDensity)
		if got, want := ld.LogLik(theta, 42), dm.LogLik(theta, 42); math.Abs(got-want) > 1e-13 {
			t.Errorf("%T: LogLik %v, want %v", tb, got, want)
		}
		if got, want := ld.LogPrior(theta), dm.LogPrior(theta); math.Abs(got-want) > 1e-13 {
			t.Errorf("%T: LogPrior %v, want %v", tb, got, want)
		}
		g := make([]float64, d)
		if a := testing.AllocsPerRun(50, func() { bm.LogLikGradBatch(g, theta, random, 1) }); a != 0 && !dataset.RaceEnabled {
			t.Errorf("%T: %v allocations a minibatch gradient", tb, a)
		}
		if _, err := sgmcmc.CheckModel(m, theta, nil); err != nil {
			t.Errorf("%T: CheckModel: %v", tb, err)
		}
	}
	check(mem)
	check(f)
	// The same file read into memory.
	if ok, err := f.Cache(100_000); ok || err != nil {
		t.Fatalf("a file of %d bytes cached within 100 kB: %v, %v", n*(d+1)*8, ok, err)
	}
	if ok, err := f.Cache(dataset.DefaultBudget); !ok || err != nil {
		t.Fatalf("Cache: %v, %v", ok, err)
	}
	check(f)
}

// TestModelSampleSameBits: sample.Run gives the same draws, bit for bit,
// from a Memory and from a float64 File of the same rows, and its Result
// reports the bytes it read from the file.
func TestModelSampleSameBits(t *testing.T) {
	const n, d = 20000, 4
	_, mem, f := logitTables(t, n, d)
	s := &sample.Settings{Seed: 3, Draws: 200, Chains: 2}
	var draws [2][]float64
	var read int64
	for k, tb := range []dataset.Table{mem, f} {
		m, err := dataset.NewModel(tb, logreg.Rows{D: d, Prec: 1.0 / 25})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sample.Run(context.Background(), sample.Problem{Model: m}, make([]float64, d), s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Chains {
			draws[k] = append(draws[k], c.Draws...)
		}
		read = res.BytesRead
	}
	if len(draws[0]) != len(draws[1]) {
		t.Fatalf("%d and %d draws", len(draws[0]), len(draws[1]))
	}
	if !slices.Equal(draws[0], draws[1]) {
		t.Fatalf("the draws from memory and from the file differ")
	}
	if read < int64(n*(d+1)*8) {
		t.Errorf("Result.BytesRead %d, less than one pass", read)
	}
}

// TestModelReadError: a file that fails under a run (closed) ends the
// chains with an error naming it, not a panic.
func TestModelReadError(t *testing.T) {
	const n, d = 5000, 3
	_, _, f := logitTables(t, n, d)
	m, err := dataset.NewModel(f, logreg.Rows{D: d, Prec: 1})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = sample.Run(context.Background(), sample.Problem{Model: m}, make([]float64, d), &sample.Settings{Seed: 1, Draws: 100}, nil)
	if err == nil || !strings.Contains(err.Error(), "logit.bin") {
		t.Fatalf("error %v, want one naming the file", err)
	}
	if _, err := dataset.NewModel(nil, logreg.Rows{D: 1}); !errors.Is(err, sgmcmc.ErrNil) {
		t.Errorf("nil table: %v", err)
	}
}

// TestModelDiffBatch: a Model's LogLikGradDiffBatch is a control
// variate's two batch calls — to rounding through a DiffRowModel, which
// reads each row once (a batch larger than one read's rows included), and
// bit for bit through a RowModel without it.
func TestModelDiffBatch(t *testing.T) {
	const n, d, k = 20000, 30, 4
	beta := logreg.SimulateSignedBeta(d, k, 5)
	rows := make([]float64, n*(k+1))
	if err := logreg.SimulateSignedChunk(rows, beta, k, 0, 5); err != nil {
		t.Fatal(err)
	}
	mem, err := dataset.NewMemory(rows, k+1)
	if err != nil {
		t.Fatal(err)
	}
	sr := logreg.SignedRows{D: d, K: k, Prec: 1}
	withDiff, err := dataset.NewModel(mem, sr)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := dataset.NewModel(mem, struct{ dataset.RowModel }{sr})
	if err != nil {
		t.Fatal(err)
	}
	type diff interface {
		LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale float64)
	}
	r := rand.New(rand.NewPCG(1, 1))
	theta, centre := make([]float64, d), make([]float64, d)
	for j := range theta {
		theta[j], centre[j] = r.NormFloat64(), r.NormFloat64()
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = r.IntN(n)
	}
	want := make([]float64, d)
	bm := plain.(sgmcmc.BatchModel)
	bm.LogLikGradBatch(want, theta, idx, 0.5)
	bm.LogLikGradBatch(want, centre, idx, -0.5)
	got, same := make([]float64, d), make([]float64, d)
	withDiff.(diff).LogLikGradDiffBatch(got, theta, centre, idx, 0.5)
	plain.(diff).LogLikGradDiffBatch(same, theta, centre, idx, 0.5)
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-9*(1+math.Abs(want[j])) {
			t.Fatalf("coordinate %d: one read %v, two calls %v", j, got[j], want[j])
		}
	}
	if !slices.Equal(same, want) {
		t.Fatalf("without LogLikGradDiffRows the correction is not the two calls' bits")
	}
	small := idx[:100]
	if a := testing.AllocsPerRun(20, func() { withDiff.(diff).LogLikGradDiffBatch(got, theta, centre, small, 1) }); a != 0 && !dataset.RaceEnabled {
		t.Errorf("LogLikGradDiffBatch allocates %v times a call", a)
	}
}
