// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// The sampler columns this package writes.
const (
	LogDensityColumn = "lp__"
	StepSizeColumn   = "stepsize__"
	DivergentColumn  = "divergent__"
)

// Comment is one "# key = value" comment line. A line without " = " reads
// as a Comment with that text as Key and an empty Value, and is written
// back as "# key".
type Comment struct {
	Key, Value string
}

// Column is a named column of values.
type Column struct {
	Name   string
	Values []float64
}

// Chain is one chain's draws and what a CSV file records about them. Its
// Len and At make it a diagnostics.Draws.
type Chain struct {
	// Comments are written as "# key = value" lines before the header, in
	// order: the sampler, its settings and the seed, for example.
	Comments []Comment
	// Names are the parameter names, one per coordinate, in CmdStan's style
	// (beta.1, beta.2, sigma). They must be distinct, non-empty, free of
	// commas, quotes and line breaks, and must not end in "__", the mark of
	// sampler columns.
	Names []string
	// Draws holds the draws row-major: draw i in
	// Draws[i*len(Names) : (i+1)*len(Names)], as sgmcmc.Chain holds them.
	Draws []float64
	// LogDensity is the log density (up to a constant) at each draw, the
	// lp__ column; nil when unknown, and the column is then omitted.
	LogDensity []float64
	// StepSize is the step size of the step that produced each draw, the
	// stepsize__ column (sgmcmc.Chain's Eps); nil omits the column.
	StepSize []float64
	// Divergent marks the draws after which the sampler diverged, the
	// divergent__ column. It is always written, nil as all zeros, and is
	// never nil after a read.
	Divergent []bool
	// Extra holds further sampler columns (names ending in "__"), written
	// after divergent__. Read fills it with the columns of other programs,
	// such as CmdStan's accept_stat__ and treedepth__.
	Extra []Column
}

// Len returns the number of draws.
func (c *Chain) Len() int {
	if len(c.Names) == 0 {
		return 0
	}
	return len(c.Draws) / len(c.Names)
}

// At returns draw i as a slice of c.Draws.
func (c *Chain) At(i int) []float64 {
	d := len(c.Names)
	return c.Draws[i*d : (i+1)*d]
}

// Lookup returns the value of the first comment with the given key, and
// whether there is one.
func (c *Chain) Lookup(key string) (string, bool) {
	for _, m := range c.Comments {
		if m.Key == key {
			return m.Value, true
		}
	}
	return "", false
}

// check validates c for writing and returns its number of draws.
func (c *Chain) check() (int, error) {
	d := len(c.Names)
	if d == 0 {
		return 0, errors.New("stancsv: no parameter names (diagnostics.IndexedNames makes theta.1, theta.2, …)")
	}
	seen := make(map[string]bool, d+3+len(c.Extra))
	for _, name := range []string{LogDensityColumn, StepSizeColumn, DivergentColumn} {
		seen[name] = true
	}
	for j, name := range c.Names {
		if err := checkName(name); err != nil {
			return 0, fmt.Errorf("stancsv: parameter %d: %w", j, err)
		}
		if strings.HasSuffix(name, "__") {
			return 0, fmt.Errorf("stancsv: parameter %d: name %q ends in \"__\", reserved for sampler columns", j, name)
		}
		if seen[name] {
			return 0, fmt.Errorf("stancsv: parameter %d: name %q appears twice", j, name)
		}
		seen[name] = true
	}
	if len(c.Draws)%d != 0 {
		return 0, fmt.Errorf("stancsv: %d values in Draws are not a whole number of draws of %d parameters", len(c.Draws), d)
	}
	n := len(c.Draws) / d
	for _, col := range []struct {
		name string
		len  int
		set  bool
	}{
		{"LogDensity", len(c.LogDensity), c.LogDensity != nil},
		{"StepSize", len(c.StepSize), c.StepSize != nil},
		{"Divergent", len(c.Divergent), c.Divergent != nil},
	} {
		if col.set && col.len != n {
			return 0, fmt.Errorf("stancsv: %s has %d values for %d draws", col.name, col.len, n)
		}
	}
	for k, col := range c.Extra {
		if err := checkName(col.Name); err != nil {
			return 0, fmt.Errorf("stancsv: extra column %d: %w", k, err)
		}
		if !strings.HasSuffix(col.Name, "__") {
			return 0, fmt.Errorf("stancsv: extra column %q does not end in \"__\"", col.Name)
		}
		if seen[col.Name] {
			return 0, fmt.Errorf("stancsv: extra column %q repeats a column", col.Name)
		}
		seen[col.Name] = true
		if len(col.Values) != n {
			return 0, fmt.Errorf("stancsv: extra column %q has %d values for %d draws", col.Name, len(col.Values), n)
		}
	}
	for k, m := range c.Comments {
		if m.Key == "" || strings.TrimSpace(m.Key) != m.Key || strings.Contains(m.Key, " = ") || strings.ContainsAny(m.Key, "\r\n") {
			return 0, fmt.Errorf("stancsv: comment %d: key %q is empty, has outer spaces, a line break or \" = \"", k, m.Key)
		}
		if strings.TrimSpace(m.Value) != m.Value || strings.ContainsAny(m.Value, "\r\n") {
			return 0, fmt.Errorf("stancsv: comment %d (%s): value %q has outer spaces or a line break", k, m.Key, m.Value)
		}
	}
	return n, nil
}

