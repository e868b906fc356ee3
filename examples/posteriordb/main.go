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
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sgmcmc-go/sgmcmc/internal/datadir"
)

// Config is what a run of the example does.
type Config struct {
	// Targets and Methods are run in order, every method on every target.
	Targets, Methods []string
	// DataDir holds the posteriordb directories; empty means the
	// repository's testdata/posteriordb, found from any directory inside it.
	DataDir string
	// Seed is the master seed of every run when Seeds is empty.
	Seed uint64
	// Seeds, if not empty, are the master seeds: the default method
	// (defaultMethod) runs with each, the other methods with the first.
	Seeds []uint64
	// Draws, if positive, overrides every target's draws per chain.
	Draws int
	// Oracle runs the hand-set oracle baseline instead of sample.Run.
	Oracle bool
	// CompareIntegrators runs each momentum method of Methods twice, with
	// the sweep and with sample.Run's choice of integrator (integrators.go).
	CompareIntegrators bool
	// CellTime, if positive, stops a cell (one method, target and seed)
	// that runs longer: its row keeps the draws made and says so in its
	// Error. The goal is 2 minutes a cell; the example's default, 3
	// minutes, ends a hopeless cell (first-order methods on the
	// development set's gp_pois_regr were projected at hours) without
	// cutting short one that is merely slow on a loaded machine.
	CellTime time.Duration
	// Log receives progress notes; nil means none.
	Log io.Writer

	// run, if not nil, replaces the runner (for tests).
	run runner
}

// defaultMethod is the method sample.Run runs when given none.
const defaultMethod = "SGHMC"

// seeds returns the seeds of method under c.
func (c Config) seeds(method string) []uint64 {
	switch {
	case len(c.Seeds) == 0:
		return []uint64{c.Seed}
	case method == defaultMethod:
		return c.Seeds
	}
	return c.Seeds[:1]
}

// DefaultConfig is the default run: the four check targets, every method.
func DefaultConfig() Config {
	return Config{
		Targets: append([]string(nil), checkTargets...),
		Methods: append([]string(nil), Methods...),
		Seed:    1,
	}
}

func main() {
	c := DefaultConfig()
	asJSON := flag.Bool("json", false, "print one JSON object {\"default_method\": ..., \"rows\": [...]} to stdout instead of the table")
	set := flag.String("set", "", "run a set of targets instead of the default ones: check ("+strings.Join(checkTargets, ", ")+") or dev (the development set of issue 22, "+strconv.Itoa(len(devSet))+" targets)")
	dev := flag.Bool("dev", false, "also run the development targets "+strings.Join(devTargets, ", ")+" (without -set)")
	plotDir := flag.String("plot", "", "write errors.png and cost.png into this directory")
	targets := flag.String("targets", "", "comma-separated targets to run instead of those of -set (any of "+strings.Join(append(append([]string{}, checkTargets...), devTargets...), ", ")+" or of -set dev's)")
	methods := flag.String("methods", "", "comma-separated methods to run instead of all ("+strings.Join(Methods, ", ")+")")
	seeds := flag.String("seeds", "", "comma-separated master seeds: the default method ("+defaultMethod+") runs with each, the other methods with the first (overrides -seed)")
	flag.StringVar(&c.DataDir, "data", "", "directory holding the posteriordb reference posteriors (default: the repository's testdata/posteriordb)")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "master random seed")
	flag.IntVar(&c.Draws, "draws", 0, "draws per chain for every target (0: each target's default)")
	flag.DurationVar(&c.CellTime, "cell-time", 3*time.Minute, "stop a cell (method, target, seed) running longer, keeping its draws and recording the stop as its error (0: no limit)")
	flag.BoolVar(&c.Oracle, "oracle", false, "run the oracle baseline (settings chosen by hand from the reference posterior) instead of Sample")
	flag.BoolVar(&c.CompareIntegrators, "compare-integrators", false, "run each momentum method ("+strings.Join(momentumMethods, ", ")+") twice, with the sequential sweep (integrator \"sweep\") and with Sample's choice of integrator")
	flag.Parse()
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "posteriordb:", err)
		os.Exit(1)
	}
	switch {
	case *set != "":
		ts, ok := sets[*set]
		if !ok {
			fail(fmt.Errorf("unknown -set %q (have check, dev)", *set))
		}
		c.Targets = append([]string(nil), ts...)
	case *dev:
		c.Targets = append(c.Targets, devTargets...)
	}
	if *targets != "" {
		c.Targets = strings.Split(*targets, ",")
	}
	if *methods != "" {
		c.Methods = strings.Split(*methods, ",")
	}
	if *seeds != "" {
		for _, f := range strings.Split(*seeds, ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
			if err != nil {
				fail(fmt.Errorf("-seeds: %w", err))
			}
			c.Seeds = append(c.Seeds, v)
		}
	}
	c.Log = os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, c, *asJSON, *plotDir); err != nil {
		stop()
		fail(err)
	}
}

