// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
	"github.com/sgmcmc-go/sgmcmc/rng"
	"github.com/sgmcmc-go/sgmcmc/sample"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// a9aFeatures is the number of features of a9a; the bias makes d = 124.
const a9aFeatures = 123

// Config configures a run of the demo.
type Config struct {
	// Seed seeds every random stream of the run.
	Seed uint64
	// Chains is the number of chains per sampler; zero means 4.
	Chains int
	// Steps is the number of steps per chain, burn-in included.
	Steps int
	// Draws is the number of draws kept per chain; they are spread evenly
	// over the last four fifths of the steps or more, the rest being
	// burn-in.
	Draws int
	// Batch is the minibatch size.
	Batch int
	// Zero starts every chain at θ = 0 instead of the posterior mode.
	Zero bool
	// SampleDraws is the number of draws per chain of the tuning-free
	// row; zero means sample.Run's default (1000).
	SampleDraws int
}

// Row is the result of one sampler.
type Row struct {
	Sampler    string `json:"sampler"`
	ChainCount int    `json:"chains"`
	Steps      int    `json:"steps"` // per chain, burn-in included
	// Seconds is the wall time of one chain's sampling, averaged over the
	// chains: Steps/Seconds is the speed of one chain, which has every core
	// for its minibatch gradients.
	Seconds  float64 `json:"seconds"`
	Accuracy float64 `json:"test_accuracy"` // of the posterior predictive
	LogLik   float64 `json:"test_loglik"`   // mean test log predictive density
	// DrawLogLik is the mean test log likelihood of a single draw, far
	// more sensitive to a wrong stationary distribution than LogLik.
	DrawLogLik float64 `json:"draw_loglik"`
	// RHatMax is the largest R̂ of the 124 coordinates, ESSBulkMin and
	// ESSTailMin the smallest bulk and tail ESS (of Chains·Draws draws).
	RHatMax    float64 `json:"rhat_max"`
	ESSBulkMin float64 `json:"ess_bulk_min"`
	ESSTailMin float64 `json:"ess_tail_min"`
}

// Result is a sampler's row with its chains and their summary.
type Result struct {
	Row
	Comments []stancsv.Comment // the sampler's settings, for the CSV files
	Seed     uint64            // master seed of its chains (sgmcmc.RunChains)
	Chains   []*sgmcmc.Chain
	Summary  diagnostics.Table
	// Note says what sample.Run chose, for the printed table.
	Note string
}

// Problem is the a9a posterior with what the samplers share.
type Problem struct {
	Train, Test *logreg.Data
	Model       *logreg.Model
	MAP         []float64 // posterior mode
	Metric      []float64 // diag ∇²U at the mode, the metric of SGRLD and gSGRHMC
	// Names are the coordinates' names: beta.1 … beta.123 for the
	// features' coefficients, alpha for the bias (the last coordinate).
	Names []string
	// Show lists the coordinates the printed summary and the plots show:
	// the stiffest, a middling and the softest coefficient by the
	// curvature diag ∇²U at the mode, and the bias.
	Show []int
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
	names := append(diagnostics.IndexedNames("beta", a9aFeatures), "alpha")
	byCurvature := make([]int, a9aFeatures)
	for j := range byCurvature {
		byCurvature[j] = j
	}
	sort.SliceStable(byCurvature, func(a, b int) bool { return g[byCurvature[a]] > g[byCurvature[b]] })
	show := []int{byCurvature[0], byCurvature[a9aFeatures/2], byCurvature[a9aFeatures-1], a9aFeatures}
	return &Problem{Train: train, Test: test, Model: m, MAP: theta, Metric: g, Names: names, Show: show}, nil
}

