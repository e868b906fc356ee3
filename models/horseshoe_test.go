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

// hsModel returns a horseshoe GLM of family f on simulated data.
func hsModel(t *testing.T, f Family, l Link) *Model {
	t.Helper()
	g := simulate(f, l, 400, 5, 4, false, 4)
	g.Groups = nil
	g.Horseshoe = &Horseshoe{Expected: 2}
	m, err := NewGLM(g)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// hsPoint returns a point with the intercept, σ and z drawn as
// randomPoint's, and λ_j = lam[j], τ and c² as given.
func hsPoint(m *Model, r *rand.Rand, lam []float64, tau, c2 float64) []float64 {
	x := randomPoint(m, r)
	h := m.hs
	for j := range h.p {
		x[h.lam+j] = lam[j%len(lam)]
	}
	x[h.tau], x[h.c2] = tau, c2
	return x
}

// checkTight compares LogPriorGrad and the sum of LogLikGrad over every
// row with central differences, to a relative 10⁻⁶ of the gradient's
// size (sgmcmc.CheckModel's tolerance is 0.01).
func checkTight(t *testing.T, m *Model, x []float64, what string) {
	t.Helper()
	prior := sgmcmc.CheckGradient(m.LogPrior, func(dst, x []float64) {
		clear(dst)
		m.LogPriorGrad(dst, x)
	}, x)
	lik := sgmcmc.CheckGradient(func(x []float64) float64 {
		var s float64
		for i := range m.Len() {
			s += m.LogLik(x, i)
		}
		return s
	}, func(dst, x []float64) {
		clear(dst)
		for i := range m.Len() {
			m.LogLikGrad(dst, x, i, 1)
		}
	}, x)
	for _, c := range []struct {
		name string
		g    sgmcmc.GradCheck
	}{{"prior", prior}, {"likelihood", lik}} {
		if !(c.g.AbsErr <= 1e-6*math.Max(1, math.Abs(c.g.Numeric))) {
			t.Errorf("%s: %s gradient of %s: %v", what, c.name, m.xnames[c.g.Index], c.g)
		}
	}
}

// TestHorseshoeRegimes: the gradients match central differences (CheckModel
// and a tighter check) where every coefficient is non-centred-like
// (κ_j ≪ 1: τ small), where κ_j ≈ 1, where every one is centred-like
// (κ_j ≫ 1), at the boundaries (λ at 10⁻¹⁰ and at 10⁸, where u_j is the
// slab's c; a slab c² of 10⁻²), and with the regimes mixed at one point;
// and the batch gradient equals the rows'.
func TestHorseshoeRegimes(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, fl := range []struct {
		f Family
		l Link
	}{{Gaussian, Identity}, {Bernoulli, Logit}, {Poisson, LogLink}, {StudentT, Identity}} {
		m := hsModel(t, fl.f, fl.l)
		h := m.hs
		ref := 1 / math.Sqrt(h.info[0]) // u_j at which κ_j ≈ 1
		for _, c := range []struct {
			name    string
			lam     []float64
			tau, c2 float64
			lo, hi  float64 // the range every κ_j must be in
		}{
			{"non-centred", []float64{0.5, 1, 2}, 1e-3 * ref, 4, 0, 1e-4},
			{"κ≈1", []float64{1}, ref, 1e4, 0.5, 2},
			{"centred", []float64{3, 10}, 30 * ref, 1e4, 1e2, math.Inf(1)},
			{"mixed", []float64{1e-3, 1, 1e3}, ref, 4, 0, math.Inf(1)},
			{"λ tiny", []float64{1e-10}, ref, 4, 0, 1e-18},
			{"λ at the slab", []float64{1e8}, ref, 4, 1, math.Inf(1)},
			{"small slab", []float64{1, 100}, ref, 1e-2, 0, math.Inf(1)},
		} {
			what := fmt.Sprintf("%v %s", fl.f, c.name)
			x := hsPoint(m, r, c.lam, c.tau, c.c2)
			for j := range h.p {
				if _, k, _, _, _, _, _ := h.scale(x, j); !(k >= c.lo && k <= c.hi) {
					t.Errorf("%s: κ_%d = %v, want in [%v, %v]", what, j+1, k, c.lo, c.hi)
				}
			}
			if _, err := sgmcmc.CheckModel(m, x, nil); err != nil {
				t.Errorf("%s: %v", what, err)
			}
			checkTight(t, m, x, what)
			checkBatch(t, m, x, r.Perm(m.Len())[:300], 1.3, what)
		}
	}
}

// TestHorseshoeMap: b_j = z_j u_j/√(1 + κ_j); z's log prior is b's
// N(0, u_j²) plus the map's log-Jacobian; with I_j = 0 the map and the
// prior are the plain non-centred ones (b = z u, z ~ N(0, 1)), and with
// κ_j ≫ 1 b_j → z_j/√I_j.
func TestHorseshoeMap(t *testing.T) {
	const half = 0.91893853320467274178
	r := rand.New(rand.NewPCG(11, 12))
	m := hsModel(t, Gaussian, Identity)
	h := m.hs
	base := func(x []float64) float64 { // λ's, τ's and c²'s log prior
		saved := h.info
		h.info = make([]float64, h.p)
		defer func() { h.info = saved }()
		lp := h.logPrior(nil, x)
		for j := range h.p {
			z := x[h.off+j]
			lp += z*z/2 + half
		}
		return lp
	}
	for range 20 {
		lam := []float64{math.Exp(3 * r.NormFloat64())}
		x := hsPoint(m, r, lam, math.Exp(-3+r.NormFloat64()), math.Exp(r.NormFloat64()))
		b := make([]float64, m.Dim())
		m.Natural(b, x)
		want := base(x)
		for j := range h.p {
			u, _, _, _ := h.u(x, j)
			k := h.info[j] * u * u
			s := u / math.Sqrt(1+k)
			if got := b[h.off+j]; math.Abs(got-x[h.off+j]*s) > 1e-12*math.Abs(got) {
				t.Fatalf("b_%d = %v, want z·s = %v", j+1, got, x[h.off+j]*s)
			}
			bj := b[h.off+j]
			want += -math.Log(u) - bj*bj/(2*u*u) - half + math.Log(s)
		}
		if got := h.logPrior(nil, x); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("log prior %v, want log N(b | 0, u²) + log s + the scales' %v", got, want)
		}
	}
	// I_j = 0: the non-centred form.
	x := hsPoint(m, r, []float64{2}, 0.3, 2)
	saved := h.info
	h.info = make([]float64, h.p)
	b := make([]float64, m.Dim())
	m.Natural(b, x)
	lp := h.logPrior(nil, x)
	want := base(x)
	for j := range h.p {
		u, _, _, _ := h.u(x, j)
		if b[h.off+j] != x[h.off+j]*u {
			t.Errorf("I = 0: b_%d = %v, want z·u = %v", j+1, b[h.off+j], x[h.off+j]*u)
		}
		want -= x[h.off+j]*x[h.off+j]/2 + half
	}
	if math.Abs(lp-want) > 1e-12*(1+math.Abs(want)) {
		t.Errorf("I = 0: log prior %v, want z ~ N(0, 1)'s %v", lp, want)
	}
	if _, err := sgmcmc.CheckModel(m, x, nil); err != nil {
		t.Errorf("I = 0: %v", err)
	}
	h.info = saved
	// κ ≫ 1: b → z/√I.
	x = hsPoint(m, r, []float64{1e6}, 1, 1e4)
	m.Natural(b, x)
	for j := range h.p {
		want := x[h.off+j] / math.Sqrt(h.info[j])
		if math.Abs(b[h.off+j]-want) > 1e-4*math.Abs(want) {
			t.Errorf("κ ≫ 1: b_%d = %v, want z/√I = %v", j+1, b[h.off+j], want)
		}
	}
}

