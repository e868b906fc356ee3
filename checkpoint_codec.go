// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"encoding"
	"encoding/binary"
	"math"
)

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
