// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
)

// TestComparePlanted checks that the row flags planted faults in
// otherwise exact illcond100 draws, and names the parameter.
func TestComparePlanted(t *testing.T) {
	p := illcond(t)
	// The first 10 parameters of illcond100 (the faults are planted there;
	// summarising all 100 for every case would only cost time).
	full := loadTarget(t, "illcond100")
	const sub = 10
	tg := &Target{Name: full.Name, Model: full.Model, Names: full.Names[:sub], RefMean: full.RefMean[:sub], RefSD: full.RefSD[:sub],
		Constrain: func(dst, x []float64) { copy(dst, x[:sub]) }}
	const k, n = 4, 1000
	base := exactDraws(t, p.Mean, p.Cov, k, n, 8)
	fresh := func() [][][]float64 {
		out := make([][][]float64, k)
		for c, ch := range base {
			out[c] = make([][]float64, n)
			for i, x := range ch {
				out[c][i] = slices.Clone(x)
			}
		}
		return out
	}
	sd := func(j int) float64 { return math.Sqrt(p.Cov.At(j, j)) }

	// A mean shifted by 0.3 sd in parameter 5.
	dr := fresh()
	for _, ch := range dr {
		for _, x := range ch {
			x[4] += 0.3 * sd(4)
		}
	}
	st, err := Compare(tg, dr)
	if err != nil {
		t.Fatal(err)
	}
	if st.WorstMean != "theta[5]" || math.Abs(st.MaxMeanErrSD-0.3) > 0.1 {
		t.Errorf("mean shifted by 0.3 sd at theta[5]: got %.3f at %s", st.MaxMeanErrSD, st.WorstMean)
	}

	// Deviations from the mean of parameter 7 inflated by 1.3 and of
	// parameter 8 shrunk by 0.75: the signed error of larger magnitude.
	dr = fresh()
	for _, ch := range dr {
		for _, x := range ch {
			x[6] = p.Mean[6] + 1.3*(x[6]-p.Mean[6])
			x[7] = p.Mean[7] + 0.75*(x[7]-p.Mean[7])
		}
	}
	if st, err = Compare(tg, dr); err != nil {
		t.Fatal(err)
	}
	if st.WorstSD != "theta[7]" || math.Abs(st.MaxSDRelErr-0.3) > 0.06 {
		t.Errorf("sd ×1.3 at theta[7], ×0.75 at theta[8]: got %+.3f at %s", st.MaxSDRelErr, st.WorstSD)
	}
	for _, ch := range dr {
		for _, x := range ch {
			x[7] = p.Mean[7] + 0.5/0.75*(x[7]-p.Mean[7])
		}
	}
	if st, err = Compare(tg, dr); err != nil {
		t.Fatal(err)
	}
	if st.WorstSD != "theta[8]" || math.Abs(st.MaxSDRelErr+0.5) > 0.06 {
		t.Errorf("sd ×1.3 at theta[7], ×0.5 at theta[8]: got %+.3f at %s", st.MaxSDRelErr, st.WorstSD)
	}

	// One chain offset by 1 sd in parameter 3: R̂ flags it.
	dr = fresh()
	for _, x := range dr[2] {
		x[2] += sd(2)
	}
	if st, err = Compare(tg, dr); err != nil {
		t.Fatal(err)
	}
	if st.WorstRHat != "theta[3]" || st.MaxRHat < 1.05 {
		t.Errorf("one chain offset by 1 sd at theta[3]: R̂ %.4f at %s", st.MaxRHat, st.WorstRHat)
	}

	// Autocorrelated chains (AR(1), ρ = 0.99, with the exact stationary
	// law): bulk ESS about 4000·(1−ρ)/(1+ρ) = 20, far below the goal.
	dr = fresh()
	const rho = 0.99
	a := math.Sqrt(1 - rho*rho)
	for _, ch := range dr {
		for i := 1; i < len(ch); i++ {
			for j := range ch[i] {
				ch[i][j] = p.Mean[j] + rho*(ch[i-1][j]-p.Mean[j]) + a*(ch[i][j]-p.Mean[j])
			}
		}
	}
	if st, err = Compare(tg, dr); err != nil {
		t.Fatal(err)
	}
	if st.MinESSBulk > 100 {
		t.Errorf("AR(1) chains with ρ = 0.99: min bulk ESS %.0f", st.MinESSBulk)
	}
	r := Row{Target: "illcond100", MaxMeanErrSD: st.MaxMeanErrSD, MaxSDRelErr: st.MaxSDRelErr, MaxRHat: st.MaxRHat, MinESSBulk: st.MinESSBulk}
	if r.Pass() {
		t.Error("Pass accepts ESS", st.MinESSBulk)
	}

	// Non-finite draws and non-finite figures are errors, not rows.
	dr = fresh()
	dr[1][10][3] = math.NaN()
	if _, err := Compare(tg, dr); err == nil || !strings.Contains(err.Error(), "theta[4]") {
		t.Errorf("NaN draw: error %v, want one naming theta[4]", err)
	}
	dr = fresh()
	for c, ch := range dr {
		for _, x := range ch {
			x[0] = float64(c) // each chain constant, chains different: R̂ = +Inf
		}
	}
	// R̂ is +Inf in exact arithmetic; rounding in the rank normalisation
	// can leave a tiny within-chain variance and a huge finite R̂ instead.
	if st, err := Compare(tg, dr); (err == nil && !(st.MaxRHat > 100)) || (err != nil && !strings.Contains(err.Error(), "max_rhat")) {
		t.Errorf("constant, different chains: R̂ %v, error %v; want a huge R̂ or an error naming max_rhat", st.MaxRHat, err)
	}
	zero := *tg
	zero.RefSD = slices.Clone(tg.RefSD)
	zero.RefSD[9] = 0
	if _, err := Compare(&zero, fresh()); err == nil || !strings.Contains(err.Error(), "max_mean_err_sd") {
		t.Errorf("reference sd 0: error %v, want one naming max_mean_err_sd", err)
	}
	if _, err := Compare(tg, fresh()[:2]); err != nil {
		t.Errorf("two chains: %v", err)
	}
	short := fresh()
	short[3] = short[3][:10]
	if _, err := Compare(tg, short); err == nil {
		t.Error("chains of unequal length accepted")
	}
}

