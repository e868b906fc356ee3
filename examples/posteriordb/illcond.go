// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// The illcond100 design.
const (
	// IllCondSeed is the seed of the rotation, the design and the data.
	IllCondSeed = 20260101
	illN        = 10_000 // data items
	illD        = 100    // dimensions
	illDecades  = 8      // eigenvalues of the posterior precision span 10⁸
	illLamMin   = 1.0    // smallest eigenvalue (posterior sd 1 along it)
	illTau      = 0.01   // prior precision, θ ~ N(0, I/τ)
)

// LinearGaussian is the linear-Gaussian model
//
//	θ ~ N(0, I/τ),   y_i | θ ~ N(x_iᵀθ, 1),   i = 1 … N,
//
// whose posterior is N(m, P⁻¹) with P = XᵀX + τI and m = P⁻¹Xᵀy. X is
// the N × D design, row-major.
type LinearGaussian struct {
	X, Y []float64
	D    int
	Tau  float64
}

// Dim returns D.
func (l *LinearGaussian) Dim() int { return l.D }

// Len returns N.
func (l *LinearGaussian) Len() int { return len(l.Y) }

// LogPrior returns log N(θ | 0, I/τ).
func (l *LinearGaussian) LogPrior(theta []float64) float64 {
	var ss float64
	for _, v := range theta {
		ss += v * v
	}
	return -0.5*l.Tau*ss + 0.5*float64(l.D)*math.Log(l.Tau/(2*math.Pi))
}

// LogPriorGrad adds −τθ to dst.
func (l *LinearGaussian) LogPriorGrad(dst, theta []float64) {
	for j, v := range theta {
		dst[j] -= l.Tau * v
	}
}

func (l *LinearGaussian) resid(theta []float64, i int) float64 {
	return l.Y[i] - floats.Dot(l.X[i*l.D:(i+1)*l.D], theta)
}

// LogLik returns log N(y_i | x_iᵀθ, 1).
func (l *LinearGaussian) LogLik(theta []float64, i int) float64 {
	r := l.resid(theta, i)
	return -0.5*r*r - 0.5*math.Log(2*math.Pi)
}

// LogLikGrad adds scale · x_i (y_i − x_iᵀθ) to dst.
func (l *LinearGaussian) LogLikGrad(dst, theta []float64, i int, scale float64) {
	floats.AddScaled(dst, scale*l.resid(theta, i), l.X[i*l.D:(i+1)*l.D])
}

// IllCond is the illcond100 problem: the model, its exact posterior, and
// the spectral construction behind it.
type IllCond struct {
	Model *LinearGaussian
	// Q is the random rotation (D × D orthogonal) and Lambda the
	// eigenvalues of the posterior precision, P = Q diag(Lambda) Qᵀ.
	Q      *mat.Dense
	Lambda []float64
	// Mean is the exact posterior mean m = Q diag(1/Λ) Qᵀ Xᵀy and Cov the
	// exact covariance Q diag(1/Λ) Qᵀ.
	Mean []float64
	Cov  *mat.SymDense
}

