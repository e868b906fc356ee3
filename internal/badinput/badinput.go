// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package badinput is the machinery of the bad-input catalogues that the
// tests of package sgmcmc and package sample share: a case's documented
// outcome, and the check that a call with bad input has it — an error of
// the right class naming the cause, never a panic, never silence.
package badinput

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Case is what a catalogue entry expects of its call. Exactly one of Want
// (a sentinel the error must wrap), Step (a *StepError, wrapping Want if
// Want is set too) and Defined (Run returns nil iff it observed the
// documented value) applies.
type Case struct {
	Run     func() error
	Want    error
	Step    bool
	Defined bool
	Substr  string // if not empty, the error message must contain it
}

// Outcome classifies the case for the catalogue's closing counts; name
// names a sentinel error.
func (c Case) Outcome(name func(error) string) string {
	switch {
	case c.Defined:
		return "documented defined value"
	case c.Step && c.Want != nil:
		return "*StepError wrapping " + name(c.Want)
	case c.Step:
		return "*StepError"
	}
	return "error wrapping " + name(c.Want)
}

// Check runs the case and reports an outcome other than its documented
// one: a panic, no error, an error of another class (isStep says whether
// an error is a *StepError) or a message that does not name the cause.
func (c Case) Check(t testing.TB, isStep func(error) bool, name func(error) string) {
	t.Helper()
	err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return c.Run()
	}()
	t.Log(err)
	switch {
	case err != nil && strings.HasPrefix(err.Error(), "panic: "):
		t.Fatal(err)
	case c.Defined:
		if err != nil {
			t.Fatal(err)
		}
		return
	case err == nil:
		t.Fatalf("no error, want %s", c.Outcome(name))
	}
	if c.Want != nil && !errors.Is(err, c.Want) {
		t.Errorf("err = %v, want %s", err, c.Outcome(name))
	}
	if c.Step && !isStep(err) {
		t.Errorf("err = %v (%T), want a *StepError", err, err)
	}
	// The message, which must name the cause: what a reader is shown.
	msg := err.Error()
	if c.Substr != "" && !strings.Contains(msg, c.Substr) {
		t.Errorf("err = %v, want a message containing %q", err, c.Substr)
	}
	if !strings.HasPrefix(msg, "sgmcmc: ") {
		t.Errorf("message %q does not start with \"sgmcmc: \"", err)
	}
}

// SubtestName makes a case's name a subtest name one level deep.
func SubtestName(name string) string { return strings.ReplaceAll(name, "/", "∕") }
