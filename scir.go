// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// SCIRSettings configures NewSCIR. The zero value is a Gamma target with
// rate b = 1.
type SCIRSettings struct {
	// Rate is the rate b of the CIR process
	// dθ = b(a − θ) dt + sqrt(2bθ) dW. Only the product b·h of rate and step
	// size matters. Zero means 1.
	Rate float64
	// Simplex, if positive, is the length K of the simplex blocks: θ is cut
	// into d/K consecutive blocks (e.g. K = V words for each of d/V topics),
	// and Position reports ω = θ/Σθ within each block, a Dirichlet(a) draw
	// for each block. d must be a multiple of Simplex. Zero means a Gamma
	// target: Position reports θ.
	Simplex int
}

// SCIR is the stochastic Cox–Ingersoll–Ross sampler of Baker, Fearnhead, Fox
// & Nemeth (2018), for Gamma(a, 1) targets on (0, ∞)^d and, through
// ω = θ/Σθ, for Dirichlet targets on one or many probability simplices.
//
// Each coordinate follows the exact transition of the CIR process
// dθ = b(a − θ) dt + sqrt(2bθ) dW over the step h (doc/equations.md §8.2):
//
//	N ~ Poisson(θ_j e^{−bh} / (1 − e^{−bh})),
//	θ_j ← (1 − e^{−bh}) · Gamma(â_j + N, 1),
//
// with the shape â re-estimated at every step (CountMinibatch: â = α +
// (N/n) Σ_{i∈S} z_i), or supplied by the caller (StepShape). There is no
// discretisation error: with the exact shape (FixedShape) every step leaves
// Gamma(a, 1) invariant for any h; with minibatch estimates the only error is
// the variance inflation of Corollary 4.2. For a Gamma(a, β) target divide θ
// by β.
//
// The state is held in log space as well: a Gamma(s) draw with s < 1 is made
// as Gamma(s + 1) · U^{1/s}, with log θ = log(1 − e^{−bh}) + log Gamma(s + 1) +
// log(U)/s, so that log θ (LogTheta) stays finite when θ underflows to zero,
// as it does for shapes near 1e−4. Within a simplex block ω is normalised by
// log-sum-exp when needed, so it stays a valid simplex point.
//
// The gamma and Poisson variates come from the chain's generator, an
// rng.Normal seeded from the constructor's source (rng.Normal.Gamma,
// LogGamma and Poisson: Marsaglia & Tsang 2000; inversion below a mean of
// 10 and Hörmann's 1993 PTRS above, with a cancellation-free log
// probability), the same bits on every platform: Step allocates nothing.
// gonum's distuv.Gamma returns θ, not log θ, so it cannot serve tiny
// shapes, and distuv.Poisson (v0.17) rejects k = 0 in PTRS, so it never
// returns 0 for λ ≥ 10 (P = e^{−λ} is lost) and is not exact; the
// generators here are also faster (BenchmarkSCIRGammaDraw,
// BenchmarkSCIRPoissonDraw). Above parallelDim coordinates a step runs in
// blocks on several cores, each block with its own generator.
type SCIR struct {
	d     int
	block int
	rate  float64
	est   ShapeEstimator
	src   *rng.Normal // the chain's generator, seeded from the constructor's source
	blk   blockSet
	parts []scirPart
	t     int
	// of the step in progress
	c, logc, ratio float64
	ahatNow        []float64

	theta, logTheta []float64 // current state
	nTheta, nLog    []float64 // next state, swapped in on success
	omega           []float64 // ω (simplex) ; nil for a Gamma target
	logSum          []float64 // log Σθ of each block
	nLogSum         []float64
	ahat            []float64
}

var _ Sampler = (*SCIR)(nil)

