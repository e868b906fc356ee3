// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

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
