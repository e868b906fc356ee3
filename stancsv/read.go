// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// MaxLineLen is the longest line, in bytes, that Read accepts: 256 MiB, a
// draw of some ten million parameters. A longer line is a ParseError
// (wrapping bufio.ErrTooLong) at its line.
const MaxLineLen = 256 << 20

// ParseError reports malformed input: the file (empty for Read), the
// 1-based line (0 for an empty input), what is wrong and, if the failure
// came from elsewhere, the underlying error.
type ParseError struct {
	File string
	Line int
	What string
	// Err is the error behind the failure, if any: bufio.ErrTooLong for a
	// line longer than MaxLineLen, or the reader's own error.
	Err error
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

// Unwrap returns Err.
func (e *ParseError) Unwrap() error { return e.Err }

// Read reads one chain from a CmdStan-style CSV file. Comment lines
// (starting with '#', anywhere) become Comments, "key = value" split at the
// first " = " after the '#' and leading spaces are removed; blank comment
// lines are dropped. The first other line is the header. Its columns lp__,
// stepsize__ and divergent__ fill LogDensity, StepSize and Divergent (any
// non-zero divergent__ is true), other names ending in "__" fill Extra, and
// the rest are the parameters, in order. Every value must parse as a
// float64 (Inf, -Inf and NaN included; a value beyond float64's range is
// an error, not an infinity). A UTF-8 byte-order mark at the start of the
// input is dropped.
//
// Read refuses input that is not a whole file of this form, with a
// *ParseError naming the line: a header whose column names parse as
// numbers (the header line is missing and the first draw would become the
// names), a file that ends inside its comment block or inside its header
// line (no line break after the header and no draws), a line whose number
// of values differs from the header's, a carriage return inside a line,
// and a line longer than MaxLineLen. For CmdStan's own files it also
// checks what their comments claim: the sampler columns of algorithm = hmc
// (lp__, accept_stat__, stepsize__, treedepth__, n_leapfrog__,
// divergent__, energy__) must all be in the header, and there must be at
// least num_samples/thin draws (plus num_warmup/thin if save_warmup), so
// that a file cut at a line break is an error too.
func Read(r io.Reader) (*Chain, error) {
	return read(r, "", MaxLineLen)
}

// bom is the UTF-8 encoding of the byte-order mark U+FEFF.
const bom = "\uFEFF"

func read(r io.Reader, file string, maxLine int) (*Chain, error) {
	fail := func(line int, format string, args ...any) error {
		return &ParseError{File: file, Line: line, What: fmt.Sprintf(format, args...)}
	}
	if r == nil {
		return nil, fail(0, "nil reader")
	}
	lr := &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: maxLine}
	c := &Chain{Divergent: []bool{}}
	// Where each column goes: kind 0 a parameter (index j), 1 lp__,
	// 2 stepsize__, 3 divergent__, 4 Extra[j].
	type dest struct{ kind, j int }
	var cols []dest
	var headerFields []string
	header, last := 0, 0 // the lines of the header and of the last draw
	lastEOL := false     // whether the last line read ended in a line break
	for {
		b, eol, err := lr.next()
		if err == io.EOF {
			break
		}
		line := lr.n
		switch {
		case errors.Is(err, bufio.ErrTooLong):
			return nil, &ParseError{File: file, Line: line, What: fmt.Sprintf("line longer than %d bytes", maxLine), Err: err}
		case err != nil:
			return nil, &ParseError{File: file, Line: line, What: "reading: " + err.Error(), Err: err}
		}
		lastEOL = eol
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte(bom))
		}
		if i := bytes.IndexByte(b, '\r'); i >= 0 {
			return nil, fail(line, "a carriage return inside the line, at byte %d (lines must end in \"\\n\" or \"\\r\\n\")", i+1)
		}
		text := string(b)
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
			header = line
			seen := make(map[string]bool, len(fields))
			for k, f := range fields {
				name := strings.TrimSpace(f)
				if isNumber(name) {
					return nil, fail(line, "header: column %d is named %q, a number: the header line is missing (a draw cannot be a header)", k+1, name)
				}
				if err := checkName(name); err != nil {
					return nil, fail(line, "header: column %d: %v", k+1, err)
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
			headerFields = fields
			continue
		}
		if len(fields) != len(cols) {
			why := "a truncated or damaged line?"
			if last == 0 && len(fields) > len(cols) {
				why = "a truncated header?"
			}
			return nil, fail(line, "%d values, the header (line %d) has %d columns: %s", len(fields), header, len(cols), why)
		}
		last = line
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
				if errors.Is(err, strconv.ErrRange) {
					return nil, fail(line, "column %d (%s): %q is beyond float64's range", k+1, name, f)
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
	switch {
	case lr.n == 0:
		return nil, fail(0, "empty input, no header line")
	case cols == nil:
		return nil, fail(lr.n, "no header line: the file ends in its comment block (truncated?)")
	case last == 0 && header == lr.n && !lastEOL:
		return nil, fail(header, "the file ends inside its header line (no line break after it, no draws): truncated?")
	}
	if len(c.Divergent) == 0 {
		c.Divergent = make([]bool, c.Len())
	}
	// What CmdStan's comments claim is checked once all are read, so that
	// a file that Write wrote back (comments first) reads alike.
	if err := checkCmdStanColumns(c.Comments, headerFields); err != "" {
		return nil, fail(header, "header: %s", err)
	}
	if err := checkCmdStanDraws(c); err != "" {
		return nil, fail(lr.n, "%s", err)
	}
	return c, nil
}

// isNumber reports whether s parses as a float64, or would but for its
// range.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// lineReader reads lines of at most max bytes, counting them.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
	max int
	n   int // lines read, the one returned last included
}

// next returns the next line without its line break ("\n" or "\r\n"), and
// whether it had one; io.EOF after the last line. A line longer than max
// bytes is an error wrapping bufio.ErrTooLong, read no further than needed
// to tell. The line is valid until the next call.
func (l *lineReader) next() ([]byte, bool, error) {
	l.buf = l.buf[:0]
	for {
		s, err := l.br.ReadSlice('\n')
		switch err {
		case nil:
			l.n++
			if len(l.buf) == 0 {
				s = s[:len(s)-1]
			} else {
				l.buf = append(l.buf, s[:len(s)-1]...)
				s = l.buf
			}
			if len(s) > l.max {
				return nil, false, bufio.ErrTooLong
			}
			return bytes.TrimSuffix(s, []byte{'\r'}), true, nil
		case bufio.ErrBufferFull:
			l.buf = append(l.buf, s...)
			if len(l.buf) > l.max {
				l.n++
				return nil, false, bufio.ErrTooLong
			}
		case io.EOF:
			l.buf = append(l.buf, s...)
			if len(l.buf) == 0 {
				return nil, false, io.EOF
			}
			l.n++
			if len(l.buf) > l.max {
				return nil, false, bufio.ErrTooLong
			}
			return bytes.TrimSuffix(l.buf, []byte{'\r'}), false, nil
		default:
			l.n++
			return nil, false, err
		}
	}
}

// ReadFile reads one chain from the named file (see Read); errors name the
// file and line.
func ReadFile(name string) (*Chain, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("stancsv: %w", err)
	}
	defer f.Close()
	return read(f, name, MaxLineLen)
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
