// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

func (h *HAMCMC) sources() []any { return []any{h.src} }

// kindHAMCMC is the checkpoint kind of a HAMCMC (checkpoint.go): an on-disk
// string that must never change.
const kindHAMCMC = "HAMCMC"

// MarshalBinary checkpoints the chain in the package's checkpoint format
// (documented in checkpoint.go), of kind "HAMCMC": M, the lag, whether it
// warms up, the index t of the newest sample, the last M samples, the step
// statistics, the L-BFGS memory of curvature pairs, the divergence tracker
// and the random source's state. A gradient with its own randomness (a
// Minibatch) is checkpointed separately.
func (h *HAMCMC) MarshalBinary() ([]byte, error) {
	return marshal("HAMCMC.MarshalBinary", kindHAMCMC, h.d, h.sources(), func(e *encoder) {
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
		encodeLBFGS(e, h.lb)
		e.div(&h.div)
	})
}

// UnmarshalBinary restores a checkpoint written by MarshalBinary into a
// HAMCMC built with the same settings (M, γ, λ, Naive). On error, which
// wraps ErrCheckpoint, h is left as it was.
func (h *HAMCMC) UnmarshalBinary(data []byte) error {
	return restore("HAMCMC.UnmarshalBinary", kindHAMCMC, h.d, data, h.sources(), func(d *decoder) commit {
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
		lb := decodeLBFGS(d, h.lb)
		div := d.div(h.d, t)
		return commit{set: func() {
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
			h.div.set(div)
		}}
	})
}
