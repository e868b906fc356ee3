// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package refmcmc

import (
	"context"
	"math"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"gonum.org/v1/gonum/mat"
)

// gauss is the Gaussian target N(mu, A⁻¹).
type gauss struct {
	mu []float64
	a  *mat.SymDense
}

func (g *gauss) Dim() int { return len(g.mu) }

func (g *gauss) LogPosteriorGrad(dst, theta []float64) {
	for i := range dst {
		dst[i] = 0
		for j := range theta {
			dst[i] -= g.a.At(i, j) * (theta[j] - g.mu[j])
		}
	}
}

func (g *gauss) LogPosterior(theta []float64) float64 {
	var s float64
	for i := range theta {
		for j := range theta {
			s += (theta[i] - g.mu[i]) * g.a.At(i, j) * (theta[j] - g.mu[j])
		}
	}
	return -s / 2
}

func (g *gauss) Hessian(h *mat.SymDense, _ []float64) { h.CopySym(g.a) }

// checkMoments: every mean and sd within 4.5 combined standard errors of
// the exact ones.
func checkMoments(t *testing.T, m *Moments, mean, sd []float64) {
	t.Helper()
	for j := range mean {
		if e := math.Abs(m.Mean[j] - mean[j]); e > 4.5*m.MCSEMean[j] {
			t.Errorf("coordinate %d: mean %v ± %v, exact %v", j, m.Mean[j], m.MCSEMean[j], mean[j])
		}
		if e := math.Abs(m.SD[j] - sd[j]); e > 4.5*m.MCSESD[j] {
			t.Errorf("coordinate %d: sd %v ± %v, exact %v", j, m.SD[j], m.MCSESD[j], sd[j])
		}
	}
}

// testGauss returns the correlated Gaussian target of the tests, its
// Laplace approximation (exact) and its sds.
func testGauss(t *testing.T) (*gauss, *Laplace, []float64) {
	t.Helper()
	g := &gauss{mu: []float64{1, -2, 0.5}, a: mat.NewSymDense(3, []float64{
		4, 1.9, 0,
		1.9, 1, 0.1,
		0, 0.1, 0.25,
	})}
	lap, err := FindMode(g, nil)
	if err != nil {
		t.Fatal(err)
	}
	var cov mat.SymDense
	var chol mat.Cholesky
	chol.Factorize(g.a)
	if err := chol.InverseTo(&cov); err != nil {
		t.Fatal(err)
	}
	return g, lap, []float64{math.Sqrt(cov.At(0, 0)), math.Sqrt(cov.At(1, 1)), math.Sqrt(cov.At(2, 2))}
}

