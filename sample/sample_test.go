// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
	"github.com/sgmcmc-go/sgmcmc/internal/testmat"
)

// linReg is y_i ~ N(a + b x_i, σ²) with known σ and a flat prior: an exact
// Gaussian posterior, badly conditioned when x is uncentred.
type linReg struct {
	x, y  []float64
	sigma float64
}

func newLinReg(n int, xmean, xsd float64, seed uint64) *linReg {
	r := rand.New(rand.NewPCG(seed, 1))
	m := &linReg{x: make([]float64, n), y: make([]float64, n), sigma: 0.8}
	for i := range n {
		m.x[i] = xmean + xsd*r.NormFloat64()
		m.y[i] = 5.8 + 0.06*m.x[i] + m.sigma*r.NormFloat64()
	}
	return m
}

func (m *linReg) Dim() int                       { return 2 }
func (m *linReg) Len() int                       { return len(m.x) }
func (m *linReg) LogPriorGrad(dst, th []float64) {}
func (m *linReg) LogLikGrad(dst, th []float64, i int, scale float64) {
	r := (m.y[i] - th[0] - th[1]*m.x[i]) / (m.sigma * m.sigma)
	dst[0] += scale * r
	dst[1] += scale * r * m.x[i]
}

// exact returns the posterior mean and covariance.
func (m *linReg) exact() ([]float64, *mat.SymDense) {
	var sx, sxx, sy, sxy float64
	for i, x := range m.x {
		sx += x
		sxx += x * x
		sy += m.y[i]
		sxy += x * m.y[i]
	}
	n := float64(len(m.x))
	s2 := m.sigma * m.sigma
	prec := mat.NewSymDense(2, []float64{n / s2, sx / s2, sx / s2, sxx / s2})
	var cov mat.SymDense
	var ch mat.Cholesky
	ch.Factorize(prec)
	ch.InverseTo(&cov)
	b := mat.NewVecDense(2, []float64{sy / s2, sxy / s2})
	var mu mat.VecDense
	mu.MulVec(&cov, b)
	return []float64{mu.AtVec(0), mu.AtVec(1)}, &cov
}

// TestSampleLinReg: every method with default settings on an uncentred
// regression (intercept and slope correlated at about −0.999) gets every
// mean within 0.1 sd and every sd within 10 %, without warnings, its
// warmup at most half the gradient work.
func TestSampleLinReg(t *testing.T) {
	if testing.Short() {
		t.Skip("six Sample runs")
	}
	m := newLinReg(1000, 66, 4, 1)
	mu, cov := m.exact()
	for _, meth := range []Method{SGLD{}, SGHMC{}, SGNHT{}, HAMCMC{}, PSGLD{}} {
		res, err := Run(context.Background(), Problem{Model: m}, []float64{0, 0}, &Settings{Seed: 1}, meth)
		if err != nil {
			t.Fatalf("%s: %v", meth.Name(), err)
		}
		for j, p := range res.Summary {
			sd := math.Sqrt(cov.At(j, j))
			me := (p.Mean - mu[j]) / sd
			se := p.SD/sd - 1
			t.Logf("%s %s: mean err %.3f sd, sd err %+.3f, rhat %.4f, ess %.0f; eps %.3g n %d thin %d heat %.3f λ̂ %.3g spread %.3g evals %d (warm %d) warnings %v",
				res.Method, p.Name, me, se, p.RHat, p.ESSBulk, res.Adapted[0].Eps, res.Adapted[0].BatchSize, res.Adapted[0].Thin, res.Adapted[0].Heat, res.Adapted[0].LambdaMax, res.Adapted[0].CurvatureSpread, res.GradEvals, res.WarmupGradEvals, res.Warnings)
			// With bulk ESS ≥ 1000 the mean's Monte Carlo error is ≤ 0.032 sd
			// and the sd's ≤ 2.2 %; the adapted settings allow ≤ 5 % of
			// variance from discretisation and ≤ 5 % from gradient noise.
			if math.Abs(me) > 0.1 || math.Abs(se) > 0.1 || p.RHat > 1.01 || p.ESSBulk < 1000 {
				t.Errorf("%s %s: mean err %.3f sd, sd err %+.3f, R̂ %.4f, ESS %.0f: want 0.1 sd, 10 %%, 1.01, 1000", res.Method, p.Name, me, se, p.RHat, p.ESSBulk)
			}
		}
		if len(res.Warnings) > 0 {
			t.Errorf("%s: warnings %v on a posterior it samples correctly", res.Method, res.Warnings)
		}
		// With N = 1000 inside the fixed batch, the warmup's Langevin
		// windows run Metropolis-adjusted on all the data (700 full
		// gradients per chain, window.go): at most half the work
		// of a run with the sweep (about 40 % for SGHMC's). The splitting
		// integrators' runs (doc/adaptation.md §2.7) sample the same draws
		// with a third of the sweep's steps after the same warmup, so
		// there warmup is about two thirds of the work: bounded at 0.7.
		maxWarm := 0.5
		if res.Method == "SGHMC" || res.Method == "SGNHT" {
			maxWarm = 0.7
		}
		if w := float64(res.WarmupGradEvals) / float64(res.WarmupGradEvals+res.SamplingGradEvals); w > maxWarm {
			t.Errorf("%s: warmup took %.0f%% of the gradient work, want at most %.0f%%", res.Method, 100*w, 100*maxWarm)
		}
	}
}

