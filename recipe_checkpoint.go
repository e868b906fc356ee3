// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "strconv"

// The checkpoint kinds of recipes, one per constructor (checkpoint.go):
// on-disk strings that must never change.
const (
	kindRecipe      = "Recipe"      // NewRecipe
	kindSGLD        = "SGLD"        // NewSGLD
	kindSGHMC       = "SGHMC"       // NewSGHMC
	kindNaiveSGHMC  = "NaiveSGHMC"  // NewSGHMC with Naive
	kindSGNHT       = "SGNHT"       // NewSGNHT
	kindSGRLD       = "SGRLD"       // NewSGRLD
	kindSGRLDDense  = "SGRLDDense"  // NewSGRLDDense
	kindSGRHMC      = "SGRHMC"      // NewSGRHMC
	kindSGRHMCDense = "SGRHMCDense" // NewSGRHMCDense
	kindNaiveSGRHMC = "NaiveSGRHMC" // NewSGRHMC with Naive
)

// kindName returns the Recipe's kind in checkpoints: that of its
// constructor (kindSGHMC for NewSGHMC), or kindRecipe for NewRecipe.
func (r *Recipe) kindName() string {
	if r.kind == "" {
		return kindRecipe
	}
	return r.kind
}

// sources returns the random sources of the chain, in checkpoint order:
// the chain's generator, then those of the blocks of a parallel step.
func (r *Recipe) sources() []any {
	srcs := []any{r.spec.Src}
	switch st := r.st.(type) {
	case *fused:
		srcs = st.blk.sources(srcs)
	case *splitting:
		srcs = st.blk.sources(srcs)
	}
	return srcs
}

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (documented in checkpoint.go), under the kind of its constructor ("SGHMC";
// "Recipe" for NewRecipe): the block sizes, the step count, the state z,
// the divergence tracker and the states of the random sources (the chain's
// generator, then those of the blocks of a parallel step). The source must
// implement encoding.BinaryMarshaler, as math/rand/v2's PCG and ChaCha8 do.
// A gradient with its own randomness (a Minibatch) is checkpointed
// separately.
func (r *Recipe) MarshalBinary() ([]byte, error) {
	return marshal("Recipe.MarshalBinary", r.kindName(), r.d, r.sources(), func(e *encoder) {
		e.ints(r.spec.Blocks)
		e.int(r.t)
		e.floats(r.z)
		e.div(&r.div)
	})
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Recipe built by the same constructor with the same settings: the chain
// then continues exactly as the checkpointed one would have. A checkpoint
// of another kind or dimension, or a truncated or corrupted one, gives an
// error wrapping ErrCheckpoint and leaves r as it was.
func (r *Recipe) UnmarshalBinary(data []byte) error {
	const who = "Recipe.UnmarshalBinary"
	return restore(who, r.kindName(), r.d, data, r.sources(), func(d *decoder) commit {
		if d.length("block sizes", len(r.spec.Blocks)) {
			for i, b := range r.spec.Blocks {
				d.equal("block size "+strconv.Itoa(i), b)
			}
		}
		t := d.count("step count")
		z := d.floats("state", r.n, anyFinite)
		div := d.div(r.d, t)
		c := commit{set: func() {
			copy(r.z, z)
			r.t = t
			r.thVer++
			r.gVer = -1
			r.div.set(div)
		}}
		if r.spec.Prepare != nil {
			c.prepare = func() error {
				if err := r.spec.Prepare(z); err != nil {
					// Put back what Prepare caches for the current state.
					_ = r.spec.Prepare(r.z)
					return errorf(ErrCheckpoint, "%s: Prepare fails at the checkpoint's state: %w", who, err)
				}
				return nil
			}
			c.undo = func() { _ = r.spec.Prepare(r.z) }
		}
		return c
	})
}