// Experiment runs every method of c on every target of c, with the seeds
// of c (Config.Seeds), and returns the rows in table order. A run that
// fails is a row with its error (see RunRow); Experiment fails only when
// a method is unknown, a target cannot be loaded, or ctx is cancelled, and
// then returns the rows so far.
func Experiment(ctx context.Context, c Config) ([]Row, error) {
	for _, m := range c.Methods {
		if _, ok := methodByName[m]; !ok && !slices.Contains(Methods, m) {
			return nil, fmt.Errorf("unknown method %q (have %v and ReplicaExchange)", m, Methods)
		}
	}
	methods := c.Methods
	if c.CompareIntegrators {
		methods = compareRuns(methods)
	}
	run := runner(runMethod)
	switch {
	case c.run != nil:
		run = c.run
	case c.Oracle:
		run = runOracle
	}
	var rows []Row
	dir := c.DataDir
	if dir == "" {
		var err error
		if dir, err = datadir.Find("testdata/posteriordb", nil); err != nil {
			return nil, err
		}
	}
	for _, name := range c.Targets {
		t, err := LoadTarget(name, dir)
		if err != nil {
			return rows, err
		}
		draws := t.Draws
		if c.Draws > 0 {
			draws = c.Draws
		}
		for _, m := range methods {
			for _, seed := range c.seeds(m) {
				cctx, cancel := ctx, context.CancelFunc(func() {})
				if c.CellTime > 0 {
					cctx, cancel = context.WithTimeoutCause(ctx, c.CellTime, fmt.Errorf("%w (%v)", errCellTime, c.CellTime))
				}
				r, err := RunRow(cctx, run, t, m, seed, draws)
				cancel()
				if err != nil {
					return rows, err
				}
				if c.Log != nil {
					logRow(c.Log, r)
				}
				rows = append(rows, r)
			}
		}
	}
	return rows, nil
}

// logRow writes a progress note on r to w.
func logRow(w io.Writer, r Row) {
	fmt.Fprintf(w, "posteriordb: %-10s %-8s seed %d %6.1f s (%.1f CPU s)  mean err %.3g sd (%.3g of tol), sd err %+.1f%%, R̂ %.4f, ESS %.0f, %d warnings",
		r.Target, r.Method, r.Seed, r.Seconds, r.CPUSeconds, r.MaxMeanErrSD, r.MeanErrOverTol, 100*r.MaxSDRelErr, r.MaxRHat, r.MinESSBulk, len(r.Warnings))
	if r.Error != "" {
		fmt.Fprintf(w, ", ERROR: %s", r.Error)
	}
	fmt.Fprintln(w)
}

