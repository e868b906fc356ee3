// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sgmcmc-go/sgmcmc/internal/valid"
	"github.com/sgmcmc-go/sgmcmc/rng"
)

// RunChains runs k independent chains concurrently, each with Run and the
// options o, and returns their draws in chain order.
//
// newSampler(c, src) builds the sampler of chain c from src =
// rng.ChainSource(seed, c); it is called for c = 0, …, k−1 in order, from the
// calling goroutine, before any chain starts. Since each chain owns its
// sampler and its random stream, the draws are identical for any GOMAXPROCS
// and any scheduling, and chain c equals a plain Run of the sampler that
// newSampler(c, rng.ChainSource(seed, c)) returns. At most GOMAXPROCS chains run
// at a time.
//
// Concurrency: the chains run in parallel, so nothing mutable may be
// shared between them. A Sampler, a Minibatch, a CountMinibatch, an Affine
// and a random source are not safe for concurrent use: newSampler must
// build every one of them afresh for each chain, and draw all of the
// chain's randomness from src (seed a chain's Minibatch from it, for
// instance with rand.NewPCG(src.Uint64(), src.Uint64())). Read-only data
// (a Model's dataset, a metric without caches) may be shared. A Minibatch
// shared between chains is detected when two of its calls overlap, which
// is likely but not certain: the chain that notices fails with a
// *StepError wrapping ErrUnsupported.
//
// o.Callback, if set, is called from the goroutines running the chains,
// concurrently, and must be safe for concurrent use (Progress is). It can
// tell the chains apart by StepInfo.Sampler. An ErrStop from it ends only the
// chain it was called for.
//
// If newSampler fails, RunChains returns nil and a *ChainError. If a chain
// fails, the chains still running are cancelled and RunChains returns every
// chain's draws kept so far with a *ChainError for the lowest-numbered
// chain that failed on its own; if ctx is cancelled it returns the draws so
// far and ctx.Err(). A chain whose run ends with Run's temperature verdict
// (ErrTemperature, its draws complete) cancels nothing: the others run to
// their end, and the verdict is returned as that chain's *ChainError.
func RunChains(ctx context.Context, k int, seed uint64, newSampler func(chain int, src rand.Source) (Sampler, error), o RunOptions) ([]*Chain, error) {
	if ctx == nil {
		return nil, errorf(ErrNil, "RunChains: nil context (use context.Background())")
	}
	if k <= 0 || k > maxChains {
		return nil, errorf(ErrRange, "RunChains: k = %d chains, want in [1, %d]", k, maxChains)
	}
	if newSampler == nil {
		return nil, errorf(ErrNil, "RunChains: nil newSampler")
	}
	if _, _, err := o.check("RunChains"); err != nil {
		return nil, err
	}
	if o.Draws > maxChainFloats/k {
		return nil, errorf(ErrRange, "RunChains: k·Draws = %d·%d draws is more than the chains can hold (%d floats)", k, o.Draws, maxChainFloats)
	}
	samplers := make([]Sampler, k)
	for c := range samplers {
		s, err := newSampler(c, rng.ChainSource(seed, c))
		if err != nil {
			return nil, &ChainError{Chain: c, Err: err}
		}
		if isNil(s) {
			return nil, &ChainError{Chain: c, Err: errorf(ErrNil, "newSampler returned a nil sampler")}
		}
		samplers[c] = s
	}
	var need float64
	for _, s := range samplers {
		if w, err := o.width(s.Dim()); err == nil {
			need += o.chainBytes(s.Dim(), w)
		}
	}
	if err := checkMemory("RunChains", fmt.Sprintf("%d chains of %d draws", k, o.Draws), need, 0); err != nil {
		return nil, err
	}

	inner, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	chains := make([]*Chain, k)
	errs := make([]error, k)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(k, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for {
				c := int(next.Add(1) - 1)
				if c >= k {
					return
				}
				chains[c], errs[c] = Run(inner, samplers[c], o)
				// A verdict on a finished chain (ErrTemperature) stops no
				// other chain: only a failure does.
				if errs[c] != nil && !errors.Is(errs[c], context.Canceled) && !errors.Is(errs[c], context.DeadlineExceeded) && !errors.Is(errs[c], ErrTemperature) {
					cancel(errOtherChain)
				}
			}
		})
	}
	wg.Wait()

	for c, err := range errs {
		if err == nil {
			continue
		}
		cancelled := errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
		if cancelled && (ctx.Err() != nil || context.Cause(inner) == errOtherChain) {
			continue // stopped by ctx or by another chain's failure
		}
		return chains, &ChainError{Chain: c, Err: err}
	}
	if err := ctx.Err(); err != nil {
		return chains, err
	}
	return chains, nil
}

