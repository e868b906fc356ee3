// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The digests below pin the chains every named sampler and sample.Run drew
// before the round-3 restructuring (the fused pass as an integrator, open
// sample.Run methods): a refactor must leave every chain bit-identical. The
// named samplers' digests stay fixed for the whole round (new integrators
// and the temperature are opt-in); a change that alters a chain on purpose
// updates its digest in the same commit and says why.

// digestCases are the named samplers in their main configurations.
func digestCases() []struct {
	name string
	eps  float64
	make func(d int) (Sampler, error)
} {
	g := GradFunc(testGrad)
	start := func(d int, scale float64) []float64 {
		x := make([]float64, d)
		for i := range x {
			x[i] = scale * math.Sin(float64(3*i+1))
		}
		return x
	}
	pos := func(d int) []float64 {
		x := start(d, 0.5)
		for i := range x {
			x[i] = 0.5 + x[i]*x[i]
		}
		return x
	}
	ones := func(d int, v float64) []float64 {
		x := make([]float64, d)
		fillConst(x, v)
		return x
	}
	src := func() rand.Source { return rand.NewPCG(11, 12) }
	type mk = func(d int) (Sampler, error)
	return []struct {
		name string
		eps  float64
		make mk
	}{
		{"SGLD", 0.01, func(d int) (Sampler, error) { return NewSGLD(g, start(d, 0.5), src(), nil) }},
		{"SGLD precond noise", 0.01, func(d int) (Sampler, error) {
			return NewSGLD(g, start(d, 0.5), src(), &SGLDSettings{Precond: pos(d), NoiseVar: ones(d, 0.5)})
		}},
		{"SGLD estimated noise", 0.01, func(d int) (Sampler, error) {
			return NewSGLD(noiseGrad{v: 0.3}, start(d, 0.5), src(), &SGLDSettings{EstimateNoise: true})
		}},
		{"SGHMC", 0.05, func(d int) (Sampler, error) { return NewSGHMC(g, start(d, 0.5), src(), nil) }},
		{"SGHMC mass friction noise resample", 0.05, func(d int) (Sampler, error) {
			return NewSGHMC(g, start(d, 0.5), src(), &SGHMCSettings{Mass: pos(d), Friction: 2, NoiseVar: ones(d, 1), ResampleEvery: 7, R0: start(d, 0.2)})
		}},
		{"SGHMC simultaneous", 0.05, func(d int) (Sampler, error) {
			return NewSGHMC(g, start(d, 0.5), src(), &SGHMCSettings{Integrator: Euler{}})
		}},
		{"naive SGHMC", 0.01, func(d int) (Sampler, error) { return NewSGHMC(g, start(d, 0.5), src(), &SGHMCSettings{Naive: true}) }},
		{"SGNHT", 0.05, func(d int) (Sampler, error) {
			return NewSGNHT(g, start(d, 0.5), src(), &SGNHTSettings{A: 1.5, R0: start(d, 0.3)})
		}},
		{"SGNHT noise", 0.05, func(d int) (Sampler, error) {
			return NewSGNHT(noiseGrad{v: 0.2}, start(d, 0.5), src(), &SGNHTSettings{EstimateNoise: true})
		}},
		{"SGNHT simultaneous", 0.05, func(d int) (Sampler, error) {
			return NewSGNHT(g, start(d, 0.5), src(), &SGNHTSettings{Integrator: Euler{}})
		}},
		{"SGRLD", 0.01, func(d int) (Sampler, error) {
			return NewSGRLD(g, start(d, 0.5), DiagMetricFunc(testMetric), src(), &SGRLDSettings{NoiseVar: ones(d, 0.3)})
		}},
		{"SGRHMC", 0.03, func(d int) (Sampler, error) {
			return NewSGRHMC(g, start(d, 0.5), DiagMetricFunc(testMetric), src(), &SGRHMCSettings{R0: start(d, 0.4), ResampleEvery: 5})
		}},
		{"SGRHMC friction noise", 0.03, func(d int) (Sampler, error) {
			return NewSGRHMC(g, start(d, 0.5), DiagMetricFunc(testMetric), src(), &SGRHMCSettings{Friction: 3, NoiseVar: ones(d, 0.5)})
		}},
		{"naive SGRHMC", 0.01, func(d int) (Sampler, error) {
			return NewSGRHMC(g, start(d, 0.5), DiagMetricFunc(testMetric), src(), &SGRHMCSettings{Naive: true})
		}},
		{"generic recipe", 0.01, func(d int) (Sampler, error) {
			return NewRecipe(RecipeSpec{Grad: g, D: Scalar{N: d, C: 1}, Z0: start(d, 0.5), Src: src()})
		}},
		{"pSGLD", 0.01, func(d int) (Sampler, error) {
			return NewPSGLD(g, start(d, 0.5), src(), &PSGLDSettings{DropGamma: true})
		}},
		{"HAMCMC", 0.01, func(d int) (Sampler, error) { return NewHAMCMC(g, start(d, 0.5), src(), nil) }},
		{"SCIR", 0.05, func(d int) (Sampler, error) { return NewSCIR(FixedShape(ones(d, 1.5)), pos(d), src(), nil) }},
		{"SGRLDSimplex", 0.01, func(d int) (Sampler, error) {
			return NewSGRLDSimplex(FixedShape(ones(d, 1.5)), pos(d), src(), nil)
		}},
	}
}

