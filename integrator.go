// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"slices"
)

// An Integrator is the order in which a Recipe applies the update of
// doc/equations.md §3.1 (Eq. 9 of Ma, Chen & Fox 2015) to the blocks of
// the state within one step. Every Integrator draws the step's noise once,
// at z_t; they differ in the state at which each block's drift is
// evaluated. The package's integrators are Euler and Sweep.
//
// Whatever the integrator, a failed step leaves the Recipe exactly as it
// was (Recipe.Step), and the divergence rule of doc/equations.md §12 judges
// every transition.
type Integrator interface {
	// stepper returns the step of the integrator for r, whose state and
	// operators are set.
	stepper(r *Recipe) (stepper, error)
}

// Euler is Eq. 9 read literally, the explicit Euler step the recipe paper
// displays: every block of z moves from z_t. For momentum samplers it is
// far less accurate than Sweep on stiff targets (doc/equations.md §4.2).
type Euler struct{}

// Sweep is the sequential sweep of doc/equations.md §4.1: the blocks of z
// in Order, each by its own rows of Eq. 9 at the latest state, with the
// step's noise drawn once at z_t. It is the default integrator and the
// algorithm of the SGHMC and SGNHT papers.
//
// When the recipe's operators have the structure of the named samplers —
// D and Q made of Scalar and Diagonal blocks with the canonical symplectic
// coupling of θ and a momentum, Γ a Vector, ∇K a Kinetic — and Order is the
// default, NewRecipe runs the sweep as one fused pass over the state
// (fused.go) that gives the same bits and, from parallelDim coordinates
// on, runs in blocks on every core.
type Sweep struct {
	// Order is the order of the blocks. Nil means block 1 (the momentum),
	// then block 0 (θ), then the rest in order.
	Order []int
}

// A stepper performs one integrator's steps for one Recipe.
type stepper interface {
	// step moves r.z from z_t to z_{t+1}, drawing from r.gen, and keeps the
	// divergence tracker. On error, undo is called next.
	step(r *Recipe, eps float64, step int) error
	// undo puts back the state and the stepper's own random state as they
	// were before the failed step.
	undo(r *Recipe)
}

func (Euler) stepper(r *Recipe) (stepper, error) { return newGeneric(r, nil), nil }

func (s Sweep) stepper(r *Recipe) (stepper, error) {
	nb := len(r.spec.Blocks)
	def := defaultOrder(nb)
	if s.Order == nil || slices.Equal(s.Order, def) {
		if f := newFused(r); f != nil {
			return f, nil
		}
		return newGeneric(r, def), nil
	}
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
	return newGeneric(r, slices.Clone(s.Order)), nil
}

// defaultOrder is the sweep's default order of nb blocks: 1, 0, 2, 3, ….
func defaultOrder(nb int) []int {
	if nb == 1 {
		return []int{0}
	}
	o := []int{1, 0}
	for k := 2; k < nb; k++ {
		o = append(o, k)
	}
	return o
}

// generic is the step of any recipe through its operators' interfaces:
// Euler when order is nil, the sweep in order otherwise.
type generic struct {
	order []int
	needG []bool    // block rows need ∇_θ H
	prev  []float64 // z_t, for undo and the divergence tracker
	gh    []float64 // ∇H(z)
	gam   []float64 // Γ(z)
	noise []float64
	incr  []float64
}

func newGeneric(r *Recipe, order []int) *generic {
	s := &r.spec
	nb := len(s.Blocks)
	g := &generic{order: order, needG: make([]bool, nb)}
	for k := range nb {
		lo, hi := r.off[k], r.off[k+1]
		g.needG[k] = s.D.NonZero(lo, hi, 0, r.d) || (s.Q != nil && s.Q.NonZero(lo, hi, 0, r.d))
	}
	v := func() []float64 { return make([]float64, r.n) }
	g.prev, g.gh, g.gam, g.noise, g.incr = v(), v(), v(), v(), v()
	return g
}

func (g *generic) undo(r *Recipe) { copy(r.z, g.prev) }

func (g *generic) step(r *Recipe, eps float64, step int) error {
	copy(g.prev, r.z)
	// Every step draws a fresh stochastic gradient, and the state may have
	// been changed through State between steps.
	r.thVer++
	start := r.thVer
	if err := g.advance(r, eps, step); err != nil {
		return err
	}
	if r.gVer == start { // the step's gradient was at θ_t: judge θ_t → θ_{t+1} next step
		r.div.begin(step, g.prev[:r.d], r.g)
	}
	return nil
}

// advance draws the step's noise at z_t and moves the blocks.
func (g *generic) advance(r *Recipe, eps float64, step int) error {
	s := &r.spec
	if err := r.prepare(step); err != nil {
		return err
	}
	b, err := r.noiseMap(step)
	if err != nil {
		return err
	}
	if err := s.D.Noise(g.noise, r.z, eps, b, r.gen); err != nil {
		var pe *NotPSDError
		if errors.As(err, &pe) {
			return &StepError{Step: step, Index: pe.Index, Value: pe.Value, What: notPSDWhat}
		}
		return errorf(nil, "step %d: %w", step, err)
	}
	if g.order == nil {
		if err := g.move(r, eps, step, 0, r.n, true); err != nil {
			return err
		}
	} else {
		for _, k := range g.order {
			if err := g.move(r, eps, step, r.off[k], r.off[k+1], g.needG[k]); err != nil {
				return err
			}
		}
	}
	return checkFinite(r.z, step, nonFiniteStateWhat)
}

// move updates z[lo:hi] by its rows of Eq. 9 at the current state:
// z ← z + ε[Γ − (D + Q)∇H] + noise; withGrad includes ∇Ũ(θ) in ∇H.
func (g *generic) move(r *Recipe, eps float64, step, lo, hi int, withGrad bool) error {
	s := &r.spec
	if s.GradK != nil {
		s.GradK.At(g.gh, r.z)
	} else {
		clear(g.gh)
	}
	if withGrad {
		if err := r.gradTheta(step); err != nil {
			return err
		}
		for i, v := range r.g {
			g.gh[i] += v
		}
	}
	switch {
	case s.NumericGamma:
		if err := r.numericGamma(g.gam, r.z); err != nil {
			return errorf(nil, "step %d: %w", step, err)
		}
	case s.Gamma != nil:
		s.Gamma.At(g.gam, r.z)
	}
	// Otherwise Γ = 0: g.gam was zeroed at construction and is never written.
	inc := g.incr[lo:hi]
	copy(inc, g.gam[lo:hi])
	s.D.AddMulVec(g.incr, -1, g.gh, r.z, lo, hi)
	if s.Q != nil {
		s.Q.AddMulVec(g.incr, -1, g.gh, r.z, lo, hi)
	}
	for i := lo; i < hi; i++ {
		r.z[i] += eps*g.incr[i] + g.noise[i]
	}
	if lo < r.d {
		r.thVer++
	}
	return r.prepare(step)
}
