// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

func overlap(alo, ahi, blo, bhi int) bool { return max(alo, blo) < min(ahi, bhi) }

// diagNoise draws dst[i] = sqrt(eps(2d_i − eps b_i))·N(0,1), with d_i = c
// when d is nil and b_i = 0 when b is nil. Every coordinate takes one normal
// from g, in order, also where the variance is zero (its noise is then 0),
// so that the draws fill a block at a time and stay aligned with the
// coordinates.
func diagNoise(dst []float64, eps float64, b []float64, g *rng.Normal, d []float64, c float64) error {
	if b == nil && d == nil {
		if c < 0 {
			return &NotPSDError{Index: 0, Value: 2 * c}
		}
		g.Fill(dst)
		sd := math.Sqrt(2 * eps * c)
		for i, x := range dst {
			dst[i] = sd * x
		}
		return nil
	}
	g.Fill(dst)
	for i, x := range dst {
		di, bi := c, 0.0
		if d != nil {
			di = d[i]
		}
		if b != nil {
			bi = b[i]
		}
		v := 2*di - eps*bi
		if !(v >= 0) {
			return &NotPSDError{Index: i, Value: v}
		}
		dst[i] = math.Sqrt(eps*v) * x
	}
	return nil
}

// Scalar is the operator C·I of size N×N.
type Scalar struct {
	N int
	C float64
}

// Dims returns (N, N).
func (s Scalar) Dims() (int, int) { return s.N, s.N }

// AddMulVec adds alpha·C·x[lo:hi] to dst[lo:hi].
func (s Scalar) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	a := alpha * s.C
	for i := lo; i < hi; i++ {
		dst[i] += a * x[i]
	}
}

// NonZero reports whether C ≠ 0 and the ranges meet the diagonal.
func (s Scalar) NonZero(rlo, rhi, clo, chi int) bool { return s.C != 0 && overlap(rlo, rhi, clo, chi) }

// Noise draws N(0, eps(2C − eps b_i)) for each coordinate.
func (s Scalar) Noise(dst, _ []float64, eps float64, b []float64, g *rng.Normal) error {
	return diagNoise(dst, eps, b, g, nil, s.C)
}

// Diagonal is the diagonal operator diag(d). Its values are read at every
// use, so a sampler may update them in place between uses (the metric-based
// samplers keep G(θ)⁻¹ in one).
type Diagonal []float64

// Dims returns (len(d), len(d)).
func (d Diagonal) Dims() (int, int) { return len(d), len(d) }

// AddMulVec adds alpha·d_i·x_i to dst[i] for i in [lo, hi).
func (d Diagonal) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		dst[i] += alpha * d[i] * x[i]
	}
}

// NonZero reports whether the ranges meet the diagonal.
func (d Diagonal) NonZero(rlo, rhi, clo, chi int) bool { return overlap(rlo, rhi, clo, chi) }

// Noise draws N(0, eps(2d_i − eps b_i)) for each coordinate.
func (d Diagonal) Noise(dst, _ []float64, eps float64, b []float64, g *rng.Normal) error {
	return diagNoise(dst, eps, b, g, d, 0)
}

// DiagFunc is a state-dependent diagonal operator diag(F(z)) of size N×N.
// As a Diffusion, F must write non-negative values.
type DiagFunc struct {
	n   int
	f   func(dst, z []float64)
	buf []float64
}

// NewDiagFunc returns the operator diag(f(z)) of size n×n; f writes the
// diagonal at state z into dst. n must be positive and f not nil.
func NewDiagFunc(n int, f func(dst, z []float64)) (*DiagFunc, error) {
	if n <= 0 {
		return nil, errorf(ErrDimension, "NewDiagFunc: size %d, want > 0", n)
	}
	if f == nil {
		return nil, errorf(ErrNil, "NewDiagFunc: nil function")
	}
	return &DiagFunc{n: n, f: f, buf: make([]float64, n)}, nil
}

// Dims returns (n, n).
func (d *DiagFunc) Dims() (int, int) { return d.n, d.n }

// AddMulVec adds alpha·f(z)_i·x_i to dst[i] for i in [lo, hi).
func (d *DiagFunc) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	d.f(d.buf, z)
	for i := lo; i < hi; i++ {
		dst[i] += alpha * d.buf[i] * x[i]
	}
}

// NonZero reports whether the ranges meet the diagonal.
func (d *DiagFunc) NonZero(rlo, rhi, clo, chi int) bool { return overlap(rlo, rhi, clo, chi) }

// Noise draws N(0, eps(2f(z)_i − eps b_i)) for each coordinate.
func (d *DiagFunc) Noise(dst, z []float64, eps float64, b []float64, g *rng.Normal) error {
	d.f(d.buf, z)
	return diagNoise(dst, eps, b, g, d.buf, 0)
}

// Matrix is a constant dense operator, typically a curl Q. It is not a
// Diffusion: use SymMatrix for a dense D.
type Matrix struct {
	M *mat.Dense
}

