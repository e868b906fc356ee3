// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
)

// Prior is the prior of the Dirichlet-process mixture of multinomials: each
// component's area probabilities θ_j ~ Dirichlet(A, …, A) on the V areas,
// and the concentration α ~ Gamma(B1, B2) (shape B1, rate B2).
type Prior struct {
	A      float64
	B1, B2 float64
}

func (p Prior) check() error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"a", p.A}, {"b1", p.B1}, {"b2", p.B2}} {
		if !(v.x > 0) || math.IsInf(v.x, 1) {
			return fmt.Errorf("prior %s = %v, want positive and finite", v.name, v.x)
		}
	}
	return nil
}

// Method names, as in the -json rows.
const (
	SCIR    = "SCIR"
	SGRLD   = "SGRLD"
	SGRLDPT = "SGRLD-PT" // Patterson & Teh's own form (ptSGRLD)
	Gibbs   = "Gibbs"
)

// ChainSettings configures one chain of the slice sampler.
type ChainSettings struct {
	// Method is SCIR, SGRLD, SGRLDPT or Gibbs. SCIR and SGRLD update the
	// stick breaks and the component parameters from minibatch shape
	// estimates with sgmcmc.NewSCIR or sgmcmc.NewSGRLDSimplex, SGRLDPT with
	// Patterson & Teh's form of SGRLD (ptSGRLD); Gibbs draws them exactly
	// from their full conditionals given all users.
	Method string
	// Batch is the number n of users per iteration (SCIR and SGRLD); Gibbs
	// uses all N.
	Batch int
	// HTheta and HStick are the fixed step sizes of the component
	// parameters and of the stick breaks (ignored by Gibbs).
	HTheta, HStick float64
	// K0 is the number of components the users are first spread over,
	// uniformly at random.
	K0 int
	// KMax is the number of components held (see Chain).
	KMax int
	// Alpha0 is the initial concentration.
	Alpha0 float64
}

// simplexSampler is what the chain needs of sgmcmc.SCIR and
// sgmcmc.SGRLDSimplex: a step with a caller-supplied shape, and the point on
// each simplex block.
type simplexSampler interface {
	StepShape(h float64, ahat []float64) error
	Position() []float64
}

// logPositioner is the optional log-space position (SCIR, and the exact
// draws of the Gibbs sampler).
type logPositioner interface {
	LogPosition(dst []float64) []float64
}

var (
	_ simplexSampler = (*sgmcmc.SCIR)(nil)
	_ simplexSampler = (*sgmcmc.SGRLDSimplex)(nil)
	_ simplexSampler = (*exactSimplex)(nil)
	_ simplexSampler = (*ptSGRLD)(nil)
	_ logPositioner  = (*sgmcmc.SCIR)(nil)
	_ logPositioner  = (*exactSimplex)(nil)
)

// Chain is the slice sampler (Walker 2007; Kalli, Griffin & Walker 2011)
// for the Dirichlet-process mixture of multinomials, in the minibatched form
// of Baker et al. (2018, Appendix D) for the stochastic methods and in its
// exact full-data form for Gibbs.
//
// The stick-breaking weights ω_j = v_j Π_{l<j}(1 − v_l) and the component
// parameters θ_j are held for j = 1 … KMax: v_j as the two-coordinate
// simplex (v_j, 1 − v_j) ~ Beta(1 + m_j, α + Σ_{l>j} m_l), θ_j as a
// V-simplex ~ Dirichlet(a + s_j), with m_j the number of users in component
// j and s_j their visit counts. The library's samplers have a fixed
// dimension, so unoccupied components are not deleted and redrawn from the
// prior as in the paper but stay in the state: each iteration moves every
// stick, and the θ_j of the occupied components and of those some batch user
// could join, the empty ones with their prior shape, by the method's own
// kernel (Gibbs moves every θ_j). Under SCIR and Gibbs every conditional
// stays exactly invariant. The components beyond KMax are integrated out;
// an iteration in which the slice would reach one of them (the leftover
// weight Π_{l≤KMax}(1 − v_l) exceeds the smallest slice variable) is counted
// in Truncations and the users are kept to the first KMax components.
type Chain struct {
	s     ChainSettings
	prior Prior
	users *Users
	n, N  int // batch size and number of users
	V, K  int // areas and components held
	rng   *rand.Rand

	theta []simplexSampler // one per component, a V-simplex each
	stick simplexSampler   // all sticks, K two-coordinate simplices
	alpha float64

	z        []int32 // component of each user
	occ      []int32 // users per component
	occupied int     // components with occ > 0
	top      int     // 1 + the largest occupied component
	perm     []int32 // persistent permutation for the minibatches

	logTheta   []float64 // K·V, log θ (valid up to the last kStar)
	logStick   []float64 // 2K, log v_j and log(1 − v_j)
	logOmega   []float64 // K
	logRest    float64   // log Π_{l≤K}(1 − v_l)
	thetaShape []float64 // K·V
	thetaPos   []float64 // K·V, for Theta
	stickShape []float64 // 2K
	mhat       []float64 // K
	logU       []float64 // n
	w          []float64 // K

	iter        int
	truncations int
	maxKStar    int
	stickPrior  []float64 // the sticks' prior (1, α) for SGRLD-PT
}

