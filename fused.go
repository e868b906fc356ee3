// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

// The fused sweep.
//
// A recipe whose operators have the structure of the named samplers, in
// the default sequential sweep, takes its steps here rather than through
// the operators' interfaces: one pass over the state that draws the noise
// a block of normals at a time, updates the momentum and θ, judges the
// previous transition's divergence, keeps the copy of the state that a
// failed step is undone from, and checks the new state's finiteness. The
// arithmetic is the generic sweep's, operation for operation and in the
// same order, so the two give the same bits (fused_test.go compares them);
// the pass only skips the generic path's intermediate vectors (∇H, the
// increment, the noise), its interface calls and its separate passes.
//
// newFused (fused_shape.go) decides which recipes take it.
//
// Above parallelDim the pass runs in blocks on several cores (blocks.go),
// each block drawing from its own generator.

// Kinds of fused step.
const (
	fusedLD  = iota + 1 // θ only: SGLD, SGRLD
	fusedHMC            // θ and a momentum r: SGHMC, gSGRHMC, SGNHT
)

// fusedPart is one block's share of a fused step's sums.
type fusedPart struct {
	du    float64 // the previous transition's trapezoid ΔU
	chk   float64 // Σ of the new θ: not finite if one of them is not
	sumsq float64 // Σ r² of the new momentum (SGNHT)
	psd   int     // first z index where 2D − εB̂ < 0, or -1
	psdV  float64 // 2D − εB̂ there
}

// fused is a Recipe's fused step: views of its operators, buffers and
// per-step values.
type fused struct {
	kind int
	// c is the scalar diffusion of the noisy block (θ for fusedLD, r for
	// fusedHMC) when dd is nil.
	c float64
	// dd is the diagonal diffusion of the noisy block, or nil.
	dd []float64
	// gam is Γ on the noisy block, or nil for zero.
	gam []float64
	// im is the inverse mass, ∇_r K = r∘im; nil for r.
	im []float64
	// qr and qt are the diagonals of Q_rθ and Q_θr (gSGRHMC's ±G^(−1/2)),
	// or nil for the scalars cr and ct (SGHMC's 1 and −1).
	qr, qt []float64
	cr, ct float64
	// nht adds SGNHT's thermostat ξ = z[2d]: the momentum's friction
	// −scol·d(ξ − A), and ξ ← ξ + ε(Γ_ξ − srow·rᵀr).
	nht           bool
	a, scol, srow float64
	gamXi         float64
	prepAfter     bool // call Prepare after θ moves (a metric at the new θ)
	r             *Recipe
	blk           blockSet
	parts         []fusedPart
	bak           []float64 // θ_t, which becomes the divergence tracker's start
	rbak          []float64 // r_t (fusedHMC)
	xi0           float64   // ξ_t (nht)
	moved         bool      // the pass has run: undo must restore the state
	// per step
	eps float64
	b   []float64 // B̂ in z-space, or nil
	axi float64   // SGNHT: −(ξ − A), the momentum's extra friction coefficient
}

// step is the fused sweep's step. It mirrors the generic sweep; on
// failure Recipe.Step calls undo.
func (f *fused) step(r *Recipe, eps float64, step int) error {
	if err := f.begin(r, eps, step); err != nil {
		return err
	}
	d := r.d
	if f.nht {
		// The momentum's friction from ξ: Q_rξ ∇_ξK = (s_c·r)·d(ξ − A).
		fd := float64(d)
		f.axi = (-1 * f.scol) * (fd * (r.z[2*d] - f.a))
	}
	f.moved = true
	f.blk.do(f)
	tot := f.total()
	if f.nht {
		// ξ ← ξ + ε(Γ_ξ − s_r·rᵀr), SGNHT's ξ + ε(−1 + rᵀr/d).
		xi := r.z[2*d]
		r.z[2*d] = xi + (eps*(f.gamXi+(-1*f.srow)*tot.sumsq) + 0)
		tot.chk += r.z[2*d]
	}
	return f.finish(r, step, tot)
}

