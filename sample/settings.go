// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/sgmcmc-go/sgmcmc"

	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// Problem is what Run samples: a Model, minibatched by Run, or, for
// users with their own stochastic gradient, a function building one
// Gradient per chain.
type Problem struct {
	// Model is the posterior. Run minibatches it (without replacement)
	// with a batch size it adapts, or Settings.BatchSize.
	Model sgmcmc.Model
	// Gradient, used when Model is nil, returns the gradient source of
	// chain c, drawing any randomness from src. Each chain gets its own, so
	// a stateful source (a minibatcher) is never shared between goroutines.
	// For its curvature estimates warmup evaluates it on one fixed batch
	// when it implements SameBatchGradient, and freshly otherwise (exact
	// for full-data gradients).
	Gradient func(chain int, src rand.Source) (sgmcmc.Gradient, error)
	// Names are the parameters' names for the summary. Nil means theta.1,
	// theta.2, … (CmdStan's index style).
	Names []string
}

// Settings configures Run. The zero value (or nil) means the
// documented defaults.
type Settings struct {
	// Chains is the number of chains K. Zero means 4.
	Chains int
	// Draws is the number of draws kept per chain after warmup. Zero means
	// 1000.
	Draws int
	// Thin keeps every Thin-th state. Zero means chosen from the adapted
	// step size so that successive draws are at least 40 % of the
	// predicted autocorrelation time apart.
	Thin int
	// Seed seeds every chain's stream (rng.ChainSource(Seed, c)).
	Seed uint64
	// BatchSize fixes the minibatch size for a Problem with a Model. Zero
	// means adapted: the smallest of n₀ = max(100, N/10) (or N if smaller),
	// 2n₀, 4n₀, …, N that keeps the excess temperature from gradient noise
	// within MaxHeat.
	BatchSize int
	// MaxHeat is the tolerated excess temperature from gradient noise
	// (doc/equations.md §13.3). Zero means 0.05.
	MaxHeat float64
	// DenseMax is the largest dimension with a dense preconditioner; above
	// it the preconditioner is diagonal. Zero means 200.
	DenseMax int
	// StartScale is the half-width of each chain's two uniform jitters
	// (doc/adaptation.md §2, §3): around theta0, in θ's units, where its
	// warmup starts; and around the centre its warmup ends at, in
	// posterior standard deviations (the whitened units of the chain's
	// preconditioner), where its sampling run starts — so that the chains'
	// starts are spread on the posterior's scale whatever the user's units,
	// and R̂ can see a chain that has not forgotten where it began (the
	// warmup's Newton phase sends starts in one basin to one point: the
	// first jitter alone would not). Zero means 1.
	StartScale float64
	// Rounds is the most sampling runs a chain makes: after a run whose
	// draws do not fit the preconditioner warmup chose (too few effective
	// draws, or draws reaching where warmup did not look), the chain
	// re-adapts from those draws and samples again, the earlier run
	// counting as warmup (doc/adaptation.md §5–§6); and a chain that
	// sampled a place of negligible posterior mass joins the heaviest
	// chain's place (doc/adaptation.md §7, Adapted.Joined). A first-order
	// method's chain (SGLD, pSGLD, HAMCMC) first makes a short pilot run
	// that does not count here (doc/adaptation.md §6.1). 1 turns all three
	// off; above DenseMax a chain makes one run. Zero means 3.
	Rounds int
	// Callback, if not nil, is called after every sampling step of every
	// chain, concurrently from the chains' goroutines (Progress is safe).
	Callback func(sgmcmc.StepInfo) error
	// ChainIDs, if not nil, runs only these chains of the Chains, in this
	// order: chain c draws exactly what it draws in a run of all of them,
	// so the K chains of one analysis can run as K processes — on K
	// machines under a batch scheduler — and be merged afterwards (write
	// each with stancsv, read them back, summarise them together). Nil
	// means every chain, 0 … Chains−1.
	ChainIDs []int
	// PlainMinibatch turns control variates off: a Problem with a Model is
	// then sampled with plain minibatch gradients (Minibatch), whose noise
	// grows with N/n. By default Run centres a ControlVariate gradient
	// at each chain's full-data mode when its noise is the smaller
	// (doc/adaptation.md §2.3, §2.6).
	PlainMinibatch bool
	// MemoryLimit is the memory, in bytes, Run may ask for: a run whose
	// draws (chains × draws × parameters) and warmup matrices would need
	// more is refused before it starts, with an error wrapping ErrRange
	// that names the sizes. Zero means the memory limit the kernels use:
	// the least of GOMEMLIMIT, the cgroup's limit and the machine's memory.
	MemoryLimit int64
	// MaxGradEvals bounds the cost of each chain's sampling run: once
	// warmup has chosen the step, the thinning and the batch, a run
	// projected to need more gradient evaluations (steps × evaluations per
	// step) stops with an error saying what it would cost, instead of
	// running for hours. Zero means 5·10⁸ per chain; negative means no
	// bound.
	MaxGradEvals int64
	// Progress, if not nil, receives a line every ProgressEvery and one at
	// the end: during warmup which chains run, in which phase, which wait
	// for a core, and once a warmup has ended an estimate of the time
	// warmup has left; during sampling the steps done of the steps the
	// adapted chains will take, the rate and the time left. It is written
	// from a goroutine of its own: a writer that blocks drops lines (the
	// next line counts them) but never holds up sampling or cancellation;
	// write errors are ignored, and a panic in Write is recovered and
	// returned by Run, as a *PanicError, with its complete Result.
	Progress io.Writer
	// ProgressEvery is the interval between Progress reports, positive;
	// zero means 10 s.
	ProgressEvery time.Duration
	// Temperature T samples π(θ)^{1/T}, a cold (T < 1) or warm (T > 1)
	// posterior, a documented choice that draws no warning: warmup, the
	// noise probe, B̂ and the heat check all see the tempered posterior
	// (doc/equations.md §12.1). Zero means 1, the posterior itself, bit
	// for bit; it must be positive and finite.
	Temperature float64
	// DrawsMemory is the memory, in bytes, for the draws all chains keep
	// above DenseMax. When Chains × Draws × d floats exceed it, each chain
	// keeps the draws of the m coordinates that fit, evenly spaced
	// (⌊i·d/m⌋, i < m; Chain.Coords lists them), and Result.Moments
	// summarises every coordinate from running moments. Zero means
	// 256 MiB; up to DenseMax every draw is kept.
	DrawsMemory int64
}

