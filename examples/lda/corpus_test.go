// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseDocword(t *testing.T) {
	// Document 2 is empty; entries come in any order and repeat.
	in := "3\n4\n5\n3 4 1\n1 1 2\n1 3 1\n3 2 2\n1 1 1\n"
	c, err := parseDocword(strings.NewReader(in), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	if c.W != 4 || c.Len() != 2 || c.Empty != 1 || c.Tokens() != 7 {
		t.Fatalf("W %d, docs %d, empty %d, tokens %d; want 4, 2, 1, 7", c.W, c.Len(), c.Empty, c.Tokens())
	}
	if got := c.Doc(0); !slices.Equal(got, []int32{0, 0, 2, 0}) {
		t.Errorf("document 1 = %v", got)
	}
	if got := c.Doc(1); !slices.Equal(got, []int32{3, 1, 1}) {
		t.Errorf("document 3 = %v", got)
	}
}

func TestParseDocwordErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "x.txt:1: missing header line D"},
		{"2\n", "x.txt:2: missing header line W"},
		{"2\nfoo\n1\n", "x.txt:2: header W"},
		{"2\n0\n1\n", "x.txt:2: header W"},
		{"2\n3\n1\n1 2\n", "x.txt:4: want 3 fields"},
		{"2\n3\n2\n1 2 1\n1 x 1\n", "x.txt:5: field 2: \"x\" is not an integer"},
		{"2\n3\n1\n3 1 1\n", "x.txt:4: docID 3 outside 1…2"},
		{"2\n3\n1\n1 4 1\n", "x.txt:4: wordID 4 outside 1…3"},
		{"2\n3\n1\n1 1 0\n", "x.txt:4: count 0"},
		{"2\n3\n1\n1 1 1\n2 1 1\n", "x.txt:5: more entries than the NNZ = 1"},
		{"2\n3\n3\n1 1 1\n2 1 1\n", "x.txt:5: file ends after 2 entries"},
		{"2\n3\n0\n", "no document has any token"},
	} {
		_, err := parseDocword(strings.NewReader(tc.in), "x.txt")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.want)
		}
	}
}

// writeGz writes text to dir/name, gzipped.
func writeGz(t *testing.T, dir, name, text string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(f)
	if _, err := z.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestLoadDataErrors(t *testing.T) {
	dir := t.TempDir()
	writeGz(t, dir, "docword.train.txt.gz", "1\n3\n1\n1 1 2\n")
	writeGz(t, dir, "docword.test.txt.gz", "1\n4\n1\n1 1 2\n")
	if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(dir); err == nil || !strings.Contains(err.Error(), "vocabulary mismatch") {
		t.Errorf("train W 3, test W 4: error %v, want a vocabulary mismatch", err)
	}
	writeGz(t, dir, "docword.test.txt.gz", "1\n3\n1\n1 1 2\n")
	if _, err := LoadData(dir); err != nil {
		t.Errorf("consistent files: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(dir); err == nil || !strings.Contains(err.Error(), "vocabulary mismatch") {
		t.Errorf("2 vocabulary words for W = 3: error %v, want a vocabulary mismatch", err)
	}
	writeGz(t, dir, "docword.train.txt.gz", "1\n3\n1\n1 1 2 7\n")
	_, err := LoadData(dir)
	if want := filepath.Join(dir, "docword.train.txt.gz") + ":4:"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("malformed training line: error %v, want one naming %s", err, want)
	}
}

func TestBrownData(t *testing.T) {
	d, err := LoadData(filepath.Join("..", "..", "testdata", "brown"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Train.Len() != 3604 || d.Train.Tokens() != 338391 || d.Test.Len() != 445 || d.Test.Tokens() != 38931 || d.Train.W != 10881 {
		t.Errorf("train %d docs %d tokens, test %d docs %d tokens, W %d; want 3604, 338391, 445, 38931, 10881",
			d.Train.Len(), d.Train.Tokens(), d.Test.Len(), d.Test.Tokens(), d.Train.W)
	}
	if d.Train.Empty != 0 || d.Test.Empty != 0 {
		t.Errorf("empty documents: %d train, %d test", d.Train.Empty, d.Test.Empty)
	}
}

func TestFindData(t *testing.T) {
	dir, err := findData()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "docword.train.txt.gz")); err != nil {
		t.Errorf("findData from %s: %v", dir, err)
	}
}
