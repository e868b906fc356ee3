// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "slices"

// Which recipes take the fused sweep (fused.go).
//
// newFused recognises two shapes, reading every value the pass needs from
// the recipe's own operators (a Diagonal's or Vector's slice is read at
// every step, so a metric cache that Prepare updates in place is seen):
//
//   - θ alone (SGLD, SGRLD): D = Scalar or Diagonal, Q = 0, K = 0, Γ = 0
//     or a Vector;
//   - θ and a momentum r, optionally a thermostat ξ (SGHMC, gSGRHMC with a
//     diagonal metric, SGNHT): D = diag(0, D_rr[, 0]) with D_rr a Scalar
//     or Diagonal; Q_θr and Q_rθ Scalars or Diagonals, Q_θθ = Q_rr = 0;
//     with ξ, Q_rξ = s_c·r and Q_ξr = s_r·rᵀ (SGNHT's coupling) and
//     nothing else; ∇K a Kinetic; Γ = 0 or a Vector.

// newFused returns the fused sweep of r, or nil if r's operators do not
// have one of the shapes it recognises.
func newFused(r *Recipe) *fused {
	f := fusedShape(r)
	if f == nil {
		return nil
	}
	f.setBlocks(f)
	return f
}

// setBlocks splits f's passes into blocks run by run (f itself for the
// sweep), seeding their generators from the chain's, and makes the
// buffers of the passes.
func (f *fused) setBlocks(run blockRunner) {
	r := f.r
	f.blk = newBlockSet(run, r.gen, r.d)
	f.parts = make([]fusedPart, f.blk.nb)
	f.bak = make([]float64, r.d)
	if f.kind == fusedHMC {
		f.rbak = make([]float64, r.d)
	}
}

// fusedShape reads r's operators into a fused step without its blocks and
// buffers (setBlocks), or returns nil if they do not have one of the
// shapes the fused passes recognise.
func fusedShape(r *Recipe) *fused {
	s := &r.spec
	if s.NumericGamma {
		return nil
	}
	f := &fused{r: r, prepAfter: s.Prepare != nil}
	d, n := r.d, r.n
	var gam Vector
	if s.Gamma != nil {
		v, ok := s.Gamma.(Vector)
		if !ok || len(v) != n {
			return nil
		}
		gam = v
	}
	switch len(s.Blocks) {
	case 1:
		if s.Q != nil || s.GradK != nil || !f.diffusion(s.D) {
			return nil
		}
		f.kind = fusedLD
		if gam != nil {
			f.gam = gam
		}
	case 2, 3:
		nht := len(s.Blocks) == 3
		if s.Blocks[1] != d || nht && s.Blocks[2] != 1 {
			return nil
		}
		k, ok := s.GradK.(Kinetic)
		if !ok || k.Thermostat != nht || k.InvMass != nil && len(k.InvMass) != d {
			return nil
		}
		D, ok := s.D.(*Block)
		if !ok || !onlyBlocks(D, [2]int{1, 1}) || !f.diffusion(D.ops[1][1]) {
			return nil
		}
		Q, ok := s.Q.(*Block)
		if !ok {
			return nil
		}
		coupling := [][2]int{{0, 1}, {1, 0}}
		if nht {
			coupling = append(coupling, [2]int{1, 2}, [2]int{2, 1})
		}
		if !onlyBlocks(Q, coupling...) {
			return nil
		}
		if f.qt, f.ct, ok = diagOf(Q.ops[0][1]); !ok {
			return nil
		}
		if f.qr, f.cr, ok = diagOf(Q.ops[1][0]); !ok {
			return nil
		}
		f.kind, f.im = fusedHMC, k.InvMass
		if gam != nil {
			f.gam = gam[d : 2*d]
		}
		if nht {
			col, ok1 := Q.ops[1][2].(momentumColumn)
			row, ok2 := Q.ops[2][1].(momentumRow)
			if !ok1 || !ok2 || col.d != d || row.d != d {
				return nil
			}
			f.nht, f.a, f.scol, f.srow = true, k.A, col.scale, row.scale
			if gam != nil {
				f.gamXi = gam[2*d]
				if s.Prepare == nil && allZero(f.gam) {
					f.gam = nil // constant zero: the lean loads
				}
			}
		}
	default:
		return nil
	}
	return f
}

// diffusion reads the noisy block's diffusion, a Scalar or a Diagonal.
func (f *fused) diffusion(op Operator) bool {
	switch D := op.(type) {
	case Scalar:
		f.c = D.C
		return true
	case Diagonal:
		f.c, f.dd = 1, D
		return true
	}
	return false
}

// diagOf returns the slice of a Diagonal or the constant of a Scalar.
func diagOf(op Operator) ([]float64, float64, bool) {
	switch q := op.(type) {
	case Scalar:
		return nil, q.C, true
	case Diagonal:
		return q, 0, true
	}
	return nil, 0, false
}

// onlyBlocks reports whether b has no nonzero blocks but those listed
// (which must be present).
func onlyBlocks(b *Block, want ...[2]int) bool {
	for i, row := range b.ops {
		for j, op := range row {
			listed := slices.Contains(want, [2]int{i, j})
			if listed != (op != nil) {
				return false
			}
		}
	}
	return true
}

func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}
