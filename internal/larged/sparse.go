// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package larged

import (
	"errors"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

// SparseLogReg returns the design of the sparse logistic regression
// target: n rows, each with nnz nonzero N(0, 1) entries at distinct
// random columns of d, labels y_i ~ Bernoulli(σ(x_iᵀβ)) for a true
// β ~ N(0, I), all drawn from seed; and β. With logreg.NewModel(x, 1) its
// prior is N(0, I).
func SparseLogReg(n, d, nnz int, seed uint64) (*logreg.Data, []float64, error) {
	if n < 1 || d < nnz || nnz < 1 {
		return nil, nil, errors.New("larged: SparseLogReg: want n ≥ 1 and 1 ≤ nnz ≤ d")
	}
	r := rand.New(rand.NewPCG(seed, 0xbb67ae8584caa73b))
	beta := make([]float64, d)
	for j := range beta {
		beta[j] = r.NormFloat64()
	}
	x := &logreg.Data{Cols: d, Ptr: make([]int32, n+1), Idx: make([]int32, 0, n*nnz), Val: make([]float64, 0, n*nnz), Y: make([]float64, n)}
	seen := make(map[int]bool, nnz)
	for i := range n {
		clear(seen)
		var z float64
		for len(seen) < nnz {
			j := r.IntN(d)
			if seen[j] {
				continue
			}
			seen[j] = true
			v := r.NormFloat64()
			x.Idx = append(x.Idx, int32(j))
			x.Val = append(x.Val, v)
			z += v * beta[j]
		}
		x.Ptr[i+1] = int32(len(x.Idx))
		if r.Float64() < logreg.Sigmoid(z) {
			x.Y[i] = 1
		}
	}
	return x, beta, nil
}