// writeZip writes a zip archive holding one member with the given
// contents.
func writeZip(t *testing.T, path, member, contents string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create(member)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(contents)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadFiles checks that broken data and reference files give errors
// naming the file, the member, the line where known, and the problem.
func TestBadFiles(t *testing.T) {
	goodDraws := `[{"beta[1]": [1, 2, 3], "beta[2]": [0.1, 0.2, 0.3], "sigma": [1, 1.1, 0.9]}]`
	goodData := `{"N": 3, "earn": [100, 200, 300], "height": [60, 65, 70]}`
	cases := []struct {
		name        string
		data, draws string // contents; "" means the file is missing; "!zip" a file that is not a zip
		want        []string
	}{
		{"missing data", "", goodDraws, []string{"data.json.zip", "file not found"}},
		{"not a zip", "!zip", goodDraws, []string{"data.json.zip", "not a readable zip archive"}},
		{"syntax", "{\n  \"N\": 3,\n  \"earn\": [100, 200,, 300],\n  \"height\": [1, 2, 3]\n}", goodDraws,
			[]string{"data.json.zip", "earnings.json", "line 3", "invalid JSON"}},
		{"missing field", `{"N": 3, "earn": [100, 200, 300]}`, goodDraws, []string{"earnings.json", `no field "height"`}},
		{"bad N", `{"N": -2, "earn": [], "height": []}`, goodDraws, []string{`"N"`, "positive integer"}},
		{"short vector", `{"N": 3, "earn": [100, 200], "height": [60, 65, 70]}`, goodDraws, []string{`"earn"`, "2 values, want N = 3"}},
		{"log of zero", `{"N": 3, "earn": [100, 0, 300], "height": [60, 65, 70]}`, goodDraws, []string{`"earn"`, "element 2", "> 0"}},
		{"string", "{\"N\": 3,\n\"earn\": [100, 200, 300],\n\"height\": [60, \"tall\", 70]}", goodDraws, []string{`"height"`}},
		{"missing draws", goodData, "", []string{"draws.json.zip", "file not found"}},
		{"draws type", goodData, "[{\"beta[1]\": [1, 2, 3],\n \"beta[2]\": \"x\"}]", []string{"draws.json.zip", "line 2"}},
		{"draws missing parameter", goodData, `[{"beta[1]": [1, 2, 3], "beta[2]": [0.1, 0.2, 0.3]}]`, []string{"draws.json.zip", `no parameter "sigma"`}},
		{"draws unequal", goodData, `[{"beta[1]": [1, 2, 3], "beta[2]": [0.1, 0.2], "sigma": [1, 1.1, 0.9]}]`, []string{`"beta[2]"`, "2 draws"}},
		{"draws no chains", goodData, `[]`, []string{"draws.json.zip", "no chains"}},
		{"negative sigma", goodData, `[{"beta[1]": [1, 2, 3], "beta[2]": [0.1, 0.2, 0.3], "sigma": [1, -1.1, 0.9]}]`, []string{"draws.json.zip", "non-finite"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, earningsSpec.dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct{ file, member, contents string }{
				{dataFile, "earnings.json", c.data},
				{drawsFile, "earnings-logearn_height.json", c.draws},
			} {
				switch f.contents {
				case "":
				case "!zip":
					if err := os.WriteFile(filepath.Join(dir, f.file), []byte("PK not really"), 0o644); err != nil {
						t.Fatal(err)
					}
				default:
					writeZip(t, filepath.Join(dir, f.file), f.member, f.contents)
				}
			}
			_, err := LoadTarget("earnings", root)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	if _, err := LoadTarget("nonesuch", dataDir); err == nil || !strings.Contains(err.Error(), "nonesuch") {
		t.Errorf("unknown target: %v", err)
	}
}

// TestReferenceMatchesPosteriordb checks the references computed from the
// draws against posteriordb's published means (mean_value.json).
func TestReferenceMatchesPosteriordb(t *testing.T) {
	published := map[string][]float64{
		"earnings":          {5.78172359745675, 0.0587723402806799, 0.893956708301234},
		"kidiq":             {25.9165315719362, 0.608628437090334, 18.2758483814245},
		"mesquite":          {5.30991111507012, 0.387176661998672, 0.409639357840118, -0.317463628740241, 0.423455262770221, -0.538554434725468, 0.339394677467625},
		"kidiq_interaction": {-11.3586496255555, 51.0327637998109, 0.967412588207513, -0.481586249179844, 17.9810889299849},
		"hmm":               {0.666645206221172, 0.333354793778828, 0.0731325879701066, 0.926867412029893, 3.02151676707338, 8.82728187141987},
	}
	for name, want := range published {
		tg := loadTarget(t, name)
		for j, w := range want {
			if math.Abs(tg.RefMean[j]-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("%s %s: reference mean %v, posteriordb %v", name, tg.Names[j], tg.RefMean[j], w)
			}
		}
	}
}

// TestCountingModel checks the evaluation counts: one gradient evaluation
// per minibatch gradient, n datum gradients per batch, N datum
// log-likelihoods per potential.
func TestCountingModel(t *testing.T) {
	tg := loadTarget(t, "kidiq")
	cm, err := newCountingModel(tg.Model)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := sgmcmc.NewMinibatch(cm, 10, false, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, cm.Dim())
	for range 7 {
		mb.Grad(g, tg.Start)
	}
	fullpass.Potential(cm, tg.Start)
	var info runInfo
	cm.info(&info)
	if info.Gradients != 7 || info.GradEvals != 70 || info.DatumLogLiks != int64(cm.Len()) {
		t.Errorf("counts %+v, want 7 gradients, 70 datum gradients, %d datum log-likelihoods", info, cm.Len())
	}
	if _, err := newCountingModel(struct{ sgmcmc.Model }{tg.Model}); err == nil {
		t.Error("a model without LogDensity accepted")
	}
}

// TestOutput runs the harness end to end on reduced runs and checks the
// -json output (one object, the exact keys, finite numbers, warnings a
// list), that the same seed gives the same figures, the table and the
// plots.
func TestOutput(t *testing.T) {
	c := DefaultConfig()
	c.DataDir = dataDir
	c.Targets = []string{"kidiq"}
	c.Methods = []string{"SGLD", "HAMCMC"}
	c.Draws = 100
	var out [2]bytes.Buffer
	for i := range out {
		if err := run(context.Background(), &out[i], c, true, ""); err != nil {
			t.Fatal(err)
		}
	}
	// The oracle runner through the same path, on the funnel.
	oc := c
	oc.Oracle, oc.Targets = true, []string{"funnel10"}
	var oracle bytes.Buffer
	if err := run(context.Background(), &oracle, oc, true, ""); err != nil {
		t.Fatal(err)
	}
	var orows struct {
		Rows []Row `json:"rows"`
	}
	if err := json.Unmarshal(oracle.Bytes(), &orows); err != nil || len(orows.Rows) != len(c.Methods) {
		t.Errorf("oracle on funnel10: %d rows (%v)", len(orows.Rows), err)
	}
	dec := json.NewDecoder(bytes.NewReader(out[0].Bytes()))
	var got struct {
		DefaultMethod string           `json:"default_method"`
		Rows          []map[string]any `json:"rows"`
	}
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value on stdout")
	}
	if got.DefaultMethod != defaultMethod {
		t.Errorf("default_method %q, want %q", got.DefaultMethod, defaultMethod)
	}
	keys := []string{"target", "method", "integrator", "seed", "mean_err_over_tol", "max_mean_err_sd", "max_sd_rel_err", "max_rhat", "min_ess_bulk", "divergences", "warnings", "grad_evals", "setup_evals", "seconds", "error"}
	if len(got.Rows) != len(c.Targets)*len(c.Methods) {
		t.Fatalf("%d rows, want %d", len(got.Rows), len(c.Targets)*len(c.Methods))
	}
	var other struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(out[1].Bytes(), &other); err != nil {
		t.Fatal(err)
	}
	for i, r := range got.Rows {
		have := make([]string, 0, len(r))
		for k := range r {
			have = append(have, k)
		}
		slices.Sort(have)
		want := slices.Clone(keys)
		slices.Sort(want)
		if !slices.Equal(have, want) {
			t.Errorf("row %d keys %v, want %v", i, have, want)
		}
		if r["target"] != c.Targets[i/len(c.Methods)] || r["method"] != c.Methods[i%len(c.Methods)] {
			t.Errorf("row %d is %v/%v", i, r["target"], r["method"])
		}
		if r["seed"] != float64(c.Seed) || r["error"] != "" {
			t.Errorf("row %d: seed %v, error %q", i, r["seed"], r["error"])
		}
		for _, k := range []string{"mean_err_over_tol", "max_mean_err_sd", "max_sd_rel_err", "max_rhat", "min_ess_bulk", "grad_evals", "seconds", "divergences"} {
			if _, ok := r[k].(float64); !ok {
				t.Errorf("row %d: %s = %v, not a number", i, k, r[k])
			}
		}
		if _, ok := r["warnings"].([]any); !ok {
			t.Errorf("row %d: warnings = %#v, not a list", i, r["warnings"])
		}
		if ge := r["grad_evals"].(float64); !(ge > 0) {
			t.Errorf("row %d: %v gradient evaluations", i, ge)
		}
		for _, k := range []string{"mean_err_over_tol", "max_mean_err_sd", "max_sd_rel_err", "max_rhat", "min_ess_bulk", "grad_evals"} {
			if r[k] != other.Rows[i][k] {
				t.Errorf("row %d: %s = %v, then %v with the same seed", i, k, r[k], other.Rows[i][k])
			}
		}
	}

	dir := t.TempDir()
	var table bytes.Buffer
	c.Targets, c.Methods, c.Oracle = c.Targets[:1], c.Methods[:1], true
	if err := run(context.Background(), &table, c, false, dir); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"kidiq", "SGLD", "mean err", "gradient evaluations"} {
		if !strings.Contains(table.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, table.String())
		}
	}
	for _, f := range []string{"errors.png", "cost.png"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("plot %s not written: %v", f, err)
		}
	}
	c.Methods = []string{"NUTS"}
	if err := run(context.Background(), &table, c, true, ""); err == nil || !strings.Contains(err.Error(), "NUTS") {
		t.Errorf("unknown method: %v", err)
	}
}

