// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"

	"github.com/sgmcmc-go/sgmcmc/sample"
)

// numChains is the number of chains of every run.
const numChains = 4

// runner runs one method on one target: it returns the kept draws of each
// chain in the model's unconstrained space (chain × draw × parameter),
// what the run reported, and its error; on error, the draws kept before it
// (any chain may be shorter or nil).
type runner func(ctx context.Context, t *Target, method string, seed uint64, draws int) ([][][]float64, runInfo, error)

// methodByName maps the row names of the methods to sample.Run's methods.
var methodByName = map[string]sample.Method{
	"SGLD":   sample.SGLD{},
	"SGHMC":  sample.SGHMC{},
	"SGNHT":  sample.SGNHT{},
	"HAMCMC": sample.HAMCMC{},
	"pSGLD":  sample.PSGLD{},
	// Not in Methods (the default rows): run by -methods.
	"ReplicaExchange": sample.ReplicaExchange{},
}

// runMethod is the runner of the example: one call of sample.Run with
// every setting at its default but the number of draws, from the user's
// start t.Start, with the model wrapped to count its evaluations.
func runMethod(ctx context.Context, t *Target, method string, seed uint64, draws int) ([][][]float64, runInfo, error) {
	var info runInfo
	m, ok := methodByName[method]
	if !ok {
		m, ok = baselineMethod(method)
	}
	if !ok {
		return nil, info, fmt.Errorf("unknown method %q (have %v)", method, Methods)
	}
	cm, err := newCountingModel(t.Model)
	if err != nil {
		return nil, info, err
	}
	res, err := sample.Run(ctx, sample.Problem{Model: cm, Names: t.UNames}, t.Start,
		&sample.Settings{Chains: numChains, Draws: draws, Seed: seed}, m)
	cm.info(&info)
	if res == nil {
		return nil, info, err
	}
	info.Divergences = res.Divergences
	info.Warnings = res.Warnings.Messages()
	info.WarmupGradEvals = res.WarmupGradEvals
	info.SampleGradEvals = res.GradEvals - res.SetupGradEvals
	info.SetupEvals = res.SetupGradEvals
	for _, a := range res.Adapted {
		if a.BatchSize > info.BatchSize {
			info.BatchSize = a.BatchSize
		}
	}
	// The chains that ran to the end: one that failed alone is left out,
	// as the summary leaves it, and the Failed warning says so. A run that
	// failed as a whole keeps every chain's draws so far (RunRow cuts
	// them to the shortest).
	use := res.Finished()
	if err != nil {
		use = res.Chains
	}
	var out [][][]float64
	for _, ch := range use {
		x := make([][]float64, ch.Len())
		for i := range x {
			x[i] = ch.At(i)
		}
		out = append(out, x)
	}
	return out, info, err
}
