// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

func (p *PSGLD) sources() []any { return p.blk.sources([]any{p.src}) }

// kindPSGLD is the checkpoint kind of a PSGLD (checkpoint.go): an on-disk
// string that must never change.
const kindPSGLD = "PSGLD"

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (documented in checkpoint.go), of kind "PSGLD": the step count, θ, the
// RMSprop accumulator v, the divergence tracker and the states of the
// random sources (the chain's generator, then those of the blocks of a
// parallel step). A gradient with its own randomness (a Minibatch) is
// checkpointed separately.
func (p *PSGLD) MarshalBinary() ([]byte, error) {
	return marshal("PSGLD.MarshalBinary", kindPSGLD, p.d, p.sources(), func(e *encoder) {
		e.int(p.t)
		e.floats(p.theta)
		e.floats(p.v)
		e.div(&p.div)
	})
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// PSGLD built with the same settings. On error, which wraps
// ErrCheckpoint, p is left as it was.
func (p *PSGLD) UnmarshalBinary(data []byte) error {
	return restore("PSGLD.UnmarshalBinary", kindPSGLD, p.d, data, p.sources(), func(d *decoder) commit {
		t := d.count("step count")
		theta := d.floats("θ", p.d, anyFinite)
		v := d.floats("accumulator v", p.d, nonNegative)
		div := d.div(p.d, t)
		return commit{set: func() {
			p.t = t
			copy(p.theta, theta)
			copy(p.v, v)
			p.div.set(div)
		}}
	})
}
