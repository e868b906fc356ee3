// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package valid holds the checks and error constructors that the kernels
// (package sgmcmc) and the one-call layer (package sample) share: the
// error value wrapping a class of failure, and the tests of arguments and
// allocations that every constructor makes.
package valid

import (
	"fmt"
	"reflect"
)

// kindError is an error of one class of failure with its own message.
type kindError struct {
	msg  string
	errs []error
}

func (e *kindError) Error() string   { return e.msg }
func (e *kindError) Unwrap() []error { return e.errs }

// Errorf returns an error whose message is "sgmcmc: " followed by the
// formatted text and which wraps kind (unless nil) and any %w argument.
func Errorf(kind error, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	if kind == nil {
		return &kindError{msg: "sgmcmc: " + err.Error(), errs: []error{err}}
	}
	return &kindError{msg: "sgmcmc: " + err.Error(), errs: []error{kind, err}}
}

// IsNil reports whether v is nil or a nil pointer, map, slice, func or
// channel held in an interface: an argument whose methods would fail (a
// nil *Minibatch passed as a Gradient, a nil GradFunc).
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return r.IsNil()
	}
	return false
}

// FirstNonFinite returns the index of the first NaN or Inf in x, or -1.
func FirstNonFinite(x []float64) int {
	for i, v := range x {
		if v-v != 0 { // true exactly for NaN and ±Inf
			return i
		}
	}
	return -1
}

// GradTolerance is the relative error beyond which a model's gradient is
// wrong. A derivative a whose central finite difference of the log
// density is n fails when |a − n| > GradTolerance · max(1, |a|, |n|), with
// a and n measured per posterior standard deviation of the coordinate in
// sample.Run's warmup check (so that 1 is the size of the gradient one
// standard deviation from the mode) and in the units of θ in CheckModel.
// Finite differences of a smooth log density agree with its gradient to
// about 10⁻⁶ at these steps; a gradient off by a factor of 2, of the wrong
// sign, or wrong in one coordinate by more than 1 % of its size fails.
const GradTolerance = 0.01

// The sizes a run may ask for: MaxChains chains (RunChains, sample.Run)
// and MaxChainFloats floats of draws in a Chain (2³⁴, 128 GiB).
const (
	MaxChains      = 1 << 20
	MaxChainFloats = 1 << 34
)
