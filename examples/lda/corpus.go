// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sgmcmc-go/sgmcmc/internal/datadir"
)

// Corpus is a bag-of-words corpus with every token spelled out: document d
// holds the word ids Words[Start[d]:Start[d+1]] (0-based, grouped by word).
type Corpus struct {
	// W is the vocabulary size.
	W int
	// Start has one entry per document plus one.
	Start []int32
	// Words are the tokens' word ids.
	Words []int32
	// Empty is the number of documents of the file that had no tokens and
	// were skipped.
	Empty int
}

// Len returns the number of (non-empty) documents.
func (c *Corpus) Len() int { return len(c.Start) - 1 }

// Doc returns the tokens of document d (read only).
func (c *Corpus) Doc(d int) []int32 { return c.Words[c.Start[d]:c.Start[d+1]] }

// Tokens returns the number of tokens.
func (c *Corpus) Tokens() int { return len(c.Words) }

// lineError is a parse error naming the file and the 1-based line.
type lineError struct {
	File string
	Line int
	Msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ReadDocword reads a corpus in the UCI bag-of-words format: three header
// lines D, W and NNZ, then NNZ lines "docID wordID count", 1-based, in any
// order (a repeated pair adds up). A file name ending in .gz is
// decompressed. Documents of 1…D without any token are skipped and counted
// in Empty. Every malformed line is an error naming the file and the line.
func ReadDocword(name string) (*Corpus, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer z.Close()
		r = z
	}
	c, err := parseDocword(r, name)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// parseDocword parses the docword text from r; file names it in errors.
func parseDocword(r io.Reader, file string) (*Corpus, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	var header [3]int
	names := [3]string{"D (number of documents)", "W (vocabulary size)", "NNZ (number of entries)"}
	for i := range header {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			return nil, &lineError{file, line + 1, "missing header line " + names[i]}
		}
		line++
		v, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil || v < 0 || (i == 1 && v == 0) {
			return nil, &lineError{file, line, fmt.Sprintf("header %s: %q is not a valid count", names[i], sc.Text())}
		}
		header[i] = v
	}
	nd, nw, nnz := header[0], header[1], header[2]
	type entry struct{ d, w, n int32 }
	entries := make([]entry, 0, nnz)
	perDoc := make([]int, nd)
	total := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		fields := bytes.Fields(b)
		if len(fields) != 3 {
			return nil, &lineError{file, line, fmt.Sprintf("want 3 fields \"docID wordID count\", got %d: %q", len(fields), b)}
		}
		var v [3]int
		for i, s := range fields {
			x, err := strconv.Atoi(string(s))
			if err != nil {
				return nil, &lineError{file, line, fmt.Sprintf("field %d: %q is not an integer", i+1, s)}
			}
			v[i] = x
		}
		switch {
		case v[0] < 1 || v[0] > nd:
			return nil, &lineError{file, line, fmt.Sprintf("docID %d outside 1…%d", v[0], nd)}
		case v[1] < 1 || v[1] > nw:
			return nil, &lineError{file, line, fmt.Sprintf("wordID %d outside 1…%d", v[1], nw)}
		case v[2] < 1 || v[2] > 1<<20:
			return nil, &lineError{file, line, fmt.Sprintf("count %d not in 1…%d", v[2], 1<<20)}
		}
		if len(entries) == nnz {
			return nil, &lineError{file, line, fmt.Sprintf("more entries than the NNZ = %d of the header", nnz)}
		}
		entries = append(entries, entry{int32(v[0] - 1), int32(v[1] - 1), int32(v[2])})
		perDoc[v[0]-1] += v[2]
		total += v[2]
		if total > 1<<30 {
			return nil, &lineError{file, line, "more than 2³⁰ tokens"}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", file, line+1, err)
	}
	if len(entries) != nnz {
		return nil, &lineError{file, line, fmt.Sprintf("file ends after %d entries, the header says NNZ = %d", len(entries), nnz)}
	}
	// Number the non-empty documents in order and lay out their tokens.
	c := &Corpus{W: nw}
	index := make([]int32, nd)
	c.Start = make([]int32, 1, nd+1)
	for d, n := range perDoc {
		if n == 0 {
			c.Empty++
			index[d] = -1
			continue
		}
		index[d] = int32(len(c.Start) - 1)
		c.Start = append(c.Start, c.Start[len(c.Start)-1]+int32(n))
	}
	c.Words = make([]int32, total)
	fill := make([]int32, len(c.Start)-1)
	copy(fill, c.Start)
	for _, e := range entries {
		d := index[e.d]
		for range e.n {
			c.Words[fill[d]] = e.w
			fill[d]++
		}
	}
	if c.Len() == 0 {
		return nil, fmt.Errorf("%s: no document has any token", file)
	}
	return c, nil
}

// ReadVocab reads one word a line; it must hold exactly w lines.
func ReadVocab(name string, w int) ([]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	words := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	for i, s := range words {
		if strings.TrimSpace(s) == "" {
			return nil, &lineError{name, i + 1, "empty word"}
		}
	}
	if len(words) != w {
		return nil, fmt.Errorf("%s: %d words, but the corpus has W = %d: vocabulary mismatch", name, len(words), w)
	}
	return words, nil
}

// Data is the training and held-out corpora with their vocabulary.
type Data struct {
	Train, Test *Corpus
	Vocab       []string
}

// LoadData reads docword.train.txt.gz, docword.test.txt.gz and vocab.txt
// from dir and checks that they share one vocabulary.
func LoadData(dir string) (*Data, error) {
	train, err := ReadDocword(filepath.Join(dir, "docword.train.txt.gz"))
	if err != nil {
		return nil, err
	}
	test, err := ReadDocword(filepath.Join(dir, "docword.test.txt.gz"))
	if err != nil {
		return nil, err
	}
	if train.W != test.W {
		return nil, fmt.Errorf("vocabulary mismatch: training data has W = %d words, test data W = %d", train.W, test.W)
	}
	vocab, err := ReadVocab(filepath.Join(dir, "vocab.txt"), train.W)
	if err != nil {
		return nil, err
	}
	return &Data{Train: train, Test: test, Vocab: vocab}, nil
}

// findData returns the repository's testdata/brown (see datadir.Find).
func findData() (string, error) {
	return datadir.Find("testdata/brown", nil)
}
