// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
	"gonum.org/v1/gonum/mat"
)

// Chain holds the draws of a run in one preallocated row-major block.
type Chain struct {
	// Dim is the dimension of each draw.
	Dim int
	// Draws holds draw i in Draws[i*Dim : (i+1)*Dim].
	Draws []float64
	// Eps holds the step size of the step that produced each draw, for
	// step-weighted averages (Eq. 12 of Şimşekli et al. 2016).
	Eps []float64
	// Steps is the number of steps taken, burn-in included.
	Steps int
	// Divergent records, for each draw, whether a divergent transition
	// (see DivergenceCounter) was detected since the previous draw. It is
	// nil for samplers that do not detect divergences.
	Divergent []bool
	// Divergences is the number of divergent transitions detected during
	// the run, burn-in included.
	Divergences int
	// LogDensity holds, for each draw, RunOptions.LogDensity at that draw's
	// θ; nil when none was given.
	LogDensity []float64
	// Coords, if not nil, lists the coordinates of θ the draws hold
	// (RunOptions.Coords): Draws[i*Dim+k] is coordinate Coords[k] of draw
	// i, and Dim is len(Coords). Nil means every coordinate, in order.
	Coords []int
	// Moments holds the running moments of every coordinate of θ over the
	// kept draws if RunOptions.Moments was set, and is nil otherwise.
	Moments *Moments
}

// maxChainFloats bounds the storage Run allocates for draws (2³⁴ floats,
// 128 GiB), so that an absurd Draws is an error, not a failed allocation.
const maxChainFloats = valid.MaxChainFloats

// Len returns the number of draws.
func (c *Chain) Len() int { return len(c.Eps) }

// valid reports whether the fields agree: Dim > 0 and Draws holds Len
// draws.
func (c *Chain) valid() bool {
	return c.Dim > 0 && len(c.Draws)/c.Dim >= c.Len()
}

// At returns draw i as a slice of c.Draws. It returns nil if i is not in
// [0, Len()) or the Chain's fields disagree (Draws shorter than Len·Dim).
func (c *Chain) At(i int) []float64 {
	if i < 0 || i >= c.Len() || !c.valid() {
		return nil
	}
	return c.Draws[i*c.Dim : (i+1)*c.Dim]
}

// Column copies coordinate j of every draw into dst and returns it, resliced
// to length Len(). dst is reused if its capacity suffices and allocated
// otherwise (pass nil to allocate). Column returns nil, and leaves dst
// alone, if j is not in [0, Dim) or the Chain's fields disagree.
func (c *Chain) Column(dst []float64, j int) []float64 {
	if j < 0 || j >= c.Dim || !c.valid() {
		return nil
	}
	n := c.Len()
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	for i := range n {
		dst[i] = c.Draws[i*c.Dim+j]
	}
	return dst
}

// Matrix returns the draws as an n×Dim matrix sharing c.Draws, or nil if
// there are none or the Chain's fields disagree.
func (c *Chain) Matrix() *mat.Dense {
	if c.Len() == 0 || !c.valid() {
		return nil
	}
	return mat.NewDense(c.Len(), c.Dim, c.Draws[:c.Len()*c.Dim])
}

// Mean writes the plain average of the draws into dst. dst must have length
// Dim; otherwise, or if the Chain's fields disagree, Mean fills dst with
// NaN. With no draws it writes zeros.
func (c *Chain) Mean(dst []float64) {
	c.weightedMean(dst, false)
}

// WeightedMean writes the step-weighted average Σ ε_t θ_t / Σ ε_t into dst
// (Eq. 12 of Şimşekli et al. 2016), the consistent estimator of a posterior
// mean when the step size decreases. dst is as for Mean.
func (c *Chain) WeightedMean(dst []float64) {
	c.weightedMean(dst, true)
}

func (c *Chain) weightedMean(dst []float64, weighted bool) {
	if len(dst) != c.Dim || !c.valid() {
		fillNaN(dst)
		return
	}
	clear(dst)
	var sw float64
	for i := range c.Len() {
		w := 1.0
		if weighted {
			w = c.Eps[i]
		}
		sw += w
		for j, v := range c.At(i) {
			dst[j] += w * v
		}
	}
	if sw == 0 {
		return
	}
	for j := range dst {
		dst[j] /= sw
	}
}

// keep stores the draw x of step size eps: its kept coordinates in Draws
// and, if asked for, its moments. (Eps is appended by Run.)
func (c *Chain) keep(x []float64, eps float64) {
	row := c.Draws[c.Len()*c.Dim : (c.Len()+1)*c.Dim]
	if c.Coords == nil {
		copy(row, x)
	} else {
		for k, j := range c.Coords {
			row[k] = x[j]
		}
	}
	if c.Moments != nil {
		c.Moments.add(x, eps)
	}
}
