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
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	c := DefaultConfig()
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout, the table to stderr")
	plotDir := flag.String("plot", "", "write the RMSE-against-time and RMSE-against-iterations plots as PNG files into this directory")
	dataPath := flag.String("data", "", "MovieLens ratings file (u.data of ML-100K or ratings.dat of ML-1M); default: synthetic data")
	full := flag.Bool("full", false, "synthetic data at MovieLens 1M's size (6,040 × 3,706, 1,000,209 ratings) with 5× the time budgets")
	flag.IntVar(&c.Rank, "rank", c.Rank, "rank K of the factorisation")
	flag.IntVar(&c.Blocks, "blocks", c.Blocks, "blocks per side of the grid (B strata of B blocks)")
	flag.IntVar(&c.Workers, "workers", c.Workers, "goroutines computing the blocks of a stratum in the timed comparison")
	budget := flag.Float64("budget", c.Budget.Seconds(), "seconds of computing per method and seed")
	tuneBudget := flag.Float64("tune-budget", c.TuneBudget.Seconds(), "seconds per tuning point")
	seeds := flag.Int("seeds", len(c.Seeds), "number of seeds (1, 2, …)")
	fixed := flag.String("fixed", "", "skip tuning: method=eps[/param],… e.g. SGLD=4e-5,HAMCMC=8e-5/1")
	speed := flag.Bool("speedup", true, "measure the parallel-block speed-up")
	flag.Parse()
	c.Budget = time.Duration(*budget * float64(time.Second))
	c.TuneBudget = time.Duration(*tuneBudget * float64(time.Second))
	if *full {
		c.Budget *= 5
		c.TuneBudget *= 5
	}
	c.Seeds = nil
	for s := 1; s <= *seeds; s++ {
		c.Seeds = append(c.Seeds, uint64(s))
	}
	var err error
	if c.Fixed, err = parseFixed(*fixed); err != nil {
		fmt.Fprintln(os.Stderr, "matrixfactor: -fixed:", err)
		os.Exit(2)
	}
	c.Log = os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := runMain(ctx, os.Stdout, c, *dataPath, *full, *speed, *asJSON, *plotDir); err != nil {
		fmt.Fprintln(os.Stderr, "matrixfactor:", err)
		os.Exit(1)
	}
}

// parseFixed reads method=eps[/param],….
func parseFixed(s string) (map[string]Setting, error) {
	out := map[string]Setting{}
	if s == "" {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		m, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want method=eps[/param]", f)
		}
		known := false
		for _, k := range Methods {
			known = known || k == m
		}
		if !known {
			return nil, fmt.Errorf("unknown method %q", m)
		}
		es, ps, _ := strings.Cut(v, "/")
		var st Setting
		var err error
		if st.Eps, err = strconv.ParseFloat(es, 64); err != nil || !(st.Eps > 0) {
			return nil, fmt.Errorf("%s: step size %q, want a positive number", m, es)
		}
		if ps != "" {
			if st.P, err = strconv.ParseFloat(ps, 64); err != nil || !(st.P > 0) {
				return nil, fmt.Errorf("%s: parameter %q, want a positive number", m, ps)
			}
		} else if paramName[m] != "" {
			return nil, fmt.Errorf("%s needs eps/%s", m, paramName[m])
		}
		out[m] = st
	}
	return out, nil
}

// loadData returns the train/test split of the MovieLens file at path, or
// of the synthetic data.
func loadData(path string, full bool) (*Split, string, error) {
	var r *Ratings
	var err error
	var name string
	switch {
	case path != "":
		r, err = LoadMovieLens(path)
		name = path
	case full:
		r, err = Synthetic(ML1M)
		name = "synthetic, MovieLens 1M shape"
	default:
		r, err = Synthetic(ML100K)
		name = "synthetic, MovieLens 100K shape"
	}
	if err != nil {
		return nil, "", err
	}
	s, err := SplitRatings(r, 0.1, 2016)
	return s, name, err
}

