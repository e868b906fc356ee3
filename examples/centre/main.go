// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command centre runs sample.Run's defaults on the two kinds of
// regression at N = 10⁶ on which the control variate's centre search
// once stopped short of the full-data mode (issue 37): a Student-t
// regression with 3 % gross outliers (d = 21) and a sparse logistic
// regression with d = 2,000 whose features come in correlated pairs. The
// reference is the Laplace approximation at the full-data mode, found by
// Newton's method with the exact Hessian: at N = 10⁶ the posterior is
// Gaussian to O(1/√N_j), N_j the rows that inform coordinate j (≥ 5,000
// here), a relative error in the sds of a few per mille.
//
// For every chain it prints the centre's distance from the mode in
// posterior sds (its worst coordinate), the centre search's last step and
// passes, and the chain's worst sd error; for the run, the worst pooled
// sd and mean errors and the warnings.
//
//	go run ./examples/centre              # both cases, seeds 1 and 2
//	go run ./examples/centre -json        # {"rows": [...]}
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"strings"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/internal/testmodel"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// Row is one chain of one run.
type Row struct {
	Case        string   `json:"case"`
	Seed        uint64   `json:"seed"`
	Chain       int      `json:"chain"`
	CentreSD    float64  `json:"centre_max_sd"` // max_j |θ̂_j − mode_j| / sd_j; −1 when no centre was used
	CentreStep  float64  `json:"centre_step"`   // the search's last step, whitened units
	Passes      int      `json:"setup_passes"`  // full passes of the chain's setup
	ChainSDErr  float64  `json:"chain_max_sd_rel_err"`
	RunSDErr    float64  `json:"max_sd_rel_err"` // pooled over the chains
	RunSDOver10 int      `json:"sd_over_10pct"`
	RunMeanErr  float64  `json:"max_mean_err_sd"`
	Warnings    []string `json:"warnings"`
	Seconds     float64  `json:"seconds"`
}

type target struct {
	name  string
	model sgmcmc.Model
	mode  []float64
	sd    []float64
	// budget is Settings.MaxGradEvals: the sparse case's SGLD run, at a
	// batch that grows with d to keep the heat within bound, needs about
	// 6·10⁸–1.3·10⁹ evaluations a chain, above the default 5·10⁸.
	budget int64
}

func main() {
	asJSON := flag.Bool("json", false, "print {\"rows\": [...]}")
	cases := flag.String("cases", "studentt,sparse", "comma-separated cases")
	seeds := flag.Int("seeds", 2, "seeds 1 … n")
	n := flag.Int("n", 1000000, "rows")
	flag.Parse()
	var rows []Row
	for _, name := range strings.Split(*cases, ",") {
		t, err := build(name, *n)
		if err != nil {
			log.Fatal(err)
		}
		for seed := uint64(1); seed <= uint64(*seeds); seed++ {
			rs, err := run(t, seed)
			if err != nil {
				log.Fatal(err)
			}
			rows = append(rows, rs...)
			if !*asJSON {
				for _, r := range rs {
					fmt.Printf("%-8s seed %d chain %d: centre %7.3f sd (step %.2g, %2d passes), chain sd err %5.1f %% | run: sd err %5.1f %% (%d > 10 %%), mean err %.2f sd, %d warnings, %.0f s\n",
						r.Case, r.Seed, r.Chain, r.CentreSD, r.CentreStep, r.Passes, 100*r.ChainSDErr, 100*r.RunSDErr, r.RunSDOver10, r.RunMeanErr, len(r.Warnings), r.Seconds)
				}
				for _, w := range rs[0].Warnings {
					fmt.Println("   warning:", w)
				}
			}
		}
	}
	if *asJSON {
		json.NewEncoder(os.Stdout).Encode(map[string]any{"rows": rows})
	}
}

// build simulates a case and finds its reference.
func build(name string, n int) (*target, error) {
	switch name {
	case "studentt":
		m, start := testmodel.SimulateStudentT(n, 20, 0.03, 1)
		mode, sd, err := testmodel.Laplace(m, start, m.Hessian)
		return &target{name, m, mode, sd, 0}, err
	case "sparse":
		x := simulateSparse(n, 2000, 7, 1)
		m, err := logreg.NewModel(x, 1)
		if err != nil {
			return nil, err
		}
		mode, sd, err := testmodel.Laplace(m, make([]float64, m.Dim()), m.Hessian)
		return &target{name, m, mode, sd, 2e9}, err
	}
	return nil, fmt.Errorf("unknown case %q", name)
}

// run samples t with sample.Run's defaults and compares each chain.
func run(t *target, seed uint64) ([]Row, error) {
	d := t.model.Dim()
	t0 := time.Now()
	res, err := sample.Run(context.Background(), sample.Problem{Model: t.model}, make([]float64, d), &sample.Settings{Seed: seed, MaxGradEvals: t.budget}, nil)
	if err != nil {
		if res != nil {
			for c, a := range res.Adapted {
				fmt.Fprintf(os.Stderr, "chain %d: batch %d, centre step %.3g, passes %d, centre %v\n", c+1, a.BatchSize, a.CenterStep, a.SetupPasses, a.Center != nil)
			}
		}
		return nil, err
	}
	secs := time.Since(t0).Seconds()
	var ws []string
	for _, w := range res.Warnings {
		ws = append(ws, w.String())
	}
	pooledMean, pooledSD := moments(res.Finished(), d)
	var sdErr, meanErr float64
	over := 0
	for j := range d {
		e := math.Abs(pooledSD[j]/t.sd[j] - 1)
		sdErr = math.Max(sdErr, e)
		if e > 0.1 {
			over++
		}
		meanErr = math.Max(meanErr, math.Abs(pooledMean[j]-t.mode[j])/t.sd[j])
	}
	var rows []Row
	for c, ch := range res.Chains {
		a := res.Adapted[c]
		cd := -1.0
		if a.Center != nil {
			cd = 0
			for j := range d {
				cd = math.Max(cd, math.Abs(a.Center[j]-t.mode[j])/t.sd[j])
			}
		}
		_, sd := moments([]*sgmcmc.Chain{ch}, d)
		var ce float64
		for j := range d {
			ce = math.Max(ce, math.Abs(sd[j]/t.sd[j]-1))
		}
		rows = append(rows, Row{Case: t.name, Seed: seed, Chain: c + 1, CentreSD: cd, CentreStep: a.CenterStep, Passes: a.SetupPasses,
			ChainSDErr: ce, RunSDErr: sdErr, RunSDOver10: over, RunMeanErr: meanErr, Warnings: ws, Seconds: secs})
	}
	return rows, nil
}

// moments returns the means and sds of every coordinate over the chains.
func moments(chains []*sgmcmc.Chain, d int) (mean, sd []float64) {
	mean, sd = make([]float64, d), make([]float64, d)
	var n float64
	for _, c := range chains {
		for i := range c.Len() {
			n++
			for j, v := range c.At(i) {
				mean[j] += v
				sd[j] += v * v
			}
		}
	}
	for j := range d {
		mean[j] /= n
		sd[j] = math.Sqrt(sd[j]/n - mean[j]*mean[j])
	}
	return mean, sd
}
