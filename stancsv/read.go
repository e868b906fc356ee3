// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// ParseError reports malformed input: the file (empty for Read), the
// 1-based line (0 for an empty input) and what is wrong.
type ParseError struct {
	File string
	Line int
	What string
}

// Error formats the failure as file:line: what.
func (e *ParseError) Error() string {
	if e.Line == 0 {
		if e.File == "" {
			return "stancsv: " + e.What
		}
		return fmt.Sprintf("stancsv: %s: %s", e.File, e.What)
	}
	if e.File == "" {
		return fmt.Sprintf("stancsv: line %d: %s", e.Line, e.What)
	}
	return fmt.Sprintf("stancsv: %s:%d: %s", e.File, e.Line, e.What)
}

// Read reads one chain from a CmdStan-style CSV file. Comment lines
// (starting with '#', anywhere) become Comments, "key = value" split at the
// first " = " after the '#' and leading spaces are removed; blank comment
// lines are dropped. The first other line is the header. Its columns lp__,
// stepsize__ and divergent__ fill LogDensity, StepSize and Divergent (any
// non-zero divergent__ is true), other names ending in "__" fill Extra, and
// the rest are the parameters, in order. Every value must parse as a
// float64 (Inf, -Inf and NaN included).
func Read(r io.Reader) (*Chain, error) {
	return read(r, "")
}

func read(r io.Reader, file string) (*Chain, error) {
	fail := func(line int, format string, args ...any) error {
		return &ParseError{File: file, Line: line, What: fmt.Sprintf(format, args...)}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 256*1024*1024)
	c := &Chain{Divergent: []bool{}}
	// Where each column goes: kind 0 a parameter (index j), 1 lp__,
	// 2 stepsize__, 3 divergent__, 4 Extra[j].
	type dest struct{ kind, j int }
	var cols []dest
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(text, "#") {
			s := strings.TrimSpace(text[1:])
			if s == "" {
				continue
			}
			if k, v, ok := strings.Cut(s, " = "); ok {
				c.Comments = append(c.Comments, Comment{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
			} else {
				c.Comments = append(c.Comments, Comment{Key: s})
			}
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		fields := strings.Split(text, ",")
		if cols == nil {
			seen := make(map[string]bool, len(fields))
			for _, f := range fields {
				name := strings.TrimSpace(f)
				if err := checkName(name); err != nil {
					return nil, fail(line, "header: %v", err)
				}
				if seen[name] {
					return nil, fail(line, "header: column %q appears twice", name)
				}
				seen[name] = true
				switch {
				case name == LogDensityColumn:
					cols = append(cols, dest{1, 0})
					c.LogDensity = []float64{}
				case name == StepSizeColumn:
					cols = append(cols, dest{2, 0})
					c.StepSize = []float64{}
				case name == DivergentColumn:
					cols = append(cols, dest{3, 0})
				case strings.HasSuffix(name, "__"):
					cols = append(cols, dest{4, len(c.Extra)})
					c.Extra = append(c.Extra, Column{Name: name, Values: []float64{}})
				default:
					cols = append(cols, dest{0, len(c.Names)})
					c.Names = append(c.Names, name)
				}
			}
			if len(c.Names) == 0 {
				return nil, fail(line, "header names no parameters (only sampler columns ending in \"__\")")
			}
			continue
		}
		if len(fields) != len(cols) {
			return nil, fail(line, "%d values, the header has %d columns", len(fields), len(cols))
		}
		div := false
		hasDiv := false
		for k, f := range fields {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				name := ""
				switch d := cols[k]; d.kind {
				case 0:
					name = c.Names[d.j]
				case 1:
					name = LogDensityColumn
				case 2:
					name = StepSizeColumn
				case 3:
					name = DivergentColumn
				case 4:
					name = c.Extra[d.j].Name
				}
				return nil, fail(line, "column %d (%s): %q is not a number", k+1, name, f)
			}
			switch d := cols[k]; d.kind {
			case 0:
				c.Draws = append(c.Draws, v) // parameters are in header order
			case 1:
				c.LogDensity = append(c.LogDensity, v)
			case 2:
				c.StepSize = append(c.StepSize, v)
			case 3:
				div, hasDiv = v != 0, true
			case 4:
				c.Extra[d.j].Values = append(c.Extra[d.j].Values, v)
			}
		}
		if hasDiv {
			c.Divergent = append(c.Divergent, div)
		}
	}
	if err := sc.Err(); err != nil {
		if file != "" {
			return nil, fmt.Errorf("stancsv: %s: %w", file, err)
		}
		return nil, fmt.Errorf("stancsv: %w", err)
	}
	if cols == nil {
		if line == 0 {
			return nil, fail(0, "empty input, no header line")
		}
		return nil, fail(line, "no header line")
	}
	if len(c.Divergent) == 0 {
		c.Divergent = make([]bool, c.Len())
	}
	return c, nil
}

// ReadFile reads one chain from the named file (see Read); errors name the
// file and line.
func ReadFile(name string) (*Chain, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("stancsv: %w", err)
	}
	defer f.Close()
	return read(f, name)
}

// ReadFiles reads the chains of one run, one file each, in the order given,
// and checks that all name the same parameters in the same order. The
// chains may have different lengths; the diagnostics need equal ones.
func ReadFiles(names ...string) ([]*Chain, error) {
	if len(names) == 0 {
		return nil, errors.New("stancsv: ReadFiles: no files")
	}
	chains := make([]*Chain, len(names))
	for k, name := range names {
		c, err := ReadFile(name)
		if err != nil {
			return nil, err
		}
		if k > 0 && !slices.Equal(c.Names, chains[0].Names) {
			return nil, fmt.Errorf("stancsv: %s: parameters %s differ from those of %s (%s)",
				name, brief(c.Names), names[0], brief(chains[0].Names))
		}
		chains[k] = c
	}
	return chains, nil
}

// brief lists at most five names.
func brief(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ",")
	}
	return fmt.Sprintf("%s,… (%d)", strings.Join(names[:5], ","), len(names))
}
