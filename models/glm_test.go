// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// simulate returns a GLM of family f with n rows, p N(0, 1) predictors, an
// intercept and a grouping factor of k levels (varying intercept and a
// varying slope on the first predictor), its response drawn from the
// model at moderate true values. sparse stores the predictors as CSR (half
// the entries zero).
func simulate(f Family, link Link, n, p, k int, sparse bool, seed uint64) GLM {
	r := rand.New(rand.NewPCG(seed, 99))
	x := mat.NewDense(n, p, nil)
	for i := range n {
		for j := range p {
			if !sparse || r.Float64() < 0.5 {
				x.Set(i, j, r.NormFloat64())
			}
		}
	}
	beta := make([]float64, p)
	for j := range beta {
		beta[j] = 0.5 * r.NormFloat64()
	}
	lvl := make([]int, n)
	eff := make([]float64, k)
	slope := make([]float64, k)
	for j := range eff {
		eff[j] = 0.7 * r.NormFloat64()
		slope[j] = 0.3 * r.NormFloat64()
	}
	g := GLM{Family: f, Link: link, Y: make([]float64, n)}
	if f == Binomial {
		g.Trials = make([]float64, n)
	}
	for i := range n {
		lvl[i] = r.IntN(k)
		eta := 0.3 + eff[lvl[i]] + slope[lvl[i]]*x.At(i, 0)
		for j := range p {
			eta += x.At(i, j) * beta[j]
		}
		switch f {
		case Gaussian:
			g.Y[i] = eta + 0.8*r.NormFloat64()
		case StudentT:
			g.Y[i] = eta + 0.8*r.NormFloat64()/math.Sqrt(r.ExpFloat64()*2/5+1e-9)
		case Bernoulli:
			if r.Float64() < sigmoid(eta) {
				g.Y[i] = 1
			}
		case Binomial:
			g.Trials[i] = float64(1 + r.IntN(10))
			for range int(g.Trials[i]) {
				if r.Float64() < sigmoid(eta) {
					g.Y[i]++
				}
			}
		case Poisson, NegBinomial:
			mu := math.Exp(eta)
			if f == NegBinomial {
				mu *= r.ExpFloat64() // a gamma(1) frailty: φ = 1
			}
			g.Y[i] = float64(poisson(r, mu))
		}
	}
	if sparse {
		s := &CSR{Rows: n, Cols: p, Ptr: []int{0}}
		for i := range n {
			for j := range p {
				if v := x.At(i, j); v != 0 {
					s.Idx = append(s.Idx, j)
					s.Val = append(s.Val, v)
				}
			}
			s.Ptr = append(s.Ptr, len(s.Idx))
		}
		g.Sparse = s
	} else {
		g.X = x
	}
	g.Groups = []Group{{Name: "g", Index: lvl, Slopes: []int{0}}}
	return g
}

func poisson(r *rand.Rand, mu float64) int {
	return int(distuv.Poisson{Lambda: mu, Src: r}.Rand())
}

// families are every family and link the package has.
var families = []struct {
	f Family
	l Link
}{
	{Gaussian, Identity}, {StudentT, Identity}, {Bernoulli, Logit}, {Bernoulli, Probit},
	{Binomial, Logit}, {Binomial, Probit}, {Poisson, LogLink}, {NegBinomial, LogLink},
}

// randomPoint returns x with coefficients and effects N(0, 0.5²) and the
// positive parameters in (0.5, 1.5) (ν in (2, 6)).
func randomPoint(m *Model, r *rand.Rand) []float64 {
	x := make([]float64, m.Dim())
	for i := range x {
		x[i] = 0.5 * r.NormFloat64()
	}
	if m.iA >= 0 {
		x[m.iA] = 0.5 + r.Float64()
	}
	if m.iNu >= 0 {
		x[m.iNu] = 2 + 4*r.Float64()
	}
	for _, q := range m.groups {
		for e := range q.e {
			x[q.sdOff+e] = 0.5 + r.Float64()
		}
	}
	if h := m.hs; h != nil {
		for j := range h.p {
			x[h.lam+j] = 0.5 + r.Float64()
		}
		x[h.tau], x[h.c2] = 0.1+r.Float64(), 1+r.Float64()
	}
	return x
}

