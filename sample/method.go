// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// Method is a sampler Run can run: what warmup needs to know of it and
// how it is built from the adapted settings. The package's methods are
// SGLD, SGHMC, SGNHT, HAMCMC, PSGLD and ReplicaExchange, each a struct
// whose zero value is the default configuration (one file each,
// method_*.go); nil means SGHMC{}.
//
// gSGRHMC (sgmcmc.NewSGRHMC) is not among them: Run whitens by a constant
// preconditioner, after which gSGRHMC with a constant metric is SGHMC
// draw for draw (measured on every benchmark posterior), and a
// position-dependent metric needs one from the model (a Fisher metric,
// the SoftAbs of the Hessian), which the Model interface does not carry.
// A user with such a metric can write the Method (ExampleMethod shows how)
// around NewSGRHMC.
//
// A user's own method implements these three methods (ExampleMethod
// writes one), or embeds one of the package's and replaces some of them. A
// method may also implement WarmupAdapter, to adapt settings of its own at
// the end of warmup, and AutocorrTimer, to predict its own autocorrelation
// time for thinning.
type Method interface {
	// Name names the method in Result.Method.
	Name() string
	// Rules returns what warmup needs to know of the method on d
	// parameters.
	Rules(d int) Rules
	// NewSampler returns the method's sampler on g, the chain's gradient
	// in the whitened coordinates z of a (θ = a.Shift + L z), started at
	// z0 and drawing its randomness from src, with the settings warmup
	// adapted in a (Friction, NoiseVar, Accumulator, …). The step size
	// a.Eps is not a setting of the sampler: Run passes it to sgmcmc.Run
	// as a constant schedule. Adapted.NewSampler calls it.
	NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, a *Adapted) (sgmcmc.Sampler, error)
}

// Rules is what Run's warmup needs to know of a Method
// (doc/equations.md §13.4).
type Rules struct {
	// StepConstant is c in the step size ε = c/λ̂ (ε = c/√λ̂ with
	// Momentum), λ̂ the largest eigenvalue of the whitened Hessian. It must
	// be positive and finite.
	StepConstant float64
	// Momentum says the method is second-order, with a momentum and a
	// friction: its step rule is ε = c/√λ̂, its heat εV̂/(2C) and its
	// autocorrelation time that of a damped oscillator. Without it,
	// Adapted.Friction is 0.
	Momentum bool
	// NoiseCorrection says the sampler takes a constant gradient-noise
	// estimate B̂ = diag V̂ (Adapted.NoiseVar), which warmup then sets.
	// Without it, NoiseVar is nil and only the batch size keeps the heat
	// within Settings.MaxHeat.
	NoiseCorrection bool
	// MinFriction is the smallest friction C (A for SGNHT) a method with
	// Momentum gets; with NoiseCorrection warmup raises it to εV̂max so
	// that 2C − εB̂ ≥ C. It must be finite and ≥ 0, and positive unless
	// the gradient noise keeps the friction positive.
	MinFriction float64
	// GradsPerStep is the number of gradient evaluations one step of the
	// method's sampler makes, in units of one minibatch gradient: 1 for
	// the recipe samplers, 2 for HAMCMC (its curvature pair's gradient on
	// the same batch), K times the base method's for K replicas. The
	// budget (Settings.MaxGradEvals, doc/adaptation.md) projects a run's
	// cost with it. Zero means 1.
	GradsPerStep float64
	// Multimodal says the method's chains are meant to visit several
	// modes (ReplicaExchange): warmup then uses plain minibatches (a
	// control variate centred at one mode can be far noisier at
	// another), and the round loop neither re-adapts a chain from its
	// draws nor relocates it, since its draws are not meant to fit one
	// mode's preconditioner.
	Multimodal bool
}

