// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

// A Field is a vector field on the state z of a recipe: the correction
// Γ(z) or the gradient ∇K(z) of the auxiliary energy. Like the operators
// D and Q, a Field says what it is through its type: NewRecipe recognises
// Vector and Kinetic (with scalar or diagonal D and Q) and then takes the
// fused sweep (doc/equations.md §4.1), and runs any other Field through the
// generic one.
type Field interface {
	// At writes the field at z into dst; both have the length of z.
	At(dst, z []float64)
}

// Vector is a Field whose value is held in the slice itself, of the
// state's length: constant, or kept current by the recipe's Prepare (the
// correction Γ of a metric, recomputed at each new θ). A Vector that
// Prepare updates must depend on θ alone.
type Vector []float64

// At copies v into dst.
func (v Vector) At(dst, _ []float64) { copy(dst, v) }

// Kinetic is the gradient of the quadratic kinetic energy of a state
// z = (θ, r) or, with a thermostat, z = (θ, r, ξ) with dim r = dim θ = d:
//
//	K(z) = ½ rᵀ diag(InvMass) r  [+ (d/2)(ξ − A)²],
//	∇K(z) = (0, InvMass ∘ r  [, d(ξ − A)]).
//
// The thermostat term is SGNHT's (Ding et al. 2014): its stationary ξ is
// A. Kinetic is recognised by NewRecipe for the fused sweep.
type Kinetic struct {
	// InvMass is the diagonal of M⁻¹. Nil means the identity.
	InvMass []float64
	// Thermostat adds ξ, the last coordinate of z, with mean A.
	Thermostat bool
	A          float64
}

// At writes ∇K(z) into dst.
func (k Kinetic) At(dst, z []float64) {
	d := len(z) / 2 // len(z) is 2d, or 2d + 1 with the thermostat
	clear(dst[:d])
	if k.InvMass == nil {
		copy(dst[d:2*d], z[d:2*d])
	} else {
		for i, r := range z[d : 2*d] {
			dst[d+i] = r * k.InvMass[i]
		}
	}
	if k.Thermostat {
		dst[2*d] = float64(d) * (z[2*d] - k.A)
	}
}
