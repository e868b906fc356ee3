// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package targets_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/targets"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
)

// ksCrit/√n is the 0.999 level of the KS distance of n exact draws.
const ksCrit = 1.95

type potential interface {
	Potential(x []float64) float64
	Grad(dst, x []float64)
}

func TestGradients(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	dir := targets.DenseDirichlet()
	for name, tc := range map[string]struct {
		f    func(x []float64) float64
		grad func(dst, x []float64)
		dim  int
		pos  bool // positive support
	}{
		"standard gaussian":   pot(targets.StandardGaussian(3), 3),
		"correlated gaussian": pot(targets.CorrelatedGaussian(4, 0.9), 4),
		"normal1d":            pot(targets.Normal1D(), 1),
		"double well":         pot(targets.DoubleWell(), 1),
		"banana":              pot(targets.Banana{}, 2),
		"gamma 2.5":           {targets.Gamma(2.5).Potential, targets.Gamma(2.5).Grad, 1, true},
		"gamma 0.3":           {targets.Gamma(0.3).Potential, targets.Gamma(0.3).Grad, 1, true},
		"dirichlet expanded":  {dir.ExpandedPotential, dir.ExpandedGrad, 10, true},
	} {
		for range 5 {
			x := make([]float64, tc.dim)
			for i := range x {
				x[i] = 2 * rng.NormFloat64()
				if tc.pos {
					x[i] = 0.2 + rng.ExpFloat64()
				}
			}
			if c := sgmcmc.CheckGradient(tc.f, tc.grad, x); c.RelErr > 1e-7 {
				t.Errorf("%s at %v: %v", name, x, c)
			}
		}
	}
}

func pot(p potential, d int) struct {
	f    func(x []float64) float64
	grad func(dst, x []float64)
	dim  int
	pos  bool
} {
	return struct {
		f    func(x []float64) float64
		grad func(dst, x []float64)
		dim  int
		pos  bool
	}{p.Potential, p.Grad, d, false}
}

// TestLogProb checks the normalised log densities: the Gaussian against
// the density evaluated with an LU decomposition, the Dirichlet against its
// normaliser as a product of Beta functions, the others by quadrature.
func TestLogProb(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 1))
	g := targets.CorrelatedGaussian(3, 0.7)
	var lu mat.LU
	lu.Factorize(g.Cov())
	logDet, _ := lu.LogDet()
	for range 5 {
		x := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		var y mat.VecDense
		if err := lu.SolveVecTo(&y, false, mat.NewVecDense(3, x)); err != nil {
			t.Fatal(err)
		}
		want := -0.5*mat.Dot(mat.NewVecDense(3, x), &y) - 0.5*logDet - 1.5*math.Log(2*math.Pi)
		if got := g.LogProb(x); math.Abs(got-want) > 1e-12 {
			t.Errorf("Gaussian LogProb(%v) = %v, want %v", x, got, want)
		}
	}
	dir := targets.SparseDirichlet()
	alpha := dir.Alpha()
	// B(α) = Π_{j≥1} B(α₀ + … + α_{j−1}, α_j).
	var logB, acc float64
	acc = alpha[0]
	for _, a := range alpha[1:] {
		logB += mathext.Lbeta(acc, a)
		acc += a
	}
	for range 5 {
		w := make([]float64, dir.Dim())
		dir.Draw(w, rng)
		want := -logB
		for j, a := range alpha {
			want += (a - 1) * math.Log(w[j])
		}
		if got := dir.LogProb(w); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("Dirichlet LogProb = %v, want %v", got, want)
		}
	}
	// 1-D: ∫ p = 1 by Gauss–Legendre on a wide interval.
	for name, u := range map[string]*targets.Univariate{
		"normal": targets.Normal1D(), "double well": targets.DoubleWell(), "gamma 3.5": targets.Gamma(3.5),
	} {
		lo, _ := u.Support()
		lo = math.Max(lo, -12)
		z := quad.Fixed(u.Density, lo, 40, 4000, nil, 0)
		if math.Abs(z-1) > 1e-12 {
			t.Errorf("%s: ∫ p = %v", name, z)
		}
	}
	// Banana: ∫∫ p = 1; θ₂ | θ₁ has sd 1/4 around θ₁²/4 − 1.2.
	var b targets.Banana
	z := quad.Fixed(func(t1 float64) float64 {
		c := t1*t1/4 - 1.2
		return quad.Fixed(func(t2 float64) float64 { return math.Exp(b.LogProb([]float64{t1, t2})) }, c-3, c+3, 200, nil, 0)
	}, -6, 6, 400, nil, 0)
	if math.Abs(z-1) > 1e-10 {
		t.Errorf("Banana: ∫∫ p = %v", z)
	}
}

