// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Row is the summary of one named parameter: one row of a Table. In JSON
// its name is the key "variable", as in the posterior package, beside the
// keys of Summary.
type Row struct {
	Name string `json:"variable"`
	Summary
}

// Table is the per-parameter summary of a run: row j summarises
// coordinate j of the draws under its name. It prints as an aligned text
// table with the columns of CmdStan's stansummary (mean, its Monte Carlo
// standard error, sd, MAD, the 5%, 50% and 95% quantiles, bulk and tail
// ESS, R̂) and is the data itself, a slice of rows.
type Table []Row

// NewTable summarises every coordinate of the draws of chains across the
// chains (see Summarize) and names coordinate j names[j]. If names is nil
// the coordinates are named theta.1, theta.2, … (IndexedNames("theta", d)).
// The chains must have equal length, at least MinDraws draws, all of the
// same dimension and finite; names must have one distinct, non-empty name
// per coordinate.
func NewTable[C Draws](names []string, chains []C) (Table, error) {
	const fn = "NewTable"
	sums, err := summarizeDraws(fn, chains)
	if err != nil {
		return nil, err
	}
	if names == nil {
		names = IndexedNames("theta", len(sums))
	}
	if err := checkNames(fn, names, len(sums)); err != nil {
		return nil, err
	}
	t := make(Table, len(sums))
	for j, s := range sums {
		t[j] = Row{Name: names[j], Summary: s}
	}
	return t, nil
}

// checkNames validates d distinct, non-empty names.
func checkNames(fn string, names []string, d int) error {
	if len(names) != d {
		return inputErr(fn, fmt.Sprintf("%d names for %d coordinates", len(names), d))
	}
	seen := make(map[string]int, d)
	for j, n := range names {
		if n == "" {
			return &InputError{Func: fn, Chain: -1, Index: -1, Coord: j, What: "empty name"}
		}
		if k, ok := seen[n]; ok {
			return &InputError{Func: fn, Chain: -1, Index: -1, Coord: j,
				What: fmt.Sprintf("name %q repeats coordinate %d's", n, k)}
		}
		seen[n] = j
	}
	return nil
}

// IndexedNames returns the names prefix.1, …, prefix.d: CmdStan's CSV names
// of the elements of a vector parameter (beta.1 for Stan's beta[1]).
func IndexedNames(prefix string, d int) []string {
	names := make([]string, d)
	for j := range names {
		names[j] = prefix + "." + strconv.Itoa(j+1)
	}
	return names
}

// Lookup returns the row named name and whether there is one.
func (t Table) Lookup(name string) (Row, bool) {
	for _, r := range t {
		if r.Name == name {
			return r, true
		}
	}
	return Row{}, false
}

// tableHeader holds the column titles of a printed Table.
var tableHeader = []string{"variable", "mean", "mcse", "sd", "mad", "q5", "median", "q95", "ess_bulk", "ess_tail", "rhat"}

// cells formats the row's values in the columns of tableHeader.
func (r Row) cells() []string {
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	return []string{r.Name, sig(r.Mean, 4), sig(r.MCSEMean, 2), sig(r.SD, 4), sig(r.MAD, 4),
		sig(r.Q5, 4), sig(r.Median, 4), sig(r.Q95, 4), f(r.ESSBulk, 0), f(r.ESSTail, 0), f(r.RHat, 3)}
}

// sig formats v with n significant digits, in positional notation when
// 0.001 ≤ |v| < 10⁶ (10000 rather than 1e+04) and in exponent notation
// otherwise (1.000e+06).
func sig(v float64, n int) string {
	a := math.Abs(v)
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return strconv.FormatFloat(v, 'g', n, 64)
	}
	if a < 1e-3 || a >= 1e6 {
		return strconv.FormatFloat(v, 'e', n-1, 64)
	}
	// Round to n significant digits first: 9.9996 has 5 digits before
	// rounding and 2 integer digits after.
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', n, 64), 64)
	digits := int(math.Floor(math.Log10(math.Abs(r)))) + 1
	return strconv.FormatFloat(r, 'f', max(n-digits, 0), 64)
}

// String returns the table as aligned text, one line per parameter under a
// header line, numbers right-aligned: 4 significant digits, 2 for the
// MCSE, whole numbers for the ESS and 3 decimals for R̂.
func (t Table) String() string {
	var b strings.Builder
	t.WriteTo(&b)
	return b.String()
}

// WriteTo writes the text of String to w.
func (t Table) WriteTo(w io.Writer) (int64, error) {
	rows := make([][]string, 0, len(t)+1)
	rows = append(rows, tableHeader)
	for _, r := range t {
		rows = append(rows, r.cells())
	}
	width := make([]int, len(tableHeader))
	for _, cells := range rows {
		for k, c := range cells {
			width[k] = max(width[k], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, cells := range rows {
		for k, c := range cells {
			pad := strings.Repeat(" ", width[k]-utf8.RuneCountInString(c))
			if k == 0 {
				b.WriteString(c)
				b.WriteString(pad)
				continue
			}
			b.WriteString("  ")
			b.WriteString(pad)
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}