// TestGradients: every family's, link's and design's gradients (prior and
// every checked row) match central differences of its log densities
// (sgmcmc.CheckModel), in both parameterisations of the groups.
func TestGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, fl := range families {
		for _, sparse := range []bool{false, true} {
			for _, par := range []Param{Centred, NonCentred} {
				g := simulate(fl.f, fl.l, 300, 3, 6, sparse, 1)
				g.Groups[0].Param = par
				m, err := NewGLM(g)
				if err != nil {
					t.Fatalf("%v %v: %v", fl.f, fl.l, err)
				}
				x := randomPoint(m, r)
				if _, err := sgmcmc.CheckModel(m, x, nil); err != nil {
					t.Errorf("%v(%v) sparse %v param %v: %v", fl.f, fl.l, sparse, par, err)
				}
			}
		}
	}
}

// TestHorseshoeGradients: the regularised horseshoe's gradients (through
// b = z·τλ̃ into z, λ, τ and c², and its own priors) match central
// differences, per row and as a batch.
func TestHorseshoeGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, fl := range families[:3] {
		g := simulate(fl.f, fl.l, 400, 5, 4, false, 4)
		g.Horseshoe = &Horseshoe{Expected: 2}
		m, err := NewGLM(g)
		if err != nil {
			t.Fatal(err)
		}
		x := randomPoint(m, r)
		if _, err := sgmcmc.CheckModel(m, x, nil); err != nil {
			t.Errorf("%v: %v", fl.f, err)
		}
		checkBatch(t, m, x, r.Perm(m.Len())[:300], 1, fl.f.String())
	}
}

// TestBatchMatchesRows: LogLikGradBatch equals the sum of LogLikGrad over
// the batch, to rounding, for every family and both designs, in one part
// and in several (run in parallel).
func TestBatchMatchesRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, fl := range families {
		for _, sparse := range []bool{false, true} {
			g := simulate(fl.f, fl.l, 2000, 4, 7, sparse, 2)
			m, err := NewGLM(g)
			if err != nil {
				t.Fatal(err)
			}
			x := randomPoint(m, r)
			for _, n := range []int{7, 1500} {
				checkBatch(t, m, x, r.Perm(m.Len())[:n], 1.7, fmt.Sprintf("%v(%v) sparse %v n %d", fl.f, fl.l, sparse, n))
			}
		}
	}
}

// checkBatch reports a coordinate where LogLikGradBatch over idx differs
// from the sum of LogLikGrad over its rows by more than rounding.
func checkBatch(t *testing.T, m *Model, x []float64, idx []int, scale float64, what string) {
	t.Helper()
	want, got := make([]float64, m.Dim()), make([]float64, m.Dim())
	for _, i := range idx {
		m.LogLikGrad(want, x, i, scale)
	}
	m.LogLikGradBatch(got, x, idx, scale)
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-10*(1+math.Abs(want[j])) {
			t.Errorf("%s: coordinate %s: batch %v, rows %v", what, m.xnames[j], got[j], want[j])
			return
		}
	}
}

// TestBatchAllocs: a warm LogLikGradBatch allocates nothing (not checked
// under the race detector, whose sync.Pool drops items at random).
func TestBatchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	g := simulate(Poisson, LogLink, 5000, 10, 20, false, 3)
	m, err := NewGLM(g)
	if err != nil {
		t.Fatal(err)
	}
	x := randomPoint(m, rand.New(rand.NewPCG(1, 1)))
	idx := rand.New(rand.NewPCG(2, 2)).Perm(m.Len())[:1000]
	dst := make([]float64, m.Dim())
	m.LogLikGradBatch(dst, x, idx, 1)
	if a := testing.AllocsPerRun(50, func() { m.LogLikGradBatch(dst, x, idx, 1) }); a != 0 {
		t.Errorf("LogLikGradBatch: %v allocations a call, want 0", a)
	}
}

// TestCategoricalGradients: the softmax model's gradients match central
// differences, and its batch the rows; its names are brms's.
func TestCategoricalGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n, p := 300, 2
	x := mat.NewDense(n, p, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range p {
			x.Set(i, j, r.NormFloat64())
		}
		y[i] = float64(r.IntN(3))
	}
	m, err := NewGLM(GLM{Family: Categorical, Y: y, X: x, Names: []string{"a", "b"}, Categories: []string{"lo", "mid", "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(m.Names()); got != "[b.mumid.Intercept b.mumid.a b.mumid.b b.muhi.Intercept b.muhi.a b.muhi.b]" {
		t.Errorf("names %s", got)
	}
	th := randomPoint(m, r)
	if _, err := sgmcmc.CheckModel(m, th, nil); err != nil {
		t.Error(err)
	}
	checkBatch(t, m, th, r.Perm(n)[:200], 1, "categorical")
}