// TestFailedRuns checks that a run that fails is a row with its error
// and does not stop the others or fail the program: without draws its
// figures are null in JSON, with enough draws they are those of the draws
// kept, with a warning.
func TestFailedRuns(t *testing.T) {
	c := DefaultConfig()
	c.DataDir = dataDir
	c.Targets = []string{"kidiq"}
	c.Methods = []string{"SGLD", "SGHMC", "pSGLD"}
	c.Draws = 100
	c.run = func(ctx context.Context, tg *Target, method string, seed uint64, draws int) ([][][]float64, runInfo, error) {
		switch method {
		case "SGHMC":
			return nil, runInfo{}, errors.New("planted failure")
		case "pSGLD":
			chains, info, err := runOracle(ctx, tg, method, seed, draws)
			return chains, info, errors.Join(err, errors.New("planted late failure"))
		}
		return runOracle(ctx, tg, method, seed, draws)
	}
	var table, js bytes.Buffer
	if err := run(context.Background(), &table, c, false, ""); err != nil {
		t.Fatal(err)
	}
	rowsOf := map[string]string{}
	for _, line := range strings.Split(table.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "kidiq" {
			rowsOf[f[1]] = line
		}
	}
	if len(rowsOf) != 3 || !strings.Contains(rowsOf["SGHMC"], "ERROR") || !strings.Contains(rowsOf["SGHMC"], "planted failure") ||
		!strings.Contains(rowsOf["pSGLD"], "planted late failure") || strings.Contains(rowsOf["SGLD"], "ERROR") {
		t.Errorf("table rows %v, want three with the failures named:\n%s", rowsOf, table.String())
	}
	if err := run(context.Background(), &js, c, true, ""); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 3 {
		t.Fatalf("%d rows, want 3", len(got.Rows))
	}
	for i, r := range got.Rows {
		e, _ := r["error"].(string)
		switch r["method"] {
		case "SGLD":
			if e != "" || r["max_rhat"] == nil {
				t.Errorf("row %d: %v", i, r)
			}
		case "SGHMC":
			if !strings.Contains(e, "planted failure") || r["max_rhat"] != nil || r["mean_err_over_tol"] != nil {
				t.Errorf("row %d: error %q, max_rhat %v, mean_err_over_tol %v; want the failure and null figures", i, e, r["max_rhat"], r["mean_err_over_tol"])
			}
		case "pSGLD":
			w, _ := r["warnings"].([]any)
			if !strings.Contains(e, "planted late failure") || r["max_rhat"] == nil || len(w) == 0 {
				t.Errorf("row %d: error %q, max_rhat %v, warnings %v; want the failure, figures and a warning", i, e, r["max_rhat"], w)
			}
		}
	}
}

