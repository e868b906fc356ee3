// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/internal/lbfgs"
	"github.com/sgmcmc-go/sgmcmc/rng"
)

// HAMCMCSettings configures NewHAMCMC. The zero value (or nil) is HAMCMC
// with M = 2, γ = 1, no damping, and an SGLD warm-up from theta0.
type HAMCMCSettings struct {
	// Temperature T makes the target π(θ)^{1/T}: the gradient is divided
	// by T, and the L-BFGS pairs follow the tempered gradient
	// (doc/equations.md §12.1). Zero means 1.
	Temperature float64
	// M is the memory size: the new sample θ_t moves θ_{t−M}, preconditioned
	// by the M−1 curvature pairs of the last M−1 steps. Zero means 2; it
	// must be ≥ 2 (with M = 1 the pairs would involve θ_{t−M} itself).
	M int
	// Gamma is the scale γ > 0 of the initial inverse Hessian H⁰ = γI. Zero
	// means 1.
	Gamma float64
	// Lambda is the trust-region damping λ ≥ 0: each pair's y becomes
	// y + λs, so the pairs approximate (∇²U + λI)⁻¹ and stay positive
	// despite minibatch noise. Zero means none. On non-convex targets set
	// it: the rejection test is on the cosine of s and y, which accepts
	// pairs of tiny positive curvature where ∇²U changes sign, and H = s/y
	// then explodes (measured: the double well θ⁴ − 2θ² diverges within a
	// few thousand steps at λ ≤ 4, and is sampled correctly at λ = 5).
	Lambda float64
	// MinCurvature is the L-BFGS rejection threshold on the cosine of the
	// angle between s and y: a pair is used only if sᵀy > MinCurvature·‖s‖‖y‖
	// after damping. Zero means 1e-8.
	MinCurvature float64
	// MinPairCurvature rejects, in addition, pairs whose curvature sᵀy/sᵀs
	// (after damping) is below MinPairCurvature/γ: such a pair claims a
	// direction far flatter than the target is. Zero accepts any positive
	// curvature.
	MinPairCurvature float64
	// Init, if not nil, holds the 2M+1 initial samples θ_0, …, θ_2M of
	// Algorithm 1 (copied). The pairs for the first step come from θ_2, …,
	// θ_2M (θ_{M+1}, …, θ_2M for the naïve variant); θ_0 and θ_1 are
	// accepted for the paper's sake but not used. theta0 must then be nil,
	// and the first Step produces θ_{2M+1}: pass RunOptions.Start = 2M to
	// keep the paper's step numbering. If nil, the first 2M steps are the
	// SGLD warm-up.
	Init [][]float64
	// Naive selects the naïve sampler of the paper's Eq. 7 instead of
	// HAMCMC: θ_t moves θ_{t−1}, preconditioned by pairs of consecutive
	// samples that include θ_{t−1} itself, with no correction term Γ. It is
	// INCORRECT — its stationary distribution is not the posterior
	// (Proposition 1) — and exists only as the paper's foil.
	Naive bool
}

// HAMCMCStats are a HAMCMC chain's running statistics.
type HAMCMCStats struct {
	// Steps is the number of samples generated, θ_1 … θ_t (θ_{2M+1} … θ_t
	// when started from Settings.Init).
	Steps int
	// WarmupSteps is how many of them were SGLD warm-up steps.
	WarmupSteps int
	// PairsAccepted and PairsRejected count the curvature pairs offered to
	// the L-BFGS memory; rejected pairs (sᵀy not safely positive after
	// damping, or made by an unstable step that ran away: see HAMCMC) are
	// never used.
	PairsAccepted, PairsRejected int
	// PairsInUse is the number of pairs that will precondition the next
	// step, 0 … M−1.
	PairsInUse int
	// IdentitySteps counts the HAMCMC steps taken with no usable pair: with
	// H = γI they are plain SGLD steps with preconditioner γI. If it grows
	// with Steps, the curvature pairs are being rejected: increase Lambda.
	IdentitySteps int
	// SameBatch reports whether both gradients of each pair are computed on
	// the same minibatch (the gradient is a *Minibatch or implements
	// SameBatchGradient). If false, each gradient evaluation draws its own
	// batch, which is right only for deterministic gradients.
	SameBatch bool
}

