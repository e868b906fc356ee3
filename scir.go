// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// ShapeEstimator supplies the shape estimate â of each step of SCIR and
// SGRLDSimplex: the gamma-target counterpart of Gradient. The samplers do not
// know where â comes from: a fixed full-data shape (FixedShape), a minibatch
// of count data (CountMinibatch), or the latent counts of a larger Gibbs
// sampler (ShapeFunc, or StepShape).
//
// A ShapeEstimator may also have a method Dim() int; the sampler
// constructors then check it against the sampler's dimension.
type ShapeEstimator interface {
	// Shape writes â into dst, one entry per coordinate. It must not retain
	// dst.
	Shape(dst []float64)
}

// ShapeFunc adapts a function to the ShapeEstimator interface.
type ShapeFunc func(dst []float64)

// Shape calls f(dst).
func (f ShapeFunc) Shape(dst []float64) { f(dst) }

// FixedShape is an exact, full-data shape a: with it SCIR is the exact CIR
// process, whose every step leaves Gamma(a_j, 1) invariant.
type FixedShape []float64

// Shape copies a into dst.
func (a FixedShape) Shape(dst []float64) { copy(dst, a) }

// Dim returns len(a).
func (a FixedShape) Dim() int { return len(a) }

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

// Categorical is N categorical observations: item i is the one-hot vector at
// coordinate c[i].
type Categorical []int

// Len returns len(c).
func (c Categorical) Len() int { return len(c) }

// AddCounts adds scale to dst[c[i]].
func (c Categorical) AddCounts(dst []float64, i int, scale float64) { dst[c[i]] += scale }

// CountMinibatch is the minibatch shape estimate of the SCIR paper (Baker et
// al. 2018, Section 3.1),
//
//	â = α + (N/n) Σ_{i∈S} z_i,
//
// with S a fresh minibatch of n distinct items (drawn without replacement) at
// every call. It is unbiased for a = α + Σ_i z_i. With n = N the estimate is
// exact and computed once. Successive calls draw independent batches, so one
// CountMinibatch may feed several samplers in turn, but it is not safe for
// concurrent use.
type CountMinibatch struct {
	alpha []float64
	data  Counts
	n     int
	rng   *rand.Rand
	perm  []int
	idx   []int
	full  []float64 // α + Σ_i z_i when n = N
}

// NewCountMinibatch returns the minibatch estimate of the shape α + Σ_i z_i
// from batches of n of the data's N items, drawn from src. Every α_j must be
// positive and finite. A Categorical dataset's labels are checked to lie in
// [0, len(alpha)); other Counts are checked through the shape at every step.
func NewCountMinibatch(alpha []float64, data Counts, n int, src rand.Source) (*CountMinibatch, error) {
	if len(alpha) == 0 {
		return nil, errors.New("sgmcmc: NewCountMinibatch: empty alpha")
	}
	for j, a := range alpha {
		if !(a > 0) || math.IsInf(a, 1) {
			return nil, fmt.Errorf("sgmcmc: NewCountMinibatch: alpha[%d] = %v, want positive and finite", j, a)
		}
	}
	if data == nil {
		return nil, errors.New("sgmcmc: NewCountMinibatch: nil data")
	}
	if src == nil {
		return nil, errors.New("sgmcmc: NewCountMinibatch: nil random source")
	}
	N := data.Len()
	if N <= 0 {
		return nil, fmt.Errorf("sgmcmc: NewCountMinibatch: data has %d items", N)
	}
	if n <= 0 || n > N {
		return nil, fmt.Errorf("sgmcmc: NewCountMinibatch: batch size %d not in [1, %d]", n, N)
	}
	if c, ok := data.(Categorical); ok {
		for i, l := range c {
			if l < 0 || l >= len(alpha) {
				return nil, fmt.Errorf("sgmcmc: NewCountMinibatch: label %d of item %d not in [0, %d)", l, i, len(alpha))
			}
		}
	}
	b := &CountMinibatch{
		alpha: append([]float64(nil), alpha...),
		data:  data,
		n:     n,
		rng:   rand.New(src),
		idx:   make([]int, n),
	}
	if n == N {
		b.full = make([]float64, len(alpha))
		b.FullShape(b.full)
		for i := range b.idx {
			b.idx[i] = i
		}
		return b, nil
	}
	b.perm = make([]int, N)
	for i := range b.perm {
		b.perm[i] = i
	}
	return b, nil
}

