// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv

import (
	"errors"
	"fmt"
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
	// commas, quotes, line breaks and byte-order marks, must not end in
	// "__", the mark of sampler columns, and must not parse as numbers
	// (Read refuses such a header as a draw whose header line is missing).
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
	if strings.Contains(name, bom) {
		return fmt.Errorf("name %q has a byte-order mark (U+FEFF)", name)
	}
	if isNumber(name) {
		return fmt.Errorf("name %q is a number, which Read would take for a draw", name)
	}
	return nil
}
