// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package refmcmc

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// FusedTarget is a Target that computes its log density and gradient in
// one pass over the data: SplitHMC uses it when t has it, halving the
// reads of each step.
type FusedTarget interface {
	Target
	// LogPosteriorAndGrad writes ∇log p(θ | data) into dst and returns
	// log p(θ | data), LogPosterior's value.
	LogPosteriorAndGrad(dst, theta []float64) float64
}

// SplitHMC is Hamiltonian Monte Carlo split around the Laplace
// approximation (Shahbaba, Lan, Johnson & Neal 2014), for posteriors in
// thousands of dimensions where the independence sampler's importance
// weights, each near 1, multiply into a spread it cannot cross. In the
// whitened coordinates z = U(θ − mode), H = UᵀU the Hessian at the mode,
// the potential is ½‖z‖² + R(z): the Gaussian part's flow is a rotation
// of (z, p), made exactly, and only the residual R's gradient, small where
// the posterior is close to Gaussian, is integrated by leapfrog kicks. The
// step is then set by R, not by d (a plain leapfrog's energy error on
// N(0, I_d) has variance about dε⁴/16). Each step costs one full-data
// gradient and two triangular solves with U (O(d²)); the Metropolis test
// on the full Hamiltonian makes the draws exact.
type SplitHMC struct {
	Eps   float64 // the step, in radians of the Gaussian's rotation
	Steps int     // steps a trajectory
}

// Run draws chains × draws from t after burnIn, each chain from the mode
// plus a standard normal draw in z, on the PCG stream (seed, c), at most
// GOMAXPROCS chains at once (t must be safe for concurrent use). The
// draws are in θ.
func (s SplitHMC) Run(ctx context.Context, t Target, lap *Laplace, chains, burnIn, draws int, seed uint64) (*Result, error) {
	if !(s.Eps > 0) || s.Steps < 1 || chains < 1 || draws < 1 || burnIn < 0 {
		return nil, errors.New("refmcmc: SplitHMC: want Eps > 0, Steps, chains and draws ≥ 1, burnIn ≥ 0")
	}
	d := t.Dim()
	var chol mat.Cholesky
	if !chol.Factorize(lap.Hessian) {
		return nil, errors.New("refmcmc: SplitHMC: Hessian not positive definite")
	}
	var u mat.TriDense
	chol.UTo(&u)
	raw := u.RawTriangular()
	return runChains(chains, func(c int) ([][]float64, [3]int64, error) {
		w := &splitWork{t: t, mode: lap.Mode, u: raw.Data, stride: raw.Stride, th: make([]float64, d), g: make([]float64, d)}
		w.fused, _ = t.(FusedTarget)
		return s.chain(ctx, w, rand.New(rand.NewPCG(seed, uint64(c))), burnIn, draws)
	})
}

// chain runs one chain of SplitHMC with its own scratch w and stream rng,
// and returns its draws and its accepted, proposed and evaluated counts.
func (s SplitHMC) chain(ctx context.Context, w *splitWork, rng *rand.Rand, burnIn, draws int) ([][]float64, [3]int64, error) {
	d := len(w.th)
	var st [3]int64
	z, p, grad := make([]float64, d), make([]float64, d), make([]float64, d)
	z0, grad0 := make([]float64, d), make([]float64, d)
	for j := range z {
		z[j] = rng.NormFloat64()
	}
	r := w.residual(grad, z)
	st[2]++
	block := make([]float64, draws*d)
	out := make([][]float64, draws)
	cs, sn := math.Cos(s.Eps), math.Sin(s.Eps)
	for i := -burnIn; i < draws; i++ {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		copy(z0, z)
		copy(grad0, grad)
		r0 := r
		var h0 float64
		for j := range p {
			p[j] = rng.NormFloat64()
			h0 += 0.5 * (p[j]*p[j] + z[j]*z[j])
		}
		h0 += r
		for range s.Steps {
			for j := range p {
				p[j] -= 0.5 * s.Eps * grad[j]
				z[j], p[j] = z[j]*cs+p[j]*sn, p[j]*cs-z[j]*sn
			}
			r = w.residual(grad, z)
			st[2]++
			for j := range p {
				p[j] -= 0.5 * s.Eps * grad[j]
			}
		}
		h1 := r
		for j := range p {
			h1 += 0.5 * (p[j]*p[j] + z[j]*z[j])
		}
		st[1]++
		if a := h0 - h1; a >= 0 || rng.Float64() < math.Exp(a) {
			st[0]++
		} else {
			copy(z, z0)
			copy(grad, grad0)
			r = r0
		}
		if i >= 0 {
			row := block[i*d : (i+1)*d : (i+1)*d]
			w.theta(row, z)
			out[i] = row
		}
	}
	return out, st, nil
}

// splitWork holds the Laplace factor and scratch of SplitHMC.
type splitWork struct {
	t      Target
	fused  FusedTarget // t, when it is one; nil otherwise
	mode   []float64
	u      []float64 // the upper factor U, row-major with stride
	stride int
	th, g  []float64
}

// theta writes θ = mode + U⁻¹z into dst.
func (w *splitWork) theta(dst, z []float64) {
	d := len(z)
	for a := d - 1; a >= 0; a-- {
		row := w.u[a*w.stride : a*w.stride+d]
		s := z[a]
		for b := a + 1; b < d; b++ {
			s -= row[b] * dst[b]
		}
		dst[a] = s / row[a]
	}
	for j := range dst {
		dst[j] += w.mode[j]
	}
}

// residual returns R(z) = U(θ) − ½‖z‖² (up to a constant) and writes its
// gradient in z, U⁻ᵀ∇_θU(θ) − z, into grad.
func (w *splitWork) residual(grad, z []float64) float64 {
	w.theta(w.th, z)
	var lp float64
	if w.fused != nil {
		lp = w.fused.LogPosteriorAndGrad(w.g, w.th)
	} else {
		w.t.LogPosteriorGrad(w.g, w.th) // ∇log p = −∇_θU
		lp = w.t.LogPosterior(w.th)
	}
	// Forward substitution, Uᵀy = −g: y_a = (−g_a − Σ_{b<a} U_ba y_b)/U_aa,
	// accumulated a row of U at a time for its row-major layout.
	d := len(z)
	for a := range d {
		grad[a] = -w.g[a]
	}
	for b := range d {
		row := w.u[b*w.stride : b*w.stride+d]
		grad[b] /= row[b]
		gb := grad[b]
		for a := b + 1; a < d; a++ {
			grad[a] -= row[a] * gb
		}
	}
	var zz float64
	for j := range grad {
		grad[j] -= z[j]
		zz += z[j] * z[j]
	}
	return -lp - 0.5*zz
}
