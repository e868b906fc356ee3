// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
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

// TestQuickstart runs the demo on the real data with two chains of a third
// of its steps and checks every sampler's numbers.
func TestQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("samples a9a with five samplers")
	}
	p := loadProblem(t)
	if p.Train.Rows() != 32561 || p.Test.Rows() != 16281 || p.Model.Dim() != 124 {
		t.Fatalf("a9a: %d training rows, %d test rows, d = %d; want 32561, 16281, 124", p.Train.Rows(), p.Test.Rows(), p.Model.Dim())
	}
	res, err := Sample(context.Background(), p, Config{Seed: 1, Chains: 2, Steps: 10000, Draws: 100, Batch: 500, SampleDraws: 200})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Sample", "SGLD", "SGHMC", "SGNHT", "SGRLD", "gSGRHMC"}
	if len(res) != len(want) {
		t.Fatalf("%d rows, want %d", len(res), len(want))
	}
	for i, r := range res {
		t.Logf("%-8s %6d steps %.2fs (%.0f steps/s)  accuracy %.4f  log-lik %.4f  per-draw %.4f  max R̂ %.3f  min ESS %.0f, %.0f",
			r.Sampler, r.Steps, r.Seconds, float64(r.Steps)/r.Seconds, r.Accuracy, r.LogLik, r.DrawLogLik, r.RHatMax, r.ESSBulkMin, r.ESSTailMin)
		if r.Sampler != want[i] || (i > 0 && r.Steps != 10000) || r.ChainCount != 2 || len(r.Chains) != 2 {
			t.Errorf("row %d: %s with %d chains of %d steps, want %s with 2 of 10000", i, r.Sampler, r.ChainCount, r.Steps, want[i])
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
		if len(r.Summary) != 124 || r.Summary[0].Name != "beta.1" || r.Summary[123].Name != "alpha" {
			t.Errorf("%s: summary of %d rows, first %q, last %q", r.Sampler, len(r.Summary), r.Summary[0].Name, r.Summary[len(r.Summary)-1].Name)
		}
		// The doc's claim: the coefficients have not converged where the
		// data leave them to the prior, and R̂ says so.
		// sample.Run's adapted chains mix; the hand-tuned ones do not.
		if i == 0 && r.RHatMax > 1.05 {
			t.Errorf("%s: max R̂ %.3f, want the adapted chains to have mixed (≤ 1.05 with 200 draws)", r.Sampler, r.RHatMax)
		}
		if i > 0 && r.RHatMax < 1.1 {
			t.Errorf("%s: max R̂ %.3f, want the unmixed directions to show (> 1.1)", r.Sampler, r.RHatMax)
		}
	}
}

