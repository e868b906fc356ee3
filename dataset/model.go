// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"fmt"
	"sync"

	"github.com/sgmcmc-go/sgmcmc"
)

// RowModel is the likelihood of a model whose data items are the rows of
// a Table, written on rows rather than on indices: NewModel reads the rows
// a minibatch or a full pass needs and hands them over. Its methods must
// be safe for concurrent use.
type RowModel interface {
	// Dim returns the dimension of θ.
	Dim() int
	// LogPriorGrad adds ∇θ log p(θ) to dst.
	LogPriorGrad(dst, theta []float64)
	// LogLikGradRows adds scale·Σ_r ∇θ log p(row_r | θ) to dst over the
	// rows of rows (row-major, the Table's Cols values a row). It must not
	// keep rows.
	LogLikGradRows(dst, theta, rows []float64, scale float64)
}

// RowDensity is an optional capability of a RowModel: the log prior and
// the summed log likelihood of rows, for sgmcmc.LogDensity (CheckModel,
// the diagnostics that read U(θ)).
type RowDensity interface {
	LogPrior(theta []float64) float64
	// LogLikRows returns Σ_r log p(row_r | θ).
	LogLikRows(theta, rows []float64) float64
}

// DiffRowModel is an optional capability of a RowModel: a control
// variate's correction, scale·Σ_r [∇θ log p(row_r | θ) − ∇θ log p(row_r |
// θ₀)], added to dst in one call, so that each row of a minibatch is read
// once for both points (sgmcmc.ControlVariate, through Model's
// LogLikGradDiffBatch).
type DiffRowModel interface {
	LogLikGradDiffRows(dst, theta, theta0, rows []float64, scale float64)
}

// readRows is the most rows a Model reads at once for one call (and the
// size of each concurrent caller's pooled buffer): 1 MiB of float64s.
const readRows = 1 << 17

// Model is a sgmcmc.Model over the rows of a Table: N = Rows(), item i
// row i. NewModel returns it.
type Model struct {
	t     Table
	m     RowModel
	cols  int
	mem   *Memory      // t, when it is a Memory: rows are read in place
	diff  DiffRowModel // m, when it is one
	chunk int          // rows a read
	bufs  sync.Pool
}

// densityModel is a Model whose RowModel is a RowDensity.
type densityModel struct {
	*Model
	d RowDensity
}

// NewModel returns the model of the likelihood m over the rows of t: a
// sgmcmc.Model and sgmcmc.BatchModel, and a sgmcmc.LogDensity when m is
// a RowDensity, that sample.Run and the samplers run as any other. A
// minibatch's gradient reads its rows (t.Read: a positioned read a row
// from a File) into a pooled buffer of at most 1 MiB a concurrent caller
// and calls LogLikGradRows on them, at most 2¹⁷/Cols rows at a time, in
// order; a full pass's parts are runs of consecutive rows, read in one
// piece each. Rows of a Memory are handed over in place when they are
// consecutive.
//
// A read that fails (a file deleted, an I/O error) panics with an error
// naming the file and the rows; sample.Run reports it as the chain's
// error, naming Model.LogLikGradBatch.
func NewModel(t Table, m RowModel) (sgmcmc.Model, error) {
	if t == nil || m == nil {
		return nil, fmt.Errorf("dataset: NewModel: nil table or model: %w", sgmcmc.ErrNil)
	}
	if t.Rows() < 1 || t.Cols() < 1 {
		return nil, fmt.Errorf("dataset: NewModel: a table of %d rows of %d values: %w", t.Rows(), t.Cols(), sgmcmc.ErrDimension)
	}
	if m.Dim() < 1 {
		return nil, fmt.Errorf("dataset: NewModel: the model's dimension is %d: %w", m.Dim(), sgmcmc.ErrDimension)
	}
	md := &Model{t: t, m: m, cols: t.Cols(), chunk: max(1, readRows/t.Cols())}
	md.mem, _ = t.(*Memory)
	md.diff, _ = m.(DiffRowModel)
	md.bufs.New = func() any { b := make([]float64, md.chunk*md.cols); return &b }
	if d, ok := m.(RowDensity); ok {
		return densityModel{md, d}, nil
	}
	return md, nil
}

