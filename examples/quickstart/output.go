// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/sgmcmc-go/sgmcmc/internal/datadir"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/plots"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// findData returns the directory holding a9a and a9a.t: the repository's
// testdata/a9a (see datadir.Find).
func findData() (string, error) {
	return datadir.Find("testdata/a9a", hasA9A)
}

// hasA9A reports whether dir holds the LIBSVM files a9a and a9a.t.
func hasA9A(dir string) bool {
	for _, f := range []string{"a9a", "a9a.t"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// writeCSV writes each sampler's chains as dir/<sampler>-<chain>.csv
// (chains numbered from 1, as CmdStan does), with the log posterior as lp__,
// and dir/summary.json: {sampler: {parameter: summary}}, the summary's keys
// those of posterior's summarise_draws (mean, sd, rhat, ess_bulk, ess_tail,
// mcse_mean, mad, q5, median, q95, rhat_bulk, rhat_tail).
func writeCSV(dir string, p *Problem, res []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	lps := logPosteriors(p, res)
	summary := make(map[string]map[string]diagnostics.Summary, len(res))
	for s, r := range res {
		for k, ch := range r.Chains {
			c := &stancsv.Chain{
				Comments:   append(append([]stancsv.Comment(nil), r.Comments...), stancsv.Comment{Key: "chain", Value: strconv.Itoa(k + 1)}),
				Names:      p.Names,
				Draws:      ch.Draws,
				LogDensity: lps[s][k],
				StepSize:   ch.Eps,
			}
			if err := stancsv.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.csv", r.Sampler, k+1)), c); err != nil {
				return err
			}
		}
		m := make(map[string]diagnostics.Summary, len(r.Summary))
		for _, row := range r.Summary {
			m[row.Name] = row.Summary
		}
		summary[r.Sampler] = m
	}
	b, err := json.MarshalIndent(summary, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), append(b, '\n'), 0o644)
}

// logPosteriors returns the log posterior of every draw, lp[s][k][i] for
// draw i of chain k of res[s], computed on GOMAXPROCS goroutines (each is a
// pass over the training data).
func logPosteriors(p *Problem, res []Result) [][][]float64 {
	lp := make([][][]float64, len(res))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for s, r := range res {
		lp[s] = make([][]float64, len(r.Chains))
		for k, ch := range r.Chains {
			lp[s][k] = make([]float64, ch.Len())
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				for i := range lp[s][k] {
					lp[s][k][i] = p.Model.LogPosterior(ch.At(i))
				}
			})
		}
	}
	wg.Wait()
	return lp
}

// writePlots writes dir/<sampler>-trace.png and dir/<sampler>-rank.png, the
// trace and rank plots of the coordinates p.Show.
func writePlots(dir string, p *Problem, res []Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range res {
		what := fmt.Sprintf("%s on a9a, %d chains of %d draws", r.Sampler, len(r.Chains), r.Chains[0].Len())
		err := plots.SaveTrace(filepath.Join(dir, r.Sampler+"-trace.png"), p.Names, r.Chains,
			&plots.Options{Title: "Trace plots: " + what, Params: p.Show})
		if err != nil {
			return err
		}
		err = plots.SaveRank(filepath.Join(dir, r.Sampler+"-rank.png"), p.Names, r.Chains,
			&plots.Options{Title: "Rank plots: " + what + " (flat when the chains agree)", Params: p.Show})
		if err != nil {
			return err
		}
	}
	return nil
}
