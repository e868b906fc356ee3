// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// testMetric is a state-dependent diagonal metric, g_i = 1 + θ_i² + ½sin²(θ_{i+1}).
func testMetric(g, dg, th []float64) {
	d := len(th)
	for i, x := range th {
		s := 0.0
		if i < d-1 {
			s = math.Sin(th[i+1])
		}
		g[i] = 1 + x*x + 0.5*s*s
		dg[i] = 2 * x
	}
}

func randVec(rng *rand.Rand, d int, scale float64) []float64 {
	x := make([]float64, d)
	for i := range x {
		x[i] = scale * rng.NormFloat64()
	}
	return x
}

const (
	eqSteps = 2000
	eqDim   = 7
	eqEps   = 0.01
)

// compareTraj steps s and the reference (which advances its own state
// and returns it) eqSteps times and checks agreement to ~1e-12.
func compareTraj(t *testing.T, name string, s *Recipe, ref func() []float64) {
	t.Helper()
	var worst float64
	for k := range eqSteps {
		if err := s.Step(eqEps); err != nil {
			t.Fatalf("%s: step %d: %v", name, k+1, err)
		}
		want := ref()
		got := s.State()
		if len(got) != len(want) {
			t.Fatalf("%s: state length %d, reference %d", name, len(got), len(want))
		}
		for i := range got {
			e := math.Abs(got[i]-want[i]) / math.Max(1, math.Abs(want[i]))
			worst = math.Max(worst, e)
		}
	}
	if !(worst < 1e-12) {
		t.Errorf("%s: worst relative difference from the reference over %d steps = %.3g, want < 1e-12", name, eqSteps, worst)
	}
}

// TestSGLDMatchesReference checks NewSGLD against θ ← θ − εP∇U + N(0, ε(2P − εPVP)).
func TestSGLDMatchesReference(t *testing.T) {
	t.Parallel()
	init := rand.New(rand.NewPCG(1, 1))
	th := randVec(init, eqDim, 1)
	P := randVec(init, eqDim, 0.3)
	V := randVec(init, eqDim, 1)
	for i := range P {
		P[i] = 0.5 + math.Abs(P[i])
		V[i] = V[i] * V[i]
	}
	s, err := NewSGLD(GradFunc(testGrad), th, rand.NewPCG(7, 7), &SGLDSettings{Precond: P, NoiseVar: V})
	if err != nil {
		t.Fatal(err)
	}
	rng := refGen(7, 7)
	x := append([]float64(nil), th...)
	g := make([]float64, eqDim)
	noise := make([]float64, eqDim)
	compareTraj(t, "SGLD", s, func() []float64 {
		for i := range x {
			noise[i] = math.Sqrt(eqEps*(2*P[i]-eqEps*P[i]*P[i]*V[i])) * rng.NormFloat64()
		}
		testGrad(g, x)
		for i := range x {
			x[i] += -eqEps*P[i]*g[i] + noise[i]
		}
		return x
	})
}

// TestSGHMCMatchesReference checks NewSGHMC in both integration orders:
// simultaneous against the recipe paper's displayed update, sequential
// against the SGHMC paper's Algorithm 2 (r first, then θ with the new r).
func TestSGHMCMatchesReference(t *testing.T) {
	t.Parallel()
	for _, sim := range []bool{false, true} {
		init := rand.New(rand.NewPCG(2, 2))
		th := randVec(init, eqDim, 1)
		r0 := randVec(init, eqDim, 1)
		M := randVec(init, eqDim, 0.3)
		V := randVec(init, eqDim, 1)
		for i := range M {
			M[i] = 0.5 + math.Abs(M[i])
			V[i] *= V[i]
		}
		const C = 2.0
		s, err := NewSGHMC(GradFunc(testGrad), th, rand.NewPCG(8, 8), &SGHMCSettings{Mass: M, Friction: C, NoiseVar: V, R0: r0, Integrator: integ(sim)})
		if err != nil {
			t.Fatal(err)
		}
		rng := refGen(8, 8)
		d := eqDim
		x := append(append([]float64(nil), th...), r0...)
		g := make([]float64, d)
		noise := make([]float64, d)
		compareTraj(t, map[bool]string{false: "SGHMC sequential", true: "SGHMC simultaneous"}[sim], s, func() []float64 {
			for i := range d {
				noise[i] = math.Sqrt(eqEps*(2*C-eqEps*V[i])) * rng.NormFloat64()
			}
			testGrad(g, x[:d])
			if sim {
				for i := range d {
					th, r := x[i], x[d+i]
					x[i] = th + eqEps*r/M[i]
					x[d+i] = r - eqEps*g[i] - eqEps*C*r/M[i] + noise[i]
				}
				return x
			}
			for i := range d {
				x[d+i] += -eqEps*g[i] - eqEps*C*x[d+i]/M[i] + noise[i]
			}
			for i := range d {
				x[i] += eqEps * x[d+i] / M[i]
			}
			return x
		})
	}
}