// Dims returns the dimensions of M, or (0, 0) if M is nil.
func (d Matrix) Dims() (int, int) {
	if d.M == nil {
		return 0, 0
	}
	return d.M.Dims()
}

// AddMulVec adds alpha·(M x)[lo:hi] to dst[lo:hi].
func (d Matrix) AddMulVec(dst []float64, alpha float64, x, _ []float64, lo, hi int) {
	_, c := d.M.Dims()
	raw := d.M.RawMatrix()
	for i := lo; i < hi; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		var s float64
		for j, v := range row {
			s += v * x[j]
		}
		dst[i] += alpha * s
	}
}

// NonZero reports true.
func (d Matrix) NonZero(int, int, int, int) bool { return true }

// SymMatrix is a dense symmetric positive semidefinite diffusion, either
// constant (NewSymMatrix) or state-dependent (NewSymFunc). Its noise uses
// the Cholesky factor of ε(2D − εdiag(b)), recomputed only when D, ε or b
// change: O(n³) then, O(n²) per draw otherwise. It allocates nothing after
// construction.
type SymMatrix struct {
	n    int
	f    func(dst *mat.SymDense, z []float64)
	m    *mat.SymDense // D at the last state
	chol []float64     // n×n upper Cholesky factor U, UᵀU = ε(2D − εdiag(b))
	u    []float64
	cEps float64
	cOK  bool
}

// NewSymMatrix returns the constant dense diffusion D = m. m is not copied;
// it must not be nil or empty.
func NewSymMatrix(m *mat.SymDense) (*SymMatrix, error) {
	if m == nil {
		return nil, errorf(ErrNil, "NewSymMatrix: nil matrix")
	}
	if m.IsEmpty() {
		return nil, errorf(ErrDimension, "NewSymMatrix: empty matrix")
	}
	n := m.SymmetricDim()
	return &SymMatrix{n: n, m: m, chol: make([]float64, n*n), u: make([]float64, n)}, nil
}

// NewSymFunc returns the state-dependent dense diffusion D(z) of size n×n;
// f writes D(z) into dst. n must be positive and f not nil.
func NewSymFunc(n int, f func(dst *mat.SymDense, z []float64)) (*SymMatrix, error) {
	if n <= 0 {
		return nil, errorf(ErrDimension, "NewSymFunc: size %d, want > 0", n)
	}
	if f == nil {
		return nil, errorf(ErrNil, "NewSymFunc: nil function")
	}
	if err := checkMemory("NewSymFunc", fmt.Sprintf("two %d × %d matrices", n, n), floatBytes(2, n, n), 0); err != nil {
		return nil, err
	}
	return &SymMatrix{n: n, f: f, m: mat.NewSymDense(n, nil), chol: make([]float64, n*n), u: make([]float64, n)}, nil
}

// Dims returns (n, n).
func (s *SymMatrix) Dims() (int, int) { return s.n, s.n }

func (s *SymMatrix) at(z []float64) {
	if s.f != nil {
		s.f(s.m, z)
	}
}

// AddMulVec adds alpha·(D(z) x)[lo:hi] to dst[lo:hi].
func (s *SymMatrix) AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int) {
	s.at(z)
	raw := s.m.RawSymmetric()
	for i := lo; i < hi; i++ {
		var v float64
		for j := range s.n {
			a, b := i, j
			if a > b {
				a, b = b, a
			}
			v += raw.Data[a*raw.Stride+b] * x[j]
		}
		dst[i] += alpha * v
	}
}

// NonZero reports true.
func (s *SymMatrix) NonZero(int, int, int, int) bool { return true }

// Noise draws N(0, eps(2D(z) − eps·diag(b))) as Uᵀu with UᵀU the Cholesky
// factorisation of the covariance and u standard normal.
func (s *SymMatrix) Noise(dst, z []float64, eps float64, b []float64, g *rng.Normal) error {
	s.at(z)
	n := s.n
	tri := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Stride: n, Data: s.chol}
	if !(s.f == nil && b == nil && s.cOK && s.cEps == eps) { // constant D: reuse the factor
		raw := s.m.RawSymmetric()
		mn, idx := math.Inf(1), -1
		for i := range n {
			for j := i; j < n; j++ {
				s.chol[i*n+j] = 2 * eps * raw.Data[i*raw.Stride+j]
			}
			if b != nil {
				s.chol[i*n+i] -= eps * eps * b[i]
			}
			if v := s.chol[i*n+i]; v < mn {
				mn, idx = v, i
			}
		}
		if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: s.chol}); !ok {
			s.cOK = false
			return &NotPSDError{Index: idx, Value: mn / eps}
		}
		s.cOK, s.cEps = true, eps
	}
	g.Fill(s.u)
	blas64.Trmv(blas.Trans, tri, blas64.Vector{N: n, Inc: 1, Data: s.u})
	copy(dst, s.u)
	return nil
}

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
