// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "gonum.org/v1/gonum/mat"

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
}

// maxChainFloats bounds the storage Run allocates for draws (2³⁴ floats,
// 128 GiB), so that an absurd Draws is an error, not a failed allocation.
const maxChainFloats = 1 << 34

// Len returns the number of draws.
func (c *Chain) Len() int { return len(c.Eps) }

// At returns draw i as a slice of c.Draws.
func (c *Chain) At(i int) []float64 { return c.Draws[i*c.Dim : (i+1)*c.Dim] }

// Column copies coordinate j of every draw into dst, allocating it if dst is
// nil, and returns it.
func (c *Chain) Column(dst []float64, j int) []float64 {
	n := c.Len()
	if dst == nil {
		dst = make([]float64, n)
	}
	for i := range n {
		dst[i] = c.Draws[i*c.Dim+j]
	}
	return dst
}

// Matrix returns the draws as an n×Dim matrix sharing c.Draws.
func (c *Chain) Matrix() *mat.Dense {
	if c.Len() == 0 {
		return nil
	}
	return mat.NewDense(c.Len(), c.Dim, c.Draws[:c.Len()*c.Dim])
}

// Mean writes the plain average of the draws into dst (length Dim).
func (c *Chain) Mean(dst []float64) {
	c.weightedMean(dst, false)
}

// WeightedMean writes the step-weighted average Σ ε_t θ_t / Σ ε_t into dst
// (Eq. 12 of Şimşekli et al. 2016), the consistent estimator of a posterior
// mean when the step size decreases.
func (c *Chain) WeightedMean(dst []float64) {
	c.weightedMean(dst, true)
}

func (c *Chain) weightedMean(dst []float64, weighted bool) {
	for j := range dst {
		dst[j] = 0
	}
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
