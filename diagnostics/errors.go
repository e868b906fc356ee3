// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"
	"strings"
)

// InputError reports input that a diagnostic cannot use: no chains, a chain
// too short or of the wrong length, or a non-finite draw.
type InputError struct {
	Func  string  // diagnostic that rejected the input, e.g. "ESSBulk"
	Chain int     // index of the offending chain (or sample), or -1
	Index int     // index of the offending draw within it, or -1
	Coord int     // coordinate of a multivariate draw, or -1
	Value float64 // offending value, if any
	What  string  // what is wrong
}

// Error formats the failure with the function, chain and index it concerns.
func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString("diagnostics: ")
	b.WriteString(e.Func)
	b.WriteString(": ")
	if e.Chain >= 0 {
		fmt.Fprintf(&b, "chain %d: ", e.Chain)
	}
	if e.Index >= 0 {
		fmt.Fprintf(&b, "draw %d: ", e.Index)
	}
	if e.Coord >= 0 {
		fmt.Fprintf(&b, "coordinate %d: ", e.Coord)
	}
	b.WriteString(e.What)
	return b.String()
}

func inputErr(fn, what string) *InputError {
	return &InputError{Func: fn, Chain: -1, Index: -1, Coord: -1, What: what}
}

// MaxAbs is the largest magnitude of a draw that the diagnostics accept:
// math.MaxFloat64/4, about 4.49e307. Beyond it the differences between
// draws (a range, a deviation from the median) could overflow, and a
// diagnostic would return ±Inf or NaN; such draws are reported as an
// InputError instead, like non-finite ones.
const MaxAbs = math.MaxFloat64 / 4

// badValue returns what is wrong with a draw v, or "" if nothing is.
func badValue(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprintf("non-finite value %v", v)
	case math.Abs(v) > MaxAbs:
		return fmt.Sprintf("value %v beyond ±MaxAbs = ±%.3g (the diagnostic's differences would overflow)", v, MaxAbs)
	}
	return ""
}

// nonFinite returns an error naming the first non-finite value of x, chain
// c, or the first beyond ±MaxAbs.
func nonFinite(fn string, c int, x []float64) error {
	for i, v := range x {
		if w := badValue(v); w != "" {
			return &InputError{Func: fn, Chain: c, Index: i, Coord: -1, Value: v, What: w}
		}
	}
	return nil
}

// checkChains validates chains of equal length at least minLen with finite
// draws within ±MaxAbs and returns the number of draws per chain.
func checkChains(fn string, chains [][]float64, minLen int) (int, error) {
	if len(chains) == 0 {
		return 0, inputErr(fn, "no chains")
	}
	n := len(chains[0])
	for c, x := range chains {
		if len(x) != n {
			return 0, &InputError{Func: fn, Chain: c, Index: -1, Coord: -1,
				What: fmt.Sprintf("length %d, chain 0 has length %d", len(x), n)}
		}
	}
	if n < minLen {
		return 0, &InputError{Func: fn, Chain: -1, Index: -1, Coord: -1,
			What: fmt.Sprintf("chains have %d draws, need at least %d", n, minLen)}
	}
	for c, x := range chains {
		if err := nonFinite(fn, c, x); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// checkSample validates a single sample of at least minLen finite values
// within ±MaxAbs.
func checkSample(fn string, x []float64, minLen int) error {
	if len(x) < minLen {
		return inputErr(fn, fmt.Sprintf("%d draws, need at least %d", len(x), minLen))
	}
	return nonFinite(fn, -1, x)
}
