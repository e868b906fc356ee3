// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

//go:generate go run maketables.go

// PCG-DXSM constants, those of math/rand/v2's PCG: the 128-bit LCG
// state·mul + inc and the DXSM output multiplier.
const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
	dxsmMul  = 0xda942042e4dd58b5
)

// Normal is a generator of standard normal, uniform, gamma and Poisson
// variates and uniform 64-bit words, all drawn from one PCG-DXSM stream (see
// the package documentation). The zero value is a valid generator, equal to
// NewNormal(0, 0). A Normal is not safe for concurrent use; give each
// goroutine its own.
//
// A Normal is a small value (24 bytes) holding its whole state: assigning
// it copies the state (saved := *g; …; *g = saved rewinds the stream), which
// is how the samplers undo a failed step.
type Normal struct {
	hi, lo uint64 // PCG state, as in math/rand/v2's PCG
	half   uint32 // unused upper half of the last word a normal came from
	has    bool   // whether half holds unused bits
}

var _ rand.Source = (*Normal)(nil)

// NewNormal returns a generator whose PCG state is (seed1, seed2); its Uint64
// stream is that of rand.NewPCG(seed1, seed2).
func NewNormal(seed1, seed2 uint64) *Normal {
	return &Normal{hi: seed1, lo: seed2}
}

// NewNormalFrom returns a generator seeded with two words drawn from src:
// NewNormal(src.Uint64(), src.Uint64()). It is how the library derives a
// chain's fast generator from the chain's ChaCha8 source. It returns an error
// if src is nil, or if its Uint64 panics (a nil *rand.PCG, say).
func NewNormalFrom(src rand.Source) (g *Normal, err error) {
	if src == nil {
		return nil, errors.New("rng: nil source for NewNormalFrom")
	}
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("rng: NewNormalFrom: the source (%T) panicked: %v", src, r)
		}
	}()
	s1 := src.Uint64()
	s2 := src.Uint64()
	return NewNormal(s1, s2), nil
}

// Seed resets g to the state of NewNormal(seed1, seed2), dropping any
// buffered bits.
func (g *Normal) Seed(seed1, seed2 uint64) {
	*g = Normal{hi: seed1, lo: seed2}
}

// Uint64 returns a uniformly distributed 64-bit word: the next word of the
// PCG stream. Buffered bits of a half-used word are left for the next normal.
func (g *Normal) Uint64() uint64 {
	hi, lo := bits.Mul64(g.lo, pcgMulLo)
	hi += g.hi*pcgMulLo + g.lo*pcgMulHi
	lo, c := bits.Add64(lo, pcgIncLo, 0)
	hi, _ = bits.Add64(hi, pcgIncHi, c)
	g.lo, g.hi = lo, hi
	return dxsm(hi, lo)
}

// dxsm is PCG's DXSM output function of the state (hi, lo).
func dxsm(hi, lo uint64) uint64 {
	hi ^= hi >> 32
	hi *= dxsmMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}

// Float64 returns a uniform float64 in [0, 1), the same value as
// rand.Rand.Float64 on the next word of the stream: a multiple of 2⁻⁵³.
func (g *Normal) Float64() float64 {
	return float64(g.Uint64()&(1<<53-1)) * 0x1p-53
}

// Norm returns a standard normal variate.
func (g *Normal) Norm() float64 {
	var h uint32
	if g.has {
		h = g.half
		g.has, g.half = false, 0
	} else {
		u := g.Uint64()
		h = uint32(u)
		g.half, g.has = uint32(u>>32), true
	}
	e := &zig[h&0x1ff]
	if m := h>>8 | 1; m < e.k {
		return float64(m) * e.w
	}
	return g.slow(h)
}

// Fill sets every element of dst to a standard normal variate: the values
// that len(dst) calls of Norm would return, faster. Fill does not allocate.
func (g *Normal) Fill(dst []float64) {
	if len(dst) == 0 {
		return
	}
	if g.has {
		dst[0] = g.Norm()
		dst = dst[1:]
	}
	hi, lo := g.hi, g.lo
	n := len(dst) &^ 1
	for k := 0; k < n; k += 2 {
		// One PCG step, as in Uint64, kept in registers.
		h1, l1 := bits.Mul64(lo, pcgMulLo)
		h1 += hi*pcgMulLo + lo*pcgMulHi
		var c uint64
		lo, c = bits.Add64(l1, pcgIncLo, 0)
		hi, _ = bits.Add64(h1, pcgIncHi, c)
		u := dxsm(hi, lo)

		// The low half, then the high half, as Norm would use them.
		p := dst[k : k+2 : k+2]
		h := uint32(u)
		e := &zig[h&0x1ff]
		if m := h>>8 | 1; m < e.k {
			p[0] = float64(m) * e.w
		} else {
			g.hi, g.lo = hi, lo
			p[0] = g.slow(h)
			hi, lo = g.hi, g.lo
		}
		h = uint32(u >> 32)
		e = &zig[h&0x1ff]
		if m := h>>8 | 1; m < e.k {
			p[1] = float64(m) * e.w
		} else {
			g.hi, g.lo = hi, lo
			p[1] = g.slow(h)
			hi, lo = g.hi, g.lo
		}
	}
	g.hi, g.lo = hi, lo
	if n < len(dst) {
		dst[n] = g.Norm()
	}
}

