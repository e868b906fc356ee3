// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// RecipeSpec describes a sampler in the complete recipe of Ma, Chen & Fox
// (2015): a state z = (θ, r, ξ, …) with Hamiltonian H(z) = U(θ) + K(z), a
// diffusion D(z), a curl Q(z) and the correction Γ(z). NewRecipe turns it
// into a Sampler performing the update of doc/equations.md §3.1
//
//	z ← z + ε[−(D(z) + Q(z))∇H̃(z) + Γ(z)] + N(0, ε(2D(z) − εB̂)).
type RecipeSpec struct {
	// Blocks are the sizes of the blocks of z; Blocks[0] is dim θ. Nil
	// means one block, θ alone, of size len(Z0).
	Blocks []int
	// Grad is the stochastic gradient ∇Ũ(θ). Required.
	Grad Gradient
	// GradK is ∇K(z), K(z) = H(z) − U(θ) the auxiliary part of the
	// Hamiltonian (kinetic energy, thermostat): a Kinetic, or any Field.
	// Nil means K = 0.
	GradK Field
	// D is the diffusion matrix, symmetric positive semidefinite. Required.
	D Diffusion
	// Q is the curl matrix, skew-symmetric. Nil means zero.
	Q Operator
	// Gamma is Γ(z), Γ_i = Σ_j ∂_j(D_ij + Q_ij): a Vector (kept current by
	// Prepare when D or Q depend on θ), or any Field. Nil means Γ = 0,
	// which is correct when D and Q do not depend on z.
	Gamma Field
	// NumericGamma computes Γ at every step by central finite differences
	// of D + Q (gonum's diff/fd) instead of Gamma: O(n) operator columns
	// per coordinate, allocating. For prototyping a new recipe.
	NumericGamma bool
	// Integrator is the order of the blocks' updates within a step: Euler
	// (Eq. 9 read literally, every block from z_t) or Sweep (each block at
	// the latest state). Nil means Sweep{}, block 1 (the momentum), then
	// block 0 (θ), then the rest — the SGHMC and SGNHT papers' algorithms.
	Integrator Integrator
	// Temperature T makes the target e^{−U(θ)/T}: the gradient is divided
	// by T and NoiseVar (or the estimate) by T² (temperature.go,
	// doc/equations.md §12.1). Zero means 1, the posterior itself, bit for
	// bit; it must be positive and finite.
	Temperature float64
	// Z0 is the initial state (copied). Required.
	Z0 []float64
	// Src seeds the chain's generator: NewRecipe draws two words from it
	// for an rng.Normal, from which every draw of the chain then comes
	// (package rng). Required.
	Src rand.Source
	// NoiseVar is a constant estimate of diag(V), the covariance of the
	// gradient noise in θ-space. Nil means no B̂ correction.
	NoiseVar []float64
	// EstimateNoise takes diag(V̂) from Grad at every step; Grad must
	// implement NoiseEstimator.
	EstimateNoise bool
	// NoiseMap writes the z-space diagonal of B̂ for the θ-space noise
	// variance v at state z: B̂ = A V Aᵀ with A = (D + Q)[:, θ], the way the
	// gradient noise reaches z. Required with NoiseVar or EstimateNoise.
	NoiseMap func(dst, z, v []float64)
	// Prepare, if not nil, is called with the state before D, Q, Γ and ∇K
	// are evaluated at it; state-dependent operators compute and cache what
	// they share there (a metric and its factors). An error stops the step.
	// The fused sweep calls it at z_t and after θ moves, not after the
	// momentum moves: what it keeps for Diagonal or Vector operators must
	// depend on θ alone.
	Prepare func(z []float64) error
	// Refresh, if not nil, is called every RefreshEvery steps after the
	// update, e.g. to resample the momentum, with the chain's generator.
	Refresh      func(z []float64, g *rng.Normal)
	RefreshEvery int
	// Naive, when not empty, marks a deliberately incorrect sampler (the
	// papers' foils) and says why; Check reports it.
	Naive string
}

// Recipe is a sampler built from a RecipeSpec. Every named sampler of the
// package (SGLD, SGHMC, SGNHT, SGRLD, gSGRHMC) is a Recipe.
type Recipe struct {
	spec  RecipeSpec
	d     int   // dim θ
	n     int   // dim z
	off   []int // block offsets
	z     []float64
	g     []float64 // ∇Ũ(θ)
	v, b  []float64
	gen   *rng.Normal // the chain's generator
	st    stepper     // the integrator's step
	t     int
	gVer  int // θ version of g, -1 if none
	thVer int
	div   divTracker
	kind  string // constructor, for checkpoints; "" for NewRecipe
}

var _ Sampler = (*Recipe)(nil)

