// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// LBFGS is a limited-memory BFGS approximation H of an inverse Hessian,
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
// An LBFGS allocates only in NewLBFGS and UnmarshalBinary. Its methods
// return an error wrapping ErrDimension if a vector's length is not Dim.
// It is not safe for concurrent use.
type LBFGS struct {
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

	stats LBFGSStats
}

// LBFGSStats counts what happened to the pairs offered to an LBFGS.
type LBFGSStats struct {
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

// NewLBFGS returns an empty approximation for dimension dim with a window of
// mem ≥ 1 pairs, initial inverse Hessian γI (γ > 0) and damping λ ≥ 0.
func NewLBFGS(dim, mem int, gamma, lambda float64) (*LBFGS, error) {
	switch {
	case dim <= 0:
		return nil, errorf(ErrDimension, "NewLBFGS: dimension %d, want > 0", dim)
	case mem <= 0:
		return nil, errorf(ErrRange, "NewLBFGS: memory %d, want > 0", mem)
	case !(gamma > 0) || math.IsInf(gamma, 0):
		return nil, errorf(ErrRange, "NewLBFGS: γ = %v, want finite and > 0", gamma)
	case !(lambda >= 0) || math.IsInf(lambda, 0):
		return nil, errorf(ErrRange, "NewLBFGS: λ = %v, want finite and ≥ 0", lambda)
	}
	l := &LBFGS{dim: dim, mem: mem, gamma: gamma, lambda: lambda,
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
func (l *LBFGS) Dim() int { return l.dim }

// Mem returns the size of the window of pairs.
func (l *LBFGS) Mem() int { return l.mem }

// Gamma returns γ, the scale of H⁰ = γI.
func (l *LBFGS) Gamma() float64 { return l.gamma }

// Lambda returns the damping λ.
func (l *LBFGS) Lambda() float64 { return l.lambda }

// Len returns the number of pairs in use: the accepted pairs in the window.
// Zero means H = γI.
func (l *LBFGS) Len() int { return len(l.order) }

// Stats returns the counts of accepted and rejected pairs since NewLBFGS.
func (l *LBFGS) Stats() LBFGSStats { return l.stats }

// Reset empties the window. The statistics are kept.
func (l *LBFGS) Reset() {
	clear(l.have)
	l.next, l.n = 0, 0
	l.order = l.order[:0]
}

// checkLen returns an error wrapping ErrDimension if any of xs is not of
// length Dim.
func (l *LBFGS) checkLen(who string, xs ...[]float64) error {
	for _, x := range xs {
		if len(x) != l.dim {
			return errorf(ErrDimension, "LBFGS.%s: vector of length %d, want the dimension %d", who, len(x), l.dim)
		}
	}
	return nil
}

// Push offers the pair (s, y), y a difference of gradients of the
// potential, to the window: it takes the slot of the oldest pair, damps y to
// y + λs and, if the pair passes the curvature test, uses it as the newest
// pair. It reports whether the pair was accepted; a rejected pair leaves a
// gap in the window. s and y are copied. If their lengths are not Dim,
// Push changes nothing and returns an error wrapping ErrDimension.
func (l *LBFGS) Push(s, y []float64) (bool, error) {
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

func (l *LBFGS) inUse(k int) bool {
	for _, j := range l.order {
		if j == k {
			return true
		}
	}
	return false
}

// build recomputes the product-form quantities w_k = B^(k−1)s_k, sᵀw and
// √(sᵀw/sᵀy) for the accepted pairs in the window, oldest first.
func (l *LBFGS) build() {
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
// may be the same slice. Vectors not of length Dim give an error wrapping
// ErrDimension.
func (l *LBFGS) MulH(dst, v []float64) error {
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
func (l *LBFGS) MulS(dst, v []float64) error {
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
func (l *LBFGS) MulC(dst, v []float64) error {
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
func (l *LBFGS) MulB(dst, v []float64) error {
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

func (l *LBFGS) encode(e *encoder) {
	e.int(l.dim)
	e.int(l.mem)
	e.f64(l.gamma)
	e.f64(l.lambda)
	e.f64(l.MinCurvature)
	e.f64(l.MinScaledCurvature)
	e.int(l.next)
	e.int(l.n)
	for k := range l.mem {
		e.bool(l.have[k])
		e.floats(l.s[k])
		e.floats(l.y[k])
	}
	e.int(l.stats.Accepted)
	e.int(l.stats.Rejected)
	e.int(l.stats.Dropped)
}

// decodeLBFGS reads an L-BFGS memory of the same size and settings as
// like, rebuilds its products and returns it; nil after a failure.
func decodeLBFGS(d *decoder, like *LBFGS) *LBFGS {
	d.equal("L-BFGS dimension", like.dim)
	d.equal("L-BFGS memory", like.mem)
	if d.err != nil {
		return nil
	}
	if g := d.f64("L-BFGS γ", anyValue); d.err == nil && math.Float64bits(g) != math.Float64bits(like.gamma) {
		d.fail("checkpoint has L-BFGS γ = %v, the receiver %v", g, like.gamma)
	}
	if lam := d.f64("L-BFGS λ", anyValue); d.err == nil && math.Float64bits(lam) != math.Float64bits(like.lambda) {
		d.fail("checkpoint has L-BFGS λ = %v, the receiver %v", lam, like.lambda)
	}
	l, err := NewLBFGS(like.dim, like.mem, like.gamma, like.lambda)
	if err != nil {
		d.fail("%v", err)
		return nil
	}
	l.MinCurvature = d.f64("L-BFGS MinCurvature", nonNegative)
	l.MinScaledCurvature = d.f64("L-BFGS MinScaledCurvature", nonNegative)
	l.next = d.int("L-BFGS next slot", 0, l.mem-1)
	l.n = d.int("L-BFGS pair count", 0, l.mem)
	if d.err == nil && l.n < l.mem && l.next != l.n {
		d.fail("L-BFGS window of %d pairs with next slot %d, want %d", l.n, l.next, l.n)
	}
	for k := range l.mem {
		l.have[k] = d.bool("L-BFGS slot in use")
		s := d.floats("L-BFGS s", l.dim, anyFinite)
		y := d.floats("L-BFGS y", l.dim, anyFinite)
		if d.err != nil {
			return nil
		}
		copy(l.s[k], s)
		copy(l.y[k], y)
		if l.have[k] && k >= l.n {
			d.fail("L-BFGS slot %d in use beyond the %d pairs pushed", k, l.n)
			return nil
		}
		if l.have[k] {
			// ρ = 1/sᵀy, summed in Push's order.
			var sy float64
			for i, si := range s {
				sy += si * y[i]
			}
			if !(sy > 0) || math.IsInf(sy, 0) {
				d.fail("L-BFGS pair %d has curvature sᵀy = %v, want positive and finite", k, sy)
				return nil
			}
			l.rho[k] = 1 / sy
		}
	}
	l.stats.Accepted = d.count("L-BFGS accepted pairs")
	l.stats.Rejected = d.count("L-BFGS rejected pairs")
	l.stats.Dropped = d.count("L-BFGS dropped pairs")
	if d.err != nil {
		return nil
	}
	st := l.stats
	l.build()
	if l.stats != st {
		d.fail("L-BFGS memory inconsistent: a pair in use is not positive definite in the product form")
		return nil
	}
	return l
}

// MarshalBinary checkpoints the approximation in the package's checkpoint
// format (documented in checkpoint.go), of kind "LBFGS": its size and
// settings, the window of pairs (s, y) as damped by Push, and the
// statistics. The products are rebuilt on restore.
func (l *LBFGS) MarshalBinary() ([]byte, error) {
	return marshal("LBFGS.MarshalBinary", "LBFGS", l.dim, nil, l.encode)
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into an
// LBFGS of the same dimension, memory, γ and λ. On error, which wraps
// ErrCheckpoint, l is left as it was.
func (l *LBFGS) UnmarshalBinary(data []byte) error {
	return restore("LBFGS.UnmarshalBinary", "LBFGS", l.dim, data, nil, func(d *decoder) commit {
		nl := decodeLBFGS(d, l)
		return commit{set: func() { *l = *nl }}
	})
}