// NewSCIR returns an SCIR sampler started at theta0 whose shape comes from
// est at every Step, with randomness from src. theta0 must be non-negative
// and finite, and not all zero within a simplex block; it is copied. est may
// be nil if the caller supplies â to StepShape instead. s may be nil for the
// defaults. src seeds the chain's generator: two words drawn from it once, at
// construction, seed the rng.Normal every draw of the chain comes from.
func NewSCIR(est ShapeEstimator, theta0 []float64, src rand.Source, s *SCIRSettings) (*SCIR, error) {
	if s == nil {
		s = &SCIRSettings{}
	}
	d := len(theta0)
	block, err := checkSimplexSetup("NewSCIR", est, theta0, src, s.Simplex)
	if err != nil {
		return nil, err
	}
	rate := s.Rate
	if rate == 0 {
		rate = 1
	}
	if !(rate > 0) || math.IsInf(rate, 1) {
		return nil, errorf(ErrRange, "NewSCIR: Rate = %v, want positive and finite", s.Rate)
	}
	if a, ok := est.(FixedShape); ok {
		for j, v := range a {
			if !(v > 0) || math.IsInf(v, 1) {
				return nil, errorf(ErrRange, "NewSCIR: shape %d = %v, want positive and finite", j, v)
			}
		}
	}
	nb := 1
	if block > 0 {
		nb = d / block
	}
	c := &SCIR{
		d: d, block: block, rate: rate, est: est,
		theta: make([]float64, d), logTheta: make([]float64, d),
		nTheta: make([]float64, d), nLog: make([]float64, d),
		logSum: make([]float64, nb), nLogSum: make([]float64, nb),
		ahat: make([]float64, d),
	}
	c.src, _ = rng.NewNormalFrom(src) // src is not nil
	c.blk = newBlockSet(c, c.src, d)
	c.parts = make([]scirPart, c.blk.nb)
	for j, v := range theta0 {
		c.theta[j] = v
		c.logTheta[j] = math.Log(v)
	}
	if block > 0 {
		c.omega = make([]float64, d)
		for k := range nb {
			lo, hi := k*block, (k+1)*block
			c.logSum[k] = normalizeSimplexBlock(c.omega[lo:hi], c.theta[lo:hi], c.logTheta[lo:hi])
		}
	}
	return c, nil
}

// Dim returns the number d of coordinates.
func (s *SCIR) Dim() int { return s.d }

// Position returns ω (each simplex block normalised) if Simplex was set, and
// θ otherwise. The slice is the sampler's own storage, valid until the next
// step; do not modify it.
func (s *SCIR) Position() []float64 {
	if s.omega != nil {
		return s.omega
	}
	return s.theta
}

// Theta returns θ, which may underflow to zero for tiny shapes. The slice is
// the sampler's own storage, valid until the next step; do not modify it.
func (s *SCIR) Theta() []float64 { return s.theta }

// LogTheta returns log θ, computed in log space so that it stays finite when
// θ underflows. The slice is the sampler's own storage, valid until the next
// step; do not modify it.
func (s *SCIR) LogTheta() []float64 { return s.logTheta }

// LogPosition writes the logarithm of Position into dst (log ω for a simplex
// target, log θ otherwise), computed from log θ so that it stays finite when
// ω underflows, and returns dst resliced to length Dim. dst is reused if its
// capacity suffices and allocated otherwise (pass nil to allocate).
func (s *SCIR) LogPosition(dst []float64) []float64 {
	return simplexLogPosition(dst, s.logTheta, s.logSum, s.block)
}

func simplexLogPosition(dst, logTheta, logSum []float64, block int) []float64 {
	if cap(dst) < len(logTheta) {
		dst = make([]float64, len(logTheta))
	}
	dst = dst[:len(logTheta)]
	if block == 0 {
		copy(dst, logTheta)
		return dst
	}
	for j, l := range logTheta {
		dst[j] = l - logSum[j/block]
	}
	return dst
}

// Steps returns the number of completed steps.
func (s *SCIR) Steps() int { return s.t }

// Step advances every coordinate by the exact CIR transition over h, with
// the shape estimate â drawn from the ShapeEstimator. If the estimator was
// nil use StepShape instead. A non-positive or non-finite â_j is reported as
// a *StepError naming coordinate j, and the state is left unchanged.
func (s *SCIR) Step(h float64) error {
	if err := drawShape(h, s.t+1, s.est, s.ahat); err != nil {
		return err
	}
	return s.step(h, s.ahat)
}

// StepShape is Step with the shape estimate â supplied by the caller, e.g. α
// plus the scaled latent counts of a larger Gibbs sampler (LDA, mixtures).
// ahat must have length Dim and positive finite entries.
func (s *SCIR) StepShape(h float64, ahat []float64) error {
	if err := checkShapeInput(h, s.t+1, s.d, ahat); err != nil {
		return err
	}
	return s.step(h, ahat)
}

