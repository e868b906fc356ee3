// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/dataset"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/sample"
	"gonum.org/v1/gonum/mat"
)

// TestReducedRun is the default run reduced to N = 10⁴ with 200 draws per
// chain: the JSON has every key, sample.Run's numbers are finite, the
// comparison rows are there, and the figure is written.
func TestReducedRun(t *testing.T) {
	c := DefaultConfig()
	c.Cases = []string{"n10000_d20"}
	c.Draws = 200
	var out bytes.Buffer
	png := filepath.Join(t.TempDir(), "scale.png")
	if err := run(context.Background(), &out, c, true, png); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	keys := []string{"n", "d", "method", "batch", "setup_passes", "grad_evals", "setup_evals", "min_ess_bulk", "evals_per_ess", "cpu_s", "max_mean_err_sd", "max_sd_rel_err", "max_rhat", "warnings"}
	methods := map[string]bool{}
	for _, r := range doc.Rows {
		for _, k := range keys {
			if _, ok := r[k]; !ok {
				t.Errorf("row %v lacks %q", r["method"], k)
			}
		}
		if _, ok := r["warnings"].([]any); !ok {
			t.Errorf("%v: warnings %v, want a list", r["method"], r["warnings"])
		}
		m := r["method"].(string)
		methods[m] = true
		for _, k := range keys[3:13] {
			v, ok := r[k].(float64)
			if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: %s = %v, want a finite number", m, k, r[k])
			}
		}
		// 800 draws of either sampler: a loose check of the reference
		// comparison (the goal is 0.1 sd and 10 % at 4,000 draws).
		if e := r["max_mean_err_sd"].(float64); e > 0.3 {
			t.Errorf("%s: mean error %.3f sd against the cached reference", m, e)
		}
		if e := r["max_sd_rel_err"].(float64); math.Abs(e) > 0.3 {
			t.Errorf("%s: sd error %+.3f against the cached reference", m, e)
		}
	}
	for _, m := range []string{MethodSample, MethodPlain, MethodReference} {
		if !methods[m] {
			t.Errorf("no %s row", m)
		}
	}
	if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Errorf("figure not written: %v", err)
	}
}

// TestCachedReference: the cached N = 10⁴, d = 20 reference agrees with a
// fresh, shorter run of the reference sampler from another seed, every
// mean and sd within 4.5 combined Monte Carlo standard errors.
func TestCachedReference(t *testing.T) {
	t.Parallel()
	dir, err := refDir()
	if err != nil {
		t.Fatal(err)
	}
	cs := Case{N: 10000, D: 20}
	ref, err := ReadReference(dir, cs)
	if err != nil || ref == nil {
		t.Fatalf("no cached reference for %s: %v", cs.Name(), err)
	}
	if ref.MinESS < 10*4000 || ref.MaxRHat > 1.01 {
		t.Errorf("cached reference: min ESS %.0f, max R̂ %.4f; want ≥ 40,000 and ≤ 1.01", ref.MinESS, ref.MaxRHat)
	}
	m, err := Load(&cs, "")
	if err != nil {
		t.Fatal(err)
	}
	fresh, _, err := ComputeReference(context.Background(), cs, m, 2500, 99)
	if err != nil {
		t.Fatal(err)
	}
	for j := range ref.Mean {
		if e, tol := math.Abs(fresh.Mean[j]-ref.Mean[j]), 4.5*math.Hypot(fresh.MCSEMean[j], ref.MCSEMean[j]); e > tol {
			t.Errorf("beta.%d: mean %v, cached %v: difference %.3g > %.3g", j+1, fresh.Mean[j], ref.Mean[j], e, tol)
		}
		if e, tol := math.Abs(fresh.SD[j]-ref.SD[j]), 4.5*math.Hypot(fresh.MCSESD[j], ref.MCSESD[j]); e > tol {
			t.Errorf("beta.%d: sd %v, cached %v: difference %.3g > %.3g", j+1, fresh.SD[j], ref.SD[j], e, tol)
		}
	}
}

// TestWriteStan: -stan writes stan_logreg.R's format, the simulated data
// as little-endian float64s, X row-major.
func TestWriteStan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := WriteStan(dir, 50, 3); err != nil {
		t.Fatal(err)
	}
	want, _, _ := logreg.Simulate(50, 3, dataSeed)
	for name, v := range map[string][]float64{"X.bin": want.X, "y.bin": want.Y} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 8*len(v) {
			t.Fatalf("%s: %d bytes, want %d", name, len(b), 8*len(v))
		}
		for i, x := range v {
			if got := math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])); got != x {
				t.Fatalf("%s value %d: %v, want %v", name, i, got, x)
			}
		}
	}
}

// TestCompare: the mean error is the largest in sds, the sd error the
// signed one of largest magnitude.
func TestCompare(t *testing.T) {
	r := &Reference{Mean: []float64{0, 1, 2}, SD: []float64{1, 2, 4}}
	me, se := Compare(r, []float64{0.05, 0.8, 2}, []float64{1.05, 1.7, 4.2})
	if math.Abs(me-0.1) > 1e-12 || math.Abs(se+0.15) > 1e-12 {
		t.Errorf("Compare: %v, %v; want 0.1, −0.15", me, se)
	}
}

