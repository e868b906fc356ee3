// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

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
