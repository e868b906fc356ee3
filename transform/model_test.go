// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// conjugate is a model in constrained parameters with a known posterior,
// one conjugate pair per transform. Its parameter vector x is
//
//	x[0]    λ > 0        counts c_i ~ Poisson(λ),        λ ~ Gamma(2, 1)
//	x[1]    p ∈ (0, 1)   bits b_i ~ Bernoulli(p),        p ~ Beta(1.5, 1.5)
//	x[2:5]  w, simplex   categories k_i ~ Categorical(w), w ~ Dirichlet(1.5, 1.5, 1.5)
//	x[5]    τ > 1        counts s_i ~ Poisson(τ − 1),    τ − 1 ~ Gamma(2, 1)
//	x[6]    ν < 5        counts u_i ~ Poisson(5 − ν),    5 − ν ~ Gamma(2, 1)
//	x[7]    q ∈ (−1, 3)  bits e_i ~ Bernoulli((q+1)/4),  (q+1)/4 ~ Beta(1.5, 1.5)
//	x[8]    μ ∈ ℝ        values v_i ~ N(μ, 1),           μ ~ N(0, 10²)
//
// with log densities in x (Lebesgue measure on x[0:4], x[5:9]; x[4] is
// 1 − x[2] − x[3]).
type conjugate struct {
	c, b, k, s, u, e []int
	v                []float64
}

const (
	gammaA, gammaB = 2.0, 1.0
	betaA          = 1.5
	dirA           = 1.5
	muVar          = 100.0
)

// conjugateSpace is the Space of conjugate's parameters.
func conjugateSpace() (*Space, error) {
	return NewSpace(
		Param{Name: "lambda", Transform: Positive{}},
		Param{Name: "p", Transform: Bounded{Lower: 0, Upper: 1}},
		Param{Name: "w", Size: 3, Transform: Simplex{}},
		Param{Name: "tau", Transform: Lower{Bound: 1}},
		Param{Name: "nu", Transform: Upper{Bound: 5}},
		Param{Name: "q", Transform: Bounded{Lower: -1, Upper: 3}},
		Param{Name: "mu"},
	)
}

// newConjugate draws n data items.
func newConjugate(n int, r *rand.Rand) *conjugate {
	m := &conjugate{}
	for range n {
		m.c = append(m.c, poisson(2, r))
		m.b = append(m.b, bernoulli(0.3, r))
		k := 0
		if u := r.Float64(); u > 0.5 {
			k = 1
			if u > 0.8 {
				k = 2
			}
		}
		m.k = append(m.k, k)
		m.s = append(m.s, poisson(0.5, r))
		m.u = append(m.u, poisson(1, r))
		m.e = append(m.e, bernoulli(0.8, r))
		m.v = append(m.v, 1+r.NormFloat64())
	}
	return m
}

func poisson(lam float64, r *rand.Rand) int {
	l, k, p := math.Exp(-lam), 0, r.Float64()
	for p > l {
		k++
		p *= r.Float64()
	}
	return k
}

func bernoulli(p float64, r *rand.Rand) int {
	if r.Float64() < p {
		return 1
	}
	return 0
}

func (m *conjugate) Dim() int { return 9 }
func (m *conjugate) Len() int { return len(m.c) }

func (m *conjugate) LogPrior(x []float64) float64 {
	lg := func(t float64) float64 { return (gammaA-1)*math.Log(t) - gammaB*t }
	lb := func(u float64) float64 { return (betaA-1)*math.Log(u) + (betaA-1)*math.Log1p(-u) }
	v := lg(x[0]) + lb(x[1]) + lg(x[5]-1) + lg(5-x[6]) + lb((x[7]+1)/4) - x[8]*x[8]/(2*muVar)
	for _, w := range x[2:5] {
		v += (dirA - 1) * math.Log(w)
	}
	return v
}

func (m *conjugate) LogPriorGrad(dst, x []float64) {
	dg := func(t float64) float64 { return (gammaA-1)/t - gammaB }
	db := func(u float64) float64 { return (betaA-1)/u - (betaA-1)/(1-u) }
	dst[0] += dg(x[0])
	dst[1] += db(x[1])
	for j := 2; j < 5; j++ {
		dst[j] += (dirA - 1) / x[j]
	}
	dst[5] += dg(x[5] - 1)
	dst[6] -= dg(5 - x[6])
	dst[7] += db((x[7]+1)/4) / 4
	dst[8] -= x[8] / muVar
}