// TestSGNHTMatchesReference checks NewSGNHT: sequential against the SGNHT
// paper's algorithm, simultaneous against the displayed recipe update.
func TestSGNHTMatchesReference(t *testing.T) {
	t.Parallel()
	for _, sim := range []bool{false, true} {
		init := rand.New(rand.NewPCG(3, 3))
		d := eqDim
		th := randVec(init, d, 1)
		r0 := randVec(init, d, 1)
		V := randVec(init, d, 1)
		for i := range V {
			V[i] *= V[i]
		}
		const A = 3.0
		xi0 := 2.5
		s, err := NewSGNHT(GradFunc(testGrad), th, rand.NewPCG(9, 9), &SGNHTSettings{A: A, NoiseVar: V, R0: r0, Xi0: &xi0, Integrator: integ(sim)})
		if err != nil {
			t.Fatal(err)
		}
		rng := refGen(9, 9)
		x := append(append(append([]float64(nil), th...), r0...), xi0)
		g := make([]float64, d)
		noise := make([]float64, d)
		fd := float64(d)
		compareTraj(t, map[bool]string{false: "SGNHT sequential", true: "SGNHT simultaneous"}[sim], s, func() []float64 {
			for i := range d {
				noise[i] = math.Sqrt(eqEps*(2*A-eqEps*V[i])) * rng.NormFloat64()
			}
			testGrad(g, x[:d])
			xi := x[2*d]
			if sim {
				var rr float64
				for i := range d {
					th, r := x[i], x[d+i]
					rr += r * r
					x[i] = th + eqEps*r
					x[d+i] = r - eqEps*g[i] - eqEps*xi*r + noise[i]
				}
				x[2*d] = xi + eqEps*(rr/fd-1)
				return x
			}
			var rr float64
			for i := range d {
				x[d+i] += -eqEps*g[i] - eqEps*xi*x[d+i] + noise[i]
				rr += x[d+i] * x[d+i]
			}
			for i := range d {
				x[i] += eqEps * x[d+i]
			}
			x[2*d] = xi + eqEps*(rr/fd-1)
			return x
		})
	}
}

// TestSGRLDMatchesReference checks NewSGRLD with a state-dependent metric
// against θ ← θ − εG⁻¹∇U + εΓ + N(0, ε(2G⁻¹ − εG⁻¹VG⁻¹)), Γ_i = −g_i′/g_i².
func TestSGRLDMatchesReference(t *testing.T) {
	t.Parallel()
	init := rand.New(rand.NewPCG(4, 4))
	d := eqDim
	th := randVec(init, d, 1)
	V := randVec(init, d, 0.5)
	for i := range V {
		V[i] *= V[i]
	}
	s, err := NewSGRLD(GradFunc(testGrad), th, DiagMetricFunc(testMetric), rand.NewPCG(10, 10), &SGRLDSettings{NoiseVar: V})
	if err != nil {
		t.Fatal(err)
	}
	rng := refGen(10, 10)
	x := append([]float64(nil), th...)
	gr, gm, dg, noise := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	compareTraj(t, "SGRLD", s, func() []float64 {
		testMetric(gm, dg, x)
		for i := range d {
			noise[i] = math.Sqrt(eqEps*(2/gm[i]-eqEps*V[i]/(gm[i]*gm[i]))) * rng.NormFloat64()
		}
		testGrad(gr, x)
		for i := range d {
			x[i] += -eqEps*gr[i]/gm[i] + eqEps*(-dg[i]/(gm[i]*gm[i])) + noise[i]
		}
		return x
	})
}

