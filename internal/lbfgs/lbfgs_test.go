// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package lbfgs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/internal/testmat"
)

// matOf returns the d×d matrix of the linear map f by its columns.
func matOf(d int, f func(dst, v []float64) error) *mat.Dense {
	m := mat.NewDense(d, d, nil)
	e := make([]float64, d)
	col := make([]float64, d)
	for j := range d {
		clear(e)
		e[j] = 1
		f(col, e)
		m.SetCol(j, col)
	}
	return m
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := range r {
		for j := range c {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// TestLBFGSMatchesDense checks the two-loop H·v, the product-form factors
// S (S Sᵀ = H) and C (C Cᵀ = H⁻¹) and B·v against the dense recursion, for
// random valid pairs offered through a sliding window with damping and with
// rejected pairs leaving gaps.
func TestLBFGSMatchesDense(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d, mem, pushes int
		gamma, lambda  float64
		bad            []int // pushes that get negative curvature
	}{
		{d: 1, mem: 1, pushes: 3, gamma: 1},
		{d: 2, mem: 1, pushes: 1, gamma: 0.5},
		{d: 3, mem: 2, pushes: 5, gamma: 1, lambda: 0.1},
		{d: 5, mem: 3, pushes: 7, gamma: 2, bad: []int{5}},
		{d: 7, mem: 4, pushes: 4, gamma: 0.3, lambda: 1},
		{d: 8, mem: 4, pushes: 11, gamma: 1, lambda: 0.01, bad: []int{2, 9}},
		{d: 12, mem: 6, pushes: 6, gamma: 1.5},
	} {
		t.Run(fmt.Sprintf("d=%d/mem=%d/pushes=%d", c.d, c.mem, c.pushes), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.d), uint64(c.mem)))
			a := testmat.RandSPD(rng, c.d, 0.5, 4)
			l, err := New(c.d, c.mem, c.gamma, c.lambda)
			if err != nil {
				t.Fatal(err)
			}
			type pair struct{ s, y []float64 }
			var window []*pair // nil entries are gaps
			for p := range c.pushes {
				s := make([]float64, c.d)
				for i := range s {
					s[i] = rng.NormFloat64()
				}
				y := make([]float64, c.d)
				mat.NewVecDense(c.d, y).MulVec(a, mat.NewVecDense(c.d, s))
				isBad := false
				for _, b := range c.bad {
					if b == p {
						isBad = true
					}
				}
				if isBad { // curvature sᵀ(y + λs) < 0
					for i := range y {
						y[i] = -y[i] - 2*c.lambda*s[i]
					}
				}
				if got, err := l.Push(s, y); err != nil || got == isBad {
					t.Fatalf("push %d: accepted = %v, want %v", p, got, !isBad)
				}
				var e *pair
				if !isBad {
					yd := make([]float64, c.d)
					for i := range yd {
						yd[i] = y[i] + c.lambda*s[i]
					}
					e = &pair{s, yd}
				}
				window = append(window, e)
				if len(window) > c.mem {
					window = window[1:]
				}
			}
			ref := testmat.NewDenseLBFGS(c.d, c.gamma)
			used := 0
			for _, e := range window {
				if e != nil {
					ref.Update(e.s, e.y)
					used++
				}
			}
			if l.Len() != used {
				t.Errorf("Len = %d, want %d", l.Len(), used)
			}
			st := l.Stats()
			if st.Rejected != len(c.bad) || st.Accepted != c.pushes-len(c.bad) || st.Dropped != 0 {
				t.Errorf("stats %+v, want %d rejected of %d", st, len(c.bad), c.pushes)
			}
			const tol = 1e-10
			h := matOf(c.d, l.MulH)
			if e := maxAbsDiff(h, ref.H); e > tol {
				t.Errorf("two-loop H differs from the dense recursion by %g", e)
			}
			s := matOf(c.d, l.MulS)
			var sst mat.Dense
			sst.Mul(s, s.T())
			if e := maxAbsDiff(&sst, ref.H); e > tol {
				t.Errorf("S Sᵀ differs from H by %g", e)
			}
			var hinv mat.Dense
			if err := hinv.Inverse(ref.H); err != nil {
				t.Fatal(err)
			}
			cm := matOf(c.d, l.MulC)
			var cct mat.Dense
			cct.Mul(cm, cm.T())
			if e := maxAbsDiff(&cct, &hinv); e > tol {
				t.Errorf("C Cᵀ differs from H⁻¹ by %g", e)
			}
			if e := maxAbsDiff(matOf(c.d, l.MulB), &hinv); e > tol {
				t.Errorf("B differs from H⁻¹ by %g", e)
			}
			// In place.
			v := make([]float64, c.d)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			for name, f := range map[string]func(dst, v []float64) error{"MulH": l.MulH, "MulS": l.MulS, "MulC": l.MulC, "MulB": l.MulB} {
				want := make([]float64, c.d)
				f(want, v)
				got := append([]float64(nil), v...)
				f(got, got)
				for i := range got {
					if math.Abs(got[i]-want[i]) > 1e-14*(1+math.Abs(want[i])) {
						t.Errorf("%s in place differs at %d: %v vs %v", name, i, got[i], want[i])
						break
					}
				}
			}
		})
	}
}

