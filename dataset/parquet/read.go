// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parquet

import (
	"errors"
	"fmt"
	"io"
	"os"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
)

// Reader reads a Parquet file of flat numeric columns row group by row
// group, in order, decoding each into float64 rows (row-major). Columns may
// be FLOAT, DOUBLE, INT32, INT64 or BOOLEAN (0/1), required or optional;
// a null value, a nested or repeated column, a string or a DECIMAL column
// is an error naming the column (and, for a null, the row group and row).
// Its memory is one row group's rows as float64 and one decoded page a
// column at a time. A Reader is for one goroutine at a time.
type Reader struct {
	f      *os.File
	pf     *pq.File
	path   string
	names  []string
	kinds  []pq.Kind
	groups []pq.RowGroup
	firsts []int // first row of each row group
	rows   int
}

// Open opens the Parquet file path and checks its schema: flat numeric
// columns (see Reader). A file that is not Parquet, or truncated (its
// footer is at its end), is an error.
func Open(path string) (r *Reader, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := openFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("parquet: %s: not a whole Parquet file: %w", path, err)
	}
	r = &Reader{f: f, pf: pf, path: path, groups: pf.RowGroups()}
	for _, c := range pf.Root().Columns() {
		name := c.Name()
		switch {
		case !c.Leaf():
			return nil, fmt.Errorf("parquet: %s: column %q is a nested group, want a flat table of numbers", path, name)
		case c.Repeated():
			return nil, fmt.Errorf("parquet: %s: column %q is repeated (a list), want one number a row", path, name)
		}
		t := c.Type()
		if isDecimal(t) {
			return nil, fmt.Errorf("parquet: %s: column %q is a DECIMAL, not read as a number here: cast it to DOUBLE", path, name)
		}
		switch k := t.Kind(); k {
		case pq.Float, pq.Double, pq.Int32, pq.Int64, pq.Boolean:
			r.kinds = append(r.kinds, k)
		default:
			return nil, fmt.Errorf("parquet: %s: column %q is of type %s, not numeric", path, name, t)
		}
		r.names = append(r.names, name)
	}
	if len(r.names) == 0 {
		return nil, fmt.Errorf("parquet: %s: no columns", path)
	}
	for _, g := range r.groups {
		r.firsts = append(r.firsts, r.rows)
		r.rows += int(g.NumRows())
	}
	if int64(r.rows) != pf.NumRows() {
		return nil, fmt.Errorf("parquet: %s: its row groups hold %d rows, its footer says %d", path, r.rows, pf.NumRows())
	}
	return r, nil
}

// openFile opens a Parquet file without its page index and bloom filters
// (unused here), turning a panic of the library on a corrupt footer into
// an error.
func openFile(f *os.File, size int64) (pf *pq.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt: %v", p)
		}
	}()
	return pq.OpenFile(f, size, pq.SkipPageIndex(true), pq.SkipBloomFilters(true), pq.ReadBufferSize(1<<20))
}

// Rows returns the number of rows.
func (r *Reader) Rows() int { return r.rows }

// Cols returns the number of columns.
func (r *Reader) Cols() int { return len(r.names) }

// Names returns the columns' names, in the file's order.
func (r *Reader) Names() []string { return append([]string(nil), r.names...) }

// ValueSize returns 4 when every column is FLOAT or BOOLEAN (float32 holds
// every value exactly), else 8: the value size of a dataset file that
// holds the table without loss.
func (r *Reader) ValueSize() int {
	for _, k := range r.kinds {
		if k != pq.Float && k != pq.Boolean {
			return 8
		}
	}
	return 4
}

// RowGroups returns the number of row groups.
func (r *Reader) RowGroups() int { return len(r.groups) }

// RowGroup returns the first row (0-based) and the number of rows of row
// group g.
func (r *Reader) RowGroup(g int) (first, rows int) {
	return r.firsts[g], int(r.groups[g].NumRows())
}

// Close closes the file.
func (r *Reader) Close() error { return r.f.Close() }

