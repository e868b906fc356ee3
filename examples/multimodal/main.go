// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command multimodal runs every sample.Run method, with its defaults, on
// posteriors with several modes, heavy tails, or no proper density
// (issue 25, doc/adaptation.md §2.5, §8 and §9), over several seeds:
//
//	go run ./examples/multimodal            # a table
//	go run ./examples/multimodal -plot density.png   # and the figure
//	go run ./examples/multimodal -json      # {"multimodal_method": ..., "rows": [...]}
//
// Targets (internal/targets): bimodal_between and bimodal_from_mode, the
// equal mixture of N(∓μ, I), ‖μ‖ = 10, in 1-D and 10-D, started between
// the modes and at one of them; mixture4, four unit Gaussians in 2-D with
// weights 0.4, 0.3, 0.2, 0.1, started between them; gmm_labels, the
// posterior of a two-component mixture's means, judged modulo the labels
// (each draw sorted); student_t3 and cauchy, one mode, heavy tails,
// judged by their quartiles; improper (a flat direction) and
// nonidentified (y ~ N(a + b, 1), flat priors), which have no truth: the
// run must say what is wrong with the model.
//
// A row: max_mean_err_sd is the largest |mean − truth|/sd over the
// coordinates, max_sd_rel_err the largest |sd/truth − 1|, max_weight_err
// the largest error of a mode's weight (the share of draws in its basin),
// weight_tol max(0.05, 4 MCSE) with the weight's MCSE from the ESS of its
// indicator over the chains, max_quantile_err_iqr the largest error of the
// 25/50/75 % quantiles in interquartile ranges (each null where the target
// has no such truth), basins_found the number of the target's modes that
// hold at least 5 % of some chain's draws, mode_warning whether a warning
// says the chains are in separate modes. Each run is sample.Run with its
// defaults but for the seed and MaxGradEvals = 3·10⁷ per chain (maxGradEvals).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// Row is one line of the output.
type Row struct {
	Target        string   `json:"target"`
	D             int      `json:"d"`
	Method        string   `json:"method"`
	Seed          uint64   `json:"seed"`
	MeanErrSD     *float64 `json:"max_mean_err_sd"`
	SDRelErr      *float64 `json:"max_sd_rel_err"`
	WeightErr     *float64 `json:"max_weight_err"`
	WeightTol     *float64 `json:"weight_tol"`
	QuantileErr   *float64 `json:"max_quantile_err_iqr"`
	BasinsFound   *int     `json:"basins_found"`
	ModeWarning   bool     `json:"mode_warning"`
	Warnings      []string `json:"warnings"`
	Error         string   `json:"error"`
	Seconds       float64  `json:"seconds"`
	GradEvals     int64    `json:"grad_evals"`
	SetupEvals    int64    `json:"setup_evals"` // the control variates' full passes, not in grad_evals
	MinESSBulk    float64  `json:"min_ess_bulk"`
	MaxRHat       float64  `json:"max_rhat"`
	Divergences   int      `json:"divergences"`
	DrawsPerChain int      `json:"draws_per_chain"`
}

// methods are the sample.Run methods run, in table order; multimodalMethod is
// the one held to the goal on every mixture.
var methods = []string{"SGLD", "SGHMC", "SGNHT", "HAMCMC", "pSGLD", multimodalMethod}

const multimodalMethod = "ReplicaExchange"

// maxGradEvals bounds each chain's sampling run (sample.Settings.MaxGradEvals):
// a run that would cost more is an erroring row. On these 1-D and 2-D
// targets a chain that needs more than 3·10⁷ gradients is a first-order
// method on the Cauchy (steps set by the curvature at the mode, draws
// far apart in the tails), which would take minutes of the 10 the
// example has.
const maxGradEvals = 3e7

func method(name string) sample.Method {
	switch name {
	case "SGLD":
		return sample.SGLD{}
	case "SGHMC":
		return sample.SGHMC{}
	case "SGNHT":
		return sample.SGNHT{}
	case "HAMCMC":
		return sample.HAMCMC{}
	case "pSGLD":
		return sample.PSGLD{}
	}
	return nil
}

