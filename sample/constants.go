// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

// The adaptation's tuning constants, one block per stage of the round loop
// in the order of doc/adaptation.md: the warmup phases P0–P7 (§2), freeze
// and run (§3), the large-d path (§4), assess (§5), decide and the pilot
// (§6), relocate (§7), modes (§8), replica exchange (§9), the budget (§10),
// and warnings and errors (§11). Each line gives the value's reason and, as
// "(§N)", the section of doc/adaptation.md that states or derives it.

// P0 setup: the fixed batch and the first sampling batch (doc/adaptation.md §2).
const (
	fixedBatchPerDim = 100                // fixed batch ≥ 100 items per parameter: its curvature is the data's within O(√(d/n)) (§2, §2.3)
	fixedBatchMin    = 2000               // … and ≥ 2,000 (or N): at small d, 100d items would give a noisy curvature (§2)
	firstBatchMin    = 100                // first sampling batch n₀ = min(N, max(100, N/10)), where P6's doubling starts (§2, §2.6)
	firstBatchFrac   = 10                 // … its N/10 (§2)
	fixedBatchSeed   = 0x9e3779b97f4a7c15 // stream salt, not tuning: xored into the minibatch seed to draw the fixed batch
)

// P1 Newton: reach the typical set (doc/adaptation.md §2.1).
const (
	newtonIters   = 60    // at most 60 iterations: a Gaussian needs one Hessian, a far or skewed start a few dozen (§2.1)
	newtonRadius  = 3     // first trust radius 3(√d + 1) whitened units: a few times the typical set's radius √d (§2.1)
	newtonGrow    = 4     // radius 4× a step that went as the quadratic model predicted, ¼ of a refused one (§2.1)
	newtonAccept  = 0.5   // keep the curvature when √q′ < √q − 0.5·s√q: the model held for half the predicted decrease (§2.1)
	newtonTypical = 2     // stop at a decrement² ≤ 2d: the local Gaussian's typical set has E q = d (§2.1)
	newtonDescent = 0.1   // take a step only if U falls ≥ 0.1 of s·q − s²q/2: a shrinking decrement can follow a ridge (§2.1)
	minRadius     = 1e-6  // give up below this radius: not log-concave there, left to the windows, which need no convexity (§2.1)
	eigFloor      = 1e-12 // eigenvalues floored at 10⁻¹² of the largest in every inverse: condition numbers to 10¹² survive (§2.1)
	fdStep        = 1e-3  // finite-difference step in whitened units: small against the unit scale, large against rounding (§2.1)
)

// P2 gradient check (doc/adaptation.md §2.2).
const (
	gradCheckItems  = 256                // the fixed batch's first 256 items and the prior: the check costs the same at any N (§2.2)
	gradCheckPoints = 2                  // points shift + L u, u ∈ {±1}^d, one sd out, where the gradient is O(1/s_j), not 0 (§2.2)
	gradCheckCoords = 1000               // up to 1,000 parameters checked coordinate by coordinate, 2d log densities a point (§2.2)
	gradCheckDirs   = 32                 // above that, 32 random whitened directions a point (§2.2)
	gradCheckStep   = 1e-3               // central differences of 10⁻³ sd: an O(h²) ≈ 10⁻⁶ error against the 1 % tolerance (§2.2)
	gradCheckSeed   = 0x6a09e667f3bcc909 // stream salt, not tuning: the check's points draw nothing from the chain's stream
)

