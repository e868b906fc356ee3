// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Model is LDA with K topics, a symmetric Dirichlet(α) prior on each
// document's topic mixture and a symmetric Dirichlet(β) prior on each topic's
// word distribution φ_k.
type Model struct {
	K           int
	Alpha, Beta float64
}

func (m Model) validate() error {
	if m.K < 1 {
		return fmt.Errorf("number of topics K = %d: want at least 1", m.K)
	}
	if !(m.Alpha > 0) || math.IsInf(m.Alpha, 0) || !(m.Beta > 0) || math.IsInf(m.Beta, 0) {
		return fmt.Errorf("α = %g, β = %g: both must be positive and finite", m.Alpha, m.Beta)
	}
	return nil
}

// localGibbs samples the topic assignments z of one document given the
// topics, with the document's mixture integrated out:
//
//	p(z_i = k | z_−i, φ) ∝ (n_dk^(−i) + α) φ_k,w_i.
//
// It holds its buffers and allocates nothing after construction.
type localGibbs struct {
	k     int
	alpha float64
	z     []int32   // assignments of the current document
	ndk   []int32   // topic counts of the current document
	cum   []float64 // cumulative weights
	rng   *rand.Rand
}

func newLocalGibbs(k int, alpha float64, maxLen int, rng *rand.Rand) *localGibbs {
	return &localGibbs{k: k, alpha: alpha, z: make([]int32, maxLen), ndk: make([]int32, k), cum: make([]float64, k), rng: rng}
}

// draw samples a topic for word w from (ndk + α) φT[w], with ndk excluding
// the token being drawn. If every weight is zero it draws uniformly.
func (l *localGibbs) draw(phiW []float64) int32 {
	cum := l.cum
	s := 0.0
	for k, p := range phiW[:len(cum)] {
		s += (float64(l.ndk[k]) + l.alpha) * p
		cum[k] = s
	}
	if !(s > 0) {
		return int32(l.rng.IntN(l.k))
	}
	u := l.rng.Float64() * s
	for k, c := range cum {
		if u < c {
			return int32(k)
		}
	}
	return int32(l.k - 1)
}

// init assigns the document's tokens one by one, each drawn given the
// assignments before it.
func (l *localGibbs) init(doc []int32, phiT []float64) {
	clear(l.ndk)
	k := l.k
	for i, w := range doc {
		t := l.draw(phiT[int(w)*k : int(w)*k+k])
		l.z[i] = t
		l.ndk[t]++
	}
}

// sweep resamples every token of the document once.
func (l *localGibbs) sweep(doc []int32, phiT []float64) {
	k := l.k
	for i, w := range doc {
		l.ndk[l.z[i]]--
		t := l.draw(phiT[int(w)*k : int(w)*k+k])
		l.z[i] = t
		l.ndk[t]++
	}
}

// Local is the local sampler's schedule: Burn sweeps discarded, then Keep
// sweeps whose counts are averaged.
type Local struct {
	Burn, Keep int
}

// split divides each held-out document's tokens at random into an
// estimation half (the first ⌈n/2⌉ after shuffling) and a scored half, for
// document completion (Wallach et al. 2009).
type split struct {
	est, score *Corpus
}

func newSplit(c *Corpus, seed uint64) split {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	est := &Corpus{W: c.W, Start: []int32{0}}
	score := &Corpus{W: c.W, Start: []int32{0}}
	buf := make([]int32, 0, 1024)
	for d := range c.Len() {
		buf = append(buf[:0], c.Doc(d)...)
		rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
		h := (len(buf) + 1) / 2
		if len(buf) < 2 {
			continue
		}
		est.Words = append(est.Words, buf[:h]...)
		est.Start = append(est.Start, int32(len(est.Words)))
		score.Words = append(score.Words, buf[h:]...)
		score.Start = append(score.Start, int32(len(score.Words)))
	}
	return split{est: est, score: score}
}

// Evaluator computes document-completion perplexities on held-out documents:
// for each document the topic mixture is estimated from its estimation half
// by the local Gibbs sampler given the topics (the mixture
// (n_dk + α)/(n_d + Kα) averaged over the kept sweeps), and the scored half
// is scored by p(w) = Σ_k θ̂_dk φ_kw. The perplexity is
// exp(−Σ log p(w) / #scored tokens). It allocates nothing per call.
type Evaluator struct {
	model Model
	sp    split
	sched Local
	lg    *localGibbs
	theta []float64
	seed  uint64
	src   *rand.PCG
}

// NewEvaluator prepares the split of test (fixed by seed) and the buffers.
func NewEvaluator(m Model, test *Corpus, sched Local, seed uint64) *Evaluator {
	sp := newSplit(test, seed)
	maxLen := 0
	for d := range sp.est.Len() {
		maxLen = max(maxLen, len(sp.est.Doc(d)))
	}
	src := rand.NewPCG(seed, 1)
	return &Evaluator{model: m, sp: sp, sched: sched, lg: newLocalGibbs(m.K, m.Alpha, maxLen, rand.New(src)),
		theta: make([]float64, m.K), seed: seed, src: src}
}

// clone returns an evaluator on the same split with its own buffers and
// random stream, for another goroutine.
func (e *Evaluator) clone() *Evaluator {
	src := rand.NewPCG(e.seed, 1)
	return &Evaluator{model: e.model, sp: e.sp, sched: e.sched, lg: newLocalGibbs(e.model.K, e.model.Alpha, len(e.lg.z), rand.New(src)),
		theta: make([]float64, e.model.K), seed: e.seed, src: src}
}

// ScoredTokens returns the number of scored tokens.
func (e *Evaluator) ScoredTokens() int { return e.sp.score.Tokens() }

