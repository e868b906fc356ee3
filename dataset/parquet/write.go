// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parquet

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// DefaultRowGroupRows is the row-group size Create uses when given 0:
// 2¹⁷ rows, 11 MiB of 21 float32 columns.
const DefaultRowGroupRows = 1 << 17

// Writer streams rows into a new Parquet file of flat, required FLOAT
// (float32) or DOUBLE (float64) columns, PLAIN-encoded and uncompressed.
// It holds one row group at a time, column by column, so that its memory
// is about a row group's values whatever the file's size.
type Writer struct {
	f      *os.File
	w      *pq.GenericWriter[any]
	names  []string
	size   int
	group  int         // rows a row group
	n      int         // rows in the current row group
	rows   int         // rows written
	c32    [][]float32 // the current row group, column by column
	c64    [][]float64
	vals   []pq.Value
	closed bool
}

// Create starts the Parquet file path with the named columns, in this
// order, each of float32 (size 4) or float64 (size 8) values, in row
// groups of groupRows rows (0: DefaultRowGroupRows). The file is complete
// only after Close.
func Create(path string, names []string, size, groupRows int) (*Writer, error) {
	if size != 4 && size != 8 {
		return nil, fmt.Errorf("parquet: Create: value size %d, want 4 (float32) or 8 (float64)", size)
	}
	if len(names) == 0 {
		return nil, errors.New("parquet: Create: no columns")
	}
	seen := make(map[string]bool, len(names))
	for j, n := range names {
		if n == "" || strings.ContainsAny(n, "\n,") || seen[n] {
			return nil, fmt.Errorf("parquet: Create: column %d's name %q: want non-empty, unique, without a newline or a comma", j+1, n)
		}
		seen[n] = true
	}
	if groupRows < 0 {
		return nil, fmt.Errorf("parquet: Create: %d rows a row group", groupRows)
	}
	if groupRows == 0 {
		groupRows = DefaultRowGroupRows
	}
	typ := pq.FloatType
	if size == 8 {
		typ = pq.DoubleType
	}
	g := &orderedGroup{}
	for _, n := range names {
		g.fields = append(g.fields, &field{Node: pq.Leaf(typ), name: n, index: len(g.fields)})
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := &Writer{f: f, names: append([]string(nil), names...), size: size, group: groupRows, vals: make([]pq.Value, 4096)}
	w.w = pq.NewGenericWriter[any](f, pq.NewSchema("rows", g), pq.MaxRowsPerRowGroup(int64(groupRows)),
		pq.PageBufferSize(1<<20), pq.CreatedBy("sgmcmc dataset/parquet", "", ""))
	for range names {
		if size == 4 {
			w.c32 = append(w.c32, make([]float32, groupRows))
		} else {
			w.c64 = append(w.c64, make([]float64, groupRows))
		}
	}
	return w, nil
}

// Write appends a row of len(names) values. A value that is NaN, ±Inf or,
// for float32 columns, beyond ±3.4·10³⁸ is an error naming the row and the
// column, as dataset.Writer's.
func (w *Writer) Write(row []float64) error {
	if w.closed {
		return errors.New("parquet: Write after Close")
	}
	if len(row) != len(w.names) {
		return fmt.Errorf("parquet: row %d has %d values, want %d", w.rows+1, len(row), len(w.names))
	}
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) || (w.size == 4 && math.Abs(v) > math.MaxFloat32) {
			return fmt.Errorf("parquet: row %d, column %s: %v is not a finite %s", w.rows+1, w.names[j], v, typeName(w.size))
		}
		if w.size == 4 {
			w.c32[j][w.n] = float32(v)
		} else {
			w.c64[j][w.n] = v
		}
	}
	w.n++
	w.rows++
	if w.n == w.group {
		return w.flush()
	}
	return nil
}

// flush writes the buffered rows as one row group.
func (w *Writer) flush() error {
	if w.n == 0 {
		return nil
	}
	cw := w.w.ColumnWriters()
	for j := range w.names {
		for lo := 0; lo < w.n; lo += len(w.vals) {
			m := min(len(w.vals), w.n-lo)
			v := w.vals[:m]
			if w.size == 4 {
				for i, x := range w.c32[j][lo : lo+m] {
					v[i] = pq.FloatValue(x).Level(0, 0, j)
				}
			} else {
				for i, x := range w.c64[j][lo : lo+m] {
					v[i] = pq.DoubleValue(x).Level(0, 0, j)
				}
			}
			if _, err := cw[j].WriteRowValues(v); err != nil {
				return fmt.Errorf("parquet: %s: column %s: %w", w.f.Name(), w.names[j], err)
			}
		}
	}
	w.n = 0
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("parquet: %s: %w", w.f.Name(), err)
	}
	return nil
}

// Rows returns the number of rows written so far.
func (w *Writer) Rows() int { return w.rows }

// Close writes the last row group and the footer, and closes the file.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	err := w.flush()
	if err == nil {
		err = w.w.Close()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func typeName(size int) string {
	if size == 4 {
		return "float32"
	}
	return "float64"
}

// orderedGroup is a Parquet group whose columns keep the order they were
// given in (parquet-go's Group sorts them by name).
type orderedGroup struct {
	fields []pq.Field
}

func (g *orderedGroup) ID() int                     { return 0 }
func (g *orderedGroup) String() string              { return "ordered group" }
func (g *orderedGroup) Type() pq.Type               { return pq.Group{}.Type() }
func (g *orderedGroup) Optional() bool              { return false }
func (g *orderedGroup) Repeated() bool              { return false }
func (g *orderedGroup) Required() bool              { return true }
func (g *orderedGroup) Leaf() bool                  { return false }
func (g *orderedGroup) Fields() []pq.Field          { return g.fields }
func (g *orderedGroup) Encoding() encoding.Encoding { return nil }
func (g *orderedGroup) Compression() compress.Codec { return nil }

// GoType returns a struct of the columns in order (for parquet-go's
// reflection, which this package does not use to write).
func (g *orderedGroup) GoType() reflect.Type {
	fs := make([]reflect.StructField, len(g.fields))
	for i, f := range g.fields {
		fs[i] = reflect.StructField{Name: "F" + strconv.Itoa(i), Type: f.GoType(), Tag: reflect.StructTag(`parquet:` + strconv.Quote(f.Name()))}
	}
	return reflect.StructOf(fs)
}

// field is a column of an orderedGroup.
type field struct {
	pq.Node
	name  string
	index int
}

func (f *field) Name() string { return f.name }

func (f *field) Value(base reflect.Value) reflect.Value {
	for base.Kind() == reflect.Pointer || base.Kind() == reflect.Interface {
		base = base.Elem()
	}
	return base.Field(f.index)
}
