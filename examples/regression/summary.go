// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Summary holds per-coordinate posterior summaries of a set of draws.
type Summary struct {
	Mean, SD, Median, Lo, Hi []float64 // Lo, Hi: the 2.5 % and 97.5 % quantiles
}

// Summarize summarises n draws of dimension d stored row-major.
func Summarize(draws []float64, d int) Summary {
	n := len(draws) / d
	s := Summary{Mean: make([]float64, d), SD: make([]float64, d), Median: make([]float64, d), Lo: make([]float64, d), Hi: make([]float64, d)}
	col := make([]float64, n)
	for j := range d {
		for i := range n {
			col[i] = draws[i*d+j]
		}
		s.Mean[j], s.SD[j] = stat.MeanStdDev(col, nil)
		slices.Sort(col)
		s.Median[j] = stat.Quantile(0.5, stat.LinInterp, col, nil)
		s.Lo[j] = stat.Quantile(0.025, stat.LinInterp, col, nil)
		s.Hi[j] = stat.Quantile(0.975, stat.LinInterp, col, nil)
	}
	return s
}

// Errors compares a summary with a reference over the first p coordinates:
// the largest |mean − ref mean|/ref sd, the largest |sd/ref sd − 1| and the
// largest |median − ref median|/ref sd, each returned with its sign.
func (s Summary) Errors(mean, sd, median []float64, p int) (meanErr, sdErr, medErr float64) {
	for j := range p {
		meanErr = signedMax(meanErr, (s.Mean[j]-mean[j])/sd[j])
		sdErr = signedMax(sdErr, s.SD[j]/sd[j]-1)
		if median != nil {
			medErr = signedMax(medErr, (s.Median[j]-median[j])/sd[j])
		}
	}
	return meanErr, sdErr, medErr
}

// signedMax returns whichever of a and b is larger in magnitude.
func signedMax(a, b float64) float64 {
	if math.Abs(b) > math.Abs(a) {
		return b
	}
	return a
}