// TestLBFGSPaperEq11Sign guards the sign correction of doc/equations.md §10.4: the
// extracted Eq. 11 (q = √(sᵀy/sᵀBs)·Bs − y with I − p qᵀ) does not give
// S Sᵀ = H, while the corrected form MulS uses does.
func TestLBFGSPaperEq11Sign(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	const d = 4
	a := testmat.RandSPD(rng, d, 0.5, 4)
	s := make([]float64, d)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	y := make([]float64, d)
	mat.NewVecDense(d, y).MulVec(a, mat.NewVecDense(d, s))
	ref := testmat.NewDenseLBFGS(d, 1)
	ref.Update(s, y)
	// Extracted Eq. 11 with B⁰ = I: S = I − p qᵀ, p = s/sᵀy, q = √(sᵀy/sᵀs) s − y.
	var sy, ss float64
	for i := range s {
		sy += s[i] * y[i]
		ss += s[i] * s[i]
	}
	bad := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			v := -(s[i] / sy) * (math.Sqrt(sy/ss)*s[j] - y[j])
			if i == j {
				v++
			}
			bad.Set(i, j, v)
		}
	}
	var bb mat.Dense
	bb.Mul(bad, bad.T())
	if e := maxAbsDiff(&bb, ref.H); e < 1e-3 {
		t.Errorf("extracted Eq. 11 unexpectedly gives S Sᵀ = H (error %g)", e)
	}
	l, _ := New(d, 1, 1, 0)
	l.Push(s, y)
	sm := matOf(d, l.MulS)
	var sst mat.Dense
	sst.Mul(sm, sm.T())
	if e := maxAbsDiff(&sst, ref.H); e > 1e-12 {
		t.Errorf("corrected S Sᵀ differs from H by %g", e)
	}
}