// run runs the experiment and writes the table, or the JSON object, to w,
// and the plots to plotDir unless it is empty. The JSON object names the
// default method and holds the rows: {"default_method": "SGHMC", "rows":
// [...]}. If the experiment fails (see Experiment), the JSON object is not
// written (a partial result must not pass for a whole one), while the
// table and the plots show the rows there are.
func run(ctx context.Context, w io.Writer, c Config, asJSON bool, plotDir string) error {
	start := time.Now()
	rows, expErr := Experiment(ctx, c)
	if len(rows) == 0 || (asJSON && expErr != nil) {
		return expErr
	}
	if plotDir != "" {
		if err := writePlots(plotDir, rows); err != nil {
			return errors.Join(expErr, err)
		}
	}
	if asJSON {
		return json.NewEncoder(w).Encode(struct {
			DefaultMethod string         `json:"default_method"`
			Rows          []Row          `json:"rows"`
			Warnings      WarningSummary `json:"warnings_summary"`
		}{defaultMethod, rows, summariseWarnings(rows)})
	}
	who := "sgmcmc.Sample with its defaults"
	if c.Oracle {
		who = "the oracle baseline (settings from the reference posterior)"
	}
	fmt.Fprintf(w, "Each method on each target by %s, %d chains; errors in the reference space (σ, not log σ), worst parameter in brackets.\n", who, numChains)
	fmt.Fprintln(w, "Goal: no error, mean error within its tolerance (tol = max(0.1 sd, 4 MCSE)), sd within 10 %, R̂ ≤ 1.01, bulk ESS ≥ 1,000 (2,000 on illcond100).")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "target\tmethod\tseed\tdraws\tmean err (sd)\tmean err/tol\tsd err\tmax R̂\tmin ESS\tdiv\tgrad evals\twarmup\tbatch\tdata passes\ts\tCPU s\tgoal\twarnings\t")
	var failed int
	for _, r := range rows {
		ok := "met"
		switch {
		case r.Error != "":
			ok = "ERROR"
			failed++
		case !r.Pass():
			ok = "MISSED"
		}
		warn := "-"
		if len(r.Warnings) > 0 {
			warn = strings.Join(r.Warnings, "; ")
		}
		if r.Error != "" {
			warn = "error: " + r.Error + "; " + warn
		}
		warm, batch := "-", "-"
		if r.Info.SampleGradEvals > 0 {
			warm = fmt.Sprintf("%.0f%%", 100*float64(r.Info.WarmupGradEvals)/float64(r.Info.SampleGradEvals))
		}
		if r.Info.BatchSize > 0 {
			batch = fmt.Sprint(r.Info.BatchSize)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d×%d\t%.3g [%s]\t%.3g [%s]\t%s [%s]\t%s [%s]\t%.0f [%s]\t%d\t%d\t%s\t%s\t%.0f\t%.1f\t%.1f\t%s\t%s\t\n",
			r.Target, r.Method, r.Seed, r.Chains, r.Draws,
			r.MaxMeanErrSD, r.Stats.WorstMean, r.MeanErrOverTol, r.Stats.WorstMeanTol, percent(r.MaxSDRelErr), r.Stats.WorstSD,
			rhat(r.MaxRHat), r.Stats.WorstRHat, r.MinESSBulk, r.Stats.WorstESS,
			r.Divergences, r.GradEvals, warm, batch, r.DataPasses, r.Seconds, r.CPUSeconds, ok, warn)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var ge int64
	var secs, cpu float64
	for _, r := range rows {
		ge += r.GradEvals
		secs += r.Seconds
		cpu += r.CPUSeconds
	}
	fmt.Fprintf(w, "\n%d rows (%d with an error), %d gradient evaluations, %.1f s sampling (%.1f CPU s), %.1f s in all\n", len(rows), failed, ge, secs, cpu, time.Since(start).Seconds())
	summariseWarnings(rows).write(w)
	if expErr != nil {
		fmt.Fprintf(w, "\nThe experiment stopped (the program fails):\n%v\n", expErr)
	}
	return expErr
}

// percent formats a relative error as a signed percentage, to one decimal
// below 1,000 %.
func percent(x float64) string {
	if math.Abs(x) < 10 {
		return fmt.Sprintf("%+.1f%%", 100*x)
	}
	return fmt.Sprintf("%+.3g%%", 100*x)
}

// rhat formats an R̂ to four decimals below 10.
func rhat(x float64) string {
	if x < 10 {
		return fmt.Sprintf("%.4f", x)
	}
	return fmt.Sprintf("%.3g", x)
}