// TestSummarize: above DenseMax a summary that covers only the kept
// coordinates is not read as coordinates 0, 1, …: every coordinate's mean
// and sd come from the running moments, and ESS and R̂ from the rows kept.
func TestSummarize(t *testing.T) {
	row := func(name string, mean, sd, ess, rhat float64) diagnostics.Row {
		r := diagnostics.Row{Name: name}
		r.Mean, r.SD, r.ESSBulk, r.RHat = mean, sd, ess, rhat
		return r
	}
	res := &sample.Result{
		// Coordinates 1 and 3 of 4 kept.
		Summary: diagnostics.Table{row("beta.2", 1, 2, 900, 1.002), row("beta.4", 3, 4, 1200, 1.004)},
		Moments: &sample.Moments{Mean: []float64{0, 1, 2, 3}, SD: []float64{1, 2, 3, 4}},
	}
	mean, sd, ess, rhat, kept := summarize(res, 4)
	for j := range 4 {
		if mean[j] != float64(j) || sd[j] != float64(j+1) {
			t.Errorf("coordinate %d: mean %v, sd %v; want %d, %d", j, mean[j], sd[j], j, j+1)
		}
	}
	if ess != 900 || rhat != 1.004 || kept != 2 {
		t.Errorf("ESS %v, R̂ %v, %d kept; want 900, 1.004, 2", ess, rhat, kept)
	}
	res.Moments = nil // every coordinate kept, up to DenseMax
	res.Summary = diagnostics.Table{row("beta.1", 5, 6, 1000, 1.001)}
	if mean, sd, _, _, kept := summarize(res, 1); mean[0] != 5 || sd[0] != 6 || kept != 1 {
		t.Errorf("without moments: mean %v, sd %v, %d kept; want 5, 6, 1", mean, sd, kept)
	}
}

// TestStreamRows: the -stream rows on 2·10⁵ rows: the data file written
// once (the rows logreg.Simulate draws, as float32), the Laplace reference
// cached, and sample.Run from memory, from the file and from the staged
// Parquet file right (mean within 0.1 sd, sd within 10 %, R̂ ≤ 1.01), the
// first two equal to rounding and the last two bit for bit, the files' rows
// being the same values.
func TestStreamRows(t *testing.T) {
	if testing.Short() {
		t.Skip("two sample.Run calls on 2·10⁵ rows")
	}
	dir := t.TempDir()
	const n = 200_000
	path := streamFile(dir, n)
	if err := WriteStreamData(path, n, nil); err != nil {
		t.Fatal(err)
	}
	x, _, err := logreg.Simulate(n, streamD, dataSeed)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dataset.Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	row := make([]float64, streamD+1)
	for _, i := range []int{0, 65535, 65536, n - 1} {
		if err := f.Read(row, []int{i}); err != nil {
			t.Fatal(err)
		}
		for j, v := range x.Row(i) {
			if row[j] != float64(float32(v)) {
				t.Fatalf("row %d value %d: %v, want %v", i, j, row[j], float32(v))
			}
		}
		if row[streamD] != x.Y[i] {
			t.Fatalf("row %d: label %v, want %v", i, row[streamD], x.Y[i])
		}
	}
	f.Close()
	if err := WriteStreamParquet(path+".parquet", path, nil); err != nil {
		t.Fatal(err)
	}
	var rows []StreamRow
	for _, st := range []string{"memory", "binary", "parquet"} {
		r, err := StreamCaseRow(context.Background(), Config{Seed: 1}, dir, StreamCase{N: n, Storage: st})
		if err != nil {
			t.Fatal(err)
		}
		if r.MaxMeanErrSD > 0.1 || math.Abs(r.MaxSDRelErr) > 0.1 || r.MaxRHat > 1.01 || len(r.Warnings) > 0 {
			t.Errorf("%s: mean err %.3f sd, sd err %+.3f, R̂ %.4f, warnings %q", st, r.MaxMeanErrSD, r.MaxSDRelErr, r.MaxRHat, r.Warnings)
		}
		rows = append(rows, r)
	}
	if math.Abs(rows[0].MaxMeanErrSD-rows[1].MaxMeanErrSD) > 1e-6 {
		t.Errorf("memory and file rows differ: mean err %v and %v", rows[0].MaxMeanErrSD, rows[1].MaxMeanErrSD)
	}
	// The staged Parquet file holds the binary file's values: the same
	// draws, bit for bit.
	if rows[2].MaxMeanErrSD != rows[1].MaxMeanErrSD || rows[2].MaxSDRelErr != rows[1].MaxSDRelErr || rows[2].StageSeconds <= 0 {
		t.Errorf("parquet row: mean err %v, sd err %v, staged in %v s; the binary row's %v, %v", rows[2].MaxMeanErrSD, rows[2].MaxSDRelErr, rows[2].StageSeconds, rows[1].MaxMeanErrSD, rows[1].MaxSDRelErr)
	}
	if _, err := os.Stat(path + ".laplace.json"); err != nil {
		t.Errorf("no cached reference: %v", err)
	}
}

