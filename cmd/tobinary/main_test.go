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

	"github.com/sgmcmc-go/sgmcmc/dataset"
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
	if err := d.ReadRows(got, []int{0, 1}); err != nil {
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
