// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"
)

// Ladder records how replica exchange's ladder was crossed in a chain's
// sampling run (Adapted.Ladder): information, not a warning
// (ReplicaExchange says when it becomes one).
type Ladder struct {
	// Temperatures are the ladder's temperatures, coldest (1) first.
	Temperatures []float64
	// Acceptance[k] is the share of exchanges between Temperatures[k] and
	// Temperatures[k+1] accepted; below 5 % the ladder has a gap (raise
	// ReplicaExchange.Replicas).
	Acceptance []float64
	// RoundTrips counts replicas that went from the coldest temperature to
	// the hottest and back; below 10 the modes' weights rest on few
	// crossings (raise Draws).
	RoundTrips int
	// HotFailures counts hot replicas' steps that failed (divergent or
	// non-finite) and were retried.
	HotFailures int64
	// Missed is how far, in nats of log density, the best point a hot
	// replica reached lies above the best the coldest reached (0 if not
	// above); past MissedLimit an Exchange warning fires.
	Missed, MissedLimit float64
}

// ladder returns the run's Ladder and, when the hot replicas found mass
// the cold one did not visit, the warning that says so. The limit is
// replicaMissed nats plus replicaMissedSD standard deviations √(d/2) of
// a d-dimensional Gaussian's potential: the least of two chains' many
// potentials differ by about that much by chance.
func (r *replicaSampler) ladder() (Ladder, []string) {
	l := Ladder{Temperatures: append([]float64(nil), r.temps...), Acceptance: make([]float64, len(r.attempts)),
		RoundTrips: r.trips, HotFailures: r.hotFails}
	worst, at := 1.0, -1
	for k, n := range r.attempts {
		if n > 0 {
			l.Acceptance[k] = float64(r.accepts[k]) / float64(n)
			if l.Acceptance[k] < worst {
				worst, at = l.Acceptance[k], k
			}
		}
	}
	l.MissedLimit = replicaMissed + replicaMissedSD*math.Sqrt(float64(r.d)/2)
	if m := r.coldBest - r.hotBest; m > 0 && !math.IsInf(r.coldBest, 1) {
		l.Missed = m
	}
	if !(l.Missed > l.MissedLimit) {
		return l, nil
	}
	health := fmt.Sprintf("%d round trips", r.trips)
	if at >= 0 {
		health = fmt.Sprintf("exchanges between temperatures %.3g and %.3g accepted %.1f%% of the time, %s", r.temps[at], r.temps[at+1], 100*worst, health)
	}
	return l, []string{fmt.Sprintf("replica exchange: a hot replica reached a point %.1f nats more probable than any the cold replica visited (beyond the %.1f its spread allows): the posterior has mass the draws may not have visited (%s); raise ReplicaExchange.Replicas and Draws", l.Missed, l.MissedLimit, health)}
}
