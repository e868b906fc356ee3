// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"encoding/binary"
	"fmt"
	"hash/crc64"
	"io"
	"math"
	"os"
	"strings"
)

// File is an open dataset file. Its methods read into buffers the caller
// gives or into one of a size the caller chooses, so that its memory is
// bounded whatever the file's size. It is safe for concurrent use (its
// reads are positioned: os.File.ReadAt).
type File struct {
	f          *os.File
	rows, cols int
	size       int   // bytes a value
	data       int64 // offset of the first row
	crc        uint64
	names      []string
}

// Open opens the dataset file path and checks its header and size; with
// verify, it also reads the whole file once (in blocks of 1 MiB) and
// checks its data against the header's CRC-64. A file that fails a check
// is an error wrapping ErrCorrupt, saying which.
func Open(path string, verify bool) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	d, err := open(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	if verify {
		if err := d.Verify(); err != nil {
			f.Close()
			return nil, err
		}
	}
	return d, nil
}

func open(f *os.File, path string) (*File, error) {
	corrupt := func(format string, args ...any) error {
		return fmt.Errorf("dataset: %s: %s: %w", path, fmt.Sprintf(format, args...), ErrCorrupt)
	}
	h := make([]byte, headerFixed)
	if _, err := io.ReadFull(f, h); err != nil {
		return nil, corrupt("header: %v", err)
	}
	if string(h[:8]) != magic {
		return nil, corrupt("no dataset magic %q at its start", magic)
	}
	if v := binary.LittleEndian.Uint32(h[8:]); v != version {
		return nil, corrupt("layout version %d, want %d", v, version)
	}
	size := int(binary.LittleEndian.Uint32(h[12:]))
	rows := binary.LittleEndian.Uint64(h[16:])
	cols := binary.LittleEndian.Uint64(h[24:])
	nl := binary.LittleEndian.Uint64(h[40:])
	if (size != 4 && size != 8) || cols == 0 || cols > 1<<20 || rows > 1<<40 || nl > 1<<26 {
		return nil, corrupt("header out of range (value size %d, %d rows, %d columns)", size, rows, cols)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if int64(headerFixed)+int64(nl) > st.Size() {
		return nil, corrupt("column names of %d bytes in a file of %d", nl, st.Size())
	}
	names := make([]byte, nl)
	if _, err := io.ReadFull(f, names); err != nil {
		return nil, corrupt("column names: %v", err)
	}
	d := &File{f: f, rows: int(rows), cols: int(cols), size: size, data: int64(headerFixed) + int64(nl),
		crc: binary.LittleEndian.Uint64(h[32:]), names: strings.Split(string(names), "\n")}
	if len(d.names) != d.cols {
		return nil, corrupt("%d column names for %d columns", len(d.names), d.cols)
	}
	if want := d.data + int64(d.rows)*int64(d.cols)*int64(size); st.Size() != want {
		return nil, corrupt("%d bytes, its header says %d (%d rows of %d %s): truncated or appended to", st.Size(), want, d.rows, d.cols, typeName(size))
	}
	return d, nil
}

// Rows returns the number of rows.
func (d *File) Rows() int { return d.rows }

// Cols returns the number of columns.
func (d *File) Cols() int { return d.cols }

// Names returns the columns' names.
func (d *File) Names() []string { return append([]string(nil), d.names...) }

// ValueSize returns the bytes of a stored value: 4 (float32) or 8.
func (d *File) ValueSize() int { return d.size }

// Checksum returns the CRC-64/ECMA of the data that the header records.
func (d *File) Checksum() uint64 { return d.crc }

// Close closes the file.
func (d *File) Close() error { return d.f.Close() }

// rowBytes returns the bytes of a row.
func (d *File) rowBytes() int64 { return int64(d.cols) * int64(d.size) }

// Verify reads the whole file once, in blocks of 1 MiB, and checks its data
// against the header's CRC-64.
func (d *File) Verify() error {
	h := crc64.New(crcTable)
	if _, err := io.Copy(h, io.NewSectionReader(d.f, d.data, int64(d.rows)*d.rowBytes())); err != nil {
		return err
	}
	if got := h.Sum64(); got != d.crc {
		return fmt.Errorf("dataset: %s: data checksum %016x, its header says %016x: changed since written: %w", d.f.Name(), got, d.crc, ErrCorrupt)
	}
	return nil
}

// ReadRows writes the rows idx (0-based) into dst, row-major, len(idx)·Cols
// values, one positioned read a row into buf (at least Cols·ValueSize
// bytes; nil allocates one).
func (d *File) ReadRows(dst []float64, idx []int, buf []byte) error {
	rb := d.rowBytes()
	if len(dst) < len(idx)*d.cols {
		return fmt.Errorf("dataset: ReadRows: dst of %d values for %d rows of %d", len(dst), len(idx), d.cols)
	}
	if int64(len(buf)) < rb {
		buf = make([]byte, rb)
	}
	buf = buf[:rb]
	for k, i := range idx {
		if i < 0 || i >= d.rows {
			return fmt.Errorf("dataset: ReadRows: row %d not in [0, %d)", i, d.rows)
		}
		if _, err := d.f.ReadAt(buf, d.data+int64(i)*rb); err != nil {
			return fmt.Errorf("dataset: row %d: %w", i, err)
		}
		d.decode(dst[k*d.cols:(k+1)*d.cols], buf)
	}
	return nil
}

// decode turns the bytes of one or more rows into values.
func (d *File) decode(dst []float64, b []byte) {
	if d.size == 4 {
		for j := range dst {
			dst[j] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:])))
		}
		return
	}
	for j := range dst {
		dst[j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
	}
}

// Pass calls fn on the rows in order, in blocks of at most block rows
// (first is the first row's index, values its rows row-major), reading
// each block with one positioned read into a buffer of block rows: the
// memory a pass holds is that buffer and block·Cols values. fn must not
// keep values; an error from it ends the pass and is returned.
func (d *File) Pass(block int, fn func(first int, values []float64) error) error {
	if block < 1 {
		return fmt.Errorf("dataset: Pass: block of %d rows, want ≥ 1", block)
	}
	block = min(block, max(d.rows, 1))
	rb := d.rowBytes()
	buf := make([]byte, int64(block)*rb)
	vals := make([]float64, block*d.cols)
	for first := 0; first < d.rows; first += block {
		n := min(block, d.rows-first)
		b := buf[:int64(n)*rb]
		if _, err := d.f.ReadAt(b, d.data+int64(first)*rb); err != nil {
			return fmt.Errorf("dataset: rows %d–%d: %w", first, first+n-1, err)
		}
		v := vals[:n*d.cols]
		d.decode(v, b)
		if err := fn(first, v); err != nil {
			return err
		}
	}
	return nil
}
