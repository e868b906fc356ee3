// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"strings"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// -compare-integrators runs each momentum method twice: with the
// sequential sweep and its step constant of before (rows with integrator
// "sweep") and with sample.Run's choice (rows naming the chosen
// integrator), so that the gradient evaluations per effective draw can be
// compared side by side (doc/adaptation.md §2.7).

// baselineSuffix marks a method run with the sweep, in the runner's method
// name ("SGHMC@sweep").
const baselineSuffix = "@sweep"

// momentumMethods are the methods -compare-integrators runs.
var momentumMethods = []string{"SGHMC", "SGNHT"}

// chosenIntegrator names the integrator sample.Run chooses for each
// momentum method (sample.SGHMC and sample.SGNHT with a nil Integrator).
var chosenIntegrator = map[string]string{"SGHMC": "BAOAB", "SGNHT": "BADODAB"}

// baselineMethod returns the momentum method name with the sweep and the
// sweep's own default step constant.
func baselineMethod(name string) (sample.Method, bool) {
	switch strings.TrimSuffix(name, baselineSuffix) {
	case "SGHMC":
		return sample.SGHMC{Integrator: sgmcmc.Sweep{}}, true
	case "SGNHT":
		return sample.SGNHT{Integrator: sgmcmc.Sweep{}}, true
	}
	return nil, false
}

// compareRuns returns the runner's method names of -compare-integrators
// for the methods ms: each momentum method with the sweep, then as sample.Run
// chooses; the other methods are left out.
func compareRuns(ms []string) []string {
	var out []string
	for _, m := range ms {
		if _, ok := chosenIntegrator[m]; ok {
			out = append(out, m+baselineSuffix, m)
		}
	}
	return out
}

// splitRun returns the method and the integrator of a runner's method
// name: "sweep" for a baseline run, the chosen integrator's name for a
// momentum method, and "" for the others.
func splitRun(name string) (method, integrator string) {
	if m, ok := strings.CutSuffix(name, baselineSuffix); ok {
		return m, "sweep"
	}
	return name, chosenIntegrator[name]
}
