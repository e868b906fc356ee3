// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sgmcmc-go/sgmcmc"
	"gonum.org/v1/gonum/mat"
)

// Frame is a table read from a CSV file with a header: its cells as text,
// turned into numbers (Numeric, Matrix), dummy columns (Matrix) or a
// grouping factor (Factor) as the caller chooses. Rows are numbered from
// 1 in its errors, as a spreadsheet shows them (the header is row 0).
type Frame struct {
	names []string
	cells [][]string // cells[col][row]
}

// ReadCSV reads a CSV table whose first line names its columns. Every row
// must have as many cells as the header; names must be distinct and not
// empty.
func ReadCSV(r io.Reader) (*Frame, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: ReadCSV: empty input (no header)")
		}
		return nil, fmt.Errorf("sgmcmc: models: ReadCSV: header: %w", err)
	}
	f := &Frame{names: slices.Clone(head), cells: make([][]string, len(head))}
	seen := map[string]bool{}
	for j, n := range f.names {
		n = strings.TrimSpace(n)
		f.names[j] = n
		if n == "" {
			return nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: ReadCSV: column %d has no name", j+1)
		}
		if seen[n] {
			return nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: ReadCSV: two columns named %q", n)
		}
		seen[n] = true
	}
	for row := 1; ; row++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("sgmcmc: models: ReadCSV: row %d: %w", row, err)
		}
		for j, c := range rec {
			f.cells[j] = append(f.cells[j], strings.TrimSpace(c))
		}
	}
	if f.Rows() == 0 {
		return nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: ReadCSV: a header but no rows")
	}
	return f, nil
}

// Rows returns the number of rows.
func (f *Frame) Rows() int { return len(f.cells[0]) }

// Names returns the columns' names.
func (f *Frame) Names() []string { return slices.Clone(f.names) }

// col returns the cells of the named column.
func (f *Frame) col(name string) ([]string, error) {
	j := slices.Index(f.names, name)
	if j < 0 {
		return nil, errorf(sgmcmc.ErrRange, "no column %q (have %s)", name, strings.Join(f.names, ", "))
	}
	return f.cells[j], nil
}

// missing says whether a cell is a missing value: empty, NA or NaN.
func missing(s string) bool { return s == "" || s == "NA" || strings.EqualFold(s, "nan") }

// Numeric returns the named column as numbers. A missing cell (empty, NA,
// NaN) or one that is not a finite number is an error naming its row and
// column.
func (f *Frame) Numeric(name string) ([]float64, error) {
	cells, err := f.col(name)
	if err != nil {
		return nil, fmt.Errorf("sgmcmc: models: Frame.Numeric: %w", err)
	}
	out := make([]float64, len(cells))
	for i, c := range cells {
		if missing(c) {
			return nil, errorf(sgmcmc.ErrNonFinite, "sgmcmc: models: Frame.Numeric: column %q, row %d: missing value %q (drop or impute the row)", name, i+1, c)
		}
		v, err := strconv.ParseFloat(c, 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: Frame.Numeric: column %q, row %d: %q is not a finite number (a categorical column? use it as dummies or a grouping factor)", name, i+1, c)
		}
		out[i] = v
	}
	return out, nil
}

// Factor returns the named column as a grouping factor: each row's level
// index and the levels, sorted (numerically if every level is a number,
// as R sorts a factor's levels, else as text). A missing cell is an error.
func (f *Frame) Factor(name string) (index []int, levels []string, err error) {
	cells, err := f.col(name)
	if err != nil {
		return nil, nil, fmt.Errorf("sgmcmc: models: Frame.Factor: %w", err)
	}
	set := map[string]bool{}
	for i, c := range cells {
		if missing(c) {
			return nil, nil, errorf(sgmcmc.ErrNonFinite, "sgmcmc: models: Frame.Factor: column %q, row %d: missing value %q", name, i+1, c)
		}
		set[c] = true
	}
	for l := range set {
		levels = append(levels, l)
	}
	numeric := true
	for _, l := range levels {
		if _, err := strconv.ParseFloat(l, 64); err != nil {
			numeric = false
			break
		}
	}
	slices.SortFunc(levels, func(a, b string) int {
		if numeric {
			x, _ := strconv.ParseFloat(a, 64)
			y, _ := strconv.ParseFloat(b, 64)
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
		return strings.Compare(a, b)
	})
	at := make(map[string]int, len(levels))
	for j, l := range levels {
		at[l] = j
	}
	index = make([]int, len(cells))
	for i, c := range cells {
		index[i] = at[c]
	}
	return index, levels, nil
}

// Matrix returns the design of the numeric columns and of the dummies of
// the categorical ones, in that order: a categorical column of K levels
// gives K − 1 indicator columns named column.level, its first level
// (Factor's order) the reference. It returns the columns' names for
// GLM.Names. A constant column is an error (with an intercept it is not
// identified), as is a dummy column of a level no row has.
func (f *Frame) Matrix(numeric, categorical []string) (*mat.Dense, []string, error) {
	n := f.Rows()
	var cols [][]float64
	var names []string
	for _, name := range numeric {
		v, err := f.Numeric(name)
		if err != nil {
			return nil, nil, err
		}
		if slices.Min(v) == slices.Max(v) {
			return nil, nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: Frame.Matrix: column %q is constant (%v in every row): it is not identified beside an intercept", name, v[0])
		}
		cols, names = append(cols, v), append(names, name)
	}
	for _, name := range categorical {
		idx, levels, err := f.Factor(name)
		if err != nil {
			return nil, nil, err
		}
		if len(levels) < 2 {
			return nil, nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: Frame.Matrix: column %q has one level (%q): it is not identified beside an intercept", name, levels[0])
		}
		for k := 1; k < len(levels); k++ {
			c := make([]float64, n)
			for i, j := range idx {
				if j == k {
					c[i] = 1
				}
			}
			cols, names = append(cols, c), append(names, name+"."+levels[k])
		}
	}
	if len(cols) == 0 {
		return nil, nil, errorf(sgmcmc.ErrRange, "sgmcmc: models: Frame.Matrix: no columns asked for")
	}
	x := mat.NewDense(n, len(cols), nil)
	for j, c := range cols {
		x.SetCol(j, c)
	}
	return x, names, nil
}
