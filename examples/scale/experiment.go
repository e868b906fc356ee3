// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"text/tabwriter"
	"time"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/cputime"
	"github.com/sgmcmc-go/sgmcmc/internal/refmcmc"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// Method names of the rows.
const (
	MethodSample    = "Sample"
	MethodPlain     = "Sample-noCV" // sample.Run with PlainMinibatch
	MethodReference = "reference"   // internal/refmcmc, full batch
)

// Row is one line of the table and of the JSON output. A log-density
// evaluation of one datum counts as one evaluation in GradEvals for the
// reference sampler, as a per-datum gradient does for sample.Run.
type Row struct {
	N      int    `json:"n"`
	D      int    `json:"d"`
	Data   string `json:"data"` // "simulated" or "a9a"
	Method string `json:"method"`
	// Draws is the number of draws per chain.
	Draws int `json:"draws"`
	// Batch is the largest minibatch size of the chains (N for the
	// reference sampler).
	Batch int `json:"batch"`
	// SetupPasses is the largest number of full-data passes a chain's own
	// warmup spent on its control-variate centre beyond the run's shared
	// search (sample.Result.SetupPasses counts both; the Newton passes for
	// the reference sampler).
	SetupPasses int `json:"setup_passes"`
	// GradEvals is the number of per-datum gradient evaluations, warmup
	// included, setup passes excluded (N per log-density evaluation for
	// the reference sampler).
	GradEvals int64 `json:"grad_evals"`
	// SetupEvals are the setup passes' evaluations (the shared search's
	// and the chains' own, × N), not counted in GradEvals.
	SetupEvals int64 `json:"setup_evals"`
	// MinESSBulk is the smallest bulk ESS over the coefficients.
	MinESSBulk float64 `json:"min_ess_bulk"`
	// EvalsPerESS is GradEvals / MinESSBulk.
	EvalsPerESS float64 `json:"evals_per_ess"`
	// CPUSeconds is the process CPU time of the row; Seconds its wall time.
	CPUSeconds float64 `json:"cpu_s"`
	Seconds    float64 `json:"seconds"`
	// MaxMeanErrSD and MaxSDRelErr compare the draws with the reference:
	// max_j |mean_j − ref_j|/refSD_j and the signed sd_j/refSD_j − 1 of
	// largest magnitude. Null where there is no reference.
	MaxMeanErrSD *float64 `json:"max_mean_err_sd"`
	MaxSDRelErr  *float64 `json:"max_sd_rel_err"`
	// MaxRHat is the largest R̂ over the coefficients.
	MaxRHat float64 `json:"max_rhat"`
	// Warnings are sample.Run's (none for the reference sampler).
	Warnings []string `json:"warnings"`
	// Acceptance is the reference sampler's acceptance rate; null for
	// Sample.
	Acceptance *float64 `json:"acceptance"`
}

// Experiment runs every row of c: sample.Run on every case, and on the cases
// whose comparison rows are planned, sample.Run without control variates and
// the reference sampler.
func Experiment(ctx context.Context, c Config) ([]Row, error) {
	var rows []Row
	dir := c.RefDir
	if dir == "" {
		var err error
		if dir, err = refDir(); err != nil {
			return nil, err
		}
	}
	draws := c.Draws
	if draws == 0 {
		draws = 1000
	}
	for _, p := range c.plan() {
		cs := p.Case
		m, err := Load(&cs, c.DataDir)
		if err != nil {
			return rows, err
		}
		ref, err := ReadReference(dir, cs)
		if err != nil {
			return rows, err
		}
		if ref == nil && cs.N < 10000000 {
			c.logf("scale: %s: no cached reference, computing one (%d×%d draws; -reference caches it)", cs.Name(), refChains, refDraws(cs))
			if ref, _, err = ComputeReference(ctx, cs, m, refDraws(cs), c.Seed); err != nil {
				return rows, fmt.Errorf("%s: reference: %w", cs.Name(), err)
			}
		}
		methods := []string{MethodSample}
		if p.compare {
			methods = append(methods, MethodPlain, MethodReference)
		}
		for _, meth := range methods {
			var r Row
			var err error
			if meth == MethodReference {
				r, err = referenceRow(ctx, cs, m, ref, draws, c.Seed)
			} else {
				nd := draws
				if meth == MethodPlain && c.Draws == 0 {
					// A quarter of the draws: its cost per effective draw
					// is a rate, which 4×250 draws measure, and 4×1,000 at
					// N = 10⁵ would take most of the run's time budget.
					nd = draws / 4
				}
				r, err = sampleRow(ctx, cs, m, ref, meth == MethodPlain, nd, c.Seed)
			}
			if err != nil {
				return rows, fmt.Errorf("%s %s: %w", cs.Name(), meth, err)
			}
			c.logf("scale: %-14s %-11s batch %7d, setup %2d passes, %.3g evals, ESS %5.0f, %8.0f evals/ESS, %6.1f CPU s, mean err %s sd, sd err %s, R̂ %.4f, %d warnings",
				cs.Name(), meth, r.Batch, r.SetupPasses, float64(r.GradEvals), r.MinESSBulk, r.EvalsPerESS, r.CPUSeconds,
				num(r.MaxMeanErrSD, "%.3f"), num(r.MaxSDRelErr, "%+.3f"), r.MaxRHat, len(r.Warnings))
			rows = append(rows, r)
		}
	}
	return rows, nil
}

