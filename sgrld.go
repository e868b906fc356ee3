// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SGRLDSettings configures NewSGRLD and NewSGRLDDense.
type SGRLDSettings struct {
	// Temperature T makes the target π(θ)^{1/T} (RecipeSpec.Temperature,
	// doc/equations.md §12.1). Zero means 1.
	Temperature float64
	// NoiseVar is a constant estimate of diag(V); the injected noise becomes
	// N(0, ε(2G⁻¹ − εG⁻¹VG⁻¹)). Nil means no correction. Diagonal metrics
	// only.
	NoiseVar []float64
	// EstimateNoise takes diag(V̂) from the gradient at every step.
	// Diagonal metrics only.
	EstimateNoise bool
}

// NewSGRLD returns stochastic gradient Riemannian Langevin dynamics
// (Patterson & Teh 2013) for a diagonal metric as a Recipe with H = U(θ),
// D = G(θ)⁻¹, Q = 0 and Γ_i = ∂_i(1/g_i) = −g_i′/g_i²:
//
//	θ ← θ − εG⁻¹∇Ũ(θ) + εΓ(θ) + N(0, 2εG⁻¹).
//
// It costs O(d) per step plus one metric evaluation. src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from. s may be nil.
func NewSGRLD(grad Gradient, theta0 []float64, metric DiagMetric, src rand.Source, s *SGRLDSettings) (*Recipe, error) {
	const who = "NewSGRLD"
	if isNil(metric) {
		return nil, errorf(ErrNil, "NewSGRLD: nil metric")
	}
	if s == nil {
		s = &SGRLDSettings{}
	}
	if err := checkStart(who, grad, theta0, src); err != nil {
		return nil, err
	}
	d := len(theta0)
	mc := newDiagMetricCache(metric, d, false)
	spec := RecipeSpec{
		Grad:        grad,
		D:           Diagonal(mc.inv),
		Gamma:       Vector(mc.gamInv),
		Prepare:     mc.prepare,
		Temperature: s.Temperature,
		Z0:          theta0,
		Src:         src,
	}
	if err := spec.setNoise(who, d, s.NoiseVar, s.EstimateNoise, func(b, _, v []float64) {
		for i, w := range mc.inv {
			b[i] = v[i] * w * w
		}
	}); err != nil {
		return nil, err
	}
	return newNamedRecipe(kindSGRLD, spec)
}

// NewSGRLDDense returns SGRLD for a dense metric G(θ): D = G⁻¹ and
// Γ_i = Σ_j ∂_j(G⁻¹)_ij, from an eigendecomposition of G recomputed at every
// step: O(d⁴) per step (the Γ term needs ∂_jG⁻¹ for every j), O(d³) for the
// coordinates j whose ∂G/∂θ_j is zero (a constant metric costs O(d³)).
func NewSGRLDDense(grad Gradient, theta0 []float64, metric DenseMetric, src rand.Source, s *SGRLDSettings) (*Recipe, error) {
	const who = "NewSGRLDDense"
	if isNil(metric) {
		return nil, errorf(ErrNil, "NewSGRLDDense: nil metric")
	}
	if s != nil && (s.NoiseVar != nil || s.EstimateNoise) {
		return nil, errorf(ErrUnsupported, "NewSGRLDDense: B̂ correction is supported for diagonal metrics only")
	}
	if err := checkStart(who, grad, theta0, src); err != nil {
		return nil, err
	}
	d := len(theta0)
	if err := checkMemory(who, fmt.Sprintf("a dense metric's derivatives (d = %d: d + 6 matrices of d × d)", d), floatBytes(d+6, d, d), 0); err != nil {
		return nil, err
	}
	mc := newDenseMetricCache(metric, d, -1)
	dm, err := NewSymFunc(d, func(dst *mat.SymDense, _ []float64) { dst.CopySym(mc.inv) })
	if err != nil {
		return nil, err
	}
	return newNamedRecipe(kindSGRLDDense, RecipeSpec{
		Grad:    grad,
		D:       dm,
		Gamma:   Vector(mc.gamma),
		Prepare: mc.prepare,
		Z0:      theta0,
		Src:     src,
	})
}
