// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"slices"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// Problem returns what sample.Run samples: the model in unconstrained
// coordinates (sds, σ and φ by their logarithms — an all-non-centred
// factor's sds by y, log(sd/ŝ) = y − e^{−y} (doc.go) — ν by log(ν − 1),
// through the transform package's Space, its log-Jacobian in the prior), named by
// FreeNames.
func (m *Model) Problem() (sample.Problem, error) {
	um, err := m.space.Model(m)
	if err != nil {
		return sample.Problem{}, err
	}
	return sample.Problem{Model: um, Names: m.FreeNames()}, nil
}

// Start returns a starting point in the unconstrained coordinates of
// Problem: the intercept at g(ȳ), coefficients and effects 0, σ at sd(y),
// φ at 1, ν at 4, each sd at its plug-in estimate (doc.go).
func (m *Model) Start() []float64 {
	y := make([]float64, m.space.FreeDim())
	// Unconstrain cannot fail at the finite, in-range x₀.
	_ = m.space.Unconstrain(y, m.start)
	return y
}

// Names returns the natural parameters' names, in the order of Draws's
// coordinates: b.Intercept, b.<predictor> …, sigma (Gaussian, StudentT)
// or shape (NegBinomial), nu (StudentT with ν estimated), then for each
// grouping factor sd_<group>.<effect>, cor_<group>.<effect>.<effect> if
// it is correlated, and r_<group>.<level>.<effect> —
// brms's names in the dotted form CmdStan CSV accepts.
func (m *Model) Names() []string { return slices.Clone(m.names) }

// FreeNames returns the sampled coordinates' names: Names, but
// z_<group>.<level>.<effect> for a non-centred level's standardised
// effect z = r/sd and L_<group>.<a>.<b> for a correlated factor's
// Cholesky factor's entry in row a, column b (in place of the
// correlations cor_<group>.…) (Problem's coordinates are unconstrained:
// sigma stands for log σ there, sd_… for log sd or, for a factor whose
// levels are all non-centred, y with log(sd/ŝ) = y − e^{−y}, L_… for the
// atanh of a canonical partial correlation, Stan's unconstrained L).
func (m *Model) FreeNames() []string { return slices.Clone(m.xnames) }

// Natural writes into dst (of length Dim) the natural parameters at the
// sampled ones x: r = sd·z for non-centred levels (r = diag(sd)·L·z and
// the correlations Ω = LLᵀ in place of L for a correlated factor), b =
// z·τλ̃ under a horseshoe, the rest unchanged.
func (m *Model) Natural(dst, x []float64) {
	if m.hs != nil {
		m.hs.effective(dst, x)
	} else {
		copy(dst, x)
	}
	for _, q := range m.groups {
		if q.cor {
			q.corNatural(dst, x)
			continue
		}
		for j, c := range q.centred {
			if c {
				continue
			}
			for e := range q.e {
				dst[q.uOff+j*q.e+e] = x[q.uOff+j*q.e+e] * x[q.sdOff+e]
			}
		}
	}
}

// Draws maps chains of Problem's unconstrained draws to the natural
// parameters (Names): constrained by the Space, then r = sd·z.
func (m *Model) Draws(chains []*sgmcmc.Chain) ([]*sgmcmc.Chain, error) {
	xs, err := m.space.Chains(chains)
	if err != nil {
		return nil, fmt.Errorf("sgmcmc: models: Draws: %w", err)
	}
	for _, c := range xs {
		if c.Dim != m.dim {
			return nil, errorf(sgmcmc.ErrDimension, "sgmcmc: models: Draws: chains of dimension %d, want %d (every coordinate kept)", c.Dim, m.dim)
		}
		for i := range c.Len() {
			d := c.At(i)
			m.Natural(d, d)
		}
	}
	return xs, nil
}

// Summary summarises the chains (Problem's draws) on the natural scale,
// one row per name of Names.
func (m *Model) Summary(chains []*sgmcmc.Chain) (diagnostics.Table, error) {
	xs, err := m.Draws(chains)
	if err != nil {
		return nil, err
	}
	return diagnostics.NewTable(m.names, xs)
}

// Centred returns, for the grouping factor named group, whether each
// level is sampled centred (r) rather than non-centred (z = r/sd): the
// rule's choice (doc.go) or Group.Param's; nil if there is no such factor.
func (m *Model) Centred(group string) []bool {
	for _, q := range m.groups {
		if q.name == group {
			return slices.Clone(q.centred)
		}
	}
	return nil
}
