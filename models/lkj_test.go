// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// correlated returns simulate's GLM with a correlated factor of 1 + nSlopes
// effects.
func correlated(f Family, l Link, n, nSlopes int, sparse bool, eta float64) GLM {
	g := simulate(f, l, n, 3, 6, sparse, 1)
	g.Groups[0].Slopes = []int{0, 1, 2}[:nSlopes]
	g.Groups[0].Correlated = true
	g.Groups[0].LKJ = eta
	return g
}

// corPoint returns randomPoint with L's rows set from canonical partial
// correlations of size up to strength (near ±1 for strength near 1).
func corPoint(m *Model, r *rand.Rand, strength float64) []float64 {
	x := randomPoint(m, r)
	for _, q := range m.groups {
		if !q.cor {
			continue
		}
		y := make([]float64, rowOff(q.e))
		for k := range y {
			s := 1.0
			if r.IntN(2) == 0 {
				s = -1
			}
			y[k] = math.Atanh(s * strength * (0.7 + 0.3*r.Float64()))
		}
		cholCorr{e: q.e}.Constrain(x[q.corOff:q.corOff+len(y)], y)
	}
	return x
}

// TestCorrelatedGradients: a correlated factor's gradients (into z, the
// sds and L, its LKJ prior's included) match central differences for
// every family, dense and sparse, 2 to 4 effects, η 1 and 2.5, at weak
// and strong correlations (canonical partial correlations up to 0.999),
// and the batch matches the rows.
func TestCorrelatedGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, fl := range families {
		for _, sparse := range []bool{false, true} {
			for ns := 1; ns <= 3; ns++ {
				for _, eta := range []float64{0, 2.5} {
					g := correlated(fl.f, fl.l, 300, ns, sparse, eta)
					m, err := NewGLM(g)
					if err != nil {
						t.Fatal(err)
					}
					for _, strength := range []float64{0.3, 0.9, 0.999} {
						what := fmt.Sprintf("%v(%v) sparse %v effects %d η %v strength %v", fl.f, fl.l, sparse, ns+1, eta, strength)
						x := corPoint(m, r, strength)
						if _, err := sgmcmc.CheckModel(m, x, nil); err != nil {
							t.Errorf("%s: %v", what, err)
						}
						checkBatch(t, m, x, r.Perm(m.Len())[:200], 1.3, what)
					}
				}
			}
		}
	}
}

// TestCorrelatedProblemGradients: through Problem (Stan's transform of L,
// its log-Jacobian, the sds' Gumbel-tailed transform) the gradients match
// central differences, from the start and far out (|y| up to 4, partial
// correlations beyond ±0.999).
func TestCorrelatedProblemGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for ns := 1; ns <= 3; ns++ {
		m, err := NewGLM(correlated(Gaussian, Identity, 300, ns, false, 0))
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Problem()
		if err != nil {
			t.Fatal(err)
		}
		q := &m.groups[0]
		off := q.corOff // L's free coordinates follow the sds in y too
		for _, spread := range []float64{0, 0.3, 2, 4} {
			y := m.Start()
			for i := range y {
				y[i] += 0.3 * r.NormFloat64()
			}
			for k := range rowOff(q.e) {
				y[off+k] = spread * (2*r.Float64() - 1)
				if spread == 4 {
					y[off+k] = 4 * math.Copysign(1, y[off+k])
				}
			}
			if _, err := sgmcmc.CheckModel(p.Model, y, nil); err != nil {
				t.Errorf("effects %d spread %v: %v", ns+1, spread, err)
			}
		}
	}
}

// TestCholCorr: the transform's inverse undoes it, its pullback and
// log-Jacobian gradient match central differences of Constrain, its rows
// have norm below 1, and for two effects L₁₀ = tanh y with log-Jacobian
// log(1 − tanh² y).
func TestCholCorr(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for e := 2; e <= 5; e++ {
		tr := cholCorr{e: e}
		n, err := tr.FreeDim(rowOff(e))
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range []float64{0.1, 1, 3, 6} {
			y := make([]float64, n)
			for k := range y {
				y[k] = sc * r.NormFloat64()
			}
			x := make([]float64, n)
			lj := tr.Constrain(x, y)
			for a := 1; a < e; a++ {
				var ss float64
				for _, l := range x[rowOff(a) : rowOff(a)+a] {
					ss += l * l
				}
				if !(ss < 1) {
					t.Errorf("e %d: row %d of norm² %v", e, a, ss)
				}
			}
			if e == 2 {
				if want := math.Log(1 - math.Tanh(y[0])*math.Tanh(y[0])); math.Abs(x[0]-math.Tanh(y[0])) > 1e-15 || math.Abs(lj-want) > 1e-9*(1+math.Abs(want)) {
					t.Errorf("y %v: L₁₀ %v, log J %v, want %v, %v", y[0], x[0], lj, math.Tanh(y[0]), want)
				}
			}
			if sc <= 3 {
				back := make([]float64, n)
				if err := tr.Unconstrain(back, x); err != nil {
					t.Fatal(err)
				}
				for k := range y {
					if math.Abs(back[k]-y[k]) > 1e-8*(1+math.Abs(y[k])) {
						t.Errorf("e %d: y %v, Unconstrain(Constrain) %v", e, y[k], back[k])
					}
				}
			}
			g := make([]float64, n)
			for k := range g {
				g[k] = r.NormFloat64()
			}
			checkPullback(t, tr, y, g, fmt.Sprintf("e %d scale %v", e, sc))
		}
	}
	if _, err := (cholCorr{e: 3}).FreeDim(2); err == nil {
		t.Error("FreeDim(2) for e = 3: no error")
	}
	if err := (cholCorr{e: 3}).Unconstrain(make([]float64, 3), []float64{0.5, 0.8, 0.7}); err == nil {
		t.Error("Unconstrain of a row of norm > 1: no error")
	}
}

