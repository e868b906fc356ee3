// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

func main() {
	c := Config{Batch: 500}
	dir := flag.String("data", "", "directory holding the LIBSVM files a9a and a9a.t (default: the repository's testdata/a9a)")
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout instead of the tables")
	csvDir := flag.String("csv", "", "write each sampler's chains as CmdStan-style `DIR`/<sampler>-<chain>.csv and DIR/summary.json")
	plotDir := flag.String("plot", "", "write trace and rank plots as `DIR`/<sampler>-trace.png and DIR/<sampler>-rank.png")
	flag.Uint64Var(&c.Seed, "seed", 1, "random seed")
	flag.IntVar(&c.Chains, "chains", 4, "chains per sampler")
	flag.IntVar(&c.Steps, "steps", 30000, "steps per chain, burn-in included")
	flag.IntVar(&c.Draws, "draws", 200, "draws kept per chain")
	flag.BoolVar(&c.Zero, "zero", false, "start the chains at θ = 0 instead of the posterior mode")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o := output{w: os.Stdout, json: *asJSON, csv: *csvDir, plot: *plotDir}
	if err := run(ctx, *dir, c, o); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// output says what run prints and writes.
type output struct {
	w         io.Writer
	json      bool   // one JSON object instead of the tables
	csv, plot string // directories for CSV files and plots, if not empty
}

func run(ctx context.Context, dir string, c Config, o output) error {
	if dir == "" {
		var err error
		if dir, err = findData(); err != nil {
			return err
		}
	}
	p, err := Load(dir)
	if err != nil {
		return err
	}
	res, err := Sample(ctx, p, c)
	if err != nil {
		return err
	}
	if o.csv != "" {
		if err := writeCSV(o.csv, p, res); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := writePlots(o.plot, p, res); err != nil {
			return err
		}
	}
	w := o.w
	if o.json {
		rows := make([]Row, len(res))
		for i, r := range res {
			rows[i] = r.Row
		}
		return json.NewEncoder(w).Encode(struct {
			Rows []Row `json:"rows"`
		}{rows})
	}
	fmt.Fprintf(w, "Bayesian logistic regression on a9a: N = %d, %d test rows, d = %d, %d chains per sampler.\n",
		p.Train.Rows(), p.Test.Rows(), p.Model.Dim(), res[0].ChainCount)
	fmt.Fprintf(w, "Sample: every setting adapted in warmup from θ = 0 (%s).\n", res[0].Note)
	fmt.Fprintf(w, "The others: settings tuned by hand, started at the mode, minibatch %d, %d steps per chain.\n\n", c.Batch, res[len(res)-1].Steps)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "sampler\tsteps/s\ttest accuracy\ttest log-lik\tper-draw log-lik\tmax R̂\tmin ESS bulk\tmin ESS tail\t")
	for _, r := range res {
		fmt.Fprintf(tw, "%s\t%.0f\t%.4f\t%.4f\t%.4f\t%.3f\t%.0f\t%.0f\t\n",
			r.Sampler, float64(r.Steps)/r.Seconds, r.Accuracy, r.LogLik, r.DrawLogLik, r.RHatMax, r.ESSBulkMin, r.ESSTailMin)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, `
steps/s: steps per second of one chain
test log-lik: mean log predictive density of the test set (posterior: about −0.324)
per-draw log-lik: mean test log likelihood of one draw (posterior: about −0.326)
max R̂, min ESS: worst over the %d coordinates; R̂ below 1.01 and ESS above 400 (of %d draws) mean the
  chains agree and the summaries are accurate (Vehtari et al. 2021)

Posterior summaries of the stiffest, a middling and the softest coefficient (by curvature at the mode)
and of the bias alpha; -csv DIR writes all %d to DIR/summary.json.
`, p.Model.Dim(), res[0].ChainCount*c.Draws, p.Model.Dim())
	// Say in words which rows are not the posterior.
	var unmixed []string
	for _, r := range res {
		if !(r.RHatMax <= 1.01) || !(r.ESSBulkMin >= 400) {
			unmixed = append(unmixed, r.Sampler)
		}
	}
	if len(unmixed) > 0 {
		fmt.Fprintf(w, `
WARNING: %s: R̂ above 1.01 or bulk ESS below 400. These chains have not
  mixed: their summaries below (their sds most of all) are not the posterior's;
  run far longer, or use Sample.
`, strings.Join(unmixed, ", "))
	}
	for _, r := range res {
		shown := make(diagnostics.Table, len(p.Show))
		for k, j := range p.Show {
			shown[k] = r.Summary[j]
		}
		fmt.Fprintf(w, "\n%s\n", r.Sampler)
		if _, err := shown.WriteTo(w); err != nil {
			return err
		}
	}
	return nil
}
