// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSortPairs(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1e-310, -1e-310, 3, 3, 3}
	for _, n := range []int{0, 1, 2, 13, 1000, 5000} {
		x := make([]float64, n)
		for i := range x {
			switch rng.IntN(3) {
			case 0:
				x[i] = special[rng.IntN(len(special))]
			case 1:
				x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
			default:
				x[i] = float64(rng.IntN(5))
			}
		}
		p := make([]pair, n)
		for i, v := range x {
			p[i] = pair{sortKey(v), i}
		}
		got := sortPairs(p, make([]pair, n))
		want := slices.Clone(x)
		slices.Sort(want)
		sorted := slices.Clone(x)
		sortFloats(sorted, make([]uint64, n), make([]uint64, n))
		for i, v := range sorted {
			if v != want[i] {
				t.Fatalf("n=%d: sortFloats position %d holds %v, want %v", n, i, v, want[i])
			}
		}
		for i, e := range got {
			if x[e.i] != want[i] {
				t.Fatalf("n=%d: position %d holds %v, want %v", n, i, x[e.i], want[i])
			}
			// Stable: equal keys keep their input order.
			if i > 0 && got[i-1].key == e.key && got[i-1].i > e.i {
				t.Fatalf("n=%d: not stable at %d", n, i)
			}
			if i > 0 && (got[i-1].key == e.key) != (x[got[i-1].i] == x[e.i]) {
				t.Fatalf("n=%d: key equality differs from value equality at %d", n, i)
			}
		}
	}
}