// NewChain returns a chain on the training users, started with the users
// spread uniformly at random over K0 components and θ, v drawn exactly from
// their conditionals given that allocation (with α = Alpha0). The start
// depends on seed only, not on the method, so that methods with the same
// seed start from the same state.
func NewChain(users *Users, V int, prior Prior, s ChainSettings, seed uint64) (*Chain, error) {
	if err := prior.check(); err != nil {
		return nil, err
	}
	N := users.Len()
	switch s.Method {
	case SCIR, SGRLD, SGRLDPT:
		if s.Batch <= 0 || s.Batch > N {
			return nil, fmt.Errorf("batch size %d not in [1, %d]", s.Batch, N)
		}
		for _, h := range []float64{s.HTheta, s.HStick} {
			if !(h > 0) || math.IsInf(h, 1) {
				return nil, fmt.Errorf("%s step size %v, want positive and finite", s.Method, h)
			}
		}
	case Gibbs:
		s.Batch = N
	default:
		return nil, fmt.Errorf("unknown method %q (want %s, %s, %s or %s)", s.Method, SCIR, SGRLD, SGRLDPT, Gibbs)
	}
	if s.K0 <= 0 || s.KMax < s.K0 {
		return nil, fmt.Errorf("K0 = %d, KMax = %d: want 0 < K0 ≤ KMax", s.K0, s.KMax)
	}
	if !(s.Alpha0 > 0) || math.IsInf(s.Alpha0, 1) {
		return nil, fmt.Errorf("initial α = %v, want positive and finite", s.Alpha0)
	}
	if V <= 0 {
		return nil, errors.New("no areas")
	}
	K := s.KMax
	c := &Chain{
		s: s, prior: prior, users: users, n: s.Batch, N: N, V: V, K: K,
		rng:        rand.New(rand.NewPCG(seed, 1)),
		alpha:      s.Alpha0,
		z:          make([]int32, N),
		occ:        make([]int32, K),
		perm:       make([]int32, N),
		logTheta:   make([]float64, K*V),
		logStick:   make([]float64, 2*K),
		logOmega:   make([]float64, K),
		thetaShape: make([]float64, K*V),
		thetaPos:   make([]float64, K*V),
		theta:      make([]simplexSampler, K),
		stickShape: make([]float64, 2*K),
		mhat:       make([]float64, K),
		logU:       make([]float64, s.Batch),
		w:          make([]float64, K),
	}
	// The start: same for every method with this seed.
	init := rand.New(rand.NewPCG(seed, 0))
	for i := range c.z {
		c.perm[i] = int32(i)
		k := int32(init.IntN(s.K0))
		c.z[i] = k
		c.occ[k]++
	}
	for j, o := range c.occ {
		if o > 0 {
			c.occupied++
			c.top = j + 1
		}
	}
	c.shapes(c.perm, 1)
	theta0 := make([]float64, K*V)
	stick0 := make([]float64, 2*K)
	for j, a := range c.thetaShape {
		theta0[j] = math.Exp(gammaLog(init, a))
	}
	for j, a := range c.stickShape {
		stick0[j] = math.Exp(gammaLog(init, a))
	}
	fix := func(x []float64, block int) { // a block that underflowed to zero
		for lo := 0; lo < len(x); lo += block {
			var sum float64
			for _, v := range x[lo : lo+block] {
				sum += v
			}
			if sum == 0 {
				x[lo] = math.SmallestNonzeroFloat64
			}
		}
	}
	fix(theta0, V)
	fix(stick0, 2)
	var err error
	var thetaPrior []float64
	if s.Method == SGRLDPT {
		thetaPrior = make([]float64, V)
		for v := range thetaPrior {
			thetaPrior[v] = prior.A
		}
		c.stickPrior = make([]float64, 2*K)
	}
	for j := range K {
		src, th0 := rand.NewPCG(seed, uint64(100+j)), theta0[j*V:(j+1)*V]
		switch s.Method {
		case SCIR:
			c.theta[j], err = sgmcmc.NewSCIR(nil, th0, src, &sgmcmc.SCIRSettings{Simplex: V})
		case SGRLD:
			c.theta[j], err = sgmcmc.NewSGRLDSimplex(nil, th0, src, &sgmcmc.SGRLDSimplexSettings{Simplex: V})
		case Gibbs:
			c.theta[j] = newExactSimplex(th0, V, src)
		case SGRLDPT:
			c.theta[j] = newPTSGRLD(th0, V, thetaPrior, src)
		}
		if err != nil {
			return nil, err
		}
	}
	src := rand.NewPCG(seed, 3)
	switch s.Method {
	case SCIR:
		c.stick, err = sgmcmc.NewSCIR(nil, stick0, src, &sgmcmc.SCIRSettings{Simplex: 2})
	case SGRLD:
		c.stick, err = sgmcmc.NewSGRLDSimplex(nil, stick0, src, &sgmcmc.SGRLDSimplexSettings{Simplex: 2})
	case Gibbs:
		c.stick = newExactSimplex(stick0, 2, src)
	case SGRLDPT:
		c.stick = newPTSGRLD(stick0, 2, c.stickPrior, src)
	}
	if err != nil {
		return nil, err
	}
	c.updateWeights()
	return c, nil
}

