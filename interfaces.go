// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// Sampler is a Markov chain over θ that advances one step at a time.
//
// Every sampler in this package implements it: the Recipe-based samplers
// (SGLD, SGHMC, SGNHT, SGRLD, gSGRHMC), pSGLD, SCIR and HAMCMC. A Sampler
// owns its state and its random stream, an *rng.Normal seeded once, at
// construction, from the rand.Source its constructor is given; Step
// allocates nothing.
//
// Concurrency: a Sampler is not safe for concurrent use. Step, Position,
// State, MarshalBinary and UnmarshalBinary must not run in two goroutines
// at once (steps would be lost and HAMCMC's memory corrupted). Distinct
// samplers that share nothing mutable run in parallel safely, which is
// what RunChains does; a Minibatch, CountMinibatch or Affine is mutable
// and belongs to one chain.
type Sampler interface {
	// Dim returns the dimension d of θ.
	Dim() int
	// Position returns the current θ. The returned slice is the sampler's
	// own storage: it is valid until the next call to Step and must not be
	// modified.
	Position() []float64
	// Step advances the chain by one step of size eps > 0. If it returns an
	// error the sampler is left exactly as it was before the call, its
	// random stream and divergence count included, so that a retry with a
	// smaller step draws the same noise as a fresh run would. (A gradient
	// with randomness of its own, such as a Minibatch, has moved on.)
	Step(eps float64) error
}

// Schedule gives the step size for each step t = 1, 2, ….
type Schedule interface {
	StepSize(t int) float64
}

// Gradient computes a (possibly stochastic) estimate ∇Ũ(θ) of the gradient
// of the potential U(θ) = −log p(θ) − Σ_i log p(x_i | θ).
//
// This is the low-level form: users who compute their own stochastic
// gradient (streaming data, control variates) implement it directly, or use
// GradFunc. Users with a dataset implement Model and wrap it in a Minibatch,
// which does the N/n scaling itself.
//
// Sign convention: a Gradient returns ∇U, the gradient of the potential
// (minus the log posterior), because that is what the dynamics consume; a
// Model returns gradients of log densities, ∇log p, because that is how
// models are written. Minibatch and FullGradient convert one into the other.
type Gradient interface {
	// Grad writes ∇Ũ(θ) into dst. It must not retain dst or theta.
	Grad(dst, theta []float64)
}

// GradFunc adapts a function to the Gradient interface.
type GradFunc func(dst, theta []float64)

// Grad calls f(dst, theta).
func (f GradFunc) Grad(dst, theta []float64) { f(dst, theta) }

// Model describes a posterior p(θ | x) ∝ p(θ) Π_i p(x_i | θ) over a dataset
// of Len() items by the gradients of its log prior and per-datum log
// likelihood. Both methods accumulate into dst, so sparse models can touch
// only the coordinates they affect.
//
// Sign convention: a Model gives ∇log p (the gradient of log densities),
// while a Gradient gives ∇U = −∇log p(θ | x); see Gradient.
//
// sample.Run, RunChains' chains and the full-data passes of a ControlVariate
// call one Model from several goroutines at once: its methods must be safe
// for concurrent use, as pure functions of their arguments are.
type Model interface {
	// Dim returns the dimension of θ.
	Dim() int
	// Len returns the number N of data items.
	Len() int
	// LogPriorGrad adds ∇θ log p(θ) to dst.
	LogPriorGrad(dst, theta []float64)
	// LogLikGrad adds scale · ∇θ log p(x_i | θ) to dst.
	LogLikGrad(dst, theta []float64, i int, scale float64)
}

// LogDensity is an optional capability of a Model: the values of the log
// prior and of each datum's log likelihood, for the potential U(θ) used by
// diagnostics and by CheckModel.
type LogDensity interface {
	LogPrior(theta []float64) float64
	LogLik(theta []float64, i int) float64
}

// BatchModel is an optional capability of a Model: the log-likelihood
// gradient of a whole minibatch in one call, so that a model can vectorise
// across the batch (all dot products first, then the link functions).
// Minibatch uses it when present and Noise is not set.
type BatchModel interface {
	// LogLikGradBatch adds scale · Σ_{i∈idx} ∇θ log p(x_i | θ) to dst.
	LogLikGradBatch(dst, theta []float64, idx []int, scale float64)
}

// NoiseEstimator is an optional capability of a Gradient: the diagonal of an
// estimate V̂ of the covariance of the noise of the last gradient it computed
// (∇Ũ = ∇U + N(0, V)). The Recipe samplers use it for B̂ when asked to.
type NoiseEstimator interface {
	// NoiseVar writes diag(V̂) of the last call to Grad into dst.
	NoiseVar(dst []float64)
	// CanEstimateNoise returns nil if NoiseVar gives an estimate, and
	// otherwise an error saying why not (a Minibatch without Noise set, or
	// with fewer than two items per batch). Samplers asked to estimate B̂
	// call it at construction.
	CanEstimateNoise() error
}

// DiagMetric is a diagonal Riemannian metric G(θ) = diag(g(θ)) with g_i > 0,
// as used by SGRLD and gSGRHMC. From g and its diagonal derivatives the
// samplers derive G⁻¹, G^(−1/2) and their correction terms Γ exactly.
type DiagMetric interface {
	// Diag writes g(θ) into g and ∂g_i/∂θ_i into dg.
	Diag(g, dg, theta []float64)
}

// DiagMetricFunc adapts a function to the DiagMetric interface.
type DiagMetricFunc func(g, dg, theta []float64)

// Diag calls f(g, dg, theta).
func (f DiagMetricFunc) Diag(g, dg, theta []float64) { f(g, dg, theta) }