func main() {
	asJSON := flag.Bool("json", false, "print {\"multimodal_method\": ..., \"rows\": [...]} as JSON")
	seedList := flag.String("seeds", "1,2,3", "comma-separated seeds")
	tlist := flag.String("targets", strings.Join(targetNames, ","), "comma-separated targets")
	mlist := flag.String("methods", strings.Join(methods, ","), "comma-separated methods")
	plot := flag.String("plot", "", "write the four-mode mixture's density figure to this PNG file")
	flag.Parse()
	var seeds []uint64
	for _, f := range strings.Split(*seedList, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "multimodal: -seeds:", err)
			os.Exit(2)
		}
		seeds = append(seeds, v)
	}
	var rows []Row
	draws4 := map[string][]float64{} // mixture4 draws per method, first seed
	for _, tn := range strings.Split(*tlist, ",") {
		ts := newTargets(tn)
		if ts == nil {
			fmt.Fprintf(os.Stderr, "multimodal: unknown target %q\n", tn)
			os.Exit(2)
		}
		for _, t := range ts {
			for _, mn := range strings.Split(*mlist, ",") {
				for _, seed := range seeds {
					r, res := run(t, mn, seed)
					rows = append(rows, r)
					if !*asJSON {
						fmt.Fprintln(os.Stderr, r.line())
					}
					if tn == "mixture4" && seed == seeds[0] && res != nil {
						for _, c := range res.Finished() {
							draws4[mn] = append(draws4[mn], c.Draws...)
						}
					}
				}
			}
		}
	}
	if *plot != "" && len(draws4) > 0 {
		if err := densityPlot(*plot, draws4); err != nil {
			fmt.Fprintln(os.Stderr, "multimodal: figure:", err)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(struct {
			MultimodalMethod string `json:"multimodal_method"`
			Rows             []Row  `json:"rows"`
		}{multimodalMethod, rows}); err != nil {
			fmt.Fprintln(os.Stderr, "multimodal:", err)
			os.Exit(1)
		}
	}
}

func fp(v float64) *float64 { return &v }

// line is the row as one line of the table.
func (r Row) line() string {
	f := func(p *float64) string {
		if p == nil {
			return "    -"
		}
		return fmt.Sprintf("%5.3f", *p)
	}
	b := "-"
	if r.BasinsFound != nil {
		b = strconv.Itoa(*r.BasinsFound)
	}
	w := ""
	if len(r.Warnings) > 0 {
		w = fmt.Sprintf(" [%d warnings: %.70s]", len(r.Warnings), r.Warnings[0])
	}
	if r.Error != "" {
		w = " ERROR " + r.Error
	}
	return fmt.Sprintf("%-17s %2d %-15s seed %d  mean %s sd %s weight %s (tol %s) q %s basins %s  ESS %6.0f R̂ %.3f %5.1fs%s",
		r.Target, r.D, r.Method, r.Seed, f(r.MeanErrSD), f(r.SDRelErr), f(r.WeightErr), f(r.WeightTol), f(r.QuantileErr), b, r.MinESSBulk, r.MaxRHat, r.Seconds, w)
}

// run runs one cell.
func run(t target, mn string, seed uint64) (Row, *sample.Result) {
	r := Row{Target: t.name, D: t.d, Method: mn, Seed: seed, Warnings: []string{}}
	m := method(mn)
	if mn == multimodalMethod {
		m = sample.ReplicaExchange{}
	}
	if m == nil {
		r.Error = "unknown method " + mn
		return r, nil
	}
	t0 := time.Now()
	res, err := sample.Run(context.Background(), sample.Problem{Model: t.model}, t.start, &sample.Settings{Seed: seed, MaxGradEvals: maxGradEvals}, m)
	r.Seconds = time.Since(t0).Seconds()
	if err != nil {
		r.Error = err.Error()
	}
	if res == nil {
		return r, nil
	}
	r.Warnings = append(r.Warnings, res.Warnings.Messages()...)
	for _, w := range res.Warnings.Messages() {
		if strings.Contains(w, "separate modes") {
			r.ModeWarning = true
		}
	}
	r.GradEvals = res.SamplingGradEvals + 2*res.WarmupGradEvals
	r.SetupEvals = res.SetupGradEvals
	r.Divergences = res.Divergences
	if err != nil || len(res.Finished()) == 0 || t.improper {
		return r, res
	}
	judge(&r, t, res)
	return r, res
}