// maxChains bounds the number of chains of RunChains.
const maxChains = valid.MaxChains

// progressBlock is how many steps of one chain Progress counts between two
// looks at the clock.
const progressBlock = 64

// Progress returns a callback for RunOptions.Callback that reports the
// progress of a long run to w, at most once per every: steps done out of
// total, steps per second, and the estimated time left. For RunChains pass
// the total over all chains, k·(BurnIn + Draws·Thin); the callback is safe
// for concurrent use.
//
// It costs almost nothing per step and never allocates per step: each chain's
// steps are counted in blocks of 64 (by StepInfo.T), and only at the end of a
// block does it add to a shared atomic counter and read the clock, so the
// count it prints may lag by up to 63 steps per chain. Rates are measured
// from the call to Progress. A total ≤ 0 omits the fraction and the estimate
// of the time left; every ≤ 0 reports at every block. Write errors are
// ignored: progress reporting never stops a run. A nil w discards the
// reports.
func Progress(w io.Writer, every time.Duration, total int) func(StepInfo) error {
	if isNil(w) {
		w = io.Discard
	}
	p := &progress{w: w, every: every, total: total, start: time.Now()}
	return p.step
}

type progress struct {
	w     io.Writer
	every time.Duration
	total int
	start time.Time
	done  atomic.Int64
	last  atomic.Int64 // time of the last report since start, monotonic
	mu    sync.Mutex   // serialises writes
}

func (p *progress) step(info StepInfo) error {
	if info.T%progressBlock != 0 {
		return nil
	}
	done := p.done.Add(progressBlock)
	now := int64(time.Since(p.start))
	last := p.last.Load()
	if now-last < int64(p.every) || !p.last.CompareAndSwap(last, now) {
		return nil
	}
	p.report(done, time.Duration(now))
	return nil
}

func (p *progress) report(done int64, elapsed time.Duration) {
	rate := float64(done) / elapsed.Seconds()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total <= 0 {
		fmt.Fprintf(p.w, "sgmcmc: %d steps, %.4g steps/s, elapsed %v\n", done, rate, elapsed.Round(time.Second))
		return
	}
	left := time.Duration(float64(int64(p.total)-done) / rate * float64(time.Second))
	fmt.Fprintf(p.w, "sgmcmc: %d/%d steps (%.1f%%), %.4g steps/s, ETA %v\n",
		done, p.total, 100*float64(done)/float64(p.total), rate, max(left, 0).Round(time.Second))
}

// ChainError reports the failure of one chain of RunChains.
type ChainError struct {
	Chain int   // index of the chain
	Err   error // its error
}

// Error names the chain and its error.
func (e *ChainError) Error() string {
	return fmt.Sprintf("sgmcmc: chain %d: %s", e.Chain, strings.TrimPrefix(fmt.Sprint(e.Err), "sgmcmc: "))
}

// Unwrap returns e.Err.
func (e *ChainError) Unwrap() error { return e.Err }

// errOtherChain is the cancellation cause RunChains gives the chains still
// running when one fails.
var errOtherChain = errors.New("sgmcmc: another chain failed")
