// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

func loadTest(t *testing.T) (boston, diabetes *Data) {
	t.Helper()
	dir, err := DataDir("")
	if err != nil {
		t.Fatal(err)
	}
	if boston, err = LoadBoston(filepath.Join(dir, "boston.csv")); err != nil {
		t.Fatal(err)
	}
	if diabetes, err = LoadDiabetes(filepath.Join(dir, "diabetes_raw.txt"), filepath.Join(dir, "diabetes_target.txt")); err != nil {
		t.Fatal(err)
	}
	return boston, diabetes
}

func fullProblem(t *testing.T, d *Data) *Problem {
	t.Helper()
	des, err := NewDesign(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := NewProblem(des)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func TestLoad(t *testing.T) {
	b, d := loadTest(t)
	if b.N != 506 || b.P != 13 || d.N != 442 || d.P != 10 {
		t.Fatalf("boston %d×%d, diabetes %d×%d; want 506×13 and 442×10", b.N, b.P, d.N, d.P)
	}
	if b.Names[11] != "B" || b.Y[0] != 24 || d.Y[0] != 151 {
		t.Errorf("unexpected contents: boston names %v, y₀ %g; diabetes y₀ %g", b.Names, b.Y[0], d.Y[0])
	}
	nb, err := b.Drop("B")
	if err != nil {
		t.Fatal(err)
	}
	if nb.P != 12 || nb.Row(0)[11] != 4.98 {
		t.Errorf("dropping B: %d predictors, row 0 ends %g, want 12 and LSTAT 4.98", nb.P, nb.Row(0)[11])
	}
}

// TestBadInput checks that malformed files name the file and the line, and
// that a λ that is not positive is an error everywhere it enters.
func TestBadInput(t *testing.T) {
	const head = "3,2,\n\"a\",\"b\",\"y\"\n"
	for _, tc := range []struct{ name, text, want string }{
		{"fields", head + "1,2,3\n4,5\n6,7,8\n", "boston.csv:4:"},
		{"number", head + "1,2,3\n4,x,6\n", "boston.csv:4:"},
		{"nan", head + "1,NaN,3\n", "boston.csv:3:"},
		{"count", head + "1,2,3\n", "1 rows"},
		{"header", "x,2\n", "boston.csv:1:"},
		{"names", "3,2\n\"a\",\"y\"\n", "boston.csv:2:"},
	} {
		t.Run("boston "+tc.name, func(t *testing.T) {
			_, err := readBoston(strings.NewReader(tc.text), "boston.csv")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	row := "1 2 3 4 5 6 7 8 9 10\n"
	for _, tc := range []struct{ name, raw, target, want string }{
		{"fields", row + "1 2 3\n", "1\n2\n", "raw.txt:2:"},
		{"number", row + strings.Replace(row, "7", "seven", 1), "1\n2\n", "raw.txt:2:"},
		{"target", row, "1 2\n", "target.txt:1:"},
		{"mismatch", row + row, "1\n", "raw.txt has 2 rows"},
	} {
		t.Run("diabetes "+tc.name, func(t *testing.T) {
			_, err := readDiabetes(strings.NewReader(tc.raw), "raw.txt", strings.NewReader(tc.target), "target.txt")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := LoadBoston(filepath.Join(t.TempDir(), "missing.csv")); err == nil {
		t.Error("missing file: no error")
	}

	_, d := loadTest(t)
	pr := fullProblem(t, d)
	for _, lam := range []float64{0, -0.237, math.NaN(), math.Inf(1)} {
		if _, err := newLassoModel(pr, lam, 1, Dense); err == nil {
			t.Errorf("newLassoModel(λ = %g): no error", lam)
		}
		if _, err := newHierModel(pr, lam, Dense); err == nil {
			t.Errorf("newHierModel(λ = %g): no error", lam)
		}
		if _, err := NewGibbs(pr, lam, 0, rand.NewPCG(1, 1)); err == nil {
			t.Errorf("NewGibbs(λ = %g): no error", lam)
		}
		c := DefaultConfig()
		c.DiabetesLambda = lam
		if c.Validate() == nil {
			t.Errorf("Config with diabetes λ = %g: no error", lam)
		}
		c = DefaultConfig()
		c.PathLambdas = []float64{1, lam}
		if c.Validate() == nil {
			t.Errorf("Config with path λ = %g: no error", lam)
		}
	}
	c := DefaultConfig()
	c.BostonLambda = -1
	if c.Validate() == nil {
		t.Error("Config with Boston λ = −1: no error")
	}
}

// TestGradients checks every model's gradients against finite differences
// of its log density, in both preconditioners, and the rotated model
// against the model it rotates.
func TestGradients(t *testing.T) {
	b, d := loadTest(t)
	for _, data := range []*Data{b, d} {
		pr := fullProblem(t, data)
		for _, k := range []Precond{Dense, Diag} {
			blr, err := newBLRModel(pr, float64(pr.N), 1/pr.Sigma2, k)
			if err != nil {
				t.Fatal(err)
			}
			lasso, err := newLassoModel(pr, 0.3/math.Sqrt(pr.Sigma2), 1/pr.Sigma2, k)
			if err != nil {
				t.Fatal(err)
			}
			hier, err := newHierModel(pr, 0.237, k)
			if err != nil {
				t.Fatal(err)
			}
			// A point near the posterior, away from the lasso's kinks.
			theta := make([]float64, pr.P)
			beta := append([]float64(nil), pr.OLS...)
			for j := range beta {
				beta[j] *= 0.9
			}
			blr.Theta(theta, beta)
			hth := make([]float64, pr.P+1)
			hier.FromParams(hth, append(beta, 1.1*pr.Sigma2))
			items := []int{0, 7, pr.N - 1}
			for name, tc := range map[string]struct {
				m  sgmcmc.Model
				th []float64
			}{"BLR": {blr, theta}, "lasso": {lasso, theta}, "hierarchical": {hier, hth}} {
				g, err := sgmcmc.CheckModel(tc.m, tc.th, items)
				if err != nil {
					t.Fatal(err)
				}
				if g.RelErr > 1e-6 {
					t.Errorf("%s %s %s: %v", data.Name, k, name, g)
				}
				// The rotated model against finite differences of the
				// original log density at θ = Qφ.
				tg, err := NewTarget(tc.m, tc.th, func(dst, th []float64) { copy(dst, th) })
				if err != nil {
					t.Fatal(err)
				}
				ld := tc.m.(sgmcmc.LogDensity)
				dim := len(tc.th)
				th := make([]float64, dim)
				f := func(phi []float64) float64 {
					tg.Params(th, phi)
					u := ld.LogPrior(th)
					for _, i := range items {
						u += ld.LogLik(th, i)
					}
					return u
				}
				grad := func(dst, phi []float64) {
					clear(dst)
					tg.Model.LogPriorGrad(dst, phi)
					tg.Model.(sgmcmc.BatchModel).LogLikGradBatch(dst, phi, items, 1)
				}
				if g := sgmcmc.CheckGradient(f, grad, tg.Phi0); g.RelErr > 1e-6 {
					t.Errorf("%s %s rotated %s: %v", data.Name, k, name, g)
				}
			}
		}
	}
}

// TestMCEM reproduces Park & Casella's marginal-maximum-likelihood λ for
// the diabetes data, 0.237, which also checks the Gibbs sampler: the EM
// iterates' Monte Carlo spread is about ±0.005.
func TestMCEM(t *testing.T) {
	_, d := loadTest(t)
	lam, err := MCEM(fullProblem(t, d), 40, 1000, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(lam-0.237) > 0.01 {
		t.Errorf("Monte Carlo EM λ = %.4f, want Park & Casella's 0.237 ± 0.01", lam)
	}
}

// checkTol is the tolerance of a mean error (in sds) or a relative sd error
// for draws of the given ESS: four Monte Carlo standard errors plus the
// allowed bias.
func checkTol(ess, bias float64, sd bool) float64 {
	se := 1 / math.Sqrt(ess)
	if sd {
		se /= math.Sqrt2
	}
	return 4*se + bias
}

// TestSGHMCBLR is the claim the acceptance check enforces, on reduced runs:
// SGHMC's draws of the g-prior posterior match the exact posterior on both
// data sets (means within 0.1 sd, sds within 10 %, and within Monte Carlo
// error plus 3 % bias); without B̂ the minibatch noise heats the Boston
// chain far beyond that, so the check can fail.
func TestSGHMCBLR(t *testing.T) {
	b, d := loadTest(t)
	c := &runner{Config: DefaultConfig()}
	m := c.Methods[0]
	draws, cap := 40000, 0.1
	if testing.Short() {
		// Fewer draws, so the Monte Carlo error alone can reach 0.1.
		draws, cap = 3000, 1
	}
	for _, data := range []*Data{b, d} {
		var withB float64
		pr := fullProblem(t, data)
		tg, err := c.blrTarget(pr)
		if err != nil {
			t.Fatal(err)
		}
		ex := pr.GPrior(float64(pr.N), 1/pr.Sigma2)
		for _, noise := range []bool{true, false} {
			if testing.Short() && !noise && data.Name != "boston" {
				continue
			}
			// The same seed with and without B̂: same minibatches and
			// noise draws, so the difference in sd error is the heat.
			m.Noise = noise
			x, err := m.Sample(context.Background(), tg, pr.P, 2000, draws, 11)
			if err != nil {
				t.Fatal(err)
			}
			me, se, _ := Summarize(x, pr.P).Errors(ex.Mean, ex.SD(), nil, pr.P)
			ess := minESS(x, pr.P, pr.P)
			t.Logf("%s B̂ %v: mean err %+.3f sd, sd err %+.1f%%, min ESS %.0f", data.Name, noise, me, 100*se, ess)
			tm, ts := min(checkTol(ess, 0, false), cap), min(checkTol(ess, 0.03, true), cap)
			if noise && (math.Abs(me) > tm || math.Abs(se) > ts) {
				t.Errorf("%s: SGHMC mean err %+.3f sd, sd err %+.1f%%; want within %.3f and %.1f%%", data.Name, me, 100*se, tm, 100*ts)
			}
			if noise {
				withB = se
			} else if data.Name == "boston" && se-withB < 0.15 {
				t.Errorf("boston without B̂: sd err %+.1f%% against %+.1f%% with it; want the minibatch noise's heat (> 15 %% more)", 100*se, 100*withB)
			}
		}
	}
}

// TestLasso checks SGHMC and SGLD on Park & Casella's diabetes lasso
// against the Gibbs reference: posterior medians within Monte Carlo error,
// and the first-order bias the lasso's kink leaves in the sds at a step
// four times the default.
func TestLasso(t *testing.T) {
	_, d := loadTest(t)
	c := &runner{Config: DefaultConfig()}
	pr := fullProblem(t, d)
	ref, err := c.gibbsReference(pr, 0.237, true)
	if err != nil {
		t.Fatal(err)
	}
	draws, methods := 40000, c.Methods
	if testing.Short() {
		draws, methods = 3000, methods[:1]
	}
	for _, m := range methods {
		tg, dim, err := c.lassoTarget(pr, 0.237, true)
		if err != nil {
			t.Fatal(err)
		}
		x, err := m.Sample(context.Background(), tg, dim, 2000, draws, 5)
		if err != nil {
			t.Fatal(err)
		}
		me, se, md := Summarize(x, dim).Errors(ref.Mean, ref.SD, ref.Median, pr.P)
		ess := minESS(x, dim, pr.P)
		t.Logf("%s: mean err %+.3f, median err %+.3f sd, sd err %+.1f%%, min ESS %.0f", m.Name, me, md, 100*se, ess)
		// The median's standard error is about 1.25/√ESS sd.
		if tol := 1.25 * checkTol(ess, 0, false); math.Abs(md) > tol {
			t.Errorf("%s: median err %+.3f sd, want within %.3f", m.Name, md, tol)
		}
		if tol := checkTol(ess, 0.06, true); math.Abs(se) > tol {
			t.Errorf("%s: sd err %+.1f%%, want within %.1f%%", m.Name, 100*se, 100*tol)
		}
	}
	if testing.Short() {
		return
	}
	// At 4ε the kink costs SGHMC about +10 % on the sd of s2, whose
	// posterior straddles zero, while the smooth g-prior posterior is
	// within about 2 %.
	m := c.Methods[0]
	m.Eps *= 4
	tg, dim, err := c.lassoTarget(pr, 0.237, true)
	if err != nil {
		t.Fatal(err)
	}
	x, err := m.Sample(context.Background(), tg, dim, 2000, draws, 5)
	if err != nil {
		t.Fatal(err)
	}
	_, se, _ := Summarize(x, dim).Errors(ref.Mean, ref.SD, ref.Median, pr.P)
	t.Logf("SGHMC at ε = %g: lasso sd err %+.1f%%", m.Eps, 100*se)
	if se < 0.05 {
		t.Errorf("SGHMC at ε = %g on the lasso: sd err %+.1f%%, want the kink's bias (> 5 %%)", m.Eps, 100*se)
	}
}

// TestCV checks the cross-validation claims on 4 fold draws: OLS's Boston
// CV RMSE is near the report's 4.87, BLR's (q = n/(n+1)) follows OLS within
// 0.002 on every draw, dropping B raises OLS's RMSE on the same folds, and
// Boston's fold draws spread by several hundredths.
func TestCV(t *testing.T) {
	cfg := tinyConfig()
	cfg.FoldDraws = 4
	cfg.Methods = nil // the exact rows only
	cfg.PathLambdas, cfg.SweepLambdas = nil, nil
	res, err := Experiment(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ols, blr, nob := res.FoldRMSE["boston/OLS/exact"], res.FoldRMSE["boston/BLR/exact"], res.FoldRMSE["boston-noB/OLS/exact"]
	t.Logf("OLS %.4f, BLR %.4f, OLS without B %.4f", ols, blr, nob)
	var mean, lo, hi float64 = 0, math.Inf(1), math.Inf(-1)
	for r := range ols {
		mean += ols[r] / float64(len(ols))
		lo, hi = min(lo, ols[r]), max(hi, ols[r])
		if math.Abs(blr[r]-ols[r]) > 0.002 {
			t.Errorf("draw %d: BLR %.4f, OLS %.4f", r, blr[r], ols[r])
		}
		if nob[r] <= ols[r] {
			t.Errorf("draw %d: OLS without B %.4f ≤ with B %.4f", r, nob[r], ols[r])
		}
	}
	if mean < 4.75 || mean > 5.0 {
		t.Errorf("OLS CV RMSE %.4f, want about 4.87", mean)
	}
	if hi-lo < 0.02 {
		t.Errorf("OLS CV RMSE spread %.4f over 4 fold draws, want the fold noise (several hundredths)", hi-lo)
	}
}

// tinyConfig is a configuration small enough for tests of the plumbing.
func tinyConfig() Config {
	c := DefaultConfig()
	c.FoldDraws = 1
	c.CheckDraws, c.CheckBurn = 100, 50
	c.CVDraws, c.CVBurn = 20, 20
	c.GibbsCheck, c.GibbsCV = 200, 50
	c.PathLambdas = []float64{0.1, 0.237}
	c.SweepLambdas = []float64{1}
	c.BostonLambda = 0.13
	c.EMIters, c.EMSweeps = 2, 50
	return c
}

// TestOutput checks the -json output (one object {"rows": [...]} with the
// rows and keys the acceptance check needs, reproducible from the seed),
// the tables and the plots on a tiny run.
func TestOutput(t *testing.T) {
	c := tinyConfig()
	var out [2]bytes.Buffer
	var rows [2][]map[string]any
	for i := range out {
		if err := run(context.Background(), &out[i], &bytes.Buffer{}, c, true, ""); err != nil {
			t.Fatal(err)
		}
		var v struct {
			Rows []map[string]any `json:"rows"`
		}
		dec := json.NewDecoder(&out[i])
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if dec.More() {
			t.Fatal("more than one JSON value on stdout")
		}
		for _, r := range v.Rows {
			delete(r, "seconds")
		}
		rows[i] = v.Rows
	}
	a, _ := json.Marshal(rows[0])
	b, _ := json.Marshal(rows[1])
	if !bytes.Equal(a, b) {
		t.Error("two runs with the same seed differ")
	}
	have := map[string]map[string]any{}
	for _, r := range rows[0] {
		for _, k := range []string{"data", "model", "method", "cv_rmse", "cv_rmse_sd"} {
			if _, ok := r[k]; !ok {
				t.Errorf("row %v lacks %q", r, k)
			}
		}
		have[r["data"].(string)+"/"+r["model"].(string)+"/"+r["method"].(string)] = r
	}
	for _, k := range []string{"boston/OLS/exact", "boston/BLR/exact", "boston/BLR/SGHMC", "boston/BLASSO/exact", "boston/BLASSO/SGHMC",
		"diabetes/BLR/SGHMC", "diabetes/BLASSO/exact", "diabetes/BLASSO/SGHMC", "boston-noB/OLS/exact"} {
		if have[k] == nil {
			t.Errorf("no row %s", k)
		}
	}
	for _, k := range []string{"boston/BLR/SGHMC", "diabetes/BLR/SGHMC"} {
		if r := have[k]; r != nil && (r["max_mean_err_sd"] == nil || r["max_sd_rel_err"] == nil) {
			t.Errorf("%s lacks the check against the exact posterior", k)
		}
	}
	var tab bytes.Buffer
	dir := t.TempDir()
	plotDir := dir
	if testing.Short() {
		plotDir = "" // rendering PNGs under -race takes several seconds
	}
	if err := run(context.Background(), &tab, &bytes.Buffer{}, c, false, plotDir); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"OLS", "4.8684", "boston without B", "Gibbs sampler"} {
		if !strings.Contains(tab.String(), s) {
			t.Errorf("table lacks %q", s)
		}
	}
	if testing.Short() {
		return
	}
	for _, f := range []string{"intervals_boston_BLR.png", "intervals_boston_BLASSO.png", "intervals_diabetes_BLR.png",
		"intervals_diabetes_BLASSO.png", "lasso_paths.png", "cv_boston.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 1000 {
			t.Errorf("plot %s missing or empty: %v", f, err)
		}
	}
}
