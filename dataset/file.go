// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package dataset gives a sampler data that need not fit in memory. A
// Table is all a sampler needs of its data: the number of items, rows at
// random for minibatches, and runs of consecutive rows for full passes.
// NewModel turns a Table and a likelihood written on rows (RowModel) into
// a sgmcmc.Model that sample.Run and the samplers run as any other.
// Tables: Memory (rows in memory, handed over in place) and File.
//
// File is a numeric table on disk in a layout read with bounded memory:
// exact uniform minibatches by random row access (one positioned read a
// row into a pooled buffer), runs of rows in one read, sequential passes
// in blocks of a size the caller chooses, and, within a memory budget
// the caller sets (Cache; DefaultBudget 1 GiB), the whole table read into
// memory once. A file carries a CRC-64 of its data in its header, so that
// a truncated or changed file is refused, not silently read.
//
// The layout, all little-endian:
//
//	magic "SGMCDATA" (8 bytes), version uint32 (1), type uint32 (4: float32, 8: float64),
//	rows uint64, cols uint64, CRC-64/ECMA of the data uint64, names' length uint64,
//	the column names joined by '\n', then the rows, row-major, each value in the type.
//
// Create writes a file by streaming rows (cmd/tobinary converts a CSV
// file); Open reads one. Nothing here maps the file into memory: pages of
// a mapping count in a process's resident memory once touched, so reading
// a file larger than memory end to end through a mapping would not stay
// within a memory budget.
package dataset

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc64"
	"io"
	"math"
	"os"
	"strings"
)

// The magic bytes and version of the layout.
const (
	magic   = "SGMCDATA"
	version = 1
)

// headerFixed is the size of the header before the names.
const headerFixed = 8 + 4 + 4 + 8 + 8 + 8 + 8

var crcTable = crc64.MakeTable(crc64.ECMA)

// ErrCorrupt is wrapped by the error of a file that is not a whole,
// unchanged dataset file: a bad header, a size that does not match it, a
// checksum that does not match its data.
var ErrCorrupt = errors.New("dataset: not a whole, unchanged dataset file")

// Writer streams rows into a new dataset file.
type Writer struct {
	f      *os.File
	w      *bufio.Writer
	crc    hash.Hash64
	size   int // bytes a value
	cols   int
	rows   uint64
	names  []string
	buf    []byte
	block  []byte // WriteRows' bytes
	closed bool
}

// Create starts the dataset file path with the named columns, each value
// stored as float32 (size 4) or float64 (size 8). The file is complete
// only after Close.
func Create(path string, names []string, size int) (*Writer, error) {
	if size != 4 && size != 8 {
		return nil, fmt.Errorf("dataset: Create: value size %d, want 4 (float32) or 8 (float64)", size)
	}
	if len(names) == 0 {
		return nil, errors.New("dataset: Create: no columns")
	}
	for j, n := range names {
		if n == "" || strings.ContainsRune(n, '\n') {
			return nil, fmt.Errorf("dataset: Create: column %d's name %q: want non-empty, without a newline", j+1, n)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := &Writer{f: f, crc: crc64.New(crcTable), size: size, cols: len(names), names: append([]string(nil), names...), buf: make([]byte, size*len(names))}
	// The header is written at Close, when rows and the checksum are known.
	if _, err := f.Seek(int64(headerFixed+len(strings.Join(names, "\n"))), io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	w.w = bufio.NewWriterSize(f, 1<<20)
	return w, nil
}

// Write appends a row of len(names) values. A value a float32 cannot hold
// (beyond ±3.4·10³⁸) is an error naming the row and the column; NaN and
// ±Inf are refused too: the models of this module do not take them.
func (w *Writer) Write(row []float64) error {
	if w.closed {
		return errors.New("dataset: Write after Close")
	}
	if len(row) != w.cols {
		return fmt.Errorf("dataset: row %d has %d values, want %d", w.rows+1, len(row), w.cols)
	}
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) || (w.size == 4 && math.Abs(v) > math.MaxFloat32) {
			return fmt.Errorf("dataset: row %d, column %s: %v is not a finite %s", w.rows+1, w.names[j], v, typeName(w.size))
		}
		if w.size == 4 {
			binary.LittleEndian.PutUint32(w.buf[4*j:], math.Float32bits(float32(v)))
		} else {
			binary.LittleEndian.PutUint64(w.buf[8*j:], math.Float64bits(v))
		}
	}
	w.crc.Write(w.buf)
	if _, err := w.w.Write(w.buf); err != nil {
		return err
	}
	w.rows++
	return nil
}

// WriteRows appends the rows of values (row-major, len(names) values a
// row), as Write would one by one, converting and checksumming them in
// blocks of 64 KiB: the bulk path of a converter.
func (w *Writer) WriteRows(values []float64) error {
	if w.closed {
		return errors.New("dataset: Write after Close")
	}
	if len(values)%w.cols != 0 {
		return fmt.Errorf("dataset: WriteRows: %d values are not rows of %d", len(values), w.cols)
	}
	const blockBytes = 64 << 10
	if w.block == nil {
		w.block = make([]byte, blockBytes)
	}
	per := max(1, blockBytes/(w.cols*w.size)) * w.cols // whole rows a block
	for lo := 0; lo < len(values); lo += per {
		part := values[lo:min(lo+per, len(values))]
		b := w.block[:len(part)*w.size]
		for k, v := range part {
			if math.IsNaN(v) || math.IsInf(v, 0) || (w.size == 4 && math.Abs(v) > math.MaxFloat32) {
				return fmt.Errorf("dataset: row %d, column %s: %v is not a finite %s", w.rows+uint64(k/w.cols)+1, w.names[k%w.cols], v, typeName(w.size))
			}
			if w.size == 4 {
				binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(float32(v)))
			} else {
				binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(v))
			}
		}
		w.crc.Write(b)
		if _, err := w.w.Write(b); err != nil {
			return err
		}
		w.rows += uint64(len(part) / w.cols)
	}
	return nil
}

func typeName(size int) string {
	if size == 4 {
		return "float32"
	}
	return "float64"
}

// Rows returns the number of rows written so far.
func (w *Writer) Rows() int { return int(w.rows) }

// Close writes the header, with the row count and the checksum, and
// closes the file.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if err := w.w.Flush(); err != nil {
		w.f.Close()
		return err
	}
	names := strings.Join(w.names, "\n")
	h := make([]byte, headerFixed, headerFixed+len(names))
	copy(h, magic)
	binary.LittleEndian.PutUint32(h[8:], version)
	binary.LittleEndian.PutUint32(h[12:], uint32(w.size))
	binary.LittleEndian.PutUint64(h[16:], w.rows)
	binary.LittleEndian.PutUint64(h[24:], uint64(w.cols))
	binary.LittleEndian.PutUint64(h[32:], w.crc.Sum64())
	binary.LittleEndian.PutUint64(h[40:], uint64(len(names)))
	h = append(h, names...)
	if _, err := w.f.WriteAt(h, 0); err != nil {
		w.f.Close()
		return err
	}
	return w.f.Close()
}
