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
	"sync"
	"sync/atomic"
	"time"
)

// File is an open dataset file, a Table. Its methods read into buffers the
// caller gives, pooled buffers of at most 1 MiB, or one of a size the
// caller chooses, so that its memory is bounded whatever the file's size. It is safe for concurrent use (its
// reads are positioned: os.File.ReadAt).
type File struct {
	f          *os.File
	rows, cols int
	size       int   // bytes a value
	data       int64 // offset of the first row
	crc        uint64
	names      []string
	chunk      int       // rows of a Read buffer
	bufs       sync.Pool // of *[]byte of chunk rows
	bytes      atomic.Int64
	nanos      atomic.Int64
	timed      bool
	// The data rows, when Cache loaded them: the values as stored
	// (float32s or float64s).
	cache32 []float32
	cache64 []float64
}

// DefaultBudget is the memory a File's cache may take unless the caller
// says otherwise (Cache): 1 GiB, which holds 10⁷ rows of 21 float32s.
const DefaultBudget = 1 << 30

// readChunk bounds the rows a run of Read reads at once (and the
// pooled buffer of each concurrent reader): 1 MiB of row data.
const readChunk = 1 << 20

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
	d.chunk = max(1, readChunk/int(d.rowBytes()))
	d.bufs.New = func() any { b := make([]byte, int64(d.chunk)*d.rowBytes()); return &b }
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
		return d.checksumError(got)
	}
	return nil
}

// checksumError is the error of data whose CRC-64 is got, not the header's.
func (d *File) checksumError(got uint64) error {
	return fmt.Errorf("dataset: %s: data checksum %016x, its header says %016x: changed since written: %w", d.f.Name(), got, d.crc, ErrCorrupt)
}

// Read writes the rows idx (0-based) into dst, row-major, len(idx)·Cols
// values. Each run of consecutive indices is one positioned read (a full
// pass's part is one run; a random minibatch is a read a row), through a
// pooled buffer of at most 1 MiB, so that it allocates nothing once warm
// and holds bounded memory; a cached file (Cache) is read from memory. It
// is safe for concurrent use.
func (d *File) Read(dst []float64, idx []int) error {
	if len(dst) < len(idx)*d.cols {
		return fmt.Errorf("dataset: Read: dst of %d values for %d rows of %d", len(dst), len(idx), d.cols)
	}
	if d.cache32 != nil || d.cache64 != nil {
		c := d.cols
		for k, i := range idx {
			if i < 0 || i >= d.rows {
				return fmt.Errorf("dataset: Read: row %d not in [0, %d)", i, d.rows)
			}
			row := dst[k*c : (k+1)*c]
			if d.cache64 != nil {
				copy(row, d.cache64[i*c:])
				continue
			}
			src := d.cache32[i*c : (i+1)*c]
			for j, v := range src {
				row[j] = float64(v)
			}
		}
		return nil
	}
	rb := d.rowBytes()
	bp := d.bufs.Get().(*[]byte)
	defer d.bufs.Put(bp)
	var t0 time.Time
	if d.timed {
		t0 = time.Now()
	}
	var read int64
	for k := 0; k < len(idx); {
		i := idx[k]
		if i < 0 || i >= d.rows {
			return fmt.Errorf("dataset: Read: row %d not in [0, %d)", i, d.rows)
		}
		n := 1
		for n < d.chunk && k+n < len(idx) && idx[k+n] == i+n {
			n++
		}
		if i+n > d.rows {
			return fmt.Errorf("dataset: Read: row %d not in [0, %d)", i+n-1, d.rows)
		}
		b := (*bp)[:int64(n)*rb]
		if _, err := d.f.ReadAt(b, d.data+int64(i)*rb); err != nil {
			return fmt.Errorf("dataset: %s: rows %d–%d: %w", d.f.Name(), i, i+n-1, err)
		}
		d.decode(dst[k*d.cols:(k+n)*d.cols], b)
		read += int64(len(b))
		k += n
	}
	d.bytes.Add(read)
	if d.timed {
		d.nanos.Add(int64(time.Since(t0)))
	}
	return nil
}

// Cache reads the file's rows into memory, as stored, when they take at
// most budget bytes (DefaultBudget is the default a caller should pass),
// and reports whether it did: from then on Read decodes rows from
// memory instead of reading them from the file, and Stats counts no more
// bytes. Data beyond the budget stay on disk, read into bounded buffers.
// The file's checksum is verified on the way in.
func (d *File) Cache(budget int64) (bool, error) {
	n := int64(d.rows) * d.rowBytes()
	if n > budget {
		return false, nil
	}
	if d.cache32 != nil || d.cache64 != nil {
		return true, nil
	}
	nv := d.rows * d.cols
	var c32 []float32
	var c64 []float64
	if d.size == 4 {
		c32 = make([]float32, nv)
	} else {
		c64 = make([]float64, nv)
	}
	// In blocks of readChunk rows, through one buffer, checksummed on the
	// way.
	h := crc64.New(crcTable)
	buf := make([]byte, int64(d.chunk)*d.rowBytes())
	for first := 0; first < d.rows; first += d.chunk {
		rows := min(d.chunk, d.rows-first)
		b := buf[:int64(rows)*d.rowBytes()]
		if _, err := d.f.ReadAt(b, d.data+int64(first)*d.rowBytes()); err != nil {
			return false, fmt.Errorf("dataset: %s: caching rows %d–%d: %w", d.f.Name(), first, first+rows-1, err)
		}
		h.Write(b)
		v0 := first * d.cols
		for j := range rows * d.cols {
			if c32 != nil {
				c32[v0+j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
			} else {
				c64[v0+j] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*j:]))
			}
		}
	}
	if got := h.Sum64(); got != d.crc {
		return false, d.checksumError(got)
	}
	d.bytes.Add(n)
	d.cache32, d.cache64 = c32, c64
	return true, nil
}

// Stats returns the bytes read by Read and Pass since Open, and the
// wall time spent in those reads (summed over concurrent readers; zero
// unless Timed was called).
func (d *File) Stats() (bytes int64, seconds float64) {
	return d.bytes.Load(), float64(d.nanos.Load()) / 1e9
}

// Timed makes Read and Pass time their reads for Stats (two clock
// readings a call). Call it before the file is read.
func (d *File) Timed() { d.timed = true }

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
		d.bytes.Add(int64(len(b)))
		v := vals[:n*d.cols]
		d.decode(v, b)
		if err := fn(first, v); err != nil {
			return err
		}
	}
	return nil
}
