// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"path/filepath"
)

// DriveHMM is posteriordb's bball_drive_event_0-hmm_drive_0: a two-state
// hidden Markov model of a basketball player's drive with exponential
// emissions of 1/speed u and hoop distance v,
//
//	z_t | z_{t−1} = j ~ Categorical(θ_j),   θ_j ~ Dirichlet(α_j),
//	u_t | z_t = k ~ Exponential(φ_k),   v_t | z_t = k ~ Exponential(λ_k),
//	φ_1 ~ N(0, 1), φ_2 ~ N(3, 1), λ_1 ~ N(0, 1), λ_2 ~ N(3, 1),
//	0 < φ_1 < φ_2,   0 < λ_1 < λ_2,
//
// z_1 unweighted as in HMM. It is sampled in the unconstrained u = (a₁,
// a₂, p₁, p₂, l₁, l₂) of Stan's transforms: θ_j = (logistic(a_j),
// 1 − logistic(a_j)), φ = (e^p₁, e^p₁ + e^p₂), λ = (e^l₁, e^l₁ + e^l₂). The
// log prior includes the Jacobians log θ_j1 θ_j2, p₁ + p₂ and l₁ + l₂. As
// in HMM, the sequence is one datum (Len() = 1).
type DriveHMM struct {
	U, V []float64
	// Alpha holds the Dirichlet parameters of the transition rows.
	Alpha [2][2]float64
}

// Dim returns 6.
func (h *DriveHMM) Dim() int { return 6 }

// Len returns 1: the whole sequence is one datum.
func (h *DriveHMM) Len() int { return 1 }

// driveParams returns the transition matrix and the rates of u.
func driveParams(u []float64) (A [2][2]float64, phi, lambda [2]float64) {
	p1, p2 := logistic(u[0]), logistic(u[1])
	A = [2][2]float64{{p1, 1 - p1}, {p2, 1 - p2}}
	e := func(a, b float64) [2]float64 { return [2]float64{math.Exp(a), math.Exp(a) + math.Exp(b)} }
	return A, e(u[2], u[3]), e(u[4], u[5])
}

// LogPrior returns log p(u): the Dirichlet and normal priors and the
// Jacobians.
func (h *DriveHMM) LogPrior(u []float64) float64 {
	A, phi, lambda := driveParams(u)
	var lp float64
	for j, a := range h.Alpha {
		// Dirichlet density times the Jacobian θ_j1 θ_j2 of the logit.
		lg, _ := math.Lgamma(a[0] + a[1])
		l0, _ := math.Lgamma(a[0])
		l1, _ := math.Lgamma(a[1])
		lp += lg - l0 - l1 + a[0]*math.Log(A[j][0]) + a[1]*math.Log(A[j][1])
	}
	lp += normLogPDF(phi[0], 0, 1) + normLogPDF(phi[1], 3, 1) + normLogPDF(lambda[0], 0, 1) + normLogPDF(lambda[1], 3, 1)
	return lp + u[2] + u[3] + u[4] + u[5]
}

// LogPriorGrad adds ∇ log p(u) to dst.
func (h *DriveHMM) LogPriorGrad(dst, u []float64) {
	A, phi, lambda := driveParams(u)
	for j, a := range h.Alpha {
		dst[j] += hmm2LogitGrad(A[j][0], a)
	}
	// An ordered pair x = (e^a, e^a + e^b) with normal priors of means m:
	// ∂/∂a = (g₁ + g₂)e^a + 1, ∂/∂b = g₂e^b + 1 with g_k = −(x_k − m_k).
	g1, g2 := -phi[0], -(phi[1] - 3)
	dst[2] += (g1+g2)*math.Exp(u[2]) + 1
	dst[3] += g2*math.Exp(u[3]) + 1
	g1, g2 = -lambda[0], -(lambda[1] - 3)
	dst[4] += (g1+g2)*math.Exp(u[4]) + 1
	dst[5] += g2*math.Exp(u[5]) + 1
}

// logEmissions returns log Exp(u_t | φ_k) + log Exp(v_t | λ_k) at index
// 2t + k.
func (h *DriveHMM) logEmissions(phi, lambda [2]float64) []float64 {
	le := make([]float64, 2*len(h.U))
	lp := [2]float64{math.Log(phi[0]) + math.Log(lambda[0]), math.Log(phi[1]) + math.Log(lambda[1])}
	for t, x := range h.U {
		y := h.V[t]
		le[2*t] = lp[0] - phi[0]*x - lambda[0]*y
		le[2*t+1] = lp[1] - phi[1]*x - lambda[1]*y
	}
	return le
}