// Adapted holds the settings warmup chose for one chain. With them the
// chain can be rebuilt by hand, bit for bit: the gradient (for a Model,
// Adapted.NewGradient: a Minibatch or ControlVariate of BatchSize from
// MinibatchSeed), whitened by Adapted.Affine (sgmcmc.NewAffine, with the
// low-rank factor when there is one); the sampler from NewSampler on
// that; sgmcmc.Run with Thin, BurnIn and the schedule
// sgmcmc.Constant(Eps); Affine.ToTheta maps its draws to θ. Above
// DenseMax Run's chains keep θ directly, by the same ToTheta.
type Adapted struct {
	// Method is the method the chain ran, with its configuration.
	Method Method
	// Eps is the step size, in the whitened coordinates z.
	Eps float64
	// Shift and Lower (d×d, row-major, lower-triangular) or Diag define
	// the whitening θ = Shift + L z; L Lᵀ is the preconditioner.
	Shift, Lower, Diag []float64
	// LowRankU (d×k, row-major, orthonormal columns) and LowRankC (k),
	// when not nil, complete a diagonal whitening with a low-rank factor,
	// L = diag(Diag)(I + U diag(C) Uᵀ) (NewAffineLowRank): Run's choice
	// above DenseMax when the whitened curvature has directions far from
	// 1 (doc/adaptation.md §4.1).
	LowRankU, LowRankC []float64
	// Friction is C for SGHMC and gSGRHMC, A for SGNHT; 0 for a method
	// without Rules.Momentum.
	Friction float64
	// NoiseVar is the constant B̂ (diag V̂ in z); nil if none.
	NoiseVar []float64
	// Accumulator is pSGLD's frozen RMSprop accumulator; nil otherwise.
	Accumulator []float64
	// BatchSize is the minibatch size (0 for a Problem without a Model).
	BatchSize int
	// Thin and BurnIn are the sampling run's thinning and its burn-in from
	// the end of warmup.
	Thin, BurnIn int
	// LambdaMax is λ̂, the largest eigenvalue of the whitened Hessian over
	// the warmup points; CurvatureSpread the ratio of the largest to the
	// smallest positive eigenvalue over the points the warmup windows
	// ended at, inside the typical set (1 for a Gaussian posterior
	// perfectly preconditioned; +Inf where one of them had no positive
	// curvature). The spread is for information: measured from a few
	// noisy Hessians it does not tell right runs from wrong ones, and
	// Run warns only of the +Inf case (doc/adaptation.md §2.5).
	LambdaMax, CurvatureSpread float64
	// Heat is the estimated excess temperature from gradient noise left
	// after the B̂ correction (doc/equations.md §13.3).
	Heat float64
	// NoiseScale is the variance the gradient noise adds per step relative
	// to the sampler's own diffusion, before any B̂ correction: εV̄/2 for
	// first-order samplers, εV̄/(2C) with momentum (V̄ the mean of diag V̂
	// in z).
	NoiseScale float64
	// SamplerSeed seeds the sampler's PCG source, rand.NewPCG(SamplerSeed[0],
	// SamplerSeed[1]); MinibatchSeed likewise the sampling minibatch's.
	SamplerSeed, MinibatchSeed [2]uint64
	// Center and CenterGrad are the control variate's centre θ̂ and the
	// full-data log-likelihood gradient Σ_i ∇log p(x_i | θ̂) there, in θ;
	// nil when the chain samples with plain minibatches.
	Center, CenterGrad []float64
	// CenterStep is the length, in posterior standard deviations (the
	// warmup's whitened units), of the centre search's last quasi-Newton
	// step from Center: about Center's distance from the full-data mode.
	// At most 0.01 the search converged (doc/adaptation.md §2.3); above
	// it, the search stopped at its cap of full passes and Center is its
	// last point, not the mode: the control variate stays unbiased, and
	// its noise was probed around Center plus that step, the mode as the
	// search estimated it (around Center itself for a step above 3 sd,
	// no estimate). Above 0.1 Run warns (Centre). It is set whenever a
	// search ran, also when its centre was not used (Center nil: plain
	// minibatches were cheaper).
	CenterStep float64
	// SetupPasses is the number of full passes over the data this chain's
	// warmup made to find Center, and SetupSeconds their wall time.
	SetupPasses  int
	SetupSeconds float64
	// Rounds is the number of sampling runs the chain made
	// (Settings.Rounds), a first-order method's pilot run included
	// (doc/adaptation.md §6.1): the draws and the adaptation above are
	// the last run's; the earlier ones counted as warmup.
	Rounds int
	// Joined says that the chain had settled in a place of negligible
	// posterior mass and sampled again in the heaviest place the chains
	// found, with the whitening, step and control-variate centre of a
	// chain there (doc/adaptation.md §7); Rounds then counts the runs
	// since.
	Joined bool
	// Ladder is how replica exchange's ladder was crossed in the sampling
	// run; nil for other methods.
	Ladder *Ladder
	// Items is the number of data items N of the Problem's Model (0 for a
	// Problem without one).
	Items int
	// Start is the sampling run's start in z (θ = Shift + L·Start): the
	// warmup's centre jittered by Settings.StartScale posterior
	// standard deviations. Nil means z = 0.
	Start []float64
}

