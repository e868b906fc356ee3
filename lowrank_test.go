// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/testmat"
	"github.com/sgmcmc-go/sgmcmc/rng"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// randomLowRank returns a d×k row-major matrix with orthonormal columns.
func randomLowRank(d, k int, seed uint64) []float64 {
	q := testmat.RandOrthogonal(rand.New(rand.NewPCG(seed, 5)), d)
	u := make([]float64, d*k)
	for i := range d {
		for j := range k {
			u[i*k+j] = q.At(i, j)
		}
	}
	return u
}

// TestLowRankDiagNoise: the operator's noise has covariance
// ε(2D − ε diag(b)), from the empirical covariance of 10⁵ draws, each
// entry within 5 of its standard errors.
func TestLowRankDiagNoise(t *testing.T) {
	const d, k, n, eps = 6, 2, 100000, 0.1
	a := []float64{1, 0.5, 2, 0.25, 1.5, 0.8}
	u := randomLowRank(d, k, 1)
	s := []float64{3, 0.7}
	b := []float64{0.5, 0, 1, 0, 2, 0.1}
	op, err := NewLowRankDiag(a, u, s)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			var v float64
			for q := range k {
				v += u[i*k+q] * s[q] * u[j*k+q]
			}
			if i == j {
				v += a[i]
			}
			v = 2 * eps * v
			if i == j {
				v -= eps * eps * b[i]
			}
			want.SetSym(i, j, v)
		}
	}
	g := rng.NewNormal(3, 4)
	xs := mat.NewDense(n, d, nil)
	for k := range n {
		if err := op.Noise(xs.RawRowView(k), nil, eps, b, g); err != nil {
			t.Fatal(err)
		}
	}
	got := mat.NewSymDense(d, nil)
	stat.CovarianceMatrix(got, xs, nil)
	for i := range d {
		if mean := stat.Mean(mat.Col(nil, i, xs), nil); math.Abs(mean) > 5*math.Sqrt(want.At(i, i)/n) {
			t.Errorf("mean[%d] = %.4g, want 0", i, mean)
		}
		for j := range d {
			se := math.Sqrt((want.At(i, i)*want.At(j, j) + want.At(i, j)*want.At(i, j)) / n)
			if math.Abs(got.At(i, j)-want.At(i, j)) > 5*se {
				t.Errorf("cov[%d,%d] = %.5f, want %.5f ± %.5f", i, j, got.At(i, j), want.At(i, j), se)
			}
		}
	}
	// AddMulVec is D x.
	xv := []float64{1, -2, 0.5, 3, -1, 0.25}
	dst := make([]float64, d)
	op.AddMulVec(dst, 2, xv, nil, 0, d)
	for i := range d {
		var v float64
		for j := range d {
			w := want.At(i, j)
			if i == j {
				w += eps * eps * b[i]
			}
			v += w / (2 * eps) * xv[j]
		}
		if math.Abs(dst[i]-2*v) > 1e-12 {
			t.Errorf("AddMulVec[%d] = %v, want %v", i, dst[i], 2*v)
		}
	}
}

// TestLowRankDiagAllocs: the operator's noise, its product and a Recipe
// step with it allocate nothing.
func TestLowRankDiagAllocs(t *testing.T) {
	const d, k = 300, 10
	a := make([]float64, d)
	for i := range a {
		a[i] = 1
	}
	s := make([]float64, k)
	for j := range s {
		s[j] = float64(j + 1)
	}
	op, err := NewLowRankDiag(a, randomLowRank(d, k, 2), s)
	if err != nil {
		t.Fatal(err)
	}
	g := rng.NewNormal(1, 1)
	x, dst := make([]float64, d), make([]float64, d)
	if n := testing.AllocsPerRun(100, func() {
		_ = op.Noise(dst, nil, 0.1, nil, g)
		op.AddMulVec(dst, 1, x, nil, 0, d)
	}); n != 0 {
		t.Errorf("Noise and AddMulVec: %v allocs, want 0", n)
	}
	grad := GradFunc(func(dst, th []float64) { copy(dst, th) })
	r, err := NewRecipe(RecipeSpec{Grad: grad, D: op, Z0: make([]float64, d), Src: rand.NewPCG(1, 2)})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = r.Step(0.01) }); n != 0 {
		t.Errorf("Recipe.Step with LowRankDiag: %v allocs, want 0", n)
	}
}

// TestAffineLowRank: ToZ inverts ToTheta, the gradient pulls back by Lᵀ,
// and neither allocates.
func TestAffineLowRank(t *testing.T) {
	const d, k = 50, 3
	r := rand.New(rand.NewPCG(4, 4))
	shift, diag := make([]float64, d), make([]float64, d)
	for i := range d {
		shift[i], diag[i] = r.NormFloat64(), 0.5+r.Float64()
	}
	u := randomLowRank(d, k, 3)
	c := []float64{2, -0.5, 0.3}
	h := make([]float64, d) // ∇U(θ) = h ⊙ θ
	for i := range h {
		h[i] = 1 + r.Float64()
	}
	grad := GradFunc(func(dst, th []float64) {
		for i, v := range th {
			dst[i] = h[i] * v
		}
	})
	a, err := NewAffineLowRank(grad, shift, diag, u, c)
	if err != nil {
		t.Fatal(err)
	}
	// L explicitly.
	l := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			v := 0.0
			if i == j {
				v = 1
			}
			for q := range k {
				v += u[i*k+q] * c[q] * u[j*k+q]
			}
			l.Set(i, j, diag[i]*v)
		}
	}
	z := make([]float64, d)
	for i := range z {
		z[i] = r.NormFloat64()
	}
	th, back, gz := make([]float64, d), make([]float64, d), make([]float64, d)
	a.ToTheta(th, z)
	for i := range d {
		want := shift[i]
		for j := range d {
			want += l.At(i, j) * z[j]
		}
		if math.Abs(th[i]-want) > 1e-12 {
			t.Fatalf("ToTheta[%d] = %v, want %v", i, th[i], want)
		}
	}
	a.ToZ(back, th)
	for i := range d {
		if math.Abs(back[i]-z[i]) > 1e-12 {
			t.Fatalf("ToZ(ToTheta(z))[%d] = %v, want %v", i, back[i], z[i])
		}
	}
	a.Grad(gz, z)
	for j := range d {
		var want float64
		for i := range d {
			want += l.At(i, j) * h[i] * th[i]
		}
		if math.Abs(gz[j]-want) > 1e-10 {
			t.Fatalf("Grad[%d] = %v, want %v", j, gz[j], want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { a.Grad(gz, z); a.ToTheta(th, z); a.ToZ(back, th) }); n != 0 {
		t.Errorf("%v allocs, want 0", n)
	}
	if _, err := NewAffineLowRank(grad, shift, diag, u, []float64{2, -1, 0}); err == nil {
		t.Error("c = −1: no error")
	}
	bad := append([]float64(nil), u...)
	bad[0] += 0.1
	if _, err := NewAffineLowRank(grad, shift, diag, bad, c); err == nil {
		t.Error("columns not orthonormal: no error")
	}
}
