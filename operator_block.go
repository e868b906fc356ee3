// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// Block is an operator partitioned into blocks over z = (θ, r, ξ, …), each
// block an Operator or nil for zero. As a Diffusion, the off-diagonal blocks
// must be nil and each diagonal block a Diffusion.
type Block struct {
	sizes []int
	off   []int
	ops   [][]Operator
	diff  bool // block-diagonal with Diffusion diagonal blocks
}

// NewBlock returns the block operator with the given block sizes (the same
// for rows and columns) and blocks ops[i][j] of size sizes[i]×sizes[j].
func NewBlock(sizes []int, ops [][]Operator) (*Block, error) {
	if len(ops) != len(sizes) {
		return nil, errorf(ErrDimension, "NewBlock: %d block rows for %d sizes", len(ops), len(sizes))
	}
	b := &Block{sizes: append([]int(nil), sizes...), off: make([]int, len(sizes)+1), ops: ops, diff: true}
	for i, s := range sizes {
		if s <= 0 {
			return nil, errorf(ErrDimension, "NewBlock: block %d has size %d", i, s)
		}
		b.off[i+1] = b.off[i] + s
	}
	for i, row := range ops {
		if len(row) != len(sizes) {
			return nil, errorf(ErrDimension, "NewBlock: block row %d has %d blocks, want %d", i, len(row), len(sizes))
		}
		for j, op := range row {
			if op == nil {
				continue
			}
			if isNil(op) {
				return nil, errorf(ErrNil, "NewBlock: block (%d,%d) is a nil %T", i, j, op)
			}
			if r, c := op.Dims(); r != sizes[i] || c != sizes[j] {
				return nil, errorf(ErrDimension, "NewBlock: block (%d,%d) is %d×%d, want %d×%d", i, j, r, c, sizes[i], sizes[j])
			}
			if i != j {
				b.diff = false
			} else if _, ok := op.(Diffusion); !ok {
				b.diff = false
			}
		}
	}
	return b, nil
}

// Dims returns the total size.
func (b *Block) Dims() (int, int) { n := b.off[len(b.sizes)]; return n, n }

// AddMulVec adds alpha·(A(z) x)[lo:hi] to dst[lo:hi], block by block.
func (b *Block) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	for i := range b.sizes {
		r0, r1 := b.off[i], b.off[i+1]
		if !overlap(lo, hi, r0, r1) {
			continue
		}
		rlo, rhi := max(lo, r0)-r0, min(hi, r1)-r0
		for j, op := range b.ops[i] {
			if op != nil {
				op.AddMulVec(dst[r0:r1], alpha, x[b.off[j]:b.off[j+1]], z, rlo, rhi)
			}
		}
	}
}

// NonZero reports whether any block meeting the ranges may be nonzero there.
func (b *Block) NonZero(rlo, rhi, clo, chi int) bool {
	for i := range b.sizes {
		r0, r1 := b.off[i], b.off[i+1]
		if !overlap(rlo, rhi, r0, r1) {
			continue
		}
		for j, op := range b.ops[i] {
			c0, c1 := b.off[j], b.off[j+1]
			if op != nil && overlap(clo, chi, c0, c1) &&
				op.NonZero(max(rlo, r0)-r0, min(rhi, r1)-r0, max(clo, c0)-c0, min(chi, c1)-c0) {
				return true
			}
		}
	}
	return false
}

// Noise draws each diagonal block's noise in turn; zero blocks get zero
// noise (and an error if b asks for a positive B̂ there).
func (b *Block) Noise(dst, z []float64, eps float64, bh []float64, g *rng.Normal) error {
	if !b.diff {
		return errorf(ErrRange, "Block used as a diffusion must be block-diagonal with Diffusion blocks")
	}
	for i := range b.sizes {
		r0, r1 := b.off[i], b.off[i+1]
		var bb []float64
		if bh != nil {
			bb = bh[r0:r1]
		}
		op := b.ops[i][i]
		if op == nil {
			for k := r0; k < r1; k++ {
				dst[k] = 0
				if bb != nil && bb[k-r0] > 0 {
					return &NotPSDError{Index: k, Value: -eps * bb[k-r0]}
				}
			}
			continue
		}
		if err := op.(Diffusion).Noise(dst[r0:r1], z, eps, bb, g); err != nil {
			var pe *NotPSDError
			if errors.As(err, &pe) && pe.Index >= 0 {
				return &NotPSDError{Index: pe.Index + r0, Value: pe.Value}
			}
			return err
		}
	}
	return nil
}

// momentumColumn is the d×1 state-dependent block scale·r of SGNHT's Q,
// with r = z[d:2d].
type momentumColumn struct {
	d     int
	scale float64
}

func (m momentumColumn) Dims() (int, int) { return m.d, 1 }

func (m momentumColumn) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	a := alpha * m.scale * x[0]
	for i := lo; i < hi; i++ {
		dst[i] += a * z[m.d+i]
	}
}

func (m momentumColumn) NonZero(rlo, rhi, clo, chi int) bool { return rlo < rhi && clo < chi }

// momentumRow is the 1×d state-dependent block scale·rᵀ of SGNHT's Q.
type momentumRow struct {
	d     int
	scale float64
}

func (m momentumRow) Dims() (int, int) { return 1, m.d }

func (m momentumRow) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	if lo >= hi {
		return
	}
	var s float64
	for j, r := range z[m.d : 2*m.d] {
		s += r * x[j]
	}
	dst[0] += alpha * m.scale * s
}

func (m momentumRow) NonZero(rlo, rhi, clo, chi int) bool { return rlo < rhi && clo < chi }
