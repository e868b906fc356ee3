// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// HAMCMC runs HAMCMC (sgmcmc.NewHAMCMC) in the whitened coordinates with
// ε = StepConstant/λ̂ and no B̂: the batch is raised until the heat is
// within bound. Its M interleaved subchains each move every M-th step, so
// it thins and burns in M times as much as SGLD. The zero value is the
// default configuration.
type HAMCMC struct {
	// StepConstant is c in ε = c/λ̂. Zero means 0.1, as SGLD's.
	StepConstant float64
	// M is the memory size (HAMCMCSettings.M). Zero means 2.
	M int
	// Gamma is the scale γ of the initial inverse Hessian γI, in the
	// whitened coordinates. Zero means 1.
	Gamma float64
	// MinPairCurvature rejects curvature pairs flatter than it, relative
	// to the adapted curvature 1/γ (HAMCMCSettings.MinPairCurvature).
	// Zero means 1: the L-BFGS inverse Hessian then shortens the step
	// along stiff pairs but never lengthens it beyond γ, so that the step
	// ε = c/λ̂, which warmup made stable at the stiffest curvature it met,
	// stays stable where the chain meets curvature its pairs did not
	// (doc/adaptation.md §2.7). Below 1 a flat pair multiplies the step
	// by up to 1/MinPairCurvature along it: on a hidden Markov model with
	// a collapsed second mode, with 0.2, one chain's steps carried it
	// there, where it diverged. The thinning does not count on longer steps either
	// (AutocorrTime).
	MinPairCurvature float64
}

// Name returns "HAMCMC".
func (HAMCMC) Name() string { return "HAMCMC" }

// Rules returns HAMCMC's warmup rules: first-order, without B̂.
func (m HAMCMC) Rules(int) Rules {
	return Rules{StepConstant: orDefault(m.StepConstant, 0.1), GradsPerStep: 2}
}

// NewSampler returns NewHAMCMC on g with M, Gamma and MinPairCurvature.
func (m HAMCMC) NewSampler(g sgmcmc.Gradient, z0 []float64, src rand.Source, _ *Adapted) (sgmcmc.Sampler, error) {
	return sgmcmc.NewHAMCMC(g, z0, src, &sgmcmc.HAMCMCSettings{M: m.memory(), Gamma: orDefault(m.Gamma, 1),
		MinPairCurvature: orDefault(m.MinPairCurvature, 1)})
}

// AutocorrTime is M times SGLD's at the same step: each subchain moves
// every M-th step.
func (m HAMCMC) AutocorrTime(a *Adapted) float64 {
	return float64(m.memory()) * 2 / (a.Eps * autocorrLowCurvature)
}

func (m HAMCMC) memory() int { return orDefault(m.M, 2) }
