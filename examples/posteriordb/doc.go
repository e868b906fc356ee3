// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Posteriordb checks that every sampler of the library, run as a user
// would run it, gets real posteriors right or says that it did not.
//
// Each of the five methods (SGLD, SGHMC, SGNHT, HAMCMC, pSGLD) is
// run with 4 chains on each target, and each run gives one row: the worst
// error of a posterior mean in reference sds, the worst relative error of
// a posterior sd (signed), the largest R̂ and the smallest bulk ESS over
// the parameters, the divergences and warnings the run reported, the
// gradient evaluations (warmup included) and the seconds. The goal, from
// the issue that introduced it: every mean within 0.1 sd, every sd within
// 10 %, R̂ ≤ 1.01 and bulk ESS ≥ 1,000 (≥ 2,000 on illcond100) on
// earnings, kidiq and illcond100; on funnel10 each method either meets the
// goal or warns. Issue 22 widened it to the development set below, with a
// mean's tolerance that allows for Monte Carlo error (mean_err_over_tol).
// A wrong answer without a warning is the failure the example exists to
// catch.
//
// # Targets
//
// Every target is a sgmcmc.Model (with sgmcmc.LogDensity) in unconstrained
// space; draws are mapped back to the space the reference reports (σ, not
// log σ) before they are compared, and each parameter is summarised once
// (diagnostics.Summarize over the 4 chains).
//
//   - earnings (posteriordb earnings-logearn_height): log earnings on
//     height, N = 1,192, β flat, σ flat; the uncentred predictor (height
//     58–77 inches) makes intercept and slope correlate at −0.998.
//   - kidiq (kidiq-kidscore_momiq): kid's score on mother's IQ, N = 434,
//     β flat, σ ~ half-Cauchy(0, 2.5); correlation −0.989.
//   - illcond100: a linear-Gaussian model, N = 10,000, 100 dimensions,
//     whose posterior precision has eigenvalues 10^(8k/99), k = 0 … 99,
//     under a Haar-random rotation (seed IllCondSeed), so that the
//     condition number is 10⁸ and no coordinate is aligned with an
//     eigenvector. The design X = Z diag(√(λ_k − τ)) Qᵀ, with Z of
//     orthonormal columns (a Gaussian matrix orthonormalised), gives XᵀX +
//     τI = Q diag(λ) Qᵀ exactly, and spreads every eigendirection's
//     precision evenly over the data, so minibatch gradients see the whole
//     spectrum (NewIllCondProblem). The posterior is exact.
//   - funnel10: Neal's funnel, v ~ N(0, 3²), x_i | v ~ N(0, e^v), i = 1 …
//     9, one datum (exact gradients), against its exact marginals: v has
//     sd 3, each x_i mean 0 and sd e^(9/4) ≈ 9.49. The x_i are extremely
//     heavy-tailed (kurtosis 3e⁹ ≈ 24,000), so their sample sd is a poor
//     estimate even from exact independent draws: the relative error of
//     the sample variance is about 156/√S for S draws, so even 10,000
//     exact draws typically miss the sd goal on x. A funnel row therefore
//     passes only by luck and should carry a warning (the neck, v ≲ −5, is out
//     of reach of any fixed step).
//
// With -dev three more posteriordb targets run too, to keep the defaults
// honest beyond the two the check uses: kidiq_interaction (4 coefficients,
// uncentred interaction), mesquite (7 parameters, N = 46, log-log
// regression) and hmm (a two-state hidden Markov model, simplex transition
// rows and ordered means, gradient by forward–backward, one datum).
//
// # The development set
//
// -set dev runs the development set of issue 22, a set broad enough to
// generalise from, each posteriordb posterior named by its directory:
//
//   - eleven regressions (Regression, regressionSpecs): the four earnings
//     models (earnings-logearn_height, the check's earnings;
//     earnings-earn_height, earnings in dollars, so β₁ ≈ −6·10⁴ and σ ≈
//     1.9·10⁴ from the start σ = 1; earnings-logearn_interaction;
//     earnings-logearn_logheight_male), the four kidiq models
//     (kidiq-kidscore_momiq, the check's kidiq; kidiq-kidscore_momhsiq;
//     kidiq-kidscore_interaction, an uncentred interaction;
//     kidiq_with_mom_work-kidscore_interaction_c2, the same centred) and
//     the three mesquite models (mesquite-mesquite, raw scale, 8
//     parameters; mesquite-logmesquite_logvash;
//     mesquite-logmesquite_logvolume);
//   - hmm_example-hmm_example (HMM) and bball_drive_event_0-hmm_drive_0
//     (DriveHMM: two states, exponential emissions of two series, Dirichlet
//     transition rows, two ordered pairs of rates; 6 parameters, 8
//     reported), both one datum with the gradient by forward–backward;
//   - gp_pois_regr-gp_pois_regr (GPPoisson): a latent Gaussian process
//     Poisson regression, f = L(α, ρ) f̃ with L the Cholesky factor of the
//     squared-exponential covariance, 13 parameters; the gradient with
//     respect to log α and log ρ differentiates the Cholesky recursion;
//   - hier_cp and hier_ncp (Hier): the eight schools, y_j ~ N(θ_j, σ_j),
//     θ_j ~ N(μ, τ), μ ~ N(0, 5), τ ~ half-Cauchy(0, 5), centred and
//     non-centred (θ_j = μ + τη_j), reported as μ, τ, θ_1 … θ_8. The
//     reference is exact: given τ the model is linear-Gaussian, so μ and θ
//     are integrated analytically and the marginal moments are trapezoid
//     sums over log τ (step 0.002 on [−25, 15]; a grid twice as fine and
//     10 wider agrees to 1e-9 sd);
//   - corr9999: a linear regression with known noise whose intercept and
//     slope have posterior correlation −0.9999 (the predictor has mean 10
//     and sd 0.14), exact by conjugacy;
//   - mixture2: y ~ 0.3 N(μ₁, 1) + 0.7 N(μ₂, 1), N = 200, μ₁ ~ N(−2, 1),
//     μ₂ ~ N(2, 1), μ₁ < μ₂ (sampled as μ₁, log(μ₂ − μ₁)): components
//     identified (without the order a relabelled local mode, 72 nats
//     below, traps chains), gradients from the responsibilities, finite
//     everywhere; the reference is exact by 2-d quadrature in the principal
//     axes of the mode (step 0.2 sd over ±12 sd, inside μ₁ < μ₂; half the
//     step and ±16 sd agree to 1e-10);
//   - funnel10.
//
// The posteriordb models are checked against their reference draws by the
// score identity (the mean model gradient over the draws, in
// unconstrained space, is within 5 standard errors of zero in every
// coordinate), which a wrong prior, Jacobian or likelihood would fail.
// With -seeds s1,s2,… the default method (SGHMC, sample.Run's) runs with
// every seed and the other methods with the first; -targets picks targets
// of any set by name (with or without -set), e.g. -targets
// gp_pois_regr-gp_pois_regr -methods SGHMC.
//
// Priors follow the Stan models in testdata/posteriordb exactly,
// including improper flat priors and the Jacobians of the transforms.
// Reference means and sds come from posteriordb's 10,000 reference draws
// (10 NUTS chains); their Monte Carlo error, about 0.01 sd on a mean and
// 0.7 % on an sd, is small next to the goal.
//
// # The sampler call
//
// All sampling goes through runMethod, one call of sample.Run with the
// target's model (wrapped to count its evaluations), the user's start
// (β = 0 and σ = 1, or θ = 0), 4 chains, the seed and the number of draws,
// and every other setting at its default. The draws are the only choice
// the example makes.
//
// -oracle runs a baseline instead: each method with fixed settings chosen
// by hand in coordinates whitened by the reference covariance, started at
// the reference mean (knowledge a user does not have; it stood in for
// sample.Run while sample.Run was written). When a sample.Run row misses the goal and
// the oracle row meets it, the adaptation is at fault, not the method. Its
// rows show one lesson: with the exact posterior covariance as
// preconditioner, fixed settings still give earnings' σ sds 10–20 % too
// wide, because they assume the gradient noise of a batch of n is
// (N/n − 1)·I in whitened units (the per-datum scores' covariance equal to
// the per-datum Fisher information), but log earnings' residuals are
// heavy-tailed (kurtosis 5.1 at the posterior mean), so the score of
// log σ, z² − 1, has variance 4.1, twice its Fisher information 2, and the
// B̂ correction falls short. The noise must be estimated, not assumed.
//
// # Results
//
// With the sample.Run of the tree at the time of writing, seed 1, on a quiet
// two-core machine (282 s for the 18 rows below, 497 CPU s): every method
// meets the goal on earnings, kidiq and illcond100 without a warning.
// The worst figures over the methods: on earnings a mean 0.034 sd off
// (pSGLD), an sd 7.7 % wide (SGLD), R̂ 1.0048 and bulk ESS 1,932; on kidiq
// 0.036 sd (SGNHT), +6.1 % (HAMCMC), 1.0009 and 1,745; on illcond100
// 0.041 sd (pSGLD), +5.8 % (HAMCMC), 1.0029 and 2,854.
// gSGRHMC is no longer one of sample.Run's methods: its rows equalled SGHMC's
// to the last digit (with the constant metric G = I in sample.Run's whitened
// coordinates and the same friction rule, gSGRHMC is SGHMC). The cost is
// illcond100's: 12–38 CPU s for SGLD, SGHMC and SGNHT, 152 for HAMCMC and
// 238 for pSGLD, against
// 0.1–3.5 CPU s for an earnings or kidiq row.
//
// On funnel10 no method samples correctly and every one says so (4 min 12 s
// wall for all 24 rows in a later run, with the same figures on the other
// targets): R̂ between 1.06 and 1.56 and bulk ESS between 7 and 50 (the
// warning on the curvature spread it then also carried was dropped in
// issue 22: it fired on right answers as often); SGNHT's run stops with a divergence after 579 draws per chain,
// HAMCMC counts 4 divergences. From θ = 0 the saddle-free Newton phase of
// the warmup finds no step that shrinks the gradient (the posterior is not
// log-concave there), so the warmup leaves the start to its Langevin
// windows. The development target hmm, which failed the same way before
// that fallback, now runs: every method within 0.04 sd and 3 % there.
//
// The development set now (sampling rounds, chains joining the heaviest
// place, first-order methods' pilot runs, doc/adaptation.md §5–§7;
// -set dev -seeds 1,2,3,4 on two cores, 949 s of cells): of 152 rows, 133
// meet the goal, none with a warning; none of the 19 that miss it is
// without a warning or an error. The default method meets it without a
// warning on every seed of every target but the two excused funnels,
// hier_cp and funnel10, which warn or stop with an error on every seed.
// Every method meets it on the drive HMM (SGLD 19 s, pSGLD 50 s, HAMCMC
// 77–82 s). Only first-order methods on gp_pois_regr fail the development
// goal: SGLD reaches the cell limit (R̂ 1.51, ESS 8, warned), and HAMCMC
// and pSGLD are refused by the cost bound (5.4·10⁸ and 4.6·10¹⁰
// evaluations a chain; pSGLD's error comes after 124 s). Their steps are
// set by the largest curvature, and they need the square of a momentum
// method's steps between independent draws: gp_pois_regr's Hessian at the
// mode, whitened by the reference covariance, has eigenvalues 0.18–133;
// over 400 posterior draws its largest eigenvalue in that whitening is
// 15–1,040, median 40 and 99th percentile 484, its smallest −15 to 0.9,
// so even that perfect constant preconditioner leaves a first-order method
// about 2·10⁴ steps between independent draws: some 4·10⁷ gradients for
// the development goal, about 6 CPU minutes at its 9 µs a gradient,
// against the 4 a two-minute cell has on two cores. Given 12 minutes,
// SGLD on gp_pois_regr (seed 1) still missed (R̂ 1.61, ESS 7): one chain's
// warmup left it a step so small that it drew 124 of its 1,000 draws, and
// the other three finished a first round whose draws spread 52–146 times
// the variance their preconditioner assumed, with a second round projected
// past what the rounds may cost.
//
// On the development set, with the sample.Run of the tree when the set was
// added (seed 1, the default method SGHMC, default draws; 41 s for the 19
// rows on a shared two-core machine): 10 rows meet the goal, 7 without a
// warning (the three log-scale earnings models, kidiq-kidscore_momiq,
// kidiq-kidscore_interaction, kidiq_with_mom_work-kidscore_interaction_c2,
// corr9999) and 3 with one (the two log-scale mesquite models,
// hmm_example-hmm_example); earnings-earn_height, hier_ncp and hier_cp
// stop with divergences or a non-finite gradient after chains ran away
// (sds off by 10¹³ and more), kidiq-kidscore_momhsiq and
// bball_drive_event_0-hmm_drive_0 stop with a non-finite gradient at
// sampling step 31 and 2 (the drive HMM's chain jumped to log(φ₂ − φ₁) ≈
// 10⁴ from a warmup centre of −33), mesquite-mesquite runs away without
// an error (R̂ 1.45), gp_pois_regr-gp_pois_regr misses (an sd 5 times too
// wide, R̂ 1.12), and mixture2 has sds 27 % too wide (R̂ 1.05). With 100
// draws per chain, the other methods took up to 470 s per row (pSGLD on
// the mesquite models, hier_cp, hmm_example and gp_pois_regr; over 600 s
// on bball_drive_event_0-hmm_drive_0 and mixture2): their thinning, not
// their warmup, is the cost.
//
// # Output
//
// The table goes to stdout; -json prints one object {"default_method":
// "SGHMC", "rows": [...]} with the keys target, method, seed,
// mean_err_over_tol, max_mean_err_sd, max_sd_rel_err, max_rhat,
// min_ess_bulk, divergences, warnings (a list), grad_evals, seconds and
// error. mean_err_over_tol is the largest over the parameters of |mean −
// ref| / max(0.1 ref sd, 4 √(MCSE² + MCSE_ref²)), MCSE the run's Monte
// Carlo standard error of the mean and MCSE_ref the reference's (0 for an
// exact reference), so that with dozens of parameters a mean is not
// failed for Monte Carlo noise alone; the goal asks for at most 1. Every
// run gives a row: a run that fails has its message in error (empty
// otherwise) and the program still exits 0; its figures are those of the
// draws it kept if every chain kept at least 4 (with a warning saying
// so), or null. The program fails only on an unknown method, a target
// that cannot be loaded, or an interrupt.
//
// "Gradient evaluations" are per-datum likelihood gradients, warmup
// included, counted by wrapping the model (the measure of sample.Run's
// Result.GradEvals, which they are tested to equal). The table adds
// sample.Run's warmup share, the batch size it chose, the passes over the data
// and the process CPU time of each row. -plot DIR writes errors.png (each
// row's worst mean error against its worst sd error, log axes, the goal's
// box dashed) and cost.png (smallest bulk ESS against gradient
// evaluations, the goal's levels dashed and dotted).
//
// Flags: -set dev runs the development set and -set check the default
// targets, -dev adds the -dev targets, -targets and -methods select,
// -draws overrides the draws per chain (default 1,000 per chain on the
// regressions and the funnel, whose bulk ESS then exceeds 1,000 with
// margin, and 2,000 on illcond100, which needs 2,000), -seed sets the
// master seed and -seeds several, -oracle runs the oracle baseline, -data
// names the directory of the posteriordb files (default: the repository's
// testdata/posteriordb, found from any directory inside the repository),
// and -cell-time (default 3m) stops a cell that runs longer: its row keeps
// the draws made and its error says it was stopped. (The goal is 2
// minutes a cell; without the limit, first-order methods on gp_pois_regr,
// whose warmup can end where the curvature is 10⁴ times the posterior's,
// ran for hours within the default gradient budget.)
package main
