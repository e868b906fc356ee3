// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parquet

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	pq "github.com/parquet-go/parquet-go"
	"github.com/sgmcmc-go/sgmcmc/dataset"
)

// table returns n rows of c values: c-1 N(0,1)·scale features and a 0/1
// label, row-major.
func table(n, c int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	v := make([]float64, n*c)
	for i := range n {
		for j := range c - 1 {
			v[i*c+j] = r.NormFloat64() * math.Pow(10, float64(j%7-3))
		}
		if r.Float64() < 0.3 {
			v[i*c+c-1] = 1
		}
	}
	return v
}

func writeTable(t testing.TB, path string, names []string, values []float64, size, group int) {
	t.Helper()
	w, err := Create(path, names, size, group)
	if err != nil {
		t.Fatal(err)
	}
	c := len(names)
	for k := 0; k < len(values); k += c {
		if err := w.Write(values[k : k+c]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func readAll(t testing.TB, path string) (*Reader, []float64) {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var all []float64
	next := 0
	if err := r.Pass(func(first int, values []float64) error {
		if first != next {
			t.Errorf("a row group starts at row %d, want %d", first, next)
		}
		next += len(values) / r.Cols()
		all = append(all, values...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return r, all
}

// TestRoundTrip: rows written come back in order, float32 values exactly
// as float32 rounds them and float64 values exactly; the columns keep
// their order and names; row groups have the size asked for.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	names := []string{"z", "a", "m", "x 1", "y"}
	values := table(1000, len(names), 1)
	for _, size := range []int{4, 8} {
		path := filepath.Join(dir, "t.parquet")
		writeTable(t, path, names, values, size, 64)
		r, got := readAll(t, path)
		if !slices.Equal(r.Names(), names) {
			t.Errorf("size %d: names %v, want %v", size, r.Names(), names)
		}
		if r.Rows() != 1000 || r.Cols() != len(names) || r.RowGroups() != 16 || r.ValueSize() != size {
			t.Errorf("size %d: %d rows, %d columns, %d row groups, value size %d; want 1000, 5, 16, %d", size, r.Rows(), r.Cols(), r.RowGroups(), r.ValueSize(), size)
		}
		if first, n := r.RowGroup(15); first != 960 || n != 40 {
			t.Errorf("size %d: the last row group is rows %d+%d, want 960+40", size, first, n)
		}
		for k, v := range values {
			want := v
			if size == 4 {
				want = float64(float32(v))
			}
			if got[k] != want {
				t.Fatalf("size %d: value %d (row %d, column %s) read back %v, want %v", size, k, k/5, names[k%5], got[k], want)
			}
		}
		r.Close()
	}
}

// TestWriteRefuses: bad names, bad rows.
func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	for _, names := range [][]string{nil, {""}, {"a", "a"}, {"a,b"}} {
		if _, err := Create(path, names, 4, 0); err == nil {
			t.Errorf("Create with names %q: no error", names)
		}
	}
	if _, err := Create(path, []string{"a"}, 2, 0); err == nil {
		t.Error("Create with value size 2: no error")
	}
	w, err := Create(path, []string{"a", "b"}, 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	for row, want := range map[*[]float64]string{
		{1}:               "has 1 values",
		{1, math.NaN()}:   "row 1, column b",
		{1e39, 0}:         "row 1, column a",
		{math.Inf(-1), 0}: "column a",
	} {
		if err := w.Write(*row); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Write(%v) = %v, want an error saying %q", *row, err, want)
		}
	}
	w.Close()
}

// TestStage: the staged dataset file holds the Parquet file's rows, in
// float32 when all columns are FLOAT; a second Stage reuses it; a newer
// Parquet file is staged again.
func TestStage(t *testing.T) {
	dir := t.TempDir()
	pqPath, bin := filepath.Join(dir, "d.parquet"), filepath.Join(dir, "d.bin")
	names := []string{"x1", "x2", "x3", "y"}
	values := table(3000, len(names), 2)
	writeTable(t, pqPath, names, values, 4, 500)
	var log bytes.Buffer
	d, err := Stage(pqPath, bin, &log)
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != 3000 || d.Cols() != 4 || d.ValueSize() != 4 || !slices.Equal(d.Names(), names) {
		t.Fatalf("staged %d rows × %d, value size %d, names %v", d.Rows(), d.Cols(), d.ValueSize(), d.Names())
	}
	idx := make([]int, d.Rows())
	for i := range idx {
		idx[i] = i
	}
	got := make([]float64, len(values))
	if err := d.Read(got, idx); err != nil {
		t.Fatal(err)
	}
	for k, v := range values {
		if got[k] != float64(float32(v)) {
			t.Fatalf("staged value %d = %v, want %v", k, got[k], float64(float32(v)))
		}
	}
	if err := d.Verify(); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if !strings.Contains(log.String(), "3000 rows of 4 float32 staged") {
		t.Errorf("progress %q", log.String())
	}
	st0, _ := os.Stat(bin)

	log.Reset()
	d, err = Stage(pqPath, bin, &log)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if st1, _ := os.Stat(bin); !strings.Contains(log.String(), "reusing") || !st1.ModTime().Equal(st0.ModTime()) {
		t.Errorf("second Stage did not reuse the staged file: %q", log.String())
	}

	// A newer Parquet file (here with other values) is staged again.
	values2 := table(3000, len(names), 3)
	writeTable(t, pqPath, names, values2, 4, 500)
	future := time.Now().Add(time.Minute)
	if err := os.Chtimes(pqPath, future, future); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	d, err = Stage(pqPath, bin, &log)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if strings.Contains(log.String(), "reusing") {
		t.Error("a newer Parquet file was not staged again")
	}
	if err := d.Read(got[:4], []int{0}); err != nil || got[0] != float64(float32(values2[0])) {
		t.Errorf("restaged row 0 = %v (%v), want %v", got[:4], err, values2[:4])
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*staging*")); len(m) != 0 {
		t.Errorf("left behind %v", m)
	}
}

// TestTruncated: a Parquet file cut short, or with bytes changed in its
// data, is an error (not a panic), and Stage leaves no dataset file.
func TestTruncated(t *testing.T) {
	dir := t.TempDir()
	whole, bin := filepath.Join(dir, "whole.parquet"), filepath.Join(dir, "d.bin")
	writeTable(t, whole, []string{"a", "b", "c"}, table(2000, 3, 4), 4, 256)
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.parquet")
	cuts := []int{0, 3, 4, 100, len(data) / 2, len(data) - 9, len(data) - 1}
	for _, n := range cuts {
		if err := os.WriteFile(bad, data[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Stage(bad, bin, nil); err == nil {
			t.Errorf("a file cut to %d of %d bytes: no error", n, len(data))
		}
		if _, err := os.Stat(bin); !os.IsNotExist(err) {
			t.Errorf("a file cut to %d bytes: a dataset file was left", n)
		}
	}
	// Page headers overwritten: the footer is whole, the data is not.
	c := slices.Clone(data)
	for k := 4; k < len(c)/2; k += 97 {
		c[k] ^= 0x5a
	}
	if err := os.WriteFile(bad, c, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Stage(bad, bin, nil); err == nil {
		t.Error("a file with changed data bytes: no error")
	} else {
		t.Logf("changed data: %v", err)
	}
	if _, err := os.Stat(bin); !os.IsNotExist(err) {
		t.Error("a changed file: a dataset file was left")
	}
}

// TestColumnTypes: files written by other writers (here parquet-go's
// reflection writer): optional columns without nulls, dictionary pages,
// INT32, INT64, BOOLEAN and DOUBLE columns read back; a string column,
// a null and a list are errors naming the column (and the row group).
func TestColumnTypes(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	type mixed struct {
		F  float32  `parquet:"f"`
		D  float64  `parquet:"d,dict"`
		I  int32    `parquet:"i"`
		L  int64    `parquet:"l,delta"`
		B  bool     `parquet:"b"`
		O  *float32 `parquet:"o,optional"`
		FD float32  `parquet:"fd,dict"`
	}
	var rows []mixed
	for i := range 300 {
		o := float32(i) / 4
		rows = append(rows, mixed{F: float32(i) + 0.5, D: float64(i%7) * 1.25, I: int32(-i), L: int64(i) << 20, B: i%3 == 0, O: &o, FD: float32(i % 5)})
	}
	if err := pq.WriteFile(path, rows, pq.MaxRowsPerRowGroup(128)); err != nil {
		t.Fatal(err)
	}
	r, got := readAll(t, path)
	if r.ValueSize() != 8 || r.RowGroups() != 3 {
		t.Errorf("value size %d, %d row groups; want 8, 3", r.ValueSize(), r.RowGroups())
	}
	r.Close()
	for i, m := range rows {
		b := 0.0
		if m.B {
			b = 1
		}
		want := []float64{float64(m.F), m.D, float64(m.I), float64(m.L), b, float64(*m.O), float64(m.FD)}
		if g := got[i*7 : i*7+7]; !slices.Equal(g, want) {
			t.Fatalf("row %d = %v, want %v", i, g, want)
		}
	}

	type withNull struct {
		A float32  `parquet:"a"`
		N *float64 `parquet:"n,optional"`
	}
	var nrows []withNull
	for i := range 300 {
		v := float64(i)
		nrows = append(nrows, withNull{A: 1, N: &v})
	}
	nrows[200].N = nil
	if err := pq.WriteFile(path, nrows, pq.MaxRowsPerRowGroup(128)); err != nil {
		t.Fatal(err)
	}
	_, err := Stage(path, filepath.Join(dir, "n.bin"), nil)
	if err == nil || !errors.Is(err, errNull) || !strings.Contains(err.Error(), `row group 1 (rows 128–255), column "n": row 72 (row 200 of the file)`) {
		t.Errorf("a null: %v", err)
	}

	type withString struct {
		A float32 `parquet:"a"`
		S string  `parquet:"name"`
	}
	if err := pq.WriteFile(path, []withString{{1, "x"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), `column "name"`) {
		t.Errorf("a string column: %v", err)
	}
	type withList struct {
		A []float32 `parquet:"xs,list"`
	}
	if err := pq.WriteFile(path, []withList{{[]float32{1, 2}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), `column "xs"`) {
		t.Errorf("a list column: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "n.bin")); !os.IsNotExist(err) {
		t.Error("a refused file left a dataset file")
	}
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	fn()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestMemoryBounded: a pass over, and the staging of, 2·10⁵ rows of 21
// float32 columns in row groups of 2¹³ rows allocate a few row groups'
// worth, not the file's: memory is bounded by the row group, not the
// table.
func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 17 MB file")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.parquet")
	const n, c, group = 200_000, 21, 1 << 13
	names := make([]string, c)
	for j := range names {
		names[j] = "c" + string(rune('A'+j))
	}
	w, err := Create(path, names, 4, group)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	row := make([]float64, c)
	for range n {
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		if err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	groupBytes := uint64(group * c * 8) // one row group as float64 rows: 1.4 MB
	table := uint64(n * c * 8)          // the table as float64 rows: 33.6 MB
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var sum float64
	pass := allocated(func() {
		if err := r.Pass(func(_ int, v []float64) error { sum += v[0]; return nil }); err != nil {
			t.Fatal(err)
		}
	})
	stage := allocated(func() {
		if _, err := Convert(path, filepath.Join(dir, "m.bin"), 0, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("a pass allocated %.1f MB, staging %.1f MB; a row group is %.1f MB of float64 rows, the table %.1f MB",
		float64(pass)/1e6, float64(stage)/1e6, float64(groupBytes)/1e6, float64(table)/1e6)
	if limit := 3*groupBytes + 4<<20; pass > limit || stage > limit {
		t.Errorf("a pass allocated %d bytes, staging %d: want at most %d (3 row groups + 4 MiB), the table is %d", pass, stage, limit, table)
	}
	d, err := dataset.Open(filepath.Join(dir, "m.bin"), true)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}