// TestRunRowFailure checks that a cancelled run is an error, not a row.
func TestRunRowFailure(t *testing.T) {
	tg := loadTarget(t, "kidiq")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, run := range map[string]runner{"Sample": runMethod, "oracle": runOracle} {
		if _, err := RunRow(ctx, run, tg, "SGLD", 1, 100); err == nil {
			t.Errorf("%s: cancelled run gave a row", name)
		}
	}
}

// BenchmarkIllCondGrad measures one minibatch gradient of illcond100 (n =
// 500) through the counting wrapper, with two goroutines sharing it.
func BenchmarkIllCondGrad(b *testing.B) {
	p, err := NewIllCondProblem(IllCondSeed)
	if err != nil {
		b.Fatal(err)
	}
	cm, err := newCountingModel(p.Model)
	if err != nil {
		b.Fatal(err)
	}
	b.SetParallelism(1)
	b.RunParallel(func(pb *testing.PB) {
		mb, _ := sgmcmc.NewMinibatch(cm, 500, false, rand.NewPCG(1, 2))
		g := make([]float64, illD)
		for pb.Next() {
			mb.Grad(g, p.Mean)
		}
	})
}

// TestGradEvalsAgree checks the example's own count of per-datum gradient
// evaluations against sample.Run's Result.GradEvals, and that warmup takes at
// most a third of them at the default number of draws (the issue's
// budget).
func TestGradEvalsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("a full default run of one method")
	}
	tg := loadTarget(t, "kidiq")
	r, err := RunRow(context.Background(), runMethod, tg, "SGLD", 1, tg.Draws)
	if err != nil {
		t.Fatal(err)
	}
	in := r.Info
	t.Logf("%d gradient evaluations counted, Sample says %d (warmup %d); %d minibatch gradients", in.GradEvals, in.SampleGradEvals, in.WarmupGradEvals, in.Gradients)
	// sample.Run counts its gradient check's log-density evaluations with the
	// gradient's (0.01).
	if in.GradEvals+in.DatumLogLiks != in.SampleGradEvals+in.SetupEvals || r.GradEvals != in.GradEvals {
		t.Errorf("counted %d per-datum gradient and %d log-density evaluations, Sample reports %d and %d in its setup passes, the row %d", in.GradEvals, in.DatumLogLiks, in.SampleGradEvals, in.SetupEvals, r.GradEvals)
	}
	if 3*in.WarmupGradEvals > in.SampleGradEvals {
		t.Errorf("warmup used %d of %d gradient evaluations, more than a third", in.WarmupGradEvals, in.SampleGradEvals)
	}
}