// TestLBFGSRejects checks that pairs without positive curvature are counted
// and never used, and that a window of rejected pairs gives H = γI.
func TestLBFGSRejects(t *testing.T) {
	t.Parallel()
	l, err := New(3, 2, 0.5, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := []float64{1, 0, 0}
	for _, y := range [][]float64{
		{-1, 0, 0},                    // sᵀy < 0
		{0, 1, 0},                     // sᵀy = 0
		{1e-12, 1, 0},                 // cosine 1e-12: too small
		{math.NaN(), 0, 0},            // not finite
		{math.Inf(1), 0, 0},           // not finite
		{1, math.Inf(-1), math.NaN()}, // not finite
	} {
		if ok, _ := l.Push(s, y); ok {
			t.Errorf("pair y = %v accepted", y)
		}
	}
	if st := l.Stats(); st.Rejected != 6 || st.Accepted != 0 {
		t.Errorf("stats %+v, want 6 rejected", st)
	}
	if l.Len() != 0 {
		t.Errorf("Len = %d, want 0", l.Len())
	}
	v := []float64{1, 2, 3}
	for name, f := range map[string]func(dst, v []float64) error{"MulH": l.MulH, "MulS": l.MulS, "MulC": l.MulC, "MulB": l.MulB} {
		got := make([]float64, 3)
		f(got, v)
		scale := map[string]float64{"MulH": 0.5, "MulS": math.Sqrt(0.5), "MulC": 1 / math.Sqrt(0.5), "MulB": 2}[name]
		for i := range got {
			if math.Abs(got[i]-scale*v[i]) > 1e-15 {
				t.Errorf("%s with no pairs: got %v, want %g·v", name, got, scale)
				break
			}
		}
	}
	// Damping rescues a slightly negative pair: sᵀ(y + λs) = −0.5 + 1 > 0.
	d, _ := New(3, 2, 1, 1)
	if ok, _ := d.Push(s, []float64{-0.5, 0, 0}); !ok {
		t.Error("damped pair rejected")
	}
	// A gap keeps its slot: after a good pair and a bad one, pushing a
	// third pair evicts the good one.
	l.Reset()
	l.Push(s, []float64{2, 0, 0})
	l.Push([]float64{0, 1, 0}, []float64{0, -1, 0})
	if l.Len() != 1 {
		t.Fatalf("Len = %d, want 1", l.Len())
	}
	l.Push([]float64{0, 0, 1}, []float64{0, 0, -1})
	if l.Len() != 0 {
		t.Errorf("Len = %d after the good pair left the window, want 0", l.Len())
	}
}

func TestLBFGSBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		dim, mem      int
		gamma, lambda float64
	}{
		{0, 2, 1, 0}, {-1, 2, 1, 0}, {3, 0, 1, 0}, {3, -2, 1, 0},
		{3, 2, 0, 0}, {3, 2, -1, 0}, {3, 2, math.NaN(), 0}, {3, 2, math.Inf(1), 0},
		{3, 2, 1, -0.1}, {3, 2, 1, math.NaN()}, {3, 2, 1, math.Inf(1)},
	} {
		if _, err := New(c.dim, c.mem, c.gamma, c.lambda); err == nil {
			t.Errorf("New(%d, %d, %v, %v): no error", c.dim, c.mem, c.gamma, c.lambda)
		}
	}
	l, _ := New(2, 2, 1, 0)
	if _, err := l.Push([]float64{1}, []float64{1, 2}); err == nil {
		t.Error("Push of a pair of the wrong length: no error")
	}
	for name, f := range map[string]func(dst, v []float64) error{"MulH": l.MulH, "MulS": l.MulS, "MulC": l.MulC, "MulB": l.MulB} {
		if err := f(make([]float64, 2), make([]float64, 3)); err == nil {
			t.Errorf("%s of a vector of the wrong length: no error", name)
		}
	}
}

// TestLBFGSRestore: State and Restore give an Approx with the same
// products, bit for bit, and the same statistics; an inconsistent state is
// refused and leaves the receiver as it was.
func TestLBFGSRestore(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	a, _ := New(4, 3, 0.5, 0.1)
	for p := range 5 {
		s, y := make([]float64, 4), make([]float64, 4)
		for i := range s {
			s[i] = rng.NormFloat64()
			y[i] = 2*s[i] + 0.1*rng.NormFloat64()
		}
		if p == 3 { // a rejected pair: a gap in the window
			for i := range y {
				y[i] = -y[i]
			}
		}
		if _, err := a.Push(s, y); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := New(4, 3, 0.5, 0.1)
	if err := b.Restore(a.State()); err != nil {
		t.Fatal(err)
	}
	v := []float64{0.3, -1, 2, 0.5}
	for _, f := range []struct {
		name string
		a, b func(dst, v []float64) error
	}{{"MulH", a.MulH, b.MulH}, {"MulS", a.MulS, b.MulS}, {"MulB", a.MulB, b.MulB}, {"MulC", a.MulC, b.MulC}} {
		x, y := make([]float64, 4), make([]float64, 4)
		_ = f.a(x, v)
		_ = f.b(y, v)
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				t.Errorf("%s differs after Restore: %v, %v", f.name, x, y)
				break
			}
		}
	}
	if a.Stats() != b.Stats() || a.Len() != b.Len() || a.Len() == 0 {
		t.Errorf("stats %+v/%d, restored %+v/%d", a.Stats(), a.Len(), b.Stats(), b.Len())
	}
	// Inconsistent states, each a copy of a's with one fault.
	clone := func() State {
		st := a.State()
		c := State{Next: st.Next, N: st.N, Have: append([]bool(nil), st.Have...), Stats: st.Stats}
		for k := range st.S {
			c.S = append(c.S, append([]float64(nil), st.S[k]...))
			c.Y = append(c.Y, append([]float64(nil), st.Y[k]...))
		}
		return c
	}
	for _, c := range []struct {
		name  string
		fault func(st *State)
	}{
		{"too few slots", func(st *State) { st.Have = st.Have[:2] }},
		{"pair count beyond the memory", func(st *State) { st.N = 4 }},
		{"next slot beyond the window", func(st *State) { st.N = 1; st.Next = 2 }},
		{"negative statistics", func(st *State) { st.Stats.Rejected = -1 }},
		{"short pair", func(st *State) { st.S[1] = st.S[1][:3] }},
		{"slot in use beyond the pairs pushed", func(st *State) { st.N, st.Next = 1, 1; st.Have[2] = true }},
		{"negative curvature", func(st *State) {
			for k, h := range st.Have {
				if h {
					for i := range st.Y[k] {
						st.Y[k][i] = -st.Y[k][i]
					}
					return
				}
			}
		}},
	} {
		st := clone()
		c.fault(&st)
		o, _ := New(4, 3, 0.5, 0.1)
		o.Push([]float64{1, 0, 0, 0}, []float64{1, 0, 0, 0})
		before := o.State()
		if err := o.Restore(st); err == nil {
			t.Errorf("%s: no error", c.name)
		}
		if after := o.State(); after.N != before.N || after.Next != before.Next || after.Stats != before.Stats || o.Len() != 1 {
			t.Errorf("%s: the failed Restore changed the receiver", c.name)
		}
	}
}

