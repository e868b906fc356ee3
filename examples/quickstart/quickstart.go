// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

// a9aFeatures is the number of features of a9a; the bias makes d = 124.
const a9aFeatures = 123

// Config configures a run of the demo.
type Config struct {
	// Seed seeds every random stream of the run.
	Seed uint64
	// Steps is the number of steps per sampler, burn-in included.
	Steps int
	// Draws is the number of draws kept per sampler for the predictive;
	// they are spread evenly over the last four fifths of the steps or
	// more, the rest being burn-in.
	Draws int
	// Batch is the minibatch size.
	Batch int
	// Zero starts every chain at θ = 0 instead of the posterior mode.
	Zero bool
}

// Row is the result of one sampler.
type Row struct {
	Sampler  string  `json:"sampler"`
	Steps    int     `json:"steps"`
	Seconds  float64 `json:"seconds"`       // wall time of the sampling alone
	Accuracy float64 `json:"test_accuracy"` // of the posterior predictive
	LogLik   float64 `json:"test_loglik"`   // mean test log predictive density
	// DrawLogLik is the mean test log likelihood of a single draw, far
	// more sensitive to a wrong stationary distribution than LogLik.
	DrawLogLik float64 `json:"draw_loglik"`
}

// Problem is the a9a posterior with what the samplers share.
type Problem struct {
	Train, Test *logreg.Data
	Model       *logreg.Model
	MAP         []float64 // posterior mode
	Metric      []float64 // diag ∇²U at the mode, the metric of SGRLD and gSGRHMC
}

// Load reads a9a and a9a.t from dir and finds the posterior mode under the
// prior N(0, I) by Newton's method (about 0.1 s).
func Load(dir string) (*Problem, error) {
	train, err := logreg.LoadLIBSVM(filepath.Join(dir, "a9a"), a9aFeatures)
	if err != nil {
		return nil, err
	}
	test, err := logreg.LoadLIBSVM(filepath.Join(dir, "a9a.t"), a9aFeatures)
	if err != nil {
		return nil, err
	}
	m, err := logreg.NewModel(train, 1)
	if err != nil {
		return nil, err
	}
	theta, h, err := m.MAP(nil)
	if err != nil {
		return nil, err
	}
	g := make([]float64, m.Dim())
	for i := range g {
		g[i] = h.At(i, i)
	}
	return &Problem{Train: train, Test: test, Model: m, MAP: theta, Metric: g}, nil
}

// method is a sampler of the demo with its step-size schedule.
type method struct {
	name     string
	schedule sgmcmc.Schedule
	build    func(p *Problem, theta0 []float64, grad sgmcmc.Gradient, src rand.Source) (sgmcmc.Sampler, error)
}

