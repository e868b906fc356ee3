// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"math"
	"math/rand/v2"

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
	// GradK writes ∇K(z) into dst (length of z), K(z) = H(z) − U(θ) the
	// auxiliary part of the Hamiltonian (kinetic energy, thermostat). Nil
	// means K = 0.
	GradK func(dst, z []float64)
	// D is the diffusion matrix, symmetric positive semidefinite. Required.
	D Diffusion
	// Q is the curl matrix, skew-symmetric. Nil means zero.
	Q Operator
	// Gamma writes Γ(z), Γ_i = Σ_j ∂_j(D_ij + Q_ij), into dst. Nil means
	// Γ = 0, which is correct when D and Q do not depend on z.
	Gamma func(dst, z []float64)
	// NumericGamma computes Γ at every step by central finite differences
	// of D + Q (gonum's diff/fd) instead of Gamma: O(n) operator columns
	// per coordinate, allocating. For prototyping a new recipe.
	NumericGamma bool
	// Simultaneous selects Eq. 9 read literally (explicit Euler): every
	// block from z_t. The default is the sequential sweep of Order.
	Simultaneous bool
	// Order is the sweep's order of blocks: each block is updated by its
	// own rows of Eq. 9 at the latest state, with the step's noise drawn
	// once at z_t. Nil means block 1 (the momentum), then block 0 (θ),
	// then the rest in order — the SGHMC and SGNHT papers' algorithms.
	Order []int
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
	Prepare func(z []float64) error
	// Refresh, if not nil, is called every RefreshEvery steps after the
	// update, e.g. to resample the momentum, with the chain's generator.
	Refresh      func(z []float64, g *rng.Normal)
	RefreshEvery int
	// Naive, when not empty, marks a deliberately incorrect sampler (the
	// papers' foils) and says why; Check reports it.
	Naive string

	// fused, set by the named constructors, describes the sampler's fused
	// step (fused.go), which does the generic step's arithmetic in one pass.
	fused *fusedSpec
}