// NewRecipe validates s and returns the sampler.
func NewRecipe(s RecipeSpec) (*Recipe, error) {
	if isNil(s.Grad) {
		return nil, errorf(ErrNil, "recipe: nil Grad")
	}
	if isNil(s.D) {
		return nil, errorf(ErrNil, "recipe: nil D")
	}
	if s.Q != nil && isNil(s.Q) {
		return nil, errorf(ErrNil, "recipe: Q is a nil %T", s.Q)
	}
	if isNil(s.Src) {
		return nil, errorf(ErrNil, "recipe: nil random source")
	}
	if len(s.Z0) == 0 {
		return nil, errorf(ErrDimension, "recipe: empty initial state")
	}
	if i := firstNonFinite(s.Z0); i >= 0 {
		return nil, errorf(ErrNonFinite, "recipe: initial state not finite at coordinate %d (%v)", i, s.Z0[i])
	}
	temp, err := checkTemperature("recipe", s.Temperature)
	if err != nil {
		return nil, err
	}
	s.Grad = temperGradient(s.Grad, temp)
	if temp != 1 && s.NoiseVar != nil {
		s.NoiseVar = slices.Clone(s.NoiseVar)
		scaleAll(s.NoiseVar, 1/(temp*temp))
	}
	if s.Blocks == nil {
		s.Blocks = []int{len(s.Z0)}
	}
	r := &Recipe{spec: s, off: make([]int, len(s.Blocks)+1), gVer: -1}
	for i, b := range s.Blocks {
		if b <= 0 {
			return nil, errorf(ErrDimension, "recipe: block %d has size %d", i, b)
		}
		r.off[i+1] = r.off[i] + b
	}
	r.n, r.d = r.off[len(s.Blocks)], s.Blocks[0]
	if r.n != len(s.Z0) {
		return nil, errorf(ErrDimension, "recipe: blocks sum to %d, initial state has length %d", r.n, len(s.Z0))
	}
	if err := checkGrad("recipe", s.Grad, r.d); err != nil {
		return nil, err
	}
	if rr, c := s.D.Dims(); rr != r.n || c != r.n {
		return nil, errorf(ErrDimension, "recipe: D is %d×%d, state has length %d", rr, c, r.n)
	}
	if err := checkOperator("D", s.D, true); err != nil {
		return nil, err
	}
	if s.Q != nil {
		if rr, c := s.Q.Dims(); rr != r.n || c != r.n {
			return nil, errorf(ErrDimension, "recipe: Q is %d×%d, state has length %d", rr, c, r.n)
		}
		if err := checkOperator("Q", s.Q, false); err != nil {
			return nil, err
		}
	}
	if s.NoiseVar != nil {
		if len(s.NoiseVar) != r.d {
			return nil, errorf(ErrDimension, "recipe: NoiseVar has length %d, want dim θ = %d", len(s.NoiseVar), r.d)
		}
		for i, v := range s.NoiseVar {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, errorf(ErrNonFinite, "recipe: NoiseVar[%d] = %v, want finite ≥ 0", i, v)
			}
		}
	}
	if blk, ok := s.D.(*Block); ok && !blk.diff {
		return nil, errorf(ErrUnsupported, "recipe: a Block used as D must be block-diagonal with Diffusion diagonal blocks")
	}
	if s.EstimateNoise {
		ne, ok := s.Grad.(NoiseEstimator)
		if ok {
			if err := ne.CanEstimateNoise(); err != nil {
				return nil, errorf(ErrUnsupported, "recipe: EstimateNoise: %w", err)
			}
		}
		if !ok {
			return nil, errorf(ErrUnsupported, "recipe: EstimateNoise needs a Grad that implements NoiseEstimator (e.g. a Minibatch with Noise set)")
		}
	}
	if (s.NoiseVar != nil || s.EstimateNoise) && s.NoiseMap == nil {
		return nil, errorf(ErrUnsupported, "recipe: NoiseVar or EstimateNoise needs a NoiseMap")
	}
	if s.RefreshEvery < 0 || (s.Refresh != nil && s.RefreshEvery == 0) {
		return nil, errorf(ErrRange, "recipe: RefreshEvery = %d, want > 0 with Refresh", s.RefreshEvery)
	}
	r.z = append([]float64(nil), s.Z0...)
	r.g = make([]float64, r.d)
	if s.NoiseVar != nil || s.EstimateNoise {
		r.v = make([]float64, r.d)
		r.b = make([]float64, r.n)
	}
	r.gen, _ = rng.NewNormalFrom(s.Src) // s.Src is not nil
	// The generator is the chain's whole random state: checkpoints save
	// it as the Recipe's source.
	r.spec.Src = r.gen
	r.div = newDivTracker(r.d)
	integ := s.Integrator
	if integ == nil {
		integ = Sweep{}
	} else if isNil(integ) {
		return nil, errorf(ErrNil, "recipe: Integrator is a nil %T", integ)
	}
	st, err := integ.stepper(r)
	if err != nil {
		return nil, err
	}
	r.st = st
	if s.Prepare != nil {
		if err := s.Prepare(r.z); err != nil {
			return nil, errorf(nil, "recipe: at the initial state: %w", err)
		}
	}
	return r, nil
}

