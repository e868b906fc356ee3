// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package larged holds the large-d correctness targets of issue 24 and
// doc/adaptation.md §4: a Gaussian whose covariance is a diagonal
// spanning four orders of magnitude plus a rank-10 correlated part, given
// as a Model with an exact posterior, and a sparse logistic regression.
package larged

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Rank is the rank of the Gaussian's correlated part.
const Rank = 10

// Gaussian is the Model of N items x_i ~ N(θ, N·Σ) with a flat prior, so
// that the posterior is exactly N(x̄, Σ). Σ = diag(D) + V diag(S) Vᵀ: D
// log-spaced over [10⁻², 10²] in a random order, V d×Rank with orthonormal
// columns (random directions), and S chosen so that in the coordinates
// whitened by D's square root the correlated directions have variances
// 1 + κ_j with κ log-spaced over [10, 100] — a diagonal preconditioner
// leaves them 10 to 100 times stiffer than the rest. Gradients apply Σ⁻¹
// by Woodbury's identity in O(Rank·d).
type Gaussian struct {
	d, n int
	D    []float64 // diagonal variances
	V    []float64 // d×Rank row-major, orthonormal columns
	S    []float64 // Rank weights
	x    []float64 // n×d items
	xbar []float64
	k    *mat.SymDense // (S⁻¹ + VᵀD⁻¹V)⁻¹
	pool sync.Pool     // of *[]float64, d
	// V column-major (column j at [j·d, (j+1)·d)), D⁻¹V likewise, and D⁻¹.
	vc, vd, invD []float64
}

// NewGaussian returns the target of dimension d with n items, drawn from
// seed.
func NewGaussian(d, n int, seed uint64) (*Gaussian, error) {
	if d < 2*Rank || n < 2 {
		return nil, errors.New("larged: NewGaussian: want d ≥ 20 and n ≥ 2")
	}
	r := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc908))
	g := &Gaussian{d: d, n: n, D: make([]float64, d), V: make([]float64, d*Rank), S: make([]float64, Rank)}
	perm := r.Perm(d)
	for i := range d {
		g.D[perm[i]] = math.Pow(10, -2+4*float64(i)/float64(d-1))
	}
	// Random orthonormal directions by Gram–Schmidt on Gaussian vectors.
	cols := make([][]float64, Rank)
	for j := range cols {
		v := make([]float64, d)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		for range 2 {
			for _, u := range cols[:j] {
				var s float64
				for i := range v {
					s += u[i] * v[i]
				}
				for i := range v {
					v[i] -= s * u[i]
				}
			}
		}
		var nn float64
		for _, x := range v {
			nn += x * x
		}
		nn = math.Sqrt(nn)
		for i := range v {
			v[i] /= nn
		}
		cols[j] = v
		for i := range d {
			g.V[i*Rank+j] = v[i]
		}
		// Whitened by √D the direction v has variance vᵀD⁻¹v·(…): choose
		// S_j so that the whitened variance along D^{-1/2}v is 1 + κ_j.
		var q float64
		for i := range d {
			q += v[i] * v[i] / g.D[i]
		}
		kappa := math.Pow(10, 1+float64(j)/float64(Rank-1))
		g.S[j] = kappa / q
	}
	// K = (S⁻¹ + VᵀD⁻¹V)⁻¹.
	a := mat.NewSymDense(Rank, nil)
	for p := range Rank {
		for q := p; q < Rank; q++ {
			var s float64
			for i := range d {
				s += g.V[i*Rank+p] * g.V[i*Rank+q] / g.D[i]
			}
			if p == q {
				s += 1 / g.S[p]
			}
			a.SetSym(p, q, s)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return nil, errors.New("larged: NewGaussian: Woodbury core not positive definite")
	}
	g.k = mat.NewSymDense(Rank, nil)
	if err := ch.InverseTo(g.k); err != nil {
		return nil, err
	}
	// Items x_i = μ + √N·(√D ⊙ ξ + V(√S ⊙ η)), μ ~ N(0, I).
	mu := make([]float64, d)
	for i := range mu {
		mu[i] = r.NormFloat64()
	}
	g.x = make([]float64, n*d)
	g.xbar = make([]float64, d)
	sn := math.Sqrt(float64(n))
	eta := make([]float64, Rank)
	for it := range n {
		for j := range eta {
			eta[j] = r.NormFloat64() * math.Sqrt(g.S[j])
		}
		row := g.x[it*d : (it+1)*d]
		for i := range row {
			var s float64
			for j, e := range eta {
				s += g.V[i*Rank+j] * e
			}
			row[i] = mu[i] + sn*(math.Sqrt(g.D[i])*r.NormFloat64()+s)
			g.xbar[i] += row[i] / float64(n)
		}
	}
	g.pool.New = func() any { b := make([]float64, d); return &b }
	g.vc, g.vd, g.invD = make([]float64, d*Rank), make([]float64, d*Rank), make([]float64, d)
	for i := range d {
		g.invD[i] = 1 / g.D[i]
		for j := range Rank {
			g.vc[j*d+i] = g.V[i*Rank+j]
			g.vd[j*d+i] = g.V[i*Rank+j] / g.D[i]
		}
	}
	return g, nil
}

