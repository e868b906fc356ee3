// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package lbfgs is the limited-memory BFGS approximation of an inverse
// Hessian that HAMCMC preconditions its steps with (doc/equations.md §10.1–§10.4):
// H·v by the two-loop recursion, and the product-form square roots S·v
// (S Sᵀ = H) and C·v (C Cᵀ = H⁻¹), each in O(Mem·D) without forming a
// D×D matrix.
package lbfgs

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Approx is a limited-memory BFGS approximation H of an inverse Hessian,
// built from the curvature pairs (s, y) in a window over the last Mem pairs
// offered to Push, with the initial approximation H⁰ = γI (doc/equations.md §10.1):
//
//	H^k = (I − ρ_k s_k y_kᵀ) H^(k−1) (I − ρ_k y_k s_kᵀ) + ρ_k s_k s_kᵀ,   ρ_k = 1/(y_kᵀ s_k),
//
// applied in order from the oldest pair to the newest. It offers, each
// without forming a D×D matrix:
//
//   - MulH: H·v by the two-loop recursion, O(Mem·D);
//   - MulS: S·v with S Sᵀ = H, by the product form of Brodlie, Gourlay &
//     Greenstadt (1973), S^k = (I − p_k q_kᵀ) S^(k−1), S⁰ = √γ I;
//   - MulC: C·v with C Cᵀ = B = H⁻¹, C^k = (I − u_k v_kᵀ) C^(k−1), C⁰ = I/√γ;
//   - MulB: B·v = H⁻¹·v.
//
// With B^(k−1) = (H^(k−1))⁻¹ and w_k = B^(k−1) s_k, the factors are
// p = ρ s, q = √(sᵀy / sᵀw)·w + y, v = s / sᵀw, u = √(sᵀw / sᵀy)·y + w
// (the corrected form of the HAMCMC paper's Eq. 11). Push computes the w_k
// and the scalars once, in O(Mem²·D); the products then cost O(Mem·D).
//
// Push damps each pair as y ← y + λs (approximating (∇²U + λI)⁻¹, a trust
// region that keeps stochastic pairs positive) and rejects pairs whose
// curvature sᵀy is not safely positive: they are counted, never used. A
// rejected pair still occupies its place in the window, as a gap, so which
// pairs are in the window depends only on when they were offered; HAMCMC
// relies on this. With no usable pair, H = γI.
//
// An Approx allocates only in New and Restore. Its methods return an
// error if a vector's length is not Dim. It is not safe for concurrent use.
type Approx struct {
	// MinCurvature is the rejection threshold: a pair is used only if
	// sᵀy > MinCurvature·‖s‖‖y‖ after damping, that is, if the cosine of
	// the angle between s and y exceeds it. Zero means 1e-8.
	MinCurvature float64
	// MinScaledCurvature rejects, in addition, a pair whose curvature
	// sᵀy/sᵀs (after damping) is below MinScaledCurvature/γ: with H⁰ = γI
	// scaled to the target, such a pair claims a direction far flatter than
	// the target is, and the H it builds would take steps that destabilise
	// a sampler (minibatch pairs underestimate curvature this way by
	// 100-fold and more). Zero disables the test.
	MinScaledCurvature float64

	dim, mem      int
	gamma, lambda float64

	// The window: slot i holds a pair if have[i]; next is the slot the
	// next Push overwrites, n the number of pairs pushed (capped at mem).
	s, y, w [][]float64
	have    []bool
	next, n int

	// Derived from the usable pairs, oldest first, by build.
	order []int     // slots in use, oldest first
	rho   []float64 // 1/sᵀy, per slot
	sig   []float64 // sᵀB^(k−1)s = sᵀw, per slot
	rt    []float64 // √(sᵀw / sᵀy), per slot
	alpha []float64 // two-loop coefficients, per slot
	tmp   []float64

	stats Stats
}

// Stats counts what happened to the pairs offered to an Approx.
type Stats struct {
	// Accepted is the number of pairs accepted by Push.
	Accepted int
	// Rejected is the number of pairs Push rejected: non-finite, or with
	// sᵀy ≤ MinCurvature·‖s‖‖y‖ after damping.
	Rejected int
	// Dropped counts pairs accepted by Push that a later rebuild of the
	// product form had to leave out because sᵀB s was not positive in
	// floating point (a sign of extreme ill-conditioning). Normally 0.
	Dropped int
}