// P3 control-variate centre, and the windows' gradient (doc/adaptation.md §2.3).
const (
	centreMaxPasses   = 30                 // at most 30 full passes: a near-Gaussian posterior needs a few, ill-informed directions a dozen more (§2.3)
	centreTol         = 1e-2               // converged at a quasi-Newton step ≤ 0.01 sd: it adds 10⁻⁴d to the E‖θ − θ̂‖² ≈ d the noise grows with (§2.3)
	centreGuessMax    = 3                  // an unconverged search's step > 3 sd is no estimate of the mode: the noise is probed around the centre (§2.3)
	centreWarn        = 0.1                // a centre left > 0.1 sd from the mode is warned of: its noise rests on the search's estimate of the mode (§2.3, §11)
	centreReach       = 2                  // a search step reaches 2√(dN/n_fixed) sds: twice the fixed batch's mode's distance from the full data's (§2.3)
	shareSegment      = 8                  // the basin check looks at 8 points between a chain's Newton end and the shared centre (§2.3)
	shareBarrier      = 3                  // a rise of > 3 nats on the way to the shared centre: another basin, the chain searches on its own (§2.3)
	centreMemory      = 10                 // L-BFGS pairs: the directions the fixed batch's curvature got wrong are few (§2.3)
	centreCurvature   = 0.5                // secant step when the directional derivative rises past half its start's magnitude (§2.3)
	cvCost            = 2                  // a control-variate item costs 2 gradients (at θ and θ̂): it must win by that factor (§2.3, §2.6, §10)
	windowBatchPerDim = 10                 // the windows' control-variate batch starts at max(100, 10d) items (§2.3)
	windowMaxHeat     = 0.05               // … and serves only if it keeps the windows' heat 0.2·V̂_worst/2 ≤ 0.05, MaxHeat's default (§2.3)
	windowBatchSeed   = 0x7f4a7c159e3779b9 // stream salt, not tuning: xored into the minibatch seed for the windows' batches
)

// P4 Langevin windows and the preconditioner (doc/adaptation.md §2.4).
const (
	windowSettle = 50    // window 1: 50 steps that only move into the typical set (§2.3)
	windowMid    = 150   // window 2: 150 steps, then the first Hessian (§2.3)
	windowLast   = 500   // window 3: 500 steps whose draws give the covariance Σ̂ (§2.3)
	windowParts  = 5     // … in 5 parts, a Hessian after each: the mean curvature over the typical set, not at two points (§2.3)
	windowEps    = 0.2   // first step, in P1's whitening (curvature ≈ 1): well inside stability, adapted from there (§2.3)
	malaTarget   = 0.574 // MALA's optimal acceptance rate (Roberts & Rosenthal 1998), which log h adapts to (§2.3)
	malaGain     = 0.05  // log h += 0.05(α − 0.574) after each proposal (§2.3)
	malaHalve    = 1e-3  // acceptance below 10⁻³ also halves h: a step far beyond the curvature shrinks geometrically (§2.3)
	maxShrink    = 1e12  // a window whose step falls 10¹² below windowEps fails with ErrDivergence (§2.3)
	blendPerDim  = 25    // Σ̂'s weight n_eff/(n_eff + 25d): the curvature rules until the windows hold many draws a parameter (§2.3)
)

// P5 step size (doc/adaptation.md §2.5).
const (
	flatRel    = 1e-8 // flat: curvature ≤ 10⁻⁸ of the largest at every window point; rounding gives ~10⁻¹⁵, a proper posterior ≈ 1 (§2.5)
	powerIters = 50   // power iterations per Hessian for λ̂: a few per cent, what a step rule needs (§2.5)
)

// P6 batch size, noise and friction (doc/adaptation.md §2.6).
const (
	probeDraws       = 256  // the noise probe's R ≥ 256 gradients: each uᵀV̂u within √(2/255) ≈ 9 % (§2.6, §4)
	probePerDim      = 4    // … and R ≥ 4d on the dense path (§2.6)
	maxProbeDraws    = 1000 // … and R ≤ 1,000 (§2.6)
	cvFirstBatch     = 100  // both estimators probed at n = 100, unless BatchSize is fixed (§2.6)
	cvProbePoints    = 8    // … at 8 points z ~ N(ẑ, I), where the chain will be: the control variate's noise grows away from θ̂ (§2.6)
	uncorrectedShare = 1    // B̂ is applied but earns no credit in the heat: measured at one point, it misses noise elsewhere (§2.6)
	maxEpsFriction   = 1    // ε ≤ 1/C with momentum, so that the damping 1 − εC never overshoots (§2.6)
	maxNoiseShrink   = 100  // a fixed BatchSize may shrink ε at most 100×; beyond, ErrRange names a batch that would do (§2.6)
	noiseCause       = 0.5  // a divergence where the noise gives ≥ half the diffusion (NoiseScale ≥ 0.5) is blamed on the noise (§2.6)
)

