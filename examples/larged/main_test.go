// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import "testing"

// TestGaussianRow: the example's smallest Gaussian row (d = 300, above
// DenseMax) meets the goal without warnings.
func TestGaussianRow(t *testing.T) {
	r, err := runRow(job{"gaussian", 300}, 1, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	if r.MaxAbsZ > 7 || r.FracZ3 > 0.01+3*0.003 || r.MaxMCSESD > 0.05 || r.MedianSDErr > 0.03 || r.P99SDErr > 0.1 || len(r.Warnings) > 0 {
		t.Errorf("row %+v misses the goal", r)
	}
	if r.LowRank != 10 {
		t.Errorf("low rank %d, want the planted 10", r.LowRank)
	}
}
