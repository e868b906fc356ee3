// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"hash/crc32"
	"math"
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

// encoder appends a payload's fields.
type encoder struct{ b []byte }

func (e *encoder) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }

func (e *encoder) int(v int) { e.u64(uint64(v)) }

func (e *encoder) f64(v float64) {
	e.u64(math.Float64bits(v))
}

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) floats(x []float64) {
	e.int(len(x))
	for _, v := range x {
		e.f64(v)
	}
}

func (e *encoder) ints(x []int) {
	e.int(len(x))
	for _, v := range x {
		e.int(v)
	}
}

func (e *encoder) div(t *divTracker) {
	e.int(t.step)
	e.int(t.n)
	e.int(t.last.Step)
	e.int(t.last.Index)
	e.f64(t.last.DeltaU)
	e.floats(t.from)
	e.floats(t.g)
}

// sources appends the state of each random source, which must implement
// encoding.BinaryMarshaler (math/rand/v2's PCG and ChaCha8 do).
func (e *encoder) sources(who string, srcs ...any) error {
	for _, s := range srcs {
		m, ok := s.(encoding.BinaryMarshaler)
		if !ok {
			return errorf(ErrUnsupported, "%s: random source %T does not implement encoding.BinaryMarshaler", who, s)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			return errorf(ErrCheckpoint, "%s: random source %T: %w", who, s, err)
		}
		e.int(len(b))
		e.b = append(e.b, b...)
	}
	return nil
}

// decoder reads a payload's fields, checking each; the first failure
// sticks in err and makes every later read a no-op.
type decoder struct {
	who string
	b   []byte
	off int
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = errorf(ErrCheckpoint, "%s: "+format, append([]any{d.who}, args...)...)
	}
}

// take returns the next n bytes of field, or nil after a failure.
func (d *decoder) take(field string, n int) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b)-d.off {
		d.fail("checkpoint ends inside %s (offset %d of a payload of %d bytes)", field, d.off, len(d.b))
		return nil
	}
	b := d.b[d.off : d.off+n]
	d.off += n
	return b
}

func (d *decoder) u64(field string) uint64 {
	b := d.take(field, 8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// int reads an integer in [lo, hi].
func (d *decoder) int(field string, lo, hi int) int {
	u := d.u64(field)
	if d.err != nil {
		return 0
	}
	v := int(u)
	if u > math.MaxInt && lo >= 0 || v < lo || v > hi {
		d.fail("%s = %d, want in [%d, %d]", field, v, lo, hi)
		return 0
	}
	return v
}

// count reads a non-negative integer.
func (d *decoder) count(field string) int { return d.int(field, 0, math.MaxInt) }

// equal reads an integer that must equal want, a setting of the receiver.
func (d *decoder) equal(field string, want int) {
	u := d.u64(field)
	if d.err == nil && u != uint64(want) {
		d.fail("checkpoint has %s = %d, the receiver %d", field, int(u), want)
	}
}

func (d *decoder) bool(field string) bool {
	b := d.take(field, 1)
	if b == nil {
		return false
	}
	if b[0] > 1 {
		d.fail("%s is the byte %d, want 0 or 1", field, b[0])
	}
	return b[0] == 1
}

const anyValue = -1 // a float constraint: none, not even finiteness

func (d *decoder) f64(field string, c int) float64 {
	v := math.Float64frombits(d.u64(field))
	if d.err != nil {
		return 0
	}
	switch {
	case c == anyValue:
	case math.IsNaN(v) || math.IsInf(v, 0):
		d.fail("%s = %v, want finite", field, v)
	case c == nonNegative && v < 0:
		d.fail("%s = %v, want ≥ 0", field, v)
	case c == positive && v <= 0:
		d.fail("%s = %v, want > 0", field, v)
	}
	return v
}

// length reads a slice length that must be n.
func (d *decoder) length(field string, n int) bool {
	u := d.u64(field + " length")
	if d.err != nil {
		return false
	}
	if u != uint64(n) {
		d.fail("%s has length %d, want %d", field, u, n)
		return false
	}
	return true
}

// floats reads a slice of n floats satisfying c (anyFinite, nonNegative,
// positive or anyValue).
func (d *decoder) floats(field string, n int, c int) []float64 {
	if !d.length(field, n) {
		return nil
	}
	if n > (len(d.b)-d.off)/8 {
		d.fail("checkpoint ends inside %s (offset %d of a payload of %d bytes)", field, d.off, len(d.b))
		return nil
	}
	x := make([]float64, n)
	for i := range x {
		v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.off:]))
		d.off += 8
		switch {
		case c == anyValue:
		case math.IsNaN(v) || math.IsInf(v, 0):
			d.fail("%s[%d] = %v, want finite", field, i, v)
		case c == nonNegative && v < 0:
			d.fail("%s[%d] = %v, want ≥ 0", field, i, v)
		case c == positive && v <= 0:
			d.fail("%s[%d] = %v, want > 0", field, i, v)
		}
		x[i] = v
	}
	if d.err != nil {
		return nil
	}
	return x
}

// ints reads a slice of n integers in [0, hi).
func (d *decoder) ints(field string, n, hi int) []int {
	if !d.length(field, n) {
		return nil
	}
	if n > (len(d.b)-d.off)/8 {
		d.fail("checkpoint ends inside %s (offset %d of a payload of %d bytes)", field, d.off, len(d.b))
		return nil
	}
	x := make([]int, n)
	for i := range x {
		u := binary.LittleEndian.Uint64(d.b[d.off:])
		d.off += 8
		if u >= uint64(hi) {
			d.fail("%s[%d] = %d, want in [0, %d)", field, i, u, hi)
			return nil
		}
		x[i] = int(u)
	}
	return x
}

// perm reads a permutation of [0, n).
func (d *decoder) perm(field string, n int) []int {
	p := d.ints(field, n, n)
	if p == nil {
		return nil
	}
	seen := make([]bool, n)
	for i, v := range p {
		if seen[v] {
			d.fail("%s is not a permutation: %d appears twice (again at %d)", field, v, i)
			return nil
		}
		seen[v] = true
	}
	return p
}

// div reads a divergence tracker for dimension dim, at step count t.
func (d *decoder) div(dim, t int) divTracker {
	var tr divTracker
	tr.step = d.int("pending divergence step", 0, t)
	tr.n = d.int("divergence count", 0, math.MaxInt)
	tr.last.Step = d.int("last divergence step", 0, t)
	tr.last.Index = d.int("last divergence coordinate", -1, dim-1)
	tr.last.DeltaU = d.f64("last divergence ΔU", anyValue)
	tr.from = d.floats("pending divergence start", dim, anyFinite)
	tr.g = d.floats("pending divergence gradient", dim, anyFinite)
	return tr
}

// set sets t, in place, to u, a tracker read by decoder.div.
func (t *divTracker) set(u divTracker) {
	t.step, t.n, t.last = u.step, u.n, u.last
	copy(t.from, u.from)
	copy(t.g, u.g)
}

// sources reads the states of k random sources.
func (d *decoder) sources(k int) [][]byte {
	out := make([][]byte, k)
	for i := range out {
		n := d.int("random source length", 0, ckptMaxSource)
		out[i] = d.take("random source", n)
	}
	return out
}

// end fails unless the whole payload was read.
func (d *decoder) end() error {
	if d.err == nil && d.off != len(d.b) {
		d.fail("%d stray bytes at the end of the payload", len(d.b)-d.off)
	}
	return d.err
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
