// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "strconv"

// kindName returns the Recipe's kind in checkpoints: its constructor's
// name without "New" ("SGHMC"), or "Recipe" for NewRecipe.
func (r *Recipe) kindName() string {
	if r.kind == "" {
		return "Recipe"
	}
	return r.kind
}

// sources returns the random sources of the chain, in checkpoint order:
// the chain's generator, then those of the blocks of a parallel step.
func (r *Recipe) sources() []any {
	srcs := []any{r.spec.Src}
	if r.fz != nil {
		srcs = r.fz.blk.sources(srcs)
	}
	return srcs
}

// MarshalBinary checkpoints the chain: its kind (the constructor, e.g.
// "SGHMC"; "Recipe" for NewRecipe), dim θ, the block sizes, the step
// count, the state z, the divergence tracker and the random source's
// state. The source must implement encoding.BinaryMarshaler, as
// math/rand/v2's PCG and ChaCha8 do. A gradient with its own randomness (a
// Minibatch) is checkpointed separately.
//
// Every sampler and every gradient or shape source with state of its own
// (Recipe, PSGLD, HAMCMC, SCIR, SGRLDSimplex, Minibatch, CountMinibatch,
// LBFGS) writes one versioned format:
//
//	"SGMC"             4 bytes, the magic
//	version            1 byte, 1
//	kind length, kind  1 byte, then the kind in ASCII ("SGHMC", "HAMCMC", …)
//	dimension          8 bytes, little-endian
//	payload length     8 bytes, little-endian
//	payload            the kind's own fields, little-endian
//	CRC-32C            4 bytes, Castagnoli, of everything before it
//
// The payload holds integers as 8 bytes, floats as their IEEE bits, slices
// as a length followed by the elements, and each random source as a length
// followed by its own MarshalBinary. Only primary state is stored; what
// derives from it (a metric, ω, the L-BFGS products) is recomputed on
// restore exactly as the sampler computed it.
//
// UnmarshalBinary checks, in this order, the magic, the version, the
// length, the checksum, the kind, the dimension and then every field
// (ranges, finiteness, permutations, the consistency of derived values),
// before it changes anything: on any failure it returns an error wrapping
// ErrCheckpoint that names the problem, and the receiver is left as it
// was. A checkpoint that is accepted marshals back to the same bytes.
func (r *Recipe) MarshalBinary() ([]byte, error) {
	var e encoder
	e.ints(r.spec.Blocks)
	e.int(r.t)
	e.floats(r.z)
	e.div(&r.div)
	if err := e.sources("Recipe.MarshalBinary", r.sources()...); err != nil {
		return nil, err
	}
	return seal(r.kindName(), r.d, e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Recipe built by the same constructor with the same settings: the chain
// then continues exactly as the checkpointed one would have. A checkpoint
// of another kind or dimension, or a truncated or corrupted one, gives an
// error wrapping ErrCheckpoint and leaves r as it was.
func (r *Recipe) UnmarshalBinary(data []byte) error {
	const who = "Recipe.UnmarshalBinary"
	p, err := unseal(who, r.kindName(), r.d, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: p}
	if d.length("block sizes", len(r.spec.Blocks)) {
		for i, b := range r.spec.Blocks {
			d.equal("block size "+strconv.Itoa(i), b)
		}
	}
	t := d.count("step count")
	z := d.floats("state", r.n, anyFinite)
	div := d.div(r.d, t)
	srcs := d.sources(len(r.sources()))
	if err := d.end(); err != nil {
		return err
	}
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(z); err != nil {
			// Put back what Prepare caches for the current state.
			_ = r.spec.Prepare(r.z)
			return errorf(ErrCheckpoint, "%s: Prepare fails at the checkpoint's state: %w", who, err)
		}
	}
	if err := restoreSources(who, r.sources(), srcs); err != nil {
		if r.spec.Prepare != nil {
			_ = r.spec.Prepare(r.z)
		}
		return err
	}
	copy(r.z, z)
	r.t = t
	r.thVer++
	r.gVer = -1
	r.div.step, r.div.n, r.div.last = div.step, div.n, div.last
	copy(r.div.from, div.from)
	copy(r.div.g, div.g)
	return nil
}
