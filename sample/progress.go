// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
)

// warmupPhases names the warmup phases P0–P7 in order (doc.go,
// doc/adaptation.md §2), for Run's progress reports and a panic's phase; a
// chain's phase is its index here, len(warmupPhases) once sampling.
var warmupPhases = []string{"setup", "Newton", "gradient check", "control-variate centre", "Langevin windows", "step size", "batch size and noise", "method's adaptation"}

// sampleProgress reports a Run's progress to a writer every
// interval: during warmup, each chain's phase and an estimate of the time
// warmup has left (from the share of phases done, the phases taking
// comparable time); during sampling, the steps done of the steps the
// adapted runs will take, the rate, and the time left.
type sampleProgress struct {
	w      io.Writer
	every  time.Duration
	start  time.Time
	phase  []atomic.Int32 // per chain: index in warmupPhases, or len for sampling, len+1 done
	done   []atomic.Int64 // per chain: sampling steps done
	total  []atomic.Int64 // per chain: sampling steps, once known
	sample atomic.Int64   // time sampling began (since start), 0 before
	ids    []int          // the chains' numbers
	stop   chan struct{}
	wg     sync.WaitGroup
}

func newSampleProgress(w io.Writer, every time.Duration, ids []int) *sampleProgress {
	chains := len(ids)
	if every <= 0 {
		every = 10 * time.Second
	}
	p := &sampleProgress{w: w, every: every, start: time.Now(), phase: make([]atomic.Int32, chains),
		done: make([]atomic.Int64, chains), total: make([]atomic.Int64, chains), ids: ids, stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.report()
			}
		}
	}()
	return p
}

// setPhase records chain k's phase (an index in warmupPhases).
func (p *sampleProgress) setPhase(k, phase int) {
	if p != nil {
		p.phase[k].Store(int32(phase))
	}
}

// sampling records that chain k samples for total steps and returns the
// callback counting them (wrapping the user's, if any).
func (p *sampleProgress) sampling(k int, total int, user func(sgmcmc.StepInfo) error) func(sgmcmc.StepInfo) error {
	if p == nil {
		return user
	}
	p.total[k].Store(int64(total))
	p.done[k].Store(0) // a new round (rounds.go) starts again
	p.phase[k].Store(int32(len(warmupPhases)))
	p.sample.CompareAndSwap(0, int64(time.Since(p.start)))
	return func(si sgmcmc.StepInfo) error {
		if si.T%progressEvery == 0 {
			p.done[k].Add(progressEvery)
		}
		if user != nil {
			return user(si)
		}
		return nil
	}
}

// ran records that chain k's sampling run took steps steps in all.
func (p *sampleProgress) ran(k, steps int) {
	if p != nil {
		p.done[k].Store(int64(steps))
	}
}

// finish marks chain k done.
func (p *sampleProgress) finish(k int) {
	if p != nil {
		p.phase[k].Store(int32(len(warmupPhases) + 1))
	}
}

// close stops the reports, after a last one.
func (p *sampleProgress) close() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.report()
}

// report writes one line.
func (p *sampleProgress) report() {
	elapsed := time.Since(p.start)
	nw := len(warmupPhases)
	var warm []string
	var phasesDone, done, total int64
	for k := range p.phase {
		ph := int(p.phase[k].Load())
		switch {
		case ph < nw:
			warm = append(warm, fmt.Sprintf("chain %d %s", p.ids[k], warmupPhases[ph]))
			phasesDone += int64(ph)
		default:
			phasesDone += int64(nw)
			done += min(p.done[k].Load(), p.total[k].Load())
			total += p.total[k].Load()
		}
	}
	if len(warm) > 0 {
		f := float64(phasesDone) / float64(nw*len(p.phase))
		eta := "unknown"
		if f > 0 {
			eta = (time.Duration(float64(elapsed) * (1 - f) / f)).Round(time.Second).String()
		}
		fmt.Fprintf(p.w, "sgmcmc: warmup (%s), %.0f%% of the phases done, elapsed %v, warmup ETA ≈ %s\n",
			strings.Join(warm, ", "), 100*f, elapsed.Round(time.Second), eta)
		return
	}
	since := elapsed - time.Duration(p.sample.Load())
	rate := float64(done) / since.Seconds()
	left := "unknown"
	if rate > 0 {
		left = time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "sgmcmc: sampling, %d/%d steps (%.1f%%), %.4g steps/s, elapsed %v, ETA %s\n",
		done, total, 100*float64(done)/float64(max(total, 1)), rate, elapsed.Round(time.Second), left)
}
