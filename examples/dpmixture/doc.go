// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Dpmixture reproduces Section 5.2 and Figure 3b of Baker, Fearnhead, Fox &
// Nemeth (2018), "Large-scale stochastic sampling from the probability
// simplex": a Dirichlet-process mixture of categorical data fitted to the
// anonymous Microsoft web data with the paper's minibatched slice sampler
// (its Appendix D), the stick-breaking weights and the cluster parameters
// moved by SCIR or by SGRLD, against the exact full-data Gibbs slice sampler.
// The paper's claim is that SCIR converges to a better test log predictive
// than SGRLD, whose bias near the simplex boundary makes it propose too many
// clusters. Under equal tuning the claim does not hold against the
// library's SGRLD (sgmcmc.NewSGRLDSimplex): at 5,000 and at 20,000
// iterations SGRLD ends level with SCIR or slightly ahead, both within 0.02
// nats of exact Gibbs. The behaviour the paper describes does appear with
// SGRLD in Patterson & Teh's own form, the form the paper cites (SGRLD-PT
// here): at step sizes that converge in a few thousand iterations it
// inflates the number of clusters and its predictive falls behind; at the
// step its tuning picks it converges several times more slowly than SCIR
// and ends level.
//
// # Data
//
// testdata/msweb holds the UCI files anonymous-msweb.data (32,711 training
// users) and anonymous-msweb.test (5,000 test users): for each user the
// areas ("Vroots") of www.microsoft.com visited in one week of February 1998,
// out of 294, three per user on average, none twice (Breese, Heckerman &
// Kadie 1998; UCI Machine Learning Repository, CC BY 4.0). Users without a
// visit would be skipped and counted (there are none); a malformed line, a
// visit to an undeclared area, or test and training files that declare
// different areas is an error naming the file and line. The data directory
// is found by walking up from the working directory to go.mod, so the demo
// runs from anywhere inside the repository; -data DIR overrides it.
//
// # Model
//
// The paper's Eq. 5.1, the Dunson & Xing (2009) mixture in its multinomial
// form: user i's visits x_i ~ Multinomial(n_i, θ_{z_i}), the clusters and
// their parameters from DP(Dirichlet(a), α) in the stick-breaking form
// ω_j = v_j Π_{l<j}(1 − v_l), v_j ~ Beta(1, α), θ_j ~ Dirichlet(a) on the 294
// areas, with a = 0.5 (the paper's value for SCIR and Gibbs) and
// α ~ Gamma(1, 1), updated from the sticks as in Escobar & West (1995).
//
// # Samplers
//
// The slice sampler (Walker 2007; Kalli, Griffin & Walker 2011) adds
// u_i ~ U(0, ω_{z_i}), after which user i can only join the finitely many
// clusters with ω_j > u_i. One iteration (Chain.Iterate) draws a minibatch S
// of n = 1,000 users without replacement (all N for Gibbs), draws their u_i
// and then z_i ∝ 1(ω_j > u_i) Π_v θ_{jv}^{x_iv}, and moves the global
// parameters from the batch's counts scaled by N/n, the paper's
// â = prior + (N/n) Σ_{i∈S} counts:
//
//	(v_j, 1 − v_j) ~ Dirichlet(1 + m̂_j, α + Σ_{l>j} m̂_l),   θ_j ~ Dirichlet(a + ŝ_j),
//
// with m̂_j the scaled number of batch users in cluster j and ŝ_j their
// scaled visit counts; α is then drawn from its conditional given the K held
// sticks, Gamma(1 + K, 1 − Σ_j log(1 − v_j)). The methods differ only in how
// they move v and θ:
//
//   - SCIR: sgmcmc.NewSCIR, one sampler per cluster (a 294-simplex) and one
//     for all sticks (two-coordinate simplices), stepped with StepShape(h, â).
//   - SGRLD: sgmcmc.NewSGRLDSimplex in the same places. It targets
//     θ_j ~ Gamma(a_j + c_j), putting the counts c on the expanded mean θ:
//     θ ← |θ + h(â − θ) + sqrt(2hθ) η|.
//   - SGRLD-PT: SGRLD in Patterson & Teh's (2013) own form, the SCIR
//     paper's baseline, written here (ptSGRLD): θ ~ Gamma(a) with the
//     multinomial likelihood on ω = θ/Σθ, which adds −n̂ω to the drift
//     (n̂ the block's estimated count). Both forms have the same Dirichlet
//     ω-marginal in continuous time, but in Patterson & Teh's Σθ stays near
//     Σa instead of growing with the data, so the rarely visited areas sit
//     much closer to the boundary, where the Euler step is biased.
//   - Gibbs: every user every sweep, v and θ drawn exactly from the full
//     conditionals (the reference, as in the paper's supplement).
//
// Two departures from Appendix D. First, the paper updates v and θ from the
// batch's allocations before redrawing them; here z_S is drawn first, so the
// global step sees allocations made under the current parameters, as in the
// SG-MCMC topic models (Patterson & Teh 2013). Second, the library's samplers
// have a fixed dimension, so instead of deleting empty clusters and drawing
// new ones from the prior, the chain holds K = 100 clusters: every stick
// moves, and so do the θ_j of the occupied clusters and of those a batch user
// could join (empty ones with their prior shape); the rest keep their values.
// Which clusters move depends on z, u and v only, so every conditional stays
// invariant (exactly for SCIR and Gibbs, for the SGRLDs up to their own
// discretisation). An iteration in which the slice would reach past K is
// counted as a truncation; there were none in the reported runs (about 45–70
// clusters were within reach at most). All methods start from the same state
// for a given seed: the users spread at random over 20 clusters (the paper's K
// for SCIR), θ and v drawn from their conditionals, α = 1.
//
// The score (Chain.TestLogLik) is the mean over the 5,000 test users of
// log p(x | ω, θ) = log[Σ_j ω_j Π_v θ_{jv}^{x_v} + ω_rest p₀(x)], the
// probability of the user's visits under the current draw (without the
// multinomial coefficient; ω_rest p₀, the weight beyond K times the
// Dirichlet–multinomial prior predictive, is negligible). Higher is better;
// the paper plots its negative. A single cluster fitted to all training
// users (a Dirichlet–multinomial) scores −11.917; the common start −11.934.
//
// # Step sizes
//
// The step h is fixed, as in the paper, and the same for v and θ. Each
// stochastic method is tuned over its own grid of four values, SCIR and
// SGRLD h ∈ {0.003, 0.01, 0.03, 0.1}, SGRLD-PT h ∈ {0.0001, 0.0003, 0.001,
// 0.003} (its useful range lies lower), each run for as many iterations as
// the reported runs, with seed 1000, on the training users less 3,000 held
// out at random, scored by the mean held-out log predictive over the last
// third of the run. The default run uses the winners of that tuning at its
// own length, 5,000 iterations (-tune repeats it); -full tunes at 20,000.
// Held-out log predictive, mean over the last third (the held-out users
// score higher than the test users):
//
//	                  5,000 iterations                          20,000 iterations
//	SCIR      h = 0.003  0.01     0.03     0.1         0.003    0.01     0.03     0.1
//	          −11.0564  −11.0369  −11.0576 −11.1019    −11.0380 −11.0395 −11.0652 −11.1185
//	SGRLD     −11.0514  −11.0486  −11.0599 −11.1114    −11.0385 −11.0436 −11.0554 −11.1131
//	SGRLD-PT  h = 0.0001 0.0003   0.001    0.003       0.0001   0.0003   0.001    0.003
//	          −11.5997  −11.3038  −11.0602 −11.1264    −11.1671 −11.0488 −11.0726 −11.1315
//
// The winners: SCIR and SGRLD 0.01, then 0.003; SGRLD-PT 0.001, then
// 0.0003. At the larger steps SCIR and SGRLD lose clusters (10–18 at
// h = 0.1 and 0.03 after 20,000 iterations, against about 20), while
// SGRLD-PT gains them: 32 clusters after 5,000 iterations at h = 0.003, 26
// after 20,000 (tuning_clusters.png).
//
// # Results
//
// Default run (go run ./examples/dpmixture; 5 seeds, 5,000 iterations,
// Gibbs 100 sweeps), test log predictive per user, mean ± sd over seeds:
//
//	method    h      last               mean of last quarter  clusters
//	SCIR      0.01   −11.3604 ± 0.0089  −11.3605 ± 0.0050     21.0
//	SGRLD     0.01   −11.3537 ± 0.0089  −11.3530 ± 0.0078     21.4
//	SGRLD-PT  0.001  −11.3691 ± 0.0051  −11.3732 ± 0.0044     20.6
//	Gibbs     exact  −11.3435 ± 0.0079  −11.3457 ± 0.0066     20.8
//
// With the same h, SCIR and SGRLD follow the same curve (−11.708 and −11.707
// at 200 iterations, −11.384 and −11.378 at 1,500); SGRLD-PT at its smaller
// step is still at −11.545 after 1,500. Full run (-full; 20,000 iterations,
// Gibbs 500 sweeps):
//
//	method    h       last               mean of last quarter  clusters
//	SCIR      0.003   −11.3521 ± 0.0090  −11.3522 ± 0.0051     21.0
//	SGRLD     0.003   −11.3502 ± 0.0065  −11.3514 ± 0.0039     21.2
//	SGRLD-PT  0.0003  −11.3531 ± 0.0076  −11.3567 ± 0.0056     20.6
//	Gibbs     exact   −11.3519 ± 0.0051  −11.3467 ± 0.0030     19.4
//
// Mean curves of the full run: at the same h = 0.003 SCIR and SGRLD again
// coincide (−11.522 and −11.518 at 1,250 iterations, −11.380 and −11.370 at
// 5,000); SGRLD-PT is at −11.920 and −11.549; all four are within 0.003 of
// each other at the last checkpoint. Gibbs is at −11.35 after about 40
// sweeps (1.3 million users processed, the work of 1,300 minibatch
// iterations): on a data set of this size the exact sampler needs several
// times fewer user visits than the stochastic ones at their tuned steps, and
// a sweep costs less per user than a minibatch iteration (loglik_users.png).
// The largest clusters of the Gibbs chain are recognisable usage patterns:
// Internet Explorer and free downloads (a quarter of the users); site
// building for developers; Windows support and the knowledge base; Microsoft
// Office.
//
// # How close to the paper
//
// The paper's Figure 3b shows SCIR ending at a better test log predictive
// than SGRLD, with less spread over seeds, SGRLD getting worse as it runs
// and proposing too many clusters; its supplement finds both far from
// Gibbs. Here, with one tuned step per method and the same budget:
//
//   - Against the library's SGRLD the claim does not hold: the two are level,
//     SGRLD ahead by 0.007 at 5,000 iterations and by 0.001–0.002 at 20,000,
//     less than one seed standard deviation; at the same step they follow
//     the same curve, and at its tuned step the library's SGRLD neither
//     inflates the cluster count nor degrades with time.
//   - Against SGRLD-PT the paper's description holds at the step sizes that
//     converge within a few thousand iterations: at h = 0.003 it ends with
//     26–32 clusters instead of about 20 and a worse held-out score; on
//     synthetic data from three clusters at h = 0.01 it holds 27 clusters
//     (mean of three seeds) against 11 for SCIR and SGRLD and misses the
//     true model by 0.18 nats per user against 0.03–0.04
//     (TestSGRLDPTInflatesClusters). Its tuned smaller step avoids this but
//     converges several times more slowly than SCIR (−11.545 after 1,500
//     iterations at h = 0.001, where SCIR is at −11.384), so at 5,000
//     iterations SCIR is ahead of it by 0.009; at 20,000 they are level.
//     This is the only sense in which the paper's claim holds here.
//   - Unlike the paper's supplement, the stochastic methods come close to
//     exact Gibbs: within 0.03 nats per user at 5,000 iterations, 0.01 at
//     20,000.
//   - The paper tuned SGRLD with a different prior (a = 0.001, its Table 3)
//     than SCIR and Gibbs (a = 0.5); here all methods share a = 0.5, so
//     they fit the same model.
//
// Speed (go test -bench Iterate, 0 allocs per iteration, on the shared
// 2-core machine under a load of about 9): SCIR 2.4 ms per iteration (about
// 1.5 ms on a quiet core), SGRLD and SGRLD-PT 1.4 ms, a Gibbs sweep 27 ms,
// that is 410,000, 730,000 and 1,200,000 users per second. SCIR costs about
// twice SGRLD's time: one Poisson and one gamma draw per moved coordinate
// against one normal; drawing the allocations is the other half. The
// default run used 91 s of CPU time, build included (about a minute on two
// quiet cores), and took 4.7 minutes under a load of about 20; -full took
// 30 minutes under that load.
//
// # Running it
//
//	go run ./examples/dpmixture              # the table: 5 seeds × 5,000 iterations
//	go run ./examples/dpmixture -json        # {"rows": [...]}: method, seed, iteration, users_seen, test_loglik, clusters, alpha, h
//	go run ./examples/dpmixture -plot DIR    # loglik.png, loglik_users.png, clusters.png (+ tuning_*.png with -tune)
//	go run ./examples/dpmixture -tune        # tune the step sizes at the run's length first
//	go run ./examples/dpmixture -full        # tuning and 20,000 iterations
//
// Rows have iteration 0 (the common start) and every 100 iterations (every
// 5 Gibbs sweeps); iteration counts minibatches of 1,000 users for the
// stochastic methods and sweeps over all 32,711 users for Gibbs.
package main
