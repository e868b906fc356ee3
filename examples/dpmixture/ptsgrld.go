// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ptSGRLD is SGRLD for the simplex in Patterson & Teh's (2013) own form,
// the baseline of the SCIR paper's experiments, kept here for comparison
// with the library's sgmcmc.SGRLDSimplex. Both use the expanded-mean
// parameterisation ω = |θ|/Σ|θ| with mirrored Gamma priors and the metric
// G(θ) = diag(1/θ), and both have the same Dirichlet ω-marginal in
// continuous time; they differ in where the likelihood is written.
// SGRLDSimplex targets θ_j ~ Gamma(a_j + c_j) (the counts c on θ),
//
//	θ_j ← |θ_j + h(a_j + ĉ_j − θ_j) + sqrt(2hθ_j) η_j|,
//
// while Patterson & Teh keep θ ~ Gamma(a) and put the multinomial
// likelihood on ω (their Eq. 11, with their ε/2 = h):
//
//	θ_j ← |θ_j + h(a_j + ĉ_j − n̂ ω_j − θ_j) + sqrt(2hθ_j) η_j|,
//
// with n̂ = Σ_j ĉ_j the block's estimated number of observations. The total
// Σθ then stays near Σa instead of growing with the data, so the rarely
// visited coordinates sit much closer to the boundary, where the Euler step
// is biased. The shape passed to StepShape is â = a + ĉ, as for the library
// samplers, and prior holds a (read at every step, so the chain may change
// it, as it does for the sticks' α).
type ptSGRLD struct {
	block      int
	prior      []float64
	rng        *rand.Rand
	theta, pos []float64
}

func newPTSGRLD(theta0 []float64, block int, prior []float64, src rand.Source) *ptSGRLD {
	p := &ptSGRLD{block: block, prior: prior, rng: rand.New(src),
		theta: append([]float64(nil), theta0...), pos: make([]float64, len(theta0))}
	p.normalize()
	return p
}

func (p *ptSGRLD) normalize() {
	for lo := 0; lo < len(p.theta); lo += p.block {
		var sum float64
		for _, v := range p.theta[lo : lo+p.block] {
			sum += v
		}
		for j := lo; j < lo+p.block; j++ {
			p.pos[j] = p.theta[j] / sum
		}
	}
}

// Position returns ω, each block normalised.
func (p *ptSGRLD) Position() []float64 { return p.pos }

// StepShape takes one step with the shape estimate â = a + ĉ.
func (p *ptSGRLD) StepShape(h float64, ahat []float64) error {
	s2h := math.Sqrt(2 * h)
	for lo := 0; lo < len(p.theta); lo += p.block {
		var n float64
		for j := lo; j < lo+p.block; j++ {
			n += ahat[j] - p.prior[j]
		}
		var sum float64
		for j := lo; j < lo+p.block; j++ {
			th := p.theta[j]
			v := math.Abs(th + h*(ahat[j]-th-n*p.pos[j]) + s2h*math.Sqrt(th)*p.rng.NormFloat64())
			p.theta[j] = v
			sum += v
		}
		if !(sum > 0) || math.IsInf(sum, 1) {
			return fmt.Errorf("SGRLD-PT: sum of θ over the block at %d is %v", lo, sum)
		}
	}
	p.normalize()
	return nil
}