// LogLik returns log p(u, v | θ, φ, λ) by the forward algorithm (i must
// be 0).
func (h *DriveHMM) LogLik(u []float64, i int) float64 {
	A, phi, lambda := driveParams(u)
	return hmm2Forward(A, h.logEmissions(phi, lambda)).ll
}

// LogLikGrad adds scale · ∇ log p(u, v | θ, φ, λ) to dst, from the
// forward–backward posteriors: ∂/∂φ_k = Σ_t γ_t(k)(1/φ_k − u_t), and
// likewise for λ_k with v_t.
func (h *DriveHMM) LogLikGrad(dst, u []float64, i int, scale float64) {
	A, phi, lambda := driveParams(u)
	f := hmm2Forward(A, h.logEmissions(phi, lambda))
	gamma := make([]float64, 2*len(h.U))
	xi := f.backward(A, gamma)
	var gphi, glam [2]float64
	for t, x := range h.U {
		y := h.V[t]
		for k := range 2 {
			g := gamma[2*t+k]
			gphi[k] += g * (1/phi[k] - x)
			glam[k] += g * (1/lambda[k] - y)
		}
	}
	dst[0] += scale * hmm2LogitGrad(A[0][0], xi[0])
	dst[1] += scale * hmm2LogitGrad(A[1][0], xi[1])
	dst[2] += scale * (gphi[0] + gphi[1]) * math.Exp(u[2])
	dst[3] += scale * gphi[1] * math.Exp(u[3])
	dst[4] += scale * (glam[0] + glam[1]) * math.Exp(u[4])
	dst[5] += scale * glam[1] * math.Exp(u[5])
}

// loadDriveHMM reads bball_drive_event_0-hmm_drive_0's data and reference
// draws from dir.
func loadDriveHMM(dir string) (*Target, error) {
	d, err := readData(dir)
	if err != nil {
		return nil, err
	}
	if k, err := d.int("K"); err != nil || k != 2 {
		if err != nil {
			return nil, err
		}
		return nil, d.errorf("K = %d, the model here has 2 states", k)
	}
	c, err := columns(d, "u", "v")
	if err != nil {
		return nil, err
	}
	m := &DriveHMM{U: c[0], V: c[1]}
	var alpha [][]float64
	raw, ok := d.fields["alpha"]
	if !ok {
		return nil, d.errorf("no field \"alpha\"")
	}
	if err := decodeJSON(d.path, d.member, raw, &alpha); err != nil {
		return nil, err
	}
	if len(alpha) != 2 || len(alpha[0]) != 2 || len(alpha[1]) != 2 {
		return nil, d.errorf("field \"alpha\" = %v, want a 2 × 2 matrix", alpha)
	}
	for j, row := range alpha {
		for k, a := range row {
			if !(a > 0) {
				return nil, d.errorf("field \"alpha\"[%d][%d] = %v, want > 0", j+1, k+1, a)
			}
			m.Alpha[j][k] = a
		}
	}
	t := &Target{
		Name:  "bball_drive_event_0-hmm_drive_0",
		Model: m,
		Start: make([]float64, 6),
		Names: []string{"theta1[1]", "theta1[2]", "theta2[1]", "theta2[2]", "phi[1]", "phi[2]", "lambda[1]", "lambda[2]"},
		UNames: []string{"logit(theta1[1])", "logit(theta2[1])", "log(phi[1])", "log(phi[2] - phi[1])",
			"log(lambda[1])", "log(lambda[2] - lambda[1])"},
		Constrain: func(dst, u []float64) {
			A, phi, lambda := driveParams(u)
			copy(dst, []float64{A[0][0], A[0][1], A[1][0], A[1][1], phi[0], phi[1], lambda[0], lambda[1]})
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
		dst[2], dst[3] = math.Log(x[4]), math.Log(x[5]-x[4])
		dst[4], dst[5] = math.Log(x[6]), math.Log(x[7]-x[6])
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, drawsFile), err)
	}
	return t, nil
}
