// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parquet

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sgmcmc-go/sgmcmc/dataset"
)

// progressEvery is the least time between two progress lines.
const progressEvery = 2 * time.Second

// Convert writes the dataset file binaryPath from the Parquet file
// parquetPath in one sequential pass, a row group at a time, and returns
// the rows written. Values are stored in size bytes (4: float32, 8:
// float64, 0: the Reader's ValueSize, float32 when every column is FLOAT
// or BOOLEAN).
// Progress lines (rows, MB/s) go to progress, at most one every 2 s, and
// a last one at the end; nil is no progress. The file is written under a
// temporary name beside binaryPath and renamed once closed, so that
// binaryPath is never a half-written file; on an error nothing is left.
func Convert(parquetPath, binaryPath string, size int, progress io.Writer) (rows int, err error) {
	r, err := Open(parquetPath)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	return convert(r, binaryPath, size, progress)
}

func convert(r *Reader, binaryPath string, size int, progress io.Writer) (rows int, err error) {
	if progress == nil {
		progress = io.Discard
	}
	if size == 0 {
		size = r.ValueSize()
	}
	if r.Rows() == 0 {
		return 0, fmt.Errorf("parquet: %s: no rows", r.path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(binaryPath), filepath.Base(binaryPath)+".staging-*")
	if err != nil {
		return 0, err
	}
	tmp.Close()
	// CreateTemp's 0600 would make the staged file private, unlike one
	// that dataset.Create makes.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	w, err := dataset.Create(tmp.Name(), r.names, size)
	if err != nil {
		return 0, err
	}
	c := r.Cols()
	t0 := time.Now()
	last := t0
	// Decoding a row group and writing the one before overlap: the
	// writer has a goroutine of its own, fed a copy of each decoded group
	// through one spare buffer (two row groups in memory).
	blocks, free := make(chan []float64, 1), make(chan []float64, 1)
	free <- nil
	werr := make(chan error, 1)
	go func() {
		var err error
		for b := range blocks {
			if err == nil {
				if err = w.WriteRows(b); err != nil {
					err = fmt.Errorf("parquet: %s: %w", r.path, err)
				}
			}
			free <- b
		}
		werr <- err
	}()
	err = r.Pass(func(first int, values []float64) error {
		b := <-free
		if cap(b) < len(values) {
			b = make([]float64, len(values))
		}
		b = b[:len(values)]
		copy(b, values)
		blocks <- b
		if time.Since(last) >= progressEvery {
			last = time.Now()
			done := first + len(values)/c
			fmt.Fprintf(progress, "parquet: %s: %d of %d rows (%.0f%%), %.0f MB/s of values\n", r.path, done, r.rows,
				100*float64(done)/float64(r.rows), mbps(done*c*size, time.Since(t0)))
		}
		return nil
	})
	close(blocks)
	if e := <-werr; err == nil {
		err = e
	}
	if err != nil {
		w.Close()
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), binaryPath); err != nil {
		return 0, err
	}
	fmt.Fprintf(progress, "parquet: %s: %d rows of %d %s staged into %s in %.1f s (%.0f MB/s of values)\n", r.path, r.rows, c,
		typeName(size), binaryPath, time.Since(t0).Seconds(), mbps(r.rows*c*size, time.Since(t0)))
	return r.rows, nil
}

func mbps(bytes int, d time.Duration) float64 { return float64(bytes) / 1e6 / max(d.Seconds(), 1e-9) }

// Stage returns the dataset file binaryPath that holds the rows of the
// Parquet file parquetPath, converting it (Convert, values as the
// Reader's ValueSize) unless binaryPath already holds it: a whole dataset
// file (dataset.Open's header and size checks pass) modified no earlier
// than the Parquet file, with its row count, column count and names. The sampler
// then reads exact uniform minibatches from it by random row access (see
// the package doc). The returned File is open; the caller closes it.
func Stage(parquetPath, binaryPath string, progress io.Writer) (*dataset.File, error) {
	if progress == nil {
		progress = io.Discard
	}
	r, err := Open(parquetPath)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if d, ok := staged(r, binaryPath); ok {
		fmt.Fprintf(progress, "parquet: %s: reusing %s (%d rows)\n", parquetPath, binaryPath, d.Rows())
		return d, nil
	}
	if _, err := convert(r, binaryPath, 0, progress); err != nil {
		return nil, err
	}
	return dataset.Open(binaryPath, false)
}

// staged returns the dataset file binaryPath, open, when it holds r's rows
// already.
func staged(r *Reader, binaryPath string) (*dataset.File, bool) {
	pst, err := r.f.Stat()
	if err != nil {
		return nil, false
	}
	bst, err := os.Stat(binaryPath)
	// Not before, rather than after: file times tick in milliseconds on
	// some file systems, and a file staged right after the Parquet file
	// was written can carry the same time.
	if err != nil || bst.ModTime().Before(pst.ModTime()) {
		return nil, false
	}
	d, err := dataset.Open(binaryPath, false)
	if err != nil {
		return nil, false
	}
	if d.Rows() != r.Rows() || d.Cols() != r.Cols() || !slices.Equal(d.Names(), r.names) {
		d.Close()
		return nil, false
	}
	return d, true
}
