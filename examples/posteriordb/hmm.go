// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"path/filepath"
)

// HMM is posteriordb's hmm_example: a two-state hidden Markov model with
// unit-variance normal emissions,
//
//	z_1 uniform (unnormalised: Stan's forward algorithm sums over it),
//	z_t | z_{t−1} = j ~ Categorical(θ_j),   y_t | z_t = k ~ N(μ_k, 1),
//	θ_1, θ_2 ~ uniform on the simplex,   μ_1 ~ N(3, 1),   μ_2 ~ N(10, 1),
//	0 < μ_1 < μ_2,
//
// sampled in the unconstrained u = (a₁, a₂, b₁, b₂) of Stan's transforms:
// θ_j = (logistic(a_j), 1 − logistic(a_j)), μ_1 = e^b₁, μ_2 = e^b₁ + e^b₂.
// The log prior includes the Jacobians log θ_j1(1 − θ_j1) and b₁ + b₂. The
// likelihood of the sequence does not factor over time, so the model has
// one datum (Len() = 1): the forward algorithm's log p(y | u), with its
// gradient from the forward–backward recursions; minibatches of size 1 then
// give the exact gradient.
type HMM struct {
	Y []float64
}

// Dim returns 4.
func (h *HMM) Dim() int { return 4 }

// Len returns 1: the whole sequence is one datum.
func (h *HMM) Len() int { return 1 }

func logistic(a float64) float64 { return 1 / (1 + math.Exp(-a)) }

// hmmParams returns the transition matrix and the means of u.
func hmmParams(u []float64) (A [2][2]float64, mu [2]float64) {
	p1, p2 := logistic(u[0]), logistic(u[1])
	A = [2][2]float64{{p1, 1 - p1}, {p2, 1 - p2}}
	e1, e2 := math.Exp(u[2]), math.Exp(u[3])
	return A, [2]float64{e1, e1 + e2}
}

func normLogPDF(x, m, s float64) float64 {
	z := (x - m) / s
	return -0.5*z*z - math.Log(s) - 0.5*math.Log(2*math.Pi)
}

// LogPrior returns log p(u): the normal priors of μ and the Jacobians.
func (h *HMM) LogPrior(u []float64) float64 {
	A, mu := hmmParams(u)
	lp := normLogPDF(mu[0], 3, 1) + normLogPDF(mu[1], 10, 1)
	return lp + math.Log(A[0][0]*A[0][1]) + math.Log(A[1][0]*A[1][1]) + u[2] + u[3]
}

// LogPriorGrad adds ∇ log p(u) to dst.
func (h *HMM) LogPriorGrad(dst, u []float64) {
	A, mu := hmmParams(u)
	g1, g2 := -(mu[0] - 3), -(mu[1] - 10)
	dst[0] += 1 - 2*A[0][0] // d/da log σ(a)(1 − σ(a))
	dst[1] += 1 - 2*A[1][0]
	dst[2] += (g1+g2)*math.Exp(u[2]) + 1
	dst[3] += g2*math.Exp(u[3]) + 1
}

// forward runs the scaled forward algorithm and returns log p(y | u), the
// scaled forward variables α̂ (N × 2), the emission terms ê_t(k) =
// p(y_t | μ_k)·e^(−m_t) with m_t = max_k log p(y_t | μ_k), and the scale
// factors c_t.
func (h *HMM) forward(u []float64) (ll float64, A [2][2]float64, mu [2]float64, alpha, e, c []float64) {
	A, mu = hmmParams(u)
	n := len(h.Y)
	alpha, e, c = make([]float64, 2*n), make([]float64, 2*n), make([]float64, n)
	for t, y := range h.Y {
		l0, l1 := normLogPDF(y, mu[0], 1), normLogPDF(y, mu[1], 1)
		m := math.Max(l0, l1)
		e[2*t], e[2*t+1] = math.Exp(l0-m), math.Exp(l1-m)
		var a0, a1 float64
		if t == 0 {
			a0, a1 = e[0], e[1]
		} else {
			p0, p1 := alpha[2*t-2], alpha[2*t-1]
			a0 = (p0*A[0][0] + p1*A[1][0]) * e[2*t]
			a1 = (p0*A[0][1] + p1*A[1][1]) * e[2*t+1]
		}
		c[t] = a0 + a1
		alpha[2*t], alpha[2*t+1] = a0/c[t], a1/c[t]
		ll += math.Log(c[t]) + m
	}
	return ll, A, mu, alpha, e, c
}

