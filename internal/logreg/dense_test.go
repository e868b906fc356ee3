// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package logreg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

var (
	_ sgmcmc.BatchModel = (*DenseModel)(nil)
	_ sgmcmc.LogDensity = (*DenseModel)(nil)
)

func denseModel(t testing.TB, n, d int) *DenseModel {
	t.Helper()
	x, _, err := Simulate(n, d, 7)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewDenseModel(x, 100)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func randTheta(rng *rand.Rand, d int) []float64 {
	theta := make([]float64, d)
	for j := range theta {
		theta[j] = 0.3 * rng.NormFloat64()
	}
	return theta
}

// TestSimulate: the data of a smaller n are the first rows of a larger
// n's, the labels follow the true coefficients, and x_iᵀβ* has an sd near
// 1.5.
func TestSimulate(t *testing.T) {
	t.Parallel()
	big, beta, err := Simulate(3*SimChunk/2, 20, 3)
	if err != nil {
		t.Fatal(err)
	}
	small, beta2, _ := Simulate(1000, 20, 3)
	for j := range beta {
		if beta[j] != beta2[j] {
			t.Fatal("β* depends on n")
		}
	}
	for k, v := range small.X {
		if v != big.X[k] {
			t.Fatalf("value %d differs between n = 1000 and n = %d", k, big.Rows())
		}
	}
	var s2, agree float64
	for i := range big.Rows() {
		z := Dot(big.Row(i), beta)
		s2 += z * z
		if (z > 0) == (big.Y[i] == 1) {
			agree++
		}
	}
	sd := math.Sqrt(s2 / float64(big.Rows()))
	if sd < 1 || sd > 2 {
		t.Errorf("sd of x_iᵀβ* = %v, want about 1.5", sd)
	}
	if f := agree / float64(big.Rows()); f < 0.65 || f > 0.85 {
		t.Errorf("sign of x_iᵀβ* agrees with y in %.3f of rows, want 0.65 to 0.85", f)
	}
}

// TestDenseGradients: the per-datum and prior gradients against finite
// differences, the full-data gradient and Hessian against finite
// differences of the full-data log posterior and gradient, and the fast
// full-data log posterior against the sum of LogLik.
func TestDenseGradients(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	m := denseModel(t, 5000, 7)
	theta := randTheta(rng, m.Dim())
	c, err := sgmcmc.CheckModel(m, theta, []int{0, 1, 17, 4999})
	if err != nil {
		t.Fatal(err)
	}
	if c.RelErr > 1e-7 {
		t.Errorf("CheckModel: %v", c)
	}
	want := m.LogPrior(theta)
	var abs float64
	for i := range m.Len() {
		l := m.LogLik(theta, i)
		want += l
		abs -= l
	}
	if got := m.LogPosterior(theta); math.Abs(got-want) > 1e-13*abs {
		t.Errorf("LogPosterior %v, sum of LogLik %v", got, want)
	}
	g := make([]float64, m.Dim())
	m.LogPosteriorGrad(g, theta)
	num := fd.Gradient(nil, m.LogPosterior, theta, &fd.Settings{Formula: fd.Central})
	for j := range g {
		if math.Abs(g[j]-num[j]) > 1e-5*math.Max(1, math.Abs(num[j])) {
			t.Errorf("full gradient %d: %v, finite difference %v", j, g[j], num[j])
		}
	}
	h := mat.NewSymDense(m.Dim(), nil)
	m.Hessian(h, theta)
	jac := mat.NewDense(m.Dim(), m.Dim(), nil)
	fd.Jacobian(jac, func(y, x []float64) { m.LogPosteriorGrad(y, x) }, theta, &fd.JacobianSettings{Formula: fd.Central})
	for a := range m.Dim() {
		for b := range m.Dim() {
			if e := h.At(a, b) + jac.At(a, b); math.Abs(e) > 1e-5*math.Max(1, math.Abs(h.At(a, b))) {
				t.Errorf("Hessian (%d,%d): %v, finite difference %v", a, b, h.At(a, b), -jac.At(a, b))
			}
		}
	}
}

// TestDenseBatchMatchesRows: the batch gradient is the sum of the rows'
// gradients, and the full gradient the batch gradient of every row.
func TestDenseBatchMatchesRows(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 4))
	m := denseModel(t, 3000, 20)
	theta := randTheta(rng, m.Dim())
	for _, n := range []int{1, 7, batchPart, batchPart + 1, 500, 3000} {
		idx := randomBatch(rng, n, m.Len())
		a := make([]float64, m.Dim())
		b := make([]float64, m.Dim())
		for j := range a {
			a[j], b[j] = float64(j), float64(j)
		}
		m.LogLikGradBatch(a, theta, idx, 3.5)
		for _, i := range idx {
			m.LogLikGrad(b, theta, i, 3.5)
		}
		for j := range a {
			if math.Abs(a[j]-b[j]) > 1e-12*math.Max(1, math.Abs(b[j]))*float64(n) {
				t.Errorf("n=%d coordinate %d: batch %v, rows %v", n, j, a[j], b[j])
			}
		}
	}
	all := make([]int, m.Len())
	for i := range all {
		all[i] = i
	}
	a := make([]float64, m.Dim())
	m.LogPriorGrad(a, theta)
	m.LogLikGradBatch(a, theta, all, 1)
	b := make([]float64, m.Dim())
	m.LogPosteriorGrad(b, theta)
	for j := range a {
		if math.Abs(a[j]-b[j]) > 1e-10*math.Max(1, math.Abs(b[j])) {
			t.Errorf("coordinate %d: full gradient %v, batch of all rows %v", j, b[j], a[j])
		}
	}
}

