// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math/rand/v2"
	"slices"

	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

// simulateSparse returns n rows of a sparse binary design with d columns,
// the last an intercept: each row has k features, each drawn with
// probability ∝ 1/(j+200) (the commonest 15 times the rarest) and, with
// probability ½, its partner j xor 1 beside it, so that neighbouring
// coefficients are correlated; labels from a logistic model with
// β ~ N(0, 0.5²).
func simulateSparse(n, d, k int, seed uint64) *logreg.Data {
	r := rand.New(rand.NewPCG(seed, 0xa54ff53a5f1d36f1))
	f := d - 1
	cum := make([]float64, f)
	var s float64
	for j := range f {
		s += 1 / float64(j+200)
		cum[j] = s
	}
	beta := make([]float64, d)
	for j := range beta {
		beta[j] = 0.5 * r.NormFloat64()
	}
	x := &logreg.Data{Cols: d, Ptr: make([]int32, n+1), Y: make([]float64, n)}
	row := make([]int32, 0, 2*k+1)
	for i := range n {
		row = row[:0]
		for range k {
			j, _ := slices.BinarySearch(cum, r.Float64()*s)
			j = min(j, f-1)
			row = append(row, int32(j))
			if p := j ^ 1; r.Float64() < 0.5 && p < f {
				row = append(row, int32(p))
			}
		}
		slices.Sort(row)
		row = slices.Compact(row)
		row = append(row, int32(f))
		var z float64
		for _, j := range row {
			z += beta[j]
		}
		x.Idx = append(x.Idx, row...)
		x.Ptr[i+1] = int32(len(x.Idx))
		if r.Float64() < logreg.Sigmoid(z) {
			x.Y[i] = 1
		}
	}
	x.Val = make([]float64, len(x.Idx))
	for i := range x.Val {
		x.Val[i] = 1
	}
	return x
}
