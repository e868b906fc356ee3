// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// splitRef is a hand-written splitting step of SGHMC (mass m, friction c,
// B̂ b on r) or SGNHT (A = c, thermostat xi), straight from the sub-flows
// of doc/equations.md §4.4–§4.7, with the normals of ref.
type splitRef struct {
	scheme int
	th, r  []float64
	xi     float64
	m, b   []float64
	c      float64
	grad   func(dst, th []float64)
	g      []float64
	ref    refNormals
}

func (s *splitRef) step(eps float64) {
	d := len(s.th)
	s.grad(s.g, s.th)
	h := eps / 2
	ou := func(i int, gamma, c float64) float64 {
		a := math.Exp(-eps * gamma)
		v := c * (1 - a*a) / gamma
		if s.b != nil {
			v -= eps * eps * (1 + a) * (1 + a) / 4 * s.b[i]
		}
		return a*s.r[i] + math.Sqrt(v)*s.ref.NormFloat64()
	}
	switch s.scheme {
	case splitBAOAB:
		for i := range d {
			s.r[i] -= eps * s.g[i]
			s.th[i] += h * s.r[i] / s.m[i]
			s.r[i] = ou(i, s.c/s.m[i], s.c)
			s.th[i] += h * s.r[i] / s.m[i]
		}
	case splitOBABO:
		for i := range d {
			s.r[i] -= h * s.g[i]
			s.r[i] = ou(i, s.c/s.m[i], s.c)
			s.r[i] -= h * s.g[i]
			s.th[i] += eps * s.r[i] / s.m[i]
		}
	case splitBADODAB:
		kin := 0.0
		for i := range d {
			s.r[i] -= eps * s.g[i]
			s.th[i] += h * s.r[i]
			kin += s.r[i] * s.r[i]
		}
		s.xi += h * (kin/float64(d) - 1)
		kin = 0
		for i := range d {
			s.r[i] = ou(i, s.xi, s.c)
			s.th[i] += h * s.r[i]
			kin += s.r[i] * s.r[i]
		}
		s.xi += h * (kin/float64(d) - 1)
	}
}

// TestSplitMatchesExplicit: each splitting integrator, fused, against the
// hand-written update of its sub-flows with the same normals, with and
// without a mass and B̂, to 1e-12 over 200 steps.
func TestSplitMatchesExplicit(t *testing.T) {
	t.Parallel()
	const d, eps, steps = 37, 0.05, 200
	th0 := make([]float64, d)
	mass, bhat, ones := make([]float64, d), make([]float64, d), make([]float64, d)
	for i := range th0 {
		th0[i] = 0.4 * math.Sin(float64(i+1))
		mass[i] = 1 + 0.5*math.Cos(float64(i))
		bhat[i] = 0.5 + 0.3*math.Sin(float64(3*i))
		ones[i] = 1
	}
	cases := []struct {
		name   string
		scheme int
		mass   []float64
		b      []float64
		c      float64
	}{
		{"SGHMC-BAOAB", splitBAOAB, nil, nil, 1.5},
		{"SGHMC-BAOAB mass B̂", splitBAOAB, mass, bhat, 2},
		{"SGHMC-OBABO", splitOBABO, nil, nil, 1.5},
		{"SGHMC-OBABO mass B̂", splitOBABO, mass, bhat, 2},
		{"SGNHT-BADODAB", splitBADODAB, nil, nil, 1.5},
		{"SGNHT-BADODAB B̂", splitBADODAB, nil, bhat, 2},
	}
	for _, c := range cases {
		var s *Recipe
		var err error
		src := rand.NewPCG(3, uint64(c.scheme))
		switch c.scheme {
		case splitBADODAB:
			s, err = NewSGNHT(GradFunc(testGrad), th0, src, &SGNHTSettings{A: c.c, NoiseVar: c.b, Integrator: BADODAB{}})
		default:
			integ := map[int]Integrator{splitBAOAB: BAOAB{}, splitOBABO: OBABO{}}[c.scheme]
			s, err = NewSGHMC(GradFunc(testGrad), th0, src, &SGHMCSettings{Friction: c.c, Mass: c.mass, NoiseVar: c.b, Integrator: integ})
		}
		if err != nil {
			t.Fatal(c.name, err)
		}
		ref := &splitRef{scheme: c.scheme, th: append([]float64(nil), th0...), r: make([]float64, d), m: ones,
			b: c.b, c: c.c, grad: testGrad, g: make([]float64, d), ref: refGen(3, uint64(c.scheme)), xi: c.c}
		if c.mass != nil {
			ref.m = c.mass
		}
		for k := range steps {
			if err := s.Step(eps); err != nil {
				t.Fatal(c.name, k, err)
			}
			ref.step(eps)
		}
		z := s.State()
		worst := 0.0
		for i := range d {
			worst = math.Max(worst, math.Abs(z[i]-ref.th[i]))
			worst = math.Max(worst, math.Abs(z[d+i]-ref.r[i]))
		}
		if c.scheme == splitBADODAB {
			worst = math.Max(worst, math.Abs(z[2*d]-ref.xi))
		}
		t.Logf("%s: largest difference %.3g, θ₀ %.4f", c.name, worst, z[0])
		if worst > 1e-12 {
			t.Errorf("%s: differs from the explicit update by %.3g after %d steps", c.name, worst, steps)
		}
	}
}

// TestSplitShapes: a splitting integrator refuses recipes whose sub-flows
// it cannot solve exactly, with ErrUnsupported.
func TestSplitShapes(t *testing.T) {
	t.Parallel()
	th0 := []float64{0.1, 0.2}
	g := GradFunc(testGrad)
	for name, mk := range map[string]func() (*Recipe, error){
		"SGLD-BAOAB": func() (*Recipe, error) {
			return NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, Z0: th0, Src: rand.NewPCG(1, 1), Integrator: BAOAB{}})
		},
		"SGNHT-BAOAB": func() (*Recipe, error) {
			return NewSGNHT(g, th0, rand.NewPCG(1, 1), &SGNHTSettings{Integrator: BAOAB{}})
		},
		"SGHMC-BADODAB": func() (*Recipe, error) {
			return NewSGHMC(g, th0, rand.NewPCG(1, 1), &SGHMCSettings{Integrator: BADODAB{}})
		},
		"SGRHMC-OBABO": func() (*Recipe, error) {
			return NewSGRHMC(g, th0, DiagMetricFunc(testMetric), rand.NewPCG(1, 1), &SGRHMCSettings{Integrator: OBABO{}})
		},
	} {
		if _, err := mk(); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: error %v, want ErrUnsupported", name, err)
		}
	}
}
