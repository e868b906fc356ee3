// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
	"gonum.org/v1/gonum/floats"
)

// temperedModel is a Model whose log densities are divided by T.
type temperedModel struct {
	sgmcmc.Model
	inv float64
}

func (m temperedModel) LogPriorGrad(dst, theta []float64) {
	m.Model.LogPriorGrad(dst, theta)
	floats.Scale(m.inv, dst)
}

func (m temperedModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	m.Model.LogLikGrad(dst, theta, i, scale*m.inv)
}

// temperedBatchModel is temperedModel for a BatchModel.
type temperedBatchModel struct {
	temperedModel
	bm sgmcmc.BatchModel
}

func (m temperedBatchModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	m.bm.LogLikGradBatch(dst, theta, idx, scale*m.inv)
}

func (m temperedBatchModel) LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale float64) {
	diffBatch(m.bm, dst, theta, center, idx, scale*m.inv)
}

// temperedDensity adds the tempered LogDensity to a tempered model.
type temperedDensity struct {
	sgmcmc.Model
	ld  sgmcmc.LogDensity
	inv float64
}

func (m temperedDensity) LogPrior(theta []float64) float64 { return m.ld.LogPrior(theta) * m.inv }
func (m temperedDensity) LogLik(theta []float64, i int) float64 {
	return m.ld.LogLik(theta, i) * m.inv
}

// temperedBatchDensity is temperedDensity for a BatchModel.
type temperedBatchDensity struct {
	temperedDensity
	bm sgmcmc.BatchModel
}

func (m temperedBatchDensity) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	m.bm.LogLikGradBatch(dst, theta, idx, scale*m.temperedDensity.inv)
}

func (m temperedBatchDensity) LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale float64) {
	diffBatch(m.bm, dst, theta, center, idx, scale*m.temperedDensity.inv)
}

// temperProblem returns p at temperature t: its Model's log densities, or
// its Gradients, divided by t. At t = 1 it returns p.
func temperProblem(p Problem, t float64) Problem {
	if t == 1 {
		return p
	}
	inv := 1 / t
	if p.Model != nil {
		var m sgmcmc.Model = temperedModel{p.Model, inv}
		bm, isBatch := p.Model.(sgmcmc.BatchModel)
		if isBatch {
			m = temperedBatchModel{temperedModel{p.Model, inv}, bm}
		}
		if ld, ok := p.Model.(sgmcmc.LogDensity); ok {
			td := temperedDensity{m, ld, inv}
			if isBatch {
				m = temperedBatchDensity{td, bm}
			} else {
				m = td
			}
		}
		p.Model = m
		return p
	}
	if p.Gradient != nil {
		gf := p.Gradient
		p.Gradient = func(c int, src rand.Source) (sgmcmc.Gradient, error) {
			g, err := gf(c, src)
			if err != nil || valid.IsNil(g) {
				return g, err
			}
			return sgmcmc.Temper(g, t)
		}
	}
	return p
}
