// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
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
// mean within 0.1 sd and every sd within 10 %, without warnings.
func TestSampleLinReg(t *testing.T) {
	m := newLinReg(1000, 66, 4, 1)
	mu, cov := m.exact()
	for _, meth := range []Method{SGLDMethod{}, SGHMCMethod{}, SGNHTMethod{}, SGRHMCMethod{}, HAMCMCMethod{}, PSGLDMethod{}} {
		res, err := Sample(context.Background(), Problem{Model: m}, []float64{0, 0}, &SampleSettings{Seed: 1}, meth)
		if err != nil {
			t.Fatalf("%s: %v", meth.spec().name, err)
		}
		for j, p := range res.Summary {
			sd := math.Sqrt(cov.At(j, j))
			me := (p.Mean - mu[j]) / sd
			se := p.SD/sd - 1
			t.Logf("%s %s: mean err %.3f sd, sd err %+.3f, rhat %.4f, ess %.0f; eps %.3g n %d thin %d heat %.3f λ̂ %.3g spread %.3g evals %d (warm %d) warnings %v",
				res.Method, p.Name, me, se, p.RHat, p.ESSBulk, res.Adapted[0].Eps, res.Adapted[0].BatchSize, res.Adapted[0].Thin, res.Adapted[0].Heat, res.Adapted[0].LambdaMax, res.Adapted[0].CurvatureSpread, res.GradEvals, res.WarmupGradEvals, res.Warnings)
		}
	}
}