// TestHorseshoeInfo: I_j is Σ (x_ij − x̄_j)²/σ̂² for a Gaussian (σ̂ =
// sd(y), the plug-in), with x̄_j the plain mean.
func TestHorseshoeInfo(t *testing.T) {
	m := hsModel(t, Gaussian, Identity)
	_, sy := stats(m.y, nil)
	for j := range m.p {
		_, sd := stats(m.column(j), nil)
		want := float64(m.n) * sd * sd / (sy * sy)
		if got := m.hs.info[j]; math.Abs(got-want) > 1e-9*want {
			t.Errorf("I_%d = %v, want %v", j+1, got, want)
		}
	}
}

// TestHorseshoeProblem: the unconstrained model (λ through gumbelScale,
// τ and c² by their logs) passes CheckModel at the start and around it,
// the names are b's for Draws and z's for the sampled coordinates, and
// Describe states the map and the range of I_j without listing a prior
// for the coefficients.
func TestHorseshoeProblem(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	m := hsModel(t, Gaussian, Identity)
	if _, ok := m.hs.localTransform().(gumbelScale); !ok {
		t.Errorf("λ's transform %T, want gumbelScale", m.hs.localTransform())
	}
	p, err := m.Problem()
	if err != nil {
		t.Fatal(err)
	}
	y := m.Start()
	for k := range 5 {
		if _, err := sgmcmc.CheckModel(p.Model, y, nil); err != nil {
			t.Errorf("point %d: %v", k, err)
		}
		for i := range y {
			y[i] += 0.5 * r.NormFloat64()
		}
	}
	names, free := strings.Join(m.Names(), " "), strings.Join(m.FreeNames(), " ")
	if !strings.Contains(names, "b.x1 ") || strings.Contains(names, "z_b.") {
		t.Errorf("Names: %s", names)
	}
	if !strings.Contains(free, "z_b.x1 ") || !strings.Contains(free, "hs_local.x1 ") {
		t.Errorf("FreeNames: %s", free)
	}
	d := m.Describe()
	for _, s := range []string{"horseshoe on the 5 coefficients", "b_j = z_j·u_j/√(1 + κ_j)", "I_j, the data's information about b_j, from", "log λ_j = y − e^{−y}"} {
		if !strings.Contains(d, s) {
			t.Errorf("Describe lacks %q:\n%s", s, d)
		}
	}
	if strings.Contains(d, "b.x1 ~") {
		t.Errorf("Describe lists a prior for a horseshoe coefficient:\n%s", d)
	}
}