// TestPowerIteration recovers λmax of known matrices from noisy
// Hessian-vector products (relative noise 1e-3 per product).
func TestPowerIteration(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for _, c := range []struct {
		d      int
		top    float64
		spread float64
	}{{2, 1, 10}, {10, 7.5, 100}, {50, 1e4, 1e8}} {
		// A = Q diag(λ) Qᵀ with λ log-spaced from top/spread to top.
		q := testmat.RandOrthogonal(r, c.d)
		lam := make([]float64, c.d)
		for i := range lam {
			lam[i] = c.top * math.Pow(c.spread, -float64(i)/float64(max(c.d-1, 1)))
		}
		a := mat.NewSymDense(c.d, nil)
		for i := range c.d {
			for j := i; j < c.d; j++ {
				var s float64
				for k := range c.d {
					s += q.At(i, k) * lam[k] * q.At(j, k)
				}
				a.SetSym(i, j, s)
			}
		}
		noisy := func(dst, v []float64) {
			mulSym(dst, a, v)
			for i := range dst {
				dst[i] *= 1 + 1e-3*r.NormFloat64()
			}
		}
		got := powerIteration(noisy, c.d, 200, r)
		if math.Abs(got-c.top) > 0.02*c.top {
			t.Errorf("d = %d: λmax %.6g, want %.6g", c.d, got, c.top)
		}
	}
}

// TestCovarianceWelford recovers a known covariance from draws centred far
// from the origin (where a one-pass Σx² − n·x̄² would cancel).
func TestCovarianceWelford(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	want := mat.NewSymDense(3, []float64{4, 1.2, -0.3, 1.2, 1, 0.1, -0.3, 0.1, 0.25})
	var ch mat.Cholesky
	ch.Factorize(want)
	var l mat.TriDense
	ch.LTo(&l)
	c := newCovariance(3, true)
	const n = 200000
	x := make([]float64, 3)
	for range n {
		u := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		for i := range 3 {
			x[i] = 1e9
			for k := 0; k <= i; k++ {
				x[i] += l.At(i, k) * u[k]
			}
		}
		c.add(x)
	}
	got := c.cov().m
	for i := range 3 {
		for j := range 3 {
			// sd of a sample covariance ≈ sqrt((Σ_ii Σ_jj + Σ_ij²)/n).
			tol := 5 * math.Sqrt((want.At(i, i)*want.At(j, j)+want.At(i, j)*want.At(i, j))/n)
			if math.Abs(got.At(i, j)-want.At(i, j)) > tol {
				t.Errorf("cov[%d,%d] = %.5f, want %.5f ± %.5f", i, j, got.At(i, j), want.At(i, j), tol)
			}
		}
	}
}

// TestSampleFrozenByHand: a chain rebuilt by hand from the adapted values
// (Affine, the named constructor, the seeds) equals Run's chain bit for
// bit.
func TestSampleFrozenByHand(t *testing.T) {
	for _, plain := range []bool{false, true} {
		testSampleFrozenByHand(t, plain)
	}
}

