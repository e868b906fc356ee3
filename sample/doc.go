// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package sample is sgmcmc's one-call sampler: Run draws K chains of a
// Method on a Problem with every setting adapted, and returns the draws,
// a summary and warnings. doc/adaptation.md is its design: what it
// measures, decides and promises; doc/equations.md §13.1–§13.5 derives
// the step, heat and autocorrelation rules it applies.
//
// Each chain adapts in a warmup of eight phases, numbered as warmupPhases
// (progress.go) and Settings.Progress reports them (doc/adaptation.md §2):
//
//	P0 setup                   the fixed batch and the first batch size (chain.go)
//	P1 Newton                  trust-region Newton to the typical set (newton.go, whitening.go;
//	                           above DenseMax with a capped batch, Adam: large_mode.go)
//	P2 gradient check          the gradient against the log density (gradcheck.go)
//	P3 control-variate centre  the chain's full-data mode θ̂ (centre.go)
//	P4 Langevin windows        the preconditioner (window.go)
//	P5 step size               flat test, λ̂ and ε (run.go, flat.go, curvature.go; probe.go above DenseMax)
//	P6 batch size and noise    estimator, batch, B̂, friction, heat (batch.go)
//	P7 method's adaptation     a WarmupAdapter's own (method_*.go)
//
// It then runs the round loop (rounds.go, round.go, budget.go;
// doc/adaptation.md §1, §3–§6 and §10): freeze, run, assess and decide,
// with a pilot round for a first-order method. After every chain's rounds
// a chain in a place of negligible mass joins another's (join.go,
// doc/adaptation.md §7), and the chains' modes are compared (modes.go,
// doc/adaptation.md §8). Above DenseMax the same phases run on vectors
// (sym.go, probe.go, large.go; doc/adaptation.md §4). constants.go holds
// every tuning constant, by stage, each with the section of
// doc/adaptation.md that states it.
package sample
