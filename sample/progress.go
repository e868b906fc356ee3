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

// sampleProgress reports a Run's progress to the user's writer every
// interval: during warmup, which chains run and in which phase, which wait
// for a core, and an estimate of the time warmup has left from the
// warmups already done (none before one is); during sampling, the steps
// done of the steps the adapted runs will take, the rate, and the time
// left.
//
// The writer is user code: it is called on a goroutine of its own, so
// that a writer that blocks never blocks sampling or cancellation (a
// line it cannot take is dropped and counted; Run waits for it at most
// progressDrain at the end), and a panic in it is recovered into a
// *PanicError naming it, which Run returns with its complete Result.
type sampleProgress struct {
	start     time.Time
	phase     []atomic.Int32 // per chain: -1 waiting, an index in warmupPhases, len for sampling, len+1 done
	began     []atomic.Int64 // per chain: when its warmup began (since start)
	warmTook  []atomic.Int64 // per chain: how long its warmup took, 0 before it ended
	done      []atomic.Int64 // per chain: sampling steps done
	total     []atomic.Int64 // per chain: sampling steps, once known
	sample    atomic.Int64   // time sampling began (since start), 0 before
	ids       []int          // the chains' numbers
	slots     int            // chains that run at once
	stop      chan struct{}
	wg        sync.WaitGroup
	lines     chan string   // to the writer's goroutine
	wrote     chan struct{} // closed when the writer's goroutine returns
	dropped   atomic.Int64  // lines the writer could not take
	panicked  atomic.Pointer[sgmcmc.PanicError]
	closeOnce sync.Once
}

func newSampleProgress(w io.Writer, every time.Duration, ids []int, slots int) *sampleProgress {
	chains := len(ids)
	if every == 0 {
		every = 10 * time.Second
	}
	p := &sampleProgress{start: time.Now(), phase: make([]atomic.Int32, chains),
		began: make([]atomic.Int64, chains), warmTook: make([]atomic.Int64, chains),
		done: make([]atomic.Int64, chains), total: make([]atomic.Int64, chains), ids: ids, slots: max(1, slots),
		stop: make(chan struct{}), lines: make(chan string, progressQueue), wrote: make(chan struct{})}
	for k := range p.phase {
		p.phase[k].Store(-1)
	}
	go p.write(w)
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

// write hands the lines to w, recovering a panic in it; after a panic the
// lines are dropped.
func (p *sampleProgress) write(w io.Writer) {
	defer close(p.wrote)
	defer func() {
		if v := recover(); v != nil {
			e := asPanic(v, "Settings.Progress (the progress writer's Write)")
			e.Phase = "progress report"
			p.panicked.Store(e)
			for range p.lines {
				p.dropped.Add(1)
			}
		}
	}()
	for l := range p.lines {
		io.WriteString(w, l)
	}
}

// emit queues a line for the writer, or drops it if the writer is behind.
func (p *sampleProgress) emit(l string) {
	if n := p.dropped.Load(); n > 0 {
		l = strings.TrimSuffix(l, "\n") + fmt.Sprintf(" (%d lines dropped so far: the writer was slow)\n", n)
	}
	select {
	case p.lines <- l:
	default:
		p.dropped.Add(1)
	}
}

// setPhase records chain k's phase (an index in warmupPhases).
func (p *sampleProgress) setPhase(k, phase int) {
	if p == nil {
		return
	}
	if p.phase[k].Swap(int32(phase)) < 0 {
		p.began[k].Store(int64(time.Since(p.start)))
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
	p.warmTook[k].CompareAndSwap(0, int64(max(time.Since(p.start)-time.Duration(p.began[k].Load()), 1)))
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

// close stops the reports after a last one, waits at most progressDrain
// for the writer, and returns the writer's panic, if it panicked.
func (p *sampleProgress) close() error {
	if p == nil {
		return nil
	}
	p.closeOnce.Do(func() {
		close(p.stop)
		p.wg.Wait()
		p.report()
		close(p.lines)
	})
	select {
	case <-p.wrote:
	case <-time.After(progressDrain):
	}
	if e := p.panicked.Load(); e != nil {
		return e
	}
	return nil
}

// report queues one line.
func (p *sampleProgress) report() {
	elapsed := time.Since(p.start)
	nw := len(warmupPhases)
	var warm, wait []string
	var done, total int64
	var took time.Duration
	var tookN int
	for k := range p.phase {
		if t := p.warmTook[k].Load(); t > 0 {
			took += time.Duration(t)
			tookN++
		}
	}
	var mean time.Duration
	if tookN > 0 {
		mean = took / time.Duration(tookN)
	}
	var left time.Duration // the running warmups' longest expected remainder
	for k := range p.phase {
		ph := int(p.phase[k].Load())
		switch {
		case ph < 0:
			wait = append(wait, fmt.Sprint(p.ids[k]))
		case ph < nw:
			warm = append(warm, fmt.Sprintf("chain %d %s", p.ids[k], warmupPhases[ph]))
			left = max(left, mean-(elapsed-time.Duration(p.began[k].Load())))
		default:
			done += min(p.done[k].Load(), p.total[k].Load())
			total += p.total[k].Load()
		}
	}
	if len(warm) > 0 || len(wait) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "sgmcmc: warmup, elapsed %v: %s", elapsed.Round(time.Second), strings.Join(warm, ", "))
		if len(wait) > 0 {
			fmt.Fprintf(&b, "; chains %s wait for a core", strings.Join(wait, ", "))
		}
		if mean > 0 {
			// The waiting chains run on the cores the running ones free,
			// each about as long as the warmups measured so far.
			eta := left + time.Duration((len(wait)+p.slots-1)/p.slots)*mean
			fmt.Fprintf(&b, "; warmup ETA ≈ %v (%d warmups done, %v each on average)", eta.Round(time.Second), tookN, mean.Round(time.Second))
		} else {
			b.WriteString("; no ETA until a chain's warmup ends")
		}
		if total > 0 {
			fmt.Fprintf(&b, "; sampling %d/%d steps", done, total)
		}
		b.WriteString("\n")
		p.emit(b.String())
		return
	}
	since := elapsed - time.Duration(p.sample.Load())
	rate := float64(done) / since.Seconds()
	eta := "unknown"
	if rate > 0 {
		eta = time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	p.emit(fmt.Sprintf("sgmcmc: sampling, %d/%d steps (%.1f%%), %.4g steps/s, elapsed %v, ETA %s\n",
		done, total, 100*float64(done)/float64(max(total, 1)), rate, elapsed.Round(time.Second), eta))
}

// progressQueue is how many lines may wait for a slow writer before
// lines are dropped; progressDrain how long Run waits for the writer at
// the end.
const (
	progressQueue = 16
	progressDrain = time.Second
)