func testSampleFrozenByHand(t *testing.T, plain bool) {
	m := newLinReg(500, 66, 4, 2)
	res, err := Run(context.Background(), Problem{Model: m}, []float64{1, 0}, &Settings{Seed: 9, Chains: 2, Draws: 200, PlainMinibatch: plain}, SGHMC{})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Adapted[1]
	var g sgmcmc.Gradient
	src := rand.NewPCG(a.MinibatchSeed[0], a.MinibatchSeed[1])
	if plain {
		if a.Center != nil {
			t.Fatal("PlainMinibatch: the chain has a control-variate centre")
		}
		g, err = sgmcmc.NewMinibatch(m, a.BatchSize, false, src)
	} else {
		if a.Center == nil {
			t.Fatal("the chain did not use a control variate")
		}
		g, err = sgmcmc.NewControlVariate(m, a.Center, a.BatchSize, false, src, &sgmcmc.ControlVariateSettings{CenterGrad: a.CenterGrad})
	}
	if err != nil {
		t.Fatal(err)
	}
	aff, err := sgmcmc.NewAffine(g, a.Shift, a.Lower, a.Diag)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sgmcmc.NewSGHMC(aff, a.Start, rand.NewPCG(a.SamplerSeed[0], a.SamplerSeed[1]), &sgmcmc.SGHMCSettings{Friction: a.Friction, NoiseVar: a.NoiseVar, Integrator: sgmcmc.BAOAB{}})
	if err != nil {
		t.Fatal(err)
	}
	zc, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 200, Thin: a.Thin, BurnIn: a.BurnIn, Schedule: sgmcmc.Constant(a.Eps)})
	if err != nil {
		t.Fatal(err)
	}
	th := make([]float64, 2)
	for i := range zc.Len() {
		aff.ToTheta(th, zc.At(i))
		for j, v := range th {
			if v != res.Chains[1].At(i)[j] {
				t.Fatalf("draw %d coordinate %d: by hand %v, Sample %v", i, j, v, res.Chains[1].At(i)[j])
			}
		}
	}
}

// TestSampleGOMAXPROCS: the same seed gives the same draws for any
// GOMAXPROCS.
func TestSampleGOMAXPROCS(t *testing.T) {
	testSampleGOMAXPROCS(t, newLinReg(300, 0, 1, 3), []float64{0, 0})
	// Data in several parts of a full pass, so that the control variate's
	// centre is found on every core.
	testSampleGOMAXPROCS(t, batchLogit{Logit: newLogitModel(2*fullpass.PartSize+5, 3, 8)}, []float64{0, 0, 0})
}

func testSampleGOMAXPROCS(t *testing.T, m sgmcmc.Model, theta0 []float64) {
	var ref *Result
	for _, p := range []int{1, 2, 8} {
		old := runtime.GOMAXPROCS(p)
		res, err := Run(context.Background(), Problem{Model: m}, theta0, &Settings{Seed: 4, Draws: 100, Chains: 2}, SGLD{})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if res.Adapted[0].Center == nil {
			t.Errorf("%T: the chain did not use a control variate", m)
		}
		if ref == nil {
			ref = res
			continue
		}
		for c, ch := range res.Chains {
			for i, v := range ch.Draws {
				if v != ref.Chains[c].Draws[i] {
					t.Fatalf("GOMAXPROCS %d: chain %d differs at %d", p, c, i)
				}
			}
		}
	}
}