// TestSGRHMCMatchesReference checks NewSGRHMC and NewNaiveSGRHMC with a
// state-dependent metric against Eq. 17 (and Eq. 16), in both orders.
func TestSGRHMCMatchesReference(t *testing.T) {
	t.Parallel()
	for _, naive := range []bool{false, true} {
		for _, sim := range []bool{false, true} {
			init := rand.New(rand.NewPCG(5, 5))
			d := eqDim
			th := randVec(init, d, 1)
			r0 := randVec(init, d, 1)
			V := randVec(init, d, 0.5)
			for i := range V {
				V[i] *= V[i]
			}
			set := &SGRHMCSettings{NoiseVar: V, R0: r0, Integrator: integ(sim), Naive: naive}
			name := "gSGRHMC"
			if naive {
				name = "naive SGRHMC"
			}
			if sim {
				name += " simultaneous"
			} else {
				name += " sequential"
			}
			s, err := NewSGRHMC(GradFunc(testGrad), th, DiagMetricFunc(testMetric), rand.NewPCG(11, 11), set)
			if err != nil {
				t.Fatal(err)
			}
			rng := refGen(11, 11)
			x := append(append([]float64(nil), th...), r0...)
			gr, gm, dg, noise := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
			compareTraj(t, name, s, func() []float64 {
				testMetric(gm, dg, x[:d])
				for i := range d {
					noise[i] = math.Sqrt(eqEps*(2/gm[i]-eqEps*V[i]/gm[i])) * rng.NormFloat64()
				}
				testGrad(gr, x[:d])
				for i := range d {
					isq := 1 / math.Sqrt(gm[i])
					corr := -0.5 * dg[i] / (gm[i] * math.Sqrt(gm[i]))
					if naive {
						corr = 0
					}
					rOld := x[d+i]
					x[d+i] += -eqEps*isq*gr[i] + eqEps*corr - eqEps*rOld/gm[i] + noise[i]
					if sim {
						x[i] += eqEps * isq * rOld
					}
				}
				if !sim {
					for i := range d {
						x[i] += eqEps * x[d+i] / math.Sqrt(gm[i])
					}
				}
				return x
			})
		}
	}
}

// diagAsDense presents testMetric as a DenseMetric.
type diagAsDense struct{}

func (diagAsDense) Dense(g *mat.SymDense, dg []*mat.SymDense, th []float64) {
	d := len(th)
	gv, dv := make([]float64, d), make([]float64, d)
	testMetric(gv, dv, th)
	for i := range d {
		for j := i; j < d; j++ {
			g.SetSym(i, j, 0)
			for k := range d {
				dg[k].SetSym(i, j, 0)
			}
		}
		g.SetSym(i, i, gv[i])
	}
	// ∂g_i/∂θ_k: 2θ_i for k = i, sin(2θ_{i+1})/2 for k = i+1.
	for i := range d {
		dg[i].SetSym(i, i, 2*th[i])
		if i < d-1 {
			dg[i+1].SetSym(i, i, 0.5*math.Sin(2*th[i+1]))
		}
	}
}

