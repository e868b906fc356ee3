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
	"text/tabwriter"
	"time"
)

func main() {
	c := DefaultConfig()
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout instead of the table")
	plotDir := flag.String("plot", "", "write the KL-against-steps plot and the contour plot with the first 10 points as PNG files into this directory")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "master random seed (tuning uses seed + 2³²)")
	flag.IntVar(&c.Chains, "chains", c.Chains, "independent chains per method, pooled")
	flag.Float64Var(&c.Sigma, "sigma", c.Sigma, "standard deviation of the gradient noise")
	flag.BoolVar(&c.Simultaneous, "simultaneous", false, "run SGHMC and gSGRHMC with the paper's displayed simultaneous (explicit Euler) updates")
	start := flag.String("start", "0,-1.2", "common initial θ₁,θ₂ of every chain")
	flag.BoolVar(&c.Dense, "dense", false, "run gSGRHMC with the dense Gauss–Newton metric (NewSGRHMCDense, no B̂; about 30 times slower)")
	flag.Parse()
	if _, err := fmt.Sscanf(*start, "%g,%g", &c.Start[0], &c.Start[1]); err != nil {
		fmt.Fprintln(os.Stderr, "banana2d: -start:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, c, *asJSON, *plotDir); err != nil {
		fmt.Fprintln(os.Stderr, "banana2d:", err)
		os.Exit(1)
	}
}

// Row is one line of the -json output: one method at one checkpoint.
type Row struct {
	Sampler string  `json:"sampler"`
	Steps   int     `json:"steps"`
	KL      float64 `json:"kl"`
	Eps     float64 `json:"eps"`
	// Friction is SGHMC's C and Kappa gSGRHMC's metric scale κ.
	Friction float64 `json:"friction,omitempty"`
	Kappa    float64 `json:"kappa,omitempty"`
	Chains   int     `json:"chains"`
	// Floor is the KL of as many exact draws (ExactFloor).
	Floor float64 `json:"floor"`
}

// run runs the experiment and writes the table, or the JSON object, to w,
// and the plots to plotDir unless it is empty.
func run(ctx context.Context, w io.Writer, c Config, asJSON bool, plotDir string) error {
	start := time.Now()
	res, err := Experiment(ctx, c)
	if err != nil {
		return err
	}
	floor := ExactFloor(c)
	elapsed := time.Since(start)
	if plotDir != "" {
		if err := writePlots(plotDir, c, res); err != nil {
			return err
		}
	}
	if asJSON {
		var rows []Row
		for _, r := range res {
			for i, t := range c.Checkpoints {
				row := Row{Sampler: r.Sampler, Steps: t, KL: r.KL[i], Eps: r.Point.Eps, Chains: c.Chains, Floor: floor[i]}
				switch r.Sampler {
				case "SGHMC":
					row.Friction = r.Point.P
				case "gSGRHMC":
					row.Kappa = r.Point.P
				}
				rows = append(rows, row)
			}
		}
		return json.NewEncoder(w).Encode(struct {
			Rows []Row `json:"rows"`
		}{rows})
	}
	fmt.Fprintf(w, "Recipe paper Figure 2 (right): KL of %d pooled chains from θ₀ = (%g, %g) after t steps, banana target,\n", c.Chains, c.Start[0], c.Start[1])
	fmt.Fprintf(w, "∇Ũ = ∇U + N(0, %g² I); grid %d × %d cells over [%g, %g] × [%g, %g]\n\n", c.Sigma, gridX.Bins, gridY.Bins, gridX.Min, gridX.Max, gridY.Min, gridY.Max)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "sampler\tε\tC or κ\t")
	for _, t := range c.Checkpoints {
		fmt.Fprintf(tw, "t = %d\t", t)
	}
	fmt.Fprintln(tw)
	for _, r := range res {
		p := "-"
		if paramName[r.Sampler] != "" {
			p = fmt.Sprintf("%s = %g", paramName[r.Sampler], r.Point.P)
		}
		fmt.Fprintf(tw, "%s\t%g\t%s\t", r.Sampler, r.Point.Eps, p)
		for _, v := range r.KL {
			fmt.Fprintf(tw, "%.3g\t", v)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprint(tw, "exact draws (floor)\t\t\t")
	for _, v := range floor {
		fmt.Fprintf(tw, "%.3g\t", v)
	}
	fmt.Fprintln(tw)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range res {
		if r.Tuning == nil {
			continue
		}
		fmt.Fprintf(w, "\nTuning %s: KL at t = %d of %d chains (seed %d); the smallest is chosen\n", r.Sampler, c.Checkpoints[len(c.Checkpoints)-1], c.Chains, c.Seed+TuneSeedOffset)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		var eps, ps []float64
		seen := map[float64]bool{}
		for _, pt := range c.Grid[r.Sampler] {
			if !seen[pt.Eps] {
				seen[pt.Eps] = true
				eps = append(eps, pt.Eps)
			}
			if len(ps) == 0 || ps[len(ps)-1] != pt.P {
				ps = append(ps, pt.P)
			}
		}
		if len(eps)*len(ps) != len(r.Tuning) { // not a product grid
			for i, pt := range c.Grid[r.Sampler] {
				fmt.Fprintf(tw, "ε = %g, %s = %g\t%.2g\t\n", pt.Eps, paramName[r.Sampler], pt.P, r.Tuning[i])
			}
		} else {
			if paramName[r.Sampler] != "" {
				fmt.Fprintf(tw, "%s\t", paramName[r.Sampler])
			}
			for _, e := range eps {
				fmt.Fprintf(tw, "ε = %g\t", e)
			}
			fmt.Fprintln(tw)
			for i, p := range ps {
				if paramName[r.Sampler] != "" {
					fmt.Fprintf(tw, "%g\t", p)
				}
				for j := range eps {
					fmt.Fprintf(tw, "%.2g\t", r.Tuning[i*len(eps)+j])
				}
				fmt.Fprintln(tw)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\n%.1f s\n", elapsed.Seconds())
	return nil
}
