// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"
	"runtime/debug"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/parfor"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// Warmup's failures, explained by their cause.

// fault explains a warmup failure at w's shift — a non-finite whitened
// gradient or curvature, or a curvature that cannot be inverted (what) —
// by the θ-gradient there: non-finite (the model's value, +Inf, −Inf or
// NaN, and where), or finite and so large that the arithmetic of warmup
// overflowed, or neither (the curvature itself is degenerate). It costs
// one gradient evaluation, on the failure path only.
func (e *chainEnv) fault(w *whitening, what string) error {
	g := make([]float64, e.d)
	e.fixed.Grad(g, w.shift)
	if i := valid.FirstNonFinite(g); i >= 0 {
		return valid.Errorf(sgmcmc.ErrNonFinite, "Sample: warmup: the gradient is %v in %s at θ = %s%s", g[i], e.param(i), brief(w.shift), e.blame(w.shift))
	}
	j := 0
	for i, v := range g {
		if math.Abs(v) > math.Abs(g[j]) {
			j = i
		}
	}
	if math.Abs(g[j]) > overflowGrad {
		return valid.Errorf(sgmcmc.ErrNonFinite, "Sample: warmup: overflow: the gradient at θ = %s is finite but as large as %.3g (coordinate %d), and %s overflowed float64: the start is far out in the tails, or the posterior's scale is too small for float64 arithmetic (curvature near 1e300); start nearer the bulk of the posterior or rescale the parameters",
			brief(w.shift), g[j], j, what)
	}
	return valid.Errorf(sgmcmc.ErrNonFinite, "Sample: warmup: %s is degenerate at θ = %s (the gradient there is finite, at most %.3g in size): the posterior may be improper, flat or not identified there", what, brief(w.shift), math.Abs(g[j]))
}

// brief formats a point for a message: all of it if short, else its
// first coordinates.
func brief(x []float64) string {
	if len(x) <= 4 {
		return fmt.Sprintf("%.4g", x)
	}
	return fmt.Sprintf("%.4g…", x[:4])
}

// tag is deferred by the wrappers of user code: it lets a panic unwind on,
// named after fn, for a recovering caller (sgmcmc.Run, or this package's
// Run) to report. A warmup's cancellation unwinds unchanged.
func tag(fn string) {
	if v := recover(); v != nil {
		if c, ok := unwrapCancel(v); ok {
			panic(c)
		}
		panic(asPanic(v, fn))
	}
}

// unwrapCancel reports whether v is a warmup's cancellation, raised
// directly or on a helper of a parallel loop.
func unwrapCancel(v any) (cancelled, bool) {
	switch p := v.(type) {
	case *parfor.Panic:
		v = p.Value
	case *sgmcmc.PanicError:
		v = p.Value
	}
	c, ok := v.(cancelled)
	return c, ok
}

// chainPanic turns a value recovered from a chain's goroutine into its
// error: a warmup's cancellation into ctx's error, anything else into a
// *PanicError, attributed to sgmcmc itself unless a deeper guard named
// user code, in phase when it names none.
func chainPanic(v any, phase string) error {
	if c, ok := unwrapCancel(v); ok {
		return c.err
	}
	p := asPanic(v, "sgmcmc's own code (a bug: please report it with the stack)")
	if p.Phase == "" {
		p.Phase = phase
	}
	return p
}

// asPanic turns a recovered value into a *PanicError, attributed to fn
// unless a deeper guard (tag) or a parallel loop already named its source.
func asPanic(v any, fn string) *sgmcmc.PanicError {
	switch p := v.(type) {
	case *sgmcmc.PanicError:
		return p
	case *parfor.Panic:
		if q, ok := p.Value.(*sgmcmc.PanicError); ok {
			return q
		}
		return &sgmcmc.PanicError{Func: fn, Value: p.Value, Stack: p.Stack}
	}
	return &sgmcmc.PanicError{Func: fn, Value: v, Stack: debug.Stack()}
}

// protect runs f, turning a panic in it into a *PanicError attributed to
// fn (unless a deeper tag named it).
func protect(fn string, f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = asPanic(v, fn)
		}
	}()
	return f()
}

// param names parameter j for a message: by the Problem's name with its
// index, or by its index, said to be 0-based.
func (e *chainEnv) param(j int) string {
	if e.names != nil && j < len(e.names) {
		return fmt.Sprintf("parameter %s (index %d)", e.names[j], j)
	}
	return fmt.Sprintf("parameter %d (0-based)", j)
}

// blame finds, for a Model, the term whose gradient is not finite at θ —
// the prior's, or the first datum's in order, by a pass over the data on
// this failure path only — and says so in words for an error message
// (beginning "; "); "" if every term is finite there, or without a Model.
func (e *chainEnv) blame(theta []float64) string {
	m := e.rawModel
	if m == nil || len(theta) != e.d {
		return ""
	}
	g := make([]float64, e.d)
	m.LogPriorGrad(g, theta)
	if j := valid.FirstNonFinite(g); j >= 0 {
		return fmt.Sprintf("; the prior's gradient (LogPriorGrad) is %v in %s there: the prior, not the data", g[j], e.param(j))
	}
	for i := range m.Len() {
		clear(g)
		m.LogLikGrad(g, theta, i, 1)
		if j := valid.FirstNonFinite(g); j >= 0 {
			return fmt.Sprintf("; the likelihood gradient of data item %d (0-based) is %v in %s there: is that datum NaN or infinite, or does its likelihood overflow?", i, g[j], e.param(j))
		}
	}
	return ""
}
