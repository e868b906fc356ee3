// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// gaussNoiseGrad is the gradient λθ of N(0, 1/λ) with Gaussian noise of
// variance v added to every coordinate, drawn from its own stream.
func gaussNoiseGrad(lam, v float64, seed uint64) sgmcmc.GradFunc {
	rnd := rand.New(rand.NewPCG(seed, 99))
	sd := math.Sqrt(v)
	return func(dst, th []float64) {
		for i, x := range th {
			dst[i] = lam * x
			if sd > 0 {
				dst[i] += sd * rnd.NormFloat64()
			}
		}
	}
}

// relVar runs s for burn+steps steps of eps and returns the mean over the
// kept steps of λ·mean_i θ_i² (1 is the truth) with its Monte Carlo
// standard error.
func relVar(t *testing.T, s sgmcmc.Sampler, eps, lam float64, burn, steps int) (float64, float64) {
	t.Helper()
	for range burn {
		if err := s.Step(eps); err != nil {
			t.Fatal(err)
		}
	}
	y := make([]float64, steps)
	for k := range y {
		if err := s.Step(eps); err != nil {
			t.Fatal(err)
		}
		var a float64
		for _, x := range s.Position() {
			a += x * x
		}
		y[k] = a / float64(s.Dim()) * lam
	}
	return vMeanSE(t, y)
}

// TestSplitGaussianLyapunov: on N(0, 1/λ) with friction C = 1, BAOAB's
// and OBABO's stationary position variance at ε√λ ∈ {0.3, 1, 1.5}, with
// exact gradients, with Gaussian gradient noise of variance V = 1, and
// with that noise and B̂ = V, against the closed forms of
// doc/equations.md §4.5–§4.6 (solutions of the discrete Lyapunov
// equation), within 4 Monte Carlo standard errors. BAOAB with exact
// gradients is also run at ε√λ = 1.9, near its stability edge, where its
// position variance is still the truth.
func TestSplitGaussianLyapunov(t *testing.T) {
	t.Parallel()
	const lam, C, V, d = 1.0, 1.0, 1.0, 20
	steps := 100_000
	if testing.Short() {
		steps = 25_000
	}
	baoab := func(eps, v, b float64) float64 {
		a := math.Exp(-eps * C)
		return 1 + eps*eps*(1+a)*(v-(1-eps*eps*lam/4)*b)/((1-a)*(4-eps*eps*lam))
	}
	obabo := func(eps, v, b float64) float64 {
		a := math.Exp(-eps * C)
		return (1 + eps*eps*(1+a)*(v-b)/(4*(1-a))) * 4 / (4 - eps*eps*lam)
	}
	type run struct {
		integ   sgmcmc.Integrator
		eps     float64
		v, b    float64
		formula func(eps, v, b float64) float64
	}
	var runs []run
	for _, e := range []float64{0.3, 1, 1.5} {
		for _, nb := range [][2]float64{{0, 0}, {V, 0}, {V, V}} {
			runs = append(runs, run{sgmcmc.BAOAB{}, e, nb[0], nb[1], baoab}, run{sgmcmc.OBABO{}, e, nb[0], nb[1], obabo})
		}
	}
	runs = append(runs, run{sgmcmc.BAOAB{}, 1.9, 0, 0, baoab})
	for k, c := range runs {
		eps := c.eps / math.Sqrt(lam)
		var nv []float64
		if c.b > 0 {
			nv = make([]float64, d)
			for i := range nv {
				nv[i] = c.b
			}
		}
		s, err := sgmcmc.NewSGHMC(gaussNoiseGrad(lam, c.v, uint64(k)), make([]float64, d), rand.NewPCG(7, uint64(k)),
			&sgmcmc.SGHMCSettings{Friction: C, NoiseVar: nv, Integrator: c.integ})
		if err != nil {
			t.Fatal(err)
		}
		got, se := relVar(t, s, eps, lam, 2000, steps)
		want := c.formula(eps, c.v, c.b)
		name := fmt.Sprintf("%v ε√λ=%.1f V=%g B̂=%g", c.integ, c.eps, c.v, c.b)
		t.Logf("%s: λ Var θ = %.4f ± %.4f, formula %.4f", name, got, se, want)
		if math.Abs(got-want) > 4*se {
			t.Errorf("%s: λ Var θ = %.4f, formula %.4f: more than 4 SE (%.4f) apart", name, got, want, 4*se)
		}
	}
}

