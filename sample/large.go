// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/floats"
)

// Run above DenseMax (doc/adaptation.md §4, §4.1): after the diagonal
// warmup, a low-rank factor from the whitened curvature's extreme
// eigenpairs, λ̂ by the Lanczos process, and a sampling run that keeps
// running moments of every coordinate, with batch means for their MCSE,
// and the draws of as many coordinates as Settings.DrawsMemory allows.
// Its constants are in constants.go.

// lowRank is the factor I + U diag(c) Uᵀ of a diagonal whitening, U d×k
// row-major with orthonormal columns.
type lowRank struct {
	u, c []float64
}

// withLowRank returns w with a low-rank factor from the fixed batch's
// whitened curvature at w's shift (the windows' end): the Lanczos
// process's converged Ritz pairs (λ_j, u_j) outside
// [1/lowRankRatio, lowRankRatio], at most lowRankMax of them, the
// farthest from 1 (in log λ) first, each rescaled to unit curvature by
// 1 + c_j = 1/√λ_j. Negative curvature is left to the diagonal. w itself
// is returned when no direction qualifies.
func (e *chainEnv) withLowRank(w *whitening) *whitening {
	a, err := w.affine(e.fixed)
	if err != nil {
		return w
	}
	z := make([]float64, e.d)
	vals, resid, vecs := lanczos(hvpOp(a, z), e.d, lowRankSteps, e.rng, true)
	type pair struct {
		lam float64
		v   []float64
	}
	var ps []pair
	for i, l := range vals {
		if l > 0 && (l > lowRankRatio || l < 1/lowRankRatio) && resid[i] <= lowRankTol*l {
			ps = append(ps, pair{l, vecs[i]})
		}
	}
	// The farthest from 1 first (an insertion sort: at most lowRankSteps).
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && math.Abs(math.Log(ps[j].lam)) > math.Abs(math.Log(ps[j-1].lam)); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
	ps = ps[:min(len(ps), lowRankMax)]
	// Orthonormalise again (the Ritz vectors are, to rounding), dropping
	// any that lose their length.
	var us [][]float64
	var cs []float64
	for _, p := range ps {
		v := append([]float64(nil), p.v...)
		for range 2 {
			for _, u := range us {
				floats.AddScaled(v, -floats.Dot(u, v), u)
			}
		}
		n := floats.Norm(v, 2)
		if !(n > 0.5) {
			continue
		}
		floats.Scale(1/n, v)
		us = append(us, v)
		cs = append(cs, 1/math.Sqrt(p.lam)-1)
	}
	if len(us) == 0 {
		return w
	}
	k := len(us)
	u := make([]float64, e.d*k)
	for j, v := range us {
		for i, x := range v {
			u[i*k+j] = x
		}
	}
	return &whitening{shift: w.shift, diag: w.diag, lr: &lowRank{u: u, c: cs}}
}

// curvatureLarge returns λ̂ over the large-d path's warmup points hs
// (whose at records where each was measured), and the smallest
// curvature above the floor and the largest over the windows' points
// hs[1:], by lanczosSteps Lanczos steps on the fixed batch's whitened
// Hessian-vector products in w's coordinates (the Newton end included in
// λ̂, as on the dense path).
func (e *chainEnv) curvatureLarge(w *whitening, hs []sym) (lamMax, lamMin, spreadMax float64) {
	cr := curvatureRange{lamMin: math.Inf(1)}
	a, err := w.affine(e.fixed)
	if err != nil {
		return 0, cr.lamMin, 0
	}
	for k, h := range hs {
		if vals, _, _ := lanczos(hvpOp(a, w.toZ(h.at)), e.d, lanczosSteps, e.rng, false); len(vals) > 0 {
			cr.add(k, vals)
		}
	}
	return cr.lamMax, cr.lamMin, cr.spreadMax
}

// thetaView shows a whitened sampler's state in θ, so that Run keeps
// draws and moments of θ directly (ToTheta at each kept draw, O(kd)).
type thetaView struct {
	sgmcmc.Sampler
	aff *sgmcmc.Affine
	th  []float64
}

func (v *thetaView) Position() []float64 {
	v.aff.ToTheta(v.th, v.Sampler.Position())
	return v.th
}