// TestCDFs checks each CDF against quadrature of its density and each
// quantile function against its CDF.
func TestCDFs(t *testing.T) {
	t.Parallel()
	for name, u := range map[string]*targets.Univariate{
		"normal": targets.Normal1D(), "double well": targets.DoubleWell(), "gamma 3.5": targets.Gamma(3.5), "gamma 0.7": targets.Gamma(0.7),
	} {
		lo, _ := u.Support()
		lo = math.Max(lo, -10)
		for _, p := range []float64{1e-6, 0.01, 0.3, 0.5, 0.77, 0.999} {
			x := u.Quantile(p)
			if got := u.CDF(x); math.Abs(got-p) > 1e-12 {
				t.Errorf("%s: CDF(Quantile(%v)) = %v", name, p, got)
			}
			var want float64
			if name == "gamma 0.7" {
				// θ = s^{1/0.7} removes the singularity at 0.
				want = quad.Fixed(func(s float64) float64 {
					th := math.Pow(s, 1/0.7)
					return u.Density(th) * th / (0.7 * s)
				}, 0, math.Pow(x, 0.7), 2000, nil, 0)
			} else {
				want = quad.Fixed(u.Density, lo, x, 2000, nil, 0)
			}
			if math.Abs(u.CDF(x)-want) > 1e-10 {
				t.Errorf("%s: CDF(%v) = %v, quadrature %v", name, x, u.CDF(x), want)
			}
		}
	}
	// Banana's θ₁: closed form against quadrature of exp(−t⁴/10) and a
	// numerically inverted CDF.
	var b targets.Banana
	z1 := quad.Fixed(func(s float64) float64 { return math.Exp(-s * s * s * s / 10) }, -8, 8, 1000, nil, 0)
	for _, x := range []float64{-3, -1, -0.2, 0, 0.5, 2.5} {
		want := quad.Fixed(func(s float64) float64 { return math.Exp(-s*s*s*s/10) / z1 }, -8, x, 1000, nil, 0)
		if got := b.Theta1CDF(x); math.Abs(got-want) > 1e-12 {
			t.Errorf("Banana θ₁ CDF(%v) = %v, quadrature %v", x, got, want)
		}
		if q := b.Theta1Quantile(b.Theta1CDF(x)); math.Abs(q-x) > 1e-9 {
			t.Errorf("Banana θ₁ Quantile(CDF(%v)) = %v", x, q)
		}
	}
	// Banana's mean by quadrature.
	m2 := quad.Fixed(func(s float64) float64 { return s * s * math.Exp(-s*s*s*s/10) / z1 }, -8, 8, 1000, nil, 0)
	if math.Abs(m2-targets.BananaTheta1SecondMoment()) > 1e-12 {
		t.Errorf("Banana E[θ₁²] = %v, quadrature %v", targets.BananaTheta1SecondMoment(), m2)
	}
	// The Gaussian's Rosenblatt conditional of coordinate 1 given 0 with
	// Σ_01 = ρ: N(ρx₀, 1 − ρ²).
	g := targets.CorrelatedGaussian(2, 0.6)
	x := []float64{0.7, -0.4}
	want := 0.5 * math.Erfc(-(x[1]-0.6*x[0])/math.Sqrt(1-0.36)/math.Sqrt2)
	if got := g.CondCDF(1, x); math.Abs(got-want) > 1e-14 {
		t.Errorf("Gaussian CondCDF(1) = %v, want %v", got, want)
	}
}

// TestExactDraws checks the exact samplers by KS distances against the CDFs
// (each below its 0.999 level) and by their means (within four standard
// errors).
func TestExactDraws(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 1))
	const n = 4000
	tol := ksCrit / math.Sqrt(n)
	for name, u := range map[string]*targets.Univariate{
		"normal": targets.Normal1D(), "double well": targets.DoubleWell(), "gamma 3.5": targets.Gamma(3.5), "gamma 0.1": targets.Gamma(0.1),
	} {
		x := targets.Column(targets.SampleN(u, n, rng), 0)
		if d, err := diagnostics.KS(x, u.CDF); err != nil || d > tol {
			t.Errorf("%s: KS = %v, %v; want < %v", name, d, err, tol)
		}
		checkMean(t, name, x, u.Mean(), u.Variance())
	}
	for name, tc := range map[string]struct {
		e    targets.Exact
		cond func(int, []float64) float64
		dims int
	}{
		"banana":              {targets.Banana{}, targets.Banana{}.CondCDF, 2},
		"correlated gaussian": {targets.CorrelatedGaussian(5, 0.9), targets.CorrelatedGaussian(5, 0.9).CondCDF, 5},
		"sparse dirichlet":    {targets.SparseDirichlet(), targets.SparseDirichlet().CondCDF, 9},
		"dense dirichlet":     {targets.DenseDirichlet(), targets.DenseDirichlet().CondCDF, 9},
	} {
		draws := targets.SampleN(tc.e, n, rng)
		if d, err := diagnostics.RosenblattKS(draws, tc.cond, tc.dims); err != nil || d > tol {
			t.Errorf("%s: RosenblattKS = %v, %v; want < %v", name, d, err, tol)
		}
	}
	var b targets.Banana
	draws := targets.SampleN(b, n, rng)
	mean := make([]float64, 2)
	b.Mean(mean)
	// Var θ₁ = E θ₁², Var θ₂ = Var(θ₁²)/16 + 1/16 with E θ₁⁴ = 10 E[Y] = 2.5.
	m2 := targets.BananaTheta1SecondMoment()
	checkMean(t, "banana θ₁", targets.Column(draws, 0), mean[0], m2)
	checkMean(t, "banana θ₂", targets.Column(draws, 1), mean[1], (2.5-m2*m2)/16+1.0/16)
	dir := targets.SparseDirichlet()
	draws = targets.SampleN(dir, n, rng)
	for j := range 4 {
		if d, _ := diagnostics.KS(targets.Column(draws, j), func(x float64) float64 { return dir.MarginalCDF(j, x) }); d > tol {
			t.Errorf("sparse Dirichlet marginal %d: KS = %v", j, d)
		}
	}
	for _, w := range draws {
		var s float64
		for _, v := range w {
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("Dirichlet draw sums to %v", s)
		}
	}
	theta := make([]float64, dir.Dim())
	var th0 []float64
	for range n {
		dir.SampleExpanded(theta, rng)
		th0 = append(th0, theta[0])
	}
	checkMean(t, "expanded θ₀", th0, 800.1, 800.1)
}

