// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package testmodel holds the small models the tests of package sgmcmc and
// package sample share: a two-parameter Gaussian (Test), a three-parameter
// one whose items' gradients differ (Ck), a logistic regression (Logit,
// BatchLogit), a deterministic nonlinear gradient (Grad), a model with a
// planted gradient fault (WrongGrad) and the digest that pins chains
// (ChainDigest).
package testmodel

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
)

// Test: θ ∈ R², prior N(0, I), x_i ~ N(θ, I) with x_i = (i, −i/2),
// i = 0 … 9.
type Test struct{}

func (Test) Dim() int { return 2 }
func (Test) Len() int { return 10 }
func (Test) LogPriorGrad(dst, th []float64) {
	dst[0] -= th[0]
	dst[1] -= th[1]
}
func (Test) LogLikGrad(dst, th []float64, i int, scale float64) {
	dst[0] += scale * (float64(i) - th[0])
	dst[1] += scale * (-float64(i)/2 - th[1])
}
func (Test) LogPrior(th []float64) float64 { return -(th[0]*th[0] + th[1]*th[1]) / 2 }
func (Test) LogLik(th []float64, i int) float64 {
	a, b := float64(i)-th[0], -float64(i)/2-th[1]
	return -(a*a + b*b) / 2
}

// Ck: θ ∈ R³, prior N(0, 4I), x_i ~ N(Aθ-ish) — a Gaussian model with
// per-datum gradients that differ, so that minibatches and the noise
// estimate matter. N = 40.
type Ck struct{}

func (Ck) Dim() int { return 3 }
func (Ck) Len() int { return 40 }
func (Ck) LogPriorGrad(dst, th []float64) {
	for j, x := range th {
		dst[j] -= x / 4
	}
}
func (Ck) LogLikGrad(dst, th []float64, i int, scale float64) {
	f := float64(i)/20 - 1
	for j, x := range th {
		c := f * float64(j+1) / 3
		dst[j] += scale * (c - x) / 10
	}
}

// Logit is a Bayesian logistic regression, y_i ~ Bernoulli(σ(x_iᵀθ)),
// θ ~ N(0, 10² I), on simulated rows: a posterior that is not Gaussian, so
// that the control variate's differences are not exactly linear.
type Logit struct {
	x [][]float64
	y []float64
}

func NewLogit(n, d int, seed uint64) *Logit {
	r := rand.New(rand.NewPCG(seed, 7))
	beta := make([]float64, d)
	for j := range beta {
		beta[j] = 1.5 * r.NormFloat64() / math.Sqrt(float64(d))
	}
	m := &Logit{x: make([][]float64, n), y: make([]float64, n)}
	for i := range m.x {
		m.x[i] = make([]float64, d)
		var z float64
		for j := range d {
			m.x[i][j] = r.NormFloat64()
			z += m.x[i][j] * beta[j]
		}
		if r.Float64() < 1/(1+math.Exp(-z)) {
			m.y[i] = 1
		}
	}
	return m
}

func (m *Logit) Dim() int { return len(m.x[0]) }
func (m *Logit) Len() int { return len(m.x) }
func (m *Logit) LogPriorGrad(dst, th []float64) {
	for j, v := range th {
		dst[j] -= v / 100
	}
}
func (m *Logit) LogLikGrad(dst, th []float64, i int, scale float64) {
	var z float64
	for j, v := range m.x[i] {
		z += v * th[j]
	}
	r := scale * (m.y[i] - 1/(1+math.Exp(-z)))
	for j, v := range m.x[i] {
		dst[j] += r * v
	}
}
func (m *Logit) LogPrior(th []float64) float64 {
	var s float64
	for _, v := range th {
		s -= v * v / 200
	}
	return s
}
func (m *Logit) LogLik(th []float64, i int) float64 {
	var z float64
	for j, v := range m.x[i] {
		z += v * th[j]
	}
	if m.y[i] == 1 {
		return -math.Log1p(math.Exp(-z))
	}
	return -math.Log1p(math.Exp(z))
}

// BatchLogit is Logit with the BatchModel capability.
type BatchLogit struct{ *Logit }

func (m BatchLogit) LogLikGradBatch(dst, th []float64, idx []int, scale float64) {
	for _, i := range idx {
		m.LogLikGrad(dst, th, i, scale)
	}
}

// Grad is a deterministic nonlinear gradient ∇U = θ³ + Aθ with a
// tridiagonal SPD A, so that the equivalence tests exercise every term.
func Grad(dst, th []float64) {
	d := len(th)
	for i, x := range th {
		v := x*x*x + 2*x
		if i > 0 {
			v -= 0.5 * th[i-1]
		}
		if i < d-1 {
			v -= 0.5 * th[i+1]
		}
		dst[i] = v
	}
}

// Model and LogDensity are sgmcmc's, restated so that this package needs
// no import of the package whose tests use it.
type Model interface {
	Dim() int
	Len() int
	LogPriorGrad(dst, theta []float64)
	LogLikGrad(dst, theta []float64, i int, scale float64)
}

// LogDensity is sgmcmc.LogDensity.
type LogDensity interface {
	LogPrior(theta []float64) float64
	LogLik(theta []float64, i int) float64
}

// LDModel is a Model with its log density.
type LDModel interface {
	Model
	LogDensity
}

// WrongGrad corrupts a model's likelihood gradient: doubled ("factor 2"),
// negated ("sign"), or doubled in coordinate coord only ("coordinate").
type WrongGrad struct {
	LDModel
	Kind  string
	Coord int
	tmp   []float64
}

func (m *WrongGrad) LogLikGrad(dst, th []float64, i int, scale float64) {
	switch m.Kind {
	case "factor 2":
		m.LDModel.LogLikGrad(dst, th, i, 2*scale)
	case "sign":
		m.LDModel.LogLikGrad(dst, th, i, -scale)
	case "coordinate":
		if m.tmp == nil {
			m.tmp = make([]float64, len(dst))
		}
		clear(m.tmp)
		m.LDModel.LogLikGrad(m.tmp, th, i, scale)
		m.tmp[m.Coord] *= 2
		for j, v := range m.tmp {
			dst[j] += v
		}
	default:
		m.LDModel.LogLikGrad(dst, th, i, scale)
	}
}

// ChainDigest hashes the IEEE bits of every float of draws, in order, then
// the integers extra.
func ChainDigest(draws [][]float64, extra ...int) string {
	h := sha256.New()
	var b [8]byte
	for _, x := range draws {
		for _, v := range x {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	for _, v := range extra {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