// ReadRowGroup decodes row group g into dst, row-major (Rows of the group
// times Cols values), and returns dst resliced to the group's values; dst
// is grown when it is too small. A null, a value count that does not match
// the row group's, or a page the library cannot decode is an error naming
// the row group and the column.
func (r *Reader) ReadRowGroup(g int, dst []float64) (values []float64, err error) {
	if g < 0 || g >= len(r.groups) {
		return dst, fmt.Errorf("parquet: %s: row group %d not in [0, %d)", r.path, g, len(r.groups))
	}
	rg := r.groups[g]
	n, c := int(rg.NumRows()), len(r.names)
	if cap(dst) < n*c {
		dst = make([]float64, n*c)
	}
	dst = dst[:n*c]
	chunks := rg.ColumnChunks()
	if len(chunks) != c {
		return dst, fmt.Errorf("parquet: %s: row group %d has %d columns, want %d", r.path, g, len(chunks), c)
	}
	for j, cc := range chunks {
		if err := r.readColumn(dst, g, j, n, cc); err != nil {
			return dst, fmt.Errorf("parquet: %s: row group %d (rows %d–%d), column %q: %w", r.path, g, r.firsts[g], r.firsts[g]+n-1, r.names[j], err)
		}
	}
	return dst, nil
}

// errNull is wrapped by the error of a null value.
var errNull = errors.New("null value (drop or impute the row)")

// readColumn decodes column j of a row group of n rows into dst, stride Cols.
func (r *Reader) readColumn(dst []float64, g, j, n int, cc pq.ColumnChunk) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt page: %v", p)
		}
	}()
	c := len(r.names)
	pages := cc.Pages()
	defer pages.Close()
	var vals []pq.Value
	i := 0 // rows decoded
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		m := int(p.NumValues())
		if i+m > n {
			pq.Release(p)
			return fmt.Errorf("%d values or more, the row group has %d rows", i+m, n)
		}
		if p.NumNulls() == 0 && p.Dictionary() == nil && fast(dst[i*c+j:], c, p.Data(), r.kinds[j], m) {
			i += m
			pq.Release(p)
			continue
		}
		// The general path: dictionary-encoded pages, optional columns
		// with nulls, booleans.
		if cap(vals) < m {
			vals = make([]pq.Value, m)
		}
		vr := p.Values()
		k := 0
		for k < m {
			got, err := vr.ReadValues(vals[k:m])
			k += got
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				pq.Release(p)
				return err
			}
		}
		pq.Release(p)
		if k != m {
			return fmt.Errorf("a page of %d values decoded %d", m, k)
		}
		for t, v := range vals[:m] {
			if v.IsNull() {
				return fmt.Errorf("row %d (row %d of the file): %w", i+t, r.firsts[g]+i+t, errNull)
			}
			var x float64
			switch r.kinds[j] {
			case pq.Float:
				x = float64(v.Float())
			case pq.Double:
				x = v.Double()
			case pq.Int32:
				x = float64(v.Int32())
			case pq.Int64:
				x = float64(v.Int64())
			case pq.Boolean:
				if v.Boolean() {
					x = 1
				}
			}
			dst[(i+t)*c+j] = x
		}
		i += m
	}
	if i != n {
		return fmt.Errorf("%d values, the row group has %d rows (truncated?)", i, n)
	}
	return nil
}

// fast decodes the m values of a page held as a plain slice, without
// nulls, into dst with stride c, and reports whether it could.
func fast(dst []float64, c int, data encoding.Values, kind pq.Kind, m int) bool {
	switch kind {
	case pq.Float:
		v := data.Float()
		if len(v) != m {
			return false
		}
		for t, x := range v {
			dst[t*c] = float64(x)
		}
	case pq.Double:
		v := data.Double()
		if len(v) != m {
			return false
		}
		for t, x := range v {
			dst[t*c] = x
		}
	case pq.Int32:
		v := data.Int32()
		if len(v) != m {
			return false
		}
		for t, x := range v {
			dst[t*c] = float64(x)
		}
	case pq.Int64:
		v := data.Int64()
		if len(v) != m {
			return false
		}
		for t, x := range v {
			dst[t*c] = float64(x)
		}
	default:
		return false
	}
	return true
}

// Pass decodes the row groups in order and calls fn on each (first is its
// first row's index, values its rows row-major, Cols a row), through one
// buffer of the largest row group's values: fn must not keep values. An
// error from fn ends the pass and is returned.
func (r *Reader) Pass(fn func(first int, values []float64) error) error {
	var buf []float64
	for g := range r.groups {
		var err error
		buf, err = r.ReadRowGroup(g, buf)
		if err != nil {
			return err
		}
		if err := fn(r.firsts[g], buf); err != nil {
			return err
		}
	}
	return nil
}

// isDecimal reports whether t is a DECIMAL (an integer scaled by a power
// of ten that this package does not apply).
func isDecimal(t pq.Type) bool {
	if lt := t.LogicalType(); lt != nil {
		if _, ok := lt.Value.(*format.DecimalType); ok {
			return true
		}
	}
	ct := t.ConvertedType()
	return ct != nil && *ct == deprecated.Decimal
}