// TestWarningSummary: warnings are counted by kind on cells that met the
// goal (false alarms) and on cells that missed it.
func TestWarningSummary(t *testing.T) {
	good := Row{Target: "kidiq", MeanErrOverTol: 0.2, MaxSDRelErr: 0.01, MaxRHat: 1.001, MinESSBulk: 2000}
	alarm := good
	alarm.Warnings = []string{"the chains' warmups settled in 2 separate modes — chains 0, 1 (…); chains 2, 3 (…) — …"}
	bad := good
	bad.MaxRHat = 1.2
	bad.Warnings = []string{"R̂ = 1.200 for x (above 1.01): …", "3 divergent transitions while sampling: …"}
	silent := good
	silent.MaxSDRelErr = 0.5
	s := summariseWarnings([]Row{good, alarm, bad, silent})
	if s.Met != 2 || s.MetWarned != 1 || s.Missed != 2 || s.MissedWarned != 1 {
		t.Errorf("met %d (warned %d), missed %d (warned %d); want 2 (1), 2 (1)", s.Met, s.MetWarned, s.Missed, s.MissedWarned)
	}
	got := map[string][2]int{}
	for _, k := range s.Kinds {
		got[k.Kind] = [2]int{k.OnMet, k.OnMissed}
	}
	if got["warmup modes"] != [2]int{1, 0} || got["R̂"] != [2]int{0, 1} || got["divergences"] != [2]int{0, 1} {
		t.Errorf("by kind: %v", got)
	}
}

// TestCellTime: a cell past Config.CellTime ends as a row whose error says
// so, with the figures of the draws sample.Run kept, and the experiment goes
// on to the next cell; a cancelled experiment still stops.
func TestCellTime(t *testing.T) {
	c := Config{Targets: []string{"kidiq"}, Methods: []string{defaultMethod}, Seeds: []uint64{1, 2}, Draws: 1 << 18, CellTime: 300 * time.Millisecond}
	rows, err := Experiment(context.Background(), c)
	if err != nil {
		t.Fatalf("Experiment: %v", err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	for _, r := range rows {
		if !strings.Contains(r.Error, "time limit for one cell (300ms)") {
			t.Errorf("seed %d: error %q, want the cell's time limit", r.Seed, r.Error)
		}
		if r.Seconds > 30 {
			t.Errorf("seed %d: ran %.1f s past a 0.3 s limit", r.Seed, r.Seconds)
		}
	}
}
