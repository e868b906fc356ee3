// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/internal/testmat"
)

// healthyDim is the dimension of the healthy runs' targets.
const healthyDim = 10

// healthyGauss is the exact gradient of the Gaussian N(0, P⁻¹), with the
// diagonal of its Hessian P for pSGLD.
type healthyGauss struct{ p []float64 } // row-major P

func (g healthyGauss) Grad(dst, th []float64) {
	for i := range dst {
		var s float64
		for j, x := range th {
			s += g.p[i*healthyDim+j] * x
		}
		dst[i] = s
	}
}

func (g healthyGauss) GradDiagHessian(dst, h, th []float64) {
	g.Grad(dst, th)
	for i := range h {
		h[i] = g.p[i*healthyDim+i]
	}
}

// healthyLocation is a location model whose posterior is a
// well-conditioned Gaussian: θ ~ N(0, I), x_k | θ ~ N(θ, diag(σ²)) for N
// items, with σ_i² = N/(p_i − 1), so that the posterior precision is
// diag(p), p_i from 1.5 to 4.
type healthyLocation struct {
	x   [][]float64
	iv2 []float64 // 1/σ_i²
}

func newHealthyLocation(n int, seed uint64) *healthyLocation {
	rng := rand.New(rand.NewPCG(seed, 3))
	m := &healthyLocation{x: make([][]float64, n), iv2: make([]float64, healthyDim)}
	for i := range m.iv2 {
		p := 1.5 + 2.5*float64(i)/(healthyDim-1)
		m.iv2[i] = (p - 1) / float64(n)
	}
	for k := range m.x {
		m.x[k] = make([]float64, healthyDim)
		for i := range m.x[k] {
			m.x[k][i] = rng.NormFloat64() / math.Sqrt(m.iv2[i])
		}
	}
	return m
}

func (m *healthyLocation) Dim() int { return healthyDim }
func (m *healthyLocation) Len() int { return len(m.x) }
func (m *healthyLocation) LogPriorGrad(dst, th []float64) {
	for i, t := range th {
		dst[i] -= t
	}
}
func (m *healthyLocation) LogLikGrad(dst, th []float64, k int, scale float64) {
	for i, t := range th {
		dst[i] += scale * (m.x[k][i] - t) * m.iv2[i]
	}
}