// Perplexity returns the perplexity of the held-out documents under the
// topics phiT, stored word-major (phiT[w*K+k] = φ_kw, each topic summing to
// one over w). The local sampler's random stream restarts from the same
// state at every call (common random numbers across methods and
// checkpoints).
func (e *Evaluator) Perplexity(phiT []float64) float64 {
	e.src.Seed(e.seed, 1)
	k := e.model.K
	ka := float64(k) * e.model.Alpha
	ll := 0.0
	for d := range e.sp.est.Len() {
		doc := e.sp.est.Doc(d)
		e.lg.init(doc, phiT)
		for range e.sched.Burn {
			e.lg.sweep(doc, phiT)
		}
		clear(e.theta)
		for range e.sched.Keep {
			e.lg.sweep(doc, phiT)
			for j, n := range e.lg.ndk {
				e.theta[j] += float64(n) + e.model.Alpha
			}
		}
		norm := float64(e.sched.Keep) * (float64(len(doc)) + ka)
		for _, w := range e.sp.score.Doc(d) {
			p := 0.0
			for j, f := range phiT[int(w)*k : int(w)*k+k] {
				p += e.theta[j] * f
			}
			ll += math.Log(p / norm)
		}
	}
	return math.Exp(-ll / float64(e.sp.score.Tokens()))
}

// UnigramPerplexity is the perplexity of the scored halves under the
// smoothed unigram model p(w) = (c_w + λ)/(N + Wλ) of the training counts.
func (e *Evaluator) UnigramPerplexity(train *Corpus, lambda float64) float64 {
	c := make([]float64, train.W)
	for _, w := range train.Words {
		c[w]++
	}
	den := float64(train.Tokens()) + float64(train.W)*lambda
	ll := 0.0
	for _, w := range e.sp.score.Words {
		ll += math.Log((c[w] + lambda) / den)
	}
	return math.Exp(-ll / float64(e.sp.score.Tokens()))
}

// Collapsed is the collapsed Gibbs sampler of Griffiths & Steyvers (2004)
// over a whole corpus: each sweep resamples every token's topic from
//
//	p(z_i = k | z_−i) ∝ (n_dk + α)(n_kw + β)/(n_k + Wβ),
//
// counts excluding token i. A sweep allocates nothing.
type Collapsed struct {
	model Model
	c     *Corpus
	z     []int32
	nkw   []int32 // word-major: nkw[w*K+k]
	nk    []int32
	ndk   []int32 // ndk[d*K+k]
	inv   []float64
	cum   []float64
	rng   *rand.Rand
}

// NewCollapsed initialises the assignments by one sequential pass that
// draws each token given the ones before it.
func NewCollapsed(m Model, c *Corpus, src rand.Source) (*Collapsed, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	if src == nil {
		return nil, errors.New("nil random source")
	}
	k := m.K
	g := &Collapsed{model: m, c: c, z: make([]int32, c.Tokens()), nkw: make([]int32, c.W*k), nk: make([]int32, k),
		ndk: make([]int32, c.Len()*k), inv: make([]float64, k), cum: make([]float64, k), rng: rand.New(src)}
	wb := float64(c.W) * m.Beta
	for j := range g.inv {
		g.inv[j] = 1 / wb
	}
	for d := range c.Len() {
		for i := c.Start[d]; i < c.Start[d+1]; i++ {
			t := g.draw(d, c.Words[i])
			g.add(d, i, t)
		}
	}
	return g, nil
}

func (g *Collapsed) add(d int, i int32, t int32) {
	k := g.model.K
	w := int(g.c.Words[i])
	g.z[i] = t
	g.nkw[w*k+int(t)]++
	g.ndk[d*k+int(t)]++
	g.nk[t]++
	g.inv[t] = 1 / (float64(g.nk[t]) + float64(g.c.W)*g.model.Beta)
}

func (g *Collapsed) remove(d int, i int32) {
	k := g.model.K
	w := int(g.c.Words[i])
	t := g.z[i]
	g.nkw[w*k+int(t)]--
	g.ndk[d*k+int(t)]--
	g.nk[t]--
	g.inv[t] = 1 / (float64(g.nk[t]) + float64(g.c.W)*g.model.Beta)
}

func (g *Collapsed) draw(d int, w int32) int32 {
	k := g.model.K
	nkw := g.nkw[int(w)*k : int(w)*k+k]
	ndk := g.ndk[d*k : d*k+k]
	inv := g.inv[:k]
	cum := g.cum[:k]
	a, b := g.model.Alpha, g.model.Beta
	s := 0.0
	for j := range cum {
		s += (float64(ndk[j]) + a) * (float64(nkw[j]) + b) * inv[j]
		cum[j] = s
	}
	u := g.rng.Float64() * s
	for j, c := range cum {
		if u < c {
			return int32(j)
		}
	}
	return int32(k - 1)
}

// Sweep resamples every token once.
func (g *Collapsed) Sweep() {
	for d := range g.c.Len() {
		for i := g.c.Start[d]; i < g.c.Start[d+1]; i++ {
			g.remove(d, i)
			g.add(d, i, g.draw(d, g.c.Words[i]))
		}
	}
}

// AddPhi adds the Rao–Blackwellised topics φ_kw = (n_kw + β)/(n_k + Wβ) of
// the current state to phiT (word-major).
func (g *Collapsed) AddPhi(phiT []float64) {
	k := g.model.K
	for w := range g.c.W {
		for j := range k {
			phiT[w*k+j] += (float64(g.nkw[w*k+j]) + g.model.Beta) * g.inv[j]
		}
	}
}
