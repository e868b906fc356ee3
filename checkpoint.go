// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"hash/crc32"
)

// Every sampler and every gradient or shape source with state of its own
// (Recipe, PSGLD, HAMCMC, SCIR, SGRLDSimplex, Minibatch, CountMinibatch)
// checkpoints itself with MarshalBinary in one versioned format:
//
//	"SGMC"             4 bytes, the magic
//	version            1 byte, 1
//	kind length, kind  1 byte, then the kind in ASCII ("SGHMC", "HAMCMC", …)
//	dimension          8 bytes, little-endian
//	payload length     8 bytes, little-endian
//	payload            the kind's own fields, little-endian
//	CRC-32C            4 bytes, Castagnoli, of everything before it
//
// The payload holds integers as 8 bytes, floats as their IEEE bits, booleans
// as one byte 0 or 1, slices as a length followed by the elements, and each
// random source as a length followed by its own MarshalBinary; the random
// sources close the payload. Each type's MarshalBinary names its fields, in
// order. Only primary state is stored; what derives from it (a metric, ω,
// the L-BFGS products) is recomputed on restore exactly as the sampler
// computed it.
//
// UnmarshalBinary checks, in this order, the magic, the version, the
// length, the checksum, the kind, the dimension and then every field
// (ranges, finiteness, permutations, the consistency of derived values),
// before it changes anything: on any failure it returns an error wrapping
// ErrCheckpoint that names the problem, and the receiver is left as it
// was. A checkpoint that is accepted marshals back to the same bytes.
// marshal and restore below are the one place that keeps these rules.

const (
	ckptMagic   = "SGMC"
	ckptVersion = 1
	// ckptHeader is the size of the header without the kind.
	ckptHeader = len(ckptMagic) + 1 + 1 + 8 + 8
	// ckptMaxSource bounds the size of one random source's state.
	ckptMaxSource = 1 << 16
)

// Each kind of state has its kind, a string constant declared beside the
// type's MarshalBinary (kindSGHMC, kindMinibatch, …), written into every
// checkpoint of that kind and matched on restore: the strings are the
// on-disk format and must never change, whatever the Go names of the types
// and constructors become. TestCheckpointKinds lists them all and checks
// that no two are the same.

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// marshal writes a checkpoint of the given kind and dimension: the fields
// that write appends, then the states of srcs, in the envelope. who names
// the caller in errors.
func marshal(who, kind string, dim int, srcs []any, write func(e *encoder)) ([]byte, error) {
	var e encoder
	write(&e)
	if err := e.sources(who, srcs...); err != nil {
		return nil, err
	}
	return seal(kind, dim, e.b), nil
}

// A commit sets a receiver to the checkpoint that a read function of
// restore decoded and validated.
type commit struct {
	// prepare, if not nil, runs once the payload was read and validated in
	// full, before anything else; if it fails, restore returns its error,
	// which must wrap ErrCheckpoint, and nothing has changed.
	prepare func() error
	// undo, if not nil, reverses prepare when restoring the random sources
	// fails.
	undo func()
	// set sets the receiver's fields. It cannot fail.
	set func()
}

// restore is the one decode–validate–restore sequence of every
// UnmarshalBinary, and the one place that keeps its rule: on any failure it
// returns an error wrapping ErrCheckpoint (or, for a random source that
// cannot be restored, ErrUnsupported) and the receiver is left as it was.
//
// It checks data's envelope for the kind and dimension, and calls read to
// decode the kind's fields with d, which checks each as it goes (the first
// failure sticks, making later reads no-ops); read returns the commit for
// what it read. The states of srcs, which close every payload, are read
// next, and the payload must have been read exactly. Only if all of that
// succeeded does restore run the commit's prepare, restore srcs all or
// none, and set the receiver. who names the caller in errors.
func restore(who, kind string, dim int, data []byte, srcs []any, read func(d *decoder) commit) error {
	p, err := unseal(who, kind, dim, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: p}
	c := read(&d)
	states := d.sources(len(srcs))
	if err := d.end(); err != nil {
		return err
	}
	if c.prepare != nil {
		if err := c.prepare(); err != nil {
			return err
		}
	}
	if err := restoreSources(who, srcs, states); err != nil {
		if c.undo != nil {
			c.undo()
		}
		return err
	}
	c.set()
	return nil
}

