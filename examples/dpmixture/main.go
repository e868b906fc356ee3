// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"cmp"
	"context"
	"encoding/json"
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
)

func main() {
	c := DefaultConfig()
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout instead of the table")
	plotDir := flag.String("plot", "", "write the test log predictive and cluster-count plots as PNG files into this directory")
	dataDir := flag.String("data", "", "directory holding anonymous-msweb.data and anonymous-msweb.test (default: testdata/msweb of this repository)")
	full := flag.Bool("full", false, "the full experiment: tuning, then 20,000 iterations and 500 Gibbs sweeps per seed")
	tune := flag.Bool("tune", false, "choose each stochastic method's step size over its grid on a validation split first (at the run's length; -full does)")
	seeds := flag.Int("seeds", 0, "seeds per method (default 5)")
	iters := flag.Int("iterations", 0, "minibatch iterations of SCIR, SGRLD and SGRLD-PT (default 5000; -full 20000)")
	sweeps := flag.Int("sweeps", 0, "Gibbs sweeps (default 100; -full 500)")
	flag.IntVar(&c.Workers, "workers", 0, "chains run at once (default GOMAXPROCS)")
	hSCIR := flag.Float64("h-scir", c.H[SCIR], "SCIR step size (without tuning)")
	hSGRLD := flag.Float64("h-sgrld", c.H[SGRLD], "SGRLD step size (without tuning)")
	hPT := flag.Float64("h-sgrld-pt", c.H[SGRLDPT], "SGRLD-PT step size (without tuning)")
	flag.Parse()
	if *full {
		w := c.Workers
		c = FullConfig()
		c.Workers = w
	}
	c.H[SCIR], c.H[SGRLD], c.H[SGRLDPT] = *hSCIR, *hSGRLD, *hPT
	if *tune {
		c.Tune = true
	}
	if *seeds > 0 {
		c.Seeds = *seeds
	}
	if *iters > 0 {
		c.Iterations = *iters
		c.EvalEvery = max(1, min(c.EvalEvery, *iters/10))
	}
	if *sweeps > 0 {
		c.Sweeps = *sweeps
		c.SweepEvalEvery = max(1, min(c.SweepEvalEvery, *sweeps/10))
	}
	c.Progress = os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, c, *dataDir, *asJSON, *plotDir); err != nil {
		fmt.Fprintln(os.Stderr, "dpmixture:", err)
		os.Exit(1)
	}
}

// Row is one line of the -json output: one chain at one checkpoint.
type Row struct {
	Method string `json:"method"`
	Seed   uint64 `json:"seed"`
	// Iteration counts minibatch iterations (SCIR, SGRLD, SGRLD-PT) or full sweeps
	// (Gibbs).
	Iteration int `json:"iteration"`
	// UsersSeen is Iteration times the users per iteration.
	UsersSeen int `json:"users_seen"`
	// TestLogLik is the mean log predictive density per test user of the
	// current state (higher is better).
	TestLogLik float64 `json:"test_loglik"`
	// Clusters is the number of components holding training users.
	Clusters int     `json:"clusters"`
	Alpha    float64 `json:"alpha"`
	// H is the step size (0 for Gibbs).
	H float64 `json:"h"`
}

// run loads the data, runs the experiment and writes the table, or the
// JSON object, to w, and the plots to plotDir unless it is empty.
func run(ctx context.Context, w io.Writer, c Config, dataDir string, asJSON bool, plotDir string) error {
	start := time.Now()
	dir, err := DataDir(dataDir)
	if err != nil {
		return err
	}
	d, err := LoadData(dir)
	if err != nil {
		return err
	}
	res, err := Experiment(ctx, d, c)
	if err != nil {
		return err
	}
	if plotDir != "" {
		if err := writePlots(plotDir, d, c, res); err != nil {
			return err
		}
	}
	if asJSON {
		rows := []Row{}
		for _, r := range res.Runs {
			per := c.Batch
			if r.Method == Gibbs {
				per = d.Train.Len()
			}
			for k, it := range r.Iteration {
				rows = append(rows, Row{Method: r.Method, Seed: r.Seed, Iteration: it, UsersSeen: it * per,
					TestLogLik: r.TestLogLik[k], Clusters: r.Clusters[k], Alpha: r.Alpha[k], H: r.H})
			}
		}
		return json.NewEncoder(w).Encode(struct {
			Rows []Row `json:"rows"`
		}{rows})
	}
	return writeTable(w, d, c, res, time.Since(start))
}

