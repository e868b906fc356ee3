// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"
)

func main() {
	c := DefaultConfig()
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout instead of the tables")
	plotDir := flag.String("plot", "", "write the posterior-interval and lasso-path figures as PNG files into this directory")
	flag.StringVar(&c.DataDir, "data", "", "directory with boston.csv, diabetes_raw.txt and diabetes_target.txt (default: testdata/regression of the enclosing repository)")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "master random seed")
	flag.IntVar(&c.FoldDraws, "folddraws", c.FoldDraws, "random K-fold splits per model, the same for every model")
	flag.IntVar(&c.Folds, "folds", c.Folds, "K of K-fold cross-validation")
	flag.IntVar(&c.CheckDraws, "checkdraws", c.CheckDraws, "kept draws of each full-data SG-MCMC run checked against the reference")
	flag.IntVar(&c.CVDraws, "cvdraws", c.CVDraws, "kept draws of each SG-MCMC cross-validation fit")
	flag.Float64Var(&c.G, "g", c.G, "Zellner's g (0: the number of training rows)")
	flag.Float64Var(&c.DiabetesLambda, "lambda", c.DiabetesLambda, "Park & Casella's λ for diabetes (predictors of unit Euclidean norm)")
	flag.Float64Var(&c.BostonLambda, "bostonlambda", c.BostonLambda, "lasso λ for Boston on the same scale (0: Monte Carlo EM estimate)")
	flag.IntVar(&c.Workers, "workers", c.Workers, "fits run at once (0: GOMAXPROCS)")
	study := flag.Bool("stepstudy", false, "instead of the experiment, run each sampler on diabetes at 1, 2 and 4 times its step size, with and without the lasso's kink")
	pstudy := flag.Bool("precondstudy", false, "instead of the experiment, run SGHMC on the g-prior posteriors with the dense and the diagonal preconditioner")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *study || *pstudy {
		f := runStudy
		if *pstudy {
			f = runPrecondStudy
		}
		if err := f(ctx, os.Stdout, c); err != nil {
			fmt.Fprintln(os.Stderr, "regression:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(ctx, os.Stdout, os.Stderr, c, *asJSON, *plotDir); err != nil {
		fmt.Fprintln(os.Stderr, "regression:", err)
		os.Exit(1)
	}
}

// report is the SGHMC report's 5-fold CV RMSE on Boston (Shao & Fu 2019).
var report = map[string]float64{
	"OLS/exact": 4.8684, "BLR/exact": 4.8843, "BLR/SGHMC": 4.8674,
	"BLASSO/exact": 4.6825, "BLASSO/SGHMC": 4.9248,
}

// run runs the experiment and writes the tables, or the JSON object, to w,
// notes to log, and the plots to plotDir unless it is empty.
func run(ctx context.Context, w, log io.Writer, c Config, asJSON bool, plotDir string) error {
	res, err := Experiment(ctx, c)
	if err != nil {
		return err
	}
	if plotDir != "" {
		if err := writePlots(plotDir, c, res); err != nil {
			return err
		}
	}
	if asJSON {
		fmt.Fprintf(log, "regression: %d rows in %.1f s\n", len(res.Rows), res.Seconds)
		return json.NewEncoder(w).Encode(struct {
			Rows []Row `json:"rows"`
		}{res.Rows})
	}
	return writeTables(w, c, res)
}

func writeTables(w io.Writer, c Config, res *Result) error {
	get := func(data, model, method string) *Row {
		for i := range res.Rows {
			r := &res.Rows[i]
			if r.Data == data && r.Model == model && r.Method == method {
				return r
			}
		}
		return nil
	}
	cell := func(r *Row) string {
		if r == nil {
			return "—"
		}
		return fmt.Sprintf("%.4f ± %.3f [%.3f, %.3f]", r.CVRMSE, r.CVRMSESD, r.CVMin, r.CVMax)
	}
	fmt.Fprintf(w, "%d-fold cross-validated RMSE of the posterior-mean prediction: mean ± sd [min, max] over %d random fold draws,\n", c.Folds, c.FoldDraws)
	fmt.Fprintf(w, "the same folds for every model. BLR: g-prior, g = n, ψ = 1/σ̂²(OLS). BLASSO on Boston: the report's fixed ψ and λ√ψ,\n")
	fmt.Fprintf(w, "λ = %.4f (with B) and %.4f (without B) by Park & Casella's Monte Carlo EM; on diabetes: Park & Casella's\n", rowLambda(get("boston", "BLASSO", "exact")), rowLambda(get("boston-noB", "BLASSO", "exact")))
	fmt.Fprintf(w, "hierarchical lasso, λ = %g (their EM value; ours: %.4f). Samplers: %s preconditioner.\n\n", c.DiabetesLambda, res.DiabetesEM, c.Precond)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tmethod\treport\tboston\tboston without B\tdiabetes\t")
	seen := map[string]bool{}
	for _, r := range res.Rows {
		key := r.Model + "/" + r.Method
		if r.Data == "boston-sweep" || seen[key] {
			continue
		}
		seen[key] = true
		rep := "—"
		if v, ok := report[key]; ok {
			rep = fmt.Sprintf("%.4f", v)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Model, r.Method, rep,
			cell(get("boston", r.Model, r.Method)), cell(get("boston-noB", r.Model, r.Method)), cell(get("diabetes", r.Model, r.Method)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if with, without := res.FoldRMSE["boston/OLS/exact"], res.FoldRMSE["boston-noB/OLS/exact"]; len(with) > 0 && len(with) == len(without) {
		diff := make([]float64, len(with))
		for r := range with {
			diff[r] = without[r] - with[r]
		}
		mean, sd := stat.MeanStdDev(diff, nil)
		lo, hi := minMax(diff)
		fmt.Fprintf(w, "\nDropping B raises OLS's CV RMSE by %+.4f ± %.4f [%+.4f, %+.4f] on the same fold draws.\n", mean, sd, lo, hi)
	}

	fmt.Fprintf(w, "\nBoston lasso (Gibbs) against λ, same folds:\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "λ\tCV RMSE\t")
	for _, r := range res.Rows {
		if r.Data == "boston-sweep" {
			fmt.Fprintf(tw, "%g\t%s\t\n", r.Lambda, cell(&r))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nFull-data SG-MCMC runs against the reference posterior (errors over coefficients, signed, worst one):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "data\tmodel\tmethod\tε\tC\tbatch\tsteps\tmean err (sd)\tsd err\tmedian err (sd)\tmin ESS\ts (row)\treference\t")
	for _, r := range res.Rows {
		if r.MaxMeanErrSD == nil {
			continue
		}
		med := "—"
		if r.MaxMedianErrSD != nil {
			med = fmt.Sprintf("%+.3f", *r.MaxMedianErrSD)
		}
		fric := "—"
		if r.Friction > 0 {
			fric = fmt.Sprintf("%g", r.Friction)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%g\t%s\t%d\t%d\t%+.3f\t%+.1f%%\t%s\t%.0f\t%.1f\t%s\t\n", r.Data, r.Model, r.Method, r.Eps, fric, r.Batch, r.Steps,
			*r.MaxMeanErrSD, 100**r.MaxSDRelErr, med, r.MinESS, r.Seconds, r.Reference)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var bad []string
	for _, r := range res.Rows {
		if r.Model == "BLR" && r.Method == "SGHMC" && r.MaxMeanErrSD != nil {
			if abs(*r.MaxMeanErrSD) > 0.1 || abs(*r.MaxSDRelErr) > 0.1 {
				bad = append(bad, r.Data)
			}
		}
	}
	if len(bad) > 0 {
		fmt.Fprintf(w, "\nSGHMC's BLR draws are NOT within 0.1 sd / 10 %% of the exact posterior on: %s\n", strings.Join(bad, ", "))
	} else {
		fmt.Fprintf(w, "\nSGHMC's BLR draws are within 0.1 sd (means) and 10 %% (sds) of the exact posterior on every data set.\n")
	}
	fmt.Fprintf(w, "%.1f s in all\n", res.Seconds)
	return nil
}

// runStudy runs StepStudy and prints its table.
func runStudy(ctx context.Context, w io.Writer, c Config) error {
	rows, err := StepStudy(ctx, c, []float64{1, 2, 4})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Diabetes, full data: worst errors against the exact g-prior posterior (BLR) and the Gibbs reference\n")
	fmt.Fprintf(w, "(BLASSO, Park & Casella, λ = %g) at 1, 2 and 4 times each sampler's step size; %d draws, thinned.\n\n", c.DiabetesLambda, c.CheckDraws)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tmodel\tε\tmean err (sd)\tsd err\tworst sd\tmedian err (sd)\tmin ESS\t")
	for _, r := range rows {
		med := "—"
		if r.Model == "BLASSO" {
			med = fmt.Sprintf("%+.3f", r.MedErr)
		}
		fmt.Fprintf(tw, "%s\t%s\t%g\t%+.3f\t%+.1f%%\t%s\t%s\t%.0f\t\n", r.Method, r.Model, r.Eps, r.MeanErr, 100*r.SDErr, r.WorstSD, med, r.MinESS)
	}
	return tw.Flush()
}

// runPrecondStudy runs PrecondStudy and prints its table.
func runPrecondStudy(ctx context.Context, w io.Writer, c Config) error {
	rows, err := PrecondStudy(ctx, c)
	if err != nil {
		return err
	}
	m := c.Methods[0]
	fmt.Fprintf(w, "%s (ε = %g, C = %g, batch %d, B̂) on the g-prior posteriors, %d draws thinned by %d, against the exact posterior:\n\n",
		m.Name, m.Eps, m.Friction, m.Batch, c.CheckDraws, m.Thin)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "data\tpreconditioner\tmean err (sd)\tsd err\tmin ESS\ts\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%+.3f\t%+.1f%%\t%.0f\t%.1f\t\n", r.Data, r.Precond, r.MeanErr, 100*r.SDErr, r.MinESS, r.Seconds)
	}
	return tw.Flush()
}

func rowLambda(r *Row) float64 {
	if r == nil {
		return 0
	}
	return r.Lambda
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// errNoPlots is returned when there is nothing to plot.
var errNoPlots = errors.New("no posteriors to plot")
