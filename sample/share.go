// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
)

// The run's shared control-variate centre (doc/adaptation.md §2.3). The
// centre's search is the one part of warmup whose cost grows with N: a
// dozen or more full passes, which every chain used to make on its own,
// each finding the same full-data mode. Run now searches once, before the
// chains start, with a warmup of its own (P0–P3 of a chain on the stream
// rng.ChainSource(Seed, −1), which no chain uses), and each chain, at its
// own P3, continues the search from that centre with its own curvature:
// the full gradient there is known, so a chain whose quasi-Newton step
// from it is within centreTol is centred with no pass of its own. The
// chains stay independent: the centre is a function of the data and the
// seed, not of any chain's draws, and only sets where the control
// variate's noise is smallest, never the target; and ChainIDs still
// draws a chain as a run of all chains would, every process making the
// same search.
//
// A chain whose warmup settled in another basin than the shared centre —
// its fixed batch's potential, integrated along the segment from where
// its Newton phase ended to the centre, rising more than shareBarrier
// nats above both ends (it climbs, then descends into another mode) —
// searches from its own point, as before, so that chains
// that find separate modes still find them (the Modes warning, §8).

// sharedCentre is the run's centre: θ̂ and the full-data log-likelihood
// gradient Σ_i ∇log p(x_i | θ̂) there, whether the search converged (the
// chains start from it only then), and what finding it cost.
type sharedCentre struct {
	center, lik []float64
	ok          bool
	passes      int
	evals       int64 // the leader's warmup's gradient evaluations
	secs        float64
}

// use returns the centre the chains start from: s if it converged.
func (s *sharedCentre) use() *sharedCentre {
	if s == nil || !s.ok {
		return nil
	}
	return s
}

// sharing is a chain's part in the shared centre: the leader searches and
// stops; the chains start from its centre (nil: none).
type sharing struct {
	leader bool
	centre *sharedCentre
}

// leaderChain is the chain number of the shared search's stream.
const leaderChain = -1

// searchShared runs the shared search: a warmup to P3 on its own stream.
// It returns nil when there is nothing to search (no Model, no control
// variate, or no data beyond the fixed batch), and a centre that is not
// ok — each chain then searches on its own — when the search failed or
// did not converge; its cost counts in the run's either way.
func searchShared(ctx context.Context, p Problem, theta0 []float64, s *Settings, m Method, r Rules) *sharedCentre {
	if p.Model == nil || s.PlainMinibatch || r.Multimodal {
		return nil
	}
	o, err := sampleChain(ctx, leaderChain, p, theta0, s, m, r, nil, 0, &sharing{leader: true})
	if err != nil && o.share != nil {
		o.share.ok = false
	}
	return o.share
}

// sameBasin reports whether the chain's Newton end (w's shift) and the
// shared centre c lie in one basin of the fixed batch's potential: the
// potential, integrated by the trapezoid rule from its directional
// derivative at shareSegment points of the segment between them, never
// rises more than shareBarrier nats above both ends (a climb, then a
// descent into another basin). A potential that only falls or only rises
// along the way (a Newton phase stopped short of its mode) is one basin.
func (e *chainEnv) sameBasin(w *whitening, c []float64) bool {
	s := w.toTheta(make([]float64, e.d))
	dir := make([]float64, e.d)
	floats.SubTo(dir, c, s)
	g, th := make([]float64, e.d), make([]float64, e.d)
	e.fixed.Grad(g, s)
	prev := floats.Dot(g, dir)
	var u, peak float64 // U(θ) − U(start) along the way, and its largest inside
	for k := 1; k <= shareSegment; k++ {
		floats.AddScaledTo(th, s, float64(k)/shareSegment, dir)
		e.fixed.Grad(g, th)
		dk := floats.Dot(g, dir)
		if math.IsNaN(dk) || math.IsInf(dk, 0) {
			return false
		}
		u += (prev + dk) / (2 * shareSegment)
		if k < shareSegment {
			peak = math.Max(peak, u)
		}
		prev = dk
	}
	return peak-math.Max(0, u) <= shareBarrier
}
