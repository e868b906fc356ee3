// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

const dataDir = "../../testdata/a9a"

var (
	problemOnce sync.Once
	problem     *Problem
	problemErr  error
)

// loadProblem loads a9a once for all tests of the package.
func loadProblem(tb testing.TB) *Problem {
	tb.Helper()
	problemOnce.Do(func() { problem, problemErr = Load(dataDir) })
	if problemErr != nil {
		tb.Fatal(problemErr)
	}
	return problem
}

// The thresholds of the acceptance check; a correct sampler gives about
// 0.850, −0.324 and −0.326 for the per-draw log likelihood.
const (
	minAccuracy = 0.84
	minLogLik   = -0.330
)

// TestQuickstart runs the demo on the real data with a third of its steps
// and checks every sampler's numbers.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("samples a9a with five samplers")
	}
	p := loadProblem(t)
	if p.Train.Rows() != 32561 || p.Test.Rows() != 16281 || p.Model.Dim() != 124 {
		t.Fatalf("a9a: %d training rows, %d test rows, d = %d; want 32561, 16281, 124", p.Train.Rows(), p.Test.Rows(), p.Model.Dim())
	}
	rows, err := Sample(context.Background(), p, Config{Seed: 1, Steps: 10000, Draws: 100, Batch: 500})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"SGLD", "SGHMC", "SGNHT", "SGRLD", "gSGRHMC"}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, r := range rows {
		t.Logf("%-8s %6d steps %.2fs (%.0f steps/s)  accuracy %.4f  log-lik %.4f  per-draw %.4f",
			r.Sampler, r.Steps, r.Seconds, float64(r.Steps)/r.Seconds, r.Accuracy, r.LogLik, r.DrawLogLik)
		if r.Sampler != want[i] || r.Steps != 10000 {
			t.Errorf("row %d: %s with %d steps, want %s with 10000", i, r.Sampler, r.Steps, want[i])
		}
		if r.Accuracy < minAccuracy {
			t.Errorf("%s: test accuracy %.4f < %.2f", r.Sampler, r.Accuracy, minAccuracy)
		}
		if r.LogLik < minLogLik {
			t.Errorf("%s: test log predictive density %.4f < %.3f", r.Sampler, r.LogLik, minLogLik)
		}
		if r.DrawLogLik < minLogLik {
			t.Errorf("%s: per-draw test log likelihood %.4f < %.3f: the chain is too hot", r.Sampler, r.DrawLogLik, minLogLik)
		}
	}
}

// TestNaiveSGHMCCaught checks that the per-draw check above has teeth:
// naive SGHMC (no friction, no injected noise), whose gradient noise heats
// the chain without bound, fails it clearly, even though its averaged
// predictive can still look fine.
func TestNaiveSGHMCCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("samples a9a")
	}
	p := loadProblem(t)
	grad, err := sgmcmc.NewMinibatch(p.Model, 500, false, rand.NewPCG(1, 100))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sgmcmc.NewNaiveSGHMC(grad, p.MAP, rand.NewPCG(1, 101), nil)
	if err != nil {
		t.Fatal(err)
	}
	chain, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 100, BurnIn: 2000, Thin: 80, Schedule: sgmcmc.Constant(1e-3)})
	if err != nil {
		t.Fatal(err)
	}
	pred := logreg.NewPredictive(p.Test)
	for i := range chain.Len() {
		pred.Add(chain.At(i), 1)
	}
	t.Logf("naive SGHMC: accuracy %.4f, log-lik %.4f, per-draw %.4f", pred.Accuracy(), pred.LogLik(), pred.MeanLogLik())
	if d := pred.MeanLogLik(); d > minLogLik-0.05 {
		t.Errorf("naive SGHMC: per-draw test log likelihood %.4f, want well below %.3f", d, minLogLik)
	}
}

// TestJSON checks the -json output: one object {"rows": [...]} with the
// five samplers and the documented keys, and that a run is reproducible.
func TestJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("samples a9a")
	}
	c := Config{Seed: 7, Steps: 500, Draws: 10, Batch: 500}
	var out [2]bytes.Buffer
	for i := range out {
		if err := run(context.Background(), &out[i], dataDir, c, true); err != nil {
			t.Fatal(err)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(out[0].Bytes()))
	var got struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value on stdout")
	}
	keys := []string{"sampler", "steps", "seconds", "test_accuracy", "test_loglik", "draw_loglik"}
	names := []string{"SGLD", "SGHMC", "SGNHT", "SGRLD", "gSGRHMC"}
	if len(got.Rows) != len(names) {
		t.Fatalf("%d rows, want %d", len(got.Rows), len(names))
	}
	var rows [2][]Row
	for i := range out {
		var r struct{ Rows []Row }
		if err := json.Unmarshal(out[i].Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows[i] = r.Rows
	}
	for i, r := range got.Rows {
		if len(r) != len(keys) {
			t.Errorf("row %d has keys %v, want %v", i, r, keys)
		}
		for _, k := range keys {
			if _, ok := r[k]; !ok {
				t.Errorf("row %d lacks %q", i, k)
			}
		}
		if r["sampler"] != names[i] || r["steps"] != float64(c.Steps) {
			t.Errorf("row %d: sampler %v, steps %v; want %s, %d", i, r["sampler"], r["steps"], names[i], c.Steps)
		}
		a, b := rows[0][i], rows[1][i]
		if a.Accuracy != b.Accuracy || a.LogLik != b.LogLik {
			t.Errorf("%s: same seed, different results: %+v and %+v", a.Sampler, a, b)
		}
	}
}

// BenchmarkStep measures one step of each sampler on a9a, minibatch 500,
// from the posterior mode.
func BenchmarkStep(b *testing.B) {
	p := loadProblem(b)
	for k, m := range methods() {
		b.Run(m.name, func(b *testing.B) {
			grad, err := sgmcmc.NewMinibatch(p.Model, 500, false, rand.NewPCG(1, uint64(2*k)))
			if err != nil {
				b.Fatal(err)
			}
			s, err := m.build(p, p.MAP, grad, rand.NewPCG(1, uint64(2*k+1)))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			t := 0
			for b.Loop() {
				t++
				if err := s.Step(m.schedule.StepSize(t)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
