// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// SGRLDSimplexSettings configures NewSGRLDSimplex. The zero value is a Gamma
// target.
type SGRLDSimplexSettings struct {
	// Simplex, if positive, is the length K of the simplex blocks: Position
	// reports ω = |θ|/Σ|θ| within each of the d/K consecutive blocks. d must
	// be a multiple of Simplex. Zero means a Gamma target: Position reports θ.
	Simplex int
}

// SGRLDSimplex is the stochastic gradient Riemannian Langevin dynamics
// sampler of Patterson & Teh (2013) for the probability simplex in the
// expanded-mean parameterisation with mirrored-gamma priors, the baseline of
// the SCIR paper (Baker et al. 2018). It is a specialisation of SGRLD
// (doc/equations.md §9) written out for speed, and is driven by the same shape
// estimates â as SCIR.
//
// The target of θ is Gamma(a_j, 1) in each coordinate (mirrored onto the
// real line), so that ω = |θ|/Σ|θ| is Dirichlet(a) within each block; â is an
// unbiased minibatch estimate of a. With U(θ) = Σ_j [θ_j − (â_j − 1) log θ_j]
// and the metric G(θ) = diag(1/θ), SGRLD's update
// θ ← θ − h G⁻¹∇Ũ(θ) + h Γ(θ) + N(0, 2h G⁻¹) has
// −G⁻¹∇Ũ = θ((â − 1)/θ − 1) = â − 1 − θ and Γ_j = ∂θ_j/∂θ_j = 1, so
//
//	θ_j ← | θ_j + h(â_j − θ_j) + sqrt(2hθ_j) · η_j |,   η_j ~ N(0, 1),
//
// the absolute value folding the mirrored density back onto θ ≥ 0. (Patterson
// & Teh write the likelihood on ω instead, which adds −n̂·ω_j to the drift,
// with n̂ the scaled number of observations in the block; the ω-marginal is
// the same Dirichlet.) Unlike SCIR this is an Euler discretisation: its
// O(h) bias is largest, relative to ω, near the boundary of the simplex.
type SGRLDSimplex struct {
	d     int
	block int
	est   ShapeEstimator
	src   *rng.Normal // the chain's generator, seeded from the constructor's source
	t     int

	theta, next []float64
	omega       []float64
	ahat        []float64
}

var _ Sampler = (*SGRLDSimplex)(nil)

// NewSGRLDSimplex returns an SGRLDSimplex sampler started at theta0 whose
// shape comes from est at every Step, with randomness from src. theta0 must
// be non-negative and finite, and not all zero within a simplex block; it is
// copied. est may be nil if the caller supplies â to StepShape instead. s may
// be nil for the defaults. src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from.
func NewSGRLDSimplex(est ShapeEstimator, theta0 []float64, src rand.Source, s *SGRLDSimplexSettings) (*SGRLDSimplex, error) {
	if s == nil {
		s = &SGRLDSimplexSettings{}
	}
	d := len(theta0)
	block, err := checkSimplexSetup("NewSGRLDSimplex", est, theta0, src, s.Simplex)
	if err != nil {
		return nil, err
	}
	if a, ok := est.(FixedShape); ok {
		for j, v := range a {
			if !(v > 0) || math.IsInf(v, 1) {
				return nil, errorf(ErrRange, "NewSGRLDSimplex: shape %d = %v, want positive and finite", j, v)
			}
		}
	}
	g := &SGRLDSimplex{
		d: d, block: block, est: est,
		theta: make([]float64, d), next: make([]float64, d), ahat: make([]float64, d),
	}
	g.src, _ = rng.NewNormalFrom(src) // src is not nil
	copy(g.theta, theta0)
	if block > 0 {
		g.omega = make([]float64, d)
		g.normalize(g.theta) // theta0 has a positive sum in every block
	}
	return g, nil
}

// Dim returns the number d of coordinates.
func (g *SGRLDSimplex) Dim() int { return g.d }

// Position returns ω (each simplex block normalised) if Simplex was set, and
// θ otherwise. The slice is the sampler's own storage, valid until the next
// step; do not modify it.
func (g *SGRLDSimplex) Position() []float64 {
	if g.omega != nil {
		return g.omega
	}
	return g.theta
}

// Theta returns θ (non-negative: |θ| is taken after each step). The slice is
// the sampler's own storage, valid until the next step; do not modify it.
func (g *SGRLDSimplex) Theta() []float64 { return g.theta }

// Steps returns the number of completed steps.
func (g *SGRLDSimplex) Steps() int { return g.t }

