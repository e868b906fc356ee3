// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

// kindMinibatch is the checkpoint kind of a Minibatch (checkpoint.go): an on-disk
// string that must never change.
const kindMinibatch = "Minibatch"

// MarshalBinary checkpoints the batch stream in the package's checkpoint
// format (documented in checkpoint.go), of kind "Minibatch": N, the batch
// size, the replacement mode, the permutation the batches are drawn from
// (empty with replacement and for rejection draws), the last batch and the random source's state.
// The source must implement encoding.BinaryMarshaler.
func (b *Minibatch) MarshalBinary() ([]byte, error) {
	if !b.acquire() {
		return nil, errShared
	}
	defer b.release()
	return marshal("Minibatch.MarshalBinary", kindMinibatch, b.model.Dim(), []any{b.src}, b.encode)
}

// encode writes the batch stream's fields (a ControlVariate's too).
func (b *Minibatch) encode(e *encoder) {
	e.int(b.model.Len())
	e.int(b.n)
	e.bool(b.replace)
	e.ints(b.perm)
	e.ints(b.idx)
}

// decode reads what encode wrote and returns the function that sets it.
func (b *Minibatch) decode(d *decoder) func() {
	N := b.model.Len()
	d.equal("number of data items N", N)
	d.equal("batch size", b.n)
	if rep := d.bool("replacement"); d.err == nil && rep != b.replace {
		d.fail("checkpoint drawn with replacement %v, the receiver %v", rep, b.replace)
	}
	var perm []int
	if b.perm == nil {
		d.length("permutation", 0)
	} else {
		perm = d.perm("permutation", N)
	}
	idx := d.ints("last batch", b.n, N)
	return func() {
		copy(b.perm, perm)
		copy(b.idx, idx)
	}
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Minibatch over the same model with the same size and replacement. On
// error, which wraps ErrCheckpoint, b is left as it was.
func (b *Minibatch) UnmarshalBinary(data []byte) error {
	if !b.acquire() {
		return errShared
	}
	defer b.release()
	return restore("Minibatch.UnmarshalBinary", kindMinibatch, b.model.Dim(), data, []any{b.src}, func(d *decoder) commit {
		return commit{set: b.decode(d)}
	})
}