// judge fills r's errors from res's draws against t's truth.
func judge(r *Row, t target, res *sample.Result) {
	d := t.d
	var chains [][]float64 // per chain, row-major draws (sorted if t.sort)
	n := math.MaxInt
	finished := res.Finished()
	for _, c := range finished {
		x := append([]float64(nil), c.Draws...)
		if t.sort {
			for i := 0; i+d <= len(x); i += d {
				slices.Sort(x[i : i+d])
			}
		}
		chains = append(chains, x)
		n = min(n, len(x)/d)
	}
	r.DrawsPerChain = n
	r.MaxRHat = 0
	r.MinESSBulk = math.Inf(1)
	col := func(j int) [][]float64 {
		out := make([][]float64, len(chains))
		for k, x := range chains {
			out[k] = make([]float64, n)
			for i := range n {
				out[k][i] = x[i*d+j]
			}
		}
		return out
	}
	var all []float64
	for j := range d {
		cs := col(j)
		if rh, err := diagnostics.RHat(cs); err == nil {
			r.MaxRHat = math.Max(r.MaxRHat, rh)
		}
		if e, err := diagnostics.ESSBulk(cs); err == nil {
			r.MinESSBulk = math.Min(r.MinESSBulk, e)
		}
		all = all[:0]
		for _, c := range cs {
			all = append(all, c...)
		}
		if t.mean != nil {
			mu, sd := meanSD(all)
			me := math.Abs(mu-t.mean[j]) / t.sd[j]
			se := math.Abs(sd/t.sd[j] - 1)
			if r.MeanErrSD == nil || me > *r.MeanErrSD {
				r.MeanErrSD = fp(me)
			}
			if r.SDRelErr == nil || se > *r.SDRelErr {
				r.SDRelErr = fp(se)
			}
		}
		if t.quant != nil {
			slices.Sort(all)
			iqr := t.quant(j, 0.75) - t.quant(j, 0.25)
			for _, p := range []float64{0.25, 0.5, 0.75} {
				q := all[int(p*float64(len(all)-1))]
				e := math.Abs(q-t.quant(j, p)) / iqr
				if r.QuantileErr == nil || e > *r.QuantileErr {
					r.QuantileErr = fp(e)
				}
			}
		}
	}
	if math.IsInf(r.MinESSBulk, 1) {
		r.MinESSBulk = 0
	}
	if t.mode == nil {
		return
	}
	// Basins, and the modes' weights with their MCSE from the indicators.
	ind := make([][][]float64, t.modes)
	for k := range ind {
		ind[k] = make([][]float64, len(chains))
	}
	found := make([]bool, t.modes)
	for c, x := range chains {
		cnt := make([]int, t.modes)
		for k := range ind {
			ind[k][c] = make([]float64, n)
		}
		for i := range n {
			var th []float64
			if t.sort {
				th = finished[c].Draws[i*d : (i+1)*d] // the labels as sampled
			} else {
				th = x[i*d : (i+1)*d]
			}
			k := t.mode(th)
			ind[k][c][i] = 1
			cnt[k]++
		}
		for k, v := range cnt {
			if float64(v) >= 0.05*float64(n) {
				found[k] = true
			}
		}
	}
	b := 0
	for _, f := range found {
		if f {
			b++
		}
	}
	r.BasinsFound = &b
	if t.weights == nil {
		return
	}
	var werr, mcse float64
	for k, w := range t.weights {
		s := 0.0
		for _, c := range ind[k] {
			for _, v := range c {
				s += v
			}
		}
		werr = math.Max(werr, math.Abs(s/float64(n*len(chains))-w))
		if se, err := diagnostics.MCSEMean(ind[k]); err == nil && !math.IsNaN(se) {
			mcse = math.Max(mcse, se)
		} else if s > 0 && s < float64(n*len(chains)) {
			mcse = math.Inf(1)
		}
	}
	r.WeightErr = fp(werr)
	tol := math.Max(0.05, 4*mcse)
	if math.IsInf(tol, 1) {
		tol = math.MaxFloat64
	}
	r.WeightTol = fp(tol)
}

func meanSD(x []float64) (mu, sd float64) {
	for _, v := range x {
		mu += v
	}
	mu /= float64(len(x))
	for _, v := range x {
		sd += (v - mu) * (v - mu)
	}
	return mu, math.Sqrt(sd / float64(len(x)-1))
}