// runDigest runs steps steps and hashes every position and the divergence
// count.
func runDigest(t *testing.T, s Sampler, eps float64, steps int) string {
	t.Helper()
	draws := make([][]float64, 0, steps)
	for i := range steps {
		if err := s.Step(eps); err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		draws = append(draws, append([]float64(nil), s.Position()...))
	}
	n := 0
	if dc, ok := s.(DivergenceCounter); ok {
		n, _ = dc.Divergences()
	}
	return chainDigest(draws, n)
}

var samplerDigests = map[string][2]string{
	// name: {d = 6, one block; d = 10 in blocks of 3}
	"SGLD":                               {"dea76b8f3763cbc9", "56a53a0a4cfb6826"},
	"SGLD precond noise":                 {"4a03f708a367f9ea", "b57c19110cc90845"},
	"SGLD estimated noise":               {"d63da253159f7def", "a826a5f6656edf6c"},
	"SGHMC":                              {"42ef21c0c0fe3782", "b76ea3d3292937a7"},
	"SGHMC mass friction noise resample": {"8cade793a83ed15d", "5e67b6abc432ab88"},
	"SGHMC simultaneous":                 {"257586e1242f5faf", "b37850ef2384cd20"},
	"naive SGHMC":                        {"af370cf8e9a156ce", "142f91f6da5dc886"},
	"SGNHT":                              {"370b140916cfe739", "d48af644c14d2ec6"},
	"SGNHT noise":                        {"87f77f8e41b37f76", "367c1067de501f5f"},
	"SGNHT simultaneous":                 {"9c597d5bb9259e75", "66ffca16d808846e"},
	"SGRLD":                              {"c08fb23370cae64b", "635ed0a0c171b0ef"},
	"SGRHMC":                             {"ccbd292b204437ac", "e096484d9db09827"},
	"SGRHMC friction noise":              {"e65556ce2717c9e9", "a9ab3cfc6272bd07"},
	"naive SGRHMC":                       {"b4624ef10443be84", "d30b07ad9e8291b5"},
	// A recipe built by hand with SGLD's operators now takes the fused
	// sweep, and in parallel blocks draws SGLD's chain (it took the generic
	// path before, "92955d9f48514583" in blocks).
	"generic recipe": {"dea76b8f3763cbc9", "56a53a0a4cfb6826"},
	"pSGLD":          {"eff595669dc2caf5", "99db7fa2c2d9d5e0"},
	"HAMCMC":         {"51a186b43612ac76", "1c6c53d7a2be998e"},
	"SCIR":           {"a5390da0a9973278", "d813937559eddcf4"},
	"SGRLDSimplex":   {"cee39c4654a75df8", "c1701e86021601c8"},
}

// TestSamplerDigests: each named sampler's first 1,000 draws are the ones
// it drew before the restructuring, one block and in parallel blocks.
func TestSamplerDigests(t *testing.T) {
	for _, c := range digestCases() {
		var got [2]string
		s, err := c.make(6)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got[0] = runDigest(t, s, c.eps, 1000)
		func() {
			defer setBlocks(4, 3)()
			s, err := c.make(10)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			got[1] = runDigest(t, s, c.eps, 1000)
		}()
		want, ok := samplerDigests[c.name]
		if !ok {
			t.Errorf("%q: {%q, %q},", c.name, got[0], got[1])
			continue
		}
		if got != want {
			t.Errorf("%s: digests %v, want %v (the chain changed)", c.name, got, want)
		}
	}
}

// TestHandBuiltSGHMC: a Recipe built by hand from SGHMC's operators draws
// the same chain, bit for bit, as NewSGHMC, in one block and in parallel
// blocks: the fused sweep is chosen by the operators, not the constructor.
func TestHandBuiltSGHMC(t *testing.T) {
	build := func(d int) Sampler {
		D, err := NewBlock([]int{d, d}, [][]Operator{{nil, nil}, {nil, Scalar{N: d, C: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		Q, err := NewBlock([]int{d, d}, [][]Operator{{nil, Scalar{N: d, C: -1}}, {Scalar{N: d, C: 1}, nil}})
		if err != nil {
			t.Fatal(err)
		}
		z0 := make([]float64, 2*d)
		for i := range d {
			z0[i] = 0.5 * math.Sin(float64(3*i+1))
		}
		r, err := NewRecipe(RecipeSpec{Blocks: []int{d, d}, Grad: GradFunc(testGrad), GradK: Kinetic{}, D: D, Q: Q, Z0: z0, Src: rand.NewPCG(11, 12)})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := r.st.(*fused); !ok {
			t.Fatal("the hand-built SGHMC recipe does not take the fused sweep")
		}
		return r
	}
	want := samplerDigests["SGHMC"]
	if got := runDigest(t, build(6), 0.05, 1000); got != want[0] {
		t.Errorf("one block: hand-built digest %s, NewSGHMC's %s", got, want[0])
	}
	defer setBlocks(4, 3)()
	if got := runDigest(t, build(10), 0.05, 1000); got != want[1] {
		t.Errorf("in blocks: hand-built digest %s, NewSGHMC's %s", got, want[1])
	}
}
