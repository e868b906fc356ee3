// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"
)

// SpeedRow is the throughput of one method (or "gradient" for the stratum
// gradient alone) with one and with Workers goroutines per stratum.
type SpeedRow struct {
	Method  string
	Workers int
	// Serial and Parallel are steps (or gradients) per second with 1 and
	// with Workers goroutines.
	Serial, Parallel float64
	// Identical reports whether 100 steps with 1 and with Workers
	// goroutines end at the same θ, bit for bit.
	Identical bool
	// Err is a step failure during the measurement (the rates count the
	// steps before it).
	Err string
}

// Speedup measures, for the stratum gradient alone and for each method at
// its chosen setting, the throughput with one goroutine and with
// max(GOMAXPROCS, 2) goroutines computing the blocks of a stratum (at most
// one per block), interleaving the two so that load from elsewhere falls
// on both alike.
func Speedup(c Config, data *Split, chosen map[string]Setting, dur time.Duration) ([]SpeedRow, error) {
	p, err := NewProblem(data, c.Rank, c.Blocks)
	if err != nil {
		return nil, err
	}
	par := min(max(runtime.GOMAXPROCS(0), 2), c.Blocks)
	var out []SpeedRow

	// The gradient alone.
	theta := make([]float64, p.Dim())
	p.Init(theta, c.InitSD, rand.New(rand.NewPCG(1, 1)))
	var gs [2]*BlockGradient
	var dsts [2][]float64
	for k, wk := range []int{1, par} {
		if gs[k], err = NewBlockGradient(p, rand.NewPCG(7, 7), wk); err != nil {
			return nil, err
		}
		defer gs[k].Close()
		dsts[k] = make([]float64, p.Dim())
	}
	var el [2]time.Duration
	var n [2]int
	for el[0] < dur || el[1] < dur {
		for k := range gs {
			t0 := time.Now()
			for range 20 {
				gs[k].Grad(dsts[k], theta)
			}
			el[k] += time.Since(t0)
			n[k] += 20
		}
	}
	out = append(out, SpeedRow{Method: "gradient", Workers: par,
		Serial: float64(n[0]) / el[0].Seconds(), Parallel: float64(n[1]) / el[1].Seconds(),
		Identical: slices.Equal(dsts[0], dsts[1])})

	// Each sampler.
	cc := c
	cc.BurnIn = 0
	for _, m := range Methods {
		var runs [2]*run
		for k, wk := range []int{1, par} {
			if runs[k], err = newRun(cc, p, data.Test[:1], m, chosen[m], 1, wk, dur); err != nil {
				return nil, err
			}
			defer runs[k].grad.Close()
		}
		// 100 steps each for the determinism check, then the timing.
		for range 100 {
			runs[0].step()
			runs[1].step()
		}
		same := slices.Equal(runs[0].s.Position(), runs[1].s.Position())
		for k := range runs {
			runs[k].elapsed, runs[k].steps = 0, 0
		}
		if err := interleave(context.Background(), runs[:], 20*time.Millisecond); err != nil {
			return nil, err
		}
		row := SpeedRow{Method: m, Workers: par,
			Serial:    float64(runs[0].steps) / runs[0].elapsed.Seconds(),
			Parallel:  float64(runs[1].steps) / runs[1].elapsed.Seconds(),
			Identical: same}
		for _, r := range runs {
			if r.err != nil {
				row.Err = r.err.Error()
			}
		}
		out = append(out, row)
	}
	return out, nil
}

func writeSpeedup(w io.Writer, rows []SpeedRow) {
	fmt.Fprintf(w, "\nParallel blocks (the paper's distributed scheme on %d cores, GOMAXPROCS %d): per second\n", rows[0].Workers, runtime.GOMAXPROCS(0))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t1 goroutine\t%d goroutines\tspeed-up\tsame θ\t\n", rows[0].Workers)
	for _, r := range rows {
		what := r.Method + " steps"
		if r.Method == "gradient" {
			what = "stratum gradients"
		}
		same := "yes"
		if !r.Identical {
			same = "NO"
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%.0f\t%.2f×\t%s\t%s\n", what, r.Serial, r.Parallel, r.Parallel/r.Serial, same, r.Err)
	}
	tw.Flush()
}
