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

// logEmissions returns log N(y_t | μ_k, 1) at index 2t + k.
func (h *HMM) logEmissions(mu [2]float64) []float64 {
	le := make([]float64, 2*len(h.Y))
	for t, y := range h.Y {
		le[2*t], le[2*t+1] = normLogPDF(y, mu[0], 1), normLogPDF(y, mu[1], 1)
	}
	return le
}

// LogLik returns log p(y | u) by the forward algorithm (i must be 0).
func (h *HMM) LogLik(u []float64, i int) float64 {
	A, mu := hmmParams(u)
	return hmm2Forward(A, h.logEmissions(mu)).ll
}

// LogLikGrad adds scale · ∇ log p(y | u) to dst, from the forward–backward
// posteriors: ∂/∂μ_k = Σ_t γ_t(k)(y_t − μ_k), ∂/∂A_jk = Σ_t ξ_t(j,k)/A_jk.
func (h *HMM) LogLikGrad(dst, u []float64, i int, scale float64) {
	A, mu := hmmParams(u)
	f := hmm2Forward(A, h.logEmissions(mu))
	gamma := make([]float64, 2*len(h.Y))
	xi := f.backward(A, gamma)
	var gmu [2]float64
	for t, y := range h.Y {
		gmu[0] += gamma[2*t] * (y - mu[0])
		gmu[1] += gamma[2*t+1] * (y - mu[1])
	}
	dst[0] += scale * hmm2LogitGrad(A[0][0], xi[0])
	dst[1] += scale * hmm2LogitGrad(A[1][0], xi[1])
	dst[2] += scale * (gmu[0] + gmu[1]) * math.Exp(u[2])
	dst[3] += scale * gmu[1] * math.Exp(u[3])
}

// hmm2 is the scaled forward pass of a two-state hidden Markov model.
type hmm2 struct {
	// ll is log p(y).
	ll float64
	// alpha are the scaled forward variables α̂_t(k) at 2t + k, e the
	// emission terms ê_t(k) = p(y_t | z_t = k)·e^(−m_t) with m_t =
	// max_k log p(y_t | z_t = k), and c the scale factors.
	alpha, e, c []float64
}

// hmm2Forward runs the scaled forward algorithm of a two-state hidden
// Markov model with transition matrix A and log emission densities le
// (le[2t+k] = log p(y_t | z_t = k)), the first state unweighted as in
// Stan's forward algorithm (which sums over it with weight 1).
func hmm2Forward(A [2][2]float64, le []float64) hmm2 {
	n := len(le) / 2
	f := hmm2{alpha: make([]float64, 2*n), e: make([]float64, 2*n), c: make([]float64, n)}
	for t := range n {
		l0, l1 := le[2*t], le[2*t+1]
		m := math.Max(l0, l1)
		f.e[2*t], f.e[2*t+1] = math.Exp(l0-m), math.Exp(l1-m)
		var a0, a1 float64
		if t == 0 {
			a0, a1 = f.e[0], f.e[1]
		} else {
			p0, p1 := f.alpha[2*t-2], f.alpha[2*t-1]
			a0 = (p0*A[0][0] + p1*A[1][0]) * f.e[2*t]
			a1 = (p0*A[0][1] + p1*A[1][1]) * f.e[2*t+1]
		}
		f.c[t] = a0 + a1
		f.alpha[2*t], f.alpha[2*t+1] = a0/f.c[t], a1/f.c[t]
		f.ll += math.Log(f.c[t]) + m
	}
	return f
}

// backward runs the backward recursion after f and writes the posterior
// state probabilities γ_t(k) = p(z_t = k | y) into gamma (at 2t + k); it
// returns the expected transition counts ξ(j, k) = Σ_t p(z_{t−1} = j,
// z_t = k | y).
func (f hmm2) backward(A [2][2]float64, gamma []float64) (xi [2][2]float64) {
	b0, b1 := 1.0, 1.0 // β̂_t
	for t := len(f.c) - 1; t >= 0; t-- {
		gamma[2*t], gamma[2*t+1] = f.alpha[2*t]*b0, f.alpha[2*t+1]*b1
		if t == 0 {
			break
		}
		w0, w1 := f.e[2*t]*b0/f.c[t], f.e[2*t+1]*b1/f.c[t]
		p0, p1 := f.alpha[2*t-2], f.alpha[2*t-1]
		xi[0][0] += p0 * A[0][0] * w0
		xi[0][1] += p0 * A[0][1] * w1
		xi[1][0] += p1 * A[1][0] * w0
		xi[1][1] += p1 * A[1][1] * w1
		b0, b1 = A[0][0]*w0+A[0][1]*w1, A[1][0]*w0+A[1][1]*w1
	}
	return xi
}

// hmm2LogitGrad returns ∂/∂a Σ_k ξ_jk log A_jk for row j of the transition
// matrix, A_j0 = logistic(a) = p, A_j1 = 1 − p:
// (1 − p)ξ_j0 − p ξ_j1.
func hmm2LogitGrad(p float64, xi [2]float64) float64 {
	return (1-p)*xi[0] - p*xi[1]
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
		Name:   "hmm_example-hmm_example",
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