// method is a sampler of the demo with its step-size schedule.
type method struct {
	name     string
	schedule sgmcmc.Schedule
	settings []stancsv.Comment // written to the CSV files
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
			settings: []stancsv.Comment{{Key: "step_size", Value: "a(b + t)^-gamma"}, {Key: "a", Value: "4.4e-3"}, {Key: "b", Value: "2500"}, {Key: "gamma", Value: "0.55"}},
			build: func(p *Problem, theta0 []float64, grad sgmcmc.Gradient, src rand.Source) (sgmcmc.Sampler, error) {
				return sgmcmc.NewSGLD(grad, theta0, src, nil)
			},
		},
		{
			// ε√λmax ≈ 0.16; the friction absorbs most of the gradient noise.
			name:     "SGHMC",
			schedule: sgmcmc.Constant(1e-3),
			settings: []stancsv.Comment{{Key: "step_size", Value: "1e-3"}, {Key: "friction", Value: "50"}},
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
			settings: []stancsv.Comment{{Key: "step_size", Value: "1e-3"}, {Key: "A", Value: "50"}},
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
			schedule: sgmcmc.Polynomial{A: 1e-2 * math.Pow(1000, 0.55), B: 1000, Gamma: 0.55}, // 10⁻² (1 + t/1000)^−0.55
			settings: []stancsv.Comment{{Key: "step_size", Value: "h(1 + t/tau)^-kappa"}, {Key: "h", Value: "1e-2"}, {Key: "tau", Value: "1000"}, {Key: "kappa", Value: "0.55"}, {Key: "metric", Value: "diag Hessian of U at the mode"}},
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
			settings: []stancsv.Comment{{Key: "step_size", Value: "2e-5"}, {Key: "metric", Value: "3e-5 diag Hessian of U at the mode"}, {Key: "resample_every", Value: "1000"}},
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

// Sample runs c.Chains chains of every sampler of the demo on p, on
// minibatches of c.Batch drawn without replacement, scores their pooled
// draws on the test set and summarises them. The chains of sampler k have
// the master seed 1000·c.Seed + k: chain i draws its minibatches from a PCG
// seeded from rng.ChainSource(seed, i) and its noise from rng.ChainSource(seed, i)
// itself, exactly as sgmcmc.RunChains would run them. They run one after
// another, each with every core for its minibatch gradients (the model's
// LogLikGradBatch splits a batch over the cores, with the same result for
// any number of them).
func Sample(ctx context.Context, p *Problem, c Config) ([]Result, error) {
	k := c.Chains
	if k == 0 {
		k = 4
	}
	if k < 0 || c.Draws < diagnostics.MinDraws || c.Steps < c.Draws {
		return nil, fmt.Errorf("%d chains of %d steps cannot keep %d draws each (at least %d)", k, c.Steps, c.Draws, diagnostics.MinDraws)
	}
	thin := max(c.Steps*4/5/c.Draws, 1)
	burn := c.Steps - thin*c.Draws
	var out []Result
	for i, m := range methods() {
		theta0 := p.MAP
		if c.Zero {
			theta0 = make([]float64, len(p.MAP))
		}
		// Each chain's sampling time, from its first step to its last.
		samplers := make([]sgmcmc.Sampler, k)
		start, end := make([]time.Time, k), make([]time.Time, k)
		total := burn + c.Draws*thin
		newSampler := func(ch int, src rand.Source) (sgmcmc.Sampler, error) {
			rng := rand.New(src)
			grad, err := sgmcmc.NewMinibatch(p.Model, c.Batch, false, rand.NewPCG(rng.Uint64(), rng.Uint64()))
			if err != nil {
				return nil, err
			}
			s, err := m.build(p, theta0, grad, src)
			samplers[ch] = s
			return s, err
		}
		clock := func(info sgmcmc.StepInfo) error {
			if info.T != 1 && info.T != total {
				return nil
			}
			for ch, s := range samplers {
				if s == info.Sampler {
					if info.T == 1 {
						start[ch] = time.Now()
					} else {
						end[ch] = time.Now()
					}
				}
			}
			return nil
		}
		seed := 1000*c.Seed + uint64(i)
		chains := make([]*sgmcmc.Chain, k)
		for ch := range k {
			s, err := newSampler(ch, rng.ChainSource(seed, ch))
			if err == nil {
				chains[ch], err = sgmcmc.Run(ctx, s,
					sgmcmc.RunOptions{Draws: c.Draws, BurnIn: burn, Thin: thin, Schedule: m.schedule, Callback: clock})
			}
			// Run's temperature verdict keeps every draw; the predictive
			// scores below judge the chains (a foil is spread wrong by design).
			if err != nil && !errors.Is(err, sgmcmc.ErrTemperature) {
				return nil, fmt.Errorf("%s chain %d: %w", m.name, ch, err)
			}
		}
		var secs float64
		for ch := range k {
			// The clock starts after step 1: scale to all steps.
			secs += end[ch].Sub(start[ch]).Seconds() * float64(total) / float64(max(total-1, 1))
		}
		secs /= float64(k)
		// Step-weighted: the decreasing schedules of SGLD and SGRLD call
		// for it, and it is the plain average under a constant step.
		pred := logreg.NewPredictive(p.Test)
		for _, ch := range chains {
			for d := range ch.Len() {
				pred.Add(ch.At(d), ch.Eps[d])
			}
		}
		table, err := diagnostics.NewTable(p.Names, chains)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		row := Row{Sampler: m.name, ChainCount: k, Steps: chains[0].Steps, Seconds: secs,
			Accuracy: pred.Accuracy(), LogLik: pred.LogLik(), DrawLogLik: pred.MeanLogLik(),
			RHatMax: math.Inf(-1), ESSBulkMin: math.Inf(1), ESSTailMin: math.Inf(1)}
		for _, r := range table {
			row.RHatMax = max(row.RHatMax, r.RHat)
			row.ESSBulkMin = min(row.ESSBulkMin, r.ESSBulk)
			row.ESSTailMin = min(row.ESSTailMin, r.ESSTail)
		}
		comments := append([]stancsv.Comment{{Key: "sampler", Value: m.name}}, m.settings...)
		comments = append(comments,
			stancsv.Comment{Key: "batch", Value: strconv.Itoa(c.Batch)},
			stancsv.Comment{Key: "steps", Value: strconv.Itoa(total)},
			stancsv.Comment{Key: "burn_in", Value: strconv.Itoa(burn)},
			stancsv.Comment{Key: "thin", Value: strconv.Itoa(thin)},
			stancsv.Comment{Key: "seed", Value: strconv.FormatUint(seed, 10)},
			stancsv.Comment{Key: "chains", Value: strconv.Itoa(k)},
		)
		out = append(out, Result{Row: row, Comments: comments, Seed: seed, Chains: chains, Summary: table})
	}
	r, err := tuningFree(ctx, p, c, k)
	if err != nil {
		return nil, err
	}
	return append([]Result{r}, out...), nil
}

// tuningFree runs sample.Run with its defaults (SGHMC, every setting
// adapted in warmup) from θ = 0 — not from the mode, which a user does
// not have — with its default of 1000 draws per chain. Its row is named
// "Sample".
func tuningFree(ctx context.Context, p *Problem, c Config, k int) (Result, error) {
	seed := 1000 * c.Seed
	t0 := time.Now()
	res, err := sample.Run(ctx, sample.Problem{Model: p.Model, Names: p.Names}, make([]float64, p.Model.Dim()),
		&sample.Settings{Seed: seed, Chains: k, Draws: c.SampleDraws}, nil)
	if err != nil {
		return Result{}, fmt.Errorf("Sample: %w", err)
	}
	// One chain's time on one core: the chains ran GOMAXPROCS at a time.
	secs := time.Since(t0).Seconds() * float64(min(k, runtime.GOMAXPROCS(0))) / float64(k)
	pred := logreg.NewPredictive(p.Test)
	for _, ch := range res.Finished() {
		for d := range ch.Len() {
			pred.Add(ch.At(d), ch.Eps[d])
		}
	}
	table, err := diagnostics.NewTable(p.Names, res.Finished())
	if err != nil {
		return Result{}, fmt.Errorf("Sample: %w", err)
	}
	row := Row{Sampler: "Sample", ChainCount: k, Steps: res.Chains[0].Steps, Seconds: secs,
		Accuracy: pred.Accuracy(), LogLik: pred.LogLik(), DrawLogLik: pred.MeanLogLik(),
		RHatMax: math.Inf(-1), ESSBulkMin: math.Inf(1), ESSTailMin: math.Inf(1)}
	for _, r := range table {
		row.RHatMax = max(row.RHatMax, r.RHat)
		row.ESSBulkMin = min(row.ESSBulkMin, r.ESSBulk)
		row.ESSTailMin = min(row.ESSTailMin, r.ESSTail)
	}
	a := res.Adapted[0]
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	comments := []stancsv.Comment{{Key: "sampler", Value: "Sample (" + res.Method + ", settings adapted per chain; chain 1's shown)"},
		{Key: "step_size", Value: g(a.Eps) + " in whitened coordinates"}, {Key: "friction", Value: g(a.Friction)},
		{Key: "batch", Value: strconv.Itoa(a.BatchSize)}, {Key: "burn_in", Value: strconv.Itoa(a.BurnIn)},
		{Key: "thin", Value: strconv.Itoa(a.Thin)}, {Key: "lambda_max", Value: g(a.LambdaMax)},
		{Key: "heat", Value: g(a.Heat)}, {Key: "seed", Value: strconv.FormatUint(seed, 10)},
		{Key: "chains", Value: strconv.Itoa(k)}, {Key: "warnings", Value: strconv.Itoa(len(res.Warnings))}}
	note := fmt.Sprintf("SGHMC, batch %d, %d steps per chain after warmup, warmup %.0f%% of the gradient work; warnings: %d",
		a.BatchSize, row.Steps, 100*float64(res.WarmupGradEvals)/float64(res.WarmupGradEvals+res.SamplingGradEvals), len(res.Warnings))
	for _, w := range res.Warnings {
		note += "\n  " + w.Message
	}
	return Result{Row: row, Comments: comments, Seed: seed, Chains: res.Chains, Summary: table, Note: note}, nil
}
