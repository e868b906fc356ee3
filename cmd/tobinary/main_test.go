// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	pqgo "github.com/parquet-go/parquet-go"
	"github.com/sgmcmc-go/sgmcmc/dataset"
	"github.com/sgmcmc-go/sgmcmc/dataset/parquet"
)

// TestConvert: a CSV file converts to a dataset that reads back its values;
// a bad cell stops the conversion naming row, column and cell, and leaves
// no output behind.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "d.csv"), filepath.Join(dir, "d.bin")
	if err := os.WriteFile(in, []byte("y,x1,x2\n1,0.5,-2\n0,1.5,3e2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := convert(in, out, false, 0, io.Discard)
	if err != nil || n != 2 {
		t.Fatalf("convert: %d rows, %v", n, err)
	}
	d, err := dataset.Open(out, true)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 6)
	if err := d.Read(got, []int{0, 1}); err != nil {
		t.Fatal(err)
	}
	if want := []float64{1, 0.5, -2, 0, 1.5, 300}; !slices.Equal(got, want) {
		t.Errorf("read back %v, want %v", got, want)
	}
	d.Close()
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"y,x\n1,2\n3,NA\n": `row 2, column x: "NA"`,
		"y,x\n1,2\n3\n":    "row 2",
		"y,x\n":            "no rows",
		"y,x\n1,abc\n":     `row 1, column x: "abc"`,
		"":                 "no header",
	} {
		if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := convert(in, out, true, 0, io.Discard)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want it to say %q", text, err, want)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%q: the output was left behind", text)
		}
	}
}

// TestConvertParquet: a Parquet file, known by its extension or by its
// magic bytes, converts to a dataset holding its values exactly (float32
// when all its columns are FLOAT, float64 when one is DOUBLE); a bad
// Parquet file is refused naming the column and the row group, or saying
// it is not whole, and leaves no output behind.
func TestConvertParquet(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "d.bin")
	names := []string{"y", "x1", "x2"}
	var values []float64
	for i := range 500 {
		values = append(values, float64(i%2), float64(i)*0.1, -float64(i)/3)
	}
	for _, tc := range []struct {
		name string
		size int
	}{{"a.parquet", 4}, {"b.parquet", 8}, {"no-extension", 4}} {
		in := filepath.Join(dir, tc.name)
		w, err := parquet.Create(in, names, tc.size, 64)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < len(values); k += 3 {
			if err := w.Write(values[k : k+3]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		var progress strings.Builder
		n, err := convertAny(in, out, false, time.Second, &progress)
		if err != nil || n != 500 {
			t.Fatalf("%s: convert: %d rows, %v", tc.name, n, err)
		}
		if !strings.Contains(progress.String(), "500 rows of 3") {
			t.Errorf("%s: progress %q", tc.name, progress.String())
		}
		d, err := dataset.Open(out, true)
		if err != nil {
			t.Fatal(err)
		}
		if d.ValueSize() != tc.size || !slices.Equal(d.Names(), names) {
			t.Errorf("%s: value size %d, names %v; want %d, %v", tc.name, d.ValueSize(), d.Names(), tc.size, names)
		}
		idx := make([]int, 500)
		for i := range idx {
			idx[i] = i
		}
		got := make([]float64, len(values))
		if err := d.Read(got, idx); err != nil {
			t.Fatal(err)
		}
		for k, v := range values {
			want := v
			if tc.size == 4 {
				want = float64(float32(v))
			}
			if got[k] != want {
				t.Fatalf("%s: value %d = %v, want %v", tc.name, k, got[k], want)
			}
		}
		d.Close()
		os.Remove(out)
	}

	// Bad files: cut short; a string column; a null.
	whole, err := os.ReadFile(filepath.Join(dir, "a.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.parquet")
	type withString struct {
		X float32 `parquet:"x"`
		S string  `parquet:"city"`
	}
	type withNull struct {
		X float32  `parquet:"x"`
		N *float32 `parquet:"n,optional"`
	}
	one := float32(1)
	for _, tc := range []struct {
		write func() error
		want  string
	}{
		{func() error { return os.WriteFile(bad, whole[:len(whole)/2], 0o644) }, "not a whole Parquet file"},
		{func() error { return pqgo.WriteFile(bad, []withString{{1, "Oslo"}}) }, `column "city"`},
		{func() error {
			return pqgo.WriteFile(bad, []withNull{{1, &one}, {2, &one}, {3, nil}}, pqgo.MaxRowsPerRowGroup(2))
		}, `row group 1 (rows 2–2), column "n": row 0 (row 2 of the file): null`},
	} {
		if err := tc.write(); err != nil {
			t.Fatal(err)
		}
		_, err := convertAny(bad, out, false, 0, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want it to say %q", err, tc.want)
		}
		if _, serr := os.Stat(out); !os.IsNotExist(serr) {
			t.Errorf("%q: the output was left behind", tc.want)
		}
		if m, _ := filepath.Glob(filepath.Join(dir, "*staging*")); len(m) != 0 {
			t.Errorf("%q: left behind %v", tc.want, m)
		}
	}
}