func runMain(ctx context.Context, w io.Writer, c Config, dataPath string, full, speed, asJSON bool, plotDir string) error {
	if c.Rank <= 0 {
		return fmt.Errorf("rank %d, want positive", c.Rank)
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	start := time.Now()
	data, name, err := loadData(dataPath, full)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.Log, "data: %s: %d users × %d items, %d training and %d test ratings; GOMAXPROCS %d\n",
		name, data.Users, data.Items, len(data.Train), len(data.Test), runtime.GOMAXPROCS(0))
	res, err := Experiment(ctx, c, data)
	if err != nil {
		return err
	}
	if speed {
		if res.Speedup, err = Speedup(c, data, res.Chosen, time.Second); err != nil {
			return err
		}
	}
	for _, f := range res.Failures {
		fmt.Fprintln(c.Log, "DIVERGED:", f)
	}
	if plotDir != "" {
		if err := writePlots(plotDir, c, res, name); err != nil {
			return err
		}
	}
	if asJSON {
		if err := writeTable(c.Log, c, res, name, time.Since(start)); err != nil {
			return err
		}
		return json.NewEncoder(w).Encode(struct {
			Rows []Row `json:"rows"`
		}{res.Rows})
	}
	return writeTable(w, c, res, name, time.Since(start))
}

func writeTable(w io.Writer, c Config, res *Result, name string, elapsed time.Duration) error {
	T := CommonTime(res.Rows)
	fmt.Fprintf(w, "HAMCMC paper §4.3 (Fig. 5): test RMSE of the running posterior-mean prediction, %s\n", name)
	fmt.Fprintf(w, "%d users × %d items, %d training / %d test ratings, K = %d, %d × %d blocks, %v per method and seed, median of %d seeds\n\n",
		res.Users, res.Items, res.Train, res.Test, c.Rank, c.Blocks, c.Blocks, c.Budget, len(c.Seeds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fracs := []float64{0.1, 0.25, 0.5, 1}
	fmt.Fprint(tw, "method\tsetting\t")
	for _, f := range fracs {
		fmt.Fprintf(tw, "%.1f s\t", f*T)
	}
	fmt.Fprint(tw, "steps/s\t\n")
	for _, m := range Methods {
		fmt.Fprintf(tw, "%s\t%s\t", m, res.Chosen[m].String(m))
		for _, f := range fracs {
			if v, ok := At(res.Rows, m, f*T); ok {
				fmt.Fprintf(tw, "%.4f\t", v)
			} else {
				fmt.Fprint(tw, "-\t")
			}
		}
		fmt.Fprintf(tw, "%.0f\t\n", stepsPerSecond(res.Rows, m))
	}
	fmt.Fprintf(tw, "mean\tglobal mean\t")
	for range fracs {
		fmt.Fprintf(tw, "%.4f\t", res.MeanRMSE)
	}
	fmt.Fprint(tw, "\t\n")
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, f := range res.Failures {
		fmt.Fprintf(w, "DIVERGED: %s (its rows end there)\n", f)
	}
	if len(res.Tuning) > 0 {
		fmt.Fprintf(w, "\nTuning (seed %d, validation split, %v per point): mean validation RMSE over the run's checkpoints;\nthe smallest is chosen among points whose next larger step size did not diverge\n", c.TuneSeed, c.TuneBudget)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, m := range Methods {
			for i, v := range res.Tuning[m] {
				mark := ""
				switch {
				case res.Grid[m][i] == res.Chosen[m]:
					mark = "chosen"
				case math.IsInf(v, 1):
					mark = "diverged"
				case res.Unsafe[m][i]:
					mark = "excluded: next step size diverged"
				}
				fmt.Fprintf(tw, "%s\t%s\t%.4f\t  %s\n", m, res.Grid[m][i].String(m), v, mark)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(res.Speedup) > 0 {
		writeSpeedup(w, res.Speedup)
	}
	fmt.Fprintf(w, "\n%.1f s\n", elapsed.Seconds())
	return nil
}

// stepsPerSecond is a method's total steps over its total time, over the
// last checkpoint of each seed.
func stepsPerSecond(rows []Row, m string) float64 {
	last := map[uint64]Row{}
	for _, r := range rows {
		if r.Method == m && r.Seconds >= last[r.Seed].Seconds {
			last[r.Seed] = r
		}
	}
	var n, t float64
	for _, r := range last {
		n += float64(r.Iteration)
		t += r.Seconds
	}
	return n / t
}