// Method returns the chain's method.
func (c *Chain) Method() string { return c.s.Method }

// Alpha returns the current concentration α.
func (c *Chain) Alpha() float64 { return c.alpha }

// Occupied returns the number of components with at least one training
// user.
func (c *Chain) Occupied() int { return c.occupied }

// Iterations returns the number of completed iterations.
func (c *Chain) Iterations() int { return c.iter }

// Truncations returns the number of iterations in which the slice reached
// beyond the KMax components held.
func (c *Chain) Truncations() int { return c.truncations }

// MaxReach returns the largest number of components that the slice made
// available to a user so far: KMax must stay above it.
func (c *Chain) MaxReach() int { return c.maxKStar }

// Theta returns the component parameters, KMax consecutive V-simplices (read
// only, valid until the next call).
func (c *Chain) Theta() []float64 {
	for j, t := range c.theta {
		copy(c.thetaPos[j*c.V:(j+1)*c.V], t.Position())
	}
	return c.thetaPos
}

// logThetas writes log θ_j for the components j < k into c.logTheta.
func (c *Chain) logThetas(k int) {
	for j, t := range c.theta[:k] {
		logPosition(c.logTheta[j*c.V:(j+1)*c.V], t, c.V)
	}
}

// Assignments returns the component of every training user (read only).
func (c *Chain) Assignments() []int32 { return c.z }

// updateWeights computes log v_j, log(1 − v_j), log ω_j and the leftover
// log weight from the stick sampler.
func (c *Chain) updateWeights() {
	logPosition(c.logStick, c.stick, len(c.logStick))
	var cum float64
	for j := range c.logOmega {
		c.logOmega[j] = c.logStick[2*j] + cum
		cum += c.logStick[2*j+1]
	}
	c.logRest = cum
}

// logPosition writes log Position()[:m] into dst: from LogPosition when the
// sampler has it (finite even when the position underflows), else by
// taking logs.
func logPosition(dst []float64, s simplexSampler, m int) {
	if lp, ok := s.(logPositioner); ok {
		lp.LogPosition(dst)
		return
	}
	for j, v := range s.Position()[:m] {
		dst[j] = math.Log(v)
	}
}

// shapes writes the shapes of the conditionals of θ and v given the users
// in batch, each counted scale times: a + scale·s_j and
// (1 + scale·m_j, α + scale·Σ_{l>j} m_l).
func (c *Chain) shapes(batch []int32, scale float64) {
	a := c.prior.A
	for j := range c.thetaShape {
		c.thetaShape[j] = a
	}
	clear(c.mhat)
	V := c.V
	for _, i := range batch {
		k := int(c.z[i])
		c.mhat[k] += scale
		row := c.thetaShape[k*V : (k+1)*V]
		for _, v := range c.users.User(int(i)) {
			row[v] += scale
		}
	}
	var tail float64
	for j := c.K - 1; j >= 0; j-- {
		c.stickShape[2*j] = 1 + c.mhat[j]
		c.stickShape[2*j+1] = c.alpha + tail
		tail += c.mhat[j]
	}
	if c.stickPrior != nil {
		for j := range c.K {
			c.stickPrior[2*j], c.stickPrior[2*j+1] = 1, c.alpha
		}
	}
}

