// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

func (s *SCIR) sources() []any { return s.blk.sources([]any{s.src}) }

// kindSCIR is the checkpoint kind of a SCIR (checkpoint.go): an on-disk
// string that must never change.
const kindSCIR = "SCIR"

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (documented in checkpoint.go), of kind "SCIR": the simplex block length,
// the step count, θ, log θ and the states of the random sources (the
// chain's generator, then those of the blocks of a parallel step). A shape
// estimator with its own randomness (a CountMinibatch) is checkpointed
// separately.
func (s *SCIR) MarshalBinary() ([]byte, error) {
	return marshal("SCIR.MarshalBinary", kindSCIR, s.d, s.sources(), func(e *encoder) {
		e.int(s.block)
		e.int(s.t)
		e.floats(s.theta)
		e.floats(s.logTheta)
	})
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into an
// SCIR built with the same settings. On error, which wraps ErrCheckpoint,
// s is left as it was.
func (s *SCIR) UnmarshalBinary(data []byte) error {
	return restore("SCIR.UnmarshalBinary", kindSCIR, s.d, data, s.sources(), func(d *decoder) commit {
		d.equal("simplex block length", s.block)
		t := d.count("step count")
		theta := d.floats("θ", s.d, nonNegative)
		logTheta := d.floats("log θ", s.d, anyValue)
		if d.err == nil {
			checkLogTheta(d, s.block, theta, logTheta)
		}
		return commit{set: func() {
			s.t = t
			copy(s.theta, theta)
			copy(s.logTheta, logTheta)
			if s.omega != nil {
				for k := range s.logSum {
					lo, hi := k*s.block, (k+1)*s.block
					s.logSum[k] = normalizeSimplexBlock(s.omega[lo:hi], s.theta[lo:hi], s.logTheta[lo:hi])
				}
			}
		}}
	})
}

// checkLogTheta fails d unless log θ is the log of θ: close to it where θ
// is a normal float, below the normal range where it is subnormal or zero;
// and, with simplex blocks of length block, unless θ is positive somewhere
// on every block.
func checkLogTheta(d *decoder, block int, theta, logTheta []float64) {
	const (
		logMinNormal = -708.3964185322641 // log 2^−1022
		logMinSub    = -744.4400719213812 // log 2^−1074
	)
	for j, l := range logTheta {
		th := theta[j]
		var ok bool
		switch {
		case math.IsNaN(l) || math.IsInf(l, 1):
		case th >= 0x1p-1022:
			lt := math.Log(th)
			ok = math.Abs(l-lt) <= 1e-9*(1+math.Abs(lt))
		case th > 0:
			lt := math.Log(th)
			ok = l <= logMinNormal+1e-9 && l >= lt-1 && l <= lt+1
		default:
			ok = l <= logMinSub
		}
		if !ok {
			d.fail("log θ[%d] = %v does not match θ[%d] = %v", j, l, j, th)
			return
		}
	}
	for lo := 0; block > 0 && lo < len(logTheta); lo += block {
		m := math.Inf(-1)
		for _, l := range logTheta[lo : lo+block] {
			m = max(m, l)
		}
		if math.IsInf(m, -1) {
			d.fail("θ is zero on the whole simplex block at %d", lo)
			return
		}
	}
}
