// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Banana2d reproduces Figure 2 (right) of Ma, Chen & Fox (2015), "A complete
// recipe for stochastic gradient MCMC": the KL divergence to the truth
// against the number of steps of SGLD, SGHMC and gSGRHMC on the banana
//
//	U(θ₁, θ₂) = θ₁⁴/10 + (4(θ₂ + 1.2) − θ₁²)²/2   (internal/targets.Banana),
//
// and the contours of the density with each method's first 10 points. The
// paper's claim is that gSGRHMC explores fastest. With the library's
// samplers and an equally rigorous tuning of every method's own
// hyperparameters it does not at the final checkpoint: gSGRHMC beats SGLD,
// but SGHMC ends lower (details below). Started in the tail of an arm,
// gSGRHMC does spread faster than SGHMC over the first 10⁴ steps.
//
// # Setup
//
// Gradients are noisy, ∇Ũ = ∇U + N(0, σ²I) with σ = 1 (the paper's noise
// level is not given), and every method gets the B̂ correction with the
// exact V = σ²I (NoiseVar), so the noise is treated alike. SGHMC uses M = I.
// By default all methods start every chain at the mode θ₀ = (0, −1.2);
// -start sets another common start.
//
// gSGRHMC (sgmcmc.NewSGRHMC) uses the diagonal metric Marginal/κ, built from
// the banana's geometry: with the residual ρ = 4(θ₂ + 1.2) − θ₁², J = ∇ρ =
// (−2θ₁, 4) and the Gauss–Newton (Fisher) curvature F = JᵀJ,
//
//	g_i(θ) = 1 / [(F(θ) + I)⁻¹]_ii:  g₁ = 1 + 4θ₁²/17,  g₂ = (4θ₁² + 17)/(4θ₁² + 1),
//
// the local marginal precisions of θ₁ and θ₂ (the identity stands in for
// the curvature of θ₁⁴/10, whose average under the target is 1.28). At the
// centre g = (1, 17): θ₂, sixteen times stiffer, is whitened. On the arms
// (|θ₁| ≈ 2), where the ridge runs at 45°, g ≈ (1.9, 1.9). The scale κ
// (G → G/κ) is a real hyperparameter: it multiplies the friction G⁻¹ by κ
// and the θ-speed G^(−1/2) by √κ. With a constant metric gSGRHMC is SGHMC
// with mass G and friction 1, so (ε, κ) plays the part of SGHMC's (ε, C).
//
// The KL is diagnostics.KL2D of the pooled draws θ₁ … θ_t of 20 independent
// chains (sgmcmc.RunChains, no burn-in) on 32 × 24 cells of 0.25 × 0.25
// over [−4, 4] × [−2.5, 3.5] (mass outside below 1e−9), at t = 10², 3·10²,
// …, 10⁵. The demo also reports the floor: the KL of as many exact draws
// (targets.Banana.Sample), 6.6e−5 at t = 10⁵ (2·10⁶ draws; 6.0e−5 to
// 8.1e−5 over five seeds). SGHMC and gSGRHMC end 4–7 times above it and
// SGLD 9–21 times, so the final KL measures the chains' autocorrelation and
// bias, not histogram noise alone.
//
// Tuning gives every method 16 grid points, run with 20 chains for 10⁵
// steps on a separate tuning seed (seed + 2³², the same for every method
// and point), keeping the point of smallest KL at t = 10⁵; runs that
// diverge count as +Inf. The reported runs then use seed 1.
//
//   - SGLD: ε ∈ {0.001, 0.0013, …, 0.03} (16 values, ratio about 1.25); its
//     only parameter (a scalar D is the same as a rescaled ε).
//   - SGHMC: ε ∈ {0.035, 0.05, 0.07, 0.1} × C ∈ {0.5, 1, 2, 4}.
//   - gSGRHMC: ε ∈ {0.035, 0.05, 0.07, 0.1} × κ ∈ {0.25, 0.5, 1, 2}.
//
// The chosen points lie inside the grids (seed 1: SGLD ε = 0.004; SGHMC
// ε = 0.05, C = 0.5; gSGRHMC ε = 0.07, κ = 0.5; C = 0.5 is the grid's edge,
// but C = 0.5–4 differ by under 20 % at ε = 0.05). A wider scan (κ up to
// 16, ε up to 0.14) found nothing better: larger κ explores faster early
// (KL 0.08 at t = 100 for κ = 16) but its first-order O(ε) bias then
// dominates (KL 0.0013 or more at t = 10⁵). The demo prints every tuning
// table.
//
// # Results
//
// Seed 1, about 17 s on two cores (steps cost about 0.1–0.2 µs for SGLD and
// SGHMC, 0.25 µs for gSGRHMC), with the library's ziggurat generator (the
// figures changed with it; the conclusions did not):
//
//	sampler  ε, C or κ        t = 100  300     1000    3000     10⁴      3·10⁴     10⁵
//	SGLD     0.004            0.398    0.115   0.0374  0.0201   0.0048   0.00194   0.00138
//	SGHMC    0.05, C = 0.5    0.227    0.0767  0.0255  0.00782  0.00293  0.000986  0.000302
//	gSGRHMC  0.07, κ = 0.5    0.383    0.132   0.0327  0.0125   0.00393  0.00127   0.000459
//	exact draws (floor)       0.039    0.015   0.0055  0.00198  0.000496 0.000211  0.0000656
//
// Over seeds 1–5, each tuned afresh, the final KL was 0.00026–0.00031 for
// SGHMC and 0.00036–0.00046 for gSGRHMC (0.00056–0.00138 for SGLD): SGHMC
// lower on every seed, gSGRHMC's final KL 1.52, 1.28, 1.44, 1.45 and 1.44
// times SGHMC's. The paper's ordering is not reproduced at the final
// checkpoint. What the acceptance asks of this example — gSGRHMC below
// SGLD and within 1.5 times SGHMC at the end — holds on seeds 2–5 and
// misses by a hair on seed 1, the default (1.52).
//
// The two experiments below (a start in the tail, other metrics) were
// measured with the earlier generator, math/rand/v2's NormFloat64.
//
// From the tail, -start -3,1.05 (on the ridge at θ₁ = −3, where the
// marginal density of θ₁ is e^(−8.1) of its peak; a start that requires
// exploring the arm), the tuning picks SGLD ε = 0.004, SGHMC ε = 0.05,
// C = 2 and gSGRHMC ε = 0.1, κ = 0.5, and seed 1 gives
//
//	sampler  t = 100  300    1000    3000    10⁴      3·10⁴    10⁵
//	SGLD     4.86     2.25   0.583   0.109   0.0123   0.0031   0.00122
//	SGHMC    1.28     0.317  0.0669  0.0173  0.00561  0.00124  0.000323
//	gSGRHMC  0.932    0.252  0.0551  0.0133  0.00356  0.00123  0.000467
//
// gSGRHMC leads SGHMC at every t ≤ 10⁴ in each of seeds 1–4 (by 5–35 %),
// ties at 3·10⁴ and ends behind at 10⁵ (0.00039–0.00059 against
// 0.00032–0.00040). This is the sense in which the paper's "explores
// fastest" holds here: the metric speeds the first spreading from a tail,
// not the long-run accuracy. The mode stays the default start because the
// paper does not say where its chains started, and the final KL, which
// the acceptance checks, hardly depends on the start.
//
// Other metric families, tuned on the same (ε, κ) grid (best KL at
// t = 10⁵ on the tuning seed; SGHMC's best was 0.00023, Marginal's
// 0.00039):
//
//   - constant (1, 17)/κ (the curvature along θ₂ only; this is SGHMC with
//     mass diag(1, 17)): 0.00027 at ε = 0.2, κ = 0.25.
//   - (1, g₂(θ))/κ, Marginal's θ₂ part only: 0.00031 at ε = 0.1, κ = 0.5.
//   - (g₁(θ), 1)/κ, Marginal's θ₁ part only: 0.00030 at ε = 0.05, κ = 1.
//   - the literal Hessian diagonal made positive, (√(H₁₁² + 1), 17) with
//     H₁₁ = 5.2θ₁² − 2ρ (measured earlier with κ = 1 and ε tuned alone):
//     0.0017; on the arms it makes θ₁ about four times slower.
//
// None is clearly below SGHMC; the best of them is the one that is SGHMC
// with a mass matrix. Reasons, as far as the experiments show:
//
//   - The banana is only mildly ill-conditioned (curvature 16 across the
//     ridge at the centre, about 35 on the arms), and the library's SGHMC
//     integrates by a sequential sweep that is stable up to ε√λ ≈ 1, so
//     SGHMC already takes steps of 0.05–0.07 and moves along the ridge at
//     unit speed. A diagonal metric cannot follow the ridge's rotation.
//   - gSGRHMC, a first-order scheme with a state-dependent metric, has a
//     much larger O(ε) bias than SGHMC's sequential sweep (see
//     examples/recipe1d), which caps its useful step size and κ.
//   - -dense runs gSGRHMC with the dense metric (F + I)/κ, which does follow
//     the ridge, through sgmcmc.NewSGRHMCDense. It cannot take the B̂
//     correction, so the gradient noise heats it (temperature about
//     1 + εσ²/2), and it costs 3 µs and 10 allocations per step. With κ = 1
//     and ε tuned it picked ε = 0.03 and ended at KL 0.00088, worse than
//     the diagonal metric.
//   - -simultaneous uses the paper's displayed updates (Eq. 9 read
//     literally, explicit Euler) for SGHMC and gSGRHMC. Both are then
//     limited by the stiffest curvature (ε < C/λ for SGHMC, and likewise for
//     gSGRHMC, whose friction G⁻¹ is small where G is large); with ε tuned
//     alone (C = κ = 1) they picked ε = 0.003 and 0.005 and ended at 0.0044
//     and 0.0048, both behind SGLD.
//
// # Usage
//
//	go run ./examples/banana2d [-json] [-plot DIR] [-seed 1] [-chains 20] [-sigma 1] [-start 0,-1.2] [-dense] [-simultaneous]
//
// It prints the table of KL against steps, with the exact-draw floor, and
// the tuning tables. With -json
// it prints one JSON object {"rows": [...]} to stdout and nothing else, one
// row per method and checkpoint with the keys sampler ("SGLD", "SGHMC",
// "gSGRHMC"), steps, kl, eps, friction (SGHMC's C), kappa (gSGRHMC's κ),
// chains and floor (the exact-draw KL at that checkpoint). -plot DIR writes kl.png (KL
// against steps, log–log) and paths.png (contours of U with each method's
// first 10 points from θ₀).
package main
