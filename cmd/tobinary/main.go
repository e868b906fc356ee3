// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Command tobinary converts a CSV or Parquet file into the dataset
// package's binary layout, streaming (its memory does not grow with the
// file), with progress on standard error, and prints the CRC-64 of the
// data that the file's header records (and dataset.Open checks).
//
// A CSV file has a header of column names and numeric cells. A cell that
// is missing or not a finite number stops it with an error naming the row
// (1-based, the header being row 0), the column and the cell.
//
// A Parquet file (by its extension .parquet, .parq or .pq, or its magic
// bytes "PAR1") is read a row group at a time (dataset/parquet): its
// columns must be flat numbers (FLOAT, DOUBLE, INT32, INT64, BOOLEAN); a
// null, a string or list column, or a truncated file stops it with an
// error naming the column and the row group. Its values are stored as
// float32 when every column is FLOAT (or BOOLEAN) or -float32 is given,
// else float64;
// progress comes every 2 s whatever -progress says (0 still silences it).
//
// On an error the output is removed, never left half-written.
//
//	go run ./cmd/tobinary -in data.csv -out data.bin            # float64
//	go run ./cmd/tobinary -in data.csv -out data.bin -float32   # half the size
//	go run ./cmd/tobinary -in data.parquet -out data.bin        # float32 if all FLOAT
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sgmcmc-go/sgmcmc/dataset"
	"github.com/sgmcmc-go/sgmcmc/dataset/parquet"
)

func main() {
	in := flag.String("in", "", "the CSV or Parquet file")
	out := flag.String("out", "", "the dataset file to write")
	f32 := flag.Bool("float32", false, "store values as float32")
	every := flag.Duration("progress", 5*time.Second, "progress interval (0: none)")
	flag.Parse()
	if *in == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	n, err := convertAny(*in, *out, *f32, *every, os.Stderr)
	if err != nil {
		log.Fatal(err)
	}
	d, err := dataset.Open(*out, false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "tobinary: %d rows of %d columns (%d bytes a value) written to %s, data CRC-64/ECMA %016x\n",
		n, d.Cols(), d.ValueSize(), *out, d.Checksum())
	d.Close()
}

// convertAny converts in, a Parquet file (isParquet) or else a CSV file,
// into the dataset file out and returns the rows written; on an error it
// leaves no out.
func convertAny(in, out string, f32 bool, every time.Duration, progress io.Writer) (int, error) {
	isPQ, err := isParquet(in)
	if err != nil {
		return 0, err
	}
	if !isPQ {
		return convert(in, out, f32, every, progress)
	}
	size := 0 // float32 when every column is FLOAT
	if f32 {
		size = 4
	}
	if every <= 0 {
		progress = nil
	}
	n, err := parquet.Convert(in, out, size, progress)
	if err != nil {
		return 0, fmt.Errorf("tobinary: %w", err)
	}
	return n, nil
}

// isParquet reports whether path is named as a Parquet file or starts with
// Parquet's magic bytes "PAR1".
func isParquet(path string) (bool, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet", ".parq", ".pq":
		return true, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var m [4]byte
	n, _ := io.ReadFull(f, m[:])
	return n == 4 && string(m[:]) == "PAR1", nil
}

// convert writes the dataset file out from the CSV file in and returns the
// rows written; on an error it removes out.
func convert(in, out string, f32 bool, every time.Duration, progress io.Writer) (rows int, err error) {
	fh, err := os.Open(in)
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("tobinary: %s: empty (no header)", in)
		}
		return 0, fmt.Errorf("tobinary: %s: header: %w", in, err)
	}
	names := append([]string(nil), head...)
	size := 8
	if f32 {
		size = 4
	}
	w, err := dataset.Create(out, names, size)
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			w.Close()
			os.Remove(out)
		}
	}()
	row := make([]float64, len(names))
	last := time.Now()
	for line := 1; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return w.Rows(), fmt.Errorf("tobinary: %s: row %d: %w", in, line, err)
		}
		for j, c := range rec {
			v, perr := strconv.ParseFloat(c, 64)
			if perr != nil {
				return w.Rows(), fmt.Errorf("tobinary: %s: row %d, column %s: %q is not a number (a missing value? drop or impute the row)", in, line, names[j], c)
			}
			row[j] = v
		}
		if err := w.Write(row); err != nil {
			return w.Rows(), fmt.Errorf("tobinary: %s: %w", in, err)
		}
		if every > 0 && time.Since(last) >= every {
			fmt.Fprintf(progress, "tobinary: %d rows\n", w.Rows())
			last = time.Now()
		}
	}
	if w.Rows() == 0 {
		return 0, fmt.Errorf("tobinary: %s: a header but no rows", in)
	}
	return w.Rows(), w.Close()
}