// Dim returns the model's dimension.
func (md *Model) Dim() int { return md.m.Dim() }

// Len returns the number of rows.
func (md *Model) Len() int { return md.t.Rows() }

// LogPriorGrad adds ∇θ log p(θ) to dst.
func (md *Model) LogPriorGrad(dst, theta []float64) { md.m.LogPriorGrad(dst, theta) }

// LogLikGrad adds scale·∇θ log p(row i | θ) to dst.
func (md *Model) LogLikGrad(dst, theta []float64, i int, scale float64) {
	md.LogLikGradBatch(dst, theta, []int{i}, scale)
}

// LogLikGradBatch adds scale·Σ_{i∈idx} ∇θ log p(row i | θ) to dst.
func (md *Model) LogLikGradBatch(dst, theta []float64, idx []int, scale float64) {
	md.rows(idx, func(rows []float64) { md.m.LogLikGradRows(dst, theta, rows, scale) })
}

// LogLikGradDiffBatch adds scale·Σ_{i∈idx} [∇θ log p(row i | θ) −
// ∇θ log p(row i | θ₀)] to dst: reading each row once when the RowModel
// is a DiffRowModel, and as two LogLikGradBatch calls otherwise (the
// control variate's own order, so that its draws keep their bits).
func (md *Model) LogLikGradDiffBatch(dst, theta, theta0 []float64, idx []int, scale float64) {
	if md.diff == nil {
		md.LogLikGradBatch(dst, theta, idx, scale)
		md.LogLikGradBatch(dst, theta0, idx, -scale)
		return
	}
	md.rows(idx, func(rows []float64) { md.diff.LogLikGradDiffRows(dst, theta, theta0, rows, scale) })
}

// rows calls fn on the rows idx, in order, at most md.chunk at a time.
func (md *Model) rows(idx []int, fn func(rows []float64)) {
	if md.mem != nil && len(idx) > 0 && consecutive(idx) && idx[0] >= 0 && idx[len(idx)-1] < md.mem.Rows() {
		c := md.cols
		fn(md.mem.values[idx[0]*c : (idx[len(idx)-1]+1)*c])
		return
	}
	bp := md.bufs.Get().(*[]float64)
	defer md.bufs.Put(bp)
	for lo := 0; lo < len(idx); lo += md.chunk {
		part := idx[lo:min(lo+md.chunk, len(idx))]
		b := (*bp)[:len(part)*md.cols]
		if err := md.t.Read(b, part); err != nil {
			panic(fmt.Errorf("dataset: Model: %w", err))
		}
		fn(b)
	}
}

// ReadStats returns the bytes the model's Table has read and the time
// spent reading, when the Table reports them (a File's Stats), and zeros
// otherwise: sample.Run records them in its Result.
func (md *Model) ReadStats() (bytes int64, seconds float64) {
	if s, ok := md.t.(interface{ Stats() (int64, float64) }); ok {
		return s.Stats()
	}
	return 0, 0
}

// consecutive reports whether idx is a run i, i+1, ….
func consecutive(idx []int) bool {
	for k := 1; k < len(idx); k++ {
		if idx[k] != idx[k-1]+1 {
			return false
		}
	}
	return true
}

// LogPrior returns log p(θ).
func (d densityModel) LogPrior(theta []float64) float64 { return d.d.LogPrior(theta) }

// LogLik returns log p(row i | θ).
func (d densityModel) LogLik(theta []float64, i int) float64 {
	var v float64
	d.rows([]int{i}, func(rows []float64) { v = d.d.LogLikRows(theta, rows) })
	return v
}
