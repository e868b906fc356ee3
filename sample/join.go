// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/sgmcmc-go/sgmcmc"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
)

// Chains in a place of negligible mass (doc/adaptation.md §7). After
// every chain's sampling rounds, each chain's share of the posterior is
// estimated from its draws by the Laplace mass of where it sampled,
//
//	log m = log π(θ̃) + ½ log det Σ̂,
//
// θ̃ the medians and Σ̂ the covariance of its draws. Chains that sample one
// posterior agree on both terms within a few nats. A chain whose Laplace
// mass and log density at its medians both fall more than joinNats below
// those of the heaviest chain whose last round fit its draws (the checks
// of doc/adaptation.md §5, no divergence, no error) sampled a place
// holding less than e^−joinNats of the posterior — another mode (a hidden
// Markov model's collapsed solution, 60 nats down), or a region a chain
// with a bad step wandered into — and its draws, weighed by the chain
// rather than by their mass, only bias the answer. It joins the heavy
// chain's place: it samples again, with that chain's whitening, curvature
// and control-variate centre but its own start, streams and minibatches,
// its earlier rounds counting as warmup (Adapted.Joined). Chains within joinNats of each
// other are left as they are, and the Modes warning (modes.go,
// doc/adaptation.md §8) says when they split.

// join moves the chains of outs that settled in a place of negligible
// mass to the heaviest place, as above, when the model implements
// LogDensity, the chains are on the dense path and not multimodal, and
// rounds are on; sem bounds the chains running at once.
func join(ctx context.Context, outs []chainOut, errs []error, m sgmcmc.Model, s *Settings, sem chan struct{}) {
	if _, ok := m.(sgmcmc.LogDensity); !ok || s.Rounds == 1 || ctx.Err() != nil {
		return
	}
	var use []int
	n := math.MaxInt
	for c, o := range outs {
		if o.run != nil && o.run.dense && !o.run.multimodal && o.chain != nil && o.chain.Len() >= diagnostics.MinDraws {
			use = append(use, c)
			n = min(n, o.chain.Len())
		}
	}
	if len(use) < 2 || !disagree(outs, use, n) {
		return
	}
	// Each chain's log density at its medians and Laplace mass, a full
	// pass over the data (counted with the chain's gradients, as the
	// gradient check's log densities are).
	lp, mass := make([]float64, len(outs)), make([]float64, len(outs))
	for c := range outs {
		lp[c], mass[c] = math.NaN(), math.NaN()
	}
	for _, c := range use {
		lp[c], mass[c] = laplaceMass(m, outs[c].chain, s.Temperature)
		outs[c].evals += int64(m.Len())
	}
	// The donor: the heaviest chain whose last round fit its draws.
	donor := -1
	for c, o := range outs {
		if o.fits && errs[c] == nil && !math.IsNaN(mass[c]) && !math.IsInf(mass[c], -1) && (donor < 0 || mass[c] > mass[donor]) {
			donor = c
		}
	}
	if donor < 0 {
		return
	}
	var movers []int
	for c := range outs {
		if mass[donor]-mass[c] > joinNats && lp[donor]-lp[c] > joinNats {
			movers = append(movers, c)
		}
	}
	for _, c := range movers {
		if r := outs[c].rounds; len(r) > 0 {
			r[len(r)-1].Decision = Relocate
			r[len(r)-1].Reason = fmt.Sprintf("its Laplace mass and log density at its medians lie %.3g and %.3g nats below chain %d's: it samples again in that chain's place", mass[donor]-mass[c], lp[donor]-lp[c], donor)
		}
	}
	eachBounded(len(movers), sem, func(k int) {
		c := movers[k]
		// A chain whose new run ended before a draw keeps its old one
		// (and the Modes warning then says where it is).
		if o, err := outs[c].run.join(&outs[donor], outs[c]); o.chain != nil {
			outs[c], errs[c] = o, err
		}
	})
}

// join samples the chain again in the donor's place, with the donor's
// whitening, Hessians and control-variate centre, and returns its output.
func (cr *chainRun) join(donor *chainOut, out chainOut) (res chainOut, err error) {
	defer cr.prog.finish(cr.slot)
	defer func() {
		if v := recover(); v != nil {
			res, err = out, chainPanic(v, "")
		}
	}()
	e, da := cr.e, &donor.adapted
	e.center, e.cgrad = slices.Clone(da.Center), slices.Clone(da.CenterGrad)
	e.centred = donor.centred
	out.warnings = nil
	out.adapted.SamplerSeed = [2]uint64{e.rng.Uint64(), e.rng.Uint64()}
	out.adapted.Joined = true
	e.warm = true
	w := donor.w.moved(slices.Clone(donor.w.shift))
	return cr.rounds(w, donor.hs, &out)
}

// laplaceMass returns the log density (at temperature t) at the medians of
// the draws of ch and their Laplace mass, that plus half the log
// determinant of the draws' covariance: −∞ for no density or no volume,
// NaN when the model fails there.
func laplaceMass(m sgmcmc.Model, ch *sgmcmc.Chain, t float64) (lp, mass float64) {
	d, n := ch.Dim, ch.Len()
	med, col := make([]float64, d), make([]float64, n)
	for j := range d {
		ch.Column(col, j)
		slices.Sort(col)
		med[j] = quantileSorted(col, 0.5)
	}
	// The user's log density, whose panic means no estimate here, not a
	// crash.
	var u float64
	err := protect("LogDensity", func() error {
		d, ok := m.(fullpass.Density)
		if !ok {
			return errNoDensity
		}
		u = fullpass.Potential(d, med)
		return nil
	})
	switch {
	case err != nil || math.IsNaN(u) || math.IsInf(u, -1):
		return math.NaN(), math.NaN()
	case math.IsInf(u, 1):
		// Zero density at the medians.
		return math.Inf(-1), math.Inf(-1)
	}
	var chol mat.Cholesky
	if !chol.Factorize(chainCovariance(ch, 0, n).cov().m) {
		// Draws on a lower-dimensional set: no volume.
		return -u / t, math.Inf(-1)
	}
	return -u / t, -u/t + chol.LogDet()/2
}

// disagree reports whether the first n draws of the chains use of outs
// disagree as the summary's R̂ judges them (above rhatLimit for some
// parameter): chains that agree sampled one place, and none need join
// another.
func disagree(outs []chainOut, use []int, n int) bool {
	cols, xs := make([][]float64, len(use)), make([][]float64, len(use))
	for j := range outs[use[0]].chain.Dim {
		for k, c := range use {
			cols[k] = outs[c].chain.Column(cols[k], j)
			xs[k] = cols[k][:n]
		}
		if r, err := diagnostics.RHat(xs); !(err == nil && r <= rhatLimit) {
			return true
		}
	}
	return false
}

// errNoDensity: the Model has no log density to weigh a place by.
var errNoDensity = errors.New("sgmcmc: the Model does not implement LogDensity")
