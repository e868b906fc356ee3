// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command glm runs the models package's ready models with sample.Run's
// defaults on the cases of its check against Stan (internal/glmcases:
// every family and link, an offset, trials, a categorical response, the
// regularised horseshoe, and hierarchical models — varying intercepts with
// a half-Cauchy scale on 50 groups of 400 rows and of 4 rows, the eight
// schools, a varying intercept and slope correlated under an LKJ prior),
// for each seed, and compares every natural parameter with rstan's NUTS
// (20,000 draws), with 4 chains of 2,000 draws. A timing row compares the
// package's logistic minibatch gradient with the hand-written
// internal/logreg model.
//
//	go run ./examples/glm                   # a table, seeds 1 and 2
//	go run ./examples/glm -json -seeds 1,2  # {"rows": [...]}
//	go run ./examples/glm -cases hier_group_few_gaussian -draws 8000
//
// A row: mean_err_over_tol is the largest |mean − Stan's| over its
// tolerance 4·√(MCSE² + MCSE_Stan²) + 0.05·sd (at most 1 is right);
// sd_err_over_tol the same for the sds (tolerance 4/√(2 ESS) + 5 %);
// parameterisation what the rule chose for the grouping factor (centred,
// non-centred, mixed, or none); seconds the wall time of sample.Run.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc/internal/glmcases"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/models"
	"github.com/sgmcmc-go/sgmcmc/sample"

	"gonum.org/v1/gonum/mat"
)

// draws is each chain's draws: twice sample.Run's default, so that the
// least bulk ESS of every case is well above 1,000 (the hierarchical
// cases' group sd mixes slowest; with 1,000 draws a chain of the 50-group
// case can also lack the draws to re-adapt its 54 parameters from).
// -draws changes it, to see how a case's R̂ and ESS move with the run's
// length.
var draws = 2000

// Row is one line of the output.
type Row struct {
	Model            string   `json:"model"`
	Seed             uint64   `json:"seed"`
	N                int      `json:"n"`
	D                int      `json:"d"`
	Parameterisation string   `json:"parameterisation"`
	MeanErrOverTol   *float64 `json:"mean_err_over_tol"`
	SDErrOverTol     *float64 `json:"sd_err_over_tol"`
	MaxSDRelErr      *float64 `json:"max_sd_rel_err"`
	MaxRhat          *float64 `json:"max_rhat"`
	MinESSBulk       *float64 `json:"min_ess_bulk"`
	Warnings         []string `json:"warnings"`
	Seconds          float64  `json:"seconds"`
	// Hard says why the defaults may not mix the case (glmcases.Case.Hard):
	// it must be right or warned of.
	Hard string `json:"hard,omitempty"`
	// The timing row's: ns per item of a minibatch gradient.
	ModelNsPerItem       float64 `json:"model_ns_per_item,omitempty"`
	HandwrittenNsPerItem float64 `json:"handwritten_ns_per_item,omitempty"`
}

func main() {
	asJSON := flag.Bool("json", false, "print {\"rows\": [...]}")
	seedList := flag.String("seeds", "1,2", "comma-separated seeds of sample.Run")
	only := flag.String("cases", "", "comma-separated cases (default: all)")
	flag.IntVar(&draws, "draws", draws, "draws a chain (the default is the documented check's)")
	flag.Parse()
	var seeds []uint64
	for _, s := range strings.Split(*seedList, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			log.Fatalf("-seeds: %v", err)
		}
		seeds = append(seeds, v)
	}
	var rows []Row
	for _, c := range glmcases.Cases {
		if *only != "" && !strings.Contains(","+*only+",", ","+c.Name+",") {
			continue
		}
		for _, seed := range seeds {
			r, err := run(c.Name, seed)
			if err != nil {
				log.Fatalf("%s seed %d: %v", c.Name, seed, err)
			}
			r.Hard = c.Hard
			rows = append(rows, r)
			if !*asJSON {
				fmt.Printf("%-26s seed %d  n %6d  d %3d  %-11s  mean %.2f  sd %.2f of tol (%.1f%%)  R̂ %.3f  ESS %5.0f  %d warnings  %.1f s\n",
					r.Model, r.Seed, r.N, r.D, r.Parameterisation, *r.MeanErrOverTol, *r.SDErrOverTol, 100**r.MaxSDRelErr, *r.MaxRhat, *r.MinESSBulk, len(r.Warnings), r.Seconds)
				for _, w := range r.Warnings {
					fmt.Println("    warning:", w)
				}
			}
		}
	}
	t := timing()
	rows = append(rows, t)
	if *asJSON {
		if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"rows": rows}); err != nil {
			log.Fatal(err)
		}
		return
	}
	fmt.Printf("logistic gradient, d = 20, batch 1,000: models %.1f ns/item, hand-written %.1f ns/item (%.2f×)\n", t.ModelNsPerItem, t.HandwrittenNsPerItem, t.ModelNsPerItem/t.HandwrittenNsPerItem)
}

