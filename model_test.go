// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// testModel: θ ∈ R², prior N(0, I), x_i ~ N(θ, I) with x_i = (i, −i/2),
// i = 0 … 9.
type testModel struct{}

func (testModel) Dim() int { return 2 }
func (testModel) Len() int { return 10 }
func (testModel) LogPriorGrad(dst, th []float64) {
	dst[0] -= th[0]
	dst[1] -= th[1]
}
func (testModel) LogLikGrad(dst, th []float64, i int, scale float64) {
	dst[0] += scale * (float64(i) - th[0])
	dst[1] += scale * (-float64(i)/2 - th[1])
}
func (testModel) LogPrior(th []float64) float64 { return -(th[0]*th[0] + th[1]*th[1]) / 2 }
func (testModel) LogLik(th []float64, i int) float64 {
	a, b := float64(i)-th[0], -float64(i)/2-th[1]
	return -(a*a + b*b) / 2
}

// TestMinibatchUnbiased: the average of many minibatch gradients is the
// full gradient, with and without replacement; batches without replacement
// hold distinct items; the N/n scaling is applied.
func TestMinibatchUnbiased(t *testing.T) {
	t.Parallel()
	th := []float64{0.3, -0.7}
	full := make([]float64, 2)
	FullGradient(testModel{}).Grad(full, th)
	// ∇U = θ − Σ(x_i − θ) + ... : closed form check of FullGradient.
	want0 := th[0] - (45 - 10*th[0])
	if math.Abs(full[0]-want0) > 1e-12 {
		t.Fatalf("FullGradient = %v, want %v", full[0], want0)
	}
	for _, replace := range []bool{false, true} {
		mb, err := NewMinibatch(testModel{}, 3, replace, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		const n = 200000
		g := make([]float64, 2)
		var sum, sumsq [2]float64
		for range n {
			mb.Grad(g, th)
			if !replace {
				idx := slices.Clone(mb.Indices())
				slices.Sort(idx)
				if len(slices.Compact(idx)) != 3 {
					t.Fatalf("batch without replacement repeats an item: %v", mb.Indices())
				}
			}
			for j := range 2 {
				sum[j] += g[j]
				sumsq[j] += g[j] * g[j]
			}
		}
		for j := range 2 {
			m := sum[j] / n
			se := math.Sqrt((sumsq[j]/n - m*m) / n)
			if math.Abs(m-full[j]) > 4*se {
				t.Errorf("replace=%v: mean minibatch gradient[%d] = %.4f ± %.4f, full %.4f", replace, j, m, se, full[j])
			}
		}
	}
}

// TestMinibatchNoiseEstimate: the SGFS estimate V̂ = (N²/n)·var_i(g_i)
// averages to the true variance of the minibatch gradient when sampling
// with replacement.
func TestMinibatchNoiseEstimate(t *testing.T) {
	t.Parallel()
	th := []float64{0.3, -0.7}
	mb, _ := NewMinibatch(testModel{}, 4, true, rand.NewPCG(3, 4))
	mb.Noise = true
	const n = 200000
	g, v := make([]float64, 2), make([]float64, 2)
	var sum, sumsq, vsum [2]float64
	for range n {
		mb.Grad(g, th)
		mb.NoiseVar(v)
		for j := range 2 {
			sum[j] += g[j]
			sumsq[j] += g[j] * g[j]
			vsum[j] += v[j]
		}
	}
	for j := range 2 {
		m := sum[j] / n
		emp := sumsq[j]/n - m*m
		// With replacement, var(ĝ) = (N²/n)·σ²_pop and E[V̂] = (N²/n)·σ²_pop too.
		if rel := math.Abs(vsum[j]/n-emp) / emp; rel > 0.02 {
			t.Errorf("coordinate %d: mean V̂ %.4f, empirical variance %.4f", j, vsum[j]/n, emp)
		}
	}
}

func TestCheckModelAndGradient(t *testing.T) {
	t.Parallel()
	c, err := CheckModel(testModel{}, []float64{0.4, 1.2}, []int{0, 3, 9})
	if err != nil {
		t.Fatal(err)
	}
	if c.RelErr > 1e-8 {
		t.Errorf("correct model: %v", c)
	}
	wrong := CheckGradient(func(x []float64) float64 { return x[0]*x[0] + 3*x[1] },
		func(dst, x []float64) { dst[0], dst[1] = 2*x[0], 2.5 }, []float64{1, 2})
	if wrong.Index != 1 || math.Abs(wrong.AbsErr-0.5) > 1e-6 || !strings.Contains(wrong.String(), "worst coordinate 1") {
		t.Errorf("wrong gradient: %v", wrong)
	}
	if _, err := CheckModel(testModel{}, []float64{1}, nil); err == nil {
		t.Error("dimension mismatch: no error")
	}
	u, err := Potential(testModel{}, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	var want float64
	for i := range 10 {
		want += (float64(i)*float64(i) + float64(i)*float64(i)/4) / 2
	}
	if math.Abs(u-want) > 1e-12 {
		t.Errorf("Potential = %v, want %v", u, want)
	}
}

// batchTestModel adds the BatchModel capability to testModel.
type batchTestModel struct {
	testModel
	calls *int
}

func (m batchTestModel) LogLikGradBatch(dst, th []float64, idx []int, scale float64) {
	*m.calls++
	for _, i := range idx {
		m.LogLikGrad(dst, th, i, scale)
	}
}

// TestMinibatchUsesBatchModel: a BatchModel's batch gradient is used and
// gives the same stochastic gradient as the per-datum path.
func TestMinibatchUsesBatchModel(t *testing.T) {
	t.Parallel()
	calls := 0
	a, _ := NewMinibatch(testModel{}, 4, false, rand.NewPCG(5, 5))
	b, _ := NewMinibatch(batchTestModel{calls: &calls}, 4, false, rand.NewPCG(5, 5))
	ga, gb := make([]float64, 2), make([]float64, 2)
	th := []float64{0.2, 0.1}
	for range 10 {
		a.Grad(ga, th)
		b.Grad(gb, th)
		if ga[0] != gb[0] || ga[1] != gb[1] {
			t.Fatalf("batch path %v, per-datum path %v", gb, ga)
		}
	}
	if calls != 10 {
		t.Errorf("LogLikGradBatch called %d times, want 10", calls)
	}
}