// TestDenseMetricMatchesDiagonal checks the dense-metric constructors (eigen
// decomposition, Daleckii–Krein Γ) against the diagonal ones on a diagonal
// metric given as a dense one.
func TestDenseMetricMatchesDiagonal(t *testing.T) {
	t.Parallel()
	init := rand.New(rand.NewPCG(6, 6))
	d := 4
	th := randVec(init, d, 1)
	a, err := NewSGRLD(GradFunc(testGrad), th, DiagMetricFunc(testMetric), rand.NewPCG(3, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSGRLDDense(GradFunc(testGrad), th, diagAsDense{}, rand.NewPCG(3, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	compareTraj(t, "SGRLD dense vs diagonal", b, func() []float64 {
		if err := a.Step(eqEps); err != nil {
			t.Fatal(err)
		}
		return a.State()
	})
	c, err := NewSGRHMC(GradFunc(testGrad), th, DiagMetricFunc(testMetric), rand.NewPCG(3, 5), nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewSGRHMCDense(GradFunc(testGrad), th, diagAsDense{}, rand.NewPCG(3, 5), nil)
	if err != nil {
		t.Fatal(err)
	}
	compareTraj(t, "gSGRHMC dense vs diagonal", e, func() []float64 {
		if err := c.Step(eqEps); err != nil {
			t.Fatal(err)
		}
		return c.State()
	})
}

// rotMetric is a genuinely dense state-dependent metric G(θ) = R(θ₀)ᵀ
// diag(1 + θ₁², 2 + sin θ₀) R(θ₀) with R a rotation by θ₀ (d = 2).
type rotMetric struct{}

func (rotMetric) at(th []float64) *mat.SymDense {
	c, s := math.Cos(th[0]), math.Sin(th[0])
	l1, l2 := 1+th[1]*th[1], 2+math.Sin(th[0])
	return mat.NewSymDense(2, []float64{c*c*l1 + s*s*l2, c * s * (l1 - l2), c * s * (l1 - l2), s*s*l1 + c*c*l2})
}

func (m rotMetric) Dense(g *mat.SymDense, dg []*mat.SymDense, th []float64) {
	g.CopySym(m.at(th))
	const h = 1e-6
	for k := range 2 {
		p := append([]float64(nil), th...)
		q := append([]float64(nil), th...)
		p[k] += h
		q[k] -= h
		gp, gq := m.at(p), m.at(q)
		for i := range 2 {
			for j := i; j < 2; j++ {
				dg[k].SetSym(i, j, (gp.At(i, j)-gq.At(i, j))/(2*h))
			}
		}
	}
}

// TestCheckNamedSamplers: Check passes on every named sampler's recipe at
// random states, including Γ against finite differences for the
// state-dependent metrics, and flags the naive ones.
func TestCheckNamedSamplers(t *testing.T) {
	t.Parallel()
	init := rand.New(rand.NewPCG(12, 12))
	d := 3
	th := randVec(init, d, 1)
	V := []float64{0.5, 1, 2}
	g := GradFunc(testGrad)
	src := rand.NewPCG(1, 1)
	var named []*Recipe
	add := func(r *Recipe, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		named = append(named, r)
	}
	add(NewSGLD(g, th, src, nil))
	add(NewSGLD(g, th, src, &SGLDSettings{Precond: []float64{1, 2, 3}}))
	add(NewSGHMC(g, th, src, &SGHMCSettings{Mass: []float64{1, 2, 3}, Friction: 5}))
	add(NewSGNHT(g, th, src, &SGNHTSettings{A: 2, R0: []float64{0.3, -1, 2}}))
	add(NewSGRLD(g, th, DiagMetricFunc(testMetric), src, nil))
	add(NewSGRHMC(g, th, DiagMetricFunc(testMetric), src, nil))
	add(NewSGRLDDense(g, th[:2], rotMetric{}, src, nil))
	add(NewSGRHMCDense(g, th[:2], rotMetric{}, src, nil))
	for k, r := range named {
		for range 3 {
			z := randVec(init, len(r.State()), 1)
			v := V[:r.Dim()]
			if err := r.Check(z, 0.01, v); err != nil {
				t.Errorf("sampler %d (blocks %v): %v", k, r.Blocks(), err)
			}
		}
	}
	ns, err := NewSGHMC(g, th, src, &SGHMCSettings{Naive: true})
	if err != nil {
		t.Fatal(err)
	}
	err = ns.Check(nil, 0.01, V)
	if err == nil || !strings.Contains(err.Error(), "2D − εB̂") || !strings.Contains(err.Error(), "naive SGHMC") {
		t.Errorf("naive SGHMC: Check = %v, want a failure naming 2D − εB̂ and naive SGHMC", err)
	}
	nr, err := NewSGRHMC(g, th, DiagMetricFunc(testMetric), src, &SGRHMCSettings{Naive: true})
	if err != nil {
		t.Fatal(err)
	}
	err = nr.Check([]float64{0.7, -0.4, 1.1, 0, 0, 0}, 0.01, nil)
	if err == nil || !strings.Contains(err.Error(), "Γ does not match") {
		t.Errorf("naive SGRHMC: Check = %v, want a Γ mismatch", err)
	}
}

// TestCheckBrokenRecipes: Check names what is wrong with deliberately
// broken recipes.
func TestCheckBrokenRecipes(t *testing.T) {
	t.Parallel()
	g := GradFunc(testGrad)
	z0 := []float64{0.1, 0.2}
	src := rand.NewPCG(1, 2)
	diagFunc := func(f func(dst, z []float64)) *DiagFunc {
		d, err := NewDiagFunc(2, f)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	cases := []struct {
		name string
		spec RecipeSpec
		want string
	}{
		{"D not PSD", RecipeSpec{Grad: g, D: diagFunc(func(dst, _ []float64) { dst[0], dst[1] = 1, -1 }), Z0: z0, Src: src}, "D is not positive semidefinite"},
		{"D not symmetric", RecipeSpec{Grad: g, D: asDiffusion{Matrix{mat.NewDense(2, 2, []float64{1, 0.5, 0, 1})}}, Z0: z0, Src: src}, "D is not symmetric"},
		{"Q not skew", RecipeSpec{Grad: g, D: Scalar{N: 2, C: 1}, Q: Matrix{mat.NewDense(2, 2, []float64{0, 1, 1, 0})}, Z0: z0, Src: src}, "Q is not skew-symmetric"},
		{"wrong Γ", RecipeSpec{Grad: g, D: diagFunc(func(dst, z []float64) { dst[0], dst[1] = 1+z[0]*z[0], 1 }), Z0: z0, Src: src}, "Γ does not match"},
		{"2D − εB̂ not PSD", RecipeSpec{Grad: g, D: Scalar{N: 2, C: 0.01}, Z0: z0, Src: src, NoiseVar: []float64{1e4, 1e4}, NoiseMap: func(b, _, v []float64) {
			for i := range b {
				b[i] = 1e-4 * v[i]
			}
		}}, "2D − εB̂ is not positive semidefinite"},
		{"wrong NoiseMap", RecipeSpec{Grad: g, D: Scalar{N: 2, C: 0.5}, Z0: z0, Src: src, NoiseVar: []float64{1, 1}, NoiseMap: func(b, _, v []float64) { copy(b, v) }}, "NoiseMap gives"},
	}
	for _, c := range cases {
		r, err := NewRecipe(c.spec)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = r.Check(nil, 0.1, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	// And a correct state-dependent recipe with a right closed-form Γ passes.
	r, err := NewRecipe(RecipeSpec{Grad: g, D: diagFunc(func(dst, z []float64) { dst[0], dst[1] = 1+z[0]*z[0], 1 }),
		Gamma: gammaField{}, Z0: z0, Src: src})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check([]float64{0.3, -2}, 0.1, nil); err != nil {
		t.Errorf("correct state-dependent recipe: %v", err)
	}
}

// asDiffusion lets a test pass a (wrong) non-symmetric matrix as D.
type asDiffusion struct{ Matrix }

func (asDiffusion) Noise(dst, _ []float64, _ float64, _ []float64, _ *rng.Normal) error {
	clear(dst)
	return nil
}

// TestNumericGammaMatchesClosedForm: a recipe with NumericGamma follows the
// closed-form one to finite-difference accuracy.
func TestNumericGammaMatchesClosedForm(t *testing.T) {
	t.Parallel()
	th := []float64{0.3, -0.5, 0.8}
	a, err := NewSGRLD(GradFunc(testGrad), th, DiagMetricFunc(testMetric), rand.NewPCG(5, 6), nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := a.spec
	spec.Gamma = nil
	spec.NumericGamma = true
	spec.Src = rand.NewPCG(5, 6)
	b, err := NewRecipe(spec)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 200 {
		if err := a.Step(0.01); err != nil {
			t.Fatal(err)
		}
		if err := b.Step(0.01); err != nil {
			t.Fatal(err)
		}
		for i := range th {
			if e := math.Abs(a.State()[i] - b.State()[i]); e > 1e-7 {
				t.Fatalf("step %d coordinate %d: closed form %v, numeric %v", k+1, i, a.State()[i], b.State()[i])
			}
		}
	}
}

// constMetric is the constant dense metric G = [[2, 0.6, 0], [0.6, 1, 0.3], [0, 0.3, 3]].
type constMetric struct{}

func (constMetric) Dense(g *mat.SymDense, dg []*mat.SymDense, _ []float64) {
	g.CopySym(mat.NewSymDense(3, []float64{2, 0.6, 0, 0.6, 1, 0.3, 0, 0.3, 3}))
	for _, m := range dg {
		m.Zero()
	}
}

// TestSGRLDDenseConstantMetric checks NewSGRLDDense with a constant metric
// against θ ← θ − εG⁻¹∇U + L u, L Lᵀ = 2εG⁻¹ (Cholesky), u ~ N(0, I).
func TestSGRLDDenseConstantMetric(t *testing.T) {
	t.Parallel()
	th := []float64{0.4, -0.3, 0.9}
	s, err := NewSGRLDDense(GradFunc(testGrad), th, constMetric{}, rand.NewPCG(8, 9), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := mat.NewSymDense(3, nil)
	constMetric{}.Dense(g, []*mat.SymDense{mat.NewSymDense(3, nil), mat.NewSymDense(3, nil), mat.NewSymDense(3, nil)}, th)
	var ch mat.Cholesky
	ch.Factorize(g)
	var ginv mat.SymDense
	if err := ch.InverseTo(&ginv); err != nil {
		t.Fatal(err)
	}
	var cov mat.SymDense
	cov.ScaleSym(2*eqEps, &ginv)
	var cc mat.Cholesky
	cc.Factorize(&cov)
	var L mat.TriDense
	cc.LTo(&L)
	rng := refGen(8, 9)
	x := mat.NewVecDense(3, append([]float64(nil), th...))
	gr := make([]float64, 3)
	u := mat.NewVecDense(3, nil)
	var noise, drift mat.VecDense
	compareTraj(t, "SGRLD dense, constant metric", s, func() []float64 {
		for i := range 3 {
			u.SetVec(i, rng.NormFloat64())
		}
		noise.MulVec(&L, u)
		testGrad(gr, x.RawVector().Data)
		drift.MulVec(&ginv, mat.NewVecDense(3, gr))
		x.AddScaledVec(x, -eqEps, &drift)
		x.AddVec(x, &noise)
		return x.RawVector().Data
	})
}

// TestSymMatrixDiffusion checks a constant dense diffusion against the
// explicit preconditioned Langevin update θ ← θ − εA∇U + Uᵀu, UᵀU = 2εA,
// on the same stream, and that bad matrices are refused.
func TestSymMatrixDiffusion(t *testing.T) {
	t.Parallel()
	a := mat.NewSymDense(2, []float64{2, 0.6, 0.6, 1})
	D, err := NewSymMatrix(a)
	if err != nil {
		t.Fatal(err)
	}
	const eps = 0.05
	grad := GradFunc(func(dst, th []float64) { copy(dst, th) })
	r, err := NewRecipe(RecipeSpec{Grad: grad, D: D, Z0: []float64{1, -1}, Src: rand.NewPCG(7, 8)})
	if err != nil {
		t.Fatal(err)
	}
	var chol mat.Cholesky
	c := mat.NewSymDense(2, nil)
	c.ScaleSym(2*eps, a)
	if !chol.Factorize(c) {
		t.Fatal("not positive definite")
	}
	var u mat.TriDense
	chol.UTo(&u)
	hr := refGen(7, 8)
	th := []float64{1, -1}
	for k := range 500 {
		if err := r.Step(eps); err != nil {
			t.Fatal(err)
		}
		n := []float64{hr.NormFloat64(), hr.NormFloat64()}
		g0, g1 := th[0], th[1]
		th[0] += -eps*(a.At(0, 0)*g0+a.At(0, 1)*g1) + u.At(0, 0)*n[0]
		th[1] += -eps*(a.At(1, 0)*g0+a.At(1, 1)*g1) + u.At(0, 1)*n[0] + u.At(1, 1)*n[1]
		for i, v := range r.Position() {
			if math.Abs(v-th[i]) > 1e-12*math.Max(1, math.Abs(th[i])) {
				t.Fatalf("step %d coordinate %d: recipe %.15g, explicit %.15g", k+1, i, v, th[i])
			}
		}
	}
	if _, err := NewSymMatrix(nil); !errors.Is(err, ErrNil) {
		t.Errorf("NewSymMatrix(nil): err = %v, want ErrNil", err)
	}
	if _, err := NewSymFunc(0, func(*mat.SymDense, []float64) {}); !errors.Is(err, ErrDimension) {
		t.Errorf("NewSymFunc(0, f): err = %v, want ErrDimension", err)
	}
	if _, err := NewDiagFunc(-1, func(dst, z []float64) {}); !errors.Is(err, ErrDimension) {
		t.Errorf("NewDiagFunc(-1, f): err = %v, want ErrDimension", err)
	}
	if _, err := NewDiagFunc(2, nil); !errors.Is(err, ErrNil) {
		t.Errorf("NewDiagFunc(2, nil): err = %v, want ErrNil", err)
	}
	// The deprecated constructor gives a 0×0 operator that NewRecipe refuses.
	if _, err := NewRecipe(RecipeSpec{Grad: grad, D: Diagonal{}, Z0: []float64{1, -1}, Src: rand.NewPCG(1, 1)}); !errors.Is(err, ErrDimension) {
		t.Errorf("NewRecipe with a 0×0 D: err = %v, want ErrDimension", err)
	}
}

// TestMomentumResampling checks SGHMC's ResampleEvery: with a resample
// after every step the stored momenta are independent N(0, M) draws (lag-1
// autocorrelation 0, variance M), where without it they are strongly
// autocorrelated at a small step.
func TestMomentumResampling(t *testing.T) {
	t.Parallel()
	const n, mass = 20000, 4.0
	grad := GradFunc(func(dst, th []float64) { copy(dst, th) })
	run := func(every int) (variance, lag1 float64) {
		s, err := NewSGHMC(grad, []float64{0.5}, rand.NewPCG(3, 3), &SGHMCSettings{Mass: []float64{mass}, ResampleEvery: every})
		if err != nil {
			t.Fatal(err)
		}
		r := make([]float64, n)
		for i := range r {
			if err := s.Step(0.01); err != nil {
				t.Fatal(err)
			}
			r[i] = s.State()[1]
		}
		var m, v, c float64
		for _, x := range r {
			m += x
		}
		m /= n
		for i, x := range r {
			v += (x - m) * (x - m)
			if i > 0 {
				c += (x - m) * (r[i-1] - m)
			}
		}
		return v / (n - 1), c / v
	}
	v, rho := run(1)
	// Independent draws: sd of the sample variance is M·sqrt(2/n), of the
	// lag-1 autocorrelation 1/sqrt(n).
	if math.Abs(v-mass) > 4*mass*math.Sqrt(2.0/n) {
		t.Errorf("resampled momentum variance %.4f, want %g ± %.3f", v, mass, 4*mass*math.Sqrt(2.0/n))
	}
	if math.Abs(rho) > 4/math.Sqrt(n) {
		t.Errorf("resampled momentum lag-1 autocorrelation %.4f, want 0 ± %.3f", rho, 4/math.Sqrt(n))
	}
	if _, rho0 := run(0); rho0 < 0.9 {
		t.Errorf("without resampling the lag-1 autocorrelation is %.3f; the test cannot tell resampling apart", rho0)
	}
}

// gammaField is Γ(z) = (2z₀, 0).
type gammaField struct{}

func (gammaField) At(dst, z []float64) { dst[0], dst[1] = 2*z[0], 0 }
