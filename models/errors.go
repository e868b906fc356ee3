// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import "fmt"

// kindError is an error of one of sgmcmc's classes (ErrRange,
// ErrDimension, ErrNonFinite), so that errors.Is tells them apart; its
// message is the formatted text alone, which the exported functions
// prefix with their names.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.kind }

// errorf returns a kindError of class kind.
func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}