// Affine returns the chain's whitening of g: NewAffine(g, Shift, Lower,
// Diag), or NewAffineLowRank(g, Shift, Diag, LowRankU, LowRankC) when the
// chain has a low-rank factor.
func (a *Adapted) Affine(g sgmcmc.Gradient) (*sgmcmc.Affine, error) {
	if a.LowRankC != nil {
		return sgmcmc.NewAffineLowRank(g, a.Shift, a.Diag, a.LowRankU, a.LowRankC)
	}
	return sgmcmc.NewAffine(g, a.Shift, a.Lower, a.Diag)
}

// NewGradient rebuilds the chain's sampling gradient on m, in θ: a
// ControlVariate centred at Center with CenterGrad if the chain used one,
// and a Minibatch otherwise, of BatchSize drawn without replacement from
// rand.NewPCG(MinibatchSeed[0], MinibatchSeed[1]). NewAffine(g, Shift,
// Lower, Diag) whitens it for NewSampler.
func (a *Adapted) NewGradient(m sgmcmc.Model) (sgmcmc.Gradient, error) {
	if a.BatchSize <= 0 {
		return nil, valid.Errorf(sgmcmc.ErrRange, "Adapted.NewGradient: BatchSize %d: the chain sampled a Problem without a Model", a.BatchSize)
	}
	src := rand.NewPCG(a.MinibatchSeed[0], a.MinibatchSeed[1])
	if a.Center != nil {
		return sgmcmc.NewControlVariate(m, a.Center, a.BatchSize, false, src, &sgmcmc.ControlVariateSettings{CenterGrad: a.CenterGrad})
	}
	return sgmcmc.NewMinibatch(m, a.BatchSize, false, src)
}

// NewSampler rebuilds the chain's sampler: a.Method's sampler on g, the
// chain's gradient in the whitened coordinates (see Adapted), started at
// Start (z = 0, θ = Shift, if nil) with the source
// rand.NewPCG(SamplerSeed[0], SamplerSeed[1]) and the adapted settings.
func (a *Adapted) NewSampler(g sgmcmc.Gradient) (sgmcmc.Sampler, error) {
	if a.Method == nil {
		return nil, valid.Errorf(sgmcmc.ErrNil, "Adapted.NewSampler: nil Method")
	}
	src := rand.NewPCG(a.SamplerSeed[0], a.SamplerSeed[1])
	return a.Method.NewSampler(g, a.start(), src, a)
}

// start returns a copy of Start, or z = 0 if it is nil.
func (a *Adapted) start() []float64 {
	if a.Start == nil {
		return make([]float64, len(a.Shift))
	}
	return append([]float64(nil), a.Start...)
}