// HAMCMC is Hessian Approximated MCMC (Şimşekli, Badeau, Cemgil & Richard
// 2016, Algorithm 1; doc/equations.md §10.5). For t > 2M, with a fresh minibatch Ω_t
// and z_t ~ N(0, I):
//
//	θ_t = θ_{t−M} − ε_t H_t ∇Ũ_Ω_t(θ_{t−M}) + √(2ε_t) S_t z_t,
//	s_t = θ_t − θ_{t−M},   y_t = ∇Ũ_Ω_t(θ_t) − ∇Ũ_Ω_t(θ_{t−M}) + λ s_t,
//
// where H_t and its square root S_t (S_t S_tᵀ = H_t) are the L-BFGS
// approximation built from the pairs (s_τ, y_τ), τ = t−M+1 … t−1. None of
// those pairs involves θ_{t−M}, so H_t does not depend on the sample being
// moved and the correction term Γ vanishes: no third derivatives and no
// bias from dropping them. Each step costs two gradient evaluations on the
// same minibatch plus O(M²D) for S_t.
//
// Use decreasing step sizes such as Polynomial{A: a^0.51, Gamma: 0.51} (ε_t = (a/t)^0.51) and
// step-weighted averages Σ ε_t h(θ_t) / Σ ε_t (Eq. 12, Chain.WeightedMean)
// for consistent posterior expectations. The samples form M interleaved
// chains (θ_t moves θ_{t−M}); Position is the newest sample.
//
// A limitation measured here, not in the paper: H_t is a function of the
// other chains' last moves only, but those moves were preconditioned by
// matrices built from this chain's own last move, so conditionally on the
// pairs θ_{t−M} is not exactly distributed as the posterior. In one
// dimension, and on Gaussian targets (constant Hessian), the tests find no
// bias; on the two-dimensional target U = Σ θ_i²/2 + θ_i⁴/4 they find a
// bias in E θ_i² of −3% at γ = 1 (−11% at γ = 3, +4% at γ = 0.3) that does
// not shrink as ε → 0 — small next to the naïve sampler's +40%, but not
// zero. On that target the bias changes sign between γ = 0.3 and γ = 1,
// near the inverse of the typical curvature.
//
// Efficiency: one or two pairs fix the curvature only along directions in
// which the moves s are concentrated, and moves preconditioned by a good H
// are whitened, so in more than a few dimensions H alternates between good
// and γI-like along stiff directions (internal/lbfgs's
// TestLBFGSCaptureNeedsAlignedPairs);
// examples/lineargaussian measures what that costs against SGLD and SGRLD.
//
// Divergences (doc/equations.md §10.8). Every transition, the warm-up's
// included, is judged by its change in potential as in the other samplers.
// In addition, a curvature pair whose segment ran away (its ΔU above the
// divergence threshold) and which proves the step that made it unstable
// (ε·yᵀHy/sᵀy > 2 for the step's preconditioner H) is rejected, so that H
// cannot absorb a blow-up and let the chain relax silently from far out;
// the step then stays unstable, and its divergences are counted until the
// run stops. Pairs of unstable steps that did not run away are kept: H is
// there to repair those.
type HAMCMC struct {
	bg     batchGrad
	d, m   int
	lag    int // M for HAMCMC, 1 for the naïve variant
	gamma  float64
	warm   bool // the first 2M steps are SGLD warm-up
	lb     *lbfgs.Approx
	src    *rng.Normal // the chain's generator, seeded from the constructor's source
	hist   [][]float64 // θ_k at hist[k mod M], k = t−M+1 … t
	t      int         // index of the newest sample
	g0, g1 []float64
	xi     []float64 // H∇Ũ, then the noise
	z      []float64
	next   []float64
	sv, yv []float64
	stats  HAMCMCStats
	div    divTracker
}

var _ Sampler = (*HAMCMC)(nil)

