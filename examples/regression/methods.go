// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc"
)

// Method is an SG-MCMC sampler with its settings, the same for every model
// and data set: all of them run in coordinates where the likelihood's
// curvature is about the identity (see Precond) and the gradient noise's
// covariance is diagonal (see Target).
type Method struct {
	// Name is the JSON method name.
	Name string
	// Eps is the constant step size, Friction SGHMC's C.
	Eps, Friction float64
	// Batch is the minibatch size, drawn without replacement.
	Batch int
	// Noise subtracts the gradient noise's covariance, B̂ = V̂(θ₀), from the
	// injected noise (SGHMCSettings.NoiseVar, SGLDSettings.NoiseVar).
	Noise bool
	// Thin keeps every Thin-th state.
	Thin int
	// New builds the sampler over grad, started at theta0, with the
	// constant noise estimate v (nil unless Noise).
	New func(m Method, grad sgmcmc.Gradient, theta0, v []float64, src rand.Source) (sgmcmc.Sampler, error)
	// Run, if set, replaces New and sgmcmc.Run by a whole sampling
	// procedure that returns draws of the parameters like sample.Run: the hook
	// for a method that tunes itself (the library's sample.Run defaults).
	Run func(ctx context.Context, t *Target, dim, burn, draws int, seed uint64) ([]float64, error)
}

// Methods returns the SG-MCMC samplers of the experiment.
//
// SGHMC: ε = 0.05 and C = 3 in coordinates where the curvature is about
// one (ε√λ ≈ 0.05, slightly overdamped: critical damping is C = 2), so the
// sequential sweep's discretisation error is O(ε²) ≈ 0.1 %; minibatches of
// 32; B̂ = V̂(θ₀) removes the minibatch noise's heat εV/(2C), which is 0.1 to
// 0.6 without it (V ≈ (N/n − 1)·[0.4, 5.3] on Boston). C = 3 keeps
// 2C − εV̂ positive with room to spare (εV̂ ≤ 4 on Boston's stiffest noise
// direction). SGLD: ε = 0.02, the same minibatches and B̂; its first-order
// bias inflates variances by about ε/2 = 1 % on the likelihood directions.
//
// A tuning-free row (the library's sample.Run defaults, method name "default")
// belongs here once the root package has it: a Method with Run set, which
// ignores Eps, Friction and Noise and takes its settings from the library.
func Methods() []Method {
	return []Method{
		{
			Name: "SGHMC", Eps: 0.05, Friction: 3, Batch: 32, Noise: true, Thin: 5,
			New: func(m Method, grad sgmcmc.Gradient, theta0, v []float64, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGHMC(grad, theta0, src, &sgmcmc.SGHMCSettings{Friction: m.Friction, NoiseVar: v})
			},
		},
		{
			Name: "SGLD", Eps: 0.02, Batch: 32, Noise: true, Thin: 5,
			New: func(m Method, grad sgmcmc.Gradient, theta0, v []float64, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGLD(grad, theta0, src, &sgmcmc.SGLDSettings{NoiseVar: v})
			},
		},
	}
}

// Target is a posterior prepared for the SG-MCMC samplers: a model in
// preconditioned coordinates θ, rotated to φ = Qᵀθ with Q the eigenvectors
// of the per-datum gradient covariance at the start point, so that the
// minibatch noise V̂ = (N/n)(1 − n/N)·N·Cov_i(∇log p(x_i|θ₀)) is diagonal
// in φ, and the library's diagonal B̂ is the whole of it. Q is orthogonal,
// so the curvature stays about the identity.
type Target struct {
	Model  sgmcmc.Model // in φ
	Phi0   []float64
	params func(dst, theta []float64)
	q      []float64 // d×d, θ = Qφ
	cov    []float64 // eigenvalues of N·Cov_i(g_i) at θ₀
	theta  []float64
}

// NewTarget prepares model m started at theta0; params converts θ to the
// parameters reported (β, or β and σ²).
func NewTarget(m sgmcmc.Model, theta0 []float64, params func(dst, theta []float64)) (*Target, error) {
	d, n := m.Dim(), m.Len()
	if n < 2 {
		return nil, errors.New("fewer than two data items")
	}
	mean := make([]float64, d)
	gs := make([]float64, n*d)
	for i := range n {
		m.LogLikGrad(gs[i*d:(i+1)*d], theta0, i, 1)
		for j, g := range gs[i*d : (i+1)*d] {
			mean[j] += g / float64(n)
		}
	}
	c := mat.NewSymDense(d, nil)
	for i := range n {
		g := gs[i*d : (i+1)*d]
		for j := range d {
			for k := j; k < d; k++ {
				c.SetSym(j, k, c.At(j, k)+(g[j]-mean[j])*(g[k]-mean[k]))
			}
		}
	}
	c.ScaleSym(float64(n)/float64(n-1), c) // N times the unbiased covariance
	var e mat.EigenSym
	if !e.Factorize(c, true) {
		return nil, errors.New("eigendecomposition of the gradient covariance failed")
	}
	var vec mat.Dense
	e.VectorsTo(&vec)
	t := &Target{params: params, q: make([]float64, d*d), cov: e.Values(nil), theta: make([]float64, d)}
	for j := range d {
		for k := range d {
			t.q[j*d+k] = vec.At(j, k)
		}
	}
	t.Model = &rotModel{m: m, q: t.q, d: d, th: make([]float64, d), g: make([]float64, d)}
	t.Phi0 = make([]float64, d)
	for k := range d {
		for j := range d {
			t.Phi0[k] += t.q[j*d+k] * theta0[j]
		}
	}
	return t, nil
}