func (c Config) logf(format string, a ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", a...)
	}
}

// num formats a nullable number.
func num(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

// newRow starts a case's row.
func newRow(cs Case, method string) Row {
	r := Row{N: cs.N, D: cs.D, Data: "simulated", Method: method, Warnings: []string{}}
	if cs.A9A {
		r.Data = "a9a"
	}
	return r
}

// compare fills in the row's accuracy against ref, if there is one.
func (r *Row) compare(ref *Reference, mean, sd []float64) {
	if ref == nil {
		return
	}
	me, se := Compare(ref, mean, sd)
	r.MaxMeanErrSD, r.MaxSDRelErr = &me, &se
}

// sampleRow runs sample.Run with its defaults (and PlainMinibatch if
// plain) from θ = 0.
func sampleRow(ctx context.Context, cs Case, m Posterior, ref *Reference, plain bool, draws int, seed uint64) (Row, error) {
	r := newRow(cs, MethodSample)
	r.Draws = draws
	if plain {
		r.Method = MethodPlain
	}
	s := &sample.Settings{Seed: seed, PlainMinibatch: plain}
	if draws != 1000 {
		s.Draws = draws
	}
	start := time.Now()
	cpu0, _ := cputime.Process()
	res, err := sample.Run(ctx, sample.Problem{Model: m, Names: diagnostics.IndexedNames("beta", m.Dim())}, make([]float64, m.Dim()), s, nil)
	if err != nil {
		return r, err
	}
	cpu1, _ := cputime.Process()
	r.Seconds, r.CPUSeconds = time.Since(start).Seconds(), (cpu1 - cpu0).Seconds()
	for _, a := range res.Adapted {
		r.Batch = max(r.Batch, a.BatchSize)
		r.SetupPasses = max(r.SetupPasses, a.SetupPasses)
	}
	r.GradEvals = res.WarmupGradEvals + res.SamplingGradEvals
	r.SetupEvals = res.SetupGradEvals
	mean, sd, minESS, maxRHat, _ := summarize(res, m.Dim())
	r.MinESSBulk, r.MaxRHat = minESS, maxRHat
	r.EvalsPerESS = float64(r.GradEvals) / r.MinESSBulk
	r.compare(ref, mean, sd)
	r.Warnings = append(r.Warnings, res.Warnings.Messages()...)
	return r, nil
}

// referenceRow runs the reference sampler as sample.Run runs: refChains chains
// of draws each, and compares it with the cached reference.
func referenceRow(ctx context.Context, cs Case, m Posterior, ref *Reference, draws int, seed uint64) (Row, error) {
	r := newRow(cs, MethodReference)
	r.Draws = draws
	start := time.Now()
	cpu0, _ := cputime.Process()
	lap, err := refmcmc.FindMode(m, nil)
	if err != nil {
		return r, err
	}
	// Another stream than the cached reference's, which it is checked
	// against.
	res, err := refmcmc.Run(ctx, m, lap, &refmcmc.Settings{Chains: refChains, Draws: draws, Seed: seed + 1000})
	if err != nil {
		return r, err
	}
	mo, err := refmcmc.NewMoments(res.Chains)
	if err != nil {
		return r, err
	}
	cpu1, _ := cputime.Process()
	r.Seconds, r.CPUSeconds = time.Since(start).Seconds(), (cpu1 - cpu0).Seconds()
	r.Batch, r.SetupPasses = m.Len(), lap.Passes
	r.GradEvals = res.Evals * int64(m.Len())
	r.MinESSBulk, r.MaxRHat = mo.MinESS(), mo.MaxRHat()
	r.EvalsPerESS = float64(r.GradEvals) / r.MinESSBulk
	a := res.AcceptRate()
	r.Acceptance = &a
	r.compare(ref, mo.Mean, mo.SD)
	return r, nil
}

// writeTable writes the rows as an aligned table.
func writeTable(w io.Writer, rows []Row) error {
	fmt.Fprintln(w, "Bayesian logistic regression at scale: sgmcmc.Sample with its defaults (with and without control variates) and the exact full-batch reference sampler.")
	fmt.Fprintln(w, "Accuracy against the cached reference; goal: mean within 0.1 sd, sd within 10 %, R̂ ≤ 1.01, no warnings.")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "data\tN\td\tmethod\tbatch\tsetup passes\tgrad evals\tmin ESS\tevals/ESS\tCPU s\tCPU ms/ESS\tmean err (sd)\tsd err\tmax R̂\twarnings\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%d\t%.3g\t%.0f\t%.0f\t%.1f\t%.3g\t%s\t%s\t%.4f\t%d\t\n",
			r.Data, r.N, r.D, r.Method, r.Batch, r.SetupPasses, float64(r.GradEvals), r.MinESSBulk, r.EvalsPerESS,
			r.CPUSeconds, 1000*r.CPUSeconds/r.MinESSBulk, num(r.MaxMeanErrSD, "%.3f"), num(r.MaxSDRelErr, "%+.3f"), r.MaxRHat, len(r.Warnings))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		for _, s := range r.Warnings {
			fmt.Fprintf(w, "%s %s: %s\n", r.Data, r.Method, s)
		}
	}
	return nil
}

// writeFloats writes v as little-endian float64s.
func writeFloats(file string, v []float64) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	var b [8]byte
	for _, x := range v {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		bw.Write(b[:])
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
