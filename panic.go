// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"runtime/debug"

	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
)

// PanicError reports a panic in code the library called for its user — a
// Model, a Gradient, a Sampler's Step, a callback, a Method — recovered so
// that the program goes on and the draws kept so far are not lost. Run,
// RunChains and sample.Run return it (sample.Run and RunChains inside a
// *ChainError naming the chain). Panics the Go runtime cannot recover
// (running out of memory, a stack overflow, concurrent map writes) still
// end the program; the memory guard (memory.go) exists so that the
// library itself never asks for more than the machine has.
type PanicError struct {
	// Func names the user code that panicked, as precisely as the library
	// knows it: "Model.LogLikGrad", "Gradient.Grad", "Callback",
	// "Sampler.Step" (the step, including any user code it calls, when
	// nothing narrower is known), ….
	Func string
	// Phase is where the run was: "sampling", or in sample.Run the warmup
	// phase ("warmup: Newton", …).
	Phase string
	// Step is the 1-based step of the sampling run during which the panic
	// happened, 0 if none (warmup).
	Step int
	// Value is the value passed to panic (a runtime.Error for a nil
	// dereference or an index out of range).
	Value any
	// Stack is the stack of the goroutine that panicked, at the panic.
	Stack []byte
}

// Error names the user code, where the run was and the panic value.
func (e *PanicError) Error() string {
	where := e.Phase
	if e.Step > 0 {
		where = fmt.Sprintf("%s, step %d", e.Phase, e.Step)
	}
	if where == "" {
		return fmt.Sprintf("sgmcmc: %s panicked: %v", e.Func, e.Value)
	}
	return fmt.Sprintf("sgmcmc: %s: %s panicked: %v", where, e.Func, e.Value)
}

// asPanic turns a recovered value into a *PanicError, attributed to fn
// unless a deeper guard (tag) or a parallel loop already named its source.
func asPanic(v any, fn string) *PanicError {
	switch p := v.(type) {
	case *PanicError:
		return p
	case *parfor.Panic:
		if q, ok := p.Value.(*PanicError); ok {
			return q
		}
		return &PanicError{Func: fn, Value: p.Value, Stack: p.Stack}
	}
	return &PanicError{Func: fn, Value: v, Stack: debug.Stack()}
}