// summary is one method's final numbers over seeds.
type summary struct {
	method                    string
	h                         float64
	iterations                int
	last, lastSD, tail, tail2 float64
	clusters, alpha           float64
	seconds, msPerIter        float64
	truncations               int
}

func summarize(res *Result, c Config) []summary {
	var out []summary
	for _, m := range []string{SCIR, SGRLD, SGRLDPT, Gibbs} {
		var last, tail, clusters, alpha, secs []float64
		s := summary{method: m}
		for _, r := range res.Runs {
			if r.Method != m {
				continue
			}
			n := len(r.Iteration) - 1
			s.h, s.iterations = r.H, r.Iteration[n]
			last = append(last, r.TestLogLik[n])
			tail = append(tail, tailMean(r.TestLogLik[1:], 4))
			clusters = append(clusters, float64(r.Clusters[n]))
			alpha = append(alpha, tailMean(r.Alpha[1:], 4))
			secs = append(secs, r.Seconds)
			s.truncations += r.Truncations
		}
		if len(last) == 0 {
			continue
		}
		s.last, s.lastSD = meanSD(last)
		s.tail, s.tail2 = meanSD(tail)
		s.clusters, _ = meanSD(clusters)
		s.alpha, _ = meanSD(alpha)
		s.seconds, _ = meanSD(secs)
		s.msPerIter = 1000 * s.seconds / float64(s.iterations)
		out = append(out, s)
	}
	return out
}

