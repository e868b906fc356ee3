// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/sgmcmc-go/sgmcmc"
)

// Problem is the posterior of the matrix factorisation of Section 4.3 of
// the HAMCMC paper,
//
//	W_ik ~ N(0, σ_w²),  H_kj ~ N(0, σ_h²),  X_ij ~ N(Σ_k W_ik H_kj, σ_x²),
//
// over the training ratings, with θ = (W row by row, then Hᵀ row by row):
// user i's factors at θ[i·K : (i+1)·K], item j's at θ[(I+j)·K : (I+j+1)·K].
//
// The ratings are cut into a Blocks × Blocks grid of disjoint blocks by
// fixed, contiguous ranges of users and of items. Stratum s is the set of
// blocks (b, (b+s) mod B), b = 0 … B−1: B blocks that share no user and no
// item, and together cover every user and every item (the paper's Figure
// 4, after Gemulla et al. 2011 and Ahn et al. 2015). The B strata partition
// the ratings.
type Problem struct {
	Users, Items, Rank, Blocks int
	// VarW, VarH and VarX are σ_w², σ_h² and σ_x².
	VarW, VarH, VarX float64

	n       int        // number of training ratings
	userCut []int      // user group b is [userCut[b], userCut[b+1])
	itemCut []int      // item group c is [itemCut[c], itemCut[c+1])
	blocks  [][]Rating // block (b, c) at b·B + c, sorted by user then item
	size    []int      // size[s] = |Ω_s|
	cum     []float64  // cumulative stratum probabilities |Ω_s| / N
}

// NewProblem partitions the training ratings of s into blocks×blocks
// blocks for a rank-K factorisation with unit variances.
func NewProblem(s *Split, rank, blocks int) (*Problem, error) {
	if rank <= 0 {
		return nil, fmt.Errorf("rank %d, want positive", rank)
	}
	if blocks <= 0 || blocks > min(s.Users, s.Items) {
		return nil, fmt.Errorf("%d blocks per side, want between 1 and %d", blocks, min(s.Users, s.Items))
	}
	if len(s.Train) == 0 {
		return nil, errors.New("no training ratings")
	}
	p := &Problem{Users: s.Users, Items: s.Items, Rank: rank, Blocks: blocks, VarW: 1, VarH: 1, VarX: 1,
		n: len(s.Train), userCut: cuts(s.Users, blocks), itemCut: cuts(s.Items, blocks),
		blocks: make([][]Rating, blocks*blocks), size: make([]int, blocks), cum: make([]float64, blocks)}
	ug, ig := groupOf(p.userCut, s.Users), groupOf(p.itemCut, s.Items)
	for _, o := range s.Train {
		if int(o.User) >= s.Users || int(o.Item) >= s.Items || o.User < 0 || o.Item < 0 {
			return nil, fmt.Errorf("rating (%d, %d) outside the %d × %d matrix", o.User, o.Item, s.Users, s.Items)
		}
		b, c := ug[o.User], ig[o.Item]
		p.blocks[b*blocks+c] = append(p.blocks[b*blocks+c], o)
		p.size[(c-b+blocks)%blocks]++
	}
	for _, bl := range p.blocks {
		sort.Slice(bl, func(x, y int) bool {
			if bl[x].User != bl[y].User {
				return bl[x].User < bl[y].User
			}
			return bl[x].Item < bl[y].Item
		})
	}
	var acc float64
	for st, sz := range p.size {
		acc += float64(sz) / float64(p.n)
		p.cum[st] = acc
	}
	p.cum[blocks-1] = 1
	return p, nil
}

// cuts splits 0 … n−1 into b contiguous ranges of nearly equal length.
func cuts(n, b int) []int {
	c := make([]int, b+1)
	for k := range c {
		c[k] = k * n / b
	}
	return c
}

func groupOf(cut []int, n int) []int {
	g := make([]int, n)
	for k := 0; k+1 < len(cut); k++ {
		for i := cut[k]; i < cut[k+1]; i++ {
			g[i] = k
		}
	}
	return g
}

// Dim returns the number of parameters (I + J)·K.
func (p *Problem) Dim() int { return (p.Users + p.Items) * p.Rank }

// Len returns the number of training ratings.
func (p *Problem) Len() int { return p.n }

// StratumSizes returns |Ω_s| for each stratum.
func (p *Problem) StratumSizes() []int { return append([]int(nil), p.size...) }

// Predict returns the prediction Σ_k W_ik H_kj of rating (i, j) at θ.
func (p *Problem) Predict(theta []float64, user, item int32) float64 {
	k := p.Rank
	w := theta[int(user)*k : int(user)*k+k]
	h := theta[(p.Users+int(item))*k : (p.Users+int(item))*k+k]
	var s float64
	for q, wq := range w {
		s += wq * h[q]
	}
	return s
}

// Init writes a starting point into theta: every factor N(0, sd²).
func (p *Problem) Init(theta []float64, sd float64, rng *rand.Rand) {
	for i := range theta {
		theta[i] = sd * rng.NormFloat64()
	}
}

