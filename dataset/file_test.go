// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package dataset

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// table returns n rows of 3 columns of N(0, 1) values.
func table(n int) [][]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = []float64{r.NormFloat64(), r.NormFloat64(), float64(i)}
	}
	return rows
}

func write(t *testing.T, path string, rows [][]float64, size int) {
	t.Helper()
	w, err := Create(path, []string{"a", "b", "i"}, size)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRoundTrip: a file written row by row reads back the same values
// (float64 exactly, float32 to its rounding), by random rows and by passes
// of any block size, and verifies.
func TestRoundTrip(t *testing.T) {
	rows := table(1000)
	for _, size := range []int{4, 8} {
		path := filepath.Join(t.TempDir(), "d.bin")
		write(t, path, rows, size)
		d, err := Open(path, true)
		if err != nil {
			t.Fatal(err)
		}
		if d.Rows() != 1000 || d.Cols() != 3 || strings.Join(d.Names(), ",") != "a,b,i" {
			t.Fatalf("size %d: %d × %d %v", size, d.Rows(), d.Cols(), d.Names())
		}
		want := func(i, j int) float64 {
			if size == 4 {
				return float64(float32(rows[i][j]))
			}
			return rows[i][j]
		}
		idx := []int{999, 0, 500, 500, 3}
		got := make([]float64, len(idx)*3)
		if err := d.Read(got, idx); err != nil {
			t.Fatal(err)
		}
		for k, i := range idx {
			for j := range 3 {
				if got[k*3+j] != want(i, j) {
					t.Fatalf("size %d: row %d col %d: %v, want %v", size, i, j, got[k*3+j], want(i, j))
				}
			}
		}
		for _, block := range []int{1, 7, 1000, 5000} {
			next := 0
			err := d.Pass(block, func(first int, v []float64) error {
				if first != next {
					t.Fatalf("block %d: first %d, want %d", block, first, next)
				}
				for k := range len(v) / 3 {
					for j := range 3 {
						if v[k*3+j] != want(first+k, j) {
							t.Fatalf("size %d block %d: row %d col %d", size, block, first+k, j)
						}
					}
				}
				next += len(v) / 3
				return nil
			})
			if err != nil || next != 1000 {
				t.Fatalf("block %d: %v after %d rows", block, err, next)
			}
		}
		d.Close()
	}
}

// TestRefused: a truncated file, a file with a byte changed and a file
// that is not a dataset are refused with ErrCorrupt, naming why; a value
// float32 cannot hold, NaN and a short row are refused when written,
// naming the row and column.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.bin")
	write(t, path, table(100), 8)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"truncated": b[:len(b)-5],
		"changed":   append(append([]byte(nil), b[:len(b)-100]...), append([]byte{b[len(b)-100] ^ 1}, b[len(b)-99:]...)...),
		"appended":  append(append([]byte(nil), b...), 0),
		"not ours":  []byte("y,x\n1,2\n3,4\n5,6\n7,8\n9,0\n1,2\n3,4\n5,6\n7,8\n"),
	}
	for name, data := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Open(p, true)
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", name, err)
		}
	}
	w, err := Create(filepath.Join(dir, "w.bin"), []string{"a", "b"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row  []float64
		want string
	}{{[]float64{1, 1e39}, "row 1, column b"}, {[]float64{math.NaN(), 0}, "column a"}, {[]float64{1}, "row 1 has 1 values"}} {
		if err := w.Write(c.row); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Write(%v): err = %v, want it to say %q", c.row, err, c.want)
		}
	}
	w.Close()
}

// TestReadAllocs: random rows into the caller's buffer allocate
// nothing once the pool is warm.
func TestReadAllocs(t *testing.T) {
	if RaceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	path := filepath.Join(t.TempDir(), "d.bin")
	write(t, path, table(500), 4)
	d, err := Open(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	idx := []int{1, 400, 17}
	dst := make([]float64, 9)
	if a := testing.AllocsPerRun(100, func() { _ = d.Read(dst, idx) }); a != 0 {
		t.Errorf("Read: %v allocations a call", a)
	}
}

// TestWriteRows: a block written at once makes the same file as its rows
// written one by one, and a bad value in it names its row and column.
func TestWriteRows(t *testing.T) {
	dir := t.TempDir()
	rows := table(300)
	var flat []float64
	for _, r := range rows {
		flat = append(flat, r...)
	}
	for _, size := range []int{4, 8} {
		one, blk := filepath.Join(dir, "one.bin"), filepath.Join(dir, "blk.bin")
		write(t, one, rows, size)
		w, err := Create(blk, []string{"a", "b", "i"}, size)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRows(flat[:150]); err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRows(flat[150:]); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(one)
		b, _ := os.ReadFile(blk)
		if string(a) != string(b) {
			t.Errorf("size %d: WriteRows made another file than Write", size)
		}
	}
	w, err := Create(filepath.Join(dir, "bad.bin"), []string{"a", "b", "i"}, 4)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	bad := append([]float64(nil), flat[:9]...)
	bad[7] = math.Inf(1)
	if err := w.WriteRows(bad); err == nil || !strings.Contains(err.Error(), "row 3, column b") {
		t.Errorf("an infinite value: %v, want an error naming row 3, column b", err)
	}
}
