// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSignedRowsMatchModel checks SignedRows' likelihood, its gradient and
// its control-variate difference against Model on the same data as CSR,
// and the simulated rows' shape: k distinct features a row, signs ±1.
func TestSignedRowsMatchModel(t *testing.T) {
	const n, d, k = 300, 40, 6
	beta := SimulateSignedBeta(d, k, 7)
	rows := make([]float64, n*(k+1))
	if err := SimulateSignedChunk(rows, beta, k, 0, 7); err != nil {
		t.Fatal(err)
	}
	rows[3*(k+1)+k-1] = 0 // a padded row
	x, err := SignedData(rows, d, k)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		seen := map[int32]bool{}
		for _, j := range x.Idx[x.Ptr[i]:x.Ptr[i+1]] {
			if seen[j] {
				t.Fatalf("row %d repeats feature %d", i, j)
			}
			seen[j] = true
		}
	}
	m, err := NewModel(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	sr := SignedRows{D: d, K: k, Prec: 1}
	r := rand.New(rand.NewPCG(1, 2))
	theta, theta0 := make([]float64, d), make([]float64, d)
	for j := range theta {
		theta[j], theta0[j] = r.NormFloat64(), r.NormFloat64()
	}
	want, got := make([]float64, d), make([]float64, d)
	for i := range n {
		m.LogLikGrad(want, theta, i, 0.5)
		m.LogLikGrad(want, theta0, i, -0.5)
	}
	sr.LogLikGradRows(got, theta, rows, 0.5)
	sr.LogLikGradRows(got, theta0, rows, -0.5)
	diff := make([]float64, d)
	sr.LogLikGradDiffRows(diff, theta, theta0, rows, 0.5)
	for j := range want {
		if math.Abs(got[j]-want[j]) > 1e-12 || math.Abs(diff[j]-want[j]) > 1e-12 {
			t.Fatalf("gradient %d: rows %v, difference %v, Model %v", j, got[j], diff[j], want[j])
		}
	}
	var ll float64
	for i := range n {
		ll += m.LogLik(theta, i)
	}
	if v := sr.LogLikRows(theta, rows); math.Abs(v-ll) > 1e-9 {
		t.Fatalf("log likelihood %v, Model %v", v, ll)
	}
	if err := SimulateSignedChunk(rows[:5], beta, k, 0, 7); err == nil {
		t.Fatal("a partial row was accepted")
	}
	rows[0] = 1.5
	if _, err := SignedData(rows, d, k); err == nil {
		t.Fatal("a code 1.5 was accepted")
	}
}

// BenchmarkSignedRows times the gradient of 4,096 rows of 20 codes over
// 10⁴ features, and the control variate's correction on them.
func BenchmarkSignedRows(b *testing.B) {
	const n, d, k = 4096, 10000, 20
	beta := SimulateSignedBeta(d, k, 1)
	rows := make([]float64, n*(k+1))
	if err := SimulateSignedChunk(rows, beta, k, 0, 1); err != nil {
		b.Fatal(err)
	}
	sr := SignedRows{D: d, K: k, Prec: 1}
	dst, theta0 := make([]float64, d), make([]float64, d)
	b.Run("grad", func(b *testing.B) {
		for b.Loop() {
			sr.LogLikGradRows(dst, beta, rows, 1)
		}
	})
	b.Run("diff", func(b *testing.B) {
		for b.Loop() {
			sr.LogLikGradDiffRows(dst, beta, theta0, rows, 1)
		}
	})
}