// New returns an empty approximation for dimension dim with a window of
// mem ≥ 1 pairs, initial inverse Hessian γI (γ > 0) and damping λ ≥ 0.
func New(dim, mem int, gamma, lambda float64) (*Approx, error) {
	switch {
	case dim <= 0:
		return nil, fmt.Errorf("lbfgs.New: dimension %d, want > 0", dim)
	case mem <= 0:
		return nil, fmt.Errorf("lbfgs.New: memory %d, want > 0", mem)
	case !(gamma > 0) || math.IsInf(gamma, 0):
		return nil, fmt.Errorf("lbfgs.New: γ = %v, want finite and > 0", gamma)
	case !(lambda >= 0) || math.IsInf(lambda, 0):
		return nil, fmt.Errorf("lbfgs.New: λ = %v, want finite and ≥ 0", lambda)
	}
	l := &Approx{dim: dim, mem: mem, gamma: gamma, lambda: lambda,
		s: make([][]float64, mem), y: make([][]float64, mem), w: make([][]float64, mem),
		have: make([]bool, mem), order: make([]int, 0, mem),
		rho: make([]float64, mem), sig: make([]float64, mem), rt: make([]float64, mem),
		alpha: make([]float64, mem), tmp: make([]float64, dim)}
	buf := make([]float64, 3*mem*dim)
	for i := range mem {
		l.s[i] = buf[(3*i)*dim : (3*i+1)*dim]
		l.y[i] = buf[(3*i+1)*dim : (3*i+2)*dim]
		l.w[i] = buf[(3*i+2)*dim : (3*i+3)*dim]
	}
	return l, nil
}

// Dim returns the dimension D.
func (l *Approx) Dim() int { return l.dim }

// Mem returns the size of the window of pairs.
func (l *Approx) Mem() int { return l.mem }

// Gamma returns γ, the scale of H⁰ = γI.
func (l *Approx) Gamma() float64 { return l.gamma }

// Lambda returns the damping λ.
func (l *Approx) Lambda() float64 { return l.lambda }

// Len returns the number of pairs in use: the accepted pairs in the window.
// Zero means H = γI.
func (l *Approx) Len() int { return len(l.order) }

// Stats returns the counts of accepted and rejected pairs since New.
func (l *Approx) Stats() Stats { return l.stats }

// Reset empties the window. The statistics are kept.
func (l *Approx) Reset() {
	clear(l.have)
	l.next, l.n = 0, 0
	l.order = l.order[:0]
}

// checkLen returns an error if any of xs is not of length Dim.
func (l *Approx) checkLen(who string, xs ...[]float64) error {
	for _, x := range xs {
		if len(x) != l.dim {
			return fmt.Errorf("lbfgs.Approx.%s: vector of length %d, want the dimension %d", who, len(x), l.dim)
		}
	}
	return nil
}

// Push offers the pair (s, y), y a difference of gradients of the
// potential, to the window: it takes the slot of the oldest pair, damps y to
// y + λs and, if the pair passes the curvature test, uses it as the newest
// pair. It reports whether the pair was accepted; a rejected pair leaves a
// gap in the window. s and y are copied. If their lengths are not Dim,
// Push changes nothing and returns an error.
func (l *Approx) Push(s, y []float64) (bool, error) {
	if err := l.checkLen("Push", s, y); err != nil {
		return false, err
	}
	k := l.next
	l.next = (l.next + 1) % l.mem
	l.n = min(l.n+1, l.mem)
	ds, dy := l.s[k], l.y[k]
	var ss, yy, sy float64
	for i, si := range s {
		yi := y[i] + l.lambda*si
		ds[i], dy[i] = si, yi
		ss += si * si
		yy += yi * yi
		sy += si * yi
	}
	tol := l.MinCurvature
	if tol == 0 {
		tol = 1e-8
	}
	ok := sy > tol*math.Sqrt(ss)*math.Sqrt(yy) && !math.IsInf(sy, 0) &&
		!math.IsInf(ss, 0) && !math.IsInf(yy, 0) && !math.IsNaN(ss+yy) &&
		sy*l.gamma >= l.MinScaledCurvature*ss
	l.have[k] = ok
	if ok {
		l.rho[k] = 1 / sy
		l.stats.Accepted++
	} else {
		l.stats.Rejected++
	}
	l.build()
	return ok && l.inUse(k), nil
}

