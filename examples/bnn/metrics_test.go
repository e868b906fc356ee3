// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"testing"
)

// TestScore: accuracy, log-likelihood and the 15-bin ECE of four
// hand-made predictions. Top probabilities 0.95, 0.95 (bin 14, one right:
// |0.5 − 0.95| = 0.45), 0.5 (bin 7, right: 0.5) and 0.3 (bin 4, wrong:
// 0.3), so ECE = (2·0.45 + 0.5 + 0.3)/4 = 0.425.
func TestScore(t *testing.T) {
	p := make([]float64, 4*nOut)
	set := func(i, top int, q float64) {
		row := p[i*nOut : (i+1)*nOut]
		for k := range row {
			row[k] = (1 - q) / (nOut - 1)
		}
		row[top] = q
	}
	set(0, 3, 0.95)
	set(1, 3, 0.95)
	set(2, 7, 0.5)
	set(3, 1, 0.3)
	y := []int{3, 0, 7, 2}
	s := score(p, y)
	if s.accuracy != 0.5 {
		t.Errorf("accuracy %g, want 0.5", s.accuracy)
	}
	ll := (math.Log(0.95) + math.Log(0.05/9) + math.Log(0.5) + math.Log(0.7/9)) / 4
	if math.Abs(s.loglik-ll) > 1e-12 {
		t.Errorf("loglik %g, want %g", s.loglik, ll)
	}
	if math.Abs(s.ece-0.425) > 1e-12 {
		t.Errorf("ECE %g, want 0.425", s.ece)
	}
	if s.count[14] != 2 || s.count[7] != 1 || s.count[4] != 1 {
		t.Errorf("bin counts %v", s.count)
	}
}
