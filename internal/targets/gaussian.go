// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
)

// Gaussian is the multivariate normal N(μ, Σ), U(θ) = ½(θ−μ)ᵀΣ⁻¹(θ−μ).
type Gaussian struct {
	d       int
	mean    []float64
	cov     []float64 // Σ, row-major
	chol    []float64 // lower Cholesky factor L, Σ = LLᵀ, row-major
	prec    []float64 // Σ⁻¹, row-major
	logNorm float64   // −½ log det(2πΣ)
}

var _ Target = (*Gaussian)(nil)

// NewGaussian returns N(mean, cov). cov must be symmetric positive definite
// of the dimension of mean; both are copied.
func NewGaussian(mean []float64, cov mat.Symmetric) (*Gaussian, error) {
	d := len(mean)
	if d == 0 {
		return nil, errors.New("targets: NewGaussian: empty mean")
	}
	if cov == nil || cov.SymmetricDim() != d {
		return nil, fmt.Errorf("targets: NewGaussian: covariance is not %d×%d", d, d)
	}
	var ch mat.Cholesky
	if !ch.Factorize(cov) {
		return nil, errors.New("targets: NewGaussian: covariance not positive definite")
	}
	var l mat.TriDense
	ch.LTo(&l)
	var p mat.SymDense
	if err := ch.InverseTo(&p); err != nil {
		return nil, fmt.Errorf("targets: NewGaussian: %w", err)
	}
	g := &Gaussian{
		d:       d,
		mean:    append([]float64(nil), mean...),
		cov:     make([]float64, d*d),
		chol:    make([]float64, d*d),
		prec:    make([]float64, d*d),
		logNorm: -0.5 * (float64(d)*math.Log(2*math.Pi) + ch.LogDet()),
	}
	for i := range d {
		for j := range d {
			g.cov[i*d+j] = cov.At(i, j)
			g.chol[i*d+j] = l.At(i, j)
			g.prec[i*d+j] = p.At(i, j)
		}
	}
	return g, nil
}

// StandardGaussian returns N(0, I_d). It panics if d < 1.
func StandardGaussian(d int) *Gaussian {
	if d < 1 {
		panic("targets: StandardGaussian: d < 1")
	}
	cov := mat.NewSymDense(d, nil)
	for i := range d {
		cov.SetSym(i, i, 1)
	}
	g, _ := NewGaussian(make([]float64, d), cov)
	return g
}

// CorrelatedGaussian returns N(0, Σ) with Σ_ij = ρ^|i−j|, the covariance of
// a stationary AR(1) sequence: unit variances, neighbour correlation ρ, and
// condition number up to ((1+|ρ|)/(1−|ρ|))². It panics if d < 1 or
// |ρ| ≥ 1.
func CorrelatedGaussian(d int, rho float64) *Gaussian {
	if d < 1 || !(math.Abs(rho) < 1) {
		panic("targets: CorrelatedGaussian: need d ≥ 1 and |rho| < 1")
	}
	cov := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			cov.SetSym(i, j, math.Pow(rho, float64(j-i)))
		}
	}
	g, err := NewGaussian(make([]float64, d), cov)
	if err != nil {
		panic(err)
	}
	return g
}

// Dim returns d.
func (g *Gaussian) Dim() int { return g.d }

// Mean returns a copy of μ.
func (g *Gaussian) Mean() []float64 { return append([]float64(nil), g.mean...) }

// Cov returns a copy of Σ.
func (g *Gaussian) Cov() *mat.SymDense {
	return mat.NewSymDense(g.d, append([]float64(nil), g.cov...))
}

// quad returns (x−μ)ᵀΣ⁻¹(x−μ).
func (g *Gaussian) quad(x []float64) float64 {
	var q float64
	for i := range g.d {
		var s float64
		row := g.prec[i*g.d : (i+1)*g.d]
		for j, p := range row {
			s += p * (x[j] - g.mean[j])
		}
		q += (x[i] - g.mean[i]) * s
	}
	return q
}

// LogProb returns log N(x; μ, Σ).
func (g *Gaussian) LogProb(x []float64) float64 { return g.logNorm - 0.5*g.quad(x) }

// Potential returns U(x) = ½(x−μ)ᵀΣ⁻¹(x−μ).
func (g *Gaussian) Potential(x []float64) float64 { return 0.5 * g.quad(x) }

// Grad writes ∇U(x) = Σ⁻¹(x−μ) into dst.
func (g *Gaussian) Grad(dst, x []float64) {
	for i := range g.d {
		var s float64
		row := g.prec[i*g.d : (i+1)*g.d]
		for j, p := range row {
			s += p * (x[j] - g.mean[j])
		}
		dst[i] = s
	}
}

// Draw writes μ + Lz, z ~ N(0, I), into dst.
func (g *Gaussian) Draw(dst []float64, rng *rand.Rand) {
	for i := range g.d {
		dst[i] = rng.NormFloat64()
	}
	// dst ← L dst in place, from the last row up: row i uses z_0 … z_i.
	for i := g.d - 1; i >= 0; i-- {
		var s float64
		for j := 0; j <= i; j++ {
			s += g.chol[i*g.d+j] * dst[j]
		}
		dst[i] = s
	}
	for i := range g.d {
		dst[i] += g.mean[i]
	}
}

// MarginalCDF returns the CDF of coordinate j at x.
func (g *Gaussian) MarginalCDF(j int, x float64) float64 {
	return 0.5 * math.Erfc(-(x-g.mean[j])/math.Sqrt(2*g.cov[j*g.d+j]))
}

// CondCDF returns the CDF of coordinate j given coordinates 0, …, j−1 of x,
// evaluated at x_j, for diagnostics.RosenblattKS: Φ(z_j) with z = L⁻¹(x − μ)
// by forward substitution. It allocates nothing for d ≤ 64.
func (g *Gaussian) CondCDF(j int, x []float64) float64 {
	var buf [64]float64
	z := buf[:0]
	if j >= len(buf) {
		z = make([]float64, 0, j+1)
	}
	for k := 0; k <= j; k++ {
		s := x[k] - g.mean[k]
		for i := range k {
			s -= g.chol[k*g.d+i] * z[i]
		}
		z = append(z, s/g.chol[k*g.d+k])
	}
	return 0.5 * math.Erfc(-z[j]/math.Sqrt2)
}

// normalQuantile is Φ⁻¹.
func normalQuantile(p float64) float64 { return mathext.NormalQuantile(p) }
