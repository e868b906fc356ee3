// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// refNormals gives a hand-written reference the normals that a sampler
// built with the same source draws: every sampler seeds an rng.Normal from
// its source (rng.NewNormalFrom) and takes its normals from it in order.
type refNormals struct{ g *rng.Normal }

// refGen is refNormals for a sampler built with rand.NewPCG(s1, s2).
func refGen(s1, s2 uint64) refNormals { return refGenFrom(rand.NewPCG(s1, s2)) }

// refGenFrom is refNormals for a sampler built with src.
func refGenFrom(src rand.Source) refNormals {
	g, _ := rng.NewNormalFrom(src)
	return refNormals{g}
}

func (r refNormals) NormFloat64() float64 { return r.g.Norm() }

// noiseGrad is testGrad with a fixed estimate of its noise variance, for
// the samplers' EstimateNoise path.
type noiseGrad struct {
	v   float64
	bad *bool // if set and true, the gradient is NaN at coordinate 7
}

func (g noiseGrad) Grad(dst, th []float64) {
	testGrad(dst, th)
	if g.bad != nil && *g.bad {
		dst[7] = math.NaN()
	}
}

func (g noiseGrad) NoiseVar(dst []float64) { fillConst(dst, g.v) }
func (noiseGrad) CanEstimateNoise() error  { return nil }
func fillConst(dst []float64, v float64) {
	for i := range dst {
		dst[i] = v
	}
}

// fusedCases are named samplers that take fused steps, with settings that
// reach every term of the fused passes.
func fusedCases() []struct {
	name string
	make func(src rand.Source, d int) (*Recipe, error)
} {
	g := GradFunc(testGrad)
	start := func(d int, scale float64) []float64 {
		x := make([]float64, d)
		for i := range x {
			x[i] = scale * math.Sin(float64(3*i+1))
		}
		return x
	}
	ones := func(d int, v float64) []float64 {
		x := make([]float64, d)
		fillConst(x, v)
		return x
	}
	type mk = func(src rand.Source, d int) (*Recipe, error)
	return []struct {
		name string
		make mk
	}{
		{"SGLD", func(src rand.Source, d int) (*Recipe, error) { return NewSGLD(g, start(d, 0.5), src, nil) }},
		{"SGLD precond noise", func(src rand.Source, d int) (*Recipe, error) {
			p := start(d, 0.3)
			for i := range p {
				p[i] = 1 + p[i]*p[i]
			}
			return NewSGLD(g, start(d, 0.5), src, &SGLDSettings{Precond: p, NoiseVar: ones(d, 0.5)})
		}},
		{"SGLD estimated noise", func(src rand.Source, d int) (*Recipe, error) {
			return NewSGLD(noiseGrad{v: 0.3}, start(d, 0.5), src, &SGLDSettings{EstimateNoise: true})
		}},
		{"SGHMC", func(src rand.Source, d int) (*Recipe, error) { return NewSGHMC(g, start(d, 0.5), src, nil) }},
		{"SGHMC mass friction noise resample", func(src rand.Source, d int) (*Recipe, error) {
			m := start(d, 0.5)
			for i := range m {
				m[i] = 1 + m[i]*m[i]
			}
			return NewSGHMC(g, start(d, 0.5), src, &SGHMCSettings{Mass: m, Friction: 2, NoiseVar: ones(d, 1), ResampleEvery: 7, R0: start(d, 0.2)})
		}},
		{"SGNHT", func(src rand.Source, d int) (*Recipe, error) {
			return NewSGNHT(g, start(d, 0.5), src, &SGNHTSettings{A: 1.5, R0: start(d, 0.3)})
		}},
		{"SGNHT noise", func(src rand.Source, d int) (*Recipe, error) {
			return NewSGNHT(noiseGrad{v: 0.2}, start(d, 0.5), src, &SGNHTSettings{EstimateNoise: true})
		}},
		{"SGRLD", func(src rand.Source, d int) (*Recipe, error) {
			return NewSGRLD(g, start(d, 0.5), DiagMetricFunc(testMetric), src, &SGRLDSettings{NoiseVar: ones(d, 0.3)})
		}},
		{"SGRHMC", func(src rand.Source, d int) (*Recipe, error) {
			return NewSGRHMC(g, start(d, 0.5), DiagMetricFunc(testMetric), src, &SGRHMCSettings{R0: start(d, 0.4), ResampleEvery: 5})
		}},
		{"SGRHMC friction noise", func(src rand.Source, d int) (*Recipe, error) {
			return NewSGRHMC(g, start(d, 0.5), DiagMetricFunc(testMetric), src, &SGRHMCSettings{Friction: 3, NoiseVar: ones(d, 0.5)})
		}},
		{"naive SGRHMC", func(src rand.Source, d int) (*Recipe, error) {
			return NewSGRHMC(g, start(d, 0.5), DiagMetricFunc(testMetric), src, &SGRHMCSettings{Naive: true})
		}},
	}
}

