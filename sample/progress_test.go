// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
)

// TestProgressLines: during warmup a report says which chains run, in
// which phase, and which wait for a core; it gives no ETA until a warmup
// has ended, and then one from the warmups measured.
func TestProgressLines(t *testing.T) {
	var buf syncBuffer
	p := newSampleProgress(&buf, time.Hour, []int{0, 1, 2, 3}, 2)
	p.setPhase(0, 1)
	p.setPhase(1, 4)
	p.report()
	time.Sleep(10 * time.Millisecond)
	p.sampling(0, 1000, nil)
	p.setPhase(2, 1)
	p.report()
	if err := p.close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	for k, want := range [][]string{
		{"chain 0 Newton", "chain 1 Langevin windows", "chains 2, 3 wait for a core", "no ETA until a chain's warmup ends"},
		{"chain 1 Langevin windows", "chain 2 Newton", "chains 3 wait", "warmup ETA ≈", "1 warmups done", "sampling 0/1000 steps"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[k], w) {
				t.Errorf("line %d %q lacks %q", k, lines[k], w)
			}
		}
	}
}

// panicWriter panics on every write.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("planted panic in the progress writer") }

// blockWriter blocks every write until its channel is closed.
type blockWriter chan struct{}

func (b blockWriter) Write(p []byte) (int, error) { <-b; return len(p), nil }

// TestProgressWriterIsUserCode: a progress writer that panics leaves the
// run complete, and Run returns a *PanicError naming the writer; one that
// blocks holds up neither sampling nor the end of the run.
func TestProgressWriterIsUserCode(t *testing.T) {
	m := newLinReg(300, 0, 1, 3)
	s := &Settings{Seed: 1, Chains: 2, Draws: 200, ProgressEvery: time.Millisecond}
	s.Progress = panicWriter{}
	res, err := Run(context.Background(), Problem{Model: m}, []float64{0, 0}, s, nil)
	var pe *sgmcmc.PanicError
	if !errors.As(err, &pe) || !strings.Contains(pe.Func, "Progress") {
		t.Fatalf("panicking writer: err = %v, want a *PanicError naming the progress writer", err)
	}
	if res == nil || res.Chains[0].Len() != 200 || len(res.Summary) != 2 {
		t.Fatalf("panicking writer: the run is not complete: %v", res)
	}
	block := make(blockWriter)
	defer close(block)
	s.Progress = block
	start := time.Now()
	res, err = Run(context.Background(), Problem{Model: m}, []float64{0, 0}, s, nil)
	if err != nil || res.Chains[1].Len() != 200 {
		t.Fatalf("blocking writer: %v", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("blocking writer: Run took %v", d)
	}
}