func (l *Approx) inUse(k int) bool {
	for _, j := range l.order {
		if j == k {
			return true
		}
	}
	return false
}

// build recomputes the product-form quantities w_k = B^(k−1)s_k, sᵀw and
// √(sᵀw/sᵀy) for the accepted pairs in the window, oldest first.
func (l *Approx) build() {
	l.order = l.order[:0]
	first := 0
	if l.n == l.mem {
		first = l.next
	}
	for c := range l.n {
		k := (first + c) % l.mem
		if !l.have[k] {
			continue
		}
		s, w := l.s[k], l.w[k]
		// w = B^(k−1) s = s/γ + Σ_j [ρ_j y_j (y_jᵀs) − w_j (w_jᵀs)/σ_j].
		for i, si := range s {
			w[i] = si / l.gamma
		}
		for _, j := range l.order {
			a := l.rho[j] * floats.Dot(l.y[j], s)
			b := floats.Dot(l.w[j], s) / l.sig[j]
			floats.AddScaled(w, a, l.y[j])
			floats.AddScaled(w, -b, l.w[j])
		}
		sig := floats.Dot(s, w)
		if !(sig > 0) || math.IsInf(sig, 0) {
			l.have[k] = false
			l.stats.Accepted--
			l.stats.Dropped++
			continue
		}
		l.sig[k] = sig
		l.rt[k] = math.Sqrt(sig * l.rho[k])
		l.order = append(l.order, k)
	}
}

// MulH writes H·v into dst by the two-loop recursion, O(Mem·D). dst and v
// may be the same slice. Vectors not of length Dim give an error.
func (l *Approx) MulH(dst, v []float64) error {
	if err := l.checkLen("MulH", dst, v); err != nil {
		return err
	}
	copy(dst, v)
	for c := len(l.order) - 1; c >= 0; c-- {
		k := l.order[c]
		a := l.rho[k] * floats.Dot(l.s[k], dst)
		l.alpha[k] = a
		floats.AddScaled(dst, -a, l.y[k])
	}
	for i := range dst {
		dst[i] *= l.gamma
	}
	for _, k := range l.order {
		b := l.rho[k] * floats.Dot(l.y[k], dst)
		floats.AddScaled(dst, l.alpha[k]-b, l.s[k])
	}
	return nil
}

// MulS writes S·v into dst, where S Sᵀ = H is the product-form square root
// S = (I − p_K q_Kᵀ)⋯(I − p_1 q_1ᵀ)·√γ I. O(Mem·D) given the pairs. If v is
// a standard normal vector, S·v is a draw from N(0, H). dst and v may be
// the same slice.
func (l *Approx) MulS(dst, v []float64) error {
	if err := l.checkLen("MulS", dst, v); err != nil {
		return err
	}
	sg := math.Sqrt(l.gamma)
	for i, vi := range v {
		dst[i] = sg * vi
	}
	for _, k := range l.order {
		// (I − p qᵀ)x = x − ρ s (wᵀx/√(σρ) + yᵀx).
		c := l.rho[k] * (floats.Dot(l.w[k], dst)/l.rt[k] + floats.Dot(l.y[k], dst))
		floats.AddScaled(dst, -c, l.s[k])
	}
	return nil
}

// MulC writes C·v into dst, where C Cᵀ = H⁻¹ is the product-form factor
// C = (I − u_K v_Kᵀ)⋯(I − u_1 v_1ᵀ)·γ^(−1/2) I. dst and v may be the same
// slice.
func (l *Approx) MulC(dst, v []float64) error {
	if err := l.checkLen("MulC", dst, v); err != nil {
		return err
	}
	sg := 1 / math.Sqrt(l.gamma)
	for i, vi := range v {
		dst[i] = sg * vi
	}
	for _, k := range l.order {
		// (I − u vᵀ)x = x − (√(σ/sᵀy)·y + w)(sᵀx/σ).
		c := floats.Dot(l.s[k], dst) / l.sig[k]
		floats.AddScaled(dst, -c*l.rt[k], l.y[k])
		floats.AddScaled(dst, -c, l.w[k])
	}
	return nil
}