// Dim returns dim θ.
func (r *Recipe) Dim() int { return r.d }

// Position returns θ, the first block of the state.
func (r *Recipe) Position() []float64 { return r.z[:r.d] }

// SetPosition sets θ to a copy of theta, leaving the other blocks of the
// state as they are; the next step evaluates the gradient afresh. Replica
// exchange uses it to swap two replicas' positions between steps. theta
// must have length Dim and be finite.
func (r *Recipe) SetPosition(theta []float64) error {
	if len(theta) != r.d {
		return errorf(ErrDimension, "Recipe.SetPosition: len(theta) = %d, want %d", len(theta), r.d)
	}
	if i := firstNonFinite(theta); i >= 0 {
		return errorf(ErrNonFinite, "Recipe.SetPosition: theta[%d] = %v, want finite", i, theta[i])
	}
	copy(r.z[:r.d], theta)
	r.thVer++
	return nil
}

// State returns the full state z = (θ, r, ξ, …). The slice is the
// sampler's own storage: it may be modified between steps (e.g. to restart
// the momentum), never during one.
func (r *Recipe) State() []float64 { return r.z }

// Steps returns the number of completed steps.
func (r *Recipe) Steps() int { return r.t }

// Divergences returns the number of divergent transitions so far and the
// most recent one (DivergenceCounter).
func (r *Recipe) Divergences() (int, Divergence) { return r.div.count() }

// Blocks returns the block sizes of z.
func (r *Recipe) Blocks() []int { return append([]int(nil), r.spec.Blocks...) }

// notPSDWhat and nonFiniteStateWhat describe the failures of a step.
const (
	notPSDWhat         = "2D − εB̂ not positive semidefinite (friction or diffusion too small for the gradient noise, or step too large)"
	nonFiniteStateWhat = "state became non-finite (step size too large?)"
	nonFiniteGradWhat  = "non-finite gradient"
)

// Step performs one update of Eq. 9 with step size eps by the recipe's
// Integrator. On error the Recipe is left exactly as it was, its
// generator, its state and its divergence count included: this is the one
// place where a failed step is undone, whatever the integrator.
func (r *Recipe) Step(eps float64) error {
	step := r.t + 1
	if err := checkStepSize(eps, step); err != nil {
		return err
	}
	genSave := *r.gen
	divSave := r.div.mark()
	if err := r.st.step(r, eps, step); err != nil {
		r.st.undo(r)
		*r.gen = genSave
		r.div.reset(divSave)
		r.thVer++ // the cached gradient may belong to a discarded θ
		if r.spec.Prepare != nil {
			// Prepare succeeded at this state when the step began; a
			// failure now means it is not a function of the state alone.
			if perr := r.spec.Prepare(r.z); perr != nil {
				return errors.Join(err, errorf(nil, "step %d: Prepare fails at the restored state: %w", step, perr))
			}
		}
		return err
	}
	r.t = step
	r.refresh()
	return nil
}

// refresh calls the spec's Refresh when it is due after step r.t.
func (r *Recipe) refresh() {
	if r.spec.Refresh != nil && r.t%r.spec.RefreshEvery == 0 {
		r.spec.Refresh(r.z, r.gen)
	}
}

func (r *Recipe) prepare(step int) error {
	if r.spec.Prepare == nil {
		return nil
	}
	if err := r.spec.Prepare(r.z); err != nil {
		var se *StepError
		if errors.As(err, &se) {
			se.Step = step
			return se
		}
		return errorf(nil, "step %d: %w", step, err)
	}
	return nil
}

// gradTheta makes r.g the gradient at the current θ.
func (r *Recipe) gradTheta(step int) error {
	if r.gVer == r.thVer {
		return nil
	}
	r.spec.Grad.Grad(r.g, r.z[:r.d])
	r.gVer = r.thVer
	if err := checkGradValue(r.spec.Grad, r.g, step); err != nil {
		r.gVer = -1
		return err
	}
	r.div.finish(r.z[:r.d], r.g)
	return nil
}

// noiseMap returns B̂ in z-space at the current state for the step's
// noise, or nil without a B̂ correction. With EstimateNoise it draws the
// step's gradient first, at θ_t.
func (r *Recipe) noiseMap(step int) ([]float64, error) {
	s := &r.spec
	if r.b == nil {
		return nil, nil
	}
	if s.EstimateNoise {
		if err := r.gradTheta(step); err != nil {
			return nil, err
		}
		s.Grad.(NoiseEstimator).NoiseVar(r.v)
	} else {
		copy(r.v, s.NoiseVar)
	}
	s.NoiseMap(r.b, r.z, r.v)
	return r.b, nil
}

// virialState returns the virial the divergence tracker accumulates.
func (r *Recipe) virialState() *virial { return &r.div.vir }
