// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// Grid is Bins equal bins over [Min, Max], for the histogram estimates of KL
// and KL2D.
type Grid struct {
	Min, Max float64
	Bins     int
}

// maxBins bounds Grid.Bins (and the cells of a KL2D grid).
const maxBins = 1 << 24

func (g Grid) check(fn, name string) error {
	if !(g.Min < g.Max) || math.IsInf(g.Max-g.Min, 0) || g.Bins < 1 || g.Bins > maxBins {
		return inputErr(fn, fmt.Sprintf("invalid %s %+v: want finite Min < Max with a finite width Max − Min, and 1 ≤ Bins ≤ %d", name, g, maxBins))
	}
	return nil
}

// bin returns the bin of v, or -1 if v is outside [Min, Max]; Max belongs to
// the last bin.
func (g Grid) bin(v float64) int {
	if v < g.Min || v > g.Max {
		return -1
	}
	i := int((v - g.Min) / (g.Max - g.Min) * float64(g.Bins))
	return min(i, g.Bins-1)
}

// klNodes is the number of Gauss–Legendre nodes per bin in KL and per cell
// side in KL2D.
const klNodes = 8

// legendre returns the Gauss–Legendre nodes and weights of klNodes points on
// [0, 1].
func legendre() (x, w []float64) {
	x, w = make([]float64, klNodes), make([]float64, klNodes)
	quad.Legendre{}.FixedLocations(x, w, 0, 1)
	return x, w
}

// KL estimates the Kullback–Leibler divergence KL(P̂ ‖ Q) = Σ_i p̂_i log(p̂_i/q_i)
// of the distribution of the draws x from a known 1-D density, on the bins
// of g:
//
//   - p̂_i is the fraction of the draws inside [g.Min, g.Max] that fall in bin
//     i; draws outside the grid are ignored.
//   - q_i is the integral of density over bin i by 8-point Gauss–Legendre
//     quadrature, normalised numerically so that Σ q_i = 1 over the grid.
//     The density therefore need not be normalised, and the grid should
//     cover all but a negligible part of its mass.
//
// Bins with p̂_i = 0 contribute nothing; a bin with p̂_i > 0 and q_i = 0 makes
// the result +Inf. For N independent draws from the density, 2N·KL is
// asymptotically χ² with (bins − 1) degrees of freedom, so the estimate has a
// positive bias of about (bins − 1)/(2N): compare divergences at equal N and
// bins.
//
// x must be non-empty and finite with at least one draw inside the grid, and
// density must be non-negative and finite on the grid.
func KL(x []float64, density func(float64) float64, g Grid) (float64, error) {
	const fn = "KL"
	if err := checkSample(fn, x, 1); err != nil {
		return math.NaN(), err
	}
	if err := g.check(fn, "grid"); err != nil {
		return math.NaN(), err
	}
	if density == nil {
		return math.NaN(), inputErr(fn, "nil density")
	}
	counts := make([]float64, g.Bins)
	var inside float64
	for _, v := range x {
		if i := g.bin(v); i >= 0 {
			counts[i]++
			inside++
		}
	}
	if inside == 0 {
		return math.NaN(), inputErr(fn, "no draws inside the grid")
	}
	q := make([]float64, g.Bins)
	w := (g.Max - g.Min) / float64(g.Bins)
	nodes, weights := legendre()
	var z float64
	for i := range q {
		a := g.Min + float64(i)*w
		var s float64
		for k, u := range nodes {
			t := a + u*w
			f := density(t)
			if !(f >= 0) || math.IsInf(f, 0) {
				return math.NaN(), &InputError{Func: fn, Chain: -1, Index: -1, Coord: -1, Value: f,
					What: fmt.Sprintf("density(%v) = %v, want non-negative and finite", t, f)}
			}
			s += weights[k] * f
		}
		q[i] = s * w
		z += q[i]
	}
	return klSum(fn, counts, inside, q, z)
}

// KL2D estimates KL(P̂ ‖ Q) for 2-D draws (x[i], y[i]) against a known 2-D
// density on the gx.Bins × gy.Bins cells of the product grid, as KL does in
// 1-D: p̂ is the histogram of the draws inside the grid, q the integral of
// density over each cell by the tensor product of 8-point Gauss–Legendre
// rules, normalised numerically over the grid. The positive
// bias is about (cells − 1)/(2N) for N independent draws. x and y must have
// equal, non-zero length and finite values.
func KL2D(x, y []float64, density func(x, y float64) float64, gx, gy Grid) (float64, error) {
	const fn = "KL2D"
	if len(x) != len(y) {
		return math.NaN(), inputErr(fn, fmt.Sprintf("%d x values and %d y values", len(x), len(y)))
	}
	if err := checkSample(fn, x, 1); err != nil {
		return math.NaN(), err
	}
	if err := checkSample(fn, y, 1); err != nil {
		err.(*InputError).Coord = 1
		return math.NaN(), err
	}
	if err := gx.check(fn, "x grid"); err != nil {
		return math.NaN(), err
	}
	if err := gy.check(fn, "y grid"); err != nil {
		return math.NaN(), err
	}
	if density == nil {
		return math.NaN(), inputErr(fn, "nil density")
	}
	nx, ny := gx.Bins, gy.Bins
	if nx > maxBins/ny {
		return math.NaN(), inputErr(fn, fmt.Sprintf("%d × %d cells, more than %d", nx, ny, maxBins))
	}
	counts := make([]float64, nx*ny)
	var inside float64
	for i, v := range x {
		bx, by := gx.bin(v), gy.bin(y[i])
		if bx >= 0 && by >= 0 {
			counts[bx*ny+by]++
			inside++
		}
	}
	if inside == 0 {
		return math.NaN(), inputErr(fn, "no draws inside the grid")
	}
	wx := (gx.Max - gx.Min) / float64(nx)
	wy := (gy.Max - gy.Min) / float64(ny)
	nodes, weights := legendre()
	q := make([]float64, nx*ny)
	var z float64
	for i := range nx {
		for j := range ny {
			var s float64
			for k, a := range nodes {
				u := gx.Min + (float64(i)+a)*wx
				for l, b := range nodes {
					v := gy.Min + (float64(j)+b)*wy
					f := density(u, v)
					if !(f >= 0) || math.IsInf(f, 0) {
						return math.NaN(), &InputError{Func: fn, Chain: -1, Index: -1, Coord: -1, Value: f,
							What: fmt.Sprintf("density(%v, %v) = %v, want non-negative and finite", u, v, f)}
					}
					s += weights[k] * weights[l] * f
				}
			}
			q[i*ny+j] = s * wx * wy
			z += q[i*ny+j]
		}
	}
	return klSum(fn, counts, inside, q, z)
}

func klSum(fn string, counts []float64, n float64, q []float64, z float64) (float64, error) {
	if !(z > 0) || math.IsInf(z, 0) {
		return math.NaN(), inputErr(fn, fmt.Sprintf("density integrates to %v over the grid", z))
	}
	var kl float64
	for i, c := range counts {
		if c == 0 {
			continue
		}
		p := c / n
		qi := q[i] / z
		if qi == 0 {
			return math.Inf(1), nil
		}
		kl += p * math.Log(p/qi)
	}
	return math.Max(kl, 0), nil
}