// methods returns the demo's samplers and settings.
//
// The posterior is stiff: the eigenvalues of ∇²U at the mode run from 1 to
// λmax ≈ 2.7e4, so SGLD needs ε < 2/λmax ≈ 7e−5 and SGHMC ε√λmax ≲ 1
// (EQUATIONS §1). The minibatch gradient is noisy too, with covariance
// V ≈ (N/n)∇²U, and raises a direction's temperature by about εV/(2C), C the
// friction that absorbs it (1 for SGLD, ξ for SGNHT): the settings confine
// that heat to the few stiffest directions, which hardly move the
// predictions.
func methods() []method {
	return []method{
		{
			// Welling & Teh's decreasing schedule, from 6e−5 at t = 1 to
			// 1.5e−5 at t = 30,000.
			name:     "SGLD",
			schedule: sgmcmc.Polynomial{A: 4.4e-3, B: 2500, Gamma: 0.55},
			build: func(p *Problem, theta0 []float64, grad sgmcmc.Gradient, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGLD(grad, theta0, src, nil)
			},
		},
		{
			// ε√λmax ≈ 0.16; the friction absorbs most of the gradient noise.
			name:     "SGHMC",
			schedule: sgmcmc.Constant(1e-3),
			build: func(p *Problem, theta0 []float64, grad sgmcmc.Gradient, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGHMC(grad, theta0, src, &sgmcmc.SGHMCSettings{Friction: 50})
			},
		},
		{
			// The thermostat ξ settles near 55, A plus what the gradient
			// noise adds. With A = 1 it settles near 12, and the directions
			// the gradient noise does not reach run at temperature A/ξ, 12
			// times too cold.
			name:     "SGNHT",
			schedule: sgmcmc.Constant(1e-3),
			build: func(p *Problem, theta0 []float64, grad sgmcmc.Gradient, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGNHT(grad, theta0, src, &sgmcmc.SGNHTSettings{A: 50})
			},
		},
		{
			// G = diag ∇²U at the mode scales every coordinate's curvature
			// to 1: the largest eigenvalue of G^(−1/2)∇²U G^(−1/2) is 15, so
			// steps up to 0.13 are stable, 2000 times SGLD's bound; the
			// gradient noise, not stability, keeps them smaller. Patterson &
			// Teh's schedule, from 1e−2 to 1.5e−3.
			name:     "SGRLD",
			schedule: sgmcmc.Decay{H: 1e-2, Tau: 1000, Kappa: 0.55},
			build: func(p *Problem, theta0 []float64, grad sgmcmc.Gradient, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGRLD(grad, theta0, constMetric(p.Metric, 1), src, nil)
			},
		},
		{
			// With a constant G, gSGRHMC is SGHMC with mass matrix G and
			// friction 1: the scale of G sets the speed (ε/√(scale) per
			// step) and the friction per step ε/g_i must stay below 1, so
			// G = 3e−5·diag(∇²U) with ε = 2e−5. The momentum is resampled
			// every 1000 steps, a Gibbs update that keeps the target.
			name:     "gSGRHMC",
			schedule: sgmcmc.Constant(2e-5),
			build: func(p *Problem, theta0 []float64, grad sgmcmc.Gradient, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGRHMC(grad, theta0, constMetric(p.Metric, 3e-5), src, &sgmcmc.SGRHMCSettings{ResampleEvery: 1000})
			},
		},
	}
}

// constMetric is the constant diagonal metric G = scale·diag(g): its
// derivatives vanish, and so does the correction Γ.
func constMetric(g []float64, scale float64) sgmcmc.DiagMetric {
	return sgmcmc.DiagMetricFunc(func(dst, dg, _ []float64) {
		for i, v := range g {
			dst[i] = scale * v
		}
		clear(dg)
	})
}

// Sample runs every sampler of the demo on p in turn, on minibatches of
// c.Batch drawn without replacement, and scores its draws on the test set.
// Sampler k draws its minibatches from PCG(c.Seed, 2k) and its noise from
// PCG(c.Seed, 2k+1).
func Sample(ctx context.Context, p *Problem, c Config) ([]Row, error) {
	if c.Draws <= 0 || c.Steps < c.Draws {
		return nil, fmt.Errorf("%d steps cannot keep %d draws", c.Steps, c.Draws)
	}
	thin := max(c.Steps*4/5/c.Draws, 1)
	burn := c.Steps - thin*c.Draws
	var rows []Row
	for k, m := range methods() {
		grad, err := sgmcmc.NewMinibatch(p.Model, c.Batch, false, rand.NewPCG(c.Seed, uint64(2*k)))
		if err != nil {
			return nil, err
		}
		theta0 := p.MAP
		if c.Zero {
			theta0 = make([]float64, len(p.MAP))
		}
		s, err := m.build(p, theta0, grad, rand.NewPCG(c.Seed, uint64(2*k+1)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		start := time.Now()
		chain, err := sgmcmc.Run(ctx, s, sgmcmc.RunOptions{Draws: c.Draws, BurnIn: burn, Thin: thin, Schedule: m.schedule})
		secs := time.Since(start).Seconds()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		// Step-weighted: the decreasing schedules of SGLD and SGRLD call
		// for it, and it is the plain average under a constant step.
		pred := logreg.NewPredictive(p.Test)
		for i := range chain.Len() {
			pred.Add(chain.At(i), chain.Eps[i])
		}
		rows = append(rows, Row{Sampler: m.name, Steps: chain.Steps, Seconds: secs,
			Accuracy: pred.Accuracy(), LogLik: pred.LogLik(), DrawLogLik: pred.MeanLogLik()})
	}
	return rows, nil
}