func (m *conjugate) LogLik(x []float64, i int) float64 {
	lp := func(n int, t float64) float64 { return float64(n)*math.Log(t) - t }
	lbern := func(b int, u float64) float64 {
		if b == 1 {
			return math.Log(u)
		}
		return math.Log1p(-u)
	}
	d := m.v[i] - x[8]
	return lp(m.c[i], x[0]) + lbern(m.b[i], x[1]) + math.Log(x[2+m.k[i]]) +
		lp(m.s[i], x[5]-1) + lp(m.u[i], 5-x[6]) + lbern(m.e[i], (x[7]+1)/4) - d*d/2
}

func (m *conjugate) LogLikGrad(dst, x []float64, i int, scale float64) {
	dp := func(n int, t float64) float64 { return float64(n)/t - 1 }
	dbern := func(b int, u float64) float64 {
		if b == 1 {
			return 1 / u
		}
		return -1 / (1 - u)
	}
	dst[0] += scale * dp(m.c[i], x[0])
	dst[1] += scale * dbern(m.b[i], x[1])
	dst[2+m.k[i]] += scale / x[2+m.k[i]]
	dst[5] += scale * dp(m.s[i], x[5]-1)
	dst[6] -= scale * dp(m.u[i], 5-x[6])
	dst[7] += scale * dbern(m.e[i], (x[7]+1)/4) / 4
	dst[8] += scale * (m.v[i] - x[8])
}

// gradOnly hides a model's LogDensity.
type gradOnly struct{ m sgmcmc.Model }

func (g gradOnly) Dim() int                       { return g.m.Dim() }
func (g gradOnly) Len() int                       { return g.m.Len() }
func (g gradOnly) LogPriorGrad(dst, th []float64) { g.m.LogPriorGrad(dst, th) }
func (g gradOnly) LogLikGrad(dst, th []float64, i int, scale float64) {
	g.m.LogLikGrad(dst, th, i, scale)
}

// TestModelGradients: the unconstrained model's gradients against finite
// differences of its log densities (sgmcmc.CheckModel), and the constrained
// model's own, at random points.
func TestModelGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	m := newConjugate(10, r)
	sp, err := conjugateSpace()
	if err != nil {
		t.Fatal(err)
	}
	um, err := sp.Model(m)
	if err != nil {
		t.Fatal(err)
	}
	if um.Dim() != 8 || um.Len() != 10 || sp.Dim() != 9 || sp.FreeDim() != 8 {
		t.Fatalf("dimensions: model %d, %d items; space %d → %d", um.Dim(), um.Len(), sp.Dim(), sp.FreeDim())
	}
	if _, ok := um.(sgmcmc.LogDensity); !ok {
		t.Fatal("the model of a LogDensity is not a LogDensity")
	}
	items := []int{0, 3, 9}
	y, x := make([]float64, 8), make([]float64, 9)
	for range 20 {
		for i := range y {
			y[i] = r.NormFloat64()
		}
		if chk, err := sgmcmc.CheckModel(um, y, items); err != nil || chk.RelErr > 1e-6 {
			t.Errorf("unconstrained model at y = %v: %v (%v)", y, chk, err)
		}
		sp.Constrain(x, y)
		if chk, err := sgmcmc.CheckModel(m, x, items); err != nil || chk.RelErr > 1e-6 {
			t.Errorf("constrained model at x = %v: %v (%v)", x, chk, err)
		}
	}
	// LogPrior carries the log-Jacobian, LogLik does not.
	ld := um.(sgmcmc.LogDensity)
	lj, _ := sp.Constrain(x, y)
	if got, want := ld.LogPrior(y), m.LogPrior(x)+lj; got != want {
		t.Errorf("LogPrior(y) = %v, want %v", got, want)
	}
	if got, want := ld.LogLik(y, 4), m.LogLik(x, 4); got != want {
		t.Errorf("LogLik(y, 4) = %v, want %v", got, want)
	}
	// Without LogDensity the wrapper has none; its gradients agree.
	g, err := sp.Model(gradOnly{m})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g.(sgmcmc.LogDensity); ok {
		t.Error("the model of a model without LogDensity claims LogDensity")
	}
	a, b := make([]float64, 8), make([]float64, 8)
	g.LogPriorGrad(a, y)
	um.LogPriorGrad(b, y)
	g.LogLikGrad(a, y, 2, 3)
	um.LogLikGrad(b, y, 2, 3)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("gradients differ without LogDensity: %v, %v", a, b)
		}
	}
}

