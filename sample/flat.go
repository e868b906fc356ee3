// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"

	"gonum.org/v1/gonum/floats"
)

// P5's flat test (doc/adaptation.md §2.5): a whitened direction whose
// curvature, relative to the largest at the same point, is at most flatRel
// at every window point is flat — the rounding of a finite-difference
// Hessian of a gradient that does not depend on the direction at all, and
// far below any curvature a proper posterior leaves after whitening (about
// 1 in every direction; condition numbers up to 1/eigFloor = 10¹² are kept
// only where they have to be).

// flatDirection returns a unit direction in θ along which every
// whitened Hessian of hs (in w's coordinates; the dense path only) has a
// curvature of magnitude at most flatRel times its largest, nil if there
// is none: the direction at the last of hs, if it is flat at all of them.
func flatDirection(hs []sym, w *whitening) []float64 {
	if len(hs) == 0 || w.lower == nil && w.diag == nil {
		return nil
	}
	var dir []float64 // in z
	for k := len(hs) - 1; k >= 0; k-- {
		h := hs[k]
		if h.m == nil {
			return nil
		}
		vals, vecs, ok := symEigen(h.m)
		if !ok {
			return nil
		}
		top := math.Max(math.Abs(vals[0]), math.Abs(vals[len(vals)-1]))
		if !(top > 0) || math.IsInf(top, 0) {
			return nil
		}
		d := len(vals)
		if dir == nil {
			j := 0
			for i, l := range vals {
				if math.Abs(l) < math.Abs(vals[j]) {
					j = i
				}
			}
			if math.Abs(vals[j]) > flatRel*top {
				return nil
			}
			dir = make([]float64, d)
			for i := range d {
				dir[i] = vecs.At(i, j)
			}
			continue
		}
		// dir must be flat here too: its curvature dirᵀ H dir.
		hv := make([]float64, d)
		h.mulVec(hv, dir)
		if math.Abs(floats.Dot(dir, hv)) > flatRel*top {
			return nil
		}
	}
	// To θ: L dir, normalised.
	th := w.toTheta(dir)
	floats.Sub(th, w.shift)
	n := floats.Norm(th, 2)
	if !(n > 0) || math.IsInf(n, 0) {
		return nil
	}
	floats.Scale(1/n, th)
	return th
}

// improperError is the error of a posterior flat along dir (in θ), in
// words: the direction by its largest components, and what to do.
func improperError(dir []float64, names []string) error {
	type comp struct {
		i int
		v float64
	}
	cs := make([]comp, len(dir))
	for i, v := range dir {
		cs[i] = comp{i, v}
	}
	slices.SortFunc(cs, func(a, b comp) int {
		switch {
		case math.Abs(a.v) > math.Abs(b.v):
			return -1
		case math.Abs(a.v) < math.Abs(b.v):
			return 1
		}
		return a.i - b.i
	})
	if cs[0].v < 0 {
		for k := range cs {
			cs[k].v = -cs[k].v
		}
	}
	var b strings.Builder
	for k, c := range cs {
		if k == 4 || math.Abs(c.v) < 0.05 {
			if k < len(cs) && math.Abs(c.v) >= 0.05 {
				b.WriteString(" + …")
			}
			break
		}
		name := fmt.Sprintf("theta.%d", c.i+1)
		if c.i < len(names) {
			name = names[c.i]
		}
		switch {
		case k == 0:
			fmt.Fprintf(&b, "%.2f·%s", c.v, name)
		case c.v < 0:
			fmt.Fprintf(&b, " − %.2f·%s", -c.v, name)
		default:
			fmt.Fprintf(&b, " + %.2f·%s", c.v, name)
		}
	}
	what := "a parameter the data do not inform, under a flat prior: give it a proper prior"
	if math.Abs(cs[0].v) < 0.99 {
		what = "parameters that enter the likelihood only through a combination, under flat priors (the model is not identified): give them proper priors, or reparametrise so that each is determined"
	}
	return valid.Errorf(sgmcmc.ErrImproper, "Sample: warmup: the posterior has no curvature along %s at any point the warmup measured — the log density is flat in that direction, so the posterior is improper: %s", b.String(), what)
}
