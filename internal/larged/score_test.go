// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package larged

import (
	"math"
	"testing"
)

// TestScore: z-scores fold in both MCSEs, the share above 3 and the sd
// errors' percentiles are counted over the coordinates, and a NaN counts
// as infinitely wrong.
func TestScore(t *testing.T) {
	const d = 200
	mean, sd, mcse := make([]float64, d), make([]float64, d), make([]float64, d)
	rm, rs, rmcse := make([]float64, d), make([]float64, d), make([]float64, d)
	for j := range d {
		rs[j], sd[j] = 2, 2*(1+float64(j)/1000) // errors 0, 0.1 %, …, 19.9 %
		mcse[j], rmcse[j] = 0.3, 0.4            // √(0.09 + 0.16) = 0.5
	}
	mean[7], mean[8] = 2, -1.6 // z = 4 and 3.2
	s := Score(mean, sd, mcse, rm, rs, rmcse)
	if math.Abs(s.MaxAbsZ-4) > 1e-12 || s.FracZ3 != 2.0/d || math.Abs(s.MaxMCSESD-0.15) > 1e-12 {
		t.Errorf("max z %v, share over 3 %v, max MCSE %v sd", s.MaxAbsZ, s.FracZ3, s.MaxMCSESD)
	}
	if math.Abs(s.MedianSDErr-0.1) > 1e-9 || math.Abs(s.P99SDErr-0.197) > 1e-9 {
		t.Errorf("median sd error %v, 99th percentile %v", s.MedianSDErr, s.P99SDErr)
	}
	mean[3] = math.NaN()
	if s := Score(mean, sd, mcse, rm, rs, nil); !math.IsInf(s.MaxAbsZ, 1) {
		t.Errorf("a NaN mean gives max z %v", s.MaxAbsZ)
	}
}
