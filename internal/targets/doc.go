// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package targets holds test distributions with known answers for the
// samplers of package sgmcmc, in the manner of gonum's optimize/functions:
// each has its exact log density, the gradient of its potential
// U = −log p (so that it is itself an sgmcmc.Gradient), exact draws, and
// CDFs where they are needed to measure a sampler's output with package
// diagnostics.
//
//   - Gaussian: standard, correlated (Σ_ij = ρ^|i−j|) or any mean and
//     covariance, with marginal and Rosenblatt conditional CDFs.
//   - Univariate: the 1-D Gaussian U = θ²/2 (Normal1D), the double well
//     U = θ⁴ − 2θ² (DoubleWell, CDF by quadrature on a fine grid) and
//     Gamma(a, 1) (Gamma).
//   - Banana: U = θ₁⁴/10 + (4(θ₂ + 1.2) − θ₁²)²/2, sampled exactly from the
//     marginal of θ₁ (θ₁⁴/10 is Gamma(1/4, 1)) and θ₂ | θ₁, which is Gaussian.
//   - Dirichlet: the sparse and dense targets of Baker et al. (2018), with
//     the conditional CDFs of diagnostics.RosenblattKS, and the gradient of
//     the expanded-mean (independent Gamma) parameterisation that SGRLD and
//     SCIR sample.
//
// Noisy wraps an exact gradient with injected N(0, σ²) noise per
// coordinate, a stand-in for a minibatch gradient with known noise.
//
// This package imports the root package sgmcmc. Tests of the root package
// can use it only from the external test package sgmcmc_test; a test file in
// package sgmcmc that imported it would make an import cycle.
package targets
