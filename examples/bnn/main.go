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
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sgmcmc-go/sgmcmc/internal/cputime"
	"github.com/sgmcmc-go/sgmcmc/internal/datadir"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// Settings of the comparison (doc.go says why each).
const (
	// sampleDraws is sample.Run's Draws per chain: 4 × 20 = 80 draws of the
	// posterior predictive (doc.go says why not the default 1,000).
	sampleDraws = 20
	// coldT is Sample_cold's temperature.
	coldT = 0.1
	// ensembleSize is the number of MAPs in the deep ensemble.
	ensembleSize = 4
)

// Row is one method's result on one seed.
type Row struct {
	Method      string   `json:"method"`
	Seed        uint64   `json:"seed"`
	Accuracy    float64  `json:"accuracy"`
	TestLogLik  float64  `json:"test_loglik"`
	ECE         float64  `json:"ece"`
	Seconds     float64  `json:"seconds"`
	CPUSeconds  float64  `json:"cpu_seconds"`
	PeakRSSMB   float64  `json:"peak_rss_mb"`
	GradEvals   int64    `json:"grad_evals"`
	SetupEvals  int64    `json:"setup_evals"` // the control variates' full passes (counted in grad_evals here)
	WarmupEvals int64    `json:"warmup_grad_evals,omitempty"`
	WarmupShare float64  `json:"warmup_share,omitempty"`
	Draws       int      `json:"draws,omitempty"`
	BatchSize   int      `json:"batch_size,omitempty"`
	Thin        int      `json:"thin,omitempty"`
	Eps         float64  `json:"eps,omitempty"`
	Temperature float64  `json:"temperature,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
	// rel is the reliability diagram's data (not in the JSON).
	rel scores
}

func main() {
	asJSON := flag.Bool("json", false, "print {\"rows\": [...]} as JSON")
	seedList := flag.String("seeds", "1", "comma-separated seeds; each runs every method")
	dataDir := flag.String("data", "", "directory of the MNIST files (default: testdata/mnist of the repository)")
	png := flag.String("png", "", "write a reliability diagram of the first seed to this PNG file")
	progress := flag.Bool("progress", false, "print Sample's progress to standard error")
	draws := flag.Int("draws", sampleDraws, "Sample's Draws per chain")
	only := flag.String("methods", "Sample,MAP,ensemble", "comma-separated methods to run (Sample, Sample_cold, MAP, ensemble; Sample_cold, at twice Sample's cost, only when asked)")
	prof := flag.String("cpuprofile", "", "write a CPU profile to this file")
	gain := flag.Float64("prior-gain", priorGain, "the prior's gain: weights' prior sd gain/√fan-in (doc.go)")
	validate := flag.Bool("validate", false, "train on the first 6,000 training digits and score on the other 2,000 (choosing the prior without the test digits)")
	flag.Parse()
	if *prof != "" {
		f, err := os.Create(*prof)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bnn:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
		// An interrupted run still writes its profile.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		go func() {
			<-sig
			pprof.StopCPUProfile()
			os.Exit(130)
		}()
	}
	seeds, err := parseSeeds(*seedList)
	if err == nil && *dataDir == "" {
		*dataDir, err = datadir.Find("testdata/mnist", func(dir string) bool {
			_, e := os.Stat(dir + "/" + imagesFile)
			return e == nil
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bnn:", err)
		os.Exit(2)
	}
	train, test, err := loadMNIST(*dataDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bnn:", err)
		os.Exit(1)
	}
	if *validate {
		train, test = train.split(nValidTrain)
	}
	m := newMLP(train.x, train.y, nIn, nHidden, nOut, *gain)
	var rows []*Row
	for k, seed := range seeds {
		// Each row prints as it finishes: to standard output, or with -json
		// to standard error, so that a long run shows its progress.
		out := io.Writer(os.Stdout)
		if *asJSON {
			out = os.Stderr
		}
		rs, err := runSeed(m, test, seed, *progress, strings.Split(*only, ","), *draws, out)
		if err != nil {
			fmt.Fprintf(os.Stderr, "bnn: seed %d: %v\n", seed, err)
			os.Exit(1)
		}
		rows = append(rows, rs...)
		if k == 0 && *png != "" {
			if err := reliabilityPlot(*png, rs); err != nil {
				fmt.Fprintln(os.Stderr, "bnn:", err)
				os.Exit(1)
			}
		}
	}
	if *asJSON {
		b, _ := json.MarshalIndent(map[string]any{"rows": rows}, "", " ")
		fmt.Println(string(b))
	} else if len(seeds) > 1 {
		printMeans(rows)
	}
}

func parseSeeds(s string) ([]uint64, error) {
	var out []uint64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("-seeds %q: %v", s, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// timer measures a method's wall and CPU time.
type timer struct {
	t0  time.Time
	cpu time.Duration
}

func start() timer {
	c, _ := cputime.Process()
	return timer{time.Now(), c}
}

func (t timer) stop(r *Row) {
	c, _ := cputime.Process()
	r.Seconds, r.CPUSeconds = time.Since(t.t0).Seconds(), (c - t.cpu).Seconds()
	r.PeakRSSMB = peakRSSMB()
}

// runSeed runs the four methods on one seed.
func runSeed(m *MLP, test digits, seed uint64, progress bool, methods []string, draws int, out io.Writer) ([]*Row, error) {
	want := func(name string) bool { return slices.Contains(methods, name) }
	nTest := len(test.y)
	p := make([]float64, nTest*nOut)
	sum := make([]float64, nTest*nOut)
	finish := func(r *Row, t timer, probs []float64) *Row {
		t.stop(r)
		r.rel = score(probs, test.y)
		r.Accuracy, r.TestLogLik, r.ECE = r.rel.accuracy, r.rel.loglik, r.rel.ece
		printRow(out, r)
		return r
	}
	var rows []*Row
	// Sample at temperature temp (1: "Sample"; coldT: "Sample_cold").
	sample := func(temp float64) error {
		name := "Sample"
		if temp != 1 {
			name = "Sample_cold"
		}
		if !want(name) {
			return nil
		}
		t := start()
		s := &sample.Settings{
			Seed:  seed,
			Draws: draws,
			// Every coordinate's draws: the predictive needs them all
			// (4 × 20 × 79,510 floats, 51 MB; 1 GiB leaves room for
			// -draws up to 400).
			DrawsMemory: 1 << 30,
			Temperature: temp,
		}
		if progress {
			s.Progress = os.Stderr
		}
		res, err := sample.Run(context.Background(), sample.Problem{Model: m}, make([]float64, m.Dim()), s, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		clear(sum)
		var nd int
		for _, c := range res.Finished() {
			nd += c.Len()
		}
		for _, c := range res.Finished() {
			for i := range c.Len() {
				m.Predict(p, c.At(i), test.x)
				for j, v := range p {
					sum[j] += v / float64(nd)
				}
			}
		}
		a := res.Adapted[0]
		r := &Row{Method: name, Seed: seed, GradEvals: res.GradEvals, WarmupEvals: res.WarmupGradEvals + res.SetupGradEvals, SetupEvals: res.SetupGradEvals,
			Draws: nd, BatchSize: a.BatchSize, Thin: a.Thin, Eps: a.Eps, Temperature: temp, Warnings: res.Warnings.Messages()}
		r.WarmupShare = float64(r.WarmupEvals) / float64(r.GradEvals)
		rows = append(rows, finish(r, t, append([]float64(nil), sum...)))
		return nil
	}
	// Sample first (it decides the comparison), the MAPs, then the cold
	// posterior.
	if err := sample(1); err != nil {
		return rows, err
	}
	// MAP.
	if want("MAP") {
		t := start()
		theta, evals := fitMAP(m, seed)
		m.Predict(p, theta, test.x)
		rows = append(rows, finish(&Row{Method: "MAP", Seed: seed, GradEvals: evals}, t, p))
	}
	// Deep ensemble: ensembleSize MAPs from other prior draws, the
	// average of their predictive probabilities.
	if want("ensemble") {
		t := start()
		clear(sum)
		var ensEvals int64
		for k := range ensembleSize {
			th, ev := fitMAP(m, seed*1000+uint64(k)+1)
			ensEvals += ev
			m.Predict(p, th, test.x)
			for i, v := range p {
				sum[i] += v / ensembleSize
			}
		}
		rows = append(rows, finish(&Row{Method: "ensemble", Seed: seed, GradEvals: ensEvals}, t, append([]float64(nil), sum...)))
	}
	if err := sample(coldT); err != nil {
		return rows, err
	}
	return rows, nil
}

// peakRSSMB returns this process's peak resident memory so far, in MB:
// for a row, the peak over the process up to the row's end, an upper
// bound on the method's own.
func peakRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Maxrss) / 1024 // kilobytes on Linux
}

func printRow(w io.Writer, r *Row) {
	fmt.Fprintf(w, "%-12s seed %-3d accuracy %.4f  test loglik %.4f  ECE %.4f  %7.1f s (cpu %7.1f)  rss %5.0f MB  grad evals %.3g",
		r.Method, r.Seed, r.Accuracy, r.TestLogLik, r.ECE, r.Seconds, r.CPUSeconds, r.PeakRSSMB, float64(r.GradEvals))
	if r.WarmupEvals > 0 {
		fmt.Fprintf(w, "  warmup %.1f%%  batch %d thin %d", 100*r.WarmupShare, r.BatchSize, r.Thin)
	}
	fmt.Fprintln(w)
	for _, s := range r.Warnings {
		fmt.Fprintf(w, "    warning: %s\n", s)
	}
}

func printMeans(rows []*Row) {
	fmt.Println("means over seeds:")
	for _, name := range []string{"Sample", "Sample_cold", "MAP", "ensemble"} {
		var acc, ll, ece, sec float64
		var n int
		for _, r := range rows {
			if r.Method == name {
				acc, ll, ece, sec, n = acc+r.Accuracy, ll+r.TestLogLik, ece+r.ECE, sec+r.Seconds, n+1
			}
		}
		if n > 0 {
			k := float64(n)
			fmt.Printf("%-12s accuracy %.4f  test loglik %.4f  ECE %.4f  %7.1f s\n", name, acc/k, ll/k, ece/k, sec/k)
		}
	}
}
