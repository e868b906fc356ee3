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
	"path/filepath"
	"slices"
	"strings"

	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

// Config is what a run of the example does.
type Config struct {
	// Full adds the no-control-variate and reference-sampler rows at
	// N = 10⁶ (and at 10⁷ with Huge).
	Full bool
	// Huge adds N = 10⁷ at d = 20 (1.6 GB of data).
	Huge bool
	// Seed seeds sample.Run and the reference sampler.
	Seed uint64
	// DataDir holds a9a; empty means the repository's testdata/a9a.
	DataDir string
	// RefDir holds the cached references; empty means testdata/scale.
	RefDir string
	// Cases, if not empty, keeps only the cases of these names (Case.Name).
	Cases []string
	// Draws, if positive, is sample.Run's and the reference rows' draws per
	// chain (the tests' reduced runs); zero means 1000.
	Draws int
	// RefDraws, if positive, is the cached references' draws per chain
	// instead of refDraws's.
	RefDraws int
	// Log receives progress notes; nil means none.
	Log io.Writer
}

// DefaultConfig is the default run.
func DefaultConfig() Config { return Config{Seed: 1} }

// defaultCases are the cases of the default run, in order, and whether
// the no-control-variate and reference rows are run on each.
func (c Config) plan() []planned {
	p := []planned{
		{Case{N: 10000, D: 20}, true},
		{Case{N: 100000, D: 20}, true},
		{Case{N: 1000000, D: 20}, c.Full},
	}
	if c.Huge {
		p = append(p, planned{Case{N: 10000000, D: 20}, c.Full})
	}
	p = append(p, planned{Case{N: 100000, D: 100}, false}, planned{Case{A9A: true}, false})
	if len(c.Cases) > 0 {
		p = slices.DeleteFunc(p, func(q planned) bool { return !slices.Contains(c.Cases, q.Name()) })
	}
	return p
}

// planned is a case and whether its comparison rows are run.
type planned struct {
	Case
	compare bool
}

