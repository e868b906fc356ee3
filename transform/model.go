// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform

import (
	"sync"

	"github.com/sgmcmc-go/sgmcmc"
)

// Model returns m, a model written in the constrained parameters x of s
// (m.Dim() == s.Dim()), as a model of the unconstrained y (Dim() ==
// s.FreeDim()) whose posterior is the same distribution: the density of y
// is p(x(y) | data)·|det J(y)|.
//
// The log-Jacobian belongs to the prior: the returned model's LogPriorGrad
// adds Jᵀ∇_x log p(x) + ∇_y log |det J|, its LogLikGrad adds Jᵀ(scale ·
// ∇_x log p(x_i | x)) and nothing else, so minibatch scaling leaves the
// Jacobian alone. It implements sgmcmc.BatchModel always (mapping y to x
// once per minibatch, with m's own LogLikGradBatch if it has one) and
// sgmcmc.LogDensity if m does: LogPrior(y) = log p(x(y)) + log |det J(y)|,
// LogLik(y, i) = log p(x_i | x(y)).
//
// The returned model is safe for concurrent use if m is (sample.Run and
// sgmcmc.RunChains share one model between chains): its scratch space
// comes from a sync.Pool, so that after the first calls it allocates
// nothing; it recomputes x only when y changes, so the per-datum calls of
// one minibatch map y once. Draws of the returned model map back to x with
// s.Chain, s.Chains or s.Summary.
//
// The model's methods have no error to return: at a y beyond what float64
// can map (Positive's exp(y) overflows for y > 709.78), x is infinite and
// the gradient is not finite, which the samplers report as a non-finite
// gradient or a divergence.
func (s *Space) Model(m sgmcmc.Model) (sgmcmc.Model, error) {
	if m == nil {
		return nil, errorf(sgmcmc.ErrNil, "transform: Model: nil model")
	}
	if m.Dim() != s.dim {
		return nil, errorf(sgmcmc.ErrDimension, "transform: Model: the model has dimension %d, the space %d constrained coordinates", m.Dim(), s.dim)
	}
	w := &model{s: s, m: m}
	w.bm, _ = m.(sgmcmc.BatchModel)
	w.pool.New = func() any {
		return &scratch{y: make([]float64, s.free), x: make([]float64, s.dim), g: make([]float64, s.dim)}
	}
	if ld, ok := m.(sgmcmc.LogDensity); ok {
		return &densityModel{model: w, ld: ld}, nil
	}
	return w, nil
}

// scratch is one caller's work space: x = f(y) for the y it was computed
// at, and a gradient buffer in x.
type scratch struct {
	y, x, g []float64
	logJ    float64
	valid   bool
}

// model is a constrained model seen in unconstrained coordinates.
type model struct {
	s    *Space
	m    sgmcmc.Model
	bm   sgmcmc.BatchModel
	pool sync.Pool
}

var (
	_ sgmcmc.BatchModel = (*model)(nil)
	_ sgmcmc.LogDensity = (*densityModel)(nil)
)

// at returns a scratch holding x = f(y); put it back with release.
func (w *model) at(y []float64) *scratch {
	sc := w.pool.Get().(*scratch)
	if sc.valid {
		for i, v := range y {
			if v != sc.y[i] {
				sc.valid = false
				break
			}
		}
	}
	if !sc.valid {
		copy(sc.y, y)
		sc.logJ = w.s.constrain(sc.x, y)
		sc.valid = true
	}
	return sc
}

func (w *model) release(sc *scratch) { w.pool.Put(sc) }

// Dim returns the number of unconstrained coordinates.
func (w *model) Dim() int { return w.s.free }

// Len returns the number of data items of the wrapped model.
func (w *model) Len() int { return w.m.Len() }

// LogPriorGrad adds Jᵀ ∇_x log p(x) + ∇_y log |det J| to dst.
func (w *model) LogPriorGrad(dst, y []float64) {
	sc := w.at(y)
	clear(sc.g)
	w.m.LogPriorGrad(sc.g, sc.x)
	w.s.pullback(dst, y, sc.x, sc.g, true)
	w.release(sc)
}

// LogLikGrad adds Jᵀ (scale · ∇_x log p(x_i | x)) to dst.
func (w *model) LogLikGrad(dst, y []float64, i int, scale float64) {
	sc := w.at(y)
	clear(sc.g)
	w.m.LogLikGrad(sc.g, sc.x, i, scale)
	w.s.pullback(dst, y, sc.x, sc.g, false)
	w.release(sc)
}

// LogLikGradBatch adds Jᵀ (scale · Σ_{i∈idx} ∇_x log p(x_i | x)) to dst,
// mapping y to x once.
func (w *model) LogLikGradBatch(dst, y []float64, idx []int, scale float64) {
	sc := w.at(y)
	clear(sc.g)
	if w.bm != nil {
		w.bm.LogLikGradBatch(sc.g, sc.x, idx, scale)
	} else {
		for _, i := range idx {
			w.m.LogLikGrad(sc.g, sc.x, i, scale)
		}
	}
	w.s.pullback(dst, y, sc.x, sc.g, false)
	w.release(sc)
}

// densityModel is a model whose wrapped model implements LogDensity.
type densityModel struct {
	*model
	ld sgmcmc.LogDensity
}

// LogPrior returns log p(x(y)) + log |det J(y)|.
func (w *densityModel) LogPrior(y []float64) float64 {
	sc := w.at(y)
	v := w.ld.LogPrior(sc.x) + sc.logJ
	w.release(sc)
	return v
}

// LogLik returns log p(x_i | x(y)).
func (w *densityModel) LogLik(y []float64, i int) float64 {
	sc := w.at(y)
	v := w.ld.LogLik(sc.x, i)
	w.release(sc)
	return v
}