// block adds the contribution of block (b, c) to the gradient of U over a
// stratum: it sets the prior terms of user group b and item group c, then
// subtracts scale · Σ (x − wᵀh) ∂(wᵀh)/∂θ / σ_x² over the block's ratings.
func (p *Problem) block(dst, theta []float64, b, c int, scale float64) {
	k := p.Rank
	wlo, whi := p.userCut[b]*k, p.userCut[b+1]*k
	for i := wlo; i < whi; i++ {
		dst[i] = theta[i] / p.VarW
	}
	hlo, hhi := (p.Users+p.itemCut[c])*k, (p.Users+p.itemCut[c+1])*k
	for i := hlo; i < hhi; i++ {
		dst[i] = theta[i] / p.VarH
	}
	sc := scale / p.VarX
	for _, o := range p.blocks[b*p.Blocks+c] {
		wo := int(o.User) * k
		ho := (p.Users + int(o.Item)) * k
		w := theta[wo : wo+k]
		h := theta[ho : ho+k]
		var pred float64
		for q, wq := range w {
			pred += wq * h[q]
		}
		e := sc * (o.Value - pred)
		gw := dst[wo : wo+k]
		gh := dst[ho : ho+k]
		for q, wq := range w {
			gw[q] -= e * h[q]
			gh[q] -= e * wq
		}
	}
}

// BlockGradient is the stochastic gradient of the paper's distributed
// samplers: each minibatch Ω is one stratum, chosen with probability
// |Ω_s|/N, and its likelihood gradient is scaled by N/|Ω_s|, so that the
// estimate of ∇U is unbiased. The B blocks of a stratum touch disjoint
// parts of θ, so they are computed in parallel by the calling goroutine and
// workers−1 helpers (the paper's B computers) and the result is the same, bit for bit, for any
// number of workers or GOMAXPROCS.
//
// It implements sgmcmc.Gradient (a fresh stratum per call) and
// sgmcmc.SameBatchGradient, so that HAMCMC evaluates both gradients of a
// curvature pair on one stratum.
type BlockGradient struct {
	p       *Problem
	rng     *rand.Rand
	stratum int
	workers int
	evals   int

	// shared with the workers during one evaluation
	dst, theta []float64
	scale      float64
	nextBlock  atomic.Int64
	wake       chan struct{}
	wg         sync.WaitGroup
	closeOnce  sync.Once
}

var (
	_ sgmcmc.Gradient          = (*BlockGradient)(nil)
	_ sgmcmc.SameBatchGradient = (*BlockGradient)(nil)
)

// NewBlockGradient returns the stratified gradient of p, drawing strata
// from src and computing blocks on the given number of goroutines (1 means
// on the caller's). Close releases the goroutines.
func NewBlockGradient(p *Problem, src rand.Source, workers int) (*BlockGradient, error) {
	if src == nil {
		return nil, errors.New("NewBlockGradient: nil random source")
	}
	if workers < 1 {
		return nil, fmt.Errorf("NewBlockGradient: %d workers, want ≥ 1", workers)
	}
	g := &BlockGradient{p: p, rng: rand.New(src), workers: min(workers, p.Blocks)}
	if g.workers > 1 {
		g.wake = make(chan struct{}, g.workers-1)
		for range g.workers - 1 {
			go g.work()
		}
	}
	g.NewBatch()
	return g, nil
}

// work is a helper goroutine: at each wake-up it claims blocks until none
// is left.
func (g *BlockGradient) work() {
	for range g.wake {
		g.claim()
		g.wg.Done()
	}
}

// claim computes unclaimed blocks of the current stratum until none is left.
func (g *BlockGradient) claim() {
	for {
		b := int(g.nextBlock.Add(1)) - 1
		if b >= g.p.Blocks {
			return
		}
		g.p.block(g.dst, g.theta, b, (b+g.stratum)%g.p.Blocks, g.scale)
	}
}

// Close stops the worker goroutines. The gradient must not be used after.
func (g *BlockGradient) Close() {
	g.closeOnce.Do(func() {
		if g.wake != nil {
			close(g.wake)
		}
	})
}

// NewBatch draws the next stratum s with probability |Ω_s|/N.
func (g *BlockGradient) NewBatch() {
	u := g.rng.Float64()
	s := 0
	for s < len(g.p.cum)-1 && u >= g.p.cum[s] {
		s++
	}
	g.stratum = s
}

// Dim returns the dimension of θ (the library checks it against θ₀).
func (g *BlockGradient) Dim() int { return g.p.Dim() }

// Stratum returns the current stratum.
func (g *BlockGradient) Stratum() int { return g.stratum }

// Evals returns the number of gradient evaluations so far.
func (g *BlockGradient) Evals() int { return g.evals }

// GradSameBatch writes ∇Ũ_Ω(θ) for the current stratum Ω into dst.
func (g *BlockGradient) GradSameBatch(dst, theta []float64) {
	p := g.p
	g.evals++
	scale := float64(p.n) / float64(p.size[g.stratum])
	if g.workers == 1 {
		for b := range p.Blocks {
			p.block(dst, theta, b, (b+g.stratum)%p.Blocks, scale)
		}
		return
	}
	g.dst, g.theta, g.scale = dst, theta, scale
	g.nextBlock.Store(0)
	g.wg.Add(g.workers - 1)
	for range g.workers - 1 {
		g.wake <- struct{}{}
	}
	g.claim()
	g.wg.Wait()
	g.dst, g.theta = nil, nil
}

// Grad draws a new stratum and writes its gradient into dst.
func (g *BlockGradient) Grad(dst, theta []float64) {
	g.NewBatch()
	g.GradSameBatch(dst, theta)
}
