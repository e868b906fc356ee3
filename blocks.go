// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
	"github.com/sgmcmc-go/sgmcmc/rng"
)

// Large-d steps on several cores.
//
// A sampler of dimension d ≥ parallelDim splits each step into fixed blocks
// of blockSize coordinates (the last one shorter). Each block has its own
// generator, seeded at construction from the chain's generator in block
// order, and its own partial sums, which are combined in block order. Which
// core runs which block therefore changes nothing: the draws are the same
// bits for any GOMAXPROCS. Below parallelDim a step is one block on the
// chain's generator. The package documentation states both numbers for
// users: they decide which generator draws what, not what is drawn.
const (
	// parallelDim is the smallest dimension whose steps are split into
	// blocks that run in parallel. Below it a step takes under 200 µs on
	// one core and the hand-off of blocks to other cores (tens of µs at
	// worst on a busy machine) would eat much of the gain; above it the
	// split costs under 5 % more CPU time than one block (BenchmarkStep's
	// cpu-ns/op with GOMAXPROCS 1 and 2).
	parallelDim = 1 << 16
	// blockSize is the number of coordinates in a block of a parallel step:
	// small enough that the blocks share out evenly between the cores (10⁵
	// coordinates make 7 blocks, 10⁶ make 62), large enough that handing
	// one out costs nothing next to its work (50 µs or so).
	blockSize = 1 << 14
)

// parallelMinDim and blockDim are parallelDim and blockSize, variables so
// that tests can exercise many blocks at a small dimension.
var (
	parallelMinDim = parallelDim
	blockDim       = blockSize
)

// split is the split of d coordinates into nb blocks of size coordinates
// (the last one shorter), fixed when a sampler is built.
type split struct{ d, nb, size int }

// blockSplit returns the split of a step over d coordinates: one block
// below parallelMinDim, blocks of blockDim coordinates from it on.
func blockSplit(d int) split {
	if d < parallelMinDim {
		return split{d: d, nb: 1, size: d}
	}
	return split{d: d, nb: (d + blockDim - 1) / blockDim, size: blockDim}
}

// rng returns the coordinates [lo, hi) of block k.
func (b split) rng(k int) (lo, hi int) {
	return k * b.size, min((k+1)*b.size, b.d)
}

// blockGen is a block's generator, padded so that no two blocks'
// generators share a cache line: each draw writes the generator's state,
// and cores writing one line in turn would wait on each other at every
// draw (SCIR draws per coordinate).
type blockGen struct {
	rng.Normal
	_ [64]byte
}

// blockGens returns nb generators seeded in block order from g (two words
// each), or nil if nb is 1 (the single block draws from g itself).
func blockGens(g *rng.Normal, nb int) []blockGen {
	if nb == 1 {
		return nil
	}
	gens := make([]blockGen, nb)
	for k := range gens {
		gens[k].Seed(g.Uint64(), g.Uint64())
	}
	return gens
}

// blockRunner is a step's work on one block.
type blockRunner interface{ runBlock(k int) }

// blockSet is a sampler's split of its steps into blocks: their
// generators, the generators' states at the start of the step (a failed
// step puts them back) and the job that runs them.
type blockSet struct {
	split
	chain *rng.Normal // the chain's generator, block 0's when nb is 1
	gens  []blockGen  // block generators, nil when nb is 1
	saves []blockGen
	job   *parfor.Job // runs the blocks on every core; nil when nb is 1
}

// newBlockSet splits d coordinates into blocks for run, seeding their
// generators from the chain's generator g.
func newBlockSet(run blockRunner, g *rng.Normal, d int) blockSet {
	b := blockSet{split: blockSplit(d), chain: g}
	b.gens = blockGens(g, b.nb)
	b.saves = make([]blockGen, len(b.gens))
	if b.nb > 1 {
		b.job = parfor.NewJob(run.runBlock)
	}
	return b
}

// gen returns block k's generator.
func (b *blockSet) gen(k int) *rng.Normal {
	if b.gens == nil {
		return b.chain
	}
	return &b.gens[k].Normal
}

// do runs every block of run once (run must be the blockRunner the set
// was made for).
func (b *blockSet) do(run blockRunner) {
	if b.job != nil {
		b.job.Run(b.nb)
		return
	}
	run.runBlock(0)
}

// save records the block generators' states; restore puts them back. The
// chain's generator is saved by the sampler.
func (b *blockSet) save()    { copy(b.saves, b.gens) }
func (b *blockSet) restore() { copy(b.gens, b.saves) }

// sources appends the block generators of a parallel step (none below
// parallelMinDim), in block order, to srcs: what a checkpoint keeps of them.
func (b *blockSet) sources(srcs []any) []any {
	for k := range b.gens {
		srcs = append(srcs, &b.gens[k].Normal)
	}
	return srcs
}