// TestBatch: LogLikGradBatch equals the sum of LogLikGrad, for a model
// with and without a batch method of its own.
func TestBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 1))
	m := newConjugate(30, r)
	sp, _ := conjugateSpace()
	um, _ := sp.Model(m)
	y := make([]float64, 8)
	for i := range y {
		y[i] = r.NormFloat64()
	}
	idx := []int{3, 7, 7, 29, 0}
	one, batch := make([]float64, 8), make([]float64, 8)
	for _, i := range idx {
		um.LogLikGrad(one, y, i, 2.5)
	}
	um.(sgmcmc.BatchModel).LogLikGradBatch(batch, y, idx, 2.5)
	for i := range one {
		if math.Abs(one[i]-batch[i]) > 1e-12*math.Max(1, math.Abs(one[i])) {
			t.Errorf("coordinate %d: batch %v, per datum %v", i, batch[i], one[i])
		}
	}
}

// TestConcurrent: one model serves many goroutines at distinct points
// (run with -race); each gets what a lone caller gets.
func TestConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	m := newConjugate(20, r)
	sp, _ := conjugateSpace()
	um, _ := sp.Model(m)
	const G = 8
	ys := make([][]float64, G)
	want := make([][]float64, G)
	for k := range ys {
		ys[k] = make([]float64, 8)
		for i := range ys[k] {
			ys[k][i] = r.NormFloat64()
		}
		want[k] = make([]float64, 8)
		um.LogPriorGrad(want[k], ys[k])
		for i := range 20 {
			um.LogLikGrad(want[k], ys[k], i, 1)
		}
	}
	var wg sync.WaitGroup
	errs := make([]bool, G)
	for k := range G {
		wg.Go(func() {
			for range 50 {
				got := make([]float64, 8)
				um.LogPriorGrad(got, ys[k])
				for i := range 20 {
					um.LogLikGrad(got, ys[k], i, 1)
				}
				for i := range got {
					if got[i] != want[k][i] {
						errs[k] = true
					}
				}
			}
		})
	}
	wg.Wait()
	for k, e := range errs {
		if e {
			t.Errorf("goroutine %d got a different gradient", k)
		}
	}
}

// TestAllocs: a warm model allocates nothing per call.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	m := newConjugate(50, rand.New(rand.NewPCG(6, 1)))
	sp, _ := conjugateSpace()
	um, _ := sp.Model(m)
	y, dst := make([]float64, 8), make([]float64, 8)
	idx := []int{1, 2, 3, 4, 5}
	bm := um.(sgmcmc.BatchModel)
	allocs := testing.AllocsPerRun(100, func() {
		y[0] += 1e-3 // a new point each time
		um.LogPriorGrad(dst, y)
		bm.LogLikGradBatch(dst, y, idx, 10)
		um.LogLikGrad(dst, y, 7, 1)
	})
	if allocs > 0.1 {
		t.Errorf("%v allocations per call", allocs)
	}
}