// seal wraps a payload in the checkpoint envelope.
func seal(kind string, dim int, payload []byte) []byte {
	b := make([]byte, 0, ckptHeader+len(kind)+len(payload)+4)
	b = append(b, ckptMagic...)
	b = append(b, ckptVersion, byte(len(kind)))
	b = append(b, kind...)
	b = binary.LittleEndian.AppendUint64(b, uint64(dim))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// unseal checks the envelope of a checkpoint for a receiver of the given
// kind and dimension, and returns its payload.
func unseal(who, kind string, dim int, data []byte) ([]byte, error) {
	if len(data) < len(ckptMagic)+2 {
		return nil, errorf(ErrCheckpoint, "%s: checkpoint truncated: %d bytes, shorter than any header", who, len(data))
	}
	if string(data[:len(ckptMagic)]) != ckptMagic {
		return nil, errorf(ErrCheckpoint, "%s: not an sgmcmc checkpoint (it starts with %q, want %q)", who, data[:len(ckptMagic)], ckptMagic)
	}
	if v := data[len(ckptMagic)]; v != ckptVersion {
		return nil, errorf(ErrCheckpoint, "%s: checkpoint format version %d; this library reads version %d", who, v, ckptVersion)
	}
	kl := int(data[len(ckptMagic)+1])
	head := ckptHeader + kl
	if len(data) < head {
		return nil, errorf(ErrCheckpoint, "%s: checkpoint truncated: %d bytes, its header alone needs %d", who, len(data), head)
	}
	gotKind := string(data[len(ckptMagic)+2 : len(ckptMagic)+2+kl])
	gotDim := binary.LittleEndian.Uint64(data[head-16:])
	plen := binary.LittleEndian.Uint64(data[head-8:])
	if plen > uint64(len(data)) || len(data) < head+int(plen)+4 {
		return nil, errorf(ErrCheckpoint, "%s: checkpoint truncated: %d bytes, its header announces %d", who, len(data), uint64(head)+plen+4)
	}
	end := head + int(plen)
	if len(data) > end+4 {
		return nil, errorf(ErrCheckpoint, "%s: %d stray bytes after the end of the checkpoint", who, len(data)-end-4)
	}
	if got, want := binary.LittleEndian.Uint32(data[end:]), crc32.Checksum(data[:end], crcTable); got != want {
		return nil, errorf(ErrCheckpoint, "%s: checkpoint corrupted: its checksum is %08x, its content gives %08x", who, got, want)
	}
	if gotKind != kind {
		return nil, errorf(ErrCheckpoint, "%s: checkpoint of a %q, cannot restore it into a %q", who, gotKind, kind)
	}
	if gotDim != uint64(dim) {
		return nil, errorf(ErrCheckpoint, "%s: checkpoint of dimension %d, the %s has dimension %d", who, gotDim, kind, dim)
	}
	return data[head:end], nil
}

// restoreSources sets each random source from its state, all or none: if
// one fails, or does not marshal back to the same bytes, the sources
// already set are put back and an error is returned.
func restoreSources(who string, srcs []any, states [][]byte) error {
	old := make([][]byte, len(srcs))
	undo := func(k int) {
		for j := range k {
			_ = srcs[j].(encoding.BinaryUnmarshaler).UnmarshalBinary(old[j])
		}
	}
	for i, s := range srcs {
		u, ok := s.(encoding.BinaryUnmarshaler)
		m, ok2 := s.(encoding.BinaryMarshaler)
		if !ok || !ok2 {
			undo(i)
			return errorf(ErrUnsupported, "%s: random source %T does not implement encoding.BinaryMarshaler and BinaryUnmarshaler", who, s)
		}
		var err error
		if old[i], err = m.MarshalBinary(); err != nil {
			undo(i)
			return errorf(ErrCheckpoint, "%s: random source %T: %w", who, s, err)
		}
		if err := u.UnmarshalBinary(states[i]); err != nil {
			_ = u.UnmarshalBinary(old[i])
			undo(i)
			return errorf(ErrCheckpoint, "%s: random source %T: %w", who, s, err)
		}
		if now, err := m.MarshalBinary(); err != nil || !bytes.Equal(now, states[i]) {
			_ = u.UnmarshalBinary(old[i])
			undo(i)
			return errorf(ErrCheckpoint, "%s: random source %T: state not in the form the source writes", who, s)
		}
	}
	return nil
}
