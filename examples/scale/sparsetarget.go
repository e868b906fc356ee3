// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"gonum.org/v1/gonum/mat"
)

// signedTarget is the sparse row's full-data posterior for the reference
// sampler (a refmcmc.FusedTarget): the rows' signed codes held as int32,
// ±(j+1), k a row (4 bytes a nonzero, where CSR takes 12), the labels as
// bytes, and a N(0, 1/prec) prior on every coefficient. Its log density
// and gradient come from one read of the rows.
type signedTarget struct {
	d, k  int
	prec  float64
	codes []int32
	y     []uint8
}

// newSignedTarget returns the target with d features, k codes a row and
// prior precision prec, and no rows yet: add appends them.
func newSignedTarget(d, k int, prec float64) *signedTarget {
	return &signedTarget{d: d, k: k, prec: prec}
}

// add appends rows in logreg.SignedRows' layout (k codes then the label a
// row), checking each code and label.
func (t *signedTarget) add(rows []float64) error {
	w := t.k + 1
	if len(rows)%w != 0 {
		return fmt.Errorf("scale: %d values are not whole rows of %d", len(rows), w)
	}
	for ; len(rows) > 0; rows = rows[w:] {
		i := len(t.y)
		for _, c := range rows[:t.k] {
			if c != math.Trunc(c) || math.Abs(c) > float64(t.d) {
				return fmt.Errorf("scale: row %d: code %v is not ±(j+1) for a feature j < %d", i, c, t.d)
			}
			t.codes = append(t.codes, int32(c))
		}
		switch y := rows[t.k]; y {
		case 0, 1:
			t.y = append(t.y, uint8(y))
		default:
			return fmt.Errorf("scale: row %d: label %v not in {0, 1}", i, y)
		}
	}
	return nil
}

// Dim returns d.
func (t *signedTarget) Dim() int { return t.d }

// dot returns x_iᵀθ of one row's codes, the sign applied without a branch
// (c>>31|1 is ±1) and a padding code 0 read as θ's extra zero.
func dot(codes []int32, theta []float64) float64 {
	var s float64
	for _, c := range codes {
		sg := c>>31 | 1
		s += float64(sg) * theta[c*sg]
	}
	return s
}

// padded returns θ with a zero before it, so that code ±(j+1) reads θ_j
// at index j+1 and padding (code 0) reads the zero.
func padded(dst, theta []float64) []float64 {
	dst[0] = 0
	copy(dst[1:], theta)
	return dst
}

// LogPosteriorAndGrad writes ∇log p(θ | data) into dst and returns
// log p(θ | data) up to its constant, from one read of the rows.
func (t *signedTarget) LogPosteriorAndGrad(dst, theta []float64) float64 {
	th := padded(make([]float64, t.d+1), theta)
	g := make([]float64, t.d+1)
	var lp float64
	for i, y := range t.y {
		codes := t.codes[i*t.k : (i+1)*t.k : (i+1)*t.k]
		z := dot(codes, th)
		if y == 0 {
			z = -z
		}
		// log σ(z) and 1 − σ(z) from one exponential.
		e := math.Exp(-math.Abs(z))
		var r float64
		if z >= 0 {
			lp -= math.Log1p(e)
			r = e / (1 + e)
		} else {
			lp += z - math.Log1p(e)
			r = 1 / (1 + e)
		}
		if y == 0 {
			r = -r
		}
		for _, c := range codes {
			sg := c>>31 | 1
			g[c*sg] += float64(sg) * r
		}
	}
	var ss float64
	for j, v := range theta {
		dst[j] = g[j+1] - t.prec*v
		ss += v * v
	}
	return lp - 0.5*t.prec*ss
}

// LogPosterior returns log p(θ | data) up to its constant.
func (t *signedTarget) LogPosterior(theta []float64) float64 {
	return t.LogPosteriorAndGrad(make([]float64, t.d), theta)
}

// LogPosteriorGrad writes ∇log p(θ | data) into dst.
func (t *signedTarget) LogPosteriorGrad(dst, theta []float64) {
	t.LogPosteriorAndGrad(dst, theta)
}

// Hessian writes the Hessian of the potential, I·prec + Σ_i σ_i(1 − σ_i)
// x_i x_iᵀ, into h's upper triangle.
func (t *signedTarget) Hessian(h *mat.SymDense, theta []float64) {
	raw := h.RawSymmetric()
	for a := range t.d {
		row := raw.Data[a*raw.Stride : a*raw.Stride+t.d]
		clear(row[a:])
		row[a] = t.prec
	}
	th := padded(make([]float64, t.d+1), theta)
	for i := range t.y {
		codes := t.codes[i*t.k : (i+1)*t.k : (i+1)*t.k]
		p := logreg.Sigmoid(dot(codes, th))
		w := p * (1 - p)
		for _, ca := range codes {
			if ca == 0 {
				continue
			}
			sa := ca>>31 | 1
			ja := int(ca*sa) - 1
			for _, cb := range codes {
				if cb == 0 {
					continue
				}
				sb := cb>>31 | 1
				if jb := int(cb*sb) - 1; jb >= ja {
					raw.Data[ja*raw.Stride+jb] += w * float64(sa*sb)
				}
			}
		}
	}
}
