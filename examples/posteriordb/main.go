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
	// Seed is the master seed of every run.
	Seed uint64
	// Draws, if positive, overrides every target's draws per chain.
	Draws int
	// Oracle runs the hand-set oracle baseline instead of Sample.
	Oracle bool
	// Log receives progress notes; nil means none.
	Log io.Writer

	// run, if not nil, replaces the runner (for tests).
	run runner
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
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout instead of the table")
	dev := flag.Bool("dev", false, "also run the development targets "+strings.Join(devTargets, ", "))
	plotDir := flag.String("plot", "", "write errors.png and cost.png into this directory")
	targets := flag.String("targets", "", "comma-separated targets to run instead of the default ones (any of "+strings.Join(append(append([]string{}, checkTargets...), devTargets...), ", ")+")")
	methods := flag.String("methods", "", "comma-separated methods to run instead of all ("+strings.Join(Methods, ", ")+")")
	flag.StringVar(&c.DataDir, "data", "", "directory holding the posteriordb reference posteriors (default: the repository's testdata/posteriordb)")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "master random seed")
	flag.IntVar(&c.Draws, "draws", 0, "draws per chain for every target (0: each target's default)")
	flag.BoolVar(&c.Oracle, "oracle", false, "run the oracle baseline (settings chosen by hand from the reference posterior) instead of Sample")
	flag.Parse()
	if *dev {
		c.Targets = append(c.Targets, devTargets...)
	}
	if *targets != "" {
		c.Targets = strings.Split(*targets, ",")
	}
	if *methods != "" {
		c.Methods = strings.Split(*methods, ",")
	}
	c.Log = os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, c, *asJSON, *plotDir); err != nil {
		fmt.Fprintln(os.Stderr, "posteriordb:", err)
		os.Exit(1)
	}
}

// Experiment runs every method of c on every target of c and returns the
// rows in table order. A run that gives no row does not stop the others:
// Experiment returns the rows it has and all the failures joined (ctx's
// cancellation, or a target that cannot be loaded, stops it at once).
func Experiment(ctx context.Context, c Config) ([]Row, error) {
	for _, m := range c.Methods {
		if !slices.Contains(Methods, m) {
			return nil, fmt.Errorf("unknown method %q (have %v)", m, Methods)
		}
	}
	run := runner(runMethod)
	switch {
	case c.run != nil:
		run = c.run
	case c.Oracle:
		run = runOracle
	}
	var rows []Row
	var failed []error
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
			return rows, errors.Join(append(failed, err)...)
		}
		draws := t.Draws
		if c.Draws > 0 {
			draws = c.Draws
		}
		for _, m := range c.Methods {
			r, err := RunRow(ctx, run, t, m, c.Seed, draws)
			if err != nil {
				failed = append(failed, err)
				if ctx.Err() != nil {
					return rows, errors.Join(failed...)
				}
				if c.Log != nil {
					fmt.Fprintf(c.Log, "posteriordb: %-10s %-8s FAILED: %v\n", t.Name, m, err)
				}
				continue
			}
			if c.Log != nil {
				fmt.Fprintf(c.Log, "posteriordb: %-10s %-8s %6.1f s (%.1f CPU s)  mean err %.3g sd, sd err %+.1f%%, R̂ %.4f, ESS %.0f, %d warnings\n",
					t.Name, m, r.Seconds, r.CPUSeconds, r.MaxMeanErrSD, 100*r.MaxSDRelErr, r.MaxRHat, r.MinESSBulk, len(r.Warnings))
			}
			rows = append(rows, r)
		}
	}
	return rows, errors.Join(failed...)
}

// run runs the experiment and writes the table, or the JSON object, to w,
// and the plots to plotDir unless it is empty. If a run gave no row, the
// JSON object is not written (a partial result must not pass for a whole
// one), while the table and the plots show the rows there are; the error
// names every failure.
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
			Rows []Row `json:"rows"`
		}{rows})
	}
	who := "sgmcmc.Sample with its defaults"
	if c.Oracle {
		who = "the oracle baseline (settings from the reference posterior)"
	}
	fmt.Fprintf(w, "Each method on each target by %s, %d chains, seed %d; errors in the reference space (σ, not log σ), worst parameter in brackets.\n", who, numChains, c.Seed)
	fmt.Fprintln(w, "Goal: mean within 0.1 sd, sd within 10 %, R̂ ≤ 1.01, bulk ESS ≥ 1,000 (2,000 on illcond100).")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "target\tmethod\tdraws\tmean err (sd)\tsd err\tmax R̂\tmin ESS\tdiv\tgrad evals\twarmup\tbatch\tdata passes\ts\tCPU s\tgoal\twarnings\t")
	for _, r := range rows {
		ok := "met"
		if !r.Pass() {
			ok = "MISSED"
		}
		warn := "-"
		if len(r.Warnings) > 0 {
			warn = strings.Join(r.Warnings, "; ")
		}
		warm, batch := "-", "-"
		if r.Info.SampleGradEvals > 0 {
			warm = fmt.Sprintf("%.0f%%", 100*float64(r.Info.WarmupGradEvals)/float64(r.Info.SampleGradEvals))
		}
		if r.Info.BatchSize > 0 {
			batch = fmt.Sprint(r.Info.BatchSize)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d×%d\t%.3g [%s]\t%s [%s]\t%s [%s]\t%.0f [%s]\t%d\t%d\t%s\t%s\t%.0f\t%.1f\t%.1f\t%s\t%s\t\n",
			r.Target, r.Method, r.Chains, r.Draws,
			r.MaxMeanErrSD, r.Stats.WorstMean, percent(r.MaxSDRelErr), r.Stats.WorstSD,
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
	fmt.Fprintf(w, "\n%d rows, %d gradient evaluations, %.1f s sampling (%.1f CPU s), %.1f s in all\n", len(rows), ge, secs, cpu, time.Since(start).Seconds())
	if expErr != nil {
		fmt.Fprintf(w, "\nRuns that gave no row (the program fails):\n%v\n", expErr)
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
