// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "fmt"

// checkOperator validates an operator NewRecipe is given, named who ("D",
// "Q", "D block (1, 1)"): the shapes its exported fields must agree on —
// an operator built as a struct literal has had no constructor check them
// — and, for a diffusion, the constant entries a positive semidefinite
// matrix needs. Operators given by functions are checked where they are
// evaluated, at each step.
func checkOperator(who string, op Operator, diffusion bool) error {
	switch o := op.(type) {
	case Scalar:
		return checkScalarOp(who, o, diffusion)
	case *Scalar:
		return checkScalarOp(who, *o, diffusion)
	case Diagonal:
		return checkDiagonalOp(who, o, diffusion)
	case *Diagonal:
		return checkDiagonalOp(who, *o, diffusion)
	case *LowRankDiag:
		return checkLowRankOp(who, o)
	case *Block:
		for i, row := range o.ops {
			for j, b := range row {
				if b == nil || isNil(b) {
					continue
				}
				if err := checkOperator(fmt.Sprintf("%s block (%d, %d)", who, i, j), b, diffusion && i == j); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func checkScalarOp(who string, s Scalar, diffusion bool) error {
	if !finiteFloat(s.C) {
		return errorf(ErrNonFinite, "recipe: %s = Scalar{C: %v}, want finite", who, s.C)
	}
	if diffusion && s.C < 0 {
		return errorf(ErrRange, "recipe: the diffusion %s = Scalar{C: %v} is negative: a diffusion must be positive semidefinite (C ≥ 0)", who, s.C)
	}
	return nil
}

func checkDiagonalOp(who string, d Diagonal, diffusion bool) error {
	for i, v := range d {
		if !finiteFloat(v) {
			return errorf(ErrNonFinite, "recipe: %s = Diagonal with entry %d = %v, want finite", who, i, v)
		}
		if diffusion && v < 0 {
			return errorf(ErrRange, "recipe: the diffusion %s = Diagonal has entry %d = %v < 0: a diffusion must be positive semidefinite", who, i, v)
		}
	}
	return nil
}

func checkLowRankOp(who string, l *LowRankDiag) error {
	d, k := len(l.A), len(l.S)
	switch {
	case d == 0:
		return errorf(ErrDimension, "recipe: %s = LowRankDiag with an empty diagonal A", who)
	case k == 0 || k > maxLowRank:
		return errorf(ErrRange, "recipe: %s = LowRankDiag of rank len(S) = %d, want in [1, %d]", who, k, maxLowRank)
	case len(l.U) != d*k:
		return errorf(ErrDimension, "recipe: %s = LowRankDiag: U has %d entries, want len(A)·len(S) = %d·%d", who, len(l.U), d, k)
	}
	if err := checkVector("recipe: "+who+" = LowRankDiag", "A", l.A, d, nonNegative); err != nil {
		return err
	}
	if err := checkVector("recipe: "+who+" = LowRankDiag", "S", l.S, k, nonNegative); err != nil {
		return err
	}
	return checkVector("recipe: "+who+" = LowRankDiag", "U", l.U, d*k, anyFinite)
}

// finiteFloat reports whether x is neither NaN nor ±Inf.
func finiteFloat(x float64) bool { return x-x == 0 }