// genericTwin returns a Recipe with r's spec that takes the generic path,
// its generator seeded from src.
func genericTwin(t *testing.T, r *Recipe, src rand.Source) *Recipe {
	t.Helper()
	spec := r.spec
	spec.Integrator = genericSweep{}
	spec.Src = src
	g, err := NewRecipe(spec)
	if err != nil {
		t.Fatal(err)
	}
	_, rf := r.st.(*fused)
	_, gf := g.st.(*fused)
	if !rf || gf {
		t.Fatalf("fused %v, twin fused %v", rf, gf)
	}
	return g
}

// TestFusedMatchesGeneric: a named sampler's fused step gives the same bits
// as the generic Recipe step with the same spec and generator, divergences
// and failed steps included.
func TestFusedMatchesGeneric(t *testing.T) {
	t.Parallel()
	for _, c := range fusedCases() {
		const d = 300 // more than one chunk of normals
		r, err := c.make(rand.NewPCG(3, 9), d)
		if err != nil {
			t.Fatal(c.name, err)
		}
		g := genericTwin(t, r, rand.NewPCG(3, 9))
		// The gradient turns NaN at coordinate 7 while bad is set.
		bad := false
		spoil := func(s *Recipe) {
			grad := s.spec.Grad
			s.spec.Grad = GradFunc(func(dst, th []float64) {
				grad.Grad(dst, th)
				if bad {
					dst[7] = math.NaN()
				}
			})
		}
		if ng, ok := r.spec.Grad.(noiseGrad); ok {
			ng.bad = &bad
			r.spec.Grad, g.spec.Grad = ng, ng
		} else {
			spoil(r)
			spoil(g)
		}
		nfail := 0
		for k := range 300 {
			eps := 0.01
			bad = false
			switch k % 50 {
			case 49:
				eps = 1 // a divergent transition
			case 29:
				bad = true // a step that fails
			case 39:
				if r.st.(*fused).kind == fusedHMC {
					eps = 1e200 // a step that overflows
				}
			}
			ea, eb := r.Step(eps), g.Step(eps)
			if (ea == nil) != (eb == nil) || (ea != nil && ea.Error() != eb.Error()) {
				t.Fatalf("%s step %d: fused error %v, generic %v", c.name, k+1, ea, eb)
			}
			for i, x := range r.State() {
				if math.Float64bits(x) != math.Float64bits(g.State()[i]) {
					t.Fatalf("%s step %d coordinate %d: fused %v, generic %v", c.name, k+1, i, x, g.State()[i])
				}
			}
			na, la := r.Divergences()
			nb, lb := g.Divergences()
			if na != nb || la != lb {
				t.Fatalf("%s step %d: fused divergences %d %+v, generic %d %+v", c.name, k+1, na, la, nb, lb)
			}
			if ea != nil {
				nfail++
			}
		}
		n, _ := r.Divergences()
		if n == 0 || nfail == 0 {
			t.Errorf("%s: %d divergent transitions and %d failed steps to compare, want some of each", c.name, n, nfail)
		}
		t.Logf("%s: %d divergent transitions, %d failed steps", c.name, n, nfail)
	}
}

// toggleGrad is testGrad that turns NaN at its last coordinate while *bad
// is 1, and 10³⁰⁸ everywhere while it is 2; it also gives the Hessian
// diagonal (for pSGLD's Γ).
type toggleGrad struct{ bad *int }

func (g toggleGrad) Grad(dst, th []float64) {
	testGrad(dst, th)
	switch *g.bad {
	case 1:
		dst[len(dst)-1] = math.NaN()
	case 2:
		fillConst(dst, 1e308)
	}
}

func (g toggleGrad) GradDiagHessian(grad, hess, th []float64) {
	g.Grad(grad, th)
	for i, x := range th {
		hess[i] = 3*x*x + 2
	}
}

// markedSampler is a sampler with a checkpoint.
type markedSampler interface {
	Sampler
	MarshalBinary() ([]byte, error)
}

// TestFailedStepLeavesNoTrace: for every sampler, a step that fails (a NaN
// gradient, an overflowing step, a bad shape estimate) leaves it exactly as
// it was — state, generators, divergence count, as its checkpoint shows —
// so that the next steps are those of a twin that never took it.
func TestFailedStepLeavesNoTrace(t *testing.T) {
	t.Parallel()
	testFailedSteps(t, 9)
}

// TestFailedStepLeavesNoTraceBlocks is TestFailedStepLeavesNoTrace with
// steps split into blocks.
func TestFailedStepLeavesNoTraceBlocks(t *testing.T) {
	defer setBlocks(40, 16)()
	testFailedSteps(t, 70)
}

// setBlocks makes steps of dimension min or more run in blocks of size;
// the returned function restores the defaults. Tests that call it must not
// be parallel.
func setBlocks(min, size int) func() {
	pm, bd := parallelMinDim, blockDim
	parallelMinDim, blockDim = min, size
	return func() { parallelMinDim, blockDim = pm, bd }
}

