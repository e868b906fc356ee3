// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command larged runs sample.Run with its defaults above DenseMax (issue
// 24, doc/adaptation.md §4–§4.1) on targets with known answers: the
// Gaussian of internal/larged at d = 10³, 10⁴ and 10⁵ (exact posterior
// N(x̄, Σ)) and a sparse logistic regression at d = 10⁴ against a cached
// Metropolis-adjusted reference. Each row runs in a child process, so
// that its peak resident memory (getrusage) is its own.
//
//	go run ./examples/larged           # a table
//	go run ./examples/larged -json     # {"rows": [...]}
//
// A row: max_abs_z_mean is the largest |mean − truth|/MCSE over the
// coordinates (the MCSE from sample.Run's batch means, 50 per chain, pooled
// over the 4 chains; the reference's MCSE folded in where there is one),
// frac_abs_z_over_3 the share above 3, max_mcse_sd the largest MCSE in
// posterior sds, median_sd_rel_err and p99_sd_rel_err the median and 99th
// percentile of |sd/truth − 1|, warnings sample.Run's warnings, seconds the
// wall time of sample.Run (data and reference excluded), warmup_share the
// warmup's share of the gradient evaluations (full passes for the control
// variate's centre counted N each), peak_rss_mb the child's peak RSS.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sgmcmc-go/sgmcmc/internal/cputime"
	"github.com/sgmcmc-go/sgmcmc/internal/larged"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// Row is one line of the output.
type Row struct {
	Target        string   `json:"target"`
	D             int      `json:"d"`
	MaxAbsZ       float64  `json:"max_abs_z_mean"`
	FracZ3        float64  `json:"frac_abs_z_over_3"`
	MaxMCSESD     float64  `json:"max_mcse_sd"`
	MedianSDErr   float64  `json:"median_sd_rel_err"`
	P99SDErr      float64  `json:"p99_sd_rel_err"`
	Warnings      []string `json:"warnings"`
	Seconds       float64  `json:"seconds"`
	CPUSeconds    float64  `json:"cpu_seconds"`
	WarmupShare   float64  `json:"warmup_share"`
	WarmupEvals   int64    `json:"warmup_grad_evals"`
	GradEvals     int64    `json:"grad_evals"`
	SetupEvals    int64    `json:"setup_evals"` // the control variates' full passes (counted in grad_evals here)
	PeakRSSMB     float64  `json:"peak_rss_mb"`
	LowRank       int      `json:"low_rank"`
	Thin          int      `json:"thin"`
	Eps           float64  `json:"eps"`
	KeptCoords    int      `json:"kept_coords"`
	MCSEFromBatch bool     `json:"mcse_from_batch_means"`
}

// job is a row to run: a target and a dimension.
type job struct {
	target string
	d      int
}

var defaultJobs = []job{{"gaussian", 1000}, {"gaussian", 10000}, {"gaussian", 100000}, {"sparse_logreg", 10000}}

func main() {
	asJSON := flag.Bool("json", false, "print {\"rows\": [...]} as JSON")
	one := flag.String("row", "", "run one row, target:d, in this process (what the parent runs in each child)")
	seed := flag.Uint64("seed", 1, "Sample's seed")
	only := flag.String("only", "", "comma-separated target:d rows to run instead of the default four")
	refDir := flag.String("refdir", "examples/larged/testdata", "directory of the cached sparse_logreg reference")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the row run in this process to this file")
	scaling := flag.Bool("scaling", false, "measure the warmup's cost on the Gaussian at d = 10³, 10⁴, 10⁵ (one chain) and its slope in d")
	flag.Parse()
	if *scaling {
		if err := warmupScaling(*seed); err != nil {
			fmt.Fprintln(os.Stderr, "larged:", err)
			os.Exit(1)
		}
		return
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "larged:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *one != "" {
		j, err := parseJob(*one)
		if err == nil {
			var r *Row
			r, err = runRow(j, *seed, *refDir)
			if err == nil {
				err = json.NewEncoder(os.Stdout).Encode(r)
			}
		}
		if err != nil {
			pprof.StopCPUProfile()
			fmt.Fprintln(os.Stderr, "larged:", err)
			os.Exit(1)
		}
		return
	}
	jobs := defaultJobs
	if *only != "" {
		jobs = nil
		for _, s := range strings.Split(*only, ",") {
			j, err := parseJob(s)
			if err != nil {
				fmt.Fprintln(os.Stderr, "larged:", err)
				os.Exit(2)
			}
			jobs = append(jobs, j)
		}
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "larged:", err)
		os.Exit(1)
	}
	var rows []*Row
	for _, j := range jobs {
		cmd := exec.Command(self, "-row", fmt.Sprintf("%s:%d", j.target, j.d), "-seed", strconv.FormatUint(*seed, 10), "-refdir", *refDir)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "larged: row %s d=%d: %v\n", j.target, j.d, err)
			os.Exit(1)
		}
		var r Row
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			fmt.Fprintf(os.Stderr, "larged: row %s d=%d: %v\n", j.target, j.d, err)
			os.Exit(1)
		}
		rows = append(rows, &r)
		if !*asJSON {
			printRow(&r)
		}
	}
	if *asJSON {
		b, _ := json.MarshalIndent(map[string]any{"rows": rows}, "", " ")
		fmt.Println(string(b))
	}
}

