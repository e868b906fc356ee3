// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"
	"sync"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/dataset"
)

// tableChunk is the most rows a call reads from a Table at once (and a
// view holds): 4,096, a full pass's part.
const tableChunk = 4096

// tableData is a model's data in a dataset.Table: which columns are which,
// the response's and predictors' moments (for the default priors), and
// the views that calls read their rows into.
type tableData struct {
	t          dataset.Table
	y          int
	x          []int
	ymean, ysd float64
	xmean, xsd []float64
	views      sync.Pool // of *tableView
	model      *Model
	cols       int
}

// tableView is one call's rows: a copy of the model whose data are the
// rows read (x and y of at most tableChunk rows), and the local indices
// 0, 1, … of those rows.
type tableView struct {
	m     Model
	rows  []float64
	local []int
}

// setTable reads the GLM's Table (twice: scan): it checks the columns, every
// response against the family and every predictor for finiteness (naming
// the row and column), and keeps the moments the default priors scale
// by.
func (m *Model) setTable(g GLM) error {
	switch {
	case g.Y != nil || g.X != nil || g.Sparse != nil:
		return errorf(sgmcmc.ErrRange, "Table set with Y, X or Sparse: give the data once")
	case g.Trials != nil || g.SD != nil || g.Offset != nil || g.Weights != nil || g.Groups != nil || g.Categories != nil:
		return errorf(sgmcmc.ErrUnsupported, "Table with Trials, SD, Offset, Weights, Groups or Categories: a Table model holds a response and predictors only (read the others into memory)")
	case m.fam == Categorical || m.fam == Binomial:
		return errorf(sgmcmc.ErrUnsupported, "a Table model of a %v response: Table holds Gaussian, StudentT, Bernoulli, Poisson and NegBinomial models", m.fam)
	}
	t := g.Table
	n, c := t.Rows(), t.Cols()
	if n < 1 {
		return errorf(sgmcmc.ErrRange, "the Table has no rows")
	}
	if g.Response < 0 || g.Response >= c {
		return errorf(sgmcmc.ErrRange, "Response column %d not in [0, %d)", g.Response, c)
	}
	x := g.Predictors
	if x == nil {
		for j := range c {
			if j != g.Response {
				x = append(x, j)
			}
		}
	}
	seen := map[int]bool{g.Response: true}
	for _, j := range x {
		if j < 0 || j >= c || seen[j] {
			return errorf(sgmcmc.ErrRange, "Predictors %v: want distinct columns in [0, %d) other than Response %d", g.Predictors, c, g.Response)
		}
		seen[j] = true
	}
	td := &tableData{t: t, y: g.Response, x: append([]int(nil), x...), cols: c, model: m}
	m.n, m.p, m.tab = n, len(x), td
	names := g.Names
	if nt, ok := t.(interface{ Names() []string }); ok && names == nil {
		all := nt.Names()
		for _, j := range x {
			names = append(names, all[j])
		}
	}
	if err := m.setNames(names); err != nil {
		return err
	}
	return td.scan(m, g)
}

// scan reads the rows twice, in runs of tableChunk: first checking
// values and summing them, then summing squared deviations from the
// means, in row order — the sums stats makes over Y and X in memory, so
// that a model over a Table has the same priors and start, bit for bit,
// as over the same rows in memory.
func (td *tableData) scan(m *Model, g GLM) error {
	n, p := m.n, m.p
	xm, xs := make([]float64, p), make([]float64, p)
	var ym, ys float64
	err := td.rowsInOrder(func(i int, row []float64) error {
		y := row[td.y]
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return errorf(sgmcmc.ErrNonFinite, "Y[%d] (Table column %d) = %v: missing or infinite responses are not allowed (drop the row)", i, td.y, y)
		}
		if err := m.checkY(g, i, y); err != nil {
			return err
		}
		ym += y
		for k, j := range td.x {
			v := row[j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errorf(sgmcmc.ErrNonFinite, "predictor %s (Table column %d), row %d: %v (missing values are not allowed: drop or impute the row)", m.colName(k), j, i, v)
			}
			xm[k] += v
		}
		return nil
	})
	if err != nil {
		return err
	}
	ym /= float64(n)
	for k := range xm {
		xm[k] /= float64(n)
	}
	err = td.rowsInOrder(func(_ int, row []float64) error {
		d := row[td.y] - ym
		ys += d * d
		for k, j := range td.x {
			d := row[j] - xm[k]
			xs[k] += d * d
		}
		return nil
	})
	if err != nil {
		return err
	}
	td.ymean, td.ysd = ym, math.Sqrt(ys/float64(n))
	for k := range xs {
		xs[k] = math.Sqrt(xs[k] / float64(n))
	}
	td.xmean, td.xsd = xm, xs
	return nil
}

