// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
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
// Gamma draws use Marsaglia & Tsang (2000) and Poisson draws inversion
// (mean below 10) or Hörmann's (1993) PTRS with a cancellation-free log
// probability, all on the sampler's own *rand.Rand: Step allocates nothing.
// gonum's distuv.Gamma and distuv.Poisson are also allocation-free when
// given the sampler's *rand.Rand as Src, but distuv.Gamma returns θ, not
// log θ, so it cannot serve tiny shapes, and distuv.Poisson (v0.17) rejects
// k = 0 in PTRS, so it never returns 0 for λ ≥ 10 (P = e^{−λ} is lost) and
// is not exact; the samplers here are also no slower (BenchmarkSCIRGammaDraw,
// BenchmarkSCIRPoissonDraw).
type SCIR struct {
	d     int
	block int
	rate  float64
	est   ShapeEstimator
	rng   *rand.Rand
	t     int

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
// defaults.
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
		d: d, block: block, rate: rate, est: est, rng: rand.New(src),
		theta: make([]float64, d), logTheta: make([]float64, d),
		nTheta: make([]float64, d), nLog: make([]float64, d),
		logSum: make([]float64, nb), nLogSum: make([]float64, nb),
		ahat: make([]float64, d),
	}
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
// ω underflows, and returns dst. If dst is nil it is allocated.
func (s *SCIR) LogPosition(dst []float64) []float64 {
	return simplexLogPosition(dst, s.logTheta, s.logSum, s.block)
}

func simplexLogPosition(dst, logTheta, logSum []float64, block int) []float64 {
	if dst == nil {
		dst = make([]float64, len(logTheta))
	}
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

func (s *SCIR) step(h float64, ahat []float64) error {
	step := s.t + 1
	bh := s.rate * h
	c := -math.Expm1(-bh) // 1 − e^{−bh}
	if !(c > 0) {
		return &StepError{Step: step, Index: -1, Value: h, What: "rate·step size underflows"}
	}
	logc := math.Log(c)
	ratio := 1 / math.Expm1(bh) // e^{−bh}/(1 − e^{−bh}); 0 when bh is huge
	for j, a := range ahat {
		if !(a > 0) || a > math.MaxFloat64 {
			return &StepError{Step: step, Index: j, Value: a, What: "shape estimate must be positive and finite"}
		}
		lam := s.theta[j] * ratio
		if lam > scirMaxPoissonMean {
			return &StepError{Step: step, Index: j, Value: lam, What: "Poisson mean too large (step size too small for θ)"}
		}
		shape := a + scirPoisson(s.rng, lam)
		var th, lth float64
		if shape >= 1 {
			g := scirGamma(s.rng, shape)
			th = c * g
			lth = logc + math.Log(g)
		} else {
			// Gamma(s) = Gamma(s+1) · U^{1/s}, in log space.
			g := scirGamma(s.rng, shape+1)
			lth = logc + math.Log(g) + math.Log(1-s.rng.Float64())/shape
			th = math.Exp(lth)
		}
		if th > math.MaxFloat64 {
			return &StepError{Step: step, Index: j, Value: th, What: "θ overflows"}
		}
		s.nTheta[j], s.nLog[j] = th, lth
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