// P7 the method's adaptation, and the methods' default step constants (doc/adaptation.md §2.7).
const (
	sghmcSplitConstant  = 0.5 // SGHMC's c with a splitting integrator: 1 gained on regressions, missed the goal on a hierarchical model (§2.7)
	sgnhtSplitConstant  = 0.5 // SGNHT's c with BADODAB, exact positions on a Gaussian at the thermostat's mean, as SGHMC's (§2.7)
	psgldTrajectoryStep = 0.1 // pSGLD's accumulator averages over SGLD steps of 0.1/λ̂: SGLD's c, stable and within the heat bound (§2.7)
)

// Freeze and run: thinning and burn-in from the predicted autocorrelation time τ (doc/adaptation.md §3).
const (
	autocorrLowCurvature = 0.5 // τ takes the slowest whitened curvature as ½: whitening leaves them near 1, with slack (§3)
	autocorrMinFriction  = 0.5 // … and a friction below 0.5 as 0.5; P6 takes C the same way in batchFor (§3, §2.6)
	thinPerAutocorr      = 2.5 // Thin = ⌈τ/2.5⌉, 40 % of τ: the worst bulk ESS then stays above half the draws at d ≈ 100 (§3)
	burnInAutocorrs      = 3   // BurnIn ≥ 3τ: a few autocorrelation times forget warmup's end (§3)
	minBurnIn            = 100 // … and ≥ 100 steps (§3)
)

// Above DenseMax: O(d) warmup (doc/adaptation.md §4).
const (
	diagProbes         = 32        // diag H from 32 Rademacher probes, 64 gradients: error ≈ 0.18ρ for an off-diagonal row of norm ρ (§4)
	diagSE             = 2         // an entry within 2 standard errors of 0 counts as 2: no 1/0 variance from unresolved curvature (§4)
	lanczosSteps       = 20        // λ̂ and the spread by 20 Lanczos steps a point: the extreme eigenvalues converge first (§4)
	batchMeans         = 50        // the run in 50 sub-runs, whose batch means give MCSE and R̂ of every coordinate (§4)
	defaultDrawsMemory = 256 << 20 // Settings.DrawsMemory's default, 256 MiB for the draws kept (§4)
)

// Above DenseMax: the low-rank-plus-diagonal preconditioner (doc/adaptation.md §4.1).
const (
	lowRankSteps = 60  // 60 Lanczos steps at the windows' end look for the low-rank factor's directions (§4.1)
	lowRankTol   = 0.1 // a Ritz pair joins only if converged, residual ≤ 0.1λ (§4.1)
	lowRankRatio = 2.0 // … and λ ∉ [½, 2]: a direction the diagonal left at least that far from unit curvature (§4.1)
	lowRankMax   = 20  // at most 20 directions, farthest from 1 first: O(kd) per map (§4.1)
)

// Above DenseMax with a capped fixed batch: a mode by Adam, no windows (doc/adaptation.md §4.2).
const (
	fixedBatchCost = 1e8                // fixed batch ≤ max(n₀, 10⁸/d) items: one of its gradients ≤ 10⁸ item·coordinates (§4, §4.2)
	fixedBatchRows = 100000             // … and ≤ max(10⁵, 10⁸/d) however large N/10 is (§4, §4.2)
	modeEpochs     = 20                 // a capped batch's P1 is Adam: 20 passes over the data (§4.2)
	modeMinSteps   = 1000               // … and ≥ 1,000 steps, which cross the start's jitter ten times (§4.2)
	modeMaxSteps   = 10000              // … and ≤ 10,000: P3's full passes refine it; 20 passes of 10⁷ rows were 2·10⁶ steps (§4.2)
	modeBatch      = cvFirstBatch       // … on batches of 100 (§4.2)
	modeRate       = 0.01               // … at rate 0.01·StartScale: Adam moves each coordinate by about its rate a step (§4.2)
	modeBeta1      = 0.9                // Kingma & Ba's β₁ (§4.2)
	modeBeta2      = 0.999              // Kingma & Ba's β₂ (§4.2)
	modeEps        = 1e-8               // Kingma & Ba's ε (§4.2)
	modeSeed       = 0x510e527fade682d1 // stream salt, not tuning: Adam's batches are not the sampling run's
)

