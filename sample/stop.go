// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/sgmcmc-go/sgmcmc"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// A run that stops early, and chains that fail. Run has one contract for
// every way a run or a chain can end before it has kept its Draws.
//
// A chain that fails on its own — a divergence, a non-finite gradient, a
// panic in user code recovered as a *PanicError, an error of its warmup —
// stops; the other chains run to the end. Result.Errors holds its
// *ChainError, the summary and its diagnostics leave it out, and a Failed
// warning names it, with the draws it kept. Run returns an error (the
// first failed chain's) only when no chain that did not fail has draws.
//
// The run as a whole stops when ctx is cancelled or when the Callback
// ends a chain's run (ErrStop, or an error of its own). Run then returns
// a partial *Result together with an error wrapping the cause (ctx.Err(),
// or the *ChainError of the lowest-numbered chain the Callback stopped,
// wrapping ErrStop). The partial Result holds every chain's draws kept
// so far (an empty chain for one that stopped in warmup: Result.Chains
// never holds nil), its Adapted settings as far as warmup got, the
// evaluation counts, a Summary of the chains that kept at least
// diagnostics.MinDraws draws, cut to the shortest of them, with the
// warnings it implies, and first a Stopped warning saying that the run
// stopped early, why, and how many draws each chain kept. Only an error
// found before any chain starts (invalid arguments, too little memory)
// returns a nil Result.

// summarise fills in r's Summary and Warnings from the chains' draws, for
// a run that ran to the end or stopped early, and returns runErr, or an
// error of the summary's own.
func (r *Result) summarise(names []string, s *Settings, ids []int, runErr error, failed []int) error {
	n := s.Draws
	var use []*sgmcmc.Chain
	var kept []string
	short := false
	for c, ch := range r.Chains {
		if slices.Contains(failed, c) && runErr == nil {
			// A chain that failed alone: the Failed warning names it.
			continue
		}
		k := ch.Len()
		kept = append(kept, fmt.Sprintf("chain %d %d", ids[c], k))
		short = short || k < s.Draws
		if k >= diagnostics.MinDraws {
			use = append(use, ch)
			n = min(n, k)
		}
	}
	var early string
	if runErr != nil || short {
		cause := "a chain stopped early"
		if runErr != nil {
			cause = inWords(runErr)
		}
		early = fmt.Sprintf("the run stopped early (%s); draws kept of %d per chain: %s", cause, s.Draws, strings.Join(kept, ", "))
		switch {
		case len(use) == 0:
			early += fmt.Sprintf("; no chain kept the %d draws a summary needs", diagnostics.MinDraws)
		case len(use) < len(kept) || n < s.Draws:
			early += fmt.Sprintf("; the summary covers the first %d draws of the %d chains that have them", n, len(use))
		}
		r.Warnings = append(Warnings{runWarning(Stopped, "", "%s", early)}, r.Warnings...)
	}
	if len(use) == 0 {
		return runErr
	}
	cut := use
	if n < s.Draws {
		cut = make([]*sgmcmc.Chain, len(use))
		for k, ch := range use {
			cut[k] = &sgmcmc.Chain{Dim: ch.Dim, Draws: ch.Draws[:n*ch.Dim], Eps: ch.Eps[:n]}
		}
	}
	if cs := use[0].Coords; cs != nil {
		// The chains keep some coordinates' draws (DrawsMemory): the
		// summary covers those, by their own names.
		sub := make([]string, len(cs))
		for k, j := range cs {
			sub[k] = fmt.Sprintf("theta.%d", j+1)
			if names != nil {
				sub[k] = names[j]
			}
		}
		names = sub
	}
	t, err := diagnostics.NewTable(names, cut)
	if err != nil {
		if runErr != nil {
			return runErr
		}
		return valid.Errorf(nil, "Sample: summary: %w", err)
	}
	r.Summary = t
	r.Warnings = append(r.Warnings, sampleWarnings(r, s, len(use))...)
	if r.Moments != nil && use[0].Coords != nil {
		r.Warnings = append(r.Warnings, momentWarnings(r.Moments, len(use))...)
	}
	return runErr
}

// stopCause turns a sampling run that returned without error but short of
// its draws — its callback returned ErrStop — into an error saying so.
func stopCause(zc *sgmcmc.Chain, want, burnIn int) error {
	if zc == nil || zc.Len() >= want {
		return nil
	}
	if zc.Len() == 0 {
		return valid.Errorf(sgmcmc.ErrStop, "stopped by the callback before the first kept draw (step %d; burn-in is %d steps)", zc.Steps, burnIn)
	}
	return valid.Errorf(sgmcmc.ErrStop, "stopped by the callback at step %d, after %d of %d draws", zc.Steps, zc.Len(), want)
}

// warmupMatrices is about the largest number of d × d matrices one
// chain's dense warmup holds at once, and warmupVectors the largest number
// of d-vectors one chain's large-d warmup holds (the Lanczos basis of
// lowRankSteps vectors and a few dozen more).
const (
	warmupMatrices = 12
	warmupVectors  = lowRankSteps + 40
)

// checkSampleMemory compares what a Run will hold at its peak —
// the draws of every chain and the warmup of the chains running at once —
// with the memory limit. Up to DenseMax a chain keeps d-vectors of θ and
// z per draw and its warmup d × d matrices; above it, the draws
// DrawsMemory allows, running moments and batch means (batchMeans + 4
// d-vectors per chain) and warmupVectors d-vectors.
func checkSampleMemory(d int, s *Settings) error {
	k := s.Chains
	if s.ChainIDs != nil {
		k = len(s.ChainIDs)
	}
	running := min(k, runtime.GOMAXPROCS(0))
	if d <= s.DenseMax {
		draws := valid.FloatBytes(k, s.Draws, 2*d+3)
		warm := valid.FloatBytes(running, warmupMatrices, d, d)
		return valid.CheckMemory(sgmcmc.ErrRange, "Sample", fmt.Sprintf("%d chains × %d draws × %d parameters (%s) and warmup's d × d matrices (%s; DenseMax = %d)",
			k, s.Draws, d, valid.ByteSize(draws), valid.ByteSize(warm), s.DenseMax), draws+warm, s.MemoryLimit)
	}
	w := d
	if cs := keptCoords(d, k, s.Draws, s.DrawsMemory); cs != nil {
		w = len(cs)
	}
	draws := valid.FloatBytes(k, s.Draws, w+3) + valid.FloatBytes(k, batchMeans+4, d)
	warm := valid.FloatBytes(running, warmupVectors, d)
	return valid.CheckMemory(sgmcmc.ErrRange, "Sample", fmt.Sprintf("%d chains × %d draws of %d of the %d parameters with their moments (%s) and warmup's vectors (%s)",
		k, s.Draws, w, d, valid.ByteSize(draws), valid.ByteSize(warm)), draws+warm, s.MemoryLimit)
}

// inWords is an error's message for a warning that quotes it: without the
// package prefix its errors begin with.
func inWords(e error) string { return strings.TrimPrefix(e.Error(), "sgmcmc: ") }