func parseJob(s string) (job, error) {
	t, ds, ok := strings.Cut(s, ":")
	d, err := strconv.Atoi(ds)
	if !ok || err != nil || (t != "gaussian" && t != "sparse_logreg") {
		return job{}, fmt.Errorf("row %q: want gaussian:d or sparse_logreg:d", s)
	}
	return job{t, d}, nil
}

func printRow(r *Row) {
	fmt.Printf("%-14s d=%-7d max|z| %5.2f  >3: %5.2f%%  mcse/sd %.3f  sd err median %5.2f%% p99 %5.2f%%  %6.1f s (cpu %6.1f)  warmup %4.1f%%  rss %5.0f MB  k=%d thin=%d  warnings %d\n",
		r.Target, r.D, r.MaxAbsZ, 100*r.FracZ3, r.MaxMCSESD, 100*r.MedianSDErr, 100*r.P99SDErr, r.Seconds, r.CPUSeconds, 100*r.WarmupShare, r.PeakRSSMB, r.LowRank, r.Thin, len(r.Warnings))
	for _, w := range r.Warnings {
		fmt.Printf("    warning: %s\n", w)
	}
}

// truth is what a row is checked against: means and sds, and the
// reference's own MCSE of the mean (nil for an exact posterior).
type truth struct {
	mean, sd, mcse []float64
}

// runRow runs sample.Run on one target and scores it.
func runRow(j job, seed uint64, refDir string) (*Row, error) {
	var p sample.Problem
	var tr truth
	switch j.target {
	case "gaussian":
		g, err := larged.NewGaussian(j.d, 100, 7)
		if err != nil {
			return nil, err
		}
		p.Model, tr.mean, tr.sd = g, g.Mean(), g.SD()
	case "sparse_logreg":
		m, ref, err := sparseTarget(j.d, refDir)
		if err != nil {
			return nil, err
		}
		p.Model, tr.mean, tr.sd, tr.mcse = m, ref.Mean, ref.SD, ref.MCSE
	}
	theta0 := make([]float64, j.d)
	cpu0, _ := cputime.Process()
	t0 := time.Now()
	res, err := sample.Run(context.Background(), p, theta0, &sample.Settings{Seed: seed}, nil)
	secs := time.Since(t0).Seconds()
	cpu1, _ := cputime.Process()
	if err != nil {
		return nil, err
	}
	r := score(res, tr)
	r.Target, r.D, r.Seconds, r.CPUSeconds = j.target, j.d, secs, (cpu1 - cpu0).Seconds()
	r.SetupEvals = res.SetupGradEvals
	r.WarmupEvals, r.GradEvals = res.WarmupGradEvals+res.SetupGradEvals, res.GradEvals
	r.WarmupShare = float64(r.WarmupEvals) / float64(r.GradEvals)
	r.PeakRSSMB = peakRSSMB()
	a := res.Adapted[0]
	r.LowRank, r.Thin, r.Eps = len(a.LowRankC), a.Thin, a.Eps
	r.KeptCoords = j.d
	if c := res.Chains[0]; c != nil && c.Coords != nil {
		r.KeptCoords = len(c.Coords)
	}
	r.Warnings = res.Warnings.Messages()
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	return r, nil
}

// score compares sample.Run's moments of every coordinate with the truth.
func score(res *sample.Result, tr truth) *Row {
	m := res.Moments
	s := larged.Score(m.Mean, m.SD, m.MCSE, tr.mean, tr.sd, tr.mcse)
	return &Row{MCSEFromBatch: true, MaxAbsZ: s.MaxAbsZ, FracZ3: s.FracZ3, MaxMCSESD: s.MaxMCSESD, MedianSDErr: s.MedianSDErr, P99SDErr: s.P99SDErr}
}

// peakRSSMB returns this process's peak resident memory in MB.
func peakRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Maxrss) / 1024 // kilobytes on Linux
}

// warmupScaling runs one chain's warmup (and ten draws) on the Gaussian at
// d = 10³, 10⁴ and 10⁵ and prints its CPU time and gradient evaluations,
// with the least-squares slope of log CPU time on log d: 1 is linear.
func warmupScaling(seed uint64) error {
	var xs, ys []float64
	for _, d := range []int{1000, 10000, 100000} {
		g, err := larged.NewGaussian(d, 100, 7)
		if err != nil {
			return err
		}
		cpu0, _ := cputime.Process()
		res, err := sample.Run(context.Background(), sample.Problem{Model: g}, make([]float64, d), &sample.Settings{Seed: seed, Chains: 1, Draws: 10, Thin: 1}, nil)
		cpu1, _ := cputime.Process()
		if err != nil {
			return err
		}
		secs := (cpu1 - cpu0).Seconds()
		fmt.Printf("d = %-7d warmup %8d gradient evaluations, %7.2f CPU s (%.2f µs per evaluation per 1000 parameters)\n", d, res.WarmupGradEvals, secs, 1e6*secs/float64(res.WarmupGradEvals)/(float64(d)/1000))
		xs, ys = append(xs, math.Log(float64(d))), append(ys, math.Log(secs))
	}
	var mx, my, sxy, sxx float64
	for i := range xs {
		mx += xs[i] / 3
		my += ys[i] / 3
	}
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	fmt.Printf("slope of log CPU time on log d: %.2f\n", sxy/sxx)
	return nil
}
