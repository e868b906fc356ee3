// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/logreg"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkLogisticBatch times a minibatch gradient of the same logistic
// regression (N = 10⁵, d = 20, no intercept, prior N(0, 10²)) as this
// package's Bernoulli GLM and as internal/logreg's hand-written dense model
// (the baseline of the models issue), at the batch sizes sample.Run
// chooses for it (about 1,000 with a control variate, which makes two
// such gradients a step) and at 10⁴:
//
//	go test -run - -bench LogisticBatch ./models
func BenchmarkLogisticBatch(b *testing.B) {
	const n, d = 100_000, 20
	data, _, err := logreg.Simulate(n, d, 1)
	if err != nil {
		b.Fatal(err)
	}
	hand, err := logreg.NewDenseModel(data, 100)
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewGLM(GLM{Family: Bernoulli, Y: data.Y, X: mat.NewDense(n, d, data.X), NoIntercept: true, Prior: Normal(0, 10)})
	if err != nil {
		b.Fatal(err)
	}
	theta := make([]float64, d)
	for j := range theta {
		theta[j] = 0.1 * float64(j%5)
	}
	for _, size := range []int{1000, 10000} {
		idx := rand.New(rand.NewPCG(1, 2)).Perm(n)[:size]
		dst := make([]float64, d)
		b.Run("models/"+strconv.Itoa(size), func(b *testing.B) {
			for b.Loop() {
				m.LogLikGradBatch(dst, theta, idx, 1)
			}
		})
		b.Run("logreg/"+strconv.Itoa(size), func(b *testing.B) {
			for b.Loop() {
				hand.LogLikGradBatch(dst, theta, idx, 1)
			}
		})
	}
}