// NoiseVar returns diag(V̂) in φ for minibatches of n drawn without
// replacement.
func (t *Target) NoiseVar(n int) []float64 {
	N := float64(t.Model.Len())
	f := N / float64(n) * (1 - float64(n)/N)
	v := make([]float64, len(t.cov))
	for j, c := range t.cov {
		v[j] = f * max(c, 0)
	}
	return v
}

// Params writes the reported parameters of φ into dst.
func (t *Target) Params(dst, phi []float64) {
	d := len(phi)
	matVec(t.theta, t.q, phi, d)
	t.params(dst, t.theta)
}

// Sample runs method m on t for burn steps of burn-in and draws kept draws
// (Thin steps apart) and returns them as parameters (dim values a draw),
// row-major. The minibatches and the sampler's noise come from two PCG
// streams seeded by seed.
func (m Method) Sample(ctx context.Context, t *Target, dim, burn, draws int, seed uint64) ([]float64, error) {
	if m.Run != nil {
		return m.Run(ctx, t, dim, burn, draws, seed)
	}
	n := min(m.Batch, t.Model.Len())
	batch, err := sgmcmc.NewMinibatch(t.Model, n, false, rand.NewPCG(seed, 1))
	if err != nil {
		return nil, err
	}
	var v []float64
	if m.Noise {
		v = t.NoiseVar(n)
	}
	s, err := m.New(m, batch, t.Phi0, v, rand.NewPCG(seed, 2))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Name, err)
	}
	c, err := sgmcmc.Run(ctx, s, sgmcmc.RunOptions{Draws: draws, BurnIn: burn, Thin: m.Thin, Schedule: sgmcmc.Constant(m.Eps)})
	// Run's temperature verdict keeps every draw; the comparison with the
	// reference judges them.
	if err != nil && !errors.Is(err, sgmcmc.ErrTemperature) {
		return nil, fmt.Errorf("%s: %w", m.Name, err)
	}
	out := make([]float64, c.Len()*dim)
	for i := range c.Len() {
		t.Params(out[i*dim:(i+1)*dim], c.At(i))
	}
	return out, nil
}

// rotModel presents a model in the coordinates φ = Qᵀθ, Q orthogonal:
// θ = Qφ and ∇_φ = Qᵀ∇_θ.
type rotModel struct {
	m     sgmcmc.Model
	q     []float64
	d     int
	th, g []float64
}

var _ sgmcmc.BatchModel = (*rotModel)(nil)

func (r *rotModel) Dim() int { return r.d }
func (r *rotModel) Len() int { return r.m.Len() }

// in sets r.th = Qφ and clears r.g.
func (r *rotModel) in(phi []float64) {
	matVec(r.th, r.q, phi, r.d)
	clear(r.g)
}

// out adds Qᵀr.g to dst.
func (r *rotModel) out(dst []float64) {
	d := r.d
	for j, g := range r.g {
		if g == 0 {
			continue
		}
		row := r.q[j*d : (j+1)*d]
		for k, q := range row {
			dst[k] += q * g
		}
	}
}

func (r *rotModel) LogPriorGrad(dst, phi []float64) {
	r.in(phi)
	r.m.LogPriorGrad(r.g, r.th)
	r.out(dst)
}

func (r *rotModel) LogLikGrad(dst, phi []float64, i int, scale float64) {
	r.in(phi)
	r.m.LogLikGrad(r.g, r.th, i, scale)
	r.out(dst)
}

func (r *rotModel) LogLikGradBatch(dst, phi []float64, idx []int, scale float64) {
	r.in(phi)
	if bm, ok := r.m.(sgmcmc.BatchModel); ok {
		bm.LogLikGradBatch(r.g, r.th, idx, scale)
	} else {
		for _, i := range idx {
			r.m.LogLikGrad(r.g, r.th, i, scale)
		}
	}
	r.out(dst)
}