// run samples case name with seed and compares it with its reference.
func run(name string, seed uint64) (Row, error) {
	ref, err := glmcases.ReadRef(name)
	if err != nil {
		return Row{}, err
	}
	g, s, err := glmcases.Load(name)
	if err != nil {
		return Row{}, err
	}
	m, err := models.NewGLM(g)
	if err != nil {
		return Row{}, err
	}
	p, err := m.Problem()
	if err != nil {
		return Row{}, err
	}
	t0 := time.Now()
	res, err := sample.Run(context.Background(), p, m.Start(), &sample.Settings{Seed: seed, Draws: draws}, nil)
	if err != nil {
		return Row{}, err
	}
	secs := time.Since(t0).Seconds()
	tab, err := m.Summary(res.Finished())
	if err != nil {
		return Row{}, err
	}
	mo, so, rel, err := glmcases.Errors(tab, ref)
	if err != nil {
		return Row{}, err
	}
	rhat, ess := 0.0, 1e300
	for _, r := range tab {
		rhat = max(rhat, r.RHat)
		ess = min(ess, r.ESSBulk)
	}
	par := "none"
	if s.Group != nil {
		nc, c := 0, 0
		for _, cen := range m.Centred(*s.Group) {
			if cen {
				c++
			} else {
				nc++
			}
		}
		switch {
		case nc == 0:
			par = "centred"
		case c == 0:
			par = "non-centred"
		default:
			par = "mixed"
		}
	}
	return Row{Model: name, Seed: seed, N: m.Len(), D: m.Dim(), Parameterisation: par, MeanErrOverTol: &mo, SDErrOverTol: &so,
		MaxSDRelErr: &rel, MaxRhat: &rhat, MinESSBulk: &ess, Warnings: res.Warnings.Messages(), Seconds: secs}, nil
}

// timing measures a minibatch gradient of 1,000 rows (about the batch
// sample.Run chooses with a control variate at d = 20) of a logistic
// regression (N = 10⁵, d = 20) as this package's Bernoulli GLM and as the
// hand-written internal/logreg model, alternately seven times each, and
// keeps each one's fastest.
func timing() Row {
	const n, d, batch = 100_000, 20, 1000
	data, _, err := logreg.Simulate(n, d, 1)
	if err != nil {
		log.Fatal(err)
	}
	hand, err := logreg.NewDenseModel(data, 100)
	if err != nil {
		log.Fatal(err)
	}
	m, err := models.NewGLM(models.GLM{Family: models.Bernoulli, Y: data.Y, X: mat.NewDense(n, d, data.X), NoIntercept: true, Prior: models.Normal(0, 10)})
	if err != nil {
		log.Fatal(err)
	}
	theta := make([]float64, d)
	idx := rand.New(rand.NewPCG(1, 2)).Perm(n)[:batch]
	dst := make([]float64, d)
	ns := func(f func([]float64, []float64, []int, float64)) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				f(dst, theta, idx, 1)
			}
		})
		return float64(r.NsPerOp()) / batch
	}
	best := [2]float64{1e300, 1e300}
	for range 7 {
		best[0] = min(best[0], ns(m.LogLikGradBatch))
		best[1] = min(best[1], ns(hand.LogLikGradBatch))
	}
	return Row{Model: "timing_logistic_gradient", N: n, D: d, Parameterisation: "none", ModelNsPerItem: best[0], HandwrittenNsPerItem: best[1], Warnings: []string{}}
}