// TestHealthyLongRuns: 10⁶ steps of every sampler of the package on a
// well-conditioned 10-dimensional Gaussian (precision eigenvalues in
// [1, 4]), at a step stable for its largest curvature, count no divergence
// and end without error — with the exact gradient, and for SGLD, SGHMC and
// HAMCMC also with a minibatch gradient (10 of 100 items). SCIR, which has
// no divergence counter, runs on a 10-dimensional product of gammas. The
// second moments are checked loosely (within a factor 2), only to show
// that the chains are the healthy ones the test assumes. The whole test
// takes 10 to 15 s on two cores.
func TestHealthyLongRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("10⁶ steps per sampler")
	}
	t.Parallel()
	const steps = 1000000
	prec := testmat.RandSPD(rand.New(rand.NewPCG(21, 21)), healthyDim, 1, 4)
	g := healthyGauss{p: make([]float64, healthyDim*healthyDim)}
	cov := make([]float64, healthyDim)
	var c mat.Dense
	if err := c.Inverse(prec); err != nil {
		t.Fatal(err)
	}
	for i := range healthyDim {
		for j := range healthyDim {
			g.p[i*healthyDim+j] = prec.At(i, j)
		}
		cov[i] = c.At(i, i)
	}
	loc := newHealthyLocation(100, 22)
	locM2 := make([]float64, healthyDim) // posterior E θ_i² = 1/p_i + m_i²
	for i := range locM2 {
		p := 1 + loc.iv2[i]*float64(loc.Len())
		var sx float64
		for _, x := range loc.x {
			sx += x[i]
		}
		m := loc.iv2[i] * sx / p
		locM2[i] = 1/p + m*m
	}
	mb := func(seed uint64) Gradient {
		b, err := NewMinibatch(loc, 10, false, rand.NewPCG(seed, 7))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	start := func(seed uint64) []float64 {
		rng := rand.New(rand.NewPCG(seed, 9))
		x := make([]float64, healthyDim)
		for i := range x {
			x[i] = 0.5 * rng.NormFloat64()
		}
		return x
	}
	diagP := make([]float64, healthyDim)
	for i := range diagP {
		diagP[i] = g.p[i*healthyDim+i]
	}
	shape := make([]float64, healthyDim)
	for i := range shape {
		shape[i] = 1.5 + 0.5*float64(i)
	}
	type run struct {
		name string
		eps  float64
		want []float64 // E θ_i² (E θ_i for SCIR), for the loose check
		make func() (Sampler, error)
	}
	src := func(seed uint64) rand.Source { return rand.NewPCG(seed, 1) }
	runs := []run{
		{"SGLD", 0.1, cov, func() (Sampler, error) { return NewSGLD(g, start(1), src(1), nil) }},
		{"SGHMC", 0.1, cov, func() (Sampler, error) { return NewSGHMC(g, start(2), src(2), nil) }},
		{"SGNHT", 0.05, cov, func() (Sampler, error) { return NewSGNHT(g, start(3), src(3), nil) }},
		{"SGRLD", 0.1, cov, func() (Sampler, error) { return NewSGRLD(g, start(4), unitMetric, src(4), nil) }},
		{"gSGRHMC", 0.1, cov, func() (Sampler, error) { return NewSGRHMC(g, start(5), unitMetric, src(5), nil) }},
		// Default pSGLD (α = 0.99), v started at its equilibrium E ḡ∘ḡ =
		// diag(P) rather than 0, whose first steps are unstable (G = 1/λ).
		// No moment check: at ε/(1 − α) = 5 its Γ over-corrects (PSGLD),
		// its variance about 0.4 of the posterior's, which Run's
		// temperature test reports (below).
		{"pSGLD", 0.05, nil, func() (Sampler, error) {
			return NewPSGLD(g, start(6), src(6), &PSGLDSettings{V0: diagP})
		}},
		{"pSGLD frozen", 0.1, cov, func() (Sampler, error) {
			return NewPSGLD(g, start(15), src(15), &PSGLDSettings{V0: diagP, Freeze: true})
		}},
		{"pSGLD memoryless", 0.1, cov, func() (Sampler, error) {
			return NewPSGLD(g, start(7), src(7), &PSGLDSettings{Memoryless: true, Lambda: 1})
		}},
		{"HAMCMC", 0.05, cov, func() (Sampler, error) { return NewHAMCMC(g, start(8), src(8), nil) }},
		{"HAMCMC M = 5", 0.05, cov, func() (Sampler, error) { return NewHAMCMC(g, start(9), src(9), &HAMCMCSettings{M: 5}) }},
		{"Recipe", 0.1, cov, func() (Sampler, error) {
			return NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: healthyDim, C: 0.8}, Z0: start(10), Src: src(10), Integrator: Euler{}})
		}},
		{"SGLD minibatch", 0.05, locM2, func() (Sampler, error) { return NewSGLD(mb(11), start(11), src(11), nil) }},
		{"SGHMC minibatch", 0.05, locM2, func() (Sampler, error) { return NewSGHMC(mb(12), start(12), src(12), nil) }},
		{"HAMCMC minibatch", 0.05, locM2, func() (Sampler, error) { return NewHAMCMC(mb(13), start(13), src(13), nil) }},
		{"SCIR", 0.5, shape, func() (Sampler, error) { return NewSCIR(FixedShape(shape), shape, src(14), nil) }},
	}
	for _, r := range runs {
		s, err := r.make()
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		begin := time.Now()
		c, err := Run(context.Background(), s, RunOptions{Draws: steps / 100, Thin: 100, Schedule: Constant(r.eps), MaxDivergences: -1})
		el := time.Since(begin)
		if r.name == "pSGLD" {
			if !errors.Is(err, ErrTemperature) {
				t.Errorf("pSGLD with its Γ over-correcting: err = %v, want ErrTemperature", err)
			}
			err = nil
		}
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		n, last := 0, Divergence{}
		if dc, ok := s.(DivergenceCounter); ok {
			n, last = dc.Divergences()
		} else if r.name != "SCIR" {
			t.Errorf("%s: no divergence counter", r.name)
		}
		t.Logf("%-17s ε = %-4g %v for %d steps, %d divergences", r.name, r.eps, el.Round(time.Millisecond), c.Steps, n)
		if n != 0 || c.Divergences != 0 {
			t.Errorf("%s: %d divergences in %d healthy steps (last %+v)", r.name, n, steps, last)
		}
		for i, w := range r.want {
			var m float64
			for k := range c.Len() {
				x := c.At(k)[i]
				if r.name != "SCIR" {
					x *= x
				}
				m += x / float64(c.Len())
			}
			if !(m > w/2 && m < 2*w) {
				t.Errorf("%s: coordinate %d: %.3g, want about %.3g: not the healthy chain the test assumes", r.name, i, m, w)
			}
		}
	}
}
