// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package parquet_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/sgmcmc-go/sgmcmc/dataset/parquet"
)

// Stage a Parquet file once, then read a minibatch of rows at random from
// the staged file, as dataset.NewModel does for the sampler.
func Example() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	pqPath, bin := filepath.Join(dir, "data.parquet"), filepath.Join(dir, "data.bin")

	// A Parquet file of 1000 rows in row groups of 100 (a file from
	// elsewhere would do as well).
	w, err := parquet.Create(pqPath, []string{"x1", "x2", "y"}, 4, 100)
	if err != nil {
		log.Fatal(err)
	}
	for i := range 1000 {
		if err := w.Write([]float64{float64(i), float64(i) / 4, float64(i % 2)}); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	// One sequential pass into the dataset layout; a second Stage of the
	// same file reuses it.
	d, err := parquet.Stage(pqPath, bin, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	fmt.Println(d.Rows(), "rows of", d.Names(), "in", d.ValueSize(), "bytes a value")

	// Exact uniform minibatches by random row access (a sampler's
	// minibatch indices), whatever the row groups were.
	batch := []int{917, 3, 456}
	rows := make([]float64, len(batch)*d.Cols())
	if err := d.Read(rows, batch); err != nil {
		log.Fatal(err)
	}
	for k := range batch {
		fmt.Println(rows[3*k : 3*k+3])
	}
	// Output:
	// 1000 rows of [x1 x2 y] in 4 bytes a value
	// [917 229.25 1]
	// [3 0.75 1]
	// [456 114 0]
}