// rowsInOrder calls fn on every row of the Table in order.
func (td *tableData) rowsInOrder(fn func(i int, row []float64) error) error {
	n, c := td.t.Rows(), td.cols
	rows := make([]float64, tableChunk*c)
	idx := make([]int, tableChunk)
	for lo := 0; lo < n; lo += tableChunk {
		k := min(tableChunk, n-lo)
		for r := range k {
			idx[r] = lo + r
		}
		if err := td.t.Read(rows[:k*c], idx[:k]); err != nil {
			return fmt.Errorf("reading the Table: %w", err)
		}
		for r := range k {
			if err := fn(lo+r, rows[r*c:(r+1)*c]); err != nil {
				return err
			}
		}
	}
	return nil
}

// view returns a pooled view of the model, its rows those of idx (at most
// tableChunk), read from the Table. A read that fails panics with an error
// naming the Table's rows (sample.Run reports it as the chain's error).
func (td *tableData) view(idx []int) *tableView {
	v, _ := td.views.Get().(*tableView)
	if v == nil {
		m := td.model
		v = &tableView{m: *m, rows: make([]float64, tableChunk*td.cols), local: make([]int, tableChunk)}
		v.m.tab = nil
		v.m.x, v.m.y = make([]float64, tableChunk*m.p), make([]float64, tableChunk)
		for r := range v.local {
			v.local[r] = r
		}
	}
	k, c, p := len(idx), td.cols, v.m.p
	if err := td.t.Read(v.rows[:k*c], idx); err != nil {
		panic(fmt.Errorf("sgmcmc: models: reading the Table: %w", err))
	}
	x, y := v.m.x[:k*p], v.m.y[:k]
	for r := range k {
		row := v.rows[r*c : (r+1)*c]
		y[r] = row[td.y]
		xr := x[r*p : (r+1)*p]
		for q, j := range td.x {
			xr[q] = row[j]
		}
	}
	v.m.n = k
	return v
}

// batchGrad is Model.batchGrad on rows of the Table, tableChunk at a time,
// in order.
func (td *tableData) batchGrad(dst, x []float64, idx []int, scale float64) {
	for lo := 0; lo < len(idx); lo += tableChunk {
		part := idx[lo:min(lo+tableChunk, len(idx))]
		v := td.view(part)
		v.m.batchGrad(dst, x, v.local[:len(part)], scale)
		td.views.Put(v)
	}
}

// logLik is Model.logLik on row i of the Table.
func (td *tableData) logLik(x []float64, i int) float64 {
	v := td.view([]int{i})
	defer td.views.Put(v)
	return v.m.logLik(x, 0)
}

// logLikGrad is Model.logLikGrad on row i of the Table.
func (td *tableData) logLikGrad(dst, x []float64, i int, scale float64) {
	v := td.view([]int{i})
	defer td.views.Put(v)
	v.m.logLikGrad(dst, x, 0, scale)
}

// ReadStats returns the bytes the model's Table has read and the time
// spent reading, when it has a Table that reports them (a dataset.File's
// Stats), and zeros otherwise: sample.Run records them in its Result.
func (m *Model) ReadStats() (bytes int64, seconds float64) {
	if m.tab == nil {
		return 0, 0
	}
	if s, ok := m.tab.t.(interface{ Stats() (int64, float64) }); ok {
		return s.Stats()
	}
	return 0, 0
}

// eachRow is Model.eachRow over the Table's rows (p predictors). The
// Table was read whole by setTable: a read error here is as unlikely as
// in a gradient, and is reported as one (a panic naming the Table).
func (td *tableData) eachRow(p int, fn func(i int, o obs, x []float64)) {
	x := make([]float64, p)
	err := td.rowsInOrder(func(i int, row []float64) error {
		for k, j := range td.x {
			x[k] = row[j]
		}
		fn(i, obs{y: row[td.y], n: 1, w: 1}, x)
		return nil
	})
	if err != nil {
		panic(fmt.Errorf("sgmcmc: models: reading the Table: %w", err))
	}
}
