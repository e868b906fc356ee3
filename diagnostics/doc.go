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
// input is one scalar quantity as a [][]float64 of chains of equal length;
// Columns extracts coordinate j from the chains returned by sgmcmc.Run or
// sgmcmc.RunChains, and SummarizeChains summarises every coordinate.
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
// This package imports the root package sgmcmc (for Chain); the root package
// does not import it.
package diagnostics