// PotentialMethod is a Method whose sampler needs the values of the
// potential, not only its gradient (ReplicaExchange's exchanges). Run
// builds its sampler by NewPotentialSampler instead of NewSampler, with u
// the potential U(θ(z)) = −log p(θ) − Σ_i log p(x_i | θ) over the whole
// data in the whitened coordinates z, which needs a Problem whose Model
// implements LogDensity.
type PotentialMethod interface {
	Method
	NewPotentialSampler(g sgmcmc.Gradient, u func(z []float64) float64, z0 []float64, src rand.Source, a *Adapted) (sgmcmc.Sampler, error)
}

// WarmupAdapter is a Method with settings of its own to adapt at the end
// of warmup, after the step size, the batch size and B̂ are chosen, as
// PSGLD adapts its RMSprop accumulator.
type WarmupAdapter interface {
	// AdaptWarmup adapts them into a (and may rescale a.Eps) on g, the
	// chain's gradient at the chosen batch size in the whitened
	// coordinates, at z = 0; n is the number of data items (1 for a
	// Problem without a Model), src a source for the method alone.
	AdaptWarmup(g sgmcmc.Gradient, n int, src rand.Source, a *Adapted) error
}

// AutocorrTimer is a Method that predicts its own autocorrelation time,
// from which Run chooses the thinning (40 % of it, Thin = ⌈τ/2.5⌉) and
// the burn-in (three times it, at least 100 steps; doc/adaptation.md §3).
// Without it the prediction is that of doc/equations.md §13.1–§13.2 from
// Rules.Momentum.
type AutocorrTimer interface {
	// AutocorrTime returns the predicted integrated autocorrelation time,
	// in steps, of the slowest whitened direction under the settings a.
	AutocorrTime(a *Adapted) float64
}

// autocorrTime returns the integrated autocorrelation time, in steps, of
// the slowest whitened direction of a chain with the adapted settings a,
// as Run predicts it for the thinning and the burn-in: m's own
// prediction if it is an AutocorrTimer, and otherwise, with the smallest
// whitened curvature taken as autocorrLowCurvature, 2/(ελ) for a
// first-order method and 2·max(C/λ, 1/C)/ε with momentum (doc/equations.md
// §13.1–§13.2).
func autocorrTime(m Method, a *Adapted) float64 {
	if t, ok := m.(AutocorrTimer); ok {
		return t.AutocorrTime(a)
	}
	if !m.Rules(len(a.Shift)).Momentum {
		return firstOrderAutocorr(a.Eps)
	}
	c := math.Max(a.Friction, autocorrMinFriction)
	return 2 * math.Max(c/autocorrLowCurvature, 1/c) / a.Eps
}

// firstOrderAutocorr is a first-order chain's autocorrelation time at the
// effective step eps along the slowest direction.
func firstOrderAutocorr(eps float64) float64 {
	return 2 / (eps * autocorrLowCurvature)
}

// validator is a Method of the package's whose settings Run checks
// before any chain starts.
type validator interface{ validate(d int) error }

// checkRules validates a method's rules, and its settings when it is one
// of the package's, on d parameters before warmup.
func checkRules(m Method, d int) (Rules, error) {
	if v, ok := m.(validator); ok {
		if err := v.validate(d); err != nil {
			return Rules{}, err
		}
	}
	r := m.Rules(d)
	if !(r.StepConstant > 0) || math.IsInf(r.StepConstant, 0) {
		return r, valid.Errorf(sgmcmc.ErrRange, "Sample: method %s: StepConstant = %v, want positive and finite", m.Name(), r.StepConstant)
	}
	if !(r.MinFriction >= 0) || math.IsInf(r.MinFriction, 0) {
		return r, valid.Errorf(sgmcmc.ErrRange, "Sample: method %s: MinFriction = %v, want finite and ≥ 0", m.Name(), r.MinFriction)
	}
	if !(r.GradsPerStep >= 0) || math.IsInf(r.GradsPerStep, 0) {
		return r, valid.Errorf(sgmcmc.ErrRange, "Sample: method %s: GradsPerStep = %v, want finite and ≥ 0 (0 means 1)", m.Name(), r.GradsPerStep)
	}
	r.GradsPerStep = orDefault(r.GradsPerStep, 1)
	return r, nil
}

// orDefault returns v, or def where v is zero (a configuration field's
// zero value).
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
