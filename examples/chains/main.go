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
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/plots"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("chains: ")
	var c Config
	chain := flag.Int("chain", -1, "index k of the chain to run, 0 … chains−1 (default: $JOB_COMPLETION_INDEX, else $SLURM_ARRAY_TASK_ID)")
	flag.IntVar(&c.Chains, "chains", 4, "number K of chains in the analysis")
	flag.StringVar(&c.Method, "method", "sample", "sample (sgmcmc.Sample, adapted) or sghmc (hand-tuned SGHMC, a chain of sgmcmc.RunChains)")
	flag.Uint64Var(&c.Seed, "seed", 1, "master seed of the analysis")
	flag.IntVar(&c.Draws, "draws", 1000, "draws kept per chain")
	out := flag.String("out", "chains-out", "`DIR` of the chain files DIR/chain-<k>.csv")
	all := flag.Bool("all", false, "run all K chains in this process (the single-process reference) and write their files")
	merge := flag.Bool("merge", false, "merge the chain files (DIR/chain-*.csv, or the files given as arguments) and print the summary across them")
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} (the summary table) instead of the table")
	plotDir := flag.String("plot", "", "with -merge or -all, write trace and rank plots to `DIR`/trace.png and DIR/rank.png")
	flag.Parse()

	var (
		table  diagnostics.Table
		chains []*stancsv.Chain
		err    error
		start  = time.Now()
	)
	switch {
	case *merge:
		files := flag.Args()
		if len(files) == 0 {
			if files, err = chainFiles(*out); err != nil {
				log.Fatal(err)
			}
		}
		if chains, table, err = Merge(files); err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "chains: merged %d chains from %d files\n", len(chains), len(files))
	case *all:
		if chains, table, err = RunAll(context.Background(), c, newModel()); err != nil {
			log.Fatal(err)
		}
		for k, ch := range chains {
			if _, err := writeChain(*out, k, ch); err != nil {
				log.Fatal(err)
			}
		}
		fmt.Fprintf(os.Stderr, "chains: ran all %d chains in one process in %.1f s; wrote %s\n", c.Chains, time.Since(start).Seconds(), chainFile(*out, 0)+" …")
	default:
		k, from, err := ChainIndex(*chain, os.Getenv)
		if err != nil {
			log.Fatal(err)
		}
		c.Chain = k
		ch, warnings, err := RunChain(context.Background(), c, newModel())
		if err != nil {
			log.Fatalf("chain %d of %d: %v", k, c.Chains, err)
		}
		name, err := writeChain(*out, k, ch)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "chains: chain %d of %d (index from %s): %d draws in %.1f s, wrote %s\n", k, c.Chains, from, ch.Len(), time.Since(start).Seconds(), name)
		for _, w := range warnings {
			fmt.Fprintf(os.Stderr, "chains: chain %d alone: %s\n", k, w)
		}
		if table, err = diagnostics.NewTable(ch.Names, []*stancsv.Chain{ch}); err != nil {
			log.Fatal(err)
		}
		chains = []*stancsv.Chain{ch}
	}
	if err := report(os.Stdout, table, *asJSON); err != nil {
		log.Fatal(err)
	}
	if *plotDir != "" && len(chains) > 1 {
		if err := writePlots(*plotDir, chains); err != nil {
			log.Fatal(err)
		}
	}
}

// report prints the table, or {"rows": table} as JSON.
func report(w io.Writer, t diagnostics.Table, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(struct {
			Rows diagnostics.Table `json:"rows"`
		}{t})
	}
	_, err := t.WriteTo(w)
	return err
}

// writePlots writes trace and rank plots of the merged chains.
func writePlots(dir string, chains []*stancsv.Chain) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	method, _ := chains[0].Lookup("method")
	title := fmt.Sprintf("%d chains (%s) merged from their files; file chain-k.csv is chain k+1 below", len(chains), method)
	o := &plots.Options{Title: title}
	if err := plots.SaveTrace(filepath.Join(dir, "trace.png"), chains[0].Names, chains, o); err != nil {
		return err
	}
	return plots.SaveRank(filepath.Join(dir, "rank.png"), chains[0].Names, chains, o)
}
