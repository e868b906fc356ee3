// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "math"

// Step generates the next sample with step size eps. On error the chain is
// left exactly as it was, its generator included (a minibatch gradient's
// own stream has advanced).
func (h *HAMCMC) Step(eps float64) error {
	t := h.t + 1
	if err := checkStepSize(eps, t); err != nil {
		return err
	}
	save := *h.src
	var err error
	if h.warm && t <= 2*h.m {
		err = h.warmup(eps, t)
	} else {
		err = h.step(eps, t)
	}
	if err != nil {
		*h.src = save
	}
	return err
}

// step is a HAMCMC step after the warm-up.
func (h *HAMCMC) step(eps float64, t int) error {
	identity := h.lb.Len() == 0
	base := h.hist[(t-h.lag)%h.m]
	h.bg.newBatch()
	h.bg.grad(h.g0, base)
	if err := checkGradValue(h.bg.g, h.g0, t); err != nil {
		return err
	}
	// The lengths are the sampler's own, so the products cannot fail.
	_ = h.lb.MulH(h.xi, h.g0)
	h.src.Fill(h.z)
	_ = h.lb.MulS(h.z, h.z)
	sq := math.Sqrt(2 * eps)
	for i, b := range base {
		h.next[i] = b - eps*h.xi[i] + sq*h.z[i]
	}
	if err := checkFinite(h.next, t, "state became non-finite (step size too large?)"); err != nil {
		return err
	}
	h.bg.grad(h.g1, h.next)
	if err := checkGradValue(h.bg.g, h.g1, t); err != nil {
		return err
	}
	h.div.judge(t, base, h.next, h.g0, h.g1)
	h.div.vir.add(h.next, h.g1)
	h.offer(eps, h.next, base, h.g1, h.g0, identity)
	if identity {
		h.stats.IdentitySteps++
	}
	h.commit(t)
	return nil
}

// warmup is step t ≤ 2M from theta0: SGLD with preconditioner γI. From
// t = M+2 on it also offers the pair (θ_t − θ_{t−lag}) on its batch, and
// judges its transition θ_{t−1} → θ_t at once from the gradients at both
// ends; before that, the transition is judged by the next step, which
// computes the gradient at θ_t.
func (h *HAMCMC) warmup(eps float64, t int) error {
	cur := h.hist[(t-1)%h.m]
	h.bg.newBatch()
	h.bg.grad(h.g0, cur)
	if err := checkGradValue(h.bg.g, h.g0, t); err != nil {
		return err
	}
	sq := math.Sqrt(2 * eps * h.gamma)
	h.src.Fill(h.z)
	for i, c := range cur {
		h.next[i] = c - eps*h.gamma*h.g0[i] + sq*h.z[i]
	}
	if err := checkFinite(h.next, t, "state became non-finite (step size too large?)"); err != nil {
		return err
	}
	if t < h.m+2 {
		h.div.finish(cur, h.g0)
		h.div.begin(t, cur, h.g0)
	} else {
		base := h.hist[(t-h.lag)%h.m]
		h.bg.grad(h.g1, h.next)
		if err := checkGradValue(h.bg.g, h.g1, t); err != nil {
			return err
		}
		gb := h.g0 // ∇Ũ(θ_{t−lag}) on this batch
		if h.lag != 1 {
			gb = h.xi
			h.bg.grad(gb, base)
			if err := checkGradValue(h.bg.g, gb, t); err != nil {
				return err
			}
		}
		h.div.finish(cur, h.g0)
		h.div.judge(t, cur, h.next, h.g0, h.g1)
		h.div.vir.add(h.next, h.g1)
		h.offer(eps, h.next, base, h.g1, gb, true)
	}
	h.stats.WarmupSteps++
	h.commit(t)
	return nil
}

func (h *HAMCMC) commit(t int) {
	copy(h.hist[t%h.m], h.next)
	h.t = t
	h.stats.Steps++
	h.stats.PairsInUse = h.lb.Len()
}