// TestLKJNormalised: exp(log LKJCholesky(L(y)) + log J(y)) integrates to 1
// over y (the trapezoid rule on a grid, spectrally accurate for these
// smooth, exponentially decaying integrands), for 2 and 3 effects and
// several η: the normalising constant and the Jacobian are both right.
func TestLKJNormalised(t *testing.T) {
	for _, e := range []int{2, 3} {
		for _, eta := range []float64{0.7, 1, 2.5} {
			q := group{e: e, cor: true, eta: eta, lkjConst: lkjLogConst(eta, e)}
			tr := cholCorr{e: e}
			n := rowOff(e)
			const lim, steps = 12.0, 160
			h := 2 * lim / steps
			y, x := make([]float64, n), make([]float64, n)
			var sum float64
			idx := make([]int, n)
			for {
				for k := range y {
					y[k] = -lim + h*float64(idx[k])
				}
				lj := tr.Constrain(x, y)
				sum += math.Exp(q.lkjLogPrior(nil, x) + lj)
				k := 0
				for ; k < n; k++ {
					idx[k]++
					if idx[k] <= steps {
						break
					}
					idx[k] = 0
				}
				if k == n {
					break
				}
			}
			if got := sum * math.Pow(h, float64(n)); math.Abs(got-1) > 1e-6 {
				t.Errorf("e %d η %v: integral %v, want 1", e, eta, got)
			}
		}
	}
}

// TestCorrelatedNames: the correlations are named as brms's, after the
// sds, and reported as Ω = LLᵀ with r = diag(sd)·L·z; Describe says the
// factor is non-centred; bad settings are refused.
func TestCorrelatedNames(t *testing.T) {
	g := correlated(Gaussian, Identity, 300, 2, false, 2)
	g.Names = []string{"a", "b", "c"}
	m, err := NewGLM(g)
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Join(m.Names(), " ")
	if !strings.Contains(names, "sd_g.Intercept sd_g.a sd_g.b cor_g.Intercept.a cor_g.Intercept.b cor_g.a.b r_g.1.Intercept r_g.1.a r_g.1.b") {
		t.Errorf("names %s", names)
	}
	free := strings.Join(m.FreeNames(), " ")
	if !strings.Contains(free, "L_g.a.Intercept L_g.b.Intercept L_g.b.a z_g.1.Intercept") {
		t.Errorf("free names %s", free)
	}
	for _, c := range m.Centred("g") {
		if c {
			t.Fatal("a correlated factor's level centred")
		}
	}
	if d := m.Describe(); !strings.Contains(d, "LKJCholesky(2)") || !strings.Contains(d, "non-centred at every level") {
		t.Errorf("Describe: %s", d)
	}
	r := rand.New(rand.NewPCG(17, 18))
	x := corPoint(m, r, 0.8)
	nat := make([]float64, m.Dim())
	m.Natural(nat, x)
	q := m.groups[0]
	L := [3][3]float64{{1}, {x[q.corOff], 0}, {x[q.corOff+1], x[q.corOff+2]}}
	L[1][1] = math.Sqrt(1 - L[1][0]*L[1][0])
	L[2][2] = math.Sqrt(1 - L[2][0]*L[2][0] - L[2][1]*L[2][1])
	omega := []float64{L[1][0], L[2][0], L[2][0]*L[1][0] + L[2][1]*L[1][1]}
	for k, w := range omega {
		if math.Abs(nat[q.corOff+k]-w) > 1e-14 {
			t.Errorf("correlation %d: %v, want %v", k, nat[q.corOff+k], w)
		}
	}
	for j := range q.k {
		z := x[q.uOff+3*j : q.uOff+3*j+3]
		for a := range 3 {
			var want float64
			for b := 0; b <= a; b++ {
				want += L[a][b] * z[b]
			}
			want *= x[q.sdOff+a]
			if got := nat[q.uOff+3*j+a]; math.Abs(got-want) > 1e-14 {
				t.Errorf("r level %d effect %d: %v, want %v", j, a, got, want)
			}
		}
	}
	in := append([]float64(nil), x...)
	m.Natural(in, in)
	for k := range in {
		if in[k] != nat[k] {
			t.Fatalf("Natural in place differs at %d", k)
		}
	}
	for _, bad := range []func(*Group){
		func(gr *Group) { gr.Slopes = nil },
		func(gr *Group) { gr.Param = Centred },
		func(gr *Group) { gr.LKJ = -1 },
		func(gr *Group) { gr.Correlated = false },
	} {
		h := correlated(Gaussian, Identity, 100, 1, false, 2)
		bad(&h.Groups[0])
		if _, err := NewGLM(h); err == nil {
			t.Errorf("%+v: no error", h.Groups[0].Param)
		}
	}
}
