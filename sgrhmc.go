// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SGRHMCSettings configures NewSGRHMC and its variants. The zero value is
// gSGRHMC with r₀ = 0, the sequential sweep and no momentum resampling.
type SGRHMCSettings struct {
	// Naive makes the naive SGRHMC of Ma, Chen & Fox (2015, Eq. 16):
	// gSGRHMC without the correction ε∇_θ·G^(−1/2). It is INCORRECT
	// whenever G depends on θ, and exists as the paper's foil for
	// demonstrations and tests; Recipe.Check reports it. NewSGRHMCDense
	// refuses it.
	Naive bool
	// Temperature T makes the target π(θ)^{1/T} (RecipeSpec.Temperature,
	// doc/equations.md §12.1). Zero means 1.
	Temperature float64
	// NoiseVar is a constant estimate of diag(V); the injected noise becomes
	// N(0, ε(2G⁻¹ − εG^(−1/2)VG^(−1/2))). Nil means no correction.
	// Diagonal metrics only.
	NoiseVar []float64
	// EstimateNoise takes diag(V̂) from the gradient at every step.
	// Diagonal metrics only.
	EstimateNoise bool
	// Integrator is Euler for Eq. 17 read literally. Nil means the
	// sequential sweep: r, then θ with the new r.
	Integrator Integrator
	// ResampleEvery resamples r ~ N(0, I) every ResampleEvery steps. Zero
	// means never.
	ResampleEvery int
	// R0 is the initial momentum. Nil means zero.
	R0 []float64
	// Friction scales the momentum's diffusion to D_rr = C·G⁻¹ (Γ is
	// unchanged: D_rr does not depend on r). Zero means 1, the recipe
	// paper's sampler. With a fixed D_rr = G⁻¹ the energy relaxes over
	// about max g_i/ε steps, which on a badly scaled metric can be 10⁶
	// steps or more; a larger C relaxes faster and absorbs more gradient
	// noise (2C·G⁻¹ − εB̂ must stay PSD). Diagonal metrics only.
	Friction float64
}

// NewSGRHMC returns the generalised stochastic gradient Riemann HMC of Ma,
// Chen & Fox (2015, Eq. 17) for a diagonal metric G(θ) = diag(g(θ)), as a
// Recipe over z = (θ, r) with H = U(θ) + ½rᵀr, D = [[0,0],[0,G⁻¹]],
// Q = [[0,−G^(−1/2)],[G^(−1/2),0]] and Γ = (0, ∇_θ·G^(−1/2)):
//
//	r ← r − εG^(−1/2)∇Ũ(θ) + ε∇_θ·G^(−1/2) − εG⁻¹r + N(0, ε(2G⁻¹ − εB̂));
//	θ ← θ + εG^(−1/2)r.
//
// For a diagonal metric (∇_θ·G^(−1/2))_i = −½ g_i′ g_i^(−3/2). O(d) per step
// plus one metric evaluation. s may be nil.
//
// The friction on r is G⁻¹: a metric that grows with the curvature (such as
// a Fisher information) leaves the stiff coordinates little friction against
// the gradient noise, so scale G down or keep ε small there. With a
// constant G, gSGRHMC is SGHMC with mass G and friction 1 (in θ's units).
// src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from.
func NewSGRHMC(grad Gradient, theta0 []float64, metric DiagMetric, src rand.Source, s *SGRHMCSettings) (*Recipe, error) {
	if s != nil && s.Naive {
		return newSGRHMCDiag("NewSGRHMC", kindNaiveSGRHMC, grad, theta0, metric, src, s, true)
	}
	return newSGRHMCDiag("NewSGRHMC", kindSGRHMC, grad, theta0, metric, src, s, false)
}

func newSGRHMCDiag(who, kind string, grad Gradient, theta0 []float64, metric DiagMetric, src rand.Source, s *SGRHMCSettings, naive bool) (*Recipe, error) {
	if isNil(metric) {
		return nil, errorf(ErrNil, "%s: nil metric", who)
	}
	if err := checkStart(who, grad, theta0, src); err != nil {
		return nil, err
	}
	if s == nil {
		s = &SGRHMCSettings{}
	}
	d := len(theta0)
	mc := newDiagMetricCache(metric, max(d, 1), true)
	fric := Diagonal(mc.inv)
	if s.Friction != 0 {
		if err := checkScalar(who, "Friction", s.Friction); err != nil {
			return nil, err
		}
		if s.Friction != 1 {
			c := s.Friction
			mc.fric, mc.fricInv = c, make([]float64, max(d, 1))
			fric = Diagonal(mc.fricInv)
		}
	}
	var gamma Field
	if !naive {
		// Γ = (0, ∇_θ·G^(−1/2)), the metric cache writing its half.
		gv := make(Vector, 2*d)
		mc.gamIsq = gv[d:]
		gamma = gv
	}
	noiseMap := func(b, _, v []float64) {
		clear(b[:d])
		for i, w := range mc.inv {
			b[d+i] = v[i] * w
		}
	}
	spec, err := sgrhmcSpec(who, grad, theta0, src, s, fric, Diagonal(mc.nisq), Diagonal(mc.isq), gamma, mc.prepare, noiseMap)
	if err != nil {
		return nil, err
	}
	if naive {
		spec.Naive = "naive SGRHMC (Ma et al. 2015, Eq. 16) omits the correction ∇_θ·G^(−1/2); its stationary distribution is not the target when G depends on θ"
	}
	return newNamedRecipe(kind, *spec)
}