// LogLik returns log p(y | u) by the forward algorithm (i must be 0).
func (h *HMM) LogLik(u []float64, i int) float64 {
	ll, _, _, _, _, _ := h.forward(u)
	return ll
}

// LogLikGrad adds scale · ∇ log p(y | u) to dst, from the forward–backward
// posteriors: ∂/∂μ_k = Σ_t γ_t(k)(y_t − μ_k), ∂/∂A_jk = Σ_t ξ_t(j,k)/A_jk.
func (h *HMM) LogLikGrad(dst, u []float64, i int, scale float64) {
	_, A, mu, alpha, e, c := h.forward(u)
	n := len(h.Y)
	var xi [2][2]float64
	var gmu [2]float64
	b0, b1 := 1.0, 1.0 // β̂_t
	for t := n - 1; t >= 0; t-- {
		y := h.Y[t]
		g0, g1 := alpha[2*t]*b0, alpha[2*t+1]*b1 // γ_t
		gmu[0] += g0 * (y - mu[0])
		gmu[1] += g1 * (y - mu[1])
		if t == 0 {
			break
		}
		w0, w1 := e[2*t]*b0/c[t], e[2*t+1]*b1/c[t]
		p0, p1 := alpha[2*t-2], alpha[2*t-1]
		xi[0][0] += p0 * A[0][0] * w0
		xi[0][1] += p0 * A[0][1] * w1
		xi[1][0] += p1 * A[1][0] * w0
		xi[1][1] += p1 * A[1][1] * w1
		b0, b1 = A[0][0]*w0+A[0][1]*w1, A[1][0]*w0+A[1][1]*w1
	}
	// d/da_j of A_j0 = σ, A_j1 = 1 − σ: σ(1−σ)(ξ_j0/σ − ξ_j1/(1−σ)).
	dst[0] += scale * ((1-A[0][0])*xi[0][0] - A[0][0]*xi[0][1])
	dst[1] += scale * ((1-A[1][0])*xi[1][0] - A[1][0]*xi[1][1])
	dst[2] += scale * (gmu[0] + gmu[1]) * math.Exp(u[2])
	dst[3] += scale * gmu[1] * math.Exp(u[3])
}

// loadHMM reads hmm_example's data and reference draws from dir.
func loadHMM(dir string) (*Target, error) {
	d, err := readData(dir)
	if err != nil {
		return nil, err
	}
	k, err := d.int("K")
	if err != nil {
		return nil, err
	}
	if k != 2 {
		return nil, d.errorf("K = %d, the model here has 2 states", k)
	}
	y, err := d.vector("y", nil, "")
	if err != nil {
		return nil, err
	}
	t := &Target{
		Name:   "hmm",
		Model:  &HMM{Y: y},
		Start:  make([]float64, 4),
		Names:  []string{"theta1[1]", "theta1[2]", "theta2[1]", "theta2[2]", "mu[1]", "mu[2]"},
		UNames: []string{"logit(theta1[1])", "logit(theta2[1])", "log(mu[1])", "log(mu[2] - mu[1])"},
		Constrain: func(dst, u []float64) {
			A, mu := hmmParams(u)
			dst[0], dst[1], dst[2], dst[3], dst[4], dst[5] = A[0][0], A[0][1], A[1][0], A[1][1], mu[0], mu[1]
		},
		Draws: 1000,
		Batch: 1,
	}
	draws, err := readDraws(dir, t.Names)
	if err != nil {
		return nil, err
	}
	err = t.refFromDraws(draws, func(dst, x []float64) {
		dst[0] = math.Log(x[0] / (1 - x[0]))
		dst[1] = math.Log(x[2] / (1 - x[2]))
		dst[2] = math.Log(x[4])
		dst[3] = math.Log(x[5] - x[4])
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, drawsFile), err)
	}
	return t, nil
}
