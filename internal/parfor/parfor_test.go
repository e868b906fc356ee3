// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parfor

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRun: every part is done exactly once, for any GOMAXPROCS, with
// several Jobs run at once from different goroutines and each Job run many
// times.
func TestRun(t *testing.T) {
	for _, procs := range []int{1, 2, 8} {
		old := runtime.GOMAXPROCS(procs)
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				counts := make([]int, 37)
				job := NewJob(func(k int) { counts[k]++ })
				for r := range 200 {
					n := 1 + (r*7+g)%len(counts)
					job.Run(n)
					for k := range counts {
						want := 0
						if k < n {
							want = 1
						}
						if counts[k] != want {
							t.Errorf("GOMAXPROCS %d, run %d: part %d done %d times, want %d", procs, r, k, counts[k], want)
							return
						}
						counts[k] = 0
					}
				}
			}()
		}
		wg.Wait()
		runtime.GOMAXPROCS(old)
	}
}

// TestRunAllocs: a Run allocates nothing once the helpers are started.
func TestRunAllocs(t *testing.T) {
	out := make([]float64, 16)
	job := NewJob(func(k int) { out[k] += float64(k) })
	job.Run(len(out))
	if a := testing.AllocsPerRun(100, func() { job.Run(len(out)) }); a != 0 {
		t.Errorf("Run allocates %v times", a)
	}
}

// TestPanicPropagates: a part that panics, on whichever goroutine runs it,
// surfaces as a *Panic on Run's caller after the other parts finish, and
// the Job runs again normally afterwards.
func TestPanicPropagates(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs GOMAXPROCS ≥ 2 for helpers")
	}
	for bad := range 8 {
		j := NewJob(func(k int) {
			if k == bad {
				panic(fmt.Sprintf("part %d", k))
			}
		})
		func() {
			defer func() {
				v := recover()
				p, ok := v.(*Panic)
				if !ok {
					t.Fatalf("recovered %v (%T), want a *Panic", v, v)
				}
				if p.Value != fmt.Sprintf("part %d", bad) || len(p.Stack) == 0 {
					t.Errorf("Panic{%v, %d-byte stack}", p.Value, len(p.Stack))
				}
			}()
			j.Run(8)
			t.Fatal("Run returned without panicking")
		}()
		var n atomic.Int64
		j2 := NewJob(func(int) { n.Add(1) })
		j2.Run(8)
		if n.Load() != 8 {
			t.Errorf("after a panic, a Job ran %d of 8 parts", n.Load())
		}
	}
}
