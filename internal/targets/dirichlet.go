// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"gonum.org/v1/gonum/mathext"
)

// Dirichlet is the Dirichlet(α) distribution of ω on the probability
// simplex of dimension K, and its expanded-mean parameterisation: if
// θ_j ~ Gamma(α_j, 1) independently then ω = θ/Σθ ~ Dirichlet(α). SGRLD and
// SCIR sample θ; ExpandedPotential and ExpandedGrad are its U and ∇U.
// Dirichlet is not a Target: its Grad would not be the gradient of its
// LogProb.
type Dirichlet struct {
	alpha   []float64
	sum     float64
	logNorm float64 // log Γ(α₀) − Σ log Γ(α_j)
	cond    func(j int, x []float64) float64
}

var _ Exact = (*Dirichlet)(nil)

// NewDirichlet returns Dirichlet(alpha); alpha needs at least two
// components, all positive and finite, and is copied.
func NewDirichlet(alpha []float64) (*Dirichlet, error) {
	if len(alpha) < 2 {
		return nil, errors.New("targets: NewDirichlet: need at least two components")
	}
	d := &Dirichlet{alpha: append([]float64(nil), alpha...)}
	for j, a := range alpha {
		if !(a > 0) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("targets: NewDirichlet: alpha[%d] = %v, want positive and finite", j, a)
		}
		d.sum += a
		lg, _ := math.Lgamma(a)
		d.logNorm -= lg
	}
	lg, _ := math.Lgamma(d.sum)
	d.logNorm += lg
	d.cond = diagnostics.DirichletConditionalCDF(d.alpha)
	return d, nil
}

// SparseDirichlet returns the sparse posterior of the synthetic experiment
// of Baker et al. (2018, Appendix E.2),
// Dirichlet(800.1, 100.1, 100.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1).
func SparseDirichlet() *Dirichlet {
	d, _ := NewDirichlet([]float64{800.1, 100.1, 100.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1})
	return d
}

// DenseDirichlet returns the dense posterior of the same experiment,
// Dirichlet(112.1, 119.1, 92.1, 98.1, 95.1, 96.1, 102.1, 92.1, 91.1, 103.1).
func DenseDirichlet() *Dirichlet {
	d, _ := NewDirichlet([]float64{112.1, 119.1, 92.1, 98.1, 95.1, 96.1, 102.1, 92.1, 91.1, 103.1})
	return d
}

// Dim returns K.
func (d *Dirichlet) Dim() int { return len(d.alpha) }

// Alpha returns a copy of α.
func (d *Dirichlet) Alpha() []float64 { return append([]float64(nil), d.alpha...) }

// LogProb returns the log density of ω with respect to Lebesgue measure on
// its first K−1 coordinates: log Γ(α₀) − Σ log Γ(α_j) + Σ (α_j − 1) log ω_j.
// It is −Inf unless every ω_j > 0 and |Σω − 1| ≤ 1e−9.
func (d *Dirichlet) LogProb(w []float64) float64 {
	lp := d.logNorm
	var s float64
	for j, a := range d.alpha {
		if !(w[j] > 0) {
			return math.Inf(-1)
		}
		s += w[j]
		lp += (a - 1) * math.Log(w[j])
	}
	if math.Abs(s-1) > 1e-9 {
		return math.Inf(-1)
	}
	return lp
}

// Mean writes E[ω] = α/α₀ into dst.
func (d *Dirichlet) Mean(dst []float64) {
	for j, a := range d.alpha {
		dst[j] = a / d.sum
	}
}

// MarginalCDF returns the CDF of ω_j ~ Beta(α_j, α₀ − α_j) at x.
func (d *Dirichlet) MarginalCDF(j int, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	return mathext.RegIncBeta(d.alpha[j], d.sum-d.alpha[j], x)
}

// CondCDF is diagnostics.DirichletConditionalCDF(α), for RosenblattKS with
// dims = K − 1.
func (d *Dirichlet) CondCDF(j int, x []float64) float64 { return d.cond(j, x) }

// Draw writes an exact draw of ω into dst: Gamma draws normalised in log
// space, so that components with tiny α (whose Gamma draws underflow) stay
// positive or underflow to zero alone.
func (d *Dirichlet) Draw(dst []float64, rng *rand.Rand) {
	top := math.Inf(-1)
	for j, a := range d.alpha {
		dst[j] = logGammaRand(a, rng)
		top = math.Max(top, dst[j])
	}
	var s float64
	for j, l := range dst[:len(d.alpha)] {
		dst[j] = math.Exp(l - top)
		s += dst[j]
	}
	for j := range d.alpha {
		dst[j] /= s
	}
}

// SampleExpanded writes an exact draw of θ, θ_j ~ Gamma(α_j, 1), into dst.
func (d *Dirichlet) SampleExpanded(dst []float64, rng *rand.Rand) {
	for j, a := range d.alpha {
		dst[j] = math.Exp(logGammaRand(a, rng))
	}
}

// ExpandedPotential returns U(θ) = Σ_j θ_j − (α_j − 1) log θ_j of the
// expanded-mean parameterisation (+Inf unless every θ_j > 0).
func (d *Dirichlet) ExpandedPotential(theta []float64) float64 {
	var u float64
	for j, a := range d.alpha {
		if !(theta[j] > 0) {
			return math.Inf(1)
		}
		u += theta[j] - (a-1)*math.Log(theta[j])
	}
	return u
}

// ExpandedGrad writes ∇U(θ)_j = 1 − (α_j − 1)/θ_j into dst (NaN where
// θ_j ≤ 0).
func (d *Dirichlet) ExpandedGrad(dst, theta []float64) {
	for j, a := range d.alpha {
		if !(theta[j] > 0) {
			dst[j] = math.NaN()
			continue
		}
		dst[j] = 1 - (a-1)/theta[j]
	}
}
