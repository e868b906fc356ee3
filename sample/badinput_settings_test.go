// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
)

// badRules is a method of the user's with the given rules.
type badRules struct {
	SGLD
	r Rules
}

func (m badRules) Rules(int) Rules { return m.r }

// TestBadInputSettings is the catalogue of Run's settings and methods:
// each bad value is an error naming the setting and the value before any
// chain starts (none of these runs spends a gradient evaluation: the
// model panics if it is asked for one).
func TestBadInputSettings(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	p := Problem{Model: newPanicModel("lik", 0)} // any evaluation panics
	theta0 := []float64{0.5, -0.5}
	run := func(s *Settings, m Method) func() error {
		return func() error { _, err := Run(context.Background(), p, theta0, s, m); return err }
	}
	with := func(f func(*Settings)) *Settings {
		s := &Settings{Seed: 1, Chains: 2, Draws: 100}
		f(s)
		return s
	}
	var nilFile *os.File
	cases := []badCase{
		{name: "Run ProgressEvery negative", run: run(with(func(s *Settings) { s.ProgressEvery = -time.Second; s.Progress = os.Stderr }), nil), want: sgmcmc.ErrRange, substr: "ProgressEvery = -1s"},
		{name: "Run ProgressEvery negative without Progress", run: run(with(func(s *Settings) { s.ProgressEvery = -1 }), nil), want: sgmcmc.ErrRange, substr: "ProgressEvery"},
		{name: "Run Progress a nil *os.File", run: run(with(func(s *Settings) { s.Progress = nilFile }), nil), want: sgmcmc.ErrNil, substr: "nil *os.File"},
		{name: "Run Temperature negative", run: run(with(func(s *Settings) { s.Temperature = -1 }), nil), want: sgmcmc.ErrRange, substr: "Temperature = -1"},
		{name: "Run Temperature NaN", run: run(with(func(s *Settings) { s.Temperature = nan }), nil), want: sgmcmc.ErrRange, substr: "Temperature = NaN"},
		{name: "Run Temperature +Inf", run: run(with(func(s *Settings) { s.Temperature = inf }), nil), want: sgmcmc.ErrRange, substr: "Temperature = +Inf"},
		{name: "Run MaxHeat negative", run: run(with(func(s *Settings) { s.MaxHeat = -0.1 }), nil), want: sgmcmc.ErrRange, substr: "MaxHeat = -0.1"},
		{name: "Run MaxHeat NaN", run: run(with(func(s *Settings) { s.MaxHeat = nan }), nil), want: sgmcmc.ErrRange, substr: "MaxHeat = NaN"},
		{name: "Run StartScale +Inf", run: run(with(func(s *Settings) { s.StartScale = inf }), nil), want: sgmcmc.ErrRange, substr: "StartScale = +Inf"},
		{name: "Run Draws negative", run: run(with(func(s *Settings) { s.Draws = -5 }), nil), want: sgmcmc.ErrRange, substr: "Draws = -5"},
		{name: "Run Thin negative", run: run(with(func(s *Settings) { s.Thin = -1 }), nil), want: sgmcmc.ErrRange, substr: "Thin = -1"},
		{name: "Run Rounds negative", run: run(with(func(s *Settings) { s.Rounds = -2 }), nil), want: sgmcmc.ErrRange, substr: "Rounds = -2"},
		{name: "Run DenseMax negative", run: run(with(func(s *Settings) { s.DenseMax = -1 }), nil), want: sgmcmc.ErrRange, substr: "DenseMax = -1"},
		{name: "Run DrawsMemory negative", run: run(with(func(s *Settings) { s.DrawsMemory = -1 }), nil), want: sgmcmc.ErrRange, substr: "DrawsMemory = -1"},
		{name: "Run BatchSize past the data", run: run(with(func(s *Settings) { s.BatchSize = 1001 }), nil), want: sgmcmc.ErrRange, substr: "BatchSize = 1001"},
		{name: "Run BatchSize negative", run: run(with(func(s *Settings) { s.BatchSize = -1 }), nil), want: sgmcmc.ErrRange, substr: "BatchSize = -1"},
		{name: "Run theta0 NaN", run: func() error { _, err := Run(context.Background(), p, []float64{nan, 0}, nil, nil); return err }, want: sgmcmc.ErrNonFinite, substr: "theta0[0] = NaN"},
		{name: "Run theta0 of the wrong length", run: func() error { _, err := Run(context.Background(), p, []float64{0}, nil, nil); return err }, want: sgmcmc.ErrDimension, substr: "dimension 2"},
		{name: "Run names of the wrong length", run: func() error {
			_, err := Run(context.Background(), Problem{Model: p.Model, Names: []string{"a"}}, theta0, nil, nil)
			return err
		}, want: sgmcmc.ErrDimension, substr: "1 names for 2 parameters"},
		{name: "Run names repeated", run: func() error {
			_, err := Run(context.Background(), Problem{Model: p.Model, Names: []string{"a", "a"}}, theta0, nil, nil)
			return err
		}, want: sgmcmc.ErrRange, substr: "repeated"},
		{name: "Run ReplicaExchange a million replicas", run: run(nil, ReplicaExchange{Replicas: 1_000_000}), want: sgmcmc.ErrRange, substr: "Replicas = 1000000"},
		{name: "Run ReplicaExchange one replica", run: run(nil, ReplicaExchange{Replicas: 1}), want: sgmcmc.ErrRange, substr: "Replicas = 1,"},
		{name: "Run ReplicaExchange negative replicas", run: run(nil, ReplicaExchange{Replicas: -3}), want: sgmcmc.ErrRange, substr: "Replicas = -3"},
		{name: "Run ReplicaExchange MaxTemperature 1", run: run(nil, ReplicaExchange{MaxTemperature: 1}), want: sgmcmc.ErrRange, substr: "MaxTemperature = 1"},
		{name: "Run ReplicaExchange MaxTemperature NaN", run: run(nil, ReplicaExchange{MaxTemperature: nan}), want: sgmcmc.ErrRange, substr: "MaxTemperature = NaN"},
		{name: "Run ReplicaExchange MaxTemperature +Inf", run: run(nil, ReplicaExchange{MaxTemperature: inf}), want: sgmcmc.ErrRange, substr: "MaxTemperature = +Inf"},
		{name: "Run ReplicaExchange SwapEvery negative", run: run(nil, ReplicaExchange{SwapEvery: -1}), want: sgmcmc.ErrRange, substr: "SwapEvery = -1"},
		{name: "Run ReplicaExchange with a momentum base", run: run(nil, ReplicaExchange{Base: SGHMC{}}), want: sgmcmc.ErrUnsupported, substr: "momentum"},
		{name: "Run method StepConstant 0", run: run(nil, badRules{r: Rules{}}), want: sgmcmc.ErrRange, substr: "StepConstant = 0"},
		{name: "Run method StepConstant NaN", run: run(nil, badRules{r: Rules{StepConstant: nan}}), want: sgmcmc.ErrRange, substr: "StepConstant = NaN"},
		{name: "Run method MinFriction negative", run: run(nil, badRules{r: Rules{StepConstant: 0.1, MinFriction: -1}}), want: sgmcmc.ErrRange, substr: "MinFriction = -1"},
		{name: "Run method GradsPerStep negative", run: run(nil, badRules{r: Rules{StepConstant: 0.1, GradsPerStep: -2}}), want: sgmcmc.ErrRange, substr: "GradsPerStep = -2"},
		{name: "Run method GradsPerStep +Inf", run: run(nil, badRules{r: Rules{StepConstant: 0.1, GradsPerStep: inf}}), want: sgmcmc.ErrRange, substr: "GradsPerStep = +Inf"},
		{name: "Run method GradsPerStep NaN", run: run(nil, badRules{r: Rules{StepConstant: 0.1, GradsPerStep: nan}}), want: sgmcmc.ErrRange, substr: "GradsPerStep = NaN"},
	}
	for _, c := range cases {
		t.Run(subtestName(c.name), c.check)
	}
}
