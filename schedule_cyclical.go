// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

// A phasedSchedule is a Schedule whose steps belong to an exploration or a
// sampling phase, by a method Sampling(t int) bool. Run keeps no draw of an
// exploration step; the draws it keeps carry their step sizes (Chain.Eps),
// so step-weighted means (doc/equations.md §12) stay correct. Cyclical is
// one; a Schedule of the user's with that method is one too.
type phasedSchedule interface {
	Schedule
	// Sampling reports whether step t is in a sampling phase.
	Sampling(t int) bool
}

// Cyclical is the cyclical cosine schedule of cSG-MCMC (Zhang, Li, Zhang,
// Chen & Wilson 2020): cycles of Cycle steps, within each
//
//	ε_t = (Eps0/2)(cos(π k/Cycle) + 1),   k = (t − 1) mod Cycle,
//
// large at the start of a cycle, where the chain explores (runs hot, and
// may leave a mode), small at its end, where it samples the mode it is
// in. The first Explore share of each cycle is the exploration phase,
// whose draws Run does not keep (a Schedule with a method Sampling(t int)
// bool has its phases read the same way).
type Cyclical struct {
	// Eps0 is the largest step, at the start of every cycle.
	Eps0 float64
	// Cycle is the number of steps of a cycle; it must be positive.
	Cycle int
	// Explore is the share of each cycle in the exploration phase, in
	// [0, 1). Zero means 0.5.
	Explore float64
}

var _ phasedSchedule = Cyclical{}

// StepSize returns the step of step t (t ≥ 1).
func (c Cyclical) StepSize(t int) float64 {
	k := c.pos(t)
	return c.Eps0 / 2 * (math.Cos(math.Pi*float64(k)/float64(max(c.Cycle, 1))) + 1)
}

// Sampling reports whether step t is past the exploration share of its
// cycle.
func (c Cyclical) Sampling(t int) bool {
	beta := c.Explore
	if beta == 0 {
		beta = 0.5
	}
	return float64(c.pos(t)) >= beta*float64(max(c.Cycle, 1))
}

// pos is step t's position in its cycle, 0 … Cycle−1.
func (c Cyclical) pos(t int) int {
	n := max(c.Cycle, 1)
	return ((t-1)%n + n) % n
}

func (c Cyclical) check(who string) error {
	switch {
	case !(c.Eps0 > 0) || math.IsInf(c.Eps0, 0):
		return errorf(ErrRange, "%s: Schedule Cyclical{Eps0: %v}, want Eps0 positive and finite", who, c.Eps0)
	case c.Cycle <= 0:
		return errorf(ErrRange, "%s: Schedule Cyclical{Cycle: %d}, want a positive number of steps per cycle", who, c.Cycle)
	case !(c.Explore >= 0 && c.Explore < 1):
		return errorf(ErrRange, "%s: Schedule Cyclical{Explore: %v}, want the exploration's share of a cycle in [0, 1) (0 means 0.5): at 1 or more no draw is kept", who, c.Explore)
	}
	return nil
}
