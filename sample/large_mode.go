// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// P1 above DenseMax when a fixed batch of all the data would be costly
// (doc/adaptation.md §4.2): the fixed batch is capped so that one of its
// gradients costs at most fixedBatchCost item·coordinates (a dense model's
// per-item gradient costs O(d)), and the Newton phase from the dispersed
// start gives way to Adam on small minibatches towards a mode, where the
// diagonal curvature is measured once. A posterior that is not
// log-concave (a neural network's) offers Newton no sensible step from a
// random start, and each of its steps costs 2·diagProbes + 3 fixed-batch
// gradients; Adam needs no curvature and moves every coordinate by about
// its rate per step whatever the gradient's scale. Adam's rate is
// modeRate·StartScale, in user units: the start's jitter is the scale Run
// assumes of θ before it has measured one.

// capFixedBatch returns the fixed batch's size above DenseMax: nh (the
// dense path's choice) capped at max(min(n0, fixedBatchRows),
// fixedBatchCost/d). The n0 = N/10 floor keeps a batch of thousands where
// 10⁸/d is a few hundred; fixedBatchRows bounds it at large N, where a
// warmup's 250 or so fixed-batch gradients would otherwise be 25 passes
// over the data a chain.
func capFixedBatch(nh, n0, d int) int {
	return min(nh, max(min(n0, fixedBatchRows), int(fixedBatchCost/float64(d))))
}

// costlyFixed says whether the large-d chain's fixed batch was capped
// below the data, so that P1 is modeSearch rather than newton.
func (e *chainEnv) costlyFixed(dense bool) bool {
	return !dense && e.model != nil && e.N > e.nFixed
}

// modeSearch is P1 on the large-d path with a capped fixed batch:
// modeEpochs epochs of Adam from start on minibatches of modeBatch items
// (at least modeMinSteps steps, at most modeMaxSteps),
// then the diagonal curvature of the fixed batch there (diagProbe). It
// returns the whitening of that curvature centred at Adam's end and the
// curvature in its coordinates, as newton does.
func (e *chainEnv) modeSearch(start []float64, startScale float64) (*whitening, []sym, error) {
	d := e.d
	mb, err := sgmcmc.NewMinibatch(e.counted, min(e.N, modeBatch), false, rand.NewPCG(e.mbSeed[0]^modeSeed, e.mbSeed[1]))
	if err != nil {
		return nil, nil, err
	}
	theta := append([]float64(nil), start...)
	g, m1, m2 := make([]float64, d), make([]float64, d), make([]float64, d)
	rate := modeRate * startScale
	steps := min(modeMaxSteps, max(modeMinSteps, modeEpochs*e.N/min(e.N, modeBatch)))
	for t := 1; t <= steps; t++ {
		mb.Grad(g, theta)
		if valid.FirstNonFinite(g) >= 0 {
			w := &whitening{shift: theta, diag: ones(d)}
			return nil, nil, e.fault(w, "the minibatch gradient of the mode search")
		}
		c1 := 1 - math.Pow(modeBeta1, float64(t))
		c2 := 1 - math.Pow(modeBeta2, float64(t))
		for i, gi := range g {
			m1[i] = modeBeta1*m1[i] + (1-modeBeta1)*gi
			m2[i] = modeBeta2*m2[i] + (1-modeBeta2)*gi*gi
			theta[i] -= rate * (m1[i] / c1) / (math.Sqrt(m2[i]/c2) + modeEps)
		}
	}
	w := &whitening{shift: theta, diag: ones(d)}
	h, _, err := e.whitenedHessian(w, false)
	if err != nil {
		return nil, nil, err
	}
	nw, _, err := e.rewhiten(w, h)
	if err != nil {
		return nil, nil, err
	}
	// The mode is both P1's end and the one point of the windows
	// (which do not run): λ̂ and the curvature spread read it.
	hw := reexpress(h, transition(w, nw))
	return nw, []sym{hw, hw}, nil
}

// ones returns a d-vector of ones.
func ones(d int) []float64 {
	v := make([]float64, d)
	for i := range v {
		v[i] = 1
	}
	return v
}