// Iterate runs one iteration: draw a minibatch S of n users (all N for
// Gibbs), draw their slice variables u_i ~ U(0, ω_{z_i}) and then their
// components z_i ∝ 1(ω_j > u_i) Π_v θ_{jv}^{x_iv}; move θ and v by one step
// of the method with the shapes estimated from S, scaled by N/n; draw α
// from its conditional given the sticks. It allocates nothing.
func (c *Chain) Iterate() error {
	batch := c.drawBatch()
	// Slice variables, in log space (ω_j can be far below 1e−300).
	logUStar := math.Inf(1)
	for k, i := range batch {
		l := math.Log(1-c.rng.Float64()) + c.logOmega[c.z[i]]
		c.logU[k] = l
		logUStar = min(logUStar, l)
	}
	if c.logRest > logUStar {
		c.truncations++
	}
	kStar := 0 // components j < kStar can be chosen by some user
	for j := c.K - 1; j >= 0; j-- {
		if c.logOmega[j] > logUStar {
			kStar = j + 1
			break
		}
	}
	c.maxKStar = max(c.maxKStar, kStar)
	c.logThetas(kStar)
	for k, i := range batch {
		c.drawZ(int(i), c.logU[k], kStar)
	}
	c.shapes(batch, float64(c.N)/float64(c.n))
	// Move the components a user could have joined and the occupied ones
	// (all for Gibbs). The others keep their values: which components move
	// depends on z, u and v only, not on the θ_j left alone, so every
	// component's conditional stays invariant.
	kMove := max(kStar, c.top)
	if c.s.Method == Gibbs {
		kMove = c.K
	}
	V := c.V
	for j, t := range c.theta[:kMove] {
		if err := t.StepShape(c.s.HTheta, c.thetaShape[j*V:(j+1)*V]); err != nil {
			return fmt.Errorf("%s: θ_%d: %w", c.s.Method, j, err)
		}
	}
	if err := c.stick.StepShape(c.s.HStick, c.stickShape); err != nil {
		return fmt.Errorf("%s: sticks: %w", c.s.Method, err)
	}
	c.updateWeights()
	// α | v ~ Gamma(b1 + K, b2 − Σ_j log(1 − v_j)) (Escobar & West 1995).
	c.alpha = math.Exp(gammaLog(c.rng, c.prior.B1+float64(c.K))) / (c.prior.B2 - c.logRest)
	if !(c.alpha > 0) || math.IsInf(c.alpha, 1) {
		return fmt.Errorf("%s: iteration %d: α = %v", c.s.Method, c.iter+1, c.alpha)
	}
	c.iter++
	return nil
}

// drawBatch returns n distinct users (a partial Fisher–Yates shuffle of a
// persistent permutation), or all of them for n = N.
func (c *Chain) drawBatch() []int32 {
	if c.n == c.N {
		return c.perm
	}
	for k := range c.n {
		j := k + c.rng.IntN(c.N-k)
		c.perm[k], c.perm[j] = c.perm[j], c.perm[k]
	}
	return c.perm[:c.n]
}

// drawZ draws the component of user i given its slice variable.
func (c *Chain) drawZ(i int, logU float64, kStar int) {
	items := c.users.User(i)
	best := math.Inf(-1)
	V := c.V
	for j := range kStar {
		if c.logOmega[j] <= logU {
			c.w[j] = math.Inf(-1)
			continue
		}
		row := c.logTheta[j*V : (j+1)*V]
		var ll float64
		for _, v := range items {
			ll += row[v]
		}
		c.w[j] = ll
		best = max(best, ll)
	}
	old := c.z[i]
	if math.IsInf(best, -1) { // no candidate explains the user: keep it
		return
	}
	var sum float64
	for j := range kStar {
		sum += math.Exp(c.w[j] - best)
		c.w[j] = sum
	}
	t := c.rng.Float64() * sum
	k := 0
	for k < kStar-1 && c.w[k] <= t {
		k++
	}
	for k > 0 && c.w[k] == c.w[k-1] { // t rounded up to sum: back to a candidate
		k--
	}
	if int32(k) == old {
		return
	}
	c.z[i] = int32(k)
	c.occ[old]--
	if c.occ[old] == 0 {
		c.occupied--
		for c.top > 0 && c.occ[c.top-1] == 0 {
			c.top--
		}
	}
	if c.occ[k] == 0 {
		c.occupied++
		c.top = max(c.top, k+1)
	}
	c.occ[k]++
}

