// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

// The splitting integrators (doc/equations.md §4.4–§4.7).
//
// Each splits the momentum dynamics into exact sub-flows: B, the kick
// r ← r − εQ_rθ∇Ũ(θ); A, the drift θ ← θ − εQ_θr∇_rK; O, the exact
// Ornstein–Uhlenbeck solve of the momentum's friction and injected noise;
// and, for the thermostat, D, the move of ξ by the kinetic energy. A step
// takes one stochastic gradient, at θ_t, at its start, as the sweep does:
// the cycle is cut where the two half-kicks of consecutive steps meet, so
// the positions are those of the scheme with its last half-kick's gradient
// reused for the next step's first (the one gradient per step of every
// stochastic-gradient implementation), and the state kept between steps is
// the scheme's at that cut.

// BAOAB is the splitting B A O A B of Leimkuhler & Matthews (2013) for
// SGHMC-type dynamics (θ, a momentum r, constant friction): half-kick,
// half-drift, the exact Ornstein–Uhlenbeck step of the friction, half-drift,
// half-kick. On a Gaussian with exact gradients its position marginal is
// exact at any stable step (ε√λ < 2), and its configurational bias is
// O(ε²) in general (doc/equations.md §4.5). A step takes one gradient: it
// runs B(ε) A(ε/2) O(ε) A(ε/2), the cycle cut after the second drift, so
// that the state's momentum is the one just after O.
//
// It applies to recipes with the fused shape of NewSGHMC (fused_shape.go)
// and no Prepare or Γ: SGHMC with any diagonal mass and friction, and
// gSGRHMC with a constant diagonal metric given as operators. The B̂
// correction takes ε²((1 + a)/2)²B̂ off the O step's noise, a = e^{−εγ}
// the damping over the step. A step runs in one pass over the state,
// allocates nothing, and runs in blocks on every core at large d.
type BAOAB struct{}

// OBABO is the splitting O B A B O (Bussi & Parrinello 2007; the velocity
// Verlet step between two half Ornstein–Uhlenbeck steps) for SGHMC-type
// dynamics. Its position variance on a Gaussian with exact gradients is
// the sweep's without the friction term, 1/(λ(1 − ε²λ/4)); with B̂ = V
// its step with Gaussian gradient noise of covariance V has exactly the
// law of its step with exact gradients (doc/equations.md §4.6). A step
// runs B(ε/2) O(ε) B(ε/2) A(ε), the cycle cut after the drift; the shapes
// it applies to and its guarantees are BAOAB's.
type OBABO struct{}

// BADODAB is the splitting B A D O D A B of Leimkuhler & Shang (2016) for
// the Nosé–Hoover thermostat of SGNHT (the adaptive Langevin thermostat):
// half-kick, half-drift, half a move of ξ by the kinetic energy, the exact
// Ornstein–Uhlenbeck step with friction ξ, the other half-move of ξ,
// half-drift, half-kick (doc/equations.md §4.7). On a Gaussian with exact
// gradients its position marginal is exact at ξ's mean, where the sweep's
// SGNHT comes out short by the factor 1 − εξ/2. A step runs
// B(ε) A(ε/2) D(ε/2) O(ε) D(ε/2) A(ε/2) in two passes over the state
// (the second move of ξ needs the kinetic energy after O). It applies to
// recipes with the fused shape of NewSGNHT and no Prepare.
type BADODAB struct{}

// Kinds of splitting step.
const (
	splitBAOAB = iota + 1
	splitOBABO
	splitBADODAB
)

func (BAOAB) stepper(r *Recipe) (stepper, error)   { return newSplit(r, splitBAOAB, "BAOAB") }
func (OBABO) stepper(r *Recipe) (stepper, error)   { return newSplit(r, splitOBABO, "OBABO") }
func (BADODAB) stepper(r *Recipe) (stepper, error) { return newSplit(r, splitBADODAB, "BADODAB") }

// String returns "BAOAB".
func (BAOAB) String() string { return "BAOAB" }

// String returns "OBABO".
func (OBABO) String() string { return "OBABO" }

// String returns "BADODAB".
func (BADODAB) String() string { return "BADODAB" }

// String returns "Euler".
func (Euler) String() string { return "Euler" }

// String returns "Sweep".
func (Sweep) String() string { return "Sweep" }

// newSplit returns the splitting step of kind on r, or an error if r's
// operators do not have the shape the splitting needs.
func newSplit(r *Recipe, kind int, name string) (stepper, error) {
	f := fusedShape(r)
	nht := kind == splitBADODAB
	switch {
	case f == nil || f.kind != fusedHMC:
		return nil, errorf(ErrUnsupported, "recipe: %s needs θ and a momentum with the operators of NewSGHMC or NewSGNHT (Scalar or Diagonal blocks, a Kinetic)", name)
	case r.spec.Prepare != nil || f.gam != nil:
		return nil, errorf(ErrUnsupported, "recipe: %s needs constant operators (no Prepare, Γ = 0): its sub-flows are exact only then", name)
	case nht && !f.nht:
		return nil, errorf(ErrUnsupported, "recipe: BADODAB needs SGNHT's thermostat ξ (use BAOAB or OBABO for SGHMC)")
	case !nht && f.nht:
		return nil, errorf(ErrUnsupported, "recipe: %s does not move a thermostat (use BADODAB for SGNHT)", name)
	case nht && (f.dd != nil || f.im != nil):
		return nil, errorf(ErrUnsupported, "recipe: BADODAB needs a scalar diffusion and unit mass, as NewSGNHT's")
	}
	s := &splitting{fused: f, scheme: kind}
	f.setBlocks(s)
	return s, nil
}

// ouStep returns the damping a = e^{−εγ} of an Ornstein–Uhlenbeck step of
// length eps with friction rate gamma and diffusion c (dr = −γr dt +
// √(2c) dW), and the variance of the noise it adds, c(1 − a²)/γ (2cε at
// γ = 0).
func ouStep(c, gamma, eps float64) (a, v float64) {
	a = math.Exp(-eps * gamma)
	if gamma == 0 {
		return a, 2 * c * eps
	}
	return a, c * (-math.Expm1(-2*eps*gamma) / gamma)
}

// splitNoise is the O step's noise variance v less the gradient noise
// that the kicks put into the momentum, ε²((1 + a)/2)²b for B̂_rr = b.
func splitNoise(v, a, eps, b float64) float64 {
	h := 0.5 * (1 + a) * eps
	return v - h*h*b
}