// DenseMetric is a dense positive definite metric G(θ). The samplers that
// use it do O(d³) work per step.
type DenseMetric interface {
	// Dense writes G(θ) into g and ∂G/∂θ_k into dg[k], k = 0 … d−1.
	Dense(g *mat.SymDense, dg []*mat.SymDense, theta []float64)
}

// SameBatchGradient is an optional capability of a Gradient: evaluating the
// stochastic gradient ∇Ũ_Ω more than once on one minibatch Ω. HAMCMC needs
// it for its curvature pairs, y_t = ∇Ũ_Ω(θ_t) − ∇Ũ_Ω(θ_{t−M}) with both
// gradients on the same Ω_t (Algorithm 1 of Şimşekli et al. 2016).
//
// Minibatch implements it. A Gradient that simulates minibatch noise by
// adding a random perturbation implements it by drawing the perturbation in
// NewBatch and reusing it in GradSameBatch: "the same batch" is then the
// same noise realisation.
type SameBatchGradient interface {
	// NewBatch draws a new minibatch Ω (or noise realisation).
	NewBatch()
	// GradSameBatch writes ∇Ũ_Ω(θ) into dst, on the Ω of the last call
	// to NewBatch. It must not retain dst or theta.
	GradSameBatch(dst, theta []float64)
}

// DiagHessianGradient is an optional capability of a Gradient: the
// gradient together with the diagonal of the Hessian of Ũ, both on the same
// minibatch. pSGLD's correction term Γ needs it.
type DiagHessianGradient interface {
	Gradient
	// GradDiagHessian writes ∇Ũ(θ) into grad and the diagonal of ∇²Ũ(θ)
	// into hess, on one minibatch. It must not retain its arguments.
	GradDiagHessian(grad, hess, theta []float64)
}

// ShapeEstimator supplies the shape estimate â of each step of SCIR and
// SGRLDSimplex: the gamma-target counterpart of Gradient. The samplers do not
// know where â comes from: a fixed full-data shape (FixedShape), a minibatch
// of count data (CountMinibatch), or the latent counts of a larger Gibbs
// sampler (StepShape).
//
// A ShapeEstimator may also have a method Dim() int; the sampler
// constructors then check it against the sampler's dimension.
type ShapeEstimator interface {
	// Shape writes â into dst, one entry per coordinate. It must not retain
	// dst.
	Shape(dst []float64)
}

// Counts is a dataset of N items for a shape estimate: item i contributes
// non-negative counts z_i (a vector over the sampler's coordinates) to the
// posterior shape a = α + Σ_i z_i. For a Dirichlet posterior from categorical
// data z_i is a one-hot vector; for LDA it holds a document's topic–word
// assignment counts.
type Counts interface {
	// Len returns the number N of items.
	Len() int
	// AddCounts adds scale · z_i to dst.
	AddCounts(dst []float64, i int, scale float64)
}

// Operator is a linear map A(z) of size r×c that may depend on the state z.
// D, Q and their blocks are Operators, so that structured samplers cost O(d)
// per step: only the dense operators do dense work.
type Operator interface {
	// Dims returns the number of rows and columns.
	Dims() (r, c int)
	// AddMulVec adds alpha·(A(z) x) restricted to rows [lo, hi) to
	// dst[lo:hi]. x has length c, dst length r, and z is the full state.
	AddMulVec(dst []float64, alpha float64, x, z []float64, lo, hi int)
	// NonZero reports whether the submatrix of rows [rlo, rhi) and columns
	// [clo, chi) may be nonzero at some state. The Recipe uses it to skip
	// work, such as a gradient evaluation a block does not need.
	NonZero(rlo, rhi, clo, chi int) bool
}

// Diffusion is an Operator that is symmetric positive semidefinite and can
// draw the noise of the recipe's update.
type Diffusion interface {
	Operator
	// Noise writes a draw of N(0, eps·(2D(z) − eps·diag(b))) into dst, using
	// standard normals from g, the chain's generator; b may be nil, meaning
	// zero. The package's diagonal diffusions take one normal per
	// coordinate, in order (a zero-variance coordinate gets zero noise), so
	// that they can fill a block of normals at once. If 2D − eps·diag(b) is
	// not positive semidefinite it returns a *NotPSDError; the Recipe then
	// rewinds g, so a failed draw leaves no trace in the stream.
	Noise(dst, z []float64, eps float64, b []float64, g *rng.Normal) error
}

// DivergenceCounter is the capability of a Sampler to detect divergent
// transitions. Every sampler of the package driven by a gradient of the
// potential implements it (Recipe and the named samplers built on it, PSGLD,
// HAMCMC); SCIR and SGRLDSimplex, driven by shape estimates with no
// gradient of U to judge a transition by, do not (SCIR's steps are exact
// transitions of the CIR process; a state that leaves their domain still
// fails the step). The change in potential of each transition θ → θ' is
// estimated by the trapezoid rule,
// ΔU ≈ ½ (θ' − θ)ᵀ(∇Ũ(θ) + ∇Ũ(θ')), from gradients the sampler computes
// anyway, and a transition with ΔU > max(1000, d) nats (or not a
// number) counts as divergent. Since ∇Ũ(θ') is the next step's gradient, a
// transition is judged when the step after it computes its gradient.
// PSGLD also counts a step that is linearly unstable, ε·G_ii·h_ii > 2 for
// some coordinate when the Hessian's diagonal is at hand (doc/equations.md
// §11.4), and HAMCMC judges its warm-up transitions too (§10.8).
type DivergenceCounter interface {
	// Divergences returns the number of divergent transitions detected so
	// far and the most recent one.
	Divergences() (n int, last Divergence)
}
