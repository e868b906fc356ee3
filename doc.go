// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package sgmcmc provides stochastic-gradient Markov chain Monte Carlo
// samplers for Bayesian inference on data too large for full-batch MCMC.
//
// The core is the complete recipe of Ma, Chen & Fox (2015): a sampler is a
// diffusion matrix D(z) (positive semidefinite), a curl matrix Q(z)
// (skew-symmetric) and the correction Γ_i(z) = Σ_j ∂_j(D_ij + Q_ij), and
// one update turns a minibatch gradient into a valid sampler:
//
//	z ← z + ε[−(D + Q)∇H̃(z) + Γ(z)] + N(0, ε(2D − εB̂)).
//
// Recipe performs that update for user-supplied operators with an
// Integrator: Sweep, a sequential sweep over the blocks of z (the default,
// accurate for stiff targets), or Euler (Eq. 9 read literally); Recipe.Check verifies a recipe
// numerically. SGLD, SGHMC, SGNHT, SGRLD and gSGRHMC are thin constructors
// over Recipe (NewSGLD, NewSGHMC, NewSGNHT, NewSGRLD, NewSGRHMC), with the
// papers' incorrect foils NewSGHMC and NewSGRHMC with Naive set for comparison.
//
// The gradient side is separate from the integrator: a Model gives the
// gradients of a log prior and of each datum's log likelihood, and a
// Minibatch turns it into the unbiased stochastic gradient
// −∇log p(θ) − (N/n) Σ_{i∈S} ∇log p(x_i | θ), scaling by N/n itself. Users
// who compute their own stochastic gradient implement Gradient.
//
// Every sampler implements Sampler, and Run drives any of them with burn-in,
// thinning, a step-size schedule, cancellation and a per-step callback,
// storing draws in one preallocated Chain. Randomness is always injected as
// a math/rand/v2 Source: the same seed gives the same chain, bit for bit.
// A step allocates nothing and costs O(d) for structured D and Q.
//
// # Randomness and speed
//
// The Source seeds the chain's generator: every constructor draws two words
// from it, once, for an rng.Normal (package rng: a ziggurat on PCG-DXSM,
// about 2 ns per normal on one core, the same bits on every platform), from
// which every draw of the chain then comes; its state is what a checkpoint
// keeps. A recipe whose D and Q are made of Scalar and Diagonal blocks
// (SGLD, SGHMC, SGNHT, SGRLD and gSGRHMC with a diagonal metric, or the
// same operators assembled by hand) takes each step of the Sweep
// integrator in one pass over the state — noise a block of normals at a
// time, drift, update, divergence check — with the generic sweep's
// arithmetic, so that the two give the same bits; pSGLD does the same in
// its own pass. From 65,536 (2¹⁶) coordinates a step runs in blocks of
// 16,384 coordinates on every core, each block drawing from its own
// generator seeded from the chain's, so that the chain is the same for any
// GOMAXPROCS. A step that fails leaves the sampler exactly as it was, its
// generators included, so that a retry with a smaller step is reproducible.
// For large d, RunOptions.Moments keeps running means and variances instead
// of draws, and RunOptions.Coords the draws of chosen coordinates only.
//
// # The everyday API
//
// A model and a start: Model (with the optional LogDensity and BatchModel),
// Minibatch or FullGradient, the named constructors (NewSGLD, NewSGHMC,
// NewSGNHT, NewSGRLD, NewSGRHMC, NewHAMCMC, NewPSGLD, NewSCIR), Run and
// RunChains with their RunOptions and schedules, Chain, and CheckModel to
// test a model's gradients.
//
// # sample.Run: every setting adapted
//
// Package sample is the front door: sample.Run runs K chains of a
// sample.Method on a sample.Problem, each with a warmup that adapts its
// step size, preconditioner, friction, noise correction and batch size
// and then freezes them, then checks its draws against what the
// adaptation assumed and re-adapts from them where they do not fit. Its
// design — every phase, test and constant — is doc/adaptation.md, and the
// rules it applies are derived in doc/equations.md §13.1–§13.5. Its
// methods (sample.SGLD, SGHMC, SGNHT, HAMCMC, PSGLD and ReplicaExchange)
// are structs whose zero value is the default configuration; a user's own
// sample.Method implements Name, Rules and NewSampler; a chain is rebuilt
// from its sample.Adapted settings by Adapted.NewSampler.
//
// # Building your own sampler
//
// The recipe's plumbing is exported for users who write their own
// samplers: RecipeSpec and NewRecipe; the operators Scalar, Diagonal,
// DiagFunc, Matrix, SymMatrix and Block (interfaces Operator and Diffusion,
// whose AddMulVec and NonZero methods the integrator calls); the fields
// Vector and Kinetic for Γ and ∇K; the integrators Euler and
// Sweep; and Recipe.Check, which verifies a new recipe numerically. A
// recipe assembled from Scalar and Diagonal blocks, a Vector Γ and a
// Kinetic ∇K takes the same one-pass step as the named samplers. The
// everyday API needs none of it.
//
// # Checkpoints
//
// Every sampler and every gradient or shape source with state of its own
// implements encoding.BinaryMarshaler and BinaryUnmarshaler in one
// versioned, checksummed format: the magic "SGMC", a version byte, the
// kind (a string fixed per type and constructor, "SGHMC", "Minibatch", …),
// the dimension, the type's own fields and a CRC-32C. A checkpoint restores
// only into a value of the same kind and dimension, built with the same
// settings; a bad one is an error wrapping ErrCheckpoint that leaves the
// receiver as it was.
//
// # Errors
//
// Constructors and Run validate their arguments and return errors that wrap
// one of ErrNil, ErrDimension, ErrNonFinite, ErrRange, ErrUnsupported or
// ErrCheckpoint (test with errors.Is); a failing step returns a *StepError
// naming the step and the coordinate (wrapping ErrNonFiniteGradient or
// ErrDivergence where that is the cause), and leaves the sampler as it was. No
// function of the package panics on bad input.
//
// User code the package calls — a Model, a Gradient, a callback, a
// Method's or Sampler's methods — may panic: Run, RunChains and sample.Run
// recover the panic, keep the draws so far and return a *PanicError
// naming the function, the phase and the step (inside a *ChainError for
// the chain); panics inside the package's parallel loops reach the
// caller's goroutine the same way. A run that stops early, for whatever
// reason, returns what it kept together with the error (for sample.Run, a
// partial sample.Result; sample/stop.go). Before allocating anything whose
// size the caller chose (a chain's draws, d × d matrices), the package
// compares it with the memory limit (the least of GOMEMLIMIT, the
// cgroup's and the machine's memory) and returns an error wrapping
// ErrRange instead of running out of memory.
//
// The update rules the code implements are derived, in our words, in
// doc/equations.md of the repository; comments cite its sections as §n,
// and package sample's adaptation those of doc/adaptation.md by name.
package sgmcmc