// MulB writes B·v = H⁻¹·v into dst, O(Mem·D), by the direct BFGS form
// B = I/γ + Σ_k [ρ_k y_k y_kᵀ − w_k w_kᵀ / s_kᵀw_k]. dst and v may be the
// same slice.
func (l *Approx) MulB(dst, v []float64) error {
	if err := l.checkLen("MulB", dst, v); err != nil {
		return err
	}
	x := l.tmp
	copy(x, v)
	for i, xi := range x {
		dst[i] = xi / l.gamma
	}
	for _, k := range l.order {
		floats.AddScaled(dst, l.rho[k]*floats.Dot(l.y[k], x), l.y[k])
		floats.AddScaled(dst, -floats.Dot(l.w[k], x)/l.sig[k], l.w[k])
	}
	return nil
}

// State is the primary state of an Approx, what a checkpoint keeps:
// everything else (ρ, the w_k and the product-form scalars) derives from it
// and is rebuilt by Restore.
type State struct {
	// Next is the slot the next Push overwrites, in [0, Mem); N is the
	// number of pairs pushed, capped at Mem. Below Mem, Next = N.
	Next, N int
	// Have, S and Y have one entry per slot: whether the slot holds a pair
	// that Push accepted, and the pair as Push stored it (y damped to
	// y + λs), accepted or not. Each S[k] and Y[k] has length Dim.
	Have []bool
	S, Y [][]float64
	// Stats are the counts of Stats.
	Stats Stats
}

// State returns l's primary state. Its slices are l's own, valid until the
// next Push, Reset or Restore; the caller must not modify them.
func (l *Approx) State() State {
	return State{Next: l.next, N: l.n, Have: l.have, S: l.s, Y: l.y, Stats: l.stats}
}

// Restore sets l to st, copied, and rebuilds the products exactly as the
// Pushes that led to st built them: l then gives the same products, bit for
// bit, as the Approx whose State st was, provided MinCurvature and
// MinScaledCurvature are set as its were. st must be consistent: its
// slices of the sizes of l, its window position possible, every pair it
// marks accepted of positive finite curvature sᵀy, and the product form
// positive definite for them (so that rebuilding leaves Stats unchanged).
// Otherwise Restore returns an error saying why and leaves l as it was.
// Restore allocates.
func (l *Approx) Restore(st State) error {
	if len(st.Have) != l.mem || len(st.S) != l.mem || len(st.Y) != l.mem {
		return fmt.Errorf("L-BFGS state of %d, %d and %d slots, want %d", len(st.Have), len(st.S), len(st.Y), l.mem)
	}
	if st.N < 0 || st.N > l.mem || st.Next < 0 || st.Next >= l.mem {
		return fmt.Errorf("L-BFGS window of %d pairs with next slot %d, for a memory of %d", st.N, st.Next, l.mem)
	}
	if st.N < l.mem && st.Next != st.N {
		return fmt.Errorf("L-BFGS window of %d pairs with next slot %d, want %d", st.N, st.Next, st.N)
	}
	if st.Stats.Accepted < 0 || st.Stats.Rejected < 0 || st.Stats.Dropped < 0 {
		return fmt.Errorf("L-BFGS statistics %+v, want counts ≥ 0", st.Stats)
	}
	n, err := New(l.dim, l.mem, l.gamma, l.lambda)
	if err != nil {
		return err // l was built by New, so it cannot fail.
	}
	n.MinCurvature, n.MinScaledCurvature = l.MinCurvature, l.MinScaledCurvature
	n.next, n.n, n.stats = st.Next, st.N, st.Stats
	for k := range l.mem {
		s, y := st.S[k], st.Y[k]
		if len(s) != l.dim || len(y) != l.dim {
			return fmt.Errorf("L-BFGS pair %d of lengths %d and %d, want the dimension %d", k, len(s), len(y), l.dim)
		}
		copy(n.s[k], s)
		copy(n.y[k], y)
		n.have[k] = st.Have[k]
		if !n.have[k] {
			continue
		}
		if k >= st.N {
			return fmt.Errorf("L-BFGS slot %d in use beyond the %d pairs pushed", k, st.N)
		}
		// ρ = 1/sᵀy, summed in Push's order.
		var sy float64
		for i, si := range s {
			sy += si * y[i]
		}
		if !(sy > 0) || math.IsInf(sy, 0) {
			return fmt.Errorf("L-BFGS pair %d has curvature sᵀy = %v, want positive and finite", k, sy)
		}
		n.rho[k] = 1 / sy
	}
	n.build()
	if n.stats != st.Stats {
		return errors.New("L-BFGS memory inconsistent: a pair in use is not positive definite in the product form")
	}
	*l = *n
	return nil
}