// TestSpace: names, layout, errors.
func TestSpace(t *testing.T) {
	sp, err := conjugateSpace()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"lambda", "p", "w.1", "w.2", "w.3", "tau", "nu", "q", "mu"}
	for i, n := range sp.Names() {
		if n != want[i] {
			t.Errorf("Names()[%d] = %q, want %q", i, n, want[i])
		}
	}
	wantFree := []string{"lambda_free", "p_free", "w_free.1", "w_free.2", "tau_free", "nu_free", "q_free", "mu_free"}
	for i, n := range sp.FreeNames() {
		if n != wantFree[i] {
			t.Errorf("FreeNames()[%d] = %q, want %q", i, n, wantFree[i])
		}
	}
	y := make([]float64, 8)
	err = sp.Unconstrain(y, []float64{1, 0.5, 0.2, 0.3, 0.5, 1.5, 5, 0, 0})
	if err == nil || !errors.Is(err, sgmcmc.ErrRange) || err.Error() != "transform: Unconstrain: parameter nu: coordinate 0 is 5, want in (−∞, 5)" {
		t.Errorf("Unconstrain outside: %v", err)
	}
	if err := sp.Unconstrain(y[:3], make([]float64, 9)); !errors.Is(err, sgmcmc.ErrDimension) {
		t.Errorf("Unconstrain of a short y: %v", err)
	}
	if _, err := sp.Constrain(make([]float64, 8), y); !errors.Is(err, sgmcmc.ErrDimension) {
		t.Errorf("Constrain into a short x: %v", err)
	}
	for _, c := range []struct {
		params []Param
		want   error
	}{
		{nil, sgmcmc.ErrDimension},
		{[]Param{{Name: ""}}, sgmcmc.ErrRange},
		{[]Param{{Name: "a", Size: -1}}, sgmcmc.ErrDimension},
		{[]Param{{Name: "w", Transform: Simplex{}}}, sgmcmc.ErrDimension},
		{[]Param{{Name: "a"}, {Name: "a"}}, sgmcmc.ErrRange},
		{[]Param{{Name: "a.1"}, {Name: "a", Size: 2}}, sgmcmc.ErrRange},
		{[]Param{{Name: "s", Transform: Bounded{Lower: 2, Upper: 1}}}, sgmcmc.ErrRange},
	} {
		if _, err := NewSpace(c.params...); !errors.Is(err, c.want) {
			t.Errorf("NewSpace(%v): %v, want %v", c.params, err, c.want)
		}
	}
	if _, err := sp.Model(newConjugate(3, rand.New(rand.NewPCG(1, 1))).shorter()); !errors.Is(err, sgmcmc.ErrDimension) {
		t.Errorf("Model of the wrong dimension: %v", err)
	}
	if _, err := sp.Model(nil); !errors.Is(err, sgmcmc.ErrNil) {
		t.Errorf("Model(nil): %v", err)
	}
}

// shorter returns the model with a dimension too few.
func (m *conjugate) shorter() sgmcmc.Model { return short{m} }

type short struct{ *conjugate }

func (short) Dim() int { return 8 }

// TestChains: Chain maps every draw with Constrain and keeps the rest.
func TestChains(t *testing.T) {
	sp, _ := conjugateSpace()
	r := rand.New(rand.NewPCG(7, 1))
	c := &sgmcmc.Chain{Dim: 8, Draws: make([]float64, 5*8), Eps: []float64{1, 2, 3, 4, 5}, Steps: 50, Divergent: []bool{false, true, false, false, false}, Divergences: 1}
	for i := range c.Draws {
		c.Draws[i] = r.NormFloat64()
	}
	xs, err := sp.Chains([]*sgmcmc.Chain{c, c})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 9)
	for _, xc := range xs {
		if xc.Dim != 9 || xc.Len() != 5 || xc.Steps != 50 || xc.Divergences != 1 || !xc.Divergent[1] || xc.Eps[4] != 5 {
			t.Fatalf("mapped chain: %+v", xc)
		}
		for i := range 5 {
			sp.Constrain(x, c.At(i))
			for j, v := range xc.At(i) {
				if v != x[j] {
					t.Fatalf("draw %d: %v, want %v", i, xc.At(i), x)
				}
			}
		}
	}
	if _, err := sp.Chains([]*sgmcmc.Chain{c, {Dim: 9}}); !errors.Is(err, sgmcmc.ErrDimension) {
		t.Errorf("a chain of the constrained dimension: %v", err)
	}
	if _, err := sp.Chain(nil); !errors.Is(err, sgmcmc.ErrNil) {
		t.Errorf("nil chain: %v", err)
	}
}

// BenchmarkBatch: a minibatch gradient of 100 items through the transform
// against the constrained model's own.
func BenchmarkBatch(b *testing.B) {
	m := newConjugate(1000, rand.New(rand.NewPCG(9, 1)))
	sp, _ := conjugateSpace()
	um, _ := sp.Model(m)
	idx := make([]int, 100)
	for i := range idx {
		idx[i] = 7 * i
	}
	y, x := make([]float64, 8), make([]float64, 9)
	sp.Constrain(x, y)
	b.Run("constrained", func(b *testing.B) {
		dst := make([]float64, 9)
		b.ReportAllocs()
		for b.Loop() {
			for _, i := range idx {
				m.LogLikGrad(dst, x, i, 10)
			}
		}
	})
	b.Run("transformed", func(b *testing.B) {
		dst := make([]float64, 8)
		bm := um.(sgmcmc.BatchModel)
		b.ReportAllocs()
		for b.Loop() {
			y[0] += 1e-9 // a new point each step, as in a chain
			bm.LogLikGradBatch(dst, y, idx, 10)
		}
	})
}
