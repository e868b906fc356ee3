// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import "fmt"

// Table is a numeric table of Rows() rows of Cols() values that a model
// reads its data items from, one row an item: all a sampler needs of its
// data is the number of items, minibatches of rows at random, and full
// passes over the rows in order (NewModel turns a Table and the
// likelihood of a row into a sgmcmc.Model).
//
// Read must be safe for concurrent use: the chains and the helpers of a
// full pass read at once. Implementations: Memory (in memory, read in
// place), *File (this package's checksummed binary file, read with
// bounded buffers), *Parquet.
type Table interface {
	Rows() int
	Cols() int
	// Read writes the rows idx (0-based) into dst, len(idx)·Cols values,
	// row-major. Runs of consecutive indices (the parts of a full pass)
	// should be read together.
	Read(dst []float64, idx []int) error
}

// Memory is a Table held in memory: Values, row-major, Cols a row.
type Memory struct {
	values []float64
	cols   int
}

// NewMemory returns the Table of the rows of values, cols values a row
// (values is not copied). len(values) must be a multiple of cols ≥ 1.
func NewMemory(values []float64, cols int) (*Memory, error) {
	if cols < 1 || len(values)%cols != 0 {
		return nil, fmt.Errorf("dataset: NewMemory: %d values are not rows of %d", len(values), cols)
	}
	return &Memory{values: values, cols: cols}, nil
}

// Rows returns the number of rows.
func (m *Memory) Rows() int { return len(m.values) / m.cols }

// Cols returns the number of values a row.
func (m *Memory) Cols() int { return m.cols }

// Row returns row i in place (read only): what Model reads from a Memory
// instead of copying it.
func (m *Memory) Row(i int) []float64 { return m.values[i*m.cols : (i+1)*m.cols] }

// Read copies the rows idx into dst.
func (m *Memory) Read(dst []float64, idx []int) error {
	c := m.cols
	if len(dst) < len(idx)*c {
		return fmt.Errorf("dataset: Memory.Read: dst of %d values for %d rows of %d", len(dst), len(idx), c)
	}
	n := m.Rows()
	for k, i := range idx {
		if i < 0 || i >= n {
			return fmt.Errorf("dataset: Memory.Read: row %d not in [0, %d)", i, n)
		}
		copy(dst[k*c:(k+1)*c], m.values[i*c:(i+1)*c])
	}
	return nil
}
