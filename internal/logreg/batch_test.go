// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

var _ sgmcmc.BatchModel = (*Model)(nil)

// batchModels are a9a's model on its packed rows and on its CSR arrays.
func batchModels(t *testing.T) map[string]*Model {
	t.Helper()
	m, err := NewModel(loadTrain(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.packed == nil {
		t.Fatal("a9a not packed")
	}
	csr := *m
	csr.packed = nil
	return map[string]*Model{"packed": m, "CSR": &csr}
}

func randomBatch(rng *rand.Rand, n, N int) []int {
	idx := make([]int, n)
	for k := range idx {
		idx[k] = rng.IntN(N)
	}
	return idx
}

// TestBatchMatchesRows: the batch gradient is the sum of the rows'
// gradients, for batches of one part, several parts and a short last part.
func TestBatchMatchesRows(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 4))
	for name, m := range batchModels(t) {
		theta := make([]float64, m.Dim())
		for j := range theta {
			theta[j] = rng.NormFloat64()
		}
		for _, n := range []int{1, 7, batchPart, batchPart + 1, 500, 1000} {
			idx := randomBatch(rng, n, m.Len())
			a := make([]float64, m.Dim())
			b := make([]float64, m.Dim())
			for j := range a {
				a[j], b[j] = float64(j), float64(j)
			}
			m.LogLikGradBatch(a, theta, idx, 3.5)
			for _, i := range idx {
				m.LogLikGrad(b, theta, i, 3.5)
			}
			for j := range a {
				if math.Abs(a[j]-b[j]) > 1e-12*math.Max(1, math.Abs(b[j]))*float64(n) {
					t.Errorf("%s n=%d coordinate %d: batch %v, rows %v", name, n, j, a[j], b[j])
				}
			}
		}
	}
}

// TestBatchAnyGOMAXPROCS: the batch gradient is the same bits for any
// number of cores, and for concurrent calls from several goroutines.
func TestBatchAnyGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(5, 5))
	for name, m := range batchModels(t) {
		theta := make([]float64, m.Dim())
		for j := range theta {
			theta[j] = rng.NormFloat64()
		}
		batches := make([][]int, 8)
		for k := range batches {
			batches[k] = randomBatch(rng, 300+97*k, m.Len())
		}
		var want [][]float64
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			got := make([][]float64, len(batches))
			var wg sync.WaitGroup
			for k, idx := range batches {
				got[k] = make([]float64, m.Dim())
				wg.Go(func() { m.LogLikGradBatch(got[k], theta, idx, 65.1) })
			}
			wg.Wait()
			if want == nil {
				want = got
				continue
			}
			for k := range got {
				for j, v := range got[k] {
					if math.Float64bits(v) != math.Float64bits(want[k][j]) {
						t.Fatalf("%s GOMAXPROCS=%d batch %d coordinate %d: %v, with one core %v", name, procs, k, j, v, want[k][j])
					}
				}
			}
		}
	}
}

func TestBatchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	m := batchModels(t)["packed"]
	theta := make([]float64, m.Dim())
	dst := make([]float64, m.Dim())
	idx := randomBatch(rand.New(rand.NewPCG(1, 1)), 500, m.Len())
	m.LogLikGradBatch(dst, theta, idx, 1)
	if a := testing.AllocsPerRun(100, func() { m.LogLikGradBatch(dst, theta, idx, 1) }); a != 0 {
		t.Errorf("%v allocations per batch gradient", a)
	}
}
