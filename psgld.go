// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// PSGLDSettings configures NewPSGLD. The zero value (or nil) is pSGLD with
// α = 0.99, λ = 1e-5, ḡ = ∇Ũ, and Γ kept (which needs a
// DiagHessianGradient).
type PSGLDSettings struct {
	// Temperature T makes the target π(θ)^{1/T}: the gradient (and the
	// Hessian diagonal, when the gradient gives one) is divided by T, and
	// the accumulator follows the tempered gradient (doc/equations.md
	// §12.1). Zero means 1.
	Temperature float64
	// Alpha is the RMSprop decay α in [0, 1). Zero means 0.99, the value of
	// Li et al. (2016); use Memoryless for α = 0.
	Alpha float64
	// Memoryless sets α = 0: v = ḡ∘ḡ of the current gradient alone, so that
	// G is a function of θ and the kept Γ is exact for every ε (see PSGLD).
	Memoryless bool
	// Lambda is λ > 0, which bounds the preconditioner by 1/λ. Zero means
	// 1e-5, the value of Li et al.; models whose gradients can vanish in
	// some coordinate usually need a larger one.
	Lambda float64
	// N is the number of data items: the mean per-datum gradient is taken
	// as ḡ = ∇Ũ/N. Zero means 1 (ḡ = ∇Ũ, which rescales λ and ε by N).
	N float64
	// DropGamma drops the correction term Γ, as the pSGLD paper does in
	// practice. The sampler is then BIASED: its stationary distribution is
	// not the posterior, by an amount that does not vanish as ε → 0 (it is
	// small only while ε ≫ 1−α, when v hardly depends on the current θ).
	// With DropGamma false, the gradient must implement
	// DiagHessianGradient; with DropGamma true, a gradient that implements
	// it is still asked for the Hessian diagonal, for the stability check
	// of each step (see PSGLD).
	DropGamma bool
	// V0 is the initial RMSprop accumulator v (copied). Nil means zero.
	V0 []float64
	// Freeze keeps v at V0 for the whole chain: G is then constant, Γ = 0
	// exactly, and the sampler is plain SGLD with the diagonal
	// preconditioner G — correct for any ε small enough, with no Hessian
	// needed. This is how sample.Run runs pSGLD: v adapted during warmup, then
	// frozen. Freeze needs V0.
	Freeze bool
}

// PSGLD is preconditioned SGLD (Li, Chen, Carlson & Carin 2016; doc/equations.md
// §11) with an RMSprop diagonal preconditioner. At each step, with
// ḡ = ∇Ũ(θ)/N standing for the mean per-datum log-likelihood gradient
// (up to sign, which v ignores, and the prior's share ∇log p(θ)/N):
//
//	v ← α v + (1−α) ḡ∘ḡ,   G = diag(1/(λ + √v)),
//	θ ← θ − ε G ∇Ũ(θ) + ε Γ(θ) + N(0, 2ε G).
//
// The correction term. As ε → 0 the running average v tracks ḡ(θ)²: it
// averages about 1/(1−α) steps, which span a vanishing stretch of the
// diffusion's time, so the chain's limit is the diffusion with the
// position-dependent diagonal metric G(θ) = diag(1/(λ + |ḡ(θ)|)), whose
// recipe correction is Γ_i = ∂G_ii/∂θ_i. pSGLD evaluates it with the
// running v in place of ḡ²:
//
//	Γ_i = −G_ii² · ḡ_i (∂ḡ_i/∂θ_i) / √v_i,   ∂ḡ_i/∂θ_i = (∇²Ũ)_ii / N
//
// (0 where v_i = 0). It needs the diagonal of the Hessian, which the
// gradient supplies through DiagHessianGradient. With α = 0 (Memoryless) G
// is exactly that function of θ and Γ its exact correction; with α > 0 the
// sampler is consistent as ε/(1−α) → 0. All of this holds for exact
// gradients: with minibatch gradients G is built from the same noisy
// gradient it multiplies, which biases pSGLD by an amount that does not
// shrink with ε (measured: +27 % in E θ² on a correlated Gaussian with unit
// gradient noise at α = 0, +12 % at α = 0.5) — a property of the method. Dropping Γ instead targets
// p(θ)·Π_i(λ + |ḡ_i(θ)|): for a standard normal and λ = 1, a variance of
// 1.44 instead of 1, whatever ε.
//
// Two other readings were tested and rejected. Li et al.'s own Γ treats
// v_{t−1} as a constant of the step, which leaves the factor (1−α) in Γ:
// exact only at α = 0, it keeps most of the bias of dropping Γ for α > 0
// (variance 1.24 at α = 0.5, 1.41 at α = 0.9 on the example above, as
// ε → 0). Updating v only after the step, so that G does not depend on
// the current θ and "Γ = 0", has the same ε → 0 limit as dropping Γ: the
// lagged v tracks ḡ(θ)² just as closely. When ε is not small compared with
// 1−α, v averages over a long stretch of the chain, G is nearly constant,
// and the Γ above over-corrects (variance 0.65 at α = 0.99, ε = 0.05):
// keep ε/(1−α) small, or use α = 0.
//
// Divergences (doc/equations.md §11.4). A transition counts as divergent
// if its change in potential exceeds the threshold, as in the other
// samplers, or if the step that made it was unstable: ε·G_ii·(∇²Ũ)_ii > 2
// for some i, judged whenever the Hessian diagonal is at hand (Γ kept, or a
// DiagHessianGradient with DropGamma; not with Freeze, whose constant G
// makes an unstable step run away geometrically, which ΔU catches). The
// second test is needed because G adapts to the chain's own spread: with a
// step too large, the chain does not run away but settles at several times
// the posterior's scale, where each transition changes U by a few nats
// (on N(0, 1), memoryless with λ = 1: sd 2.0 at ε = 2.5, 5.3 at ε = 10,
// unstable near the mode). A chain that settles where its step is stable
// (α = 0.99, ε = 2.5: εGh ≈ 1.0–1.3, sd 1.5–2.0) has the Euler bias of a
// large step, which SGLD shares and no sampler counts. The first steps
// from v = 0 have G = 1/λ, unstable for any ε > 2λ/h: pass V0.
//
// Why PSGLD is a kernel of its own rather than a Recipe: a Recipe's D, Q
// and Γ are functions of the state z, evaluated by its Integrator; pSGLD's
// D = G is a function of the accumulator v, which the step updates from
// the gradient it has just drawn (not by Eq. 9), and its Γ needs the
// Hessian diagonal from the same gradient call. Its one pass over θ does
// what the fused sweep does (noise a block of normals at a time, drift,
// update, divergence judgement, block-parallel from 65,536 coordinates,
// the same undo of a failed step) with v updated in the same pass. With
// Freeze, v is constant and the step is SGLD's with D = G.
type PSGLD struct {
	grad  Gradient
	hg    DiagHessianGradient // non-nil if the Hessian diagonal is computed
	d     int
	alpha float64
	lam   float64
	invN  float64
	keep  bool
	src   *rng.Normal // the chain's generator, seeded from the constructor's source
	blk   blockSet
	parts []psgldPart
	eps   float64 // of the step in progress
	theta []float64
	v     []float64
	g, h  []float64
	next  []float64
	vnext []float64
	t     int
	froz  bool
	div   divTracker
}