// baodaLyapunov returns BADODAB's stationary λ Var θ, Var r after the kick
// and Var r after O on N(0, 1/λ) with the thermostat frozen at friction
// xi, diffusion A, gradient noise V and B̂ = b (doc/equations.md §4.7),
// from the discrete Lyapunov equation of the step B(ε) A(ε/2) O(ε) A(ε/2).
func baodaLyapunov(eps, lam, xi, A, v, b float64) (relVar, r1, r2 float64) {
	a := math.Exp(-eps * xi)
	q := A*(1-a*a)/xi - eps*eps*(1+a)*(1+a)/4*b
	h := eps / 2
	// z' = T z + bn ν + bz ζ.
	T := [2][2]float64{{1 - h*eps*lam*(1+a), h * (1 + a)}, {-a * eps * lam, a}}
	bn := [2]float64{-h * eps * (1 + a), -a * eps}
	bz := [2]float64{h, 1}
	var W [2][2]float64
	for i := range 2 {
		for j := range 2 {
			W[i][j] = v*bn[i]*bn[j] + q*bz[i]*bz[j]
		}
	}
	S := lyapunov2(T, W)
	r2 = S[1][1]
	return lam * S[0][0], (r2 - q) / (a * a), r2
}

// TestBADODABGaussianLyapunov: on N(0, I/λ) in d = 250 dimensions with
// A = 1, BADODAB's stationary position variance at ε√λ ∈ {0.3, 1, 1.5},
// with exact gradients, with isotropic gradient noise V = 1 (0.2 at 1.5)
// and with B̂ = V,
// against the Lyapunov solution at the thermostat's mean ξ̄ (where the
// kinetic energies after the kick and after O average to 1, doc/equations.md
// §4.7), within 4 Monte Carlo standard errors and the thermostat's own
// fluctuation, of relative size 1/d.
func TestBADODABGaussianLyapunov(t *testing.T) {
	t.Parallel()
	const lam, A, V, d = 1.0, 1.0, 1.0, 250
	steps := 20_000
	if testing.Short() {
		steps = 6000
	}
	k := 0
	for _, e := range []float64{0.3, 1, 1.5} {
		v := V
		if e > 1 {
			// At ε√λ = 1.5, V = 1 makes B̂ = V not positive definite and,
			// without B̂, drives εξ̄ to 20, where ξ is barely pinned and
			// its fluctuations are not those of the frozen-ξ analysis.
			v = 0.2
		}
		for _, nb := range [][2]float64{{0, 0}, {v, 0}, {v, v}} {
			k++
			eps := e / math.Sqrt(lam)
			// ξ̄ by bisection: the mean kinetic energy falls as ξ grows.
			lo, hi := 0.05, 20.0
			for range 60 {
				mid := (lo + hi) / 2
				_, r1, r2 := baodaLyapunov(eps, lam, mid, A, nb[0], nb[1])
				if r1+r2 > 2 {
					lo = mid
				} else {
					hi = mid
				}
			}
			xi := (lo + hi) / 2
			want, _, _ := baodaLyapunov(eps, lam, xi, A, nb[0], nb[1])
			var nv []float64
			if nb[1] > 0 {
				nv = make([]float64, d)
				for i := range nv {
					nv[i] = nb[1]
				}
			}
			s, err := sgmcmc.NewSGNHT(gaussNoiseGrad(lam, nb[0], uint64(k)), make([]float64, d), rand.NewPCG(8, uint64(k)),
				&sgmcmc.SGNHTSettings{A: A, Xi0: &xi, NoiseVar: nv, Integrator: sgmcmc.BADODAB{}})
			if err != nil {
				t.Fatal(err)
			}
			got, se := relVar(t, s, eps, lam, 2000, steps)
			name := fmt.Sprintf("BADODAB ε√λ=%.1f V=%g B̂=%g", e, nb[0], nb[1])
			t.Logf("%s: λ Var θ = %.4f ± %.4f, at ξ̄ = %.4f the formula gives %.4f", name, got, se, xi, want)
			if tol := 4*se + 1.0/d; math.Abs(got-want) > tol {
				t.Errorf("%s: λ Var θ = %.4f, formula %.4f: more than %.4f apart", name, got, want, tol)
			}
		}
	}
}