// TestSampleBadInput: clear errors, never a panic.
func TestSampleBadInput(t *testing.T) {
	m := newLinReg(100, 0, 1, 4)
	nanGrad := func(int, rand.Source) (sgmcmc.Gradient, error) {
		return sgmcmc.GradFunc(func(dst, th []float64) { dst[0], dst[1] = math.NaN(), 0 }), nil
	}
	for _, c := range []struct {
		name   string
		p      Problem
		theta0 []float64
		s      *Settings
		want   error
	}{
		{"NaN start", Problem{Model: m}, []float64{math.NaN(), 0}, nil, sgmcmc.ErrNonFinite},
		{"empty start", Problem{Model: m}, nil, nil, sgmcmc.ErrDimension},
		{"start of the wrong length", Problem{Model: m}, []float64{0, 0, 0}, nil, sgmcmc.ErrDimension},
		{"no model", Problem{}, []float64{0, 0}, nil, sgmcmc.ErrNil},
		{"batch larger than N", Problem{Model: m}, []float64{0, 0}, &Settings{BatchSize: 101}, sgmcmc.ErrRange},
		{"negative chains", Problem{Model: m}, []float64{0, 0}, &Settings{Chains: -1}, sgmcmc.ErrRange},
		{"NaN gradient at the start", Problem{Gradient: nanGrad}, []float64{0, 0}, nil, sgmcmc.ErrNonFinite},
		{"names of the wrong length", Problem{Model: m, Names: []string{"a"}}, []float64{0, 0}, nil, sgmcmc.ErrDimension},
	} {
		_, err := Run(context.Background(), c.p, c.theta0, c.s, nil)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

// TestSampleWarmupGivesUp: a gradient that explodes everywhere but at the
// start makes warmup shrink ε without end; it must stop with an error
// saying so, not hang or panic.
func TestSampleWarmupGivesUp(t *testing.T) {
	g := func(int, rand.Source) (sgmcmc.Gradient, error) {
		return sgmcmc.GradFunc(func(dst, th []float64) {
			// U = θ²/2 near 0, with a gradient of 1e300 once |θ| > 1e-300.
			for i, x := range th {
				dst[i] = x
				if math.Abs(x) > 1e-300 {
					dst[i] = math.Copysign(1e300, x)
				}
			}
		}), nil
	}
	_, err := Run(context.Background(), Problem{Gradient: g}, []float64{0, 0}, &Settings{StartScale: 1e-320}, SGLD{})
	if !errors.Is(err, sgmcmc.ErrDivergence) {
		t.Fatalf("err = %v, want ErrDivergence from a posterior no step size can sample", err)
	}
}

// TestSampleChainIDs: chain c run alone (as one process of K would run
// it) draws exactly what it draws in a run of every chain.
func TestSampleChainIDs(t *testing.T) {
	m := newLinReg(300, 10, 1, 5)
	s := &Settings{Seed: 11, Draws: 100}
	all, err := Run(context.Background(), Problem{Model: m}, []float64{0, 0}, s, SGHMC{})
	if err != nil {
		t.Fatal(err)
	}
	one := *s
	one.ChainIDs = []int{2}
	res, err := Run(context.Background(), Problem{Model: m}, []float64{0, 0}, &one, SGHMC{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Chains) != 1 {
		t.Fatalf("%d chains, want 1", len(res.Chains))
	}
	for i, v := range res.Chains[0].Draws {
		if v != all.Chains[2].Draws[i] {
			t.Fatalf("chain 2 alone differs from chain 2 of all at %d", i)
		}
	}
	one.ChainIDs = []int{4}
	if _, err := Run(context.Background(), Problem{Model: m}, []float64{0, 0}, &one, nil); !errors.Is(err, sgmcmc.ErrRange) {
		t.Errorf("ChainIDs out of range: err = %v, want ErrRange", err)
	}
}

// TestRunLogDensity: Run records the log density of every kept draw,
// allocating nothing per step beyond the Chain.
func TestRunLogDensity(t *testing.T) {
	grad := sgmcmc.GradFunc(func(dst, th []float64) { copy(dst, th) })
	s, err := sgmcmc.NewSGLD(grad, []float64{0.5, -0.5}, rand.NewPCG(1, 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	lp := func(th []float64) float64 { return -0.5 * (th[0]*th[0] + th[1]*th[1]) }
	c, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 50, Thin: 3, Schedule: sgmcmc.Constant(0.1), LogDensity: lp})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.LogDensity) != c.Len() {
		t.Fatalf("%d log densities for %d draws", len(c.LogDensity), c.Len())
	}
	for i := range c.Len() {
		if got, want := c.LogDensity[i], lp(c.At(i)); got != want {
			t.Fatalf("draw %d: log density %v, want %v", i, got, want)
		}
	}
}

// TestSampleFunnelWarns: on Neal's funnel, where saddle-free Newton from
// the start finds no step that shrinks the gradient (the posterior is not
// log-concave there), Run hands the start to the Langevin windows
// instead of failing, and the run, which no constant step size and
// preconditioner can sample, says so in its warnings.
func TestSampleFunnelWarns(t *testing.T) {
	const d = 10
	g := funnelGradient
	for seed := uint64(1); seed <= 3; seed++ {
		res, err := Run(context.Background(), Problem{Gradient: g}, make([]float64, d), &Settings{Draws: 200, Seed: seed}, SGHMC{})
		if err != nil {
			t.Fatalf("seed %d: Sample on the funnel: %v", seed, err)
		}
		var mixing bool
		for _, w := range res.Warnings {
			mixing = mixing || strings.HasPrefix(w.Message, "R̂ = ") || strings.HasPrefix(w.Message, "bulk ESS = ")
		}
		if !mixing {
			t.Errorf("seed %d: warnings %q do not say that the chains disagree or mix too slowly", seed, res.Warnings)
		}
	}
}

// funnelGradient is Neal's funnel's gradient source for a Problem: ∇U,
// U = v²/18 + Σ_i (x_i² e^{−v} + v)/2, with θ = (v, x_1, …).
func funnelGradient(int, rand.Source) (sgmcmc.Gradient, error) {
	return sgmcmc.GradFunc(func(dst, th []float64) {
		v := th[0]
		iv := math.Exp(-v)
		dst[0] = v / 9
		for i, x := range th[1:] {
			dst[0] += 0.5 - 0.5*x*x*iv
			dst[1+i] = x * iv
		}
	}), nil
}