func meanSD(x []float64) (mean, sd float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	for _, v := range x {
		sd += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(sd / float64(len(x)-1))
}

func writeTable(w io.Writer, d *Data, c Config, res *Result, elapsed time.Duration) error {
	fmt.Fprintf(w, "SCIR paper Figure 3b: Dirichlet-process mixture of multinomials on msweb (%d training users, %d test users, %d areas),\n",
		d.Train.Len(), d.Test.Len(), d.V())
	fmt.Fprintf(w, "θ_j ~ Dirichlet(%g), α ~ Gamma(%g, %g); slice sampler with %d components held, users started on %d;\n", c.Prior.A, c.Prior.B1, c.Prior.B2, c.KMax, c.K0)
	fmt.Fprintf(w, "SCIR, SGRLD (the library's) and SGRLD-PT (Patterson & Teh's form): minibatches of n = %d users, fixed step h;\nGibbs: exact full-data sweeps. Seeds 1 to %d.\n\n", c.Batch, c.Seeds)
	fmt.Fprintln(w, "Test log predictive per user (higher is better): mean ± sd over seeds, at the last checkpoint and averaged over the last quarter")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\th\titerations\tlast\tlast quarter\tclusters\tα\ts per chain\tms per iteration\tusers/s\ttruncations\t")
	for _, s := range summarize(res, c) {
		h, it, per := fmt.Sprint(s.h), fmt.Sprint(s.iterations), c.Batch
		if s.method == Gibbs {
			h, it, per = "-", fmt.Sprintf("%d sweeps", s.iterations), d.Train.Len()
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.4f ± %.4f\t%.4f ± %.4f\t%.1f\t%.2f\t%.1f\t%.2f\t%.0f\t%d\t\n",
			s.method, h, it, s.last, s.lastSD, s.tail, s.tail2, s.clusters, s.alpha, s.seconds, s.msPerIter, 1000*float64(per)/s.msPerIter, s.truncations)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "One component (a Dirichlet–multinomial fitted to all training users): %.4f\n", res.OneComponent)
	// The curves, averaged over seeds, at a few checkpoints.
	fmt.Fprintln(w, "\nMean test log predictive over seeds against iterations (Gibbs: sweeps); clusters in parentheses")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, m := range []string{SCIR, SGRLD, SGRLDPT, Gibbs} {
		its, ll, cl := meanCurve(res.Runs, m)
		if its == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t", m)
		for _, k := range pickCheckpoints(its, 7) {
			fmt.Fprintf(tw, "%d: %.3f (%.0f)\t", its[k], ll[k], cl[k])
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if res.Tuning != nil {
		fmt.Fprintf(w, "\nTuning: validation log predictive (%d training users held out, seed 1000, %d iterations, mean over the last third); the largest is chosen\n",
			c.TuneValidation, c.Iterations)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, m := range []string{SCIR, SGRLD, SGRLDPT} {
			fmt.Fprintf(tw, "%s\t", m)
			for k, v := range res.Tuning[m] {
				fmt.Fprintf(tw, "h = %g: %.4f\t", c.TuneGrid[m][k], v)
			}
			fmt.Fprintf(tw, "chosen %g\t\n", res.H[m])
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, r := range res.Runs {
		if r.Method == Gibbs && r.chain != nil {
			fmt.Fprintf(w, "\nThe largest clusters of the Gibbs chain (seed %d) at the end, with their most likely areas:\n", r.Seed)
			describeClusters(w, d, r.chain, 6, 5)
			break
		}
	}
	fmt.Fprintf(w, "\n%.1f s in all\n", elapsed.Seconds())
	return nil
}

// meanCurve averages a method's checkpoints over seeds (the seeds share
// their checkpoints).
func meanCurve(runs []Run, method string) (its []int, ll, cl []float64) {
	var n int
	for _, r := range runs {
		if r.Method != method {
			continue
		}
		if its == nil {
			its = r.Iteration
			ll = make([]float64, len(its))
			cl = make([]float64, len(its))
		}
		for k := range its {
			ll[k] += r.TestLogLik[k]
			cl[k] += float64(r.Clusters[k])
		}
		n++
	}
	for k := range ll {
		ll[k] /= float64(n)
		cl[k] /= float64(n)
	}
	return its, ll, cl
}

// pickCheckpoints returns about m indices of its, spaced evenly on a log
// scale, always including the last.
func pickCheckpoints(its []int, m int) []int {
	var out []int
	last := float64(its[len(its)-1])
	for q := range m {
		target := math.Pow(last, float64(q+1)/float64(m))
		k, _ := slices.BinarySearch(its, int(math.Ceil(target)))
		k = min(k, len(its)-1)
		if len(out) == 0 || out[len(out)-1] != k {
			out = append(out, k)
		}
	}
	return out
}

// describeClusters prints the largest clusters, each with its share of the
// users and its most likely areas.
func describeClusters(w io.Writer, d *Data, ch *Chain, clusters, areas int) {
	occ := make([]int, ch.K)
	for _, k := range ch.Assignments() {
		occ[k]++
	}
	order := make([]int, ch.K)
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(occ[b], occ[a]) })
	theta := ch.Theta()
	V := d.V()
	for _, j := range order[:min(clusters, len(order))] {
		if occ[j] == 0 {
			break
		}
		row := theta[j*V : (j+1)*V]
		idx := make([]int, V)
		for v := range idx {
			idx[v] = v
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(row[b], row[a]) })
		var names []string
		for _, v := range idx[:areas] {
			names = append(names, fmt.Sprintf("%s %.2f", strings.TrimSpace(d.Areas[v].Title), row[v]))
		}
		fmt.Fprintf(w, "  %4.1f %% of users: %s\n", 100*float64(occ[j])/float64(len(ch.Assignments())), strings.Join(names, ", "))
	}
}