func TestLBFGSAllocs(t *testing.T) {
	const d = 50
	l, _ := New(d, 4, 1, 0.1)
	rng := rand.New(rand.NewPCG(1, 1))
	s, y, v := make([]float64, d), make([]float64, d), make([]float64, d)
	allocs := testing.AllocsPerRun(100, func() {
		for i := range s {
			s[i] = rng.NormFloat64()
			y[i] = (1 + float64(i%3)) * s[i]
			v[i] = rng.NormFloat64()
		}
		l.Push(s, y)
		l.MulH(v, v)
		l.MulS(v, v)
		l.MulC(v, v)
		l.MulB(v, v)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Push and products, want 0", allocs)
	}
}

// TestLBFGSCaptureNeedsAlignedPairs documents why HAMCMC with a small
// memory does not reach SGRLD's efficiency in higher dimension (see
// examples/lineargaussian): for P = I + κuuᵀ, one exact pair (s, Ps) gives
// the right inverse curvature along u only when s has a large component
// along u; a move already whitened by a good H (u-component ~ 1/√κ) leaves
// H along u close to γ.
func TestLBFGSCaptureNeedsAlignedPairs(t *testing.T) {
	t.Parallel()
	const kappa = 1000.0
	u := []float64{1 / math.Sqrt2, 1 / math.Sqrt2}
	w := []float64{1 / math.Sqrt2, -1 / math.Sqrt2}
	ratio := func(su float64) float64 { // uᵀHu / uᵀP⁻¹u
		s := []float64{w[0] + su*u[0], w[1] + su*u[1]}
		y := []float64{s[0] + kappa*su*u[0], s[1] + kappa*su*u[1]}
		l, _ := New(2, 1, 1, 0)
		l.Push(s, y)
		hu := make([]float64, 2)
		l.MulH(hu, u)
		return (hu[0]*u[0] + hu[1]*u[1]) * (1 + kappa)
	}
	if r := ratio(1); math.Abs(r-1) > 0.01 {
		t.Errorf("aligned pair: uᵀHu is %.3g times the truth, want 1", r)
	}
	if r := ratio(1 / math.Sqrt(kappa)); r < 100 {
		t.Errorf("whitened pair: uᵀHu is %.3g times the truth, want ≫ 1", r)
	}
}

// BenchmarkLBFGS measures the L-BFGS operations alone: Push (which
// rebuilds the product form, O(M²D)), MulH and MulS (O(MD)).
func BenchmarkLBFGS(b *testing.B) {
	for _, d := range []int{10, 1000, 100000} {
		for _, mem := range []int{1, 2, 4} {
			l, _ := New(d, mem, 1, 0)
			rng := rand.New(rand.NewPCG(1, 1))
			s, y, v := make([]float64, d), make([]float64, d), make([]float64, d)
			for i := range s {
				s[i] = rng.NormFloat64()
				y[i] = 2 * s[i]
				v[i] = rng.NormFloat64()
			}
			for range mem {
				l.Push(s, y)
			}
			b.Run(fmt.Sprintf("Push/D=%d/pairs=%d", d, mem), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					l.Push(s, y)
				}
			})
			b.Run(fmt.Sprintf("MulH/D=%d/pairs=%d", d, mem), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					l.MulH(v, v)
				}
			})
			b.Run(fmt.Sprintf("MulS/D=%d/pairs=%d", d, mem), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					l.MulS(v, v)
				}
			})
		}
	}
}
