// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package parquet reads and writes Parquet files of numeric columns for
// the samplers of this module, with bounded memory, and stages a Parquet
// file into the dataset package's binary layout, from which the sampler
// draws exact uniform minibatches.
//
// # Sampling minibatches from row groups
//
// A Parquet file is split into row groups, each column of a row group
// into compressed, encoded pages: a value can only be had by decoding its
// page, and a row by decoding a page of every column. Reading random rows
// straight from Parquet therefore costs at least a page of every column a
// row, and with this package's Reader a row group's decode (10 ms for a
// group of 125 000 rows × 21 float32 columns, BenchmarkRowGroupDecode):
// a minibatch of 100 random rows from 100 groups would cost a second. This package's answer is to stage once: Stage makes one
// sequential pass over the row groups (about 290 MB/s of values into a
// float32 dataset file, measured by BenchmarkStage; the decode alone runs
// at about 1 GB/s, BenchmarkRead) and returns a *dataset.File, a
// dataset.Table from which dataset.NewModel reads each minibatch by random
// row access, one positioned read a row (0.1 ms for 100 rows from the page
// cache, BenchmarkStagedMinibatch). The minibatches are then the
// sampler's exact uniform draws over all N rows, as from rows in memory,
// so the gradient estimates are unbiased, their noise independent from
// step to step, and the chain's target the posterior of all rows: nothing
// about the sampling depends on how the rows were grouped in the Parquet
// file. The staged rows are the Parquet rows (a float32 column is stored
// as float32, exactly; any other numeric column makes a float64 file),
// which the tests check value by value, and the staged file carries a
// CRC-64 of its data. Stage reuses a staged file that is whole and no
// older than the Parquet file, so that the pass is paid once. At the
// scale this is for, 10⁸ rows × 21 float32 columns (8.4 GB of values),
// writing the Parquet file took 137 s (76 CPU s) at a peak RSS of 77 MB,
// staging it 51 s (17 CPU s; the disk set the pace) at 70 MB, and a second
// Stage reused the staged file in 0.2 s.
//
// The alternative, not offered here, draws each minibatch within one row
// group chosen at random, and changes the group every K steps, so as to
// decode a group per K steps instead of staging. Its gradient estimate is
// still unbiased marginally (the group is uniform, then the rows within it),
// but its noise is correlated over the K steps: the difference between the
// group's mean gradient and the full mean is the same for K steps in a row,
// a drift that the sampler integrates K times before it changes. When the
// groups differ (files written in time order, by source, or sorted by a
// column, as Parquet files often are) that shared part dominates, the
// chain's excess variance grows with K, and the small-step limit no longer
// recovers the posterior unless K·step → 0. In numbers: for a per-row
// gradient of variance σ² (σ_b² the variance of the row groups' means),
// the noise summed over K steps of minibatches of B rows has variance
// K·σ²/B when the rows are drawn uniformly, and about K·σ²/B + K²·σ_b²
// within groups: a ratio of 1 + K·B/G for a shuffled file of groups of G
// rows (σ_b² ≈ σ²/G; 1.08 for K = B = 100, G = 125 000), but of order
// 1 + K·B·σ_b²/σ², up to 10⁴, for a file sorted by the label
// (TestWithinGroupNoise checks both by simulation). Staging avoids the
// question, for the cost of one pass.
//
// # Reading and writing
//
// Reader walks the row groups in order and decodes each into float64
// rows, row-major (ReadRowGroup, Pass): its memory is a row group's values
// and one page a column, whatever the file's size (TestMemoryBounded). It
// reads flat FLOAT, DOUBLE, INT32, INT64 and BOOLEAN columns, required or
// optional, with any encoding and compression the library reads; a null,
// a string, list or DECIMAL column, and a truncated or corrupt file are
// errors naming the column and the row group. Writer streams rows into
// FLOAT or DOUBLE columns in row groups of a chosen size, holding one row
// group; it is what the tests and examples use to make data. Convert is
// Stage's conversion on its own (cmd/tobinary uses it).
//
// # The library, chosen by measurement
//
// This package uses github.com/parquet-go/parquet-go (v0.32.0). The
// candidates, measured on the same 84 MB table (10⁶ rows × 21 float32
// columns, 8 row groups, PLAIN, uncompressed, no dictionary), on a shared
// 2-core machine (hence ranges; CPU seconds are the steadier figure):
//
//	                          parquet-go v0.32.0          arrow-go v18.8.0 (parquet/file)
//	write                     64–91 MB/s, 0.63 CPU s      324–538 MB/s, 0.12 CPU s
//	read into float64 rows    830–1170 MB/s, 0.08 CPU s   336–756 MB/s, 0.11–0.13 CPU s
//	peak live heap, reading   64 MiB                      145–153 MiB
//	allocated a read pass     22 MB                       281 MB
//	modules in go.sum         17 (10 linked)              25 (73 in the graph, 14 linked)
//	cold build, tiny reader   42 CPU s, 17 MB binary      90 CPU s, 33 MB binary
//	(a hello world's cold build: 9 CPU s)
//
// parquet-go reads (the pass that matters: staging, streaming) with about
// 30% less CPU, less than half the heap and a twelfth of the garbage, and
// costs half the build time and binary size. arrow-go writes five times
// faster (parquet-go's writer takes a 24-byte Value a value), which
// matters only when making data: 10⁸ rows take about a minute of CPU.
// Both are maintained. arrow-go's pqarrow layer, not measured, builds
// Arrow arrays on top of the file reader measured here: a further copy.
package parquet