// TestLogLik returns the mean log predictive density per user of the test
// users under the current state,
//
//	log p(x | ω, θ) = log[ Σ_j ω_j Π_v θ_{jv}^{x_v} + ω_rest · p₀(x) ],
//
// the probability of the user's sequence of visits (without the
// multinomial coefficient), with ω_rest the weight beyond KMax and p₀ the
// Dirichlet-multinomial prior predictive. It allocates nothing.
func (c *Chain) TestLogLik(test *Users) float64 {
	c.logThetas(c.K)
	return mixtureLogLik(test, c.logOmega, c.logTheta, c.V, c.logRest, c.prior.A, c.w)
}

// mixtureLogLik is the mean over users of log[Σ_j exp(logOmega_j) f_j(x) +
// exp(logRest) p₀(x)], with w a scratch buffer of len(logOmega).
func mixtureLogLik(users *Users, logOmega, logTheta []float64, V int, logRest, a float64, w []float64) float64 {
	var total float64
	for i := range users.Len() {
		items := users.User(i)
		best := logRest + priorPredictive(items, a, V)
		extra := best
		for j, lo := range logOmega {
			row := logTheta[j*V : (j+1)*V]
			ll := lo
			for _, v := range items {
				ll += row[v]
			}
			w[j] = ll
			best = max(best, ll)
		}
		sum := math.Exp(extra - best)
		for _, l := range w[:len(logOmega)] {
			sum += math.Exp(l - best)
		}
		total += best + math.Log(sum)
	}
	return total / float64(users.Len())
}

// priorPredictive is log p₀(x) for the sequence of visits items under one
// component with θ ~ Dirichlet(a) on V areas: Π_t (a + c_t)/(Va + t), c_t
// the number of earlier visits to the same area.
func priorPredictive(items []int32, a float64, V int) float64 {
	var l float64
	for t, v := range items {
		var c int
		for _, u := range items[:t] {
			if u == v {
				c++
			}
		}
		l += math.Log((a + float64(c)) / (float64(V)*a + float64(t)))
	}
	return l
}

// exactSimplex draws every block afresh from its Dirichlet(â) at each
// StepShape (the step size is ignored): the exact conditional draws of the
// Gibbs sampler, in the samplers' interface.
type exactSimplex struct {
	block       int
	rng         *rand.Rand
	pos, logPos []float64
}

func newExactSimplex(theta0 []float64, block int, src rand.Source) *exactSimplex {
	e := &exactSimplex{block: block, rng: rand.New(src), pos: make([]float64, len(theta0)), logPos: make([]float64, len(theta0))}
	for lo := 0; lo < len(theta0); lo += block {
		var sum float64
		for _, v := range theta0[lo : lo+block] {
			sum += v
		}
		for j := lo; j < lo+block; j++ {
			e.pos[j] = theta0[j] / sum
			e.logPos[j] = math.Log(e.pos[j])
		}
	}
	return e
}

func (e *exactSimplex) Position() []float64 { return e.pos }

func (e *exactSimplex) LogPosition(dst []float64) []float64 {
	copy(dst, e.logPos)
	return dst
}

// StepShape replaces every block by a Dirichlet(ahat) draw, made as
// normalised Gamma(â_j) draws in log space.
func (e *exactSimplex) StepShape(_ float64, ahat []float64) error {
	if len(ahat) != len(e.pos) {
		return fmt.Errorf("shape has length %d, want %d", len(ahat), len(e.pos))
	}
	for j, a := range ahat {
		if !(a > 0) || math.IsInf(a, 1) {
			return fmt.Errorf("shape %d = %v, want positive and finite", j, a)
		}
	}
	for lo := 0; lo < len(ahat); lo += e.block {
		lp := e.logPos[lo : lo+e.block]
		m := math.Inf(-1)
		for j, a := range ahat[lo : lo+e.block] {
			lp[j] = gammaLog(e.rng, a)
			m = max(m, lp[j])
		}
		var sum float64
		for _, l := range lp {
			sum += math.Exp(l - m)
		}
		norm := m + math.Log(sum)
		for j := range lp {
			lp[j] -= norm
			e.pos[lo+j] = math.Exp(lp[j])
		}
	}
	return nil
}

// gammaLog returns the logarithm of a Gamma(a, 1) draw, by Marsaglia & Tsang
// (2000), for a < 1 as Gamma(a + 1)·U^{1/a} in log space so that it stays
// finite when the draw underflows.
func gammaLog(r *rand.Rand, a float64) float64 {
	var boost float64
	if a < 1 {
		boost = math.Log(1-r.Float64()) / a
		a++
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
			return math.Log(d*v) + boost
		}
	}
}