// skewedLogistic returns a one-parameter logistic regression on 15 rows
// with positive features, whose posterior is skewed and far from its
// Laplace approximation, that approximation, and its mean and sd by
// quadrature on a fine grid over ±40 of the mode.
func skewedLogistic(t *testing.T) (*logreg.DenseModel, *Laplace, float64, float64) {
	t.Helper()
	x, _, err := logreg.Simulate(15, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x.X {
		x.X[i] = math.Abs(x.X[i]) + 0.3 // positive features: a skewed posterior
	}
	m, err := logreg.NewDenseModel(x, 100)
	if err != nil {
		t.Fatal(err)
	}
	lap, err := FindMode(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	var z, s1, s2 float64
	lp0 := m.LogPosterior(lap.Mode)
	const h = 1e-3
	for th := lap.Mode[0] - 40; th < lap.Mode[0]+40; th += h {
		w := math.Exp(m.LogPosterior([]float64{th}) - lp0)
		z += w
		s1 += w * th
		s2 += w * th * th
	}
	mean := s1 / z
	return m, lap, mean, math.Sqrt(s2/z - mean*mean)
}

// TestGaussian: on a correlated Gaussian, whose Laplace approximation is
// exact, the mode is found in one Newton step, the moments match, nearly
// every proposal is accepted, and the same seed gives the same draws.
func TestGaussian(t *testing.T) {
	t.Parallel()
	g, lap, sd := testGauss(t)
	for j, v := range lap.Mode {
		if math.Abs(v-g.mu[j]) > 1e-9 {
			t.Fatalf("mode %v, want %v", lap.Mode, g.mu)
		}
	}
	s := &Settings{Draws: 5000, Seed: 3}
	res, err := Run(context.Background(), g, lap, s)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMoments(res.Chains)
	if err != nil {
		t.Fatal(err)
	}
	checkMoments(t, m, g.mu, sd)
	if a := res.AcceptRate(); a < 0.85 {
		t.Errorf("acceptance %.3f on a Gaussian, want above 0.85", a)
	}
	t.Logf("acceptance %.3f, min ESS %.0f of %d draws", res.AcceptRate(), m.MinESS(), 4*s.Draws)
	if res.Evals != int64(4*(s.Draws+100+1)) {
		t.Errorf("%d evaluations, want %d", res.Evals, 4*(s.Draws+101))
	}
	// The Gaussian proposal is the target itself: every proposal is
	// accepted, and the moments match.
	gr, err := Run(context.Background(), g, lap, &Settings{Draws: 2000, Seed: 4, Gaussian: true})
	if err != nil {
		t.Fatal(err)
	}
	if gr.Accepted != gr.Proposed {
		t.Errorf("Gaussian proposal: %d of %d accepted on a Gaussian target, want all", gr.Accepted, gr.Proposed)
	}
	gm, err := NewMoments(gr.Chains)
	if err != nil {
		t.Fatal(err)
	}
	checkMoments(t, gm, g.mu, sd)
	again, _ := Run(context.Background(), g, lap, s)
	for c := range res.Chains {
		for i := range res.Chains[c] {
			for j, v := range res.Chains[c][i] {
				if v != again.Chains[c][i][j] {
					t.Fatalf("chain %d draw %d differs between two runs with one seed", c, i)
				}
			}
		}
	}
}

// TestLogistic1D: on a one-parameter logistic regression with 15 rows,
// whose posterior is skewed and far from its Laplace approximation, the
// moments match those by quadrature.
func TestLogistic1D(t *testing.T) {
	t.Parallel()
	m, lap, mean, sd := skewedLogistic(t)
	// The t proposal, and the Gaussian one: exact, only slower to mix.
	for _, s := range []Settings{{Draws: 20000, Seed: 1, Nu: 4}, {Draws: 20000, Seed: 1, Gaussian: true}} {
		res, err := Run(context.Background(), m, lap, &s)
		if err != nil {
			t.Fatal(err)
		}
		mo, err := NewMoments(res.Chains)
		if err != nil {
			t.Fatal(err)
		}
		checkMoments(t, mo, []float64{mean}, []float64{sd})
		t.Logf("Gaussian %v: mode %.4f, mean %.4f (sampled %.4f ± %.4f), sd %.4f (sampled %.4f ± %.4f), acceptance %.4f",
			s.Gaussian, lap.Mode[0], mean, mo.Mean[0], mo.MCSEMean[0], sd, mo.SD[0], mo.MCSESD[0], res.AcceptRate())
		if math.Abs(mean-lap.Mode[0]) < 5*mo.MCSEMean[0] {
			t.Errorf("posterior mean %v is within MCSE of the mode %v: the test's posterior is not skewed enough", mean, lap.Mode[0])
		}
	}
}

// TestSplitHMC: around an exact Laplace approximation (a Gaussian target)
// the residual is constant and every trajectory is accepted; on the
// skewed one-parameter logistic regression the moments match quadrature;
// and a step of zero is an error.
func TestSplitHMC(t *testing.T) {
	t.Parallel()
	g, lap, sd := testGauss(t)
	res, err := SplitHMC{Eps: 1, Steps: 2}.Run(context.Background(), g, lap, 4, 50, 2000, 5)
	if err != nil {
		t.Fatal(err)
	}
	if res.Accepted != res.Proposed {
		t.Errorf("%d of %d trajectories accepted on a Gaussian target, want all", res.Accepted, res.Proposed)
	}
	m, err := NewMoments(res.Chains)
	if err != nil {
		t.Fatal(err)
	}
	checkMoments(t, m, g.mu, sd)
	lm, llap, mean, lsd := skewedLogistic(t)
	lres, err := SplitHMC{Eps: 0.3, Steps: 6}.Run(context.Background(), lm, llap, 4, 100, 5000, 7)
	if err != nil {
		t.Fatal(err)
	}
	lmo, err := NewMoments(lres.Chains)
	if err != nil {
		t.Fatal(err)
	}
	checkMoments(t, lmo, []float64{mean}, []float64{lsd})
	t.Logf("skewed logistic: mean %.4f (sampled %.4f ± %.4f), sd %.4f (sampled %.4f ± %.4f), acceptance %.3f",
		mean, lmo.Mean[0], lmo.MCSEMean[0], lsd, lmo.SD[0], lmo.MCSESD[0], lres.AcceptRate())
	if _, err := (SplitHMC{Steps: 1}).Run(context.Background(), g, lap, 1, 0, 1, 1); err == nil {
		t.Error("a step of 0 was accepted")
	}
}

// fusedGauss is gauss as a FusedTarget.
type fusedGauss struct {
	*gauss
	calls *int
}

func (g fusedGauss) LogPosteriorAndGrad(dst, theta []float64) float64 {
	*g.calls++
	g.LogPosteriorGrad(dst, theta)
	return g.LogPosterior(theta)
}

// TestSplitHMCFused: a FusedTarget's one call gives SplitHMC the chains
// of its two calls, bit for bit.
func TestSplitHMCFused(t *testing.T) {
	t.Parallel()
	g, lap, _ := testGauss(t)
	s := SplitHMC{Eps: 0.7, Steps: 3}
	a, err := s.Run(context.Background(), g, lap, 1, 5, 50, 9)
	if err != nil {
		t.Fatal(err)
	}
	var calls int
	b, err := s.Run(context.Background(), fusedGauss{g, &calls}, lap, 1, 5, 50, 9)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + 55*s.Steps; calls != want {
		t.Errorf("%d fused calls, want %d", calls, want)
	}
	for c := range a.Chains {
		for i := range a.Chains[c] {
			for j, v := range a.Chains[c][i] {
				if w := b.Chains[c][i][j]; v != w {
					t.Fatalf("chain %d draw %d coordinate %d: fused %v, two calls %v", c, i, j, w, v)
				}
			}
		}
	}
}
