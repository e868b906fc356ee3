// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"math/rand/v2"
)

// Adam's settings for the MAP (Kingma & Ba 2015's defaults), the
// minibatch size and the number of epochs (passes over the 8,000
// training digits). With the prior as a weight decay of 1 in θ (per
// coordinate, against the likelihood of 8,000 digits) the training loss
// levels off by about 30 epochs; 40 leaves a margin.
const (
	adamRate   = 1e-2
	adamBeta1  = 0.9
	adamBeta2  = 0.999
	adamEps    = 1e-8
	adamBatch  = 100
	adamEpochs = 40
)

// fitMAP returns the posterior mode of m found by Adam on minibatches of
// adamBatch digits, for adamEpochs epochs, from θ ~ N(0, I) (a draw from
// the prior) seeded by seed. It returns the mode and the per-datum
// gradient evaluations spent.
func fitMAP(m *MLP, seed uint64) ([]float64, int64) {
	rng := rand.New(rand.NewPCG(seed, 0xada))
	d, n := m.Dim(), m.Len()
	theta := make([]float64, d)
	for i := range theta {
		theta[i] = rng.NormFloat64()
	}
	g, mom, v := make([]float64, d), make([]float64, d), make([]float64, d)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	scale := float64(n) / adamBatch
	var t int
	var evals int64
	for range adamEpochs {
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for lo := 0; lo+adamBatch <= n; lo += adamBatch {
			// g = −∇log p(θ | x), the minibatch estimate.
			clear(g)
			m.LogPriorGrad(g, theta)
			m.LogLikGradBatch(g, theta, perm[lo:lo+adamBatch], scale)
			evals += adamBatch
			t++
			c1 := 1 - math.Pow(adamBeta1, float64(t))
			c2 := 1 - math.Pow(adamBeta2, float64(t))
			for i, gi := range g {
				gi = -gi
				mom[i] = adamBeta1*mom[i] + (1-adamBeta1)*gi
				v[i] = adamBeta2*v[i] + (1-adamBeta2)*gi*gi
				theta[i] -= adamRate * (mom[i] / c1) / (math.Sqrt(v[i]/c2) + adamEps)
			}
		}
	}
	return theta, evals
}