// TestDenseAnyGOMAXPROCS: batch and full-data results are the same bits
// for any number of cores and for concurrent calls.
func TestDenseAnyGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(5, 5))
	m := denseModel(t, 3*fullPart+5, 20)
	theta := randTheta(rng, m.Dim())
	batches := make([][]int, 6)
	for k := range batches {
		batches[k] = randomBatch(rng, 300+97*k, m.Len())
	}
	var want [][]float64
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		got := make([][]float64, len(batches)+2)
		var wg sync.WaitGroup
		for k, idx := range batches {
			got[k] = make([]float64, m.Dim())
			wg.Go(func() { m.LogLikGradBatch(got[k], theta, idx, 65.1) })
		}
		got[len(batches)] = make([]float64, m.Dim())
		wg.Go(func() { m.LogPosteriorGrad(got[len(batches)], theta) })
		wg.Go(func() { got[len(batches)+1] = []float64{m.LogPosterior(theta)} })
		wg.Wait()
		if want == nil {
			want = got
			continue
		}
		for k := range got {
			for j, v := range got[k] {
				if math.Float64bits(v) != math.Float64bits(want[k][j]) {
					t.Fatalf("GOMAXPROCS=%d result %d coordinate %d: %v, with one core %v", procs, k, j, v, want[k][j])
				}
			}
		}
	}
}

func TestDenseAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	m := denseModel(t, 5000, 20)
	theta := make([]float64, m.Dim())
	dst := make([]float64, m.Dim())
	idx := randomBatch(rand.New(rand.NewPCG(1, 1)), 500, m.Len())
	for name, f := range map[string]func(){
		"LogLikGradBatch":  func() { m.LogLikGradBatch(dst, theta, idx, 1) },
		"LogLikGrad":       func() { m.LogLikGrad(dst, theta, 3, 1) },
		"LogPosterior":     func() { m.LogPosterior(theta) },
		"LogPosteriorGrad": func() { m.LogPosteriorGrad(dst, theta) },
	} {
		f()
		if a := testing.AllocsPerRun(50, f); a != 0 {
			t.Errorf("%s: %v allocations per call", name, a)
		}
	}
}

func BenchmarkDenseLogPosterior(b *testing.B) {
	m := denseModel(b, 100000, 20)
	theta := make([]float64, m.Dim())
	b.ReportAllocs()
	for b.Loop() {
		m.LogPosterior(theta)
	}
}

func BenchmarkDenseBatch(b *testing.B) {
	m := denseModel(b, 100000, 20)
	theta := make([]float64, m.Dim())
	dst := make([]float64, m.Dim())
	idx := randomBatch(rand.New(rand.NewPCG(1, 1)), 1000, m.Len())
	b.ReportAllocs()
	for b.Loop() {
		m.LogLikGradBatch(dst, theta, idx, 1)
	}
}
