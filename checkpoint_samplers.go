// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"strconv"
)

// kindName returns the Recipe's kind in checkpoints: its constructor's
// name without "New" ("SGHMC"), or "Recipe" for NewRecipe.
func (r *Recipe) kindName() string {
	if r.kind == "" {
		return "Recipe"
	}
	return r.kind
}

// sources returns the random sources of the chain, in checkpoint order:
// the chain's generator, then those of the blocks of a parallel step.
func (r *Recipe) sources() []any {
	srcs := []any{r.spec.Src}
	if r.fz != nil {
		srcs = r.fz.blk.sources(srcs)
	}
	return srcs
}

// sources appends the block generators of a parallel step (none below
// ParallelDim) to srcs.
func (b *blockSet) sources(srcs []any) []any {
	for k := range b.gens {
		srcs = append(srcs, &b.gens[k].Normal)
	}
	return srcs
}

// MarshalBinary checkpoints the chain: its kind (the constructor, e.g.
// "SGHMC"; "Recipe" for NewRecipe), dim θ, the block sizes, the step
// count, the state z, the divergence tracker and the random source's
// state. The source must implement encoding.BinaryMarshaler, as
// math/rand/v2's PCG and ChaCha8 do. A gradient with its own randomness (a
// Minibatch) is checkpointed separately.
//
// Every sampler and every gradient or shape source with state of its own
// (Recipe, PSGLD, HAMCMC, SCIR, SGRLDSimplex, Minibatch, CountMinibatch,
// LBFGS) writes one versioned format:
//
//	"SGMC"             4 bytes, the magic
//	version            1 byte, 1
//	kind length, kind  1 byte, then the kind in ASCII ("SGHMC", "HAMCMC", …)
//	dimension          8 bytes, little-endian
//	payload length     8 bytes, little-endian
//	payload            the kind's own fields, little-endian
//	CRC-32C            4 bytes, Castagnoli, of everything before it
//
// The payload holds integers as 8 bytes, floats as their IEEE bits, slices
// as a length followed by the elements, and each random source as a length
// followed by its own MarshalBinary. Only primary state is stored; what
// derives from it (a metric, ω, the L-BFGS products) is recomputed on
// restore exactly as the sampler computed it.
//
// UnmarshalBinary checks, in this order, the magic, the version, the
// length, the checksum, the kind, the dimension and then every field
// (ranges, finiteness, permutations, the consistency of derived values),
// before it changes anything: on any failure it returns an error wrapping
// ErrCheckpoint that names the problem, and the receiver is left as it
// was. A checkpoint that is accepted marshals back to the same bytes.
func (r *Recipe) MarshalBinary() ([]byte, error) {
	var e encoder
	e.ints(r.spec.Blocks)
	e.int(r.t)
	e.floats(r.z)
	e.div(&r.div)
	if err := e.sources("Recipe.MarshalBinary", r.sources()...); err != nil {
		return nil, err
	}
	return seal(r.kindName(), r.d, e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Recipe built by the same constructor with the same settings: the chain
// then continues exactly as the checkpointed one would have. A checkpoint
// of another kind or dimension, or a truncated or corrupted one, gives an
// error wrapping ErrCheckpoint and leaves r as it was.
func (r *Recipe) UnmarshalBinary(data []byte) error {
	const who = "Recipe.UnmarshalBinary"
	p, err := unseal(who, r.kindName(), r.d, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: p}
	if d.length("block sizes", len(r.spec.Blocks)) {
		for i, b := range r.spec.Blocks {
			d.equal("block size "+strconv.Itoa(i), b)
		}
	}
	t := d.count("step count")
	z := d.floats("state", r.n, anyFinite)
	div := d.div(r.d, t)
	srcs := d.sources(len(r.sources()))
	if err := d.end(); err != nil {
		return err
	}
	if r.spec.Prepare != nil {
		if err := r.spec.Prepare(z); err != nil {
			// Put back what Prepare caches for the current state.
			_ = r.spec.Prepare(r.z)
			return errorf(ErrCheckpoint, "%s: Prepare fails at the checkpoint's state: %w", who, err)
		}
	}
	if err := restoreSources(who, r.sources(), srcs); err != nil {
		if r.spec.Prepare != nil {
			_ = r.spec.Prepare(r.z)
		}
		return err
	}
	copy(r.z, z)
	r.t = t
	r.thVer++
	r.gVer = -1
	r.div.step, r.div.n, r.div.last = div.step, div.n, div.last
	copy(r.div.from, div.from)
	copy(r.div.g, div.g)
	return nil
}

// MarshalBinary checkpoints the batch stream in the package's checkpoint
// format (described at Recipe.MarshalBinary): N, the batch size, the
// replacement mode, the permutation the batches are drawn from, the last
// batch and the random source's state. The source must implement
// encoding.BinaryMarshaler.
func (b *Minibatch) MarshalBinary() ([]byte, error) {
	if !b.acquire() {
		return nil, errShared
	}
	defer b.release()
	var e encoder
	e.int(b.model.Len())
	e.int(b.n)
	e.bool(b.replace)
	e.ints(b.perm)
	e.ints(b.idx)
	if err := e.sources("Minibatch.MarshalBinary", b.src); err != nil {
		return nil, err
	}
	return seal("Minibatch", b.model.Dim(), e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// Minibatch over the same model with the same size and replacement. On
// error, which wraps ErrCheckpoint, b is left as it was.
func (b *Minibatch) UnmarshalBinary(data []byte) error {
	const who = "Minibatch.UnmarshalBinary"
	p, err := unseal(who, "Minibatch", b.model.Dim(), data)
	if err != nil {
		return err
	}
	N := b.model.Len()
	d := decoder{who: who, b: p}
	d.equal("number of data items N", N)
	d.equal("batch size", b.n)
	if rep := d.bool("replacement"); d.err == nil && rep != b.replace {
		d.fail("checkpoint drawn with replacement %v, the receiver %v", rep, b.replace)
	}
	var perm []int
	if b.replace {
		d.length("permutation", 0)
	} else {
		perm = d.perm("permutation", N)
	}
	idx := d.ints("last batch", b.n, N)
	srcs := d.sources(1)
	if err := d.end(); err != nil {
		return err
	}
	if !b.acquire() {
		return errShared
	}
	defer b.release()
	if err := restoreSources(who, []any{b.src}, srcs); err != nil {
		return err
	}
	copy(b.perm, perm)
	copy(b.idx, idx)
	return nil
}

// MarshalBinary checkpoints the batch stream in the package's checkpoint
// format (described at Recipe.MarshalBinary): N, the batch size, the
// permutation, the last batch and the random source's state.
func (b *CountMinibatch) MarshalBinary() ([]byte, error) {
	var e encoder
	e.int(b.data.Len())
	e.int(b.n)
	e.ints(b.perm)
	e.ints(b.idx)
	if err := e.sources("CountMinibatch.MarshalBinary", b.src); err != nil {
		return nil, err
	}
	return seal("CountMinibatch", len(b.alpha), e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// CountMinibatch over the same data with the same α and batch size. On
// error, which wraps ErrCheckpoint, b is left as it was.
func (b *CountMinibatch) UnmarshalBinary(data []byte) error {
	const who = "CountMinibatch.UnmarshalBinary"
	p, err := unseal(who, "CountMinibatch", len(b.alpha), data)
	if err != nil {
		return err
	}
	N := b.data.Len()
	d := decoder{who: who, b: p}
	d.equal("number of data items N", N)
	d.equal("batch size", b.n)
	var perm, idx []int
	if b.full != nil {
		d.length("permutation", 0)
		idx = d.ints("last batch", b.n, N)
		for i, v := range idx {
			if d.err == nil && v != i {
				d.fail("last batch[%d] = %d; a batch of all N items is 0, 1, …, N−1", i, v)
			}
		}
	} else {
		perm = d.perm("permutation", N)
		idx = d.ints("last batch", b.n, N)
	}
	srcs := d.sources(1)
	if err := d.end(); err != nil {
		return err
	}
	if err := restoreSources(who, []any{b.src}, srcs); err != nil {
		return err
	}
	copy(b.perm, perm)
	copy(b.idx, idx)
	return nil
}

func (p *PSGLD) sources() []any { return p.blk.sources([]any{p.src}) }

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (described at Recipe.MarshalBinary): the step count, θ, the RMSprop
// accumulator v, the divergence tracker and the random source's state.
func (p *PSGLD) MarshalBinary() ([]byte, error) {
	var e encoder
	e.int(p.t)
	e.floats(p.theta)
	e.floats(p.v)
	e.div(&p.div)
	if err := e.sources("PSGLD.MarshalBinary", p.sources()...); err != nil {
		return nil, err
	}
	return seal("PSGLD", p.d, e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// PSGLD built with the same settings. On error, which wraps
// ErrCheckpoint, p is left as it was.
func (p *PSGLD) UnmarshalBinary(data []byte) error {
	const who = "PSGLD.UnmarshalBinary"
	pl, err := unseal(who, "PSGLD", p.d, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: pl}
	t := d.count("step count")
	theta := d.floats("θ", p.d, anyFinite)
	v := d.floats("accumulator v", p.d, nonNegative)
	div := d.div(p.d, t)
	srcs := d.sources(len(p.sources()))
	if err := d.end(); err != nil {
		return err
	}
	if err := restoreSources(who, p.sources(), srcs); err != nil {
		return err
	}
	p.t = t
	copy(p.theta, theta)
	copy(p.v, v)
	p.div.step, p.div.n, p.div.last = div.step, div.n, div.last
	copy(p.div.from, div.from)
	copy(p.div.g, div.g)
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
// format (described at Recipe.MarshalBinary): its size and settings, the
// window of pairs (s, y) as damped by Push, and the statistics. The products
// are rebuilt on restore.
func (l *LBFGS) MarshalBinary() ([]byte, error) {
	var e encoder
	l.encode(&e)
	return seal("LBFGS", l.dim, e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into an
// LBFGS of the same dimension, memory, γ and λ. On error, which wraps
// ErrCheckpoint, l is left as it was.
func (l *LBFGS) UnmarshalBinary(data []byte) error {
	const who = "LBFGS.UnmarshalBinary"
	p, err := unseal(who, "LBFGS", l.dim, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: p}
	nl := decodeLBFGS(&d, l)
	if err := d.end(); err != nil {
		return err
	}
	*l = *nl
	return nil
}

func (h *HAMCMC) sources() []any { return []any{h.src} }

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (described at Recipe.MarshalBinary): M, the lag, whether it warms up, the
// index t of the newest sample, the last M samples, the step statistics, the
// L-BFGS memory of curvature pairs, the divergence tracker and the random
// source's state. A gradient with its own randomness (a Minibatch) is
// checkpointed separately.
func (h *HAMCMC) MarshalBinary() ([]byte, error) {
	var e encoder
	e.int(h.m)
	e.int(h.lag)
	e.bool(h.warm)
	e.int(h.t)
	for _, x := range h.hist {
		e.floats(x)
	}
	e.int(h.stats.Steps)
	e.int(h.stats.WarmupSteps)
	e.int(h.stats.IdentitySteps)
	h.lb.encode(&e)
	e.div(&h.div)
	if err := e.sources("HAMCMC.MarshalBinary", h.sources()...); err != nil {
		return nil, err
	}
	return seal("HAMCMC", h.d, e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// HAMCMC built with the same settings (M, γ, λ, Naive). On error, which
// wraps ErrCheckpoint, h is left as it was.
func (h *HAMCMC) UnmarshalBinary(data []byte) error {
	const who = "HAMCMC.UnmarshalBinary"
	p, err := unseal(who, "HAMCMC", h.d, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: p}
	d.equal("memory M", h.m)
	d.equal("lag (1 for the naïve sampler, M otherwise)", h.lag)
	warm := d.bool("warm-up flag")
	t := d.count("sample index t")
	if d.err == nil && !warm && t < 2*h.m {
		d.fail("a chain started from Init has t ≥ 2M = %d, the checkpoint t = %d", 2*h.m, t)
	}
	hist := make([][]float64, h.m)
	for k := range hist {
		hist[k] = d.floats("sample history", h.d, anyFinite)
	}
	var st HAMCMCStats
	st.Steps = d.int("steps", 0, t)
	st.WarmupSteps = d.int("warm-up steps", 0, st.Steps)
	st.IdentitySteps = d.int("identity steps", 0, st.Steps)
	lb := decodeLBFGS(&d, h.lb)
	div := d.div(h.d, t)
	srcs := d.sources(len(h.sources()))
	if err := d.end(); err != nil {
		return err
	}
	if err := restoreSources(who, h.sources(), srcs); err != nil {
		return err
	}
	h.warm, h.t = warm, t
	for k, x := range hist {
		copy(h.hist[k], x)
	}
	*h.lb = *lb
	lst := h.lb.Stats()
	st.PairsAccepted, st.PairsRejected = lst.Accepted, lst.Rejected
	st.PairsInUse = h.lb.Len()
	st.SameBatch = h.bg.same
	h.stats = st
	h.div.step, h.div.n, h.div.last = div.step, div.n, div.last
	copy(h.div.from, div.from)
	copy(h.div.g, div.g)
	return nil
}

func (s *SCIR) sources() []any { return s.blk.sources([]any{s.src}) }

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (described at Recipe.MarshalBinary): the simplex block length, the step
// count, θ, log θ and the random source's state. A shape estimator with its
// own randomness (a CountMinibatch) is checkpointed separately.
func (s *SCIR) MarshalBinary() ([]byte, error) {
	var e encoder
	e.int(s.block)
	e.int(s.t)
	e.floats(s.theta)
	e.floats(s.logTheta)
	if err := e.sources("SCIR.MarshalBinary", s.sources()...); err != nil {
		return nil, err
	}
	return seal("SCIR", s.d, e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into an
// SCIR built with the same settings. On error, which wraps ErrCheckpoint,
// s is left as it was.
func (s *SCIR) UnmarshalBinary(data []byte) error {
	const who = "SCIR.UnmarshalBinary"
	p, err := unseal(who, "SCIR", s.d, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: p}
	d.equal("simplex block length", s.block)
	t := d.count("step count")
	theta := d.floats("θ", s.d, nonNegative)
	logTheta := d.floats("log θ", s.d, anyValue)
	srcs := d.sources(len(s.sources()))
	if err := d.end(); err != nil {
		return err
	}
	// log θ must be log of θ: close to it where θ is a normal float,
	// below the normal range where it is subnormal or zero.
	const (
		logMinNormal = -708.3964185322641 // log 2^−1022
		logMinSub    = -744.4400719213812 // log 2^−1074
	)
	for j, l := range logTheta {
		th := theta[j]
		var ok bool
		switch {
		case math.IsNaN(l) || math.IsInf(l, 1):
		case th >= 0x1p-1022:
			lt := math.Log(th)
			ok = math.Abs(l-lt) <= 1e-9*(1+math.Abs(lt))
		case th > 0:
			lt := math.Log(th)
			ok = l <= logMinNormal+1e-9 && l >= lt-1 && l <= lt+1
		default:
			ok = l <= logMinSub
		}
		if !ok {
			return errorf(ErrCheckpoint, "%s: log θ[%d] = %v does not match θ[%d] = %v", who, j, l, j, th)
		}
	}
	if s.block > 0 {
		for lo := 0; lo < s.d; lo += s.block {
			m := math.Inf(-1)
			for _, l := range logTheta[lo : lo+s.block] {
				m = max(m, l)
			}
			if math.IsInf(m, -1) {
				return errorf(ErrCheckpoint, "%s: θ is zero on the whole simplex block at %d", who, lo)
			}
		}
	}
	if err := restoreSources(who, s.sources(), srcs); err != nil {
		return err
	}
	s.t = t
	copy(s.theta, theta)
	copy(s.logTheta, logTheta)
	if s.omega != nil {
		for k := range s.logSum {
			lo, hi := k*s.block, (k+1)*s.block
			s.logSum[k] = normalizeSimplexBlock(s.omega[lo:hi], s.theta[lo:hi], s.logTheta[lo:hi])
		}
	}
	return nil
}

func (g *SGRLDSimplex) sources() []any { return []any{g.src} }

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (described at Recipe.MarshalBinary): the simplex block length, the step
// count, θ and the random source's state.
func (g *SGRLDSimplex) MarshalBinary() ([]byte, error) {
	var e encoder
	e.int(g.block)
	e.int(g.t)
	e.floats(g.theta)
	if err := e.sources("SGRLDSimplex.MarshalBinary", g.sources()...); err != nil {
		return nil, err
	}
	return seal("SGRLDSimplex", g.d, e.b), nil
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into an
// SGRLDSimplex built with the same settings. On error, which wraps
// ErrCheckpoint, g is left as it was.
func (g *SGRLDSimplex) UnmarshalBinary(data []byte) error {
	const who = "SGRLDSimplex.UnmarshalBinary"
	p, err := unseal(who, "SGRLDSimplex", g.d, data)
	if err != nil {
		return err
	}
	d := decoder{who: who, b: p}
	d.equal("simplex block length", g.block)
	t := d.count("step count")
	theta := d.floats("θ", g.d, nonNegative)
	srcs := d.sources(len(g.sources()))
	if err := d.end(); err != nil {
		return err
	}
	if g.block > 0 {
		for lo := 0; lo < g.d; lo += g.block {
			var sum float64
			for _, v := range theta[lo : lo+g.block] {
				sum += v
			}
			if !(sum > 0) || math.IsInf(sum, 0) {
				return errorf(ErrCheckpoint, "%s: θ sums to %v on the simplex block at %d, want positive and finite", who, sum, lo)
			}
		}
	}
	if err := restoreSources(who, g.sources(), srcs); err != nil {
		return err
	}
	g.t = t
	copy(g.theta, theta)
	if g.omega != nil {
		g.normalize(g.theta)
	}
	return nil
}
