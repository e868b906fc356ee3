// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// The posteriordb files: each posterior directory holds data.json.zip and
// draws.json.zip, zip archives of one JSON file each.
const (
	dataFile  = "data.json.zip"
	drawsFile = "draws.json.zip"
)

// fileError is an error in an input file: the file (and the archive member
// for a zip), the line if known, and what is wrong.
type fileError struct {
	File   string // path of the file
	Member string // member of a zip archive, or ""
	Line   int    // 1-based line, or 0 if not known
	What   string
}

func (e *fileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Member != "" {
		b.WriteString(": ")
		b.WriteString(e.Member)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ": line %d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.What)
	return b.String()
}

// readZippedJSON reads the archive at path, which must hold exactly one
// .json member, and returns that member's name and contents.
func readZippedJSON(path string) (member string, data []byte, err error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", nil, &fileError{File: path, What: "file not found (run from the repository root, or set -data)"}
		}
		return "", nil, &fileError{File: path, What: fmt.Sprintf("not a readable zip archive: %v", err)}
	}
	defer zr.Close()
	var f *zip.File
	for _, m := range zr.File {
		if !strings.HasSuffix(m.Name, ".json") {
			continue
		}
		if f != nil {
			return "", nil, &fileError{File: path, What: fmt.Sprintf("more than one JSON member (%s, %s)", f.Name, m.Name)}
		}
		f = m
	}
	if f == nil {
		return "", nil, &fileError{File: path, What: "archive holds no .json member"}
	}
	rc, err := f.Open()
	if err != nil {
		return "", nil, &fileError{File: path, Member: f.Name, What: err.Error()}
	}
	defer rc.Close()
	data, err = io.ReadAll(rc)
	if err != nil {
		return "", nil, &fileError{File: path, Member: f.Name, What: err.Error()}
	}
	return f.Name, data, nil
}

// lineOf returns the 1-based line of byte offset off in data.
func lineOf(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}

// decodeJSON unmarshals data into v; a syntax or type error is reported
// with the line it occurs on.
func decodeJSON(path, member string, data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	e := &fileError{File: path, Member: member, What: err.Error()}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		e.Line = lineOf(data, se.Offset)
		e.What = "invalid JSON: " + se.Error()
	case errors.As(err, &te):
		e.Line = lineOf(data, te.Offset)
		e.What = fmt.Sprintf("field %q: JSON %s where a %s is expected", te.Field, te.Value, te.Type)
	}
	return e
}

// dataSet is a posteriordb data file: named scalars and vectors.
type dataSet struct {
	path, member string
	fields       map[string]json.RawMessage
	n            int
}

// readData reads dir/data.json.zip and its integer field N.
func readData(dir string) (*dataSet, error) {
	path := filepath.Join(dir, dataFile)
	member, raw, err := readZippedJSON(path)
	if err != nil {
		return nil, err
	}
	d := &dataSet{path: path, member: member}
	if err := decodeJSON(path, member, raw, &d.fields); err != nil {
		return nil, err
	}
	rn, ok := d.fields["N"]
	if !ok {
		return nil, d.errorf("no field \"N\"")
	}
	if err := json.Unmarshal(rn, &d.n); err != nil || d.n <= 0 {
		return nil, d.errorf("field \"N\" = %s, want a positive integer", rn)
	}
	return d, nil
}

func (d *dataSet) errorf(format string, args ...any) error {
	return &fileError{File: d.path, Member: d.member, What: fmt.Sprintf(format, args...)}
}

// int returns the integer field name.
func (d *dataSet) int(name string) (int, error) {
	r, ok := d.fields[name]
	if !ok {
		return 0, d.errorf("no field %q", name)
	}
	var v int
	if err := json.Unmarshal(r, &v); err != nil {
		return 0, d.errorf("field %q = %s, want an integer", name, r)
	}
	return v, nil
}

// vector returns the field name, which must be an array of N finite
// numbers satisfying ok (described by want, e.g. "> 0").
func (d *dataSet) vector(name string, ok func(float64) bool, want string) ([]float64, error) {
	r, found := d.fields[name]
	if !found {
		return nil, d.errorf("no field %q", name)
	}
	var v []float64
	if err := json.Unmarshal(r, &v); err != nil {
		return nil, d.errorf("field %q: want an array of numbers: %v", name, err)
	}
	if len(v) != d.n {
		return nil, d.errorf("field %q has %d values, want N = %d", name, len(v), d.n)
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) || (ok != nil && !ok(x)) {
			if want == "" {
				want = "finite"
			}
			return nil, d.errorf("field %q, element %d (1-based) = %v, want %s", name, i+1, x, want)
		}
	}
	return v, nil
}

func positive(x float64) bool { return x > 0 }

// readDraws reads dir/draws.json.zip, posteriordb's reference draws: an
// array of chains, each an object mapping a parameter name to its draws.
// It returns the draws of the given parameters as chain × draw × parameter.
func readDraws(dir string, names []string) ([][][]float64, error) {
	path := filepath.Join(dir, drawsFile)
	member, raw, err := readZippedJSON(path)
	if err != nil {
		return nil, err
	}
	var chains []map[string][]float64
	if err := decodeJSON(path, member, raw, &chains); err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return &fileError{File: path, Member: member, What: fmt.Sprintf(format, args...)}
	}
	if len(chains) == 0 {
		return nil, fail("no chains")
	}
	n := -1
	out := make([][][]float64, len(chains))
	for c, ch := range chains {
		for _, name := range names {
			x, ok := ch[name]
			if !ok {
				return nil, fail("chain %d has no parameter %q", c+1, name)
			}
			if n < 0 {
				n = len(x)
			}
			if len(x) != n {
				return nil, fail("chain %d, parameter %q: %d draws, chain 1 has %d", c+1, name, len(x), n)
			}
			for i, v := range x {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fail("chain %d, parameter %q, draw %d: non-finite value %v", c+1, name, i+1, v)
				}
			}
		}
		if n < 2 {
			return nil, fail("chains have %d draws, need at least 2", n)
		}
		out[c] = make([][]float64, n)
		block := make([]float64, n*len(names))
		for i := range n {
			d := block[i*len(names) : (i+1)*len(names) : (i+1)*len(names)]
			for j, name := range names {
				d[j] = ch[name][i]
			}
			out[c][i] = d
		}
	}
	return out, nil
}
