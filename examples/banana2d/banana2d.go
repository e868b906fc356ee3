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

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/targets"
)

// TuneSeedOffset separates the seed of the tuning runs from that of the
// reported runs.
const TuneSeedOffset = 1 << 32

// samplerNames are the methods, in table order.
var samplerNames = []string{"SGLD", "SGHMC", "gSGRHMC"}

// The KL2D grid: cells of 0.25 × 0.25 over [−4, 4] × [−2.5, 3.5], outside
// which the banana has mass below 1e−9.
var (
	gridX = diagnostics.Grid{Min: -4, Max: 4, Bins: 32}
	gridY = diagnostics.Grid{Min: -2.5, Max: 3.5, Bins: 24}
)

// Point is one setting of a method's hyperparameters: the step size ε and
// the method's second parameter P, the friction C of SGHMC or the scale κ
// of gSGRHMC's metric (G → G/κ). SGLD has no second parameter (P = 0).
type Point struct {
	Eps, P float64
}

// product returns the grid eps × ps, ε varying fastest.
func product(eps, ps []float64) []Point {
	var g []Point
	for _, p := range ps {
		for _, e := range eps {
			g = append(g, Point{e, p})
		}
	}
	return g
}

// paramName names each method's second parameter.
var paramName = map[string]string{"SGLD": "", "SGHMC": "C", "gSGRHMC": "κ"}

// Config sets the size of the experiment.
type Config struct {
	// Seed is the master seed of the reported runs; the tuning runs use
	// Seed + TuneSeedOffset. Every method and every setting uses the same
	// seed (common random numbers), so comparisons are not blurred by
	// unrelated noise.
	Seed uint64
	// Chains is the number of independent chains per method, all started
	// at Start and pooled for the KL; the tuning runs use as many.
	Chains int
	// Checkpoints are the step counts t at which the KL of the pooled draws
	// θ₁ … θ_t is measured, increasing.
	Checkpoints []int
	// Start is the common initial θ.
	Start []float64
	// Sigma is the standard deviation of the gradient noise.
	Sigma float64
	// Grid is, for each method, the settings tried by the tuning. The
	// default gives every method the same number of points.
	Grid map[string][]Point
	// Fixed, if it has a method, fixes its setting and skips its tuning.
	Fixed map[string]Point
	// Dense runs gSGRHMC with the dense metric GaussNewton/κ
	// (sgmcmc.NewSGRHMCDense, no B̂ correction) instead of Marginal/κ.
	Dense bool
	// Simultaneous runs SGHMC and gSGRHMC with the recipe paper's displayed
	// updates (Eq. 9 read literally, explicit Euler) instead of the
	// library's default sequential sweep.
	Simultaneous bool
}

// DefaultConfig returns the configuration of the demo.
func DefaultConfig() Config {
	momentumEps := []float64{0.035, 0.05, 0.07, 0.1}
	return Config{
		Seed:        1,
		Chains:      20,
		Checkpoints: []int{100, 300, 1000, 3000, 10_000, 30_000, 100_000},
		Start:       []float64{0, -1.2},
		Sigma:       1,
		Grid: map[string][]Point{
			"SGLD": product([]float64{0.001, 0.0013, 0.0016, 0.002, 0.0025, 0.003, 0.004, 0.005,
				0.006, 0.008, 0.01, 0.013, 0.016, 0.02, 0.025, 0.03}, []float64{0}),
			"SGHMC":   product(momentumEps, []float64{0.5, 1, 2, 4}),
			"gSGRHMC": product(momentumEps, []float64{0.25, 0.5, 1, 2}),
		},
	}
}

// Result is one method: its chosen setting, its KL at each checkpoint
// and the first points of its first chain.
type Result struct {
	Sampler string
	Point   Point
	KL      []float64   // at Config.Checkpoints
	Path    [][]float64 // θ₀ and the first 10 draws of chain 0
	Tuning  []float64   // KL at the last checkpoint of the tuning run at each point of Config.Grid[Sampler] (+Inf if it failed)
}

// newSampler builds one chain of a method, drawing the gradient noise and
// the sampler's own noise from streams derived from src.
func newSampler(name string, c Config, p float64, src rand.Source) (sgmcmc.Sampler, error) {
	r := rand.New(src)
	grad := targets.Noisy(targets.Banana{}.Grad, c.Sigma, rand.NewPCG(r.Uint64(), r.Uint64()))
	v := []float64{c.Sigma * c.Sigma, c.Sigma * c.Sigma}
	var integ sgmcmc.Integrator // nil: the sequential sweep
	if c.Simultaneous {
		integ = sgmcmc.Euler{}
	}
	switch name {
	case "SGLD":
		return sgmcmc.NewSGLD(grad, c.Start, src, &sgmcmc.SGLDSettings{NoiseVar: v})
	case "SGHMC":
		return sgmcmc.NewSGHMC(grad, c.Start, src, &sgmcmc.SGHMCSettings{NoiseVar: v, Friction: p, Integrator: integ})
	case "gSGRHMC":
		if c.Dense {
			return sgmcmc.NewSGRHMCDense(grad, c.Start, ScaledDense{GaussNewton{}, p}, src, &sgmcmc.SGRHMCSettings{Integrator: integ})
		}
		return sgmcmc.NewSGRHMC(grad, c.Start, ScaledDiag{Marginal{}, p}, src, &sgmcmc.SGRHMCSettings{NoiseVar: v, Integrator: integ})
	}
	return nil, fmt.Errorf("unknown sampler %q", name)
}

