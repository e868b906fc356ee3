// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// posteriorScript reads the CSV files of one run as the R user would, and
// prints posterior's summary of every parameter at full precision.
const posteriorScript = `
suppressMessages(library(posterior))
files <- sort(commandArgs(TRUE))
d <- do.call(rbind, lapply(seq_along(files), function(i) {
  x <- read.csv(files[i], comment.char = "#", check.names = FALSE); x$.chain <- i; x }))
dr <- as_draws_df(d)
vars <- setdiff(variables(dr), c("lp__", "stepsize__", "divergent__"))
sm <- summarise_draws(subset_draws(dr, variable = vars),
  "mean", "median", "sd", "mad", "mcse_mean", ~quantile2(.x, probs = c(0.05, 0.95)),
  "rhat", "ess_bulk", "ess_tail")
sm <- as.data.frame(lapply(as.data.frame(sm), function(x)
  if (is.numeric(x)) sprintf("%.17g", x) else as.character(x)))
write.csv(sm, stdout(), row.names = FALSE, quote = FALSE)
`

// needPosterior skips the test unless Rscript and R's posterior package
// are installed.
func needPosterior(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the comparison with R's posterior package is skipped")
	}
	rscript, err := exec.LookPath("Rscript")
	if err != nil {
		t.Skip("Rscript not found, so the files are not checked against R's posterior package (apt-get install -y r-cran-posterior)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, rscript, "-e", "library(posterior)").CombinedOutput(); err != nil {
		t.Skipf("R's posterior package is not installed (apt-get install -y r-cran-posterior): %v: %s", err, out)
	}
	return rscript
}

// testChains returns 4 chains of 400 draws of parameters that exercise the
// summaries: AR(1) draws, heavy tails, a chain stuck apart (R̂ > 1), ties,
// a tiny scale, and large values.
func testChains() []*stancsv.Chain {
	rng := rand.New(rand.NewPCG(7, 8))
	const m, n = 4, 400
	names := []string{"mu", "tau", "stuck", "count", "tiny", "big.1", "big.2"}
	d := len(names)
	chains := make([]*stancsv.Chain, m)
	for c := range chains {
		ch := &stancsv.Chain{
			Comments:   []stancsv.Comment{{"sampler", "test"}, {"chain", strconv.Itoa(c + 1)}},
			Names:      names,
			Draws:      make([]float64, n*d),
			LogDensity: make([]float64, n),
			StepSize:   make([]float64, n),
		}
		ar := rng.NormFloat64()
		for i := range n {
			x := ch.At(i)
			ar = 0.7*ar + math.Sqrt(1-0.49)*rng.NormFloat64()
			x[0] = ar
			x[1] = rng.NormFloat64() / rng.NormFloat64() // Cauchy
			x[2] = rng.NormFloat64()
			if c == 3 {
				x[2] += 1
			}
			x[3] = math.Floor(6 * rng.Float64() * rng.Float64())
			x[4] = 1e-9 * (rng.NormFloat64() + 1)
			x[5] = 1e6 + rng.ExpFloat64()
			x[6] = -ar*1e3 + rng.NormFloat64()
			ch.LogDensity[i] = -0.5 * ar * ar
			ch.StepSize[i] = 1e-3
		}
		chains[c] = ch
	}
	return chains
}

// TestPosterior writes a run with this package, reads it back with R's
// posterior package and checks that R's summary agrees with
// diagnostics.NewTable's to 1e-9 (relative to the value, or to the sd for the location
// measures), stricter than the 1e-6 the ecosystem promises.
func TestPosterior(t *testing.T) {
	rscript := needPosterior(t)
	dir := t.TempDir()
	chains := testChains()
	var files []string
	for c, ch := range chains {
		f := filepath.Join(dir, fmt.Sprintf("test-%d.csv", c+1))
		if err := stancsv.WriteFile(f, ch); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	read, err := stancsv.ReadFiles(files...)
	if err != nil {
		t.Fatal(err)
	}
	table, err := diagnostics.NewTable(read[0].Names, read)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", table)
	script := filepath.Join(dir, "summary.R")
	if err := os.WriteFile(script, []byte(posteriorScript), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, rscript, append([]string{script}, files...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Rscript: %v: %s", err, stderr.String())
	}
	recs, err := csv.NewReader(strings.NewReader(string(out))).ReadAll()
	if err != nil {
		t.Fatalf("R's output: %v:\n%s", err, out)
	}
	if len(recs) != len(table)+1 {
		t.Fatalf("R summarised %d parameters, want %d:\n%s", len(recs)-1, len(table), out)
	}
	col := map[string]int{}
	for k, h := range recs[0] {
		col[h] = k
	}
	var worst float64
	var compared int
	for _, rec := range recs[1:] {
		name := rec[col["variable"]]
		row, ok := table.Lookup(name)
		if !ok {
			t.Errorf("R names %q, the table does not", name)
			continue
		}
		for key, lib := range map[string]float64{
			"mean": row.Mean, "median": row.Median, "sd": row.SD, "mad": row.MAD, "mcse_mean": row.MCSEMean,
			"q5": row.Q5, "q95": row.Q95, "rhat": row.RHat, "ess_bulk": row.ESSBulk, "ess_tail": row.ESSTail,
		} {
			k, ok := col[key]
			if !ok {
				t.Fatalf("R's summary lacks %q: %v", key, recs[0])
			}
			r, err := strconv.ParseFloat(rec[k], 64)
			if err != nil {
				t.Fatalf("%s %s: %v", name, key, err)
			}
			scale := math.Abs(r)
			switch key {
			case "mean", "median", "q5", "q95":
				scale = math.Max(scale, row.SD)
			}
			diff := math.Abs(r-lib) / scale
			worst = math.Max(worst, diff)
			compared++
			if !(diff <= 1e-9) {
				t.Errorf("%s %s: R's posterior %.10g, library %.10g (relative difference %.2g)", name, key, r, lib, diff)
			}
		}
	}
	t.Logf("%d figures compared with R's posterior; largest relative difference %.2g", compared, worst)
	if r, _ := table.Lookup("stuck"); !(r.RHat > 1.05) {
		t.Errorf("stuck chain: R̂ = %v, want > 1.05 (the test would not see a wrong R̂)", r.RHat)
	}
}