// begin starts a fused step at z_t: it saves what undo puts back, draws
// the step's gradient at θ_t and sets B̂ and ε for the passes.
func (f *fused) begin(r *Recipe, eps float64, step int) error {
	s := &r.spec
	d := r.d
	f.blk.save()
	if f.nht {
		f.xi0 = r.z[2*d]
	}
	f.moved = false
	r.thVer++
	if err := r.prepare(step); err != nil {
		return err
	}
	s.Grad.Grad(r.g, r.z[:d])
	r.gVer = r.thVer
	f.b = nil
	if r.b != nil {
		if s.EstimateNoise {
			if err := checkGradValue(s.Grad, r.g, step); err != nil {
				return err
			}
			s.Grad.(NoiseEstimator).NoiseVar(r.v)
		} else {
			copy(r.v, s.NoiseVar)
		}
		s.NoiseMap(r.b, r.z, r.v)
		f.b = r.b
	}
	f.eps = eps
	return nil
}

// total returns the blocks' sums, in block order.
func (f *fused) total() fusedPart {
	tot := fusedPart{psd: -1}
	for k := range f.parts {
		p := &f.parts[k]
		if k == 0 {
			tot.du, tot.chk, tot.sumsq = p.du, p.chk, p.sumsq
		} else {
			tot.du += p.du
			tot.chk += p.chk
			tot.sumsq += p.sumsq
		}
		if tot.psd < 0 && p.psd >= 0 {
			tot.psd, tot.psdV = p.psd, p.psdV
		}
	}
	return tot
}

// finish ends a fused step whose passes have run, with their sums tot:
// it reports a failure in the generic path's order, or judges the
// previous transition and begins this one.
func (f *fused) finish(r *Recipe, step int, tot fusedPart) error {
	s := &r.spec
	if tot.psd >= 0 || tot.chk-tot.chk != 0 && firstNonFinite(r.z) >= 0 {
		// (A sum of finite values may overflow: only a non-finite
		// coordinate fails the step.)
		// The generic path's order of checks: the gradient first if B̂ is
		// estimated from it, else the noise, then the gradient, then the
		// state.
		psdErr := func() error {
			return &StepError{Step: step, Index: tot.psd, Value: tot.psdV, What: notPSDWhat}
		}
		if tot.psd >= 0 && !s.EstimateNoise {
			return psdErr()
		}
		if err := checkGradValue(s.Grad, r.g, step); err != nil {
			return err
		}
		if tot.psd >= 0 {
			return psdErr()
		}
		if f.prepAfter {
			// The generic sweep evaluates the metric at the new θ before
			// it checks the state.
			if err := r.prepare(step); err != nil {
				return err
			}
		}
		return checkFinite(r.z, step, nonFiniteStateWhat)
	}
	if f.prepAfter {
		r.thVer++
		if err := r.prepare(step); err != nil {
			return err
		}
	} else {
		r.thVer++
	}
	// Success: judge the previous transition, then begin this one, whose
	// start θ_t and gradient are in bak and r.g.
	if r.div.step != 0 {
		if tot.du > divergenceThreshold(len(r.div.from)) || tot.du != tot.du {
			// Divergent (rarely): find the worst coordinate as judge does,
			// from θ_t (in bak) and the gradients.
			r.div.judge(r.div.step, r.div.from, f.bak, r.div.g, r.g)
		}
		r.div.step = 0
	}
	r.div.from, f.bak = f.bak, r.div.from
	r.div.g, r.g = r.g, r.div.g
	r.div.step = step
	// θ_t and its gradient, for Run's temperature test.
	r.div.vir.add(r.div.from, r.div.g)
	return nil
}

// undo puts back the block generators and, if the pass ran, θ, r and ξ.
func (f *fused) undo(r *Recipe) {
	f.blk.restore()
	if !f.moved {
		return
	}
	d := r.d
	copy(r.z[:d], f.bak)
	if f.rbak != nil {
		copy(r.z[d:2*d], f.rbak)
	}
	if f.nht {
		r.z[2*d] = f.xi0
	}
}