func checkMean(t *testing.T, name string, x []float64, mean, variance float64) {
	t.Helper()
	var s float64
	for _, v := range x {
		s += v
	}
	s /= float64(len(x))
	if se := math.Sqrt(variance / float64(len(x))); math.Abs(s-mean) > 4*se {
		t.Errorf("%s: sample mean %v, want %v ± %v", name, s, mean, 4*se)
	}
}

func TestDoubleWellVariance(t *testing.T) {
	t.Parallel()
	dw := targets.DoubleWell()
	m2 := quad.Fixed(func(x float64) float64 { return x * x * dw.Density(x) }, -5, 5, 3000, nil, 0)
	if math.Abs(dw.Variance()-m2) > 1e-12 {
		t.Errorf("Variance = %v, quadrature %v", dw.Variance(), m2)
	}
}

// TestNoisy checks the injected noise: mean ∇U and variance σ² per
// coordinate, within four standard errors.
func TestNoisy(t *testing.T) {
	t.Parallel()
	g := targets.CorrelatedGaussian(3, 0.5)
	const sigma, n = 2.0, 20000
	ng := targets.Noisy(g.Grad, sigma, rand.NewPCG(4, 1))
	x := []float64{0.3, -1, 2}
	exact := make([]float64, 3)
	g.Grad(exact, x)
	dst := make([]float64, 3)
	var sum, sum2 [3]float64
	for range n {
		ng.Grad(dst, x)
		for i, v := range dst {
			sum[i] += v - exact[i]
			sum2[i] += (v - exact[i]) * (v - exact[i])
		}
	}
	for i := range 3 {
		mean, v := sum[i]/n, sum2[i]/n
		if math.Abs(mean) > 4*sigma/math.Sqrt(n) {
			t.Errorf("coordinate %d: mean noise %v", i, mean)
		}
		// Var of the sample variance of normals: 2σ⁴/n.
		if math.Abs(v-sigma*sigma) > 4*math.Sqrt(2/float64(n))*sigma*sigma {
			t.Errorf("coordinate %d: noise variance %v, want %v", i, v, sigma*sigma)
		}
	}
	ne := ng.(sgmcmc.NoiseEstimator)
	ne.NoiseVar(dst)
	if dst[0] != 4 || dst[2] != 4 {
		t.Errorf("NoiseVar = %v", dst)
	}
}

// TestNoAllocation: gradients and draws allocate nothing.
func TestNoAllocation(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	dir := targets.SparseDirichlet()
	g := targets.CorrelatedGaussian(4, 0.3)
	dw := targets.DoubleWell()
	ng := targets.Noisy(g.Grad, 1, rand.NewPCG(1, 2))
	x := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1}
	dst := make([]float64, 10)
	for name, f := range map[string]func(){
		"gaussian grad":   func() { g.Grad(dst[:4], x[:4]) },
		"gaussian sample": func() { g.Draw(dst[:4], rng) },
		"gaussian cond":   func() { _ = g.CondCDF(3, x[:4]) },
		"noisy grad":      func() { ng.Grad(dst[:4], x[:4]) },
		"double well":     func() { dw.Grad(dst[:1], x[:1]); dw.Draw(dst[:1], rng) },
		"banana":          func() { targets.Banana{}.Grad(dst[:2], x[:2]); targets.Banana{}.Draw(dst[:2], rng) },
		"dirichlet":       func() { dir.ExpandedGrad(dst, x); dir.Draw(dst, rng); _ = dir.CondCDF(3, x) },
	} {
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s: %v allocations", name, a)
		}
	}
}

func TestGaussianErrors(t *testing.T) {
	t.Parallel()
	if _, err := targets.NewGaussian([]float64{0, 0}, mat.NewSymDense(2, []float64{1, 2, 2, 1})); err == nil {
		t.Error("indefinite covariance: no error")
	}
	if _, err := targets.NewGaussian([]float64{0}, mat.NewSymDense(2, nil)); err == nil {
		t.Error("dimension mismatch: no error")
	}
	if _, err := targets.NewDirichlet([]float64{1, 0}); err == nil {
		t.Error("Dirichlet with α = 0: no error")
	}
}