func main() {
	c := DefaultConfig()
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout instead of the table")
	flag.BoolVar(&c.Full, "full", false, "also run Sample without control variates and the reference sampler at N = 10⁶ (and 10⁷ with -huge)")
	flag.BoolVar(&c.Huge, "huge", false, "also run N = 10⁷ at d = 20 (1.6 GB of data)")
	flag.IntVar(&c.RefDraws, "refdraws", 0, "with -reference: draws per chain of each reference (0: the built-in count of each case, for a smallest bulk ESS near 40,000)")
	reference := flag.Bool("reference", false, "regenerate the cached references in testdata/scale (an hour on two cores) and exit")
	stan := flag.String("stan", "", "write the simulated data of -n and -d to DIR/X.bin and DIR/y.bin (../shared/bench/stan_logreg.R's format) and exit")
	n := flag.Int("n", 100000, "rows of the data -stan writes")
	d := flag.Int("d", 20, "dimensions of the data -stan writes")
	cases := flag.String("cases", "", "comma-separated cases to run instead of all (n10000_d20, n100000_d20, n1000000_d20, n10000000_d20, n100000_d100, a9a)")
	plotFile := flag.String("plot", "", "write the figure to this PNG file (default: scale.png in the example's directory)")
	flag.IntVar(&c.Draws, "draws", 0, "draws per chain of Sample and of the reference rows (0: Sample's default, 1000)")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "seed of Sample and of the reference sampler (the data's seed is fixed)")
	flag.StringVar(&c.DataDir, "data", "", "directory holding a9a (default: the repository's testdata/a9a); with -stream, the directory of its data files and their references, written on first use (default: sgmcmc-scale in the system's temporary directory)")
	stream := flag.Bool("stream", false, "run sample.Run on data read from disk (dataset.File) against the same data in memory, each row in a child process, and print their rows")
	streamCases := flag.String("stream-cases", "", "with -stream: comma-separated storage:N rows instead of the default memory:1e7,binary:1e7,binary:1e8,parquet:1e8,sparse:1e7")
	stanBench := flag.Bool("stan-bench", false, "run rstan's NUTS (../shared/bench/stan_logreg.R) and Sample on the same data at N = 10⁴ and 10⁵ (15–20 minutes) and print their rows: doc/benchmarks.md's table against Stan")
	stanScript := flag.String("stan-script", "../shared/bench/stan_logreg.R", "with -stan-bench: the rstan script")
	sparseRef := flag.Bool("sparse-ref", false, "write the sparse -stream row's data to -data and run its exact reference, HMC split around the Laplace approximation (testdata/scale/sparse_ref.json.gz, written there only if it converges; about 40 minutes on two cores: doc/data.md), and exit")
	sparseRefDraws := flag.Int("sparse-ref-draws", 400, "with -sparse-ref: draws per chain")
	streamRow := flag.String("stream-row", "", "run one storage:N row of -stream in this process and print it as JSON (what -stream's children do)")
	flag.Parse()
	if *cases != "" {
		c.Cases = strings.Split(*cases, ",")
	}
	c.Log = os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	dir := c.DataDir
	if dir == "" {
		dir = streamDataDir()
	}
	switch {
	case *sparseRef:
		if err = os.MkdirAll(dir, 0o755); err == nil {
			if err = WriteSparseData(sparseFile(dir), c.Log); err == nil {
				_, err = ComputeSparseReference(ctx, sparseFile(dir), *sparseRefDraws, c.Log)
			}
		}
	case *stanBench:
		var rows []StanRow
		if rows, err = StanBench(ctx, c, *stanScript, []int{10_000, 100_000}); err == nil {
			err = json.NewEncoder(os.Stdout).Encode(struct {
				Rows []StanRow `json:"rows"`
			}{rows})
		}
	case *streamRow != "":
		var cs StreamCase
		if cs, err = parseStreamCase(*streamRow); err == nil {
			err = StreamChild(ctx, c, dir, cs)
		}
	case *stream:
		cases := defaultStream
		if *streamCases != "" {
			cases = nil
			for _, s := range strings.Split(*streamCases, ",") {
				cs, perr := parseStreamCase(s)
				if perr != nil {
					err = perr
					break
				}
				cases = append(cases, cs)
			}
		}
		if err == nil {
			var rows []StreamRow
			rows, err = Stream(ctx, c, dir, cases)
			if err == nil {
				err = writeStream(os.Stdout, rows, *asJSON)
			}
		}
	case *stan != "":
		err = WriteStan(*stan, *n, *d)
	case *reference:
		err = Regenerate(ctx, c)
	default:
		err = run(ctx, os.Stdout, c, *asJSON, *plotFile)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

// Regenerate recomputes and writes the cached reference of every case of
// c's plan.
func Regenerate(ctx context.Context, c Config) error {
	dir := c.RefDir
	if dir == "" {
		var err error
		if dir, err = refDir(); err != nil {
			return err
		}
	}
	for _, p := range c.plan() {
		cs := p.Case
		m, err := Load(&cs, c.DataDir)
		if err != nil {
			return err
		}
		draws := refDraws(cs)
		if c.RefDraws > 0 {
			draws = c.RefDraws
		}
		r, _, err := ComputeReference(ctx, cs, m, draws, c.Seed)
		if err != nil {
			return fmt.Errorf("%s: %w", cs.Name(), err)
		}
		if c.Log != nil {
			fmt.Fprintf(c.Log, "scale: reference %s: %d×%d draws, acceptance %.3f, min bulk ESS %.0f, max R̂ %.4f, %.0f s (%.0f CPU s)\n",
				cs.Name(), r.Chains, r.Draws, r.Acceptance, r.MinESS, r.MaxRHat, r.Seconds, r.CPUSeconds)
		}
		if err := WriteReference(dir, cs, r); err != nil {
			return err
		}
	}
	return nil
}

// WriteStan writes the simulated data of n rows in d dimensions as
// dir/X.bin (n·d float64, little-endian, row-major) and dir/y.bin (n
// float64, 0 or 1), the input of ../shared/bench/stan_logreg.R.
func WriteStan(dir string, n, d int) error {
	x, _, err := logreg.Simulate(n, d, dataSeed)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return errors.Join(writeFloats(filepath.Join(dir, "X.bin"), x.X), writeFloats(filepath.Join(dir, "y.bin"), x.Y))
}

// writeStream writes the -stream rows as JSON ({"rows": [...]}) or as
// one JSON row a line.
func writeStream(w io.Writer, rows []StreamRow, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(struct {
			Rows []StreamRow `json:"rows"`
		}{rows})
	}
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// run runs the experiment and writes the table, or the JSON object, to w,
// and the figure to plotFile.
func run(ctx context.Context, w io.Writer, c Config, asJSON bool, plotFile string) error {
	rows, err := Experiment(ctx, c)
	if err != nil {
		return err
	}
	if plotFile == "" {
		if plotFile, err = defaultPlot(); err != nil {
			return err
		}
	}
	if err := WriteFigure(plotFile, rows); err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(w).Encode(struct {
			Rows []Row `json:"rows"`
		}{rows})
	}
	return writeTable(w, rows)
}
