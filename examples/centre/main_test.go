// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import "testing"

// TestStudentT guards the example's claim on a reduced run (N = 2·10⁵, one
// seed): every chain's centre within 0.1 posterior sd of the exact mode,
// the pooled sds within 10 % of the Laplace reference, no warning.
func TestStudentT(t *testing.T) {
	if testing.Short() {
		t.Skip("2·10⁵ rows and a Laplace reference: skipped with -short")
	}
	tg, err := build("studentt", 200_000)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := run(tg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if !(r.CentreSD >= 0 && r.CentreSD <= 0.1) {
			t.Errorf("chain %d: centre %.3g sd from the mode (step %.3g, %d passes)", r.Chain, r.CentreSD, r.CentreStep, r.Passes)
		}
	}
	if r := rows[0]; r.RunSDErr > 0.1 || len(r.Warnings) > 0 {
		t.Errorf("pooled sd error %.1f%%, warnings %v", 100*r.RunSDErr, r.Warnings)
	}
}