// NewSGRHMCDense returns gSGRHMC for a dense metric G(θ), with G^(−1/2),
// G⁻¹ and ∇_θ·G^(−1/2) from an eigendecomposition of G at every step:
// O(d⁴) per step. For small d.
func NewSGRHMCDense(grad Gradient, theta0 []float64, metric DenseMetric, src rand.Source, s *SGRHMCSettings) (*Recipe, error) {
	const who = "NewSGRHMCDense"
	if isNil(metric) {
		return nil, errorf(ErrNil, "NewSGRHMCDense: nil metric")
	}
	if err := checkStart(who, grad, theta0, src); err != nil {
		return nil, err
	}
	if s != nil && s.Naive {
		return nil, errorf(ErrUnsupported, "NewSGRHMCDense: Naive: the naive SGRHMC exists for a diagonal metric only (NewSGRHMC)")
	}
	if s == nil {
		s = &SGRHMCSettings{}
	}
	if s.NoiseVar != nil || s.EstimateNoise {
		return nil, errorf(ErrUnsupported, "NewSGRHMCDense: B̂ correction is supported for diagonal metrics only")
	}
	if s.Friction != 0 && s.Friction != 1 {
		return nil, errorf(ErrUnsupported, "NewSGRHMCDense: Friction is supported for diagonal metrics only")
	}
	d := len(theta0)
	if err := checkMemory(who, fmt.Sprintf("a dense metric's derivatives (d = %d: d + 6 matrices of d × d)", d), floatBytes(d+6, d, d), 0); err != nil {
		return nil, err
	}
	mc := newDenseMetricCache(metric, max(d, 1), -0.5)
	if err := checkTheta0(who, theta0); err != nil {
		return nil, err
	}
	inv, err := NewSymFunc(d, func(dst *mat.SymDense, _ []float64) { dst.CopySym(mc.inv) })
	if err != nil {
		return nil, err
	}
	gv := make(Vector, 2*d) // Γ = (0, ∇_θ·G^(−1/2)), the metric cache writing its half
	mc.gamma = gv[d:]
	spec, err := sgrhmcSpec(who, grad, theta0, src, s, inv, symView{m: mc.isqrt, sign: -1}, symView{m: mc.isqrt, sign: 1}, gv, mc.prepare, nil)
	if err != nil {
		return nil, err
	}
	return newNamedRecipe(kindSGRHMCDense, *spec)
}

// sgrhmcSpec assembles the gSGRHMC recipe from its metric-dependent blocks:
// D_rr = inv, Q_θr = qThetaR, Q_rθ = qRTheta.
func sgrhmcSpec(who string, grad Gradient, theta0 []float64, src rand.Source, s *SGRHMCSettings,
	inv Diffusion, qThetaR, qRTheta Operator, gamma Field, prepare func([]float64) error,
	noiseMap func(b, z, v []float64)) (*RecipeSpec, error) {
	z0, err := momentumState(who, theta0, s.R0, 0)
	if err != nil {
		return nil, err
	}
	d := len(theta0)
	if s.ResampleEvery < 0 {
		return nil, errorf(ErrRange, "%s: ResampleEvery < 0", who)
	}
	D, err := NewBlock([]int{d, d}, [][]Operator{{nil, nil}, {nil, inv}})
	if err != nil {
		return nil, err
	}
	Q, err := NewBlock([]int{d, d}, [][]Operator{{nil, qThetaR}, {qRTheta, nil}})
	if err != nil {
		return nil, err
	}
	spec := &RecipeSpec{
		Blocks:      []int{d, d},
		Grad:        grad,
		GradK:       Kinetic{},
		D:           D,
		Q:           Q,
		Gamma:       gamma,
		Prepare:     prepare,
		Integrator:  s.Integrator,
		Temperature: s.Temperature,
		Z0:          z0,
		Src:         src,
	}
	if err := spec.setNoise(who, d, s.NoiseVar, s.EstimateNoise, noiseMap); err != nil {
		return nil, err
	}
	if s.ResampleEvery > 0 {
		spec.RefreshEvery = s.ResampleEvery
		spec.Refresh = resampleMomentum(d, nil)
	}
	return spec, nil
}