func checkName(name string) error {
	if name == "" {
		return errors.New("empty name")
	}
	if strings.ContainsAny(name, ",\"'\r\n") || strings.TrimSpace(name) != name {
		return fmt.Errorf("name %q has a comma, a quote, a line break or outer spaces", name)
	}
	return nil
}

// Write writes c to w as a CmdStan-style CSV file: the comments, the
// header and one line per draw, values in shortest round-trip form
// (infinities as Inf and -Inf, as R reads them).
func Write(w io.Writer, c *Chain) error {
	if c == nil {
		return errors.New("stancsv: nil chain")
	}
	n, err := c.check()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, m := range c.Comments {
		bw.WriteString("# ")
		bw.WriteString(m.Key)
		if m.Value != "" {
			bw.WriteString(" = ")
			bw.WriteString(m.Value)
		}
		bw.WriteByte('\n')
	}
	var header []string
	if c.LogDensity != nil {
		header = append(header, LogDensityColumn)
	}
	if c.StepSize != nil {
		header = append(header, StepSizeColumn)
	}
	header = append(header, DivergentColumn)
	for _, col := range c.Extra {
		header = append(header, col.Name)
	}
	header = append(header, c.Names...)
	bw.WriteString(strings.Join(header, ","))
	bw.WriteByte('\n')
	var buf []byte
	for i := range n {
		buf = buf[:0]
		if c.LogDensity != nil {
			buf = appendFloat(buf, c.LogDensity[i])
			buf = append(buf, ',')
		}
		if c.StepSize != nil {
			buf = appendFloat(buf, c.StepSize[i])
			buf = append(buf, ',')
		}
		if c.Divergent != nil && c.Divergent[i] {
			buf = append(buf, '1')
		} else {
			buf = append(buf, '0')
		}
		for _, col := range c.Extra {
			buf = append(buf, ',')
			buf = appendFloat(buf, col.Values[i])
		}
		for _, v := range c.At(i) {
			buf = append(buf, ',')
			buf = appendFloat(buf, v)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("stancsv: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("stancsv: %w", err)
	}
	return nil
}

// appendFloat appends v in shortest round-trip form, infinities as R
// writes them.
func appendFloat(buf []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(buf, "Inf"...)
	case math.IsInf(v, -1):
		return append(buf, "-Inf"...)
	}
	return strconv.AppendFloat(buf, v, 'g', -1, 64)
}

// WriteFile writes c to the named file, created or truncated.
func WriteFile(name string, c *Chain) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("stancsv: %w", err)
	}
	if err := Write(f, c); err != nil {
		f.Close()
		return fmt.Errorf("%w (writing %s)", err, name)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("stancsv: %w", err)
	}
	return nil
}

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
