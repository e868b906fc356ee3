// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package larged

import (
	"math"
	"slices"
)

// Scores judge a run's means and sds of d coordinates against the truth,
// as issue 24 judges its d = 10⁴ rows, since with thousands of parameters
// a fixed tolerance in sds fails correct runs by noise: z_j = |mean_j −
// truth_j| / √(MCSE_j² + MCSE_ref,j²).
type Scores struct {
	MaxAbsZ     float64 // the largest z_j
	FracZ3      float64 // the share of z_j above 3
	MaxMCSESD   float64 // the largest MCSE_j in truth's sds
	MedianSDErr float64 // the median of |sd_j/truth_j − 1|
	P99SDErr    float64 // its 99th percentile
}

// Score returns the Scores of the means, sds and MCSEs of the means of a
// run against the truth's means and sds and their MCSEs (refMCSE nil for
// an exact truth).
func Score(mean, sd, mcse, refMean, refSD, refMCSE []float64) Scores {
	var s Scores
	d := len(refMean)
	var over3 int
	errs := make([]float64, d)
	for i := range d {
		se2 := mcse[i] * mcse[i]
		if refMCSE != nil {
			se2 += refMCSE[i] * refMCSE[i]
		}
		z := math.Abs(mean[i]-refMean[i]) / math.Sqrt(se2)
		if math.IsNaN(z) {
			z = math.Inf(1)
		}
		s.MaxAbsZ = math.Max(s.MaxAbsZ, z)
		if z > 3 {
			over3++
		}
		s.MaxMCSESD = math.Max(s.MaxMCSESD, mcse[i]/refSD[i])
		errs[i] = math.Abs(sd[i]/refSD[i] - 1)
		if math.IsNaN(errs[i]) {
			errs[i] = math.Inf(1)
		}
	}
	s.FracZ3 = float64(over3) / float64(d)
	slices.Sort(errs)
	s.MedianSDErr = errs[d/2]
	s.P99SDErr = errs[min(d-1, int(math.Ceil(0.99*float64(d)))-1)]
	return s
}