// zigEntry is the fast-path data of one (layer, sign) pair: the draw
// m = 2·position+1 is accepted when m < k, and is then m·w.
type zigEntry struct {
	w float64 // ±zigX[layer]/2²⁴, with the sign of the entry
	k uint32  // ⌈2²⁴·zigX[layer+1]/zigX[layer]⌉: m < k iff m·zigX[layer]/2²⁴ < zigX[layer+1]
	_ uint32
}

// wedgeInv[i] = 1/(zigX[i] − zigX[i+1]) scales |x| in layer i's wedge to s.
var wedgeInv = func() (w [256]float64) {
	for i := 1; i < 256; i++ {
		w[i] = 1 / (zigX[i] - zigX[i+1])
	}
	return w
}()

// zig is indexed by the low 9 bits of a half word: layer in bits 0–7, sign
// in bit 8.
var zig = makeZig()

func makeZig() (t [512]zigEntry) {
	for j := range t {
		i := j & 0xff
		w := zigX[i] * 0x1p-24
		if j >= 256 {
			w = -w
		}
		t[j].w = w
		t[j].k = uint32(math.Ceil(zigX[i+1] * 0x1p24 / zigX[i]))
	}
	return t
}

// slow finishes the draw from the half word h when its point is not inside
// the part of its layer that lies wholly under the density: the wedge test,
// the tail, or a new try with a fresh word. Further bits come from fresh
// 64-bit words of the stream.
func (g *Normal) slow(h uint32) float64 {
	for {
		e := &zig[h&0x1ff]
		m := h>>8 | 1
		x := float64(m) * e.w
		if m < e.k {
			return x
		}
		i := h & 0xff
		if i == 0 {
			t := g.tail()
			if h&0x100 != 0 {
				return -t
			}
			return t
		}
		// Wedge: the point (x, y) is uniform in layer i's rectangle
		// [zigX[i+1], zigX[i]) × [zigF[i], zigF[i+1]); accept if under the
		// density. In the coordinates s of |x| and v of y (see wedgeLo) the
		// density lies within [wedgeLo[i], wedgeHi[i]] of the chord v = s,
		// which decides most points without computing it. One fresh word
		// gives v (its high half) and, on rejection, the next try (its low
		// half).
		u := g.Uint64()
		v := float64((float64(u>>32) + 0.5) * 0x1p-32)
		d := v - float64(float64(zigX[i]-math.Abs(x))*wedgeInv[i])
		if d < wedgeLo[i] {
			return x
		}
		if d <= wedgeHi[i] {
			y := zigF[i] + float64(v*(zigF[i+1]-zigF[i]))
			if y < expDet(-0.5*float64(x*x)) {
				return x
			}
		}
		h = uint32(u)
	}
}

// tail returns a draw from the standard normal conditioned on x > zigR, by
// Marsaglia's (1964) method: with a = −ln(U₁)/r and b = −ln(U₂), r + a is
// accepted when 2b > a². Each uniform takes the top 53 bits of a fresh word
// and the midpoint of its cell, (k+½)·2⁻⁵³, so it is never 0 or 1.
func (g *Normal) tail() float64 {
	for {
		a := -logDet((float64(g.Uint64()>>11)+0.5)*0x1p-53) / zigR
		b := -logDet((float64(g.Uint64()>>11) + 0.5) * 0x1p-53)
		if b+b > float64(a*a) {
			return zigR + a
		}
	}
}

const (
	marshalPrefix = "normal:"
	marshalLen    = len(marshalPrefix) + 8 + 8 + 1 + 4
)

// AppendBinary implements encoding.BinaryAppender: it appends g's state
// (the PCG state and any buffered half word) to b.
func (g *Normal) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, marshalPrefix...)
	b = binary.BigEndian.AppendUint64(b, g.hi)
	b = binary.BigEndian.AppendUint64(b, g.lo)
	var has byte
	if g.has {
		has = 1
	}
	b = append(b, has)
	return binary.BigEndian.AppendUint32(b, g.half), nil
}

// MarshalBinary implements encoding.BinaryMarshaler. The encoding is
// "normal:" followed by the PCG state's two words, a flag byte telling
// whether a half word is buffered, and that half word, big-endian: 28 bytes.
func (g *Normal) MarshalBinary() ([]byte, error) {
	return g.AppendBinary(make([]byte, 0, marshalLen))
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it restores a state
// written by MarshalBinary, after which g continues exactly as the
// marshalled generator would have. On an error g is left unchanged.
func (g *Normal) UnmarshalBinary(data []byte) error {
	if len(data) != marshalLen || string(data[:len(marshalPrefix)]) != marshalPrefix {
		return fmt.Errorf("rng: invalid Normal encoding: want %d bytes starting %q, got %d bytes", marshalLen, marshalPrefix, len(data))
	}
	d := data[len(marshalPrefix):]
	has := d[16]
	half := binary.BigEndian.Uint32(d[17:])
	if has > 1 || (has == 0 && half != 0) {
		return fmt.Errorf("rng: invalid Normal encoding: buffer flag %d with half word %#x", has, half)
	}
	g.hi = binary.BigEndian.Uint64(d)
	g.lo = binary.BigEndian.Uint64(d[8:])
	g.has, g.half = has == 1, half
	return nil
}
