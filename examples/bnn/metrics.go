// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import "math"

// eceBins is the number of equal-width confidence bins of the expected
// calibration error (Guo et al. 2017).
const eceBins = 15

// scores are a predictive's metrics on the test digits.
type scores struct {
	accuracy, loglik, ece float64
	// conf and acc are each bin's mean confidence and accuracy, count its
	// digits, for the reliability diagram.
	conf, acc []float64
	count     []int
}

// score returns the metrics of predictive probabilities p (n×10) against
// labels y: accuracy of the most probable class, mean log probability of
// the true class (floored at 1e−300 so a certain mistake is finite), and
// the expected calibration error over eceBins equal-width bins of the
// top probability: Σ_b (n_b/n)·|acc_b − conf_b|.
func score(p []float64, y []int) scores {
	n := len(y)
	s := scores{conf: make([]float64, eceBins), acc: make([]float64, eceBins), count: make([]int, eceBins)}
	for i, yi := range y {
		row := p[i*nOut : (i+1)*nOut]
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		hit := 0.0
		if best == yi {
			hit = 1
		}
		s.accuracy += hit
		s.loglik += math.Log(math.Max(row[yi], 1e-300))
		b := min(eceBins-1, int(row[best]*eceBins))
		s.conf[b] += row[best]
		s.acc[b] += hit
		s.count[b]++
	}
	for b, c := range s.count {
		if c > 0 {
			s.ece += math.Abs(s.acc[b]-s.conf[b]) / float64(n)
			s.conf[b] /= float64(c)
			s.acc[b] /= float64(c)
		}
	}
	s.accuracy /= float64(n)
	s.loglik /= float64(n)
	return s
}