// Recipe is a sampler built from a RecipeSpec. Every named sampler of the
// package (SGLD, SGHMC, SGNHT, SGRLD, gSGRHMC) is a Recipe.
type Recipe struct {
	spec   RecipeSpec
	d      int   // dim θ
	n      int   // dim z
	off    []int // block offsets
	order  []int
	needG  []bool // block rows need ∇_θ H
	z      []float64
	prev   []float64
	g      []float64 // ∇Ũ(θ)
	gh     []float64 // ∇H(z)
	gam    []float64
	noise  []float64
	incr   []float64
	v, b   []float64
	gen    *rng.Normal // the chain's generator
	fz     *fused      // the fused step, or nil for the generic one
	t      int
	gVer   int // θ version of g, -1 if none
	thVer  int
	gCache []float64 // numeric Γ columns
	div    divTracker
	integ  integrator
	kind   string // constructor, for checkpoints; "" for NewRecipe
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
	if s.Q != nil {
		if rr, c := s.Q.Dims(); rr != r.n || c != r.n {
			return nil, errorf(ErrDimension, "recipe: Q is %d×%d, state has length %d", rr, c, r.n)
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
	nb := len(s.Blocks)
	if s.Order == nil {
		r.order = make([]int, 0, nb)
		if nb > 1 {
			r.order = append(r.order, 1, 0)
			for k := 2; k < nb; k++ {
				r.order = append(r.order, k)
			}
		} else {
			r.order = append(r.order, 0)
		}
	} else {
		if len(s.Order) != nb {
			return nil, errorf(ErrDimension, "recipe: Order has %d blocks, want %d", len(s.Order), nb)
		}
		seen := make([]bool, nb)
		for _, k := range s.Order {
			if k < 0 || k >= nb || seen[k] {
				return nil, errorf(ErrRange, "recipe: Order %v is not a permutation of the blocks", s.Order)
			}
			seen[k] = true
		}
		r.order = append([]int(nil), s.Order...)
	}
	r.needG = make([]bool, nb)
	for k := range nb {
		lo, hi := r.off[k], r.off[k+1]
		r.needG[k] = s.D.NonZero(lo, hi, 0, r.d) || (s.Q != nil && s.Q.NonZero(lo, hi, 0, r.d))
	}
	r.z = append([]float64(nil), s.Z0...)
	r.g = make([]float64, r.d)
	if s.fused == nil || s.Simultaneous || s.NumericGamma || s.Order != nil {
		s.fused = nil
		r.prev = make([]float64, r.n)
		r.gh = make([]float64, r.n)
		r.gam = make([]float64, r.n)
		r.noise = make([]float64, r.n)
		r.incr = make([]float64, r.n)
	}
	if s.NoiseVar != nil || s.EstimateNoise {
		r.v = make([]float64, r.d)
		r.b = make([]float64, r.n)
	}
	if s.NumericGamma {
		r.gCache = make([]float64, r.n)
	}
	r.gen, _ = rng.NewNormalFrom(s.Src) // s.Src is not nil
	// The generator is the chain's whole random state: checkpoints save
	// it as the Recipe's source.
	r.spec.Src = r.gen
	r.div = newDivTracker(r.d)
	if s.fused != nil {
		r.fz = newFused(r, s.fused)
	}
	r.integ = sweep{}
	if s.Simultaneous {
		r.integ = euler{}
	}
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

// State returns the full state z = (θ, r, ξ, …). The slice is the
// sampler's own storage: it may be modified between steps (e.g. to restart
// the momentum), never during one.
func (r *Recipe) State() []float64 { return r.z }

// Generator returns the chain's random number generator, seeded at
// construction from RecipeSpec.Src. It may be read or reseeded between
// steps, never during one. A named sampler of dimension ParallelDim or more
// draws its steps' noise from block generators seeded from it at
// construction, and uses it itself only for momentum resampling.
func (r *Recipe) Generator() *rng.Normal { return r.gen }

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

// Step performs one update of Eq. 9 with step size eps, by the sequential
// sweep or simultaneously as configured. On error the Recipe is left
// exactly as it was, its generator and divergence count included.
func (r *Recipe) Step(eps float64) error {
	step := r.t + 1
	if err := checkStepSize(eps, step); err != nil {
		return err
	}
	if r.fz != nil {
		if err := r.fz.step(eps, step); err != nil {
			return err
		}
		r.t = step
		r.refresh()
		return nil
	}
	genSave := *r.gen
	divSave := r.div.mark()
	copy(r.prev, r.z)
	// Every step draws a fresh stochastic gradient, and the state may have
	// been changed through State between steps.
	r.thVer++
	start := r.thVer
	if err := r.step(eps, step); err != nil {
		copy(r.z, r.prev)
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
	if r.gVer == start { // the step's gradient was at θ_t: judge θ_t → θ_{t+1} next step
		r.div.begin(step, r.prev[:r.d], r.g)
	}
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

// gradH writes ∇H(z) into r.gh; withGrad includes ∇Ũ(θ).
func (r *Recipe) gradH(step int, withGrad bool) error {
	if r.spec.GradK != nil {
		r.spec.GradK(r.gh, r.z)
	} else {
		clear(r.gh)
	}
	if withGrad {
		if err := r.gradTheta(step); err != nil {
			return err
		}
		for i, g := range r.g {
			r.gh[i] += g
		}
	}
	return nil
}

func (r *Recipe) gamma(step int) error {
	switch {
	case r.spec.NumericGamma:
		if err := r.numericGamma(r.gam, r.z); err != nil {
			return errorf(nil, "step %d: %w", step, err)
		}
	case r.spec.Gamma != nil:
		r.spec.Gamma(r.gam, r.z)
	}
	// Otherwise Γ = 0: r.gam was zeroed at construction and is never written.
	return nil
}

// step draws the step's noise at z_t and hands the update to the
// integrator.
func (r *Recipe) step(eps float64, step int) error {
	s := &r.spec
	if err := r.prepare(step); err != nil {
		return err
	}
	var b []float64
	if r.b != nil {
		if s.EstimateNoise {
			if err := r.gradTheta(step); err != nil {
				return err
			}
			s.Grad.(NoiseEstimator).NoiseVar(r.v)
		} else {
			copy(r.v, s.NoiseVar)
		}
		s.NoiseMap(r.b, r.z, r.v)
		b = r.b
	}
	if err := s.D.Noise(r.noise, r.z, eps, b, r.gen); err != nil {
		var pe *NotPSDError
		if errors.As(err, &pe) {
			return &StepError{Step: step, Index: pe.Index, Value: pe.Value, What: notPSDWhat}
		}
		return errorf(nil, "step %d: %w", step, err)
	}
	if err := r.integ.advance(r, eps, step); err != nil {
		return err
	}
	return checkFinite(r.z, step, nonFiniteStateWhat)
}

// An integrator moves z_t to z_{t+1} given the step's noise, drawn at z_t
// into r.noise. The recipe's two orders of block updates are integrators;
// a splitting scheme would be one more.
type integrator interface {
	advance(r *Recipe, eps float64, step int) error
}

// euler is Eq. 9 read literally (explicit Euler): every block of z moves
// from z_t.
type euler struct{}

func (euler) advance(r *Recipe, eps float64, step int) error {
	s := &r.spec
	if err := r.gradH(step, true); err != nil {
		return err
	}
	if err := r.gamma(step); err != nil {
		return err
	}
	copy(r.incr, r.gam)
	s.D.AddMulVec(r.incr, -1, r.gh, r.z, 0, r.n)
	if s.Q != nil {
		s.Q.AddMulVec(r.incr, -1, r.gh, r.z, 0, r.n)
	}
	for i := range r.z {
		r.z[i] += eps*r.incr[i] + r.noise[i]
	}
	r.thVer++
	return r.prepare(step)
}

// sweep is the sequential sweep: the blocks in r.order, each by its own
// rows of Eq. 9 at the latest state (doc/equations.md §4.1).
type sweep struct{}

func (sweep) advance(r *Recipe, eps float64, step int) error {
	s := &r.spec
	for _, k := range r.order {
		lo, hi := r.off[k], r.off[k+1]
		if err := r.gradH(step, r.needG[k]); err != nil {
			return err
		}
		if err := r.gamma(step); err != nil {
			return err
		}
		inc := r.incr[lo:hi]
		copy(inc, r.gam[lo:hi])
		s.D.AddMulVec(r.incr, -1, r.gh, r.z, lo, hi)
		if s.Q != nil {
			s.Q.AddMulVec(r.incr, -1, r.gh, r.z, lo, hi)
		}
		for i := lo; i < hi; i++ {
			r.z[i] += eps*r.incr[i] + r.noise[i]
		}
		if k == 0 {
			r.thVer++
		}
		if err := r.prepare(step); err != nil {
			return err
		}
	}
	return nil
}
