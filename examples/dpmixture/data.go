// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/sgmcmc-go/sgmcmc/internal/datadir"
)

// Area is one page area ("Vroot") of www.microsoft.com.
type Area struct {
	ID    int    // the attribute id of the A line (1000–1297)
	Title string // e.g. "Knowledge Base"
	URL   string // e.g. "/kb"
}

// Users is a set of users, each the list of page areas (indices into
// Data.Areas) visited: user i visited Items[Start[i]:Start[i+1]].
type Users struct {
	Start []int32
	Items []int32
}

// Len returns the number of users.
func (u *Users) Len() int { return len(u.Start) - 1 }

// User returns the areas user i visited (read only).
func (u *Users) User(i int) []int32 { return u.Items[u.Start[i]:u.Start[i+1]] }

// Data is the msweb data: the areas, the training and test users, and the
// number of users without any visit, which are skipped.
type Data struct {
	Areas       []Area
	Train, Test Users
	// EmptyTrain and EmptyTest count the users without visits, which are
	// left out (none in the UCI files).
	EmptyTrain, EmptyTest int
}

// V returns the number of areas.
func (d *Data) V() int { return len(d.Areas) }

// Data file names inside the data directory.
const (
	trainFile = "anonymous-msweb.data"
	testFile  = "anonymous-msweb.test"
)

// DataDir finds testdata/msweb: the directory given, if any, else in the
// repository (see datadir.Find).
func DataDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return datadir.Find("testdata/msweb", nil)
}

// LoadData reads anonymous-msweb.data and anonymous-msweb.test from dir.
// The test file must list the same areas as the training file.
func LoadData(dir string) (*Data, error) {
	train, err := readFile(filepath.Join(dir, trainFile))
	if err != nil {
		return nil, err
	}
	test, err := readFile(filepath.Join(dir, testFile))
	if err != nil {
		return nil, err
	}
	return assemble(train, test)
}

func readFile(path string) (*rawFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseDST(f, path)
}

// rawFile is one DST file as read: its areas by id and its users' visits
// as area ids, with the line of every visit for error messages.
type rawFile struct {
	name   string
	areas  []Area
	line   map[int]int // area id → line of its A line
	start  []int32
	visits []int // area ids
	vline  []int // line of each visit
	empty  int
}

// parseDST reads the DST format of the UCI msweb files: A lines
// (A,id,1,"title","url") declare the areas, each C line (C,"user",id)
// starts a user, and the V lines (V,id,1) that follow list the areas that
// user visited. I, T and N lines (the file header) are ignored, as are
// blank lines. Anything else, or an A, C or V line that does not parse, is
// an error naming the file and line.
func parseDST(r io.Reader, name string) (*rawFile, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	raw := &rawFile{name: name, line: map[int]int{}}
	inUser := false
	endUser := func() {
		if !inUser {
			return
		}
		if n := len(raw.start); raw.start[n-1] == raw.start[n-2] {
			raw.start = raw.start[:len(raw.start)-1] // no visits: skip the user
			raw.empty++
		}
		inUser = false
	}
	raw.start = append(raw.start, 0)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
			}
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		switch rec[0] {
		case "I", "T", "N":
		case "A":
			if len(rec) != 5 {
				return nil, bad("attribute line has %d fields, want 5 (A,id,1,\"title\",\"url\")", len(rec))
			}
			id, err := strconv.Atoi(rec[1])
			if err != nil || id < 0 {
				return nil, bad("attribute id %q is not a non-negative integer", rec[1])
			}
			if l, dup := raw.line[id]; dup {
				return nil, bad("attribute %d declared again (first on line %d)", id, l)
			}
			raw.line[id] = line
			raw.areas = append(raw.areas, Area{ID: id, Title: rec[3], URL: rec[4]})
		case "C":
			if len(rec) != 3 {
				return nil, bad("case line has %d fields, want 3 (C,\"id\",id)", len(rec))
			}
			if _, err := strconv.Atoi(rec[2]); err != nil {
				return nil, bad("case id %q is not an integer", rec[2])
			}
			endUser()
			raw.start = append(raw.start, int32(len(raw.visits)))
			inUser = true
		case "V":
			if len(rec) != 3 {
				return nil, bad("vote line has %d fields, want 3 (V,id,1)", len(rec))
			}
			if !inUser {
				return nil, bad("vote line before any case line")
			}
			id, err := strconv.Atoi(rec[1])
			if err != nil || id < 0 {
				return nil, bad("vote area id %q is not a non-negative integer", rec[1])
			}
			raw.visits = append(raw.visits, id)
			raw.vline = append(raw.vline, line)
			raw.start[len(raw.start)-1] = int32(len(raw.visits))
		case "":
			if len(rec) != 1 {
				return nil, bad("line starts with an empty field")
			}
		default:
			return nil, bad("unknown line type %q (want A, C, V, or the header's I, T, N)", rec[0])
		}
	}
	endUser()
	if len(raw.areas) == 0 {
		return nil, fmt.Errorf("%s: no attribute (A) lines", name)
	}
	if len(raw.start) == 1 {
		return nil, fmt.Errorf("%s: no users with visits", name)
	}
	return raw, nil
}

// assemble numbers the training file's areas by increasing id, checks that
// the test file declares the same areas and that every visit is to a
// declared area, and converts the visits to area indices.
func assemble(train, test *rawFile) (*Data, error) {
	areas := slices.Clone(train.areas)
	slices.SortFunc(areas, func(a, b Area) int { return a.ID - b.ID })
	index := make(map[int]int32, len(areas))
	for k, a := range areas {
		index[a.ID] = int32(k)
	}
	for _, a := range test.areas {
		if _, ok := index[a.ID]; !ok {
			return nil, fmt.Errorf("%s:%d: area %d is not declared in %s", test.name, test.line[a.ID], a.ID, train.name)
		}
	}
	if len(test.areas) != len(areas) {
		for _, a := range areas {
			if _, ok := test.line[a.ID]; !ok {
				return nil, fmt.Errorf("%s: area %d of %s is not declared (the files' area lists differ)", test.name, a.ID, train.name)
			}
		}
	}
	d := &Data{Areas: areas, EmptyTrain: train.empty, EmptyTest: test.empty}
	for _, p := range []struct {
		raw *rawFile
		dst *Users
	}{{train, &d.Train}, {test, &d.Test}} {
		p.dst.Start = p.raw.start
		p.dst.Items = make([]int32, len(p.raw.visits))
		for i, id := range p.raw.visits {
			k, ok := index[id]
			if !ok {
				return nil, fmt.Errorf("%s:%d: visit to undeclared area %d", p.raw.name, p.raw.vline[i], id)
			}
			p.dst.Items[i] = k
		}
	}
	return d, nil
}