func (v *thetaView) Divergences() (int, sgmcmc.Divergence) {
	if dc, ok := v.Sampler.(sgmcmc.DivergenceCounter); ok {
		return dc.Divergences()
	}
	return 0, sgmcmc.Divergence{}
}

// chainMoments are one chain's running moments of every coordinate of θ
// and the means of its batchMeans consecutive batches of draws.
type chainMoments struct {
	n        int
	mean, m2 []float64
	batches  [][]float64
}

// add merges a batch's moments (Chan, Golub & LeVeque's update).
func (c *chainMoments) add(m *sgmcmc.Moments) {
	if m == nil || m.N == 0 {
		return
	}
	if c.mean == nil {
		c.mean, c.m2 = make([]float64, len(m.Mean)), make([]float64, len(m.Mean))
	}
	na, nb := float64(c.n), float64(m.N)
	n := na + nb
	for i, mb := range m.Mean {
		delta := mb - c.mean[i]
		c.mean[i] += delta * nb / n
		c.m2[i] += m.M2[i] + delta*delta*na*nb/n
	}
	c.n += m.N
	c.batches = append(c.batches, append([]float64(nil), m.Mean...))
}

// keptCoords returns the coordinates whose draws a large-d run keeps:
// all (nil) when chains × draws × d floats fit in budget bytes, and
// otherwise the m that fit, evenly spaced, ⌊i·d/m⌋ for i < m (at least
// one).
func keptCoords(d, chains, draws int, budget int64) []int {
	per := valid.FloatBytes(chains, draws)
	if per*float64(d) <= float64(budget) {
		return nil
	}
	m := max(1, min(d, int(float64(budget)/per)))
	cs := make([]int, m)
	for i := range cs {
		cs[i] = int(int64(i) * int64(d) / int64(m))
	}
	return cs
}

// runLarge runs the frozen sampler smp (whitened by aff) for o.Draws
// draws in batchMeans consecutive runs of Run — the same steps, in the
// same order, as one run — keeping the draws of coords (nil: all) in θ
// and every coordinate's moments, and returns the chain and its moments.
// The divergence limit is the whole run's, shared by the parts.
func runLarge(ctx context.Context, smp sgmcmc.Sampler, aff *sgmcmc.Affine, o sgmcmc.RunOptions, coords []int) (*sgmcmc.Chain, *chainMoments, error) {
	view := &thetaView{Sampler: smp, aff: aff, th: make([]float64, aff.Dim())}
	draws, thin := o.Draws, max(o.Thin, 1)
	w := aff.Dim()
	if coords != nil {
		w = len(coords)
	}
	maxDiv := o.MaxDivergences
	if maxDiv == 0 {
		maxDiv = max(10, (o.BurnIn+draws*thin)/100)
	}
	c := &sgmcmc.Chain{Dim: w, Draws: make([]float64, 0, draws*w), Eps: make([]float64, 0, draws), Coords: coords}
	if _, ok := smp.(sgmcmc.DivergenceCounter); ok {
		c.Divergent = make([]bool, 0, draws)
	}
	mom := &chainMoments{}
	nb := min(batchMeans, draws)
	cb := o.Callback
	for b := range nb {
		p := o
		p.Draws = draws / nb
		if b < draws%nb {
			p.Draws++
		}
		p.Start = o.Start + c.Steps
		if b > 0 {
			p.BurnIn = 0
		}
		p.Coords, p.Moments = coords, true
		if coords == nil {
			p.Coords = nil
		}
		p.MaxDivergences = maxDiv - c.Divergences
		if maxDiv < 0 {
			p.MaxDivergences = -1
		}
		if cb != nil {
			off := c.Steps
			p.Callback = func(si sgmcmc.StepInfo) error { si.T += off; return cb(si) }
		}
		seg, err := sgmcmc.Run(ctx, view, p)
		if seg != nil {
			c.Draws = append(c.Draws, seg.Draws[:seg.Len()*w]...)
			c.Eps = append(c.Eps, seg.Eps...)
			if c.Divergent != nil {
				c.Divergent = append(c.Divergent, seg.Divergent...)
			}
			c.Steps += seg.Steps
			c.Divergences += seg.Divergences
			mom.add(seg.Moments)
		}
		if err != nil || seg == nil || seg.Len() < p.Draws {
			return c, mom, err
		}
	}
	return c, mom, nil
}
