// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package diagnostics measures the output of Markov chain samplers: how many
// effectively independent draws a chain holds, whether several chains agree,
// and how far a set of draws is from a known target distribution.
//
// # Convergence and efficiency
//
// ESSBulk, ESSTail, RHat, MCSEMean and MCSEQuantile follow Vehtari, Gelman,
// Simpson, Carpenter & Bürkner (2021), "Rank-normalization, folding, and
// localization: an improved R̂ for assessing convergence of MCMC", exactly as
// the Stan ecosystem's posterior package and ArviZ compute them: chains are
// split in halves, draws are rank-normalised with fractional (average) ranks
// and the normal quantile of (r − 3/8)/(S + 1/4), the autocorrelations of each
// chain are computed by FFT and combined across chains, and the sum of
// autocorrelations is truncated by Geyer's initial monotone sequence. Their
// input is one scalar quantity as a [][]float64 of chains of equal length.
//
// # Summaries of vector draws
//
// Chains of vector-valued draws enter through the Draws interface (Len and
// At), which the chains returned by sgmcmc.Run and sgmcmc.RunChains, the
// chains read by package stancsv and Rows (a [][]float64 of draws) satisfy.
// Columns extracts coordinate j, SummarizeChains summarises every
// coordinate, and NewTable does so under parameter names, giving a Table
// that prints like CmdStan's stansummary (mean, MCSE, sd, MAD, 5/50/95%
// quantiles, bulk and tail ESS, R̂) and is a slice of named rows as data.
//
// # Distances to a known target
//
// KS, KSTwoSample and RosenblattKS are Kolmogorov–Smirnov distances (the last
// the multivariate form of Baker et al. 2018, Appendix E.2, with
// DirichletConditionalCDF for Dirichlet targets); Wasserstein and
// WassersteinTwoSample are 1-D Wasserstein-1 distances; KL and KL2D estimate
// Kullback–Leibler divergences from histograms; KSD is the kernel Stein
// discrepancy of Gorham & Mackey (2017), which needs only the score ∇log p.
// These distances treat the draws as a sample and know nothing of their
// autocorrelation: thin the chain or compare with the distance of an
// independent sample of the effective size.
//
// # Decreasing step sizes
//
// With a decreasing step size, posterior expectations are step-weighted,
// Σ ε_t h(θ_t) / Σ ε_t (Eq. 12 of Şimşekli et al. 2016): see WeightedMean and
// StepWeighted.
//
// # Errors
//
// Every function validates its input and returns an *InputError, never
// panics, for an empty or too short input, chains of unequal length or a
// non-finite draw; the error names the chain and the draw.
//
// This package does not import the root package sgmcmc: it depends on
// gonum alone, so the root package can use it.
package diagnostics