func testFailedSteps(t *testing.T, d int) {
	th0 := make([]float64, d)
	for i := range th0 {
		th0[i] = 0.3 * math.Sin(float64(i+1))
	}
	pos := make([]float64, d)
	for i := range pos {
		pos[i] = 1 + 0.5*math.Sin(float64(i))
	}
	type build func(g toggleGrad, src rand.Source) (markedSampler, error)
	recipe := func(f func(g toggleGrad, src rand.Source) (*Recipe, error)) build {
		return func(g toggleGrad, src rand.Source) (markedSampler, error) { return f(g, src) }
	}
	cases := []struct {
		name  string
		build build
		shape bool // driven by StepShape; fails on a bad shape
	}{
		{"SGLD", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) { return NewSGLD(g, th0, src, nil) }), false},
		{"SGHMC", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{ResampleEvery: 3})
		}), false},
		{"SGNHT", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) { return NewSGNHT(g, th0, src, nil) }), false},
		{"SGHMC-BAOAB", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{Integrator: BAOAB{}, NoiseVar: pos})
		}), false},
		{"SGHMC-OBABO", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{Integrator: OBABO{}, Mass: pos})
		}), false},
		{"SGNHT-BADODAB", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGNHT(g, th0, src, &SGNHTSettings{Integrator: BADODAB{}, NoiseVar: pos})
		}), false},
		{"SGRLD", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGRLD(g, th0, DiagMetricFunc(testMetric), src, nil)
		}), false},
		{"SGRHMC", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGRHMC(g, th0, DiagMetricFunc(testMetric), src, nil)
		}), false},
		{"SGHMC simultaneous (generic)", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGHMC(g, th0, src, &SGHMCSettings{Integrator: Euler{}})
		}), false},
		{"SGRLDDense (generic)", recipe(func(g toggleGrad, src rand.Source) (*Recipe, error) {
			return NewSGRLDDense(g, th0[:3], ckDense{}, src, nil)
		}), false},
		{"PSGLD", func(g toggleGrad, src rand.Source) (markedSampler, error) {
			return NewPSGLD(g, th0, src, &PSGLDSettings{Memoryless: true, Lambda: 1})
		}, false},
		{"HAMCMC", func(g toggleGrad, src rand.Source) (markedSampler, error) {
			return NewHAMCMC(g, th0, src, &HAMCMCSettings{M: 2, Lambda: 1})
		}, false},
		{"SCIR", func(_ toggleGrad, src rand.Source) (markedSampler, error) { return NewSCIR(nil, pos, src, nil) }, true},
		{"SGRLDSimplex", func(_ toggleGrad, src rand.Source) (markedSampler, error) {
			return NewSGRLDSimplex(nil, pos, src, nil)
		}, true},
	}
	shape := make([]float64, d)
	for i := range shape {
		shape[i] = 0.5 + float64(i%7)
	}
	badShape := append([]float64(nil), shape...)
	badShape[d-1] = -1
	for _, c := range cases {
		var badA, badB int
		a, err := c.build(toggleGrad{&badA}, rand.NewPCG(5, 6))
		if err != nil {
			t.Fatal(c.name, err)
		}
		b, err := c.build(toggleGrad{&badB}, rand.NewPCG(5, 6))
		if err != nil {
			t.Fatal(c.name, err)
		}
		step := func(s Sampler, eps float64, ahat []float64) error {
			if c.shape {
				if sc, ok := s.(*SCIR); ok {
					return sc.StepShape(eps, ahat)
				}
				return s.(*SGRLDSimplex).StepShape(eps, ahat)
			}
			return s.Step(eps)
		}
		for k := range 40 {
			if k%10 == 5 {
				// a fails, in one of three ways; b does not try.
				before, err := a.MarshalBinary()
				if err != nil {
					t.Fatal(c.name, err)
				}
				var ferr error
				switch {
				case c.shape:
					ferr = step(a, 0.01, badShape)
				case k%20 == 5:
					badA = 1 // a NaN gradient
					ferr = a.Step(0.01)
				default:
					badA = 2 // a step that overflows
					ferr = a.Step(10)
				}
				badA = 0
				if ferr == nil {
					t.Fatalf("%s step %d: no failure", c.name, k)
				}
				after, err := a.MarshalBinary()
				if err != nil {
					t.Fatal(c.name, err)
				}
				if string(before) != string(after) {
					t.Fatalf("%s step %d: the failed step (%v) changed the checkpoint", c.name, k, ferr)
				}
			}
			ea, eb := step(a, 0.02, shape), step(b, 0.02, shape)
			if ea != nil || eb != nil {
				t.Fatalf("%s step %d: %v, %v", c.name, k, ea, eb)
			}
			for i, x := range a.Position() {
				if math.Float64bits(x) != math.Float64bits(b.Position()[i]) {
					t.Fatalf("%s step %d coordinate %d: %v after failures, %v without", c.name, k, i, x, b.Position()[i])
				}
			}
		}
		ca, _ := a.MarshalBinary()
		cb, _ := b.MarshalBinary()
		if string(ca) != string(cb) {
			t.Errorf("%s: checkpoints differ after 40 steps", c.name)
		}
	}
}