// NewHAMCMC returns a HAMCMC chain over θ with the stochastic gradient grad
// and random source src.
//
// The gradients of each curvature pair are computed on one minibatch when
// grad is a *Minibatch or implements SameBatchGradient; a plain Gradient is
// called afresh for each (see HAMCMCStats.SameBatch).
//
// The chain starts either from theta0, with the first 2M calls to Step
// being SGLD steps θ_t = θ_{t−1} − εγ∇Ũ(θ_{t−1}) + N(0, 2εγI) (the warm-up
// that provides θ_0 … θ_2M; those from t = M+2 on also record their
// curvature pairs, at two extra gradient evaluations each), or from the
// 2M+1 samples in s.Init, with theta0 nil. s may be nil for the defaults.
// src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from.
func NewHAMCMC(grad Gradient, theta0 []float64, src rand.Source, s *HAMCMCSettings) (*HAMCMC, error) {
	if s == nil {
		s = &HAMCMCSettings{}
	}
	if isNil(grad) {
		return nil, errorf(ErrNil, "NewHAMCMC: nil gradient")
	}
	if isNil(src) {
		return nil, errorf(ErrNil, "NewHAMCMC: nil random source")
	}
	temp, err := checkTemperature("NewHAMCMC", s.Temperature)
	if err != nil {
		return nil, err
	}
	grad = temperGradient(grad, temp)
	m := s.M
	if m == 0 {
		m = 2
	}
	if m < 2 {
		return nil, errorf(ErrRange, "NewHAMCMC: M = %d, want ≥ 2", s.M)
	}
	gamma := s.Gamma
	if gamma == 0 {
		gamma = 1
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		return nil, errorf(ErrRange, "NewHAMCMC: Gamma = %v, want finite and > 0", s.Gamma)
	}
	if !(s.Lambda >= 0) || math.IsInf(s.Lambda, 0) {
		return nil, errorf(ErrRange, "NewHAMCMC: Lambda = %v, want finite and ≥ 0", s.Lambda)
	}
	if !(s.MinPairCurvature >= 0) || math.IsInf(s.MinPairCurvature, 0) {
		return nil, errorf(ErrRange, "NewHAMCMC: MinPairCurvature = %v, want finite and ≥ 0", s.MinPairCurvature)
	}
	if !(s.MinCurvature >= 0) || s.MinCurvature >= 1 {
		return nil, errorf(ErrRange, "NewHAMCMC: MinCurvature = %v, want in [0, 1)", s.MinCurvature)
	}
	var d int
	switch {
	case s.Init != nil && theta0 != nil:
		return nil, errorf(ErrRange, "NewHAMCMC: both theta0 and Settings.Init given")
	case s.Init != nil:
		if len(s.Init) != 2*m+1 {
			return nil, errorf(ErrRange, "NewHAMCMC: %d initial samples, want 2M+1 = %d", len(s.Init), 2*m+1)
		}
		d = len(s.Init[0])
		for k, x := range s.Init {
			if err := checkVector("NewHAMCMC", fmt.Sprintf("Init[%d]", k), x, d, anyFinite); err != nil {
				return nil, err
			}
		}
	default:
		d = len(theta0)
		if err := checkVector("NewHAMCMC", "theta0", theta0, -1, anyFinite); err != nil {
			return nil, err
		}
	}
	if d == 0 {
		return nil, errorf(ErrDimension, "NewHAMCMC: empty initial state")
	}
	if err := checkGrad("NewHAMCMC", grad, d); err != nil {
		return nil, err
	}
	// The memory: m past states, L-BFGS's 2(m−1) pair vectors and the
	// step's buffers, about 3m + 12 vectors of d.
	if err := checkMemory("NewHAMCMC", fmt.Sprintf("a memory of M = %d states of dimension %d", m, d), floatBytes(3*m+12, d), 0); err != nil {
		return nil, err
	}
	lb, err := lbfgs.New(d, m-1, gamma, s.Lambda)
	if err != nil {
		return nil, errorf(ErrRange, "NewHAMCMC: %w", err)
	}
	lb.MinCurvature = s.MinCurvature
	lb.MinScaledCurvature = s.MinPairCurvature
	h := &HAMCMC{bg: newBatchGrad(grad), d: d, m: m, div: newDivTracker(d), lag: m, gamma: gamma, lb: lb,
		hist: make([][]float64, m), g0: make([]float64, d), g1: make([]float64, d), xi: make([]float64, d),
		z: make([]float64, d), next: make([]float64, d), sv: make([]float64, d), yv: make([]float64, d)}
	h.src, _ = rng.NewNormalFrom(src) // src is not nil
	if s.Naive {
		h.lag = 1
	}
	h.stats.SameBatch = h.bg.same
	buf := make([]float64, m*d)
	for k := range h.hist {
		h.hist[k] = buf[k*d : (k+1)*d]
	}
	if s.Init == nil {
		h.warm = true
		copy(h.hist[0], theta0)
		return h, nil
	}
	// Pairs τ = M+2 … 2M from the initial samples, each on its own batch.
	for tau := m + 2; tau <= 2*m; tau++ {
		h.bg.newBatch()
		h.bg.grad(h.g1, s.Init[tau])
		h.bg.grad(h.g0, s.Init[tau-h.lag])
		if err := checkFinite(h.g1, tau, "non-finite gradient at an initial sample"); err != nil {
			return nil, errorf(nil, "NewHAMCMC: %w", err)
		}
		if err := checkFinite(h.g0, tau-h.lag, "non-finite gradient at an initial sample"); err != nil {
			return nil, errorf(nil, "NewHAMCMC: %w", err)
		}
		h.offer(0, s.Init[tau], s.Init[tau-h.lag], h.g1, h.g0, false)
	}
	for k := m + 1; k <= 2*m; k++ {
		copy(h.hist[k%m], s.Init[k])
	}
	h.t = 2 * m
	h.stats.PairsInUse = lb.Len()
	return h, nil
}

// Dim returns the dimension of θ.
func (h *HAMCMC) Dim() int { return h.d }

// Divergences returns the number of divergent transitions so far and the
// most recent one (DivergenceCounter). A transition θ_{t−M} → θ_t is judged
// at once, from the two gradients of its curvature pair; a warm-up
// transition θ_{t−1} → θ_t at once from t = M+2 on, and by the next step
// before.
func (h *HAMCMC) Divergences() (int, Divergence) { return h.div.count() }

// M returns the memory size.
func (h *HAMCMC) M() int { return h.m }

// Position returns the newest sample θ_t.
func (h *HAMCMC) Position() []float64 { return h.hist[h.t%h.m] }

// Stats returns the chain's running statistics.
func (h *HAMCMC) Stats() HAMCMCStats { return h.stats }

// virialState returns the virial the divergence tracker accumulates.
func (h *HAMCMC) virialState() *virial { return &h.div.vir }