// sampleDefaults validates Run's arguments and fills in the defaults.
func sampleDefaults(p Problem, theta0 []float64, settings *Settings) (*Settings, error) {
	var s Settings
	if settings != nil {
		s = *settings
	}
	d := len(theta0)
	if d == 0 {
		return nil, valid.Errorf(sgmcmc.ErrDimension, "Sample: empty theta0")
	}
	if i := valid.FirstNonFinite(theta0); i >= 0 {
		return nil, valid.Errorf(sgmcmc.ErrNonFinite, "Sample: theta0[%d] = %v, want finite", i, theta0[i])
	}
	switch {
	case p.Model == nil && p.Gradient == nil:
		return nil, valid.Errorf(sgmcmc.ErrNil, "Sample: the Problem has neither a Model nor a Gradient")
	case p.Model != nil && valid.IsNil(p.Model):
		return nil, valid.Errorf(sgmcmc.ErrNil, "Sample: the Problem's Model is a nil %T", p.Model)
	case p.Model != nil:
		if p.Model.Dim() != d {
			return nil, valid.Errorf(sgmcmc.ErrDimension, "Sample: the Model has dimension %d, theta0 has length %d", p.Model.Dim(), d)
		}
		if n := p.Model.Len(); n <= 0 {
			return nil, valid.Errorf(sgmcmc.ErrDimension, "Sample: the Model has %d data items", n)
		}
		if s.BatchSize < 0 || s.BatchSize > p.Model.Len() {
			return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: BatchSize = %d, want in [1, N = %d] (or 0 to adapt)", s.BatchSize, p.Model.Len())
		}
	}
	if p.Names != nil {
		if len(p.Names) != d {
			return nil, valid.Errorf(sgmcmc.ErrDimension, "Sample: %d names for %d parameters", len(p.Names), d)
		}
		seen := make(map[string]bool, d)
		for j, n := range p.Names {
			if n == "" || seen[n] {
				return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: name %d (%q) is empty or repeated", j, n)
			}
			seen[n] = true
		}
	}
	if s.Chains < 0 || s.Draws < 0 || s.Thin < 0 || s.DenseMax < 0 || s.MemoryLimit < 0 || s.DrawsMemory < 0 || s.Rounds < 0 {
		return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: Chains = %d, Draws = %d, Thin = %d, DenseMax = %d, MemoryLimit = %d, DrawsMemory = %d, Rounds = %d: want ≥ 0 (0 for the default)", s.Chains, s.Draws, s.Thin, s.DenseMax, s.MemoryLimit, s.DrawsMemory, s.Rounds)
	}
	if s.Chains > valid.MaxChains || s.Draws > valid.MaxChainFloats {
		return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: Chains = %d, Draws = %d: want at most %d chains and %d draws", s.Chains, s.Draws, valid.MaxChains, valid.MaxChainFloats)
	}
	if s.ProgressEvery < 0 {
		return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: ProgressEvery = %v, want positive (0 means 10 s)", s.ProgressEvery)
	}
	if s.Progress != nil && valid.IsNil(s.Progress) {
		return nil, valid.Errorf(sgmcmc.ErrNil, "Sample: Progress is a nil %T", s.Progress)
	}
	if !(s.MaxHeat >= 0) || math.IsInf(s.MaxHeat, 0) || !(s.StartScale >= 0) || math.IsInf(s.StartScale, 0) {
		return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: MaxHeat = %v, StartScale = %v: want finite and ≥ 0", s.MaxHeat, s.StartScale)
	}
	switch t := s.Temperature; {
	case t == 0:
		s.Temperature = 1
	case !(t > 0) || math.IsInf(t, 0):
		return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: Temperature = %v, want positive and finite (0 means 1)", t)
	}
	if s.Chains == 0 {
		s.Chains = 4
	}
	if s.ChainIDs != nil {
		if len(s.ChainIDs) == 0 {
			return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: ChainIDs is empty (nil means every chain)")
		}
		seen := make(map[int]bool)
		for _, c := range s.ChainIDs {
			if c < 0 || c >= s.Chains || seen[c] {
				return nil, valid.Errorf(sgmcmc.ErrRange, "Sample: ChainIDs %v: want distinct chains in [0, %d)", s.ChainIDs, s.Chains)
			}
			seen[c] = true
		}
	}
	if s.Draws == 0 {
		s.Draws = 1000
	}
	if s.MaxHeat == 0 {
		s.MaxHeat = 0.05
	}
	if s.DenseMax == 0 {
		s.DenseMax = 200
	}
	if s.StartScale == 0 {
		s.StartScale = 1
	}
	if s.Rounds == 0 {
		s.Rounds = defaultRounds
	}
	if s.DrawsMemory == 0 {
		s.DrawsMemory = defaultDrawsMemory
	}
	return &s, nil
}