var _ Sampler = (*PSGLD)(nil)

// NewPSGLD returns a pSGLD chain started at theta0 (copied), with v = 0.
// src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from. s may be nil for
// the defaults.
func NewPSGLD(grad Gradient, theta0 []float64, src rand.Source, s *PSGLDSettings) (*PSGLD, error) {
	if s == nil {
		s = &PSGLDSettings{}
	}
	if err := checkStart("NewPSGLD", grad, theta0, src); err != nil {
		return nil, err
	}
	temp, err := checkTemperature("NewPSGLD", s.Temperature)
	if err != nil {
		return nil, err
	}
	grad = temperGradient(grad, temp)
	d := len(theta0)
	alpha := s.Alpha
	switch {
	case s.Memoryless && alpha != 0:
		return nil, errorf(ErrRange, "NewPSGLD: Memoryless with Alpha = %v", alpha)
	case s.Memoryless:
	case alpha == 0:
		alpha = 0.99
	case !(alpha > 0 && alpha < 1):
		return nil, errorf(ErrRange, "NewPSGLD: Alpha = %v, want in [0, 1)", alpha)
	}
	lam := s.Lambda
	if lam == 0 {
		lam = 1e-5
	}
	if err := checkScalar("NewPSGLD", "Lambda", lam); err != nil {
		return nil, err
	}
	n := s.N
	if n == 0 {
		n = 1
	}
	if err := checkScalar("NewPSGLD", "N", n); err != nil {
		return nil, err
	}
	p := &PSGLD{grad: grad, d: d, alpha: alpha, lam: lam, invN: 1 / n, keep: !s.DropGamma && !s.Freeze,
		theta: append([]float64(nil), theta0...), v: make([]float64, d),
		g: make([]float64, d), h: make([]float64, d), next: make([]float64, d), vnext: make([]float64, d),
		froz: s.Freeze, div: newDivTracker(d)}
	if s.V0 != nil {
		if err := checkVector("NewPSGLD", "V0", s.V0, d, nonNegative); err != nil {
			return nil, err
		}
		copy(p.v, s.V0)
	} else if s.Freeze {
		return nil, errorf(ErrUnsupported, "NewPSGLD: Freeze needs V0, the accumulator to freeze")
	}
	p.src, _ = rng.NewNormalFrom(src) // src is not nil
	p.blk = newBlockSet(p, p.src, d)
	p.parts = make([]psgldPart, p.blk.nb)
	hg, ok := grad.(DiagHessianGradient)
	if p.keep && !ok {
		return nil, errorf(ErrUnsupported, "NewPSGLD: keeping Γ needs a gradient that implements DiagHessianGradient; set DropGamma for the (biased) pSGLD of the paper's experiments")
	}
	if ok && !p.froz {
		p.hg = hg // for Γ and for the stability check
	}
	return p, nil
}

// Dim returns the dimension of θ.
func (p *PSGLD) Dim() int { return p.d }

// Divergences returns the number of divergent transitions so far and the
// most recent one (DivergenceCounter).
func (p *PSGLD) Divergences() (int, Divergence) { return p.div.count() }

// Accumulator writes the RMSprop accumulator v into dst.
func (p *PSGLD) Accumulator(dst []float64) { copy(dst, p.v) }

// Position returns the current θ.
func (p *PSGLD) Position() []float64 { return p.theta }

// Steps returns the number of completed steps.
func (p *PSGLD) Steps() int { return p.t }

// Precond writes the diagonal of the preconditioner G = diag(1/(λ + √v))
// of the last step into dst.
func (p *PSGLD) Precond(dst []float64) {
	for i, v := range p.v {
		dst[i] = 1 / (p.lam + math.Sqrt(v))
	}
}

// virialState returns the virial the divergence tracker accumulates.
func (p *PSGLD) virialState() *virial { return &p.div.vir }
