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
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
)

func main() {
	asJSON := flag.Bool("json", false, "print one JSON object {\"rows\": [...]} to stdout instead of the table (notes go to stderr)")
	plotDir := flag.String("plot", "", "write perplexity.png (against documents processed) and perplexity_gibbs.png (log axis, with the whole Gibbs run) into this directory")
	dataDir := flag.String("data", "", "directory with docword.train.txt.gz, docword.test.txt.gz and vocab.txt (default: testdata/brown of the module around the working directory)")
	full := flag.Bool("full", false, "the full experiment: 20 passes and 300 Gibbs sweeps (about 13 minutes of CPU)")
	tune := flag.Bool("tune", false, "tune every method over its grid first (one seed, the same budget), then run the winners")
	seeds := flag.Int("seeds", 0, "seeds per method (default 5)")
	passes := flag.Float64("passes", 0, "passes over the training set for the SG methods (default 10; 20 with -full)")
	sweeps := flag.Int("gibbs", 0, "collapsed Gibbs sweeps (default 100; 300 with -full)")
	methods := flag.String("methods", "", "comma-separated methods to run (default all: SGLD,SGHMC,SGRLD,gSGRHMC,SCIR,Gibbs)")
	euclidMean := flag.Bool("euclid-mean", false, "run SGLD and SGHMC on the expanded mean θ (reflected at 0) instead of log θ; they diverge (see doc.go)")
	quiet := flag.Bool("quiet", false, "no progress notes on stderr")
	beta := flag.Float64("beta", 0, "the topics' Dirichlet parameter β for every method (default 0.5, the SCIR paper's; below ½ gSGRHMC's discretisation is biased, see the package doc)")
	flag.Parse()

	cfg := DefaultConfig()
	if *full {
		cfg = FullConfig()
	}
	cfg.Tune = *tune
	if *beta > 0 {
		cfg.Model.Beta = *beta
	}
	cfg.EuclidMean = *euclidMean
	if *seeds > 0 {
		cfg.Seeds = *seeds
	}
	if *sweeps > 0 {
		cfg.GibbsSweeps = *sweeps
	}
	if *methods != "" {
		for _, m := range strings.Split(*methods, ",") {
			if !slices.Contains(append(slices.Clone(sgMethods), Gibbs), m) {
				fmt.Fprintf(os.Stderr, "lda: unknown method %q\n", m)
				os.Exit(2)
			}
			cfg.Methods = append(cfg.Methods, m)
		}
	}
	if !*quiet {
		cfg.Log = os.Stderr
	}
	dir := *dataDir
	if dir == "" {
		var err error
		if dir, err = findData(); err != nil {
			fmt.Fprintln(os.Stderr, "lda:", err)
			os.Exit(1)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, os.Stderr, cfg, dir, *passes, *asJSON, *plotDir); err != nil {
		fmt.Fprintln(os.Stderr, "lda:", err)
		os.Exit(1)
	}
}

// Row is one line of the -json output: one method and seed at one
// checkpoint.
type Row struct {
	Method string `json:"method"`
	Seed   uint64 `json:"seed"`
	// DocsSeen is the number of documents processed: minibatches × 50 for
	// the SG methods, sweeps × training documents for Gibbs, 0 for the
	// unigram model.
	DocsSeen   int     `json:"docs_seen"`
	Perplexity float64 `json:"perplexity"`
	// Seconds is the training time so far (evaluations excluded).
	Seconds float64 `json:"seconds"`
	H       float64 `json:"h,omitempty"`
	Tau     float64 `json:"tau,omitempty"`
	Kappa   float64 `json:"kappa,omitempty"`
	C       float64 `json:"c,omitempty"`
}

func rows(res *Results) []Row {
	out := []Row{{Method: Unigram, DocsSeen: 0, Perplexity: res.Unigram}}
	for _, m := range methodOrder(res) {
		for _, r := range res.Runs[m] {
			for _, p := range r.Points {
				out = append(out, Row{Method: m, Seed: r.Seed, DocsSeen: p.Docs, Perplexity: p.Perplexity, Seconds: p.Seconds,
					H: r.Setting.H, Tau: r.Setting.Tau, Kappa: r.Setting.Kappa, C: r.Setting.C})
			}
		}
	}
	return out
}

// methodOrder lists the methods run, in table order.
func methodOrder(res *Results) []string {
	var out []string
	for _, m := range append(slices.Clone(sgMethods), Gibbs) {
		if len(res.Runs[m]) > 0 {
			out = append(out, m)
		}
	}
	return out
}

// run loads the data, runs the experiment (with the given number of passes
// over the training set, if positive) and writes the table or the JSON
// object to w, notes to notes, and the plots to plotDir unless it is empty.
func run(ctx context.Context, w, notes io.Writer, cfg Config, dir string, passes float64, asJSON bool, plotDir string) error {
	data, err := LoadData(dir)
	if err != nil {
		return err
	}
	if passes > 0 {
		cfg.Batches = max(1, int(math.Round(passes*float64(data.Train.Len())/float64(cfg.Batch))))
	}
	if data.Train.Empty+data.Test.Empty > 0 {
		fmt.Fprintf(notes, "lda: skipped %d empty training and %d empty test documents\n", data.Train.Empty, data.Test.Empty)
	}
	res, err := Experiment(ctx, cfg, data)
	if err != nil {
		return err
	}
	if plotDir != "" {
		if err := writePlots(plotDir, res); err != nil {
			return err
		}
	}
	if asJSON {
		if err := json.NewEncoder(w).Encode(struct {
			Rows []Row `json:"rows"`
		}{rows(res)}); err != nil {
			return err
		}
		printClaims(notes, res)
		printTopics(notes, res, data.Vocab)
		return nil
	}
	return printTable(w, res, data)
}

// summary is a method's perplexity over seeds at one checkpoint.
type summary struct {
	med, lo, hi float64
	n           int
}

func summarize(v []float64) summary {
	if len(v) == 0 {
		return summary{med: math.NaN()}
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return summary{med: med, lo: s[0], hi: s[len(s)-1], n: len(s)}
}

func (s summary) String() string {
	if s.n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f [%.0f–%.0f]", s.med, s.lo, s.hi)
}

// at returns the perplexities over seeds at the last checkpoint with at
// most docs documents.
func at(runs []Run, docs int) []float64 {
	var v []float64
	for _, r := range runs {
		i := sort.Search(len(r.Points), func(i int) bool { return r.Points[i].Docs > docs }) - 1
		if i >= 0 {
			v = append(v, r.Points[i].Perplexity)
		}
	}
	return v
}

// final returns the perplexities over seeds at each run's last checkpoint.
func final(runs []Run) []float64 {
	var v []float64
	for _, r := range runs {
		v = append(v, r.Points[len(r.Points)-1].Perplexity)
	}
	return v
}

// budget is the common number of documents of the SG methods.
func budget(res *Results) int {
	b := math.MaxInt
	for _, m := range sgMethods {
		for _, r := range res.Runs[m] {
			b = min(b, r.Points[len(r.Points)-1].Docs)
		}
	}
	return b
}

// lastQuarter is the median relative change of the perplexity over the
// last quarter of the runs' checkpoints (negative: still descending).
func lastQuarter(runs []Run) float64 {
	var v []float64
	for _, r := range runs {
		n := len(r.Points)
		a := r.Points[n-1-max(1, (n-1)/4)].Perplexity
		v = append(v, r.Points[n-1].Perplexity/a-1)
	}
	return summarize(v).med
}

func meanStats(runs []Run) (seconds, local float64, docs int) {
	for _, r := range runs {
		seconds += r.Stats.Seconds
		local += r.Stats.LocalSeconds
		docs = r.Points[len(r.Points)-1].Docs
	}
	n := float64(len(runs))
	return seconds / n, local / n, docs
}

func printTable(w io.Writer, res *Results, data *Data) error {
	c := res.Config
	b := budget(res)
	fmt.Fprintf(w, "Online LDA on the Brown corpus: %d training documents (%d tokens), %d held-out documents (%d scored tokens), W = %d\n",
		data.Train.Len(), data.Train.Tokens(), data.Test.Len(), (data.Test.Tokens())/2, data.Train.W)
	fmt.Fprintf(w, "K = %d topics, α = %g, β = %g; minibatches of %d documents, local Gibbs %d+%d sweeps per document; %d seeds\n",
		c.Model.K, c.Model.Alpha, c.Model.Beta, c.Batch, c.Local.Burn, c.Local.Keep, c.Seeds)
	fmt.Fprintf(w, "Perplexity by document completion: median [min–max] over seeds. Unigram model %.0f; the common random start %.0f.\n\n",
		res.Unigram, res.Initial)
	onePass := data.Train.Len()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "method\tsetting\tafter 1 pass\tat %d docs\tlast-quarter change\tdocs/s\ts per run\tlocal Gibbs share\t\n", b)
	for _, m := range methodOrder(res) {
		runs := res.Runs[m]
		sec, local, docs := meanStats(runs)
		setting := runs[0].Setting.String()
		if m == Gibbs {
			setting = fmt.Sprintf("%d sweeps", c.GibbsSweeps)
		}
		share := "-"
		if m != Gibbs {
			share = fmt.Sprintf("%.0f%%", 100*local/sec)
		}
		fmt.Fprintf(tw, "%s\t%s\t%v\t%v\t%+.1f%%\t%.0f\t%.1f\t%s\t\n", m, setting, summarize(at(runs, onePass)), summarize(at(runs, b)),
			100*lastQuarter(runs), float64(docs)/sec, sec, share)
	}
	if g := res.Runs[Gibbs]; len(g) > 0 {
		fmt.Fprintf(tw, "Gibbs, end\t\t\t%v\t\t\t\t\t\n", summarize(final(g)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	printClaims(w, res)
	if len(res.Tuning) > 0 {
		fmt.Fprintf(w, "\nTuning (seed %d, perplexity after %d documents; the lowest is used):\n", c.Seed+TuneSeedOffset, c.Batches*c.Batch)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, m := range sgMethods {
			for _, t := range res.Tuning[m] {
				mark := ""
				if t.Setting == c.Settings[m] {
					mark = "←"
				}
				fmt.Fprintf(tw, "%s\t%v\t%.0f\t%s\t\n", m, t.Setting, t.Perplexity, mark)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	printTopics(w, res, data.Vocab)
	fmt.Fprintf(w, "\n%.0f s in all\n", res.Seconds)
	return nil
}

// printClaims states the papers' claims at the common budget.
func printClaims(w io.Writer, res *Results) {
	b := budget(res)
	p := map[string]float64{}
	for _, m := range sgMethods {
		if runs := res.Runs[m]; len(runs) > 0 {
			p[m] = summarize(at(runs, b)).med
		}
	}
	if len(p) < len(sgMethods) {
		return
	}
	verdict := func(ok bool) string {
		if ok {
			return "holds"
		}
		return "does NOT hold"
	}
	fmt.Fprintf(w, "Claims at %d documents (medians):\n", b)
	fmt.Fprintf(w, "  SCIR below SGRLD (SCIR paper, Fig. 3a): %.0f vs %.0f: %s\n", p[SCIR], p[SGRLD], verdict(p[SCIR] < p[SGRLD]))
	best4 := min(p[SGLD], p[SGHMC], p[SGRLD])
	fmt.Fprintf(w, "  gSGRHMC best of SGLD, SGHMC, SGRLD, gSGRHMC (recipe paper, Fig. 3): %.0f vs %.0f, %.0f, %.0f: %s\n",
		p[GSGRHMC], p[SGLD], p[SGHMC], p[SGRLD], verdict(p[GSGRHMC] <= best4))
	if g := res.Runs[Gibbs]; len(g) > 0 {
		gm := summarize(final(g)).med
		best := math.Inf(1)
		bm := ""
		for _, m := range sgMethods {
			if p[m] < best {
				best, bm = p[m], m
			}
		}
		fmt.Fprintf(w, "  best SG-MCMC within 10%% of collapsed Gibbs: %s %.0f vs Gibbs %.0f (%+.1f%%): %s\n",
			bm, best, gm, 100*(best/gm-1), verdict(best <= 1.1*gm))
	}
}

// printTopics prints the top ten words of the eight most concentrated
// topics of the best SG method's first seed.
func printTopics(w io.Writer, res *Results, vocab []string) {
	b := budget(res)
	best, bm := math.Inf(1), ""
	for _, m := range sgMethods {
		if runs := res.Runs[m]; len(runs) > 0 && runs[0].Phi != nil {
			if v := summarize(at(runs, b)).med; v < best {
				best, bm = v, m
			}
		}
	}
	if bm == "" {
		return
	}
	r := res.Runs[bm][0]
	k := res.Config.Model.K
	type topic struct {
		id   int
		mass float64
		top  []int
	}
	var ts []topic
	nw := len(vocab)
	for j := range k {
		idx := make([]int, nw)
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, c int) bool { return r.Phi[idx[a]*k+j] > r.Phi[idx[c]*k+j] })
		t := topic{id: j, top: idx[:min(10, nw)]}
		for _, v := range t.top {
			t.mass += r.Phi[v*k+j]
		}
		ts = append(ts, t)
	}
	sort.Slice(ts, func(a, c int) bool { return ts[a].mass > ts[c].mass })
	n := min(8, len(ts))
	fmt.Fprintf(w, "Top ten words of the %d most concentrated of %d topics, %s seed %d after %d documents (share of the topic's mass):\n",
		n, k, bm, r.Seed, r.Points[len(r.Points)-1].Docs)
	for _, t := range ts[:n] {
		words := make([]string, len(t.top))
		for i, v := range t.top {
			words[i] = vocab[v]
		}
		fmt.Fprintf(w, "  topic %2d (%.0f%%): %s\n", t.id+1, 100*t.mass, strings.Join(words, " "))
	}
}