// Assess: do a round's draws fit its adaptation? (doc/adaptation.md §5)
const (
	roundESS    = 4    // slow: a least bulk ESS below Draws/4 (§5)
	roundWidest = 4    // reach: an eigenvalue above 4× the Marchenko–Pastur edge (1 + √(d/n_eff))², draws two sds out (§5)
	settledTail = 1e-6 // the χ²_d tail of the off-centre check and the settled-mode test: false alarms negligible (§5, §8)
)

// Decide: accept or re-adapt, and the pilot round (doc/adaptation.md §6).
const (
	defaultRounds    = 3  // Settings.Rounds' default: warmup's run and up to two re-adaptations (§6)
	roundDrawsPerDim = 10 // re-adapt from ≥ 10d draws: fewer give a covariance noisier than the one it replaces (§6)
	roundHessians    = 8  // Hessians at 8 evenly spread draws and the 8 farthest from the mean: the step must hold at the edges (§6)
	roundThinGrowth  = 10 // from round 3, Thin grows by the ESS it lacked, at most 10× (§6)
	pilotShare       = 2  // a first-order pilot of 20d draws runs only if that is ≤ Draws/2 (§6.1)
	pilotGain        = 4  // the pilot's whitening replaces warmup's only if λ̂ falls > 4×: first-order steps a draw grow as λ̂ (§6.1)
)

// Relocate: joining another chain's place (doc/adaptation.md §7).
const (
	joinNats  = 20   // move when log m and log π(θ̃) both lie > 20 nats below the donor's: ≲ 2·10⁻⁹ of the mass (§7)
	rhatLimit = 1.01 // chains disagree above R̂ 1.01: joining is tried, and NotMixed warns (§7, §11)
)

// Chains in separate modes (doc/adaptation.md §8).
const (
	modeSeparation = 6 // apart when each places the other > 6 of its own robust sds away on some parameter (§8)
)

// Replica exchange (doc/adaptation.md §9).
const (
	replicaMaxTemp  = 100 // T_max = 100: barriers up to a few hundred nats are crossed (§9)
	replicaGap      = 2.0 // neighbours' ratio r = 1 + 2/√d: a Gaussian's exchanges pass about e⁻¹ of the time (§9)
	replicaMax      = 32  // K ≤ 32 replicas (§9)
	replicaTrip     = 16  // τ adds 16(K − 1)S steps: a hot replica's find needs K − 1 exchanges to reach the cold one (§9)
	replicaMissed   = 3   // Exchange warns when a hot replica's best log density beats the cold one's by > 3 nats … (§9)
	replicaMissedSD = 2   // … plus 2√(d/2), twice a Gaussian potential's sd: the least of two chains' potentials differ by that by chance (§9)
)

// The budget (doc/adaptation.md §10).
const (
	defaultMaxGradEvals = 5e8 // MaxGradEvals' default a chain: about a minute of gradients, 7× the costliest chain that met the goal (§10)
	roundBudget         = 1   // later rounds together cost ≤ 1× round 1's P5–P7 and run … (§10)
	roundFloor          = 1e6 // … or 10⁶ evaluations, whichever is more (§10)
)

// Errors, and what is not tuning: reporting and cancellation (doc/adaptation.md §11).
const (
	overflowGrad  = 1e150 // a warmup fault with a finite gradient above 10¹⁵⁰ is explained as overflow (§11)
	cancelEvery   = 256   // warmup looks at its context every 256 evaluations: well under a millisecond of gradients
	progressEvery = 64    // a chain updates the progress report's shared counters every 64 steps
)
