// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Files of testdata/mnist (README.md there gives source and licence).
const (
	imagesFile = "images-10k-ubyte.gz"
	labelsFile = "labels-10k-ubyte.gz"
	// nTrain digits train, the rest (2,000) test; the split is a
	// permutation drawn from splitSeed, the same for every run.
	nTrain    = 8000
	splitSeed = 24
	// nValidTrain of the training digits train under -validate; the
	// rest (2,000) are scored.
	nValidTrain = 6000
)

// digits is a set of images (n×784 pixels in [0, 1]) and labels.
type digits struct {
	x []float64
	y []int
}

// split returns the first n digits and the rest.
func (ds digits) split(n int) (head, tail digits) {
	return digits{ds.x[:n*nIn], ds.y[:n]}, digits{ds.x[n*nIn:], ds.y[n:]}
}

// loadMNIST reads the 10,000 digits of dir and splits them, by a fixed
// seeded permutation, into 8,000 training and 2,000 test digits.
func loadMNIST(dir string) (train, test digits, err error) {
	img, err := readIDX(filepath.Join(dir, imagesFile), 2051)
	if err != nil {
		return train, test, err
	}
	lab, err := readIDX(filepath.Join(dir, labelsFile), 2049)
	if err != nil {
		return train, test, err
	}
	n := len(lab)
	if len(img) != n*nIn {
		return train, test, fmt.Errorf("mnist: %d labels but %d pixels (want %d per image)", n, len(img), nIn)
	}
	perm := rand.New(rand.NewPCG(splitSeed, 0)).Perm(n)
	put := func(ds *digits, i int) {
		for _, b := range img[i*nIn : (i+1)*nIn] {
			ds.x = append(ds.x, float64(b)/255)
		}
		ds.y = append(ds.y, int(lab[i]))
	}
	for k, i := range perm {
		if k < nTrain {
			put(&train, i)
		} else {
			put(&test, i)
		}
	}
	return train, test, nil
}

// readIDX reads a gzipped IDX file of unsigned bytes with the given magic
// number and returns its data.
func readIDX(path string, magic uint32) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var m uint32
	if err := binary.Read(z, binary.BigEndian, &m); err != nil || m != magic {
		return nil, fmt.Errorf("%s: magic %d, want %d (%v)", path, m, magic, err)
	}
	dims := 1
	if magic == 2051 {
		dims = 3
	}
	size := 1
	for range dims {
		var v uint32
		if err := binary.Read(z, binary.BigEndian, &v); err != nil {
			return nil, fmt.Errorf("%s: header: %w", path, err)
		}
		size *= int(v)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(z, data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}
