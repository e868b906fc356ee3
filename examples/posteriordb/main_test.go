// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

const dataDir = "../../testdata/posteriordb"

var (
	illOnce sync.Once
	illProb *IllCond
	illErr  error
)

// illcond returns the illcond100 problem, built once per test binary.
func illcond(t *testing.T) *IllCond {
	t.Helper()
	illOnce.Do(func() { illProb, illErr = NewIllCondProblem(IllCondSeed) })
	if illErr != nil {
		t.Fatal(illErr)
	}
	return illProb
}

// loadTarget loads a target, reusing illcond's construction.
func loadTarget(t *testing.T, name string) *Target {
	t.Helper()
	if name == "illcond100" {
		p := illcond(t)
		tg, err := illTarget(p)
		if err != nil {
			t.Fatal(err)
		}
		return tg
	}
	tg, err := LoadTarget(name, dataDir)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestGradients checks every target's prior and per-datum likelihood
// gradients against central finite differences of its log densities, at
// the start, at the reference mean and at two dispersed points.
func TestGradients(t *testing.T) {
	var all []string
	for _, name := range slices.Concat(checkTargets, devTargets, devSet) {
		if !slices.Contains(all, name) {
			all = append(all, name)
		}
	}
	for _, name := range all {
		t.Run(name, func(t *testing.T) {
			tg := loadTarget(t, name)
			m := tg.Model
			if _, ok := m.(sgmcmc.LogDensity); !ok {
				t.Fatalf("%T does not implement sgmcmc.LogDensity", m)
			}
			if len(tg.UNames) != m.Dim() {
				t.Fatalf("%d unconstrained names, model dimension %d", len(tg.UNames), m.Dim())
			}
			if len(tg.Start) != m.Dim() || len(tg.refMeanU) != m.Dim() || len(tg.RefMean) != tg.Dim() || len(tg.RefSD) != tg.Dim() {
				t.Fatalf("dimensions: start %d, reference %d/%d/%d, model %d, names %d",
					len(tg.Start), len(tg.refMeanU), len(tg.RefMean), len(tg.RefSD), m.Dim(), tg.Dim())
			}
			n := m.Len()
			items := []int{0, n / 2, n - 1}
			rng := rand.New(rand.NewPCG(1, 2))
			var chol mat.Cholesky
			if !chol.Factorize(tg.refCovU) {
				t.Fatal("reference covariance not positive definite")
			}
			var l mat.TriDense
			chol.LTo(&l)
			points := [][]float64{tg.Start, tg.refMeanU}
			var worst float64
			tol := 1e-6
			if _, ok := m.(*GPPoisson); ok {
				// The jittered Cholesky factor of a nearly singular
				// covariance leaves rounding noise of about 1e-8 in the
				// log density far from the mode, which limits central
				// differences there to about 1e-5; TestGPGradient checks
				// with a higher-order formula.
				tol = 2e-5
			}
			for range 2 {
				z := mat.NewVecDense(m.Dim(), nil)
				for i := range m.Dim() {
					z.SetVec(i, 2*rng.NormFloat64())
				}
				z.MulVec(&l, z)
				p := make([]float64, m.Dim())
				for i := range p {
					p[i] = tg.refMeanU[i] + z.AtVec(i)
				}
				points = append(points, p)
			}
			for k, p := range points {
				c, err := sgmcmc.CheckModel(m, p, items)
				if err != nil {
					t.Fatal(err)
				}
				if !(c.RelErr < tol) {
					t.Errorf("point %d: %v", k, c)
				}
				worst = max(worst, c.RelErr)
			}
			t.Logf("largest relative error %.2g", worst)
		})
	}
}

// TestFunnelGradientDeepNeck checks the funnel's gradient where it is
// stiffest, in the neck (v = −6) and in the mouth (v = 6).
func TestFunnelGradientDeepNeck(t *testing.T) {
	f := Funnel{D: funnelD}
	for _, v := range []float64{-6, 6} {
		theta := make([]float64, funnelD)
		theta[0] = v
		for i := 1; i < funnelD; i++ {
			theta[i] = math.Exp(v/2) * float64(i%3-1)
		}
		c, err := sgmcmc.CheckModel(f, theta, []int{0})
		if err != nil {
			t.Fatal(err)
		}
		if !(c.RelErr < 1e-6) {
			t.Errorf("v = %g: %v", v, c)
		}
	}
}

// TestIllCondExact checks illcond100's exact posterior, computed from the
// spectral construction, against a direct computation from the generated
// data: P = Σ x_i x_iᵀ + τI by accumulation, m = P⁻¹Xᵀy and diag(P⁻¹) by
// Cholesky. It also checks that the spectrum is the designed one and that
// the full-data gradient of the model is P(θ − m).
func TestIllCondExact(t *testing.T) {
	p := illcond(t)
	lg := p.Model
	d, n := lg.D, lg.Len()
	if d != 100 || n != 10_000 {
		t.Fatalf("N = %d, d = %d; want 10,000 and 100", n, d)
	}
	x := mat.NewDense(n, d, lg.X)
	prec := mat.NewSymDense(d, nil)
	prec.SymOuterK(1, x.T())
	for j := range d {
		prec.SetSym(j, j, prec.At(j, j)+lg.Tau)
	}
	var eig mat.EigenSym
	if !eig.Factorize(prec, false) {
		t.Fatal("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	slices.Sort(vals)
	for k, v := range vals {
		want := math.Pow(10, 8*float64(k)/99)
		if math.Abs(v-want) > 1e-6*want {
			t.Errorf("eigenvalue %d of P: %v, want %v", k, v, want)
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(prec) {
		t.Fatal("P not positive definite")
	}
	xty := mat.NewVecDense(d, nil)
	xty.MulVec(x.T(), mat.NewVecDense(n, lg.Y))
	var mean mat.VecDense
	if err := chol.SolveVecTo(&mean, xty); err != nil {
		t.Fatal(err)
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		t.Fatal(err)
	}
	for j := range d {
		sd := math.Sqrt(p.Cov.At(j, j))
		if e := math.Abs(mean.AtVec(j)-p.Mean[j]) / sd; e > 1e-6 {
			t.Errorf("mean %d: direct %v, spectral %v (%.2g sd)", j, mean.AtVec(j), p.Mean[j], e)
		}
		if e := math.Abs(math.Sqrt(cov.At(j, j))/sd - 1); e > 1e-6 {
			t.Errorf("sd %d: direct %v, spectral %v", j, math.Sqrt(cov.At(j, j)), sd)
		}
	}
	// The per-datum gradients realise P: ∇U(θ) = P(θ − m).
	rng := rand.New(rand.NewPCG(3, 4))
	theta := make([]float64, d)
	diff := mat.NewVecDense(d, nil)
	for j := range theta {
		theta[j] = p.Mean[j] + rng.NormFloat64()
		diff.SetVec(j, theta[j]-p.Mean[j])
	}
	g := make([]float64, d)
	sgmcmc.FullGradient(lg).Grad(g, theta)
	var want mat.VecDense
	want.MulVec(prec, diff)
	scale := mat.Norm(&want, 2)
	for j := range d {
		if e := math.Abs(g[j] - want.AtVec(j)); e > 1e-8*scale {
			t.Errorf("∇U_%d = %v, P(θ − m) = %v", j, g[j], want.AtVec(j))
		}
	}
}

// exactDraws returns k chains of n independent draws of N(mean, cov).
func exactDraws(t *testing.T, mean []float64, cov mat.Symmetric, k, n int, seed uint64) [][][]float64 {
	t.Helper()
	var chol mat.Cholesky
	if !chol.Factorize(cov) {
		t.Fatal("covariance not positive definite")
	}
	var l mat.TriDense
	chol.LTo(&l)
	d := len(mean)
	rng := rand.New(rand.NewPCG(seed, 99))
	z := mat.NewVecDense(d, nil)
	var x mat.VecDense
	out := make([][][]float64, k)
	for c := range out {
		out[c] = make([][]float64, n)
		for i := range n {
			for j := range d {
				z.SetVec(j, rng.NormFloat64())
			}
			x.MulVec(&l, z)
			v := make([]float64, d)
			for j := range v {
				v[j] = mean[j] + x.AtVec(j)
			}
			out[c][i] = v
		}
	}
	return out
}

// funnelDraws returns k chains of n exact draws of the funnel.
func funnelDraws(k, n int, seed uint64) [][][]float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([][][]float64, k)
	for c := range out {
		out[c] = make([][]float64, n)
		for i := range n {
			x := make([]float64, funnelD)
			x[0] = 3 * rng.NormFloat64()
			s := math.Exp(x[0] / 2)
			for j := 1; j < funnelD; j++ {
				x[j] = s * rng.NormFloat64()
			}
			out[c][i] = x
		}
	}
	return out
}

// TestFunnelMarginals checks funnel10's exact reference against exact
// draws: v ~ N(0, 3²) (mean and sd within 4.5 standard errors), the
// marginal CDF of every x_i (KS distance below the 0.1 % critical value
// 1.95/√n), and the sd e^(9/4) of x_i against quadrature of E e^v.
func TestFunnelMarginals(t *testing.T) {
	tg := NewFunnel()
	n := 20_000
	if testing.Short() {
		n = 5000
	}
	draws := funnelDraws(1, n, 11)[0]
	col := func(j int) []float64 {
		x := make([]float64, n)
		for i, d := range draws {
			x[i] = d[j]
		}
		return x
	}
	v := col(0)
	var mean, m2 float64
	for _, x := range v {
		mean += x
	}
	mean /= float64(n)
	for _, x := range v {
		m2 += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(m2 / float64(n-1))
	if e := math.Abs(mean - tg.RefMean[0]); e > 4.5*3/math.Sqrt(float64(n)) {
		t.Errorf("v: mean %v, want 0", mean)
	}
	if e := math.Abs(sd - tg.RefSD[0]); e > 4.5*3/math.Sqrt(2*float64(n)) {
		t.Errorf("v: sd %v, want 3", sd)
	}
	for j := 1; j < funnelD; j += 4 {
		ks, err := diagnostics.KS(col(j), FunnelXCDF)
		if err != nil {
			t.Fatal(err)
		}
		if ks > 1.95/math.Sqrt(float64(n)) {
			t.Errorf("x[%d]: KS distance %.4f from the exact marginal, above the 0.1%% critical value %.4f", j, ks, 1.95/math.Sqrt(float64(n)))
		}
	}
	// The test can fail: normal draws with the same sd are far from the
	// funnel's marginal.
	rng := rand.New(rand.NewPCG(12, 13))
	normal := make([]float64, n)
	for i := range normal {
		normal[i] = funnelXSD * rng.NormFloat64()
	}
	if ks, err := diagnostics.KS(normal, FunnelXCDF); err != nil || ks < 10/math.Sqrt(float64(n)) {
		t.Errorf("normal draws of sd e^(9/4): KS distance %v (%v), want far above the critical value", ks, err)
	}
	// The quadrature has converged.
	for _, x := range []float64{-100, -10, -1, -0.1, 0.01, 0.3, 3, 30, 300} {
		if a, b := FunnelXCDF(x), funnelXCDF(x, 40*720); math.Abs(a-b) > 1e-12 {
			t.Errorf("F(%g) = %v with step 0.1, %v with step 0.0025", x, a, b)
		}
	}
	// The CDF is a CDF: 0, ½ and 1 at −∞, 0, +∞, and symmetric.
	if a, b, c := FunnelXCDF(-1e6), FunnelXCDF(0), FunnelXCDF(1e6); math.Abs(a) > 1e-9 || math.Abs(b-0.5) > 1e-12 || math.Abs(c-1) > 1e-9 {
		t.Errorf("F(−∞), F(0), F(∞) = %v, %v, %v", a, b, c)
	}
	if a, b := FunnelXCDF(-3), FunnelXCDF(3); math.Abs(a+b-1) > 1e-12 {
		t.Errorf("F(−3) + F(3) = %v", a+b)
	}
	// Var x_i = E e^v by the same trapezoid rule.
	var ev float64
	const h = 0.01
	for k := -3600; k <= 3600; k++ {
		w := float64(k) * h
		ev += h * math.Exp(w+normLogPDF(w, 0, 3))
	}
	for j := 1; j < funnelD; j++ {
		if got := tg.RefSD[j] * tg.RefSD[j]; math.Abs(got/ev-1) > 1e-9 {
			t.Errorf("x[%d]: reference variance %v, E e^v = %v", j, got, ev)
		}
	}
}

// TestCompareExact computes rows from exact draws: the posteriordb
// reference draws themselves (errors zero to rounding), exact draws of
// illcond100 (errors within Monte Carlo error) and exact funnel draws (v
// right; the sd of x is noisy even from exact draws, see the package
// documentation).
func TestCompareExact(t *testing.T) {
	for _, name := range []string{"earnings", "kidiq"} {
		tg := loadTarget(t, name)
		spec := map[string]string{"earnings": earningsSpec.dir, "kidiq": kidiqSpec.dir}[name]
		ref, err := readDraws(filepath.Join(dataDir, spec), tg.Names)
		if err != nil {
			t.Fatal(err)
		}
		st, err := Compare(tg, unconstrainAll(tg, ref))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s reference draws: %+v", name, st)
		if st.MaxMeanErrSD > 1e-9 || math.Abs(st.MaxSDRelErr) > 1e-9 || st.MaxRHat > 1.01 || st.MinESSBulk < 8000 {
			t.Errorf("%s: row of the reference draws themselves: %+v", name, st)
		}
	}

	p := illcond(t)
	tg := loadTarget(t, "illcond100")
	const k, n = 4, 1000
	st, err := Compare(tg, exactDraws(t, p.Mean, p.Cov, k, n, 5))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("illcond100 exact draws: %+v", st)
	// The max over 100 parameters of |N(0,1)| exceeds 4.5 with probability
	// 7e-4: tolerances are 4.5 standard errors.
	s := float64(k * n)
	if st.MaxMeanErrSD > 4.5/math.Sqrt(s) || math.Abs(st.MaxSDRelErr) > 4.5/math.Sqrt(2*s) || st.MaxRHat > 1.01 || st.MinESSBulk < 0.6*s {
		t.Errorf("illcond100 exact draws: %+v", st)
	}

	fn := NewFunnel()
	st, err = Compare(fn, funnelDraws(k, n, 6))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("funnel10 exact draws: %+v", st)
	if st.MaxRHat > 1.01 || st.MinESSBulk < 0.6*s {
		t.Errorf("funnel10 exact draws: %+v", st)
	}
	vst, err := Compare(&Target{Names: fn.Names[:1], Model: fn.Model, RefMean: fn.RefMean, RefSD: fn.RefSD,
		Constrain: func(dst, x []float64) { dst[0] = x[0] }}, funnelDraws(k, n, 6))
	if err != nil {
		t.Fatal(err)
	}
	if vst.MaxMeanErrSD > 4.5/math.Sqrt(s) || math.Abs(vst.MaxSDRelErr) > 4.5/math.Sqrt(2*s) {
		t.Errorf("funnel10 exact draws of v: %+v", vst)
	}
}

// unconstrainAll maps reference draws of a regression to θ = (β, log σ).
func unconstrainAll(tg *Target, ref [][][]float64) [][][]float64 {
	p := tg.Dim() - 1
	out := make([][][]float64, len(ref))
	for c, ch := range ref {
		out[c] = make([][]float64, len(ch))
		for i, x := range ch {
			u := slices.Clone(x)
			u[p] = math.Log(x[p])
			out[c][i] = u
		}
	}
	return out
}
