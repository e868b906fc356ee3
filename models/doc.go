// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package models gives ready models for sample.Run: generalised linear
// models with varying (group-level) effects, written once with exact
// gradients, per-datum structure for minibatches and control variates,
// and names in brms's scheme — what rstanarm and brms give Stan's users.
//
//	m, err := models.NewGLM(models.GLM{
//		Family: models.Poisson, Y: y, X: x, Names: []string{"dose"},
//		Offset: logExposure,
//		Groups: []models.Group{{Name: "site", Index: site}},
//	})
//	p, err := m.Problem()
//	res, err := sample.Run(ctx, p, m.Start(), nil, nil)
//	table, err := m.Summary(res.Finished()) // b.Intercept, b.dose, sd_site.Intercept, r_site.1.Intercept, …
//
// # Families and links
//
// Gaussian and StudentT (identity link, scale σ; StudentT's ν fixed by
// GLM.Nu or estimated), Bernoulli and Binomial (logit or probit), Poisson
// (log; an exposure E enters as Offset log E) and NegBinomial (log, shape
// φ, Var y = μ + μ²/φ, Stan's neg_binomial_2). Weights multiply each row's
// log likelihood. Each density is Stan's, normalising constants included,
// so LogLik is the _lpdf/_lpmf Stan would give.
//
// # Priors and their defaults
//
// Normal, StudentTPrior, Cauchy and Laplace for coefficients; HalfNormal,
// HalfT, HalfCauchy, Exponential and Gamma for scales. The defaults are
// rstanarm's, scaled to the data as rstanarm scales them, with s_y = sd(y)
// for Gaussian and StudentT and 1 for the other families:
//
//	coefficient b_j   normal(0, 2.5·s_y/sd(x_j))
//	intercept b₀      normal(m, 2.5·s_y·√(1 + Σ_j (x̄_j/sd(x_j))²)), m = ȳ (Gaussian, StudentT) or 0
//	σ                 exponential(1/s_y)
//	φ                 exponential(1)
//	ν                 gamma(2, 0.1), ν > 1 (brms's)
//	each group sd     exponential(1/s_y)
//
// rstanarm puts normal(m, 2.5·s_y) on the intercept of centred predictors;
// this package does not centre them, and the intercept's default is the
// prior that rstanarm's priors imply for the intercept at x = 0 (b₀ =
// centred intercept − Σ b_j x̄_j, independent normals). Describe lists
// every prior in force.
//
// # The parameterisation, chosen from the data
//
// A varying effect r_j ~ N(0, τ²) can be sampled as r_j (centred) or as
// z_j = r_j/τ (non-centred). The centred form is the right one where level
// j's data identify r_j; the non-centred where they do not, and the wrong
// one makes the posterior a funnel or a ridge that no constant step
// samples (Papaspiliopoulos, Roberts & Sköld 2007: for normal data the
// Gibbs sampler of the centred form converges at rate 1/(1 + κ_j), the
// non-centred at κ_j/(1 + κ_j), κ_j = n_j τ²/σ² the ratio of the data's
// information to the prior's; Betancourt & Girolami 2015 for HMC). NewGLM
// decides per level, before sampling, by
//
//	κ_j = I_j · τ̂² ≥ 1  →  centred,  else non-centred,
//
// where I_j = Σ_{i∈j} w_i E[−∂²ℓ_i/∂η²] is the level's Fisher information
// about its effect at a plug-in point (the intercept at g(ȳ), every effect
// 0, σ the pooled within-level sd), and τ̂² = max(0, mean_j ĝ_j² −
// mean_j 1/I_j) the method-of-moments estimate of the effects' variance
// from the one-step Fisher-scoring estimates ĝ_j = S_j/I_j (S_j the
// level's score) whose sampling variance is 1/I_j. A level's slopes share
// its intercept's choice. Group.Param overrides the rule (Centred,
// NonCentred). Describe reports the choice, τ̂ and the range of κ_j.
// Whatever is sampled, Draws and Summary report r_j = τ z_j.
//
// # Names
//
// brms's names in the dotted form CmdStan CSV accepts (stancsv refuses
// commas): b.Intercept, b.<predictor>, sigma, shape, nu, sd_<group>.<effect>,
// cor_<group>.<effect>.<effect> (a correlated factor's) and
// r_<group>.<level>.<effect> (effect Intercept or a predictor). Problem's
// coordinates are unconstrained through the transform package — σ, φ and
// sds by their logarithms, ν by log(ν − 1), a correlated factor's
// Cholesky factor by Stan's transform — and named by FreeNames
// (z_<group>.<level>.<effect> for a non-centred level, L_<group>.<a>.<b>
// for the Cholesky factor's entry in row a, column b). A factor whose
// levels are all non-centred has its sds sampled as y with
// log(sd/ŝ) = y − e^{−y} instead (ŝ the plug-in estimate): the log's
// flat tail toward sd = 0, where such a posterior keeps a density, becomes
// a Gumbel one that holds the sampler (sdtransform.go says why).
//
// # Speed
//
// Model implements sgmcmc.BatchModel: a minibatch's linear predictors
// first, then the gradient, in parts of 128 rows run in parallel and added
// in order (so results do not depend on GOMAXPROCS), allocation-free once
// warm. On a dense logistic regression (d = 20) it is as fast per gradient
// as the hand-written internal/logreg model (BenchmarkLogisticBatch).
//
// # Data
//
// From gonum matrices and slices, a sparse CSR design, or a CSV file
// (ReadCSV): Frame.Numeric, Frame.Factor (a grouping factor) and
// Frame.Matrix (numeric columns and the dummies of categorical ones), with
// errors that name the row and column of a missing or non-numeric cell and
// the column that is constant. From a dataset.Table (GLM.Table: a
// dataset.File on disk, read as the sampler needs its rows; doc/data.md):
// a response and dense predictors, the model the same, bit for bit, as
// over the same rows in memory.
//
// # Correlated effects
//
// A factor with slopes may have its level's effects correlated
// (Group.Correlated, brms's (1 + x | g)): r_j = diag(sd)·L·z_j, z_j ~
// N(0, I), with L the Cholesky factor of their correlation matrix Ω = LLᵀ
// and L ~ LKJCholesky(η) (Group.LKJ, default 1), Stan's
// lkj_corr_cholesky, normalising constant included. Such a factor is
// sampled non-centred at every level — a correlated centred form is not
// built, and Describe says how many levels the rule would have centred —
// so its sds are sampled as the Gumbel-tailed y of Names; L's e(e−1)/2
// free entries are sampled through Stan's transform (canonical partial
// correlations tanh y, its log-Jacobian exact; lkj.go). Draws and Summary
// report the correlations Ω_ab as cor_<group>.<effect a>.<effect b>
// (brms's cor_g__Intercept__x1), after the sds.
//
// # Not built
//
// A correlated factor's centred form. A Table holds no grouping factors,
// trials, offsets or weights yet.
package models