// runMethod runs c.Chains chains of one method at setting pt for the
// last checkpoint's number of steps and returns the KL at each checkpoint
// and the chains.
func runMethod(ctx context.Context, c Config, name string, pt Point, seed uint64) ([]float64, []*sgmcmc.Chain, error) {
	steps := c.Checkpoints[len(c.Checkpoints)-1]
	chains, err := sgmcmc.RunChains(ctx, c.Chains, seed, func(_ int, src rand.Source) (sgmcmc.Sampler, error) {
		return newSampler(name, c, pt.P, src)
	}, sgmcmc.RunOptions{Draws: steps, Schedule: sgmcmc.Constant(pt.Eps)})
	// Run's temperature verdict (a chain started in the tail that has not
	// yet arrived) keeps every draw: the KL at each checkpoint measures it.
	if err != nil && !errors.Is(err, sgmcmc.ErrTemperature) {
		return nil, nil, err
	}
	kl := make([]float64, len(c.Checkpoints))
	x := make([]float64, 0, c.Chains*steps)
	y := make([]float64, 0, c.Chains*steps)
	for i, t := range c.Checkpoints {
		x, y = x[:0], y[:0]
		for _, ch := range chains {
			for j := range t {
				d := ch.At(j)
				x = append(x, d[0])
				y = append(y, d[1])
			}
		}
		if kl[i], err = diagnostics.KL2D(x, y, density, gridX, gridY); err != nil {
			var ie *diagnostics.InputError
			if !errors.As(err, &ie) {
				return nil, nil, err
			}
			kl[i] = math.Inf(1) // no draw inside the grid
		}
	}
	return kl, chains, nil
}

// density is the banana's normalised density.
func density(x, y float64) float64 { return math.Exp(targets.Banana{}.LogProb([]float64{x, y})) }

// Experiment tunes each method's setting on c.Grid (unless c.Fixed has it)
// and then runs it, in the order of samplerNames.
//
// Tuning runs every point of the method's grid with seed
// c.Seed + TuneSeedOffset and keeps the one with the smallest KL at the last
// checkpoint; a run that fails (diverges) counts as +Inf. The reported runs
// then use seed c.Seed, so the reported KL is not the minimum over the
// tuning runs' noise.
func Experiment(ctx context.Context, c Config) ([]Result, error) {
	if c.Chains < 1 || len(c.Checkpoints) == 0 || len(c.Start) != 2 || !(c.Sigma >= 0) {
		return nil, fmt.Errorf("invalid configuration %+v", c)
	}
	for i, t := range c.Checkpoints {
		if t < 1 || (i > 0 && t <= c.Checkpoints[i-1]) {
			return nil, fmt.Errorf("checkpoints %v are not positive and increasing", c.Checkpoints)
		}
	}
	res := make([]Result, len(samplerNames))
	for m, name := range samplerNames {
		r := &res[m]
		r.Sampler = name
		if pt, ok := c.Fixed[name]; ok {
			r.Point = pt
		} else {
			if len(c.Grid[name]) == 0 {
				return nil, fmt.Errorf("%s: empty tuning grid", name)
			}
			best := math.Inf(1)
			for _, pt := range c.Grid[name] {
				kl, _, err := runMethod(ctx, c, name, pt, c.Seed+TuneSeedOffset)
				final := math.Inf(1)
				if err == nil {
					final = kl[len(kl)-1]
				} else if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				r.Tuning = append(r.Tuning, final)
				if final < best {
					best, r.Point = final, pt
				}
			}
			if math.IsInf(best, 1) {
				return nil, fmt.Errorf("%s: every setting of the grid failed", name)
			}
		}
		kl, chains, err := runMethod(ctx, c, name, r.Point, c.Seed)
		if err != nil {
			return nil, fmt.Errorf("%s at ε = %g, %s = %g: %w", name, r.Point.Eps, paramName[name], r.Point.P, err)
		}
		r.KL = kl
		r.Path = append(r.Path, append([]float64(nil), c.Start...))
		for j := range min(10, chains[0].Len()) {
			r.Path = append(r.Path, append([]float64(nil), chains[0].At(j)...))
		}
	}
	return res, nil
}

// ExactFloor returns the KL, on the same grid, of as many exact draws from
// the banana (targets.Banana.Sample) as the pooled draws at each
// checkpoint: the histogram's noise floor for independent draws, which no
// sampler can beat on average.
func ExactFloor(c Config) []float64 {
	rng := rand.New(rand.NewPCG(c.Seed, 0xe4ac7))
	n := c.Chains * c.Checkpoints[len(c.Checkpoints)-1]
	x, y := make([]float64, n), make([]float64, n)
	d := make([]float64, 2)
	for i := range n {
		targets.Banana{}.Draw(d, rng)
		x[i], y[i] = d[0], d[1]
	}
	kl := make([]float64, len(c.Checkpoints))
	for i, t := range c.Checkpoints {
		kl[i], _ = diagnostics.KL2D(x[:c.Chains*t], y[:c.Chains*t], density, gridX, gridY)
	}
	return kl
}