// NewIllCondProblem builds illcond100 from seed.
//
// Construction: the eigenvalues are λ_k = 10^(8k/99), k = 0 … 99 (so the
// posterior sds along the eigenvectors run from 1 down to 10⁻⁴), and Q is
// a Haar-random rotation (QR of a Gaussian matrix, signs fixed by R's
// diagonal). The design is X = Z diag(√((λ_k − τ)/N)) Qᵀ with Z an N × D
// matrix of orthogonal columns, ZᵀZ = N·I (a Gaussian matrix
// orthonormalised by QR and scaled by √N), so XᵀX = Q diag(λ − τ) Qᵀ
// exactly and P = XᵀX + τI = Q diag(λ) Qᵀ. Each row x_i is a rotated,
// rescaled Gaussian-like vector: every datum carries a 1/N share of every
// eigendirection's precision, so the per-datum gradients x_i(y_i − x_iᵀθ)
// realise the spectrum and minibatches see it too, with gradient noise of
// covariance about (N/n)·P per batch of n. The truth θ* ~ N(0, I), y =
// Xθ* + e with e ~ N(0, I).
func NewIllCondProblem(seed uint64) (*IllCond, error) {
	const n, d = illN, illD
	rng := rand.New(rand.NewPCG(seed, 0x696c6c636f6e64)) // "illcond"
	gauss := func(r, c int) *mat.Dense {
		m := mat.NewDense(r, c, nil)
		raw := m.RawMatrix().Data
		for i := range raw {
			raw[i] = rng.NormFloat64()
		}
		return m
	}
	// Haar rotation.
	var qr mat.QR
	qr.Factorize(gauss(d, d))
	var q, r mat.Dense
	qr.QTo(&q)
	qr.RTo(&r)
	for j := range d {
		if r.At(j, j) < 0 {
			for i := range d {
				q.Set(i, j, -q.At(i, j))
			}
		}
	}
	lam := make([]float64, d)
	for k := range lam {
		lam[k] = illLamMin * math.Pow(10, illDecades*float64(k)/float64(d-1))
	}
	// Z with orthogonal columns of squared norm N: a Gaussian G
	// orthonormalised through the Cholesky factor of its Gram matrix,
	// Z = √N·G R⁻¹ with RᵀR = GᵀG (G is well conditioned, so this loses
	// nothing; the QR route would form the N × N factor).
	g := gauss(n, d)
	var gram mat.SymDense
	gram.SymOuterK(1, g.T())
	var chol mat.Cholesky
	if !chol.Factorize(&gram) {
		return nil, errors.New("illcond100: Gram matrix of the design not positive definite")
	}
	var rr mat.TriDense
	chol.UTo(&rr)
	var rinv mat.TriDense
	if err := rinv.InverseTri(&rr); err != nil {
		return nil, fmt.Errorf("illcond100: %w", err)
	}
	// W = √N R⁻¹ diag(√((λ − τ)/N)) Qᵀ = R⁻¹ diag(√(λ − τ)) Qᵀ, and
	// X = G W: XᵀX = Wᵀ GᵀG W = Q diag(λ − τ) Qᵀ.
	var sq mat.Dense
	sq.CloneFrom(q.T())
	for k := range d {
		s := math.Sqrt(lam[k] - illTau)
		for j := range d {
			sq.Set(k, j, sq.At(k, j)*s)
		}
	}
	var w mat.Dense
	w.Mul(&rinv, &sq)
	x := mat.NewDense(n, d, nil)
	x.Mul(g, &w)

	lg := &LinearGaussian{X: x.RawMatrix().Data, Y: make([]float64, n), D: d, Tau: illTau}
	truth := make([]float64, d)
	for j := range truth {
		truth[j] = rng.NormFloat64()
	}
	for i := range n {
		lg.Y[i] = -lg.resid(truth, i) + rng.NormFloat64() // x_iᵀθ* + e_i (Y is 0 here)
	}
	// Exact posterior: P⁻¹ = Q diag(1/λ) Qᵀ, m = P⁻¹ Xᵀy.
	xty, zero := make([]float64, d), make([]float64, d)
	for i := range n {
		lg.LogLikGrad(xty, zero, i, 1) // adds x_i (y_i − 0)
	}
	cov := mat.NewSymDense(d, nil)
	for a := range d {
		for b := a; b < d; b++ {
			var s float64
			for k := range d {
				s += q.At(a, k) * q.At(b, k) / lam[k]
			}
			cov.SetSym(a, b, s)
		}
	}
	mean := mat.NewVecDense(d, nil)
	mean.MulVec(cov, mat.NewVecDense(d, xty))
	return &IllCond{Model: lg, Q: &q, Lambda: lam, Mean: mean.RawVector().Data, Cov: cov}, nil
}

// NewIllCond returns the illcond100 target built from seed: θ₀ = 0, the
// exact posterior as reference.
func NewIllCond(seed uint64) (*Target, error) {
	p, err := NewIllCondProblem(seed)
	if err != nil {
		return nil, err
	}
	return illTarget(p)
}

// illTarget returns the target of the illcond100 problem p.
func illTarget(p *IllCond) (*Target, error) {
	d := p.Model.D
	names := make([]string, d)
	sd := make([]float64, d)
	for j := range d {
		names[j] = fmt.Sprintf("theta[%d]", j+1)
		sd[j] = math.Sqrt(p.Cov.At(j, j))
	}
	return &Target{
		Name:      "illcond100",
		Model:     p.Model,
		Start:     make([]float64, d),
		Names:     names,
		UNames:    names,
		Constrain: func(dst, theta []float64) { copy(dst, theta) },
		RefMean:   p.Mean,
		RefSD:     sd,
		Draws:     2000,
		Batch:     500,
		refMeanU:  p.Mean,
		refCovU:   p.Cov,
	}, nil
}
