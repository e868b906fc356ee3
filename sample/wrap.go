// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import "github.com/sgmcmc-go/sgmcmc"

// The wrappers through which a chain calls the user's Model and Gradient:
// they name the user's function in a panic it raises (tag) and count the
// evaluations in the chain's ledger (e.tick).

// userModel names the user's Model in a panic it raises (tag), so that
// Run's error says which user function failed. It counts nothing and
// is safe for concurrent use (the full passes call it from helpers).
type userModel struct{ sgmcmc.Model }

func (m userModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	defer tag("Model.LogLikGrad")
	m.Model.LogLikGrad(dst, theta, i, scale)
}

func (m userModel) LogPriorGrad(dst, theta []float64) {
	defer tag("Model.LogPriorGrad")
	m.Model.LogPriorGrad(dst, theta)
}

// userBatchModel is userModel for a BatchModel.
type userBatchModel struct {
	userModel
	bm sgmcmc.BatchModel
}

func (m userBatchModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	defer tag("Model.LogLikGradBatch")
	m.bm.LogLikGradBatch(dst, theta, idx, scale)
}

// LogLikGradDiffBatch is the control variate's correction in one call
// when the user's BatchModel has it (sgmcmc.ControlVariate), and its two
// batch calls otherwise.
func (m userBatchModel) LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale float64) {
	defer tag("Model.LogLikGradBatch")
	diffBatch(m.bm, dst, theta, center, idx, scale)
}

// diffBatchModel is the optional method of a BatchModel that gives a
// control variate's correction in one call (sgmcmc.ControlVariate).
type diffBatchModel interface {
	LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale float64)
}

// diffBatch adds scale·Σ_{i∈idx} [∇log p(x_i | θ) − ∇log p(x_i | center)]
// to dst: in one call when bm has it, else in two, in the order
// sgmcmc.ControlVariate makes them.
func diffBatch(bm sgmcmc.BatchModel, dst, theta, center []float64, idx []int, scale float64) {
	if dm, ok := bm.(diffBatchModel); ok {
		dm.LogLikGradDiffBatch(dst, theta, center, idx, scale)
		return
	}
	bm.LogLikGradBatch(dst, theta, idx, scale)
	bm.LogLikGradBatch(dst, center, idx, -scale)
}

// countModel counts per-datum likelihood-gradient evaluations (e.tick),
// naming the model in a panic as userModel does: one wrapper per datum on
// the sampling path, not two.
type countModel struct {
	userModel
	e *chainEnv
}

func (m countModel) LogLikGrad(dst, theta []float64, i int, scale float64) {
	defer tag("Model.LogLikGrad")
	m.e.tick(1)
	m.Model.LogLikGrad(dst, theta, i, scale)
}

// countBatchModel is countModel for a BatchModel.
type countBatchModel struct {
	countModel
	bm sgmcmc.BatchModel
}

func (m countBatchModel) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	defer tag("Model.LogLikGradBatch")
	m.e.tick(int64(len(idx)))
	m.bm.LogLikGradBatch(dst, theta, idx, scale)
}

// LogLikGradDiffBatch counts two evaluations an item.
func (m countBatchModel) LogLikGradDiffBatch(dst, theta, center []float64, idx []int, scale float64) {
	defer tag("Model.LogLikGradBatch")
	m.e.tick(2 * int64(len(idx)))
	diffBatch(m.bm, dst, theta, center, idx, scale)
}

// countGrad counts calls of the user's Gradient (e.tick), forwarding
// SameBatchGradient, and names it in a panic it raises.
type countGrad struct {
	g  sgmcmc.Gradient
	sb sgmcmc.SameBatchGradient
	e  *chainEnv
}

func (c *countGrad) Grad(dst, theta []float64) {
	defer tag("Gradient.Grad")
	c.e.tick(1)
	c.g.Grad(dst, theta)
}

func (c *countGrad) NewBatch() {
	defer tag("Gradient.NewBatch")
	if c.sb != nil {
		c.sb.NewBatch()
	}
}

func (c *countGrad) GradSameBatch(dst, theta []float64) {
	if c.sb == nil {
		c.Grad(dst, theta)
		return
	}
	defer tag("Gradient.GradSameBatch")
	c.e.tick(1)
	c.sb.GradSameBatch(dst, theta)
}