// Step advances θ by one SGRLD step of size h with the shape estimate â drawn
// from the ShapeEstimator. If the estimator was nil use StepShape instead. A
// non-positive or non-finite â_j is reported as a *StepError naming
// coordinate j, and the state is left unchanged.
func (g *SGRLDSimplex) Step(h float64) error {
	if err := drawShape(h, g.t+1, g.est, g.ahat); err != nil {
		return err
	}
	return g.step(h, g.ahat)
}

// StepShape is Step with the shape estimate â supplied by the caller. ahat
// must have length Dim and positive finite entries.
func (g *SGRLDSimplex) StepShape(h float64, ahat []float64) error {
	if err := checkShapeInput(h, g.t+1, g.d, ahat); err != nil {
		return err
	}
	return g.step(h, ahat)
}

// step moves θ into g.next, a block of normals at a time, and swaps it in
// on success; on failure it rewinds the generator.
func (g *SGRLDSimplex) step(h float64, ahat []float64) error {
	step := g.t + 1
	save := *g.src
	s2h := math.Sqrt(2 * h)
	var nrm [fusedChunk]float64
	for c0 := 0; c0 < len(ahat); c0 += fusedChunk {
		w := nrm[:min(fusedChunk, len(ahat)-c0)]
		g.src.Fill(w)
		for k, x := range w {
			j := c0 + k
			a := ahat[j]
			if !(a > 0) || a > math.MaxFloat64 {
				*g.src = save
				return &StepError{Step: step, Index: j, Value: a, What: "shape estimate must be positive and finite"}
			}
			th := g.theta[j]
			v := math.Abs(th + h*(a-th) + s2h*math.Sqrt(th)*x)
			if v > math.MaxFloat64 || v != v {
				*g.src = save
				return &StepError{Step: step, Index: j, Value: v, What: "θ is not finite"}
			}
			g.next[j] = v
		}
	}
	if g.omega != nil {
		if err := g.checkBlocks(step); err != nil {
			*g.src = save
			return err
		}
		g.normalize(g.next)
	}
	g.theta, g.next = g.next, g.theta
	g.t = step
	return nil
}

// checkBlocks reports a simplex block of g.next whose sum is zero or
// infinite.
func (g *SGRLDSimplex) checkBlocks(step int) error {
	for lo := 0; lo < g.d; lo += g.block {
		var sum float64
		for _, v := range g.next[lo : lo+g.block] {
			sum += v
		}
		if !(sum > 0) || sum > math.MaxFloat64 {
			return &StepError{Step: step, Index: lo, Value: sum, What: "sum of θ over the simplex block is zero or infinite"}
		}
	}
	return nil
}

func (g *SGRLDSimplex) normalize(theta []float64) {
	for lo := 0; lo < g.d; lo += g.block {
		var sum float64
		for _, v := range theta[lo : lo+g.block] {
			sum += v
		}
		inv := 1 / sum
		for j := lo; j < lo+g.block; j++ {
			g.omega[j] = theta[j] * inv
		}
	}
}

func (g *SGRLDSimplex) sources() []any { return []any{g.src} }

// kindSGRLDSimplex is the checkpoint kind of a SGRLDSimplex (checkpoint.go): an on-disk
// string that must never change.
const kindSGRLDSimplex = "SGRLDSimplex"

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (documented in checkpoint.go), of kind "SGRLDSimplex": the simplex block
// length, the step count, θ and the random source's state.
func (g *SGRLDSimplex) MarshalBinary() ([]byte, error) {
	return marshal("SGRLDSimplex.MarshalBinary", kindSGRLDSimplex, g.d, g.sources(), func(e *encoder) {
		e.int(g.block)
		e.int(g.t)
		e.floats(g.theta)
	})
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into an
// SGRLDSimplex built with the same settings. On error, which wraps
// ErrCheckpoint, g is left as it was.
func (g *SGRLDSimplex) UnmarshalBinary(data []byte) error {
	return restore("SGRLDSimplex.UnmarshalBinary", kindSGRLDSimplex, g.d, data, g.sources(), func(d *decoder) commit {
		d.equal("simplex block length", g.block)
		t := d.count("step count")
		theta := d.floats("θ", g.d, nonNegative)
		for lo := 0; d.err == nil && g.block > 0 && lo < g.d; lo += g.block {
			var sum float64
			for _, v := range theta[lo : lo+g.block] {
				sum += v
			}
			if !(sum > 0) || math.IsInf(sum, 0) {
				d.fail("θ sums to %v on the simplex block at %d, want positive and finite", sum, lo)
			}
		}
		return commit{set: func() {
			g.t = t
			copy(g.theta, theta)
			if g.omega != nil {
				g.normalize(g.theta)
			}
		}}
	})
}
