// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parquet

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The measurement behind the choice of library (see the package doc): a
// table of 10⁶ rows × 21 float32 columns (20 N(0,1) features and a 0/1
// label) in row groups of 10⁶/8 rows, written, read into float64 rows,
// and staged. Each benchmark reports MB/s of values (84 MB an operation),
// the CPU seconds an operation (less sensitive than wall time on a shared
// machine) and, for reads, the peak live heap above the start.
//
//	go test -run NONE -bench . -benchtime 3x ./dataset/parquet
const (
	benchRows  = 1_000_000
	benchCols  = 21
	benchGroup = benchRows / 8
)

// benchDir holds the benchmarks' Parquet file, made once for all of them
// and removed by TestMain.
var benchDir string

var benchFile = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "sgmcmc-parquet-bench")
	if err != nil {
		return "", err
	}
	benchDir = dir
	path := filepath.Join(dir, "bench.parquet")
	return path, writeBench(path)
})

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func writeBench(path string) error {
	names := make([]string, benchCols)
	for j := range names {
		names[j] = fmt.Sprintf("x%d", j+1)
	}
	names[benchCols-1] = "y"
	w, err := Create(path, names, 4, benchGroup)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2))
	row := make([]float64, benchCols)
	for range benchRows {
		for j := range benchCols - 1 {
			row[j] = float64(float32(r.NormFloat64()))
		}
		row[benchCols-1] = float64(r.IntN(2))
		if err := w.Write(row); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// peakHeap samples the live heap every millisecond until the returned
// function is called, which returns the peak above the start in MiB.
func peakHeap() func() float64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	runtime.GC()
	metrics.Read(s)
	base, peak := s[0].Value.Uint64(), uint64(0)
	done, fin := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(fin)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(done)
		<-fin
		return float64(peak-min(peak, base)) / (1 << 20)
	}
}

// BenchmarkWrite: Writer.Write row by row (generating the rows included:
// about 0.15 CPU s of the operation).
func BenchmarkWrite(b *testing.B) {
	path := filepath.Join(b.TempDir(), "w.parquet")
	b.SetBytes(benchRows * benchCols * 4)
	c0 := cpuSeconds()
	for b.Loop() {
		if err := writeBench(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
}

// BenchmarkRead: Reader.Pass, decoding every row group into float64 rows.
func BenchmarkRead(b *testing.B) {
	path, err := benchFile()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(benchRows * benchCols * 4)
	stop := peakHeap()
	c0 := cpuSeconds()
	var sum float64
	for b.Loop() {
		r, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Pass(func(_ int, v []float64) error { sum += v[0]; return nil }); err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
	b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(stop(), "peak-heap-MiB")
}

// BenchmarkStage: Convert into a float32 dataset file (the pass Stage makes
// once).
func BenchmarkStage(b *testing.B) {
	path, err := benchFile()
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "d.bin")
	b.SetBytes(benchRows * benchCols * 4)
	stop := peakHeap()
	c0 := cpuSeconds()
	for b.Loop() {
		if _, err := Convert(path, bin, 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-c0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(stop(), "peak-heap-MiB")
}

// BenchmarkRowGroupDecode: the cost of one random row read straight from
// Parquet, which is the decode of its row group (10⁶/8 rows here).
func BenchmarkRowGroupDecode(b *testing.B) {
	path, err := benchFile()
	if err != nil {
		b.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var buf []float64
	g := 0
	for b.Loop() {
		if buf, err = r.ReadRowGroup(g%r.RowGroups(), buf); err != nil {
			b.Fatal(err)
		}
		g++
	}
}

// BenchmarkStagedMinibatch: a minibatch of 100 rows drawn uniformly from
// the staged file (in the page cache), as dataset.NewModel reads one.
func BenchmarkStagedMinibatch(b *testing.B) {
	path, err := benchFile()
	if err != nil {
		b.Fatal(err)
	}
	d, err := Stage(path, filepath.Join(benchDir, "bench.bin"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	r := rand.New(rand.NewPCG(3, 4))
	idx := make([]int, 100)
	dst := make([]float64, len(idx)*d.Cols())
	for b.Loop() {
		for k := range idx {
			idx[k] = r.IntN(d.Rows())
		}
		if err := d.Read(dst, idx); err != nil {
			b.Fatal(err)
		}
	}
}
