// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command bnn compares, on MNIST digits, the posterior predictive of a
// Bayesian neural network sampled by sgmcmc.Sample with the MAP and a deep
// ensemble (issue 24 item 3).
//
//	go run ./examples/bnn                          # one seed, a table
//	go run ./examples/bnn -json -seeds 1,2,3       # {"rows": [...]}
//	go run ./examples/bnn -png reliability.png     # and a reliability diagram
//
// Data: the 10,000 digits of testdata/mnist (README.md there: source and
// licence), split by a fixed seeded permutation into 8,000 training and
// 2,000 test digits, pixels scaled to [0, 1].
//
// Model (model.go): a perceptron 784–100–10 with ReLU and a softmax
// likelihood, d = 79,510, with a fan-in scaled Gaussian prior (MLP says
// why its scale), written as θ ~ N(0, I) with weights w = s_l θ;
// hand-written gradients over a batch through gonum's Dgemm, checked
// against finite differences by sgmcmc.CheckModel (model_test.go).
//
// Methods, per seed:
//
//   - MAP: Adam (rate 10⁻², β = 0.9, 0.999; Kingma & Ba's defaults but
//     for the rate, which is in θ's unit-prior scale) on minibatches of
//     100 digits for 40 epochs, from a draw of the prior.
//   - ensemble: 4 such MAPs from other prior draws, their predictive
//     probabilities averaged (Lakshminarayanan et al. 2017). "The same
//     total budget" is taken as 4 MAPs: 4 × 40 epochs, 1.28·10⁶ per-digit
//     gradients, each member exactly the MAP; that is about a seventh of
//     Sample's four chains (the rows' grad_evals say exactly), so the
//     ensemble is, if anything, under-budgeted against Sample.
//   - Sample: sgmcmc.Sample with its defaults (SGHMC, 4 chains, every
//     adaptation its own) from theta0 = 0, setting only Seed, Draws = 20
//     per chain (the default 1,000 at the thinning warmup chooses — 16
//     to 57 steps of 800 to 3,200 digits per draw on these runs — would
//     cost about 40 times more than burn-in and 20 draws, hours per
//     seed; 80 draws 0.4 autocorrelation times apart are what the
//     15-minute budget affords the predictive average), and
//     DrawsMemory = 1 GiB so
//     that every coordinate's draws are kept (4 × 20 × 79,510 floats,
//     51 MB: the predictive needs all of them; the default 256 MiB would
//     do too, the setting says so). The posterior predictive is the
//     average of the softmax probabilities over all chains' draws.
//   - Sample_cold: the same at Temperature 0.1, the cold posterior
//     π(θ)^{1/T} (Wenzel et al. 2020 found T ≈ 0.1 or below best for
//     network posteriors).
//
// Metrics on the 2,000 test digits: accuracy, mean log predictive
// probability of the true digit (test_loglik), the expected calibration
// error over 15 equal-width bins of the top probability (ece), wall and
// CPU seconds of the method, the process's peak resident memory so far
// (getrusage; for a row, an upper bound on that method's own), and the
// per-digit gradient evaluations (Sample's warmup included, with its
// share). The reliability diagram plots each method's accuracy against
// its mean confidence per non-empty bin, with the diagonal.
//
// Sample at this size runs the large-d warmup of doc/equations.md
// §13.11–§13.13: the fixed batch is capped at 10⁸/d = 1,257 digits, Adam
// finds a mode, the curvature is probed there, and the windows do not run.
package main