// Dim returns the number of coordinates, len(α).
func (b *CountMinibatch) Dim() int { return len(b.alpha) }

// Size returns the batch size n.
func (b *CountMinibatch) Size() int { return b.n }

// Indices returns the items of the last batch (read only).
func (b *CountMinibatch) Indices() []int { return b.idx }

// Shape draws a new minibatch and writes â = α + (N/n) Σ_{i∈S} z_i into dst.
func (b *CountMinibatch) Shape(dst []float64) {
	if b.full != nil {
		copy(dst, b.full)
		return
	}
	copy(dst, b.alpha)
	N := b.data.Len()
	scale := float64(N) / float64(b.n)
	// Partial Fisher–Yates over a persistent permutation, as in Minibatch.
	for k := range b.n {
		j := k + b.rng.IntN(N-k)
		b.perm[k], b.perm[j] = b.perm[j], b.perm[k]
		b.idx[k] = b.perm[k]
		b.data.AddCounts(dst, b.perm[k], scale)
	}
}

// FullShape writes the exact shape a = α + Σ_i z_i into dst. It costs O(N).
func (b *CountMinibatch) FullShape(dst []float64) {
	copy(dst, b.alpha)
	for i := range b.data.Len() {
		b.data.AddCounts(dst, i, 1)
	}
}

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
// dθ = b(a − θ) dt + sqrt(2bθ) dW over the step h (EQUATIONS §3):
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
		return nil, fmt.Errorf("sgmcmc: NewSCIR: Rate = %v, want positive and finite", s.Rate)
	}
	if a, ok := est.(FixedShape); ok {
		for j, v := range a {
			if !(v > 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("sgmcmc: NewSCIR: shape %d = %v, want positive and finite", j, v)
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

// checkSimplexSetup validates the arguments shared by NewSCIR and
// NewSGRLDSimplex and returns the block length (0 for none).
func checkSimplexSetup(name string, est ShapeEstimator, theta0 []float64, src rand.Source, block int) (int, error) {
	d := len(theta0)
	if d == 0 {
		return 0, fmt.Errorf("sgmcmc: %s: empty theta0", name)
	}
	if src == nil {
		return 0, fmt.Errorf("sgmcmc: %s: nil random source", name)
	}
	if e, ok := est.(interface{ Dim() int }); ok && e.Dim() != d {
		return 0, fmt.Errorf("sgmcmc: %s: shape estimator dimension %d, len(theta0) = %d", name, e.Dim(), d)
	}
	if block < 0 || (block > 0 && d%block != 0) {
		return 0, fmt.Errorf("sgmcmc: %s: Simplex = %d does not divide the dimension %d", name, block, d)
	}
	for j, v := range theta0 {
		if !(v >= 0) || math.IsInf(v, 1) {
			return 0, fmt.Errorf("sgmcmc: %s: theta0[%d] = %v, want non-negative and finite", name, j, v)
		}
	}
	if block > 0 {
		for lo := 0; lo < d; lo += block {
			var sum float64
			for _, v := range theta0[lo : lo+block] {
				sum += v
			}
			if sum == 0 {
				return 0, fmt.Errorf("sgmcmc: %s: theta0 is zero on the simplex block at %d", name, lo)
			}
		}
	}
	return block, nil
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

// scirMaxPoissonMean bounds the Poisson mean θe^{−bh}/(1 − e^{−bh}) of a step:
// beyond 2^52 the draw is no longer an exact integer in float64.
const scirMaxPoissonMean = 1 << 52

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

// scirGamma draws from Gamma(a, 1), a ≥ 1, by Marsaglia & Tsang (2000). The
// log acceptance test is written with log1p so that it stays accurate for
// very large shapes (d·(1 − v + log v) cancels catastrophically otherwise).
func scirGamma(r *rand.Rand, a float64) float64 {
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		t := c * x
		if t <= -1 {
			continue
		}
		w := t * (3 + t*(3+t)) // v − 1, with v = (1 + t)³
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			return d * (1 + w)
		}
		if math.Log(u) < 0.5*x2+d*(3*math.Log1p(t)-w) {
			return d * (1 + w)
		}
	}
}

// poisson draws from Poisson(lam), 0 ≤ lam ≤ 2^52: by inversion for lam < 10
// and by Hörmann's (1993) transformed rejection with squeeze (PTRS) above.
func scirPoisson(r *rand.Rand, lam float64) float64 {
	if lam < 10 {
		if lam == 0 {
			return 0
		}
		u := r.Float64()
		if u < 1-lam { // e^{−λ} ≥ 1 − λ: N = 0 without an exp
			return 0
		}
		p := math.Exp(-lam)
		F := p
		var k float64
		for u >= F && p > 0 {
			k++
			p *= lam / k
			F += p
		}
		return k
	}
	b := 0.931 + 2.53*math.Sqrt(lam)
	a := -0.059 + 0.02483*b
	invAlpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := r.Float64() - 0.5
		v := r.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + lam + 0.43)
		if us >= 0.07 && v <= vr {
			return k
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		if math.Log(v*invAlpha/(a/(us*us)+b)) <= scirLogPoissonPMF(k, lam) {
			return k
		}
	}
}

// scirLogPoissonPMF returns log(e^{−λ} λ^k / k!) without the cancellation of
// k log λ − λ − log k! for large λ (Loader 2000: Stirling error and scirBD0).
func scirLogPoissonPMF(k, lam float64) float64 {
	if k == 0 {
		return -lam
	}
	return -scirStirlingError(k) - scirBD0(k, lam) - 0.5*math.Log(2*math.Pi*k)
}

// scirStirlingError returns log k! − [(k + ½) log k − k + ½ log 2π].
func scirStirlingError(k float64) float64 {
	if k <= 15 {
		lg, _ := math.Lgamma(k + 1)
		return lg - (k+0.5)*math.Log(k) + k - 0.5*math.Log(2*math.Pi)
	}
	const (
		s0 = 1.0 / 12
		s1 = 1.0 / 360
		s2 = 1.0 / 1260
		s3 = 1.0 / 1680
		s4 = 1.0 / 1188
	)
	kk := k * k
	return (s0 - (s1-(s2-(s3-s4/kk)/kk)/kk)/kk) / k
}

// scirBD0 returns x log(x/m) + m − x, accurately when x ≈ m.
func scirBD0(x, m float64) float64 {
	if math.Abs(x-m) < 0.1*(x+m) {
		v := (x - m) / (x + m)
		s := (x - m) * v
		ej := 2 * x * v
		v2 := v * v
		for j := 1; j < 1000; j++ {
			ej *= v2
			s1 := s + ej/float64(2*j+1)
			if s1 == s {
				return s1
			}
			s = s1
		}
		return s
	}
	return x*math.Log(x/m) + m - x
}

// drawShape validates the step size of step and fills buf with the shape
// estimate from est: the input of Step for SCIR and SGRLDSimplex.
func drawShape(h float64, step int, est ShapeEstimator, buf []float64) error {
	if err := checkStepSize(h, step); err != nil {
		return err
	}
	if est == nil {
		return &StepError{Step: step, Index: -1, Value: math.NaN(), What: "no ShapeEstimator: use StepShape"}
	}
	est.Shape(buf)
	return nil
}

// checkShapeInput validates the step size of step and a caller-supplied
// shape estimate of length d: the input of StepShape.
func checkShapeInput(h float64, step, d int, ahat []float64) error {
	if err := checkStepSize(h, step); err != nil {
		return err
	}
	if len(ahat) != d {
		return &StepError{Step: step, Index: -1, Value: float64(len(ahat)), What: "length of shape estimate differs from dimension"}
	}
	return nil
}
