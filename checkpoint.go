// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"encoding"
	"encoding/binary"
	"math"
)

// MarshalBinary checkpoints the chain: the step count, the state z and the
// random source's state. The source must implement
// encoding.BinaryMarshaler, as math/rand/v2's PCG and ChaCha8 do. A
// gradient with its own randomness (a Minibatch) is checkpointed
// separately.
func (r *Recipe) MarshalBinary() ([]byte, error) {
	m, ok := r.spec.Src.(encoding.BinaryMarshaler)
	if !ok {
		return nil, errorf(ErrUnsupported, "Recipe.MarshalBinary: random source %T does not implement encoding.BinaryMarshaler", r.spec.Src)
	}
	src, err := m.MarshalBinary()
	if err != nil {
		return nil, errorf(ErrCheckpoint, "Recipe.MarshalBinary: %w", err)
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(r.t))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(r.z)))
	for _, v := range r.z {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return append(b, src...), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Recipe built by the same constructor with the same settings: the chain
// then continues exactly as the checkpointed one would have.
func (r *Recipe) UnmarshalBinary(data []byte) error {
	u, ok := r.spec.Src.(encoding.BinaryUnmarshaler)
	if !ok {
		return errorf(ErrUnsupported, "Recipe.UnmarshalBinary: random source %T does not implement encoding.BinaryUnmarshaler", r.spec.Src)
	}
	if len(data) < 16 {
		return errorf(ErrCheckpoint, "Recipe.UnmarshalBinary: checkpoint too short")
	}
	t := binary.LittleEndian.Uint64(data)
	n := binary.LittleEndian.Uint64(data[8:])
	if n != uint64(len(r.z)) || uint64(len(data)) < 16+8*n {
		return errorf(ErrCheckpoint, "Recipe.UnmarshalBinary: checkpoint of a state of length %d, sampler has %d", n, len(r.z))
	}
	z := make([]float64, n)
	for i := range z {
		z[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[16+8*i:]))
	}
	if i := firstNonFinite(z); i >= 0 {
		return errorf(ErrCheckpoint, "Recipe.UnmarshalBinary: non-finite state at coordinate %d", i)
	}
	if err := u.UnmarshalBinary(data[16+8*n:]); err != nil {
		return errorf(ErrCheckpoint, "Recipe.UnmarshalBinary: random source: %w", err)
	}
	copy(r.z, z)
	r.t = int(t)
	r.thVer++
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(r.z); err != nil {
			return errorf(nil, "Recipe.UnmarshalBinary: %w", err)
		}
	}
	return nil
}

// MarshalBinary checkpoints the batch stream: the random source's state
// and, without replacement, the permutation the batches are drawn from. The
// source must implement encoding.BinaryMarshaler.
func (b *Minibatch) MarshalBinary() ([]byte, error) {
	m, ok := b.src.(encoding.BinaryMarshaler)
	if !ok {
		return nil, errorf(ErrUnsupported, "Minibatch.MarshalBinary: random source %T does not implement encoding.BinaryMarshaler", b.src)
	}
	src, err := m.MarshalBinary()
	if err != nil {
		return nil, errorf(ErrCheckpoint, "Minibatch.MarshalBinary: %w", err)
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(b.perm)))
	for _, p := range b.perm {
		out = binary.LittleEndian.AppendUint64(out, uint64(p))
	}
	return append(out, src...), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Minibatch over the same model with the same size and replacement.
func (b *Minibatch) UnmarshalBinary(data []byte) error {
	u, ok := b.src.(encoding.BinaryUnmarshaler)
	if !ok {
		return errorf(ErrUnsupported, "Minibatch.UnmarshalBinary: random source %T does not implement encoding.BinaryUnmarshaler", b.src)
	}
	if len(data) < 8 {
		return errorf(ErrCheckpoint, "Minibatch.UnmarshalBinary: checkpoint too short")
	}
	n := binary.LittleEndian.Uint64(data)
	if n != uint64(len(b.perm)) || uint64(len(data)) < 8+8*n {
		return errorf(ErrCheckpoint, "Minibatch.UnmarshalBinary: checkpoint of a permutation of length %d, minibatch has %d", n, len(b.perm))
	}
	perm := make([]int, n)
	seen := make([]bool, n)
	for i := range perm {
		p := binary.LittleEndian.Uint64(data[8+8*i:])
		if p >= n || seen[p] {
			return errorf(ErrCheckpoint, "Minibatch.UnmarshalBinary: checkpoint holds no valid permutation")
		}
		seen[p] = true
		perm[i] = int(p)
	}
	if err := u.UnmarshalBinary(data[8+8*n:]); err != nil {
		return errorf(ErrCheckpoint, "Minibatch.UnmarshalBinary: random source: %w", err)
	}
	copy(b.perm, perm)
	return nil
}