// Dim returns d.
func (g *Gaussian) Dim() int { return g.d }

// Len returns N.
func (g *Gaussian) Len() int { return g.n }

// LogPriorGrad adds nothing: the prior is flat.
func (g *Gaussian) LogPriorGrad(dst, theta []float64) {}

// LogLikGrad adds scale·(NΣ)⁻¹(x_i − θ) to dst.
func (g *Gaussian) LogLikGrad(dst, theta []float64, i int, scale float64) {
	r := make([]float64, g.d)
	row := g.x[i*g.d : (i+1)*g.d]
	for j := range r {
		r[j] = row[j] - theta[j]
	}
	g.addSolve(dst, r, scale/float64(g.n))
}

// LogLikGradBatch adds scale·Σ_{i∈idx} (NΣ)⁻¹(x_i − θ) to dst: one solve
// for the batch's summed residual.
func (g *Gaussian) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	rp := g.pool.Get().(*[]float64)
	defer g.pool.Put(rp)
	r := *rp
	if len(idx) == g.n {
		// The whole data set (every index once, as a minibatch of size N
		// draws without replacement): its sufficient statistic N·x̄.
		for j, v := range g.xbar {
			r[j] = float64(g.n) * v
		}
	} else {
		clear(r)
		for _, i := range idx {
			row := g.x[i*g.d : (i+1)*g.d]
			for j, v := range row {
				r[j] += v
			}
		}
	}
	m := float64(len(idx))
	for j := range r {
		r[j] -= m * theta[j]
	}
	g.addSolve(dst, r, scale/float64(g.n))
}

// addSolve adds alpha·Σ⁻¹r to dst by Woodbury's identity,
// Σ⁻¹ = D⁻¹ − D⁻¹V K VᵀD⁻¹, overwriting r.
func (g *Gaussian) addSolve(dst, r []float64, alpha float64) {
	d := g.d
	var t, u [Rank]float64
	for j := range Rank {
		t[j] = floats.Dot(g.vd[j*d:(j+1)*d], r)
	}
	for p := range Rank {
		for q := range Rank {
			u[p] += g.k.At(p, q) * t[q]
		}
	}
	for j := range Rank {
		floats.AddScaled(r, -u[j], g.vc[j*d:(j+1)*d])
	}
	for i, v := range r {
		dst[i] += alpha * v * g.invD[i]
	}
}

// Mean returns the exact posterior mean x̄.
func (g *Gaussian) Mean() []float64 { return g.xbar }

// SD returns the exact posterior standard deviations √Σ_ii.
func (g *Gaussian) SD() []float64 {
	sd := make([]float64, g.d)
	for i := range sd {
		v := g.D[i]
		for j := range Rank {
			v += g.S[j] * g.V[i*Rank+j] * g.V[i*Rank+j]
		}
		sd[i] = math.Sqrt(v)
	}
	return sd
}

// Directions returns the planted directions in the coordinates whitened
// by the diagonal's square root, D^{-1/2}v_j normalised (d×Rank
// row-major): what a low-rank factor on top of a diagonal whitening
// should find.
func (g *Gaussian) Directions() []float64 {
	out := make([]float64, g.d*Rank)
	for j := range Rank {
		var nn float64
		for i := range g.d {
			v := g.V[i*Rank+j] / math.Sqrt(g.D[i])
			out[i*Rank+j] = v
			nn += v * v
		}
		for i := range g.d {
			out[i*Rank+j] /= math.Sqrt(nn)
		}
	}
	return out
}