// TestNaiveSGHMCCaught checks that the per-draw check above has teeth:
// naive SGHMC (no friction, no injected noise), whose gradient noise heats
// the chain without bound, fails it clearly, even though its averaged
// predictive can still look fine — and that sgmcmc.Run's temperature test
// says so (ErrTemperature, its draws kept).
func TestNaiveSGHMCCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("samples a9a")
	}
	p := loadProblem(t)
	grad, err := sgmcmc.NewMinibatch(p.Model, 500, false, rand.NewPCG(1, 100))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sgmcmc.NewSGHMC(grad, p.MAP, rand.NewPCG(1, 101), &sgmcmc.SGHMCSettings{Naive: true})
	if err != nil {
		t.Fatal(err)
	}
	chain, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 100, BurnIn: 2000, Thin: 80, Schedule: sgmcmc.Constant(1e-3)})
	if !errors.Is(err, sgmcmc.ErrTemperature) || chain.Len() != 100 {
		t.Fatalf("naive SGHMC: err = %v, want ErrTemperature with its 100 draws", err)
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
	c := Config{Seed: 7, Chains: 2, Steps: 500, Draws: 10, Batch: 500, SampleDraws: 10}
	var out [2]bytes.Buffer
	for i := range out {
		if err := run(context.Background(), dataDir, c, output{w: &out[i], json: true}); err != nil {
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
	keys := []string{"sampler", "chains", "steps", "seconds", "test_accuracy", "test_loglik", "draw_loglik", "rhat_max", "ess_bulk_min", "ess_tail_min"}
	names := []string{"Sample", "SGLD", "SGHMC", "SGNHT", "SGRLD", "gSGRHMC"}
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
		if r["sampler"] != names[i] || (i > 0 && r["steps"] != float64(c.Steps)) || r["chains"] != float64(c.Chains) {
			t.Errorf("row %d: sampler %v, steps %v, chains %v; want %s, %d, %d", i, r["sampler"], r["steps"], r["chains"], names[i], c.Steps, c.Chains)
		}
		if s, ok := r["seconds"].(float64); !ok || !(s > 0) {
			t.Errorf("row %d: seconds %v", i, r["seconds"])
		}
		a, b := rows[0][i], rows[1][i]
		if a.Accuracy != b.Accuracy || a.LogLik != b.LogLik || a.RHatMax != b.RHatMax {
			t.Errorf("%s: same seed, different results: %+v and %+v", a.Sampler, a, b)
		}
	}
}

// TestCSVAndPlots checks -csv and -plot: one CmdStan-style file per
// sampler and chain that reads back to the summary.json figures exactly,
// and a trace and a rank plot per sampler.
func TestCSVAndPlots(t *testing.T) {
	if testing.Short() {
		t.Skip("samples a9a")
	}
	dir := t.TempDir()
	c := Config{Seed: 3, Chains: 3, Steps: 300, Draws: 20, Batch: 500, SampleDraws: 20}
	var text bytes.Buffer
	if err := run(context.Background(), dataDir, c, output{w: &text, csv: dir, plot: dir}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "variable") || !strings.Contains(text.String(), "alpha") {
		t.Errorf("no summary table printed:\n%s", text.String())
	}
	// 300 steps mix nothing: the table must say so in words.
	var warning string
	for _, l := range strings.Split(text.String(), "\n") {
		if strings.HasPrefix(l, "WARNING:") {
			warning = l
		}
	}
	for _, name := range []string{"SGLD", "SGHMC", "SGNHT", "SGRLD", "gSGRHMC"} {
		if !strings.Contains(warning, name) {
			t.Errorf("no WARNING line naming %s, whose chains of 300 steps cannot have mixed (line: %q)", name, warning)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var summary map[string]map[string]diagnostics.Summary
	if err := json.Unmarshal(b, &summary); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"SGLD", "SGHMC", "SGNHT", "SGRLD", "gSGRHMC"} {
		var files []string
		for k := 1; k <= c.Chains; k++ {
			files = append(files, filepath.Join(dir, fmt.Sprintf("%s-%d.csv", name, k)))
		}
		chains, err := stancsv.ReadFiles(files...)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := chains[1].Lookup("sampler"); !ok || v != name {
			t.Errorf("%s: comment sampler = %q", name, v)
		}
		if v, ok := chains[1].Lookup("chain"); !ok || v != "2" {
			t.Errorf("%s: comment chain = %q", name, v)
		}
		if chains[0].LogDensity == nil || chains[0].StepSize == nil || chains[0].Len() != c.Draws {
			t.Errorf("%s: lp__ %v, stepsize__ %v, %d draws", name, chains[0].LogDensity != nil, chains[0].StepSize != nil, chains[0].Len())
		}
		table, err := diagnostics.NewTable(chains[0].Names, chains)
		if err != nil {
			t.Fatal(err)
		}
		if len(summary[name]) != 124 {
			t.Errorf("summary.json: %s has %d parameters", name, len(summary[name]))
		}
		for _, r := range table {
			if s, ok := summary[name][r.Name]; !ok || s != r.Summary {
				t.Errorf("%s %s: summary.json %+v, from the CSV files %+v", name, r.Name, s, r.Summary)
				break
			}
		}
		for _, kind := range []string{"trace", "rank"} {
			if st, err := os.Stat(filepath.Join(dir, name+"-"+kind+".png")); err != nil || st.Size() < 10000 {
				t.Errorf("%s %s plot: %v", name, kind, err)
			}
		}
	}
}

// TestFindData checks that the data are found from the package directory
// and from a directory outside the repository.
func TestFindData(t *testing.T) {
	for _, wd := range []string{".", t.TempDir()} {
		t.Chdir(wd)
		dir, err := findData()
		if err != nil {
			t.Fatalf("from %s: %v", wd, err)
		}
		if !hasA9A(dir) {
			t.Errorf("from %s: %s lacks a9a", wd, dir)
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