// step draws the next state into nTheta and nLog, in blocks above
// parallelDim, and swaps it in on success; on failure it rewinds the
// generators.
func (s *SCIR) step(h float64, ahat []float64) error {
	step := s.t + 1
	bh := s.rate * h
	c := -math.Expm1(-bh) // 1 − e^{−bh}
	if !(c > 0) {
		return &StepError{Step: step, Index: -1, Value: h, What: "rate·step size underflows"}
	}
	s.c, s.logc = c, math.Log(c)
	s.ratio = 1 / math.Expm1(bh) // e^{−bh}/(1 − e^{−bh}); 0 when bh is huge
	s.ahatNow = ahat
	save := *s.src
	s.blk.save()
	s.blk.do(s)
	s.ahatNow = nil
	for k := range s.parts {
		if e := s.parts[k].err; e != nil {
			*s.src = save
			s.blk.restore()
			err := *e
			err.Step = step
			return &err
		}
	}
	if s.omega != nil {
		for k := range s.logSum {
			lo, hi := k*s.block, (k+1)*s.block
			s.nLogSum[k] = normalizeSimplexBlock(s.omega[lo:hi], s.nTheta[lo:hi], s.nLog[lo:hi])
		}
		s.logSum, s.nLogSum = s.nLogSum, s.logSum
	}
	s.theta, s.nTheta = s.nTheta, s.theta
	s.logTheta, s.nLog = s.nLog, s.logTheta
	s.t = step
	return nil
}

// scirPart is one block's outcome: the first failure, or nil.
type scirPart struct {
	err  *StepError
	errv StepError // storage for err, so that a failure does not allocate
}

// runBlock moves coordinates [lo, hi) of block k by the exact CIR
// transition, stopping at the first failure.
func (s *SCIR) runBlock(k int) {
	lo, hi := s.blk.rng(k)
	g := s.blk.gen(k)
	p := &s.parts[k]
	p.err = nil
	fail := func(j int, v float64, what string) {
		p.errv = StepError{Index: j, Value: v, What: what}
		p.err = &p.errv
	}
	c, logc, ratio := s.c, s.logc, s.ratio
	for j := lo; j < hi; j++ {
		a := s.ahatNow[j]
		if !(a > 0) || a > math.MaxFloat64 {
			fail(j, a, "shape estimate must be positive and finite")
			return
		}
		lam := s.theta[j] * ratio
		if lam > rng.MaxPoissonMean {
			fail(j, lam, "Poisson mean too large (step size too small for θ)")
			return
		}
		shape := a + g.Poisson(lam)
		var th, lth float64
		if shape >= 1 {
			x := g.Gamma(shape)
			th = c * x
			lth = logc + math.Log(x)
		} else {
			// Gamma(s) = Gamma(s+1)·U^{1/s}, in log space.
			lth = logc + g.LogGamma(shape)
			th = math.Exp(lth)
		}
		if th > math.MaxFloat64 {
			fail(j, th, "θ overflows")
			return
		}
		s.nTheta[j], s.nLog[j] = th, lth
	}
}

// normalizeSimplexBlock writes ω = θ/Σθ into omega and returns log Σθ. It divides
// directly when the sum is comfortably in range, using log θ only for the
// coordinates that underflowed; otherwise it normalises by log-sum-exp.
func normalizeSimplexBlock(omega, theta, logTheta []float64) float64 {
	var sum float64
	for _, v := range theta {
		sum += v
	}
	const safeMin = 0x1p-900 // far above the underflow threshold
	if sum >= safeMin && sum <= math.MaxFloat64 {
		inv := 1 / sum
		logS := math.Log(sum)
		for j, v := range theta {
			if v >= 0x1p-1022 {
				omega[j] = v * inv
			} else {
				omega[j] = math.Exp(logTheta[j] - logS)
			}
		}
		return logS
	}
	m := math.Inf(-1)
	for _, l := range logTheta {
		m = max(m, l)
	}
	var e float64
	for _, l := range logTheta {
		e += math.Exp(l - m)
	}
	logS := m + math.Log(e)
	var tot float64
	for j, l := range logTheta {
		omega[j] = math.Exp(l - logS)
		tot += omega[j]
	}
	for j := range omega {
		omega[j] /= tot
	}
	return logS
}