// TestParseSparse: "sparse:1e7" names the sparse row, and only at 10⁷.
func TestParseSparse(t *testing.T) {
	cs, err := parseStreamCase("sparse:1e7")
	if err != nil || cs != (StreamCase{N: sparseN, Storage: "binary", Model: "sparse"}) {
		t.Errorf("sparse:1e7 parses as %+v, %v", cs, err)
	}
	if _, err := parseStreamCase("sparse:1e6"); err == nil {
		t.Errorf("sparse:1e6 parses: there is one sparse row, at 10⁷")
	}
}

// TestSignedTarget checks the reference's fused target against
// logreg.Model on the same rows: log density differences, gradient and
// Hessian to 1e−10 relative.
func TestSignedTarget(t *testing.T) {
	const d, k, n = 30, 4, 500
	beta := logreg.SimulateSignedBeta(d, k, 1)
	rows := make([]float64, n*(k+1))
	if err := logreg.SimulateSignedChunk(rows, beta, k, 0, 1); err != nil {
		t.Fatal(err)
	}
	rows[3] = 0 // a padded row
	x, err := logreg.SignedData(rows, d, k)
	if err != nil {
		t.Fatal(err)
	}
	m, err := logreg.NewModel(x, 2)
	if err != nil {
		t.Fatal(err)
	}
	st := newSignedTarget(d, k, 0.5)
	if err := st.add(rows); err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-10*(1+math.Abs(want)) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	th0, th1 := make([]float64, d), make([]float64, d)
	for j := range th1 {
		th1[j] = 0.3 * math.Sin(float64(j))
	}
	g, want := make([]float64, d), make([]float64, d)
	lp1 := st.LogPosteriorAndGrad(g, th1)
	near("log density difference", lp1-st.LogPosterior(th0), m.LogPosterior(th1)-m.LogPosterior(th0))
	m.LogPosteriorGrad(want, th1)
	for j := range g {
		near("gradient", g[j], want[j])
	}
	h, hw := mat.NewSymDense(d, nil), mat.NewSymDense(d, nil)
	st.Hessian(h, th1)
	m.Hessian(hw, th1)
	for a := range d {
		for b := a; b < d; b++ {
			near("Hessian", h.At(a, b), hw.At(a, b))
		}
	}
	if err := newSignedTarget(d, k, 1).add([]float64{1, 2, 3, 40, 1}); err == nil {
		t.Error("a code beyond d was accepted")
	}
	if err := newSignedTarget(d, k, 1).add([]float64{1, 2, 3, 4, 0.5}); err == nil {
		t.Error("a label 0.5 was accepted")
	}
}

// TestSparseReference checks the committed reference of the sparse row
// against the standard ComputeSparseReference wrote it to: 10⁴ finite
// means and sds, R̂ ≤ sparseRefMaxRHat and bulk ESS ≥ 1,000 in every
// coordinate, so that
// every mean's MCSE is below 0.04 sd (1/√1000 ≈ 0.032, and a mean's MCSE
// is sd/√ESS) and every sd's below 5 % — small beside the tolerances the
// row is judged by.
func TestSparseReference(t *testing.T) {
	r, name, err := readSparseRef()
	if err != nil {
		t.Fatal(err)
	}
	if r.N != sparseN || r.D != sparseD || r.K != sparseK || r.Seed != sparseSeed || len(r.Mean) != sparseD ||
		len(r.SD) != sparseD || len(r.MCSEMean) != sparseD || len(r.MCSESD) != sparseD {
		t.Fatalf("%s: N %d, d %d, k %d, seed %d, %d means: not the sparse row's", name, r.N, r.D, r.K, r.Seed, len(r.Mean))
	}
	if r.MaxRHat > sparseRefMaxRHat || r.MinESS < 1000 {
		t.Errorf("%s: R̂ %.4f, least ESS %.0f: not converged", name, r.MaxRHat, r.MinESS)
	}
	var worstMean, worstSD float64
	for j := range r.Mean {
		if !(r.SD[j] > 0) || math.IsNaN(r.Mean[j]) || math.IsInf(r.Mean[j], 0) {
			t.Fatalf("%s: coordinate %d: mean %v, sd %v", name, j, r.Mean[j], r.SD[j])
		}
		worstMean = math.Max(worstMean, r.MCSEMean[j]/r.SD[j])
		worstSD = math.Max(worstSD, r.MCSESD[j]/r.SD[j])
	}
	if !(worstMean < 0.04) || !(worstSD < 0.05) {
		t.Errorf("%s: largest MCSE of a mean %.3f sd, of an sd %.3f sd: want < 0.04 and 0.05", name, worstMean, worstSD)
	}
	t.Logf("%s: %d × %d draws, acceptance %.3f, least ESS %.0f, R̂ ≤ %.4f; MCSE ≤ %.3f sd (means), %.3f (sds)",
		name, r.Chains, r.Draws, r.AcceptRate, r.MinESS, r.MaxRHat, worstMean, worstSD)
}
