// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// blockedSamplers are the samplers whose steps run in blocks, each built
// at dimension d from src.
func blockedSamplers() []struct {
	name  string
	shape bool
	build func(d int, src rand.Source) (markedSampler, error)
} {
	g := GradFunc(testGrad)
	th := func(d int) []float64 {
		x := make([]float64, d)
		for i := range x {
			x[i] = 0.5 + 0.2*math.Sin(float64(i))
		}
		return x
	}
	return []struct {
		name  string
		shape bool
		build func(d int, src rand.Source) (markedSampler, error)
	}{
		{"SGLD", false, func(d int, src rand.Source) (markedSampler, error) { return NewSGLD(g, th(d), src, nil) }},
		{"SGHMC", false, func(d int, src rand.Source) (markedSampler, error) {
			return NewSGHMC(g, th(d), src, &SGHMCSettings{ResampleEvery: 4})
		}},
		{"SGNHT", false, func(d int, src rand.Source) (markedSampler, error) { return NewSGNHT(g, th(d), src, nil) }},
		{"SGRLD", false, func(d int, src rand.Source) (markedSampler, error) {
			return NewSGRLD(g, th(d), DiagMetricFunc(testMetric), src, nil)
		}},
		{"SGRHMC", false, func(d int, src rand.Source) (markedSampler, error) {
			return NewSGRHMC(g, th(d), DiagMetricFunc(testMetric), src, nil)
		}},
		{"PSGLD", false, func(d int, src rand.Source) (markedSampler, error) {
			return NewPSGLD(g, th(d), src, &PSGLDSettings{DropGamma: true})
		}},
		{"SCIR", true, func(d int, src rand.Source) (markedSampler, error) { return NewSCIR(nil, th(d), src, nil) }},
	}
}

// TestBlocksAnyGOMAXPROCS: steps split into blocks give the same bits for
// any number of cores, since each block has its own generator and the
// blocks' sums are added in block order.
func TestBlocksAnyGOMAXPROCS(t *testing.T) {
	defer setBlocks(300, 128)()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const d = 1000 // 8 blocks, the last one short
	shape := make([]float64, d)
	for i := range shape {
		shape[i] = 0.3 + float64(i%5)
	}
	for _, c := range blockedSamplers() {
		var want []byte
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			s, err := c.build(d, rand.NewPCG(1, 2))
			if err != nil {
				t.Fatal(c.name, err)
			}
			for k := range 30 {
				var err error
				if c.shape {
					err = s.(*SCIR).StepShape(0.05, shape)
				} else {
					err = s.Step(0.02)
				}
				if err != nil {
					t.Fatalf("%s GOMAXPROCS=%d step %d: %v", c.name, procs, k+1, err)
				}
			}
			got, err := s.MarshalBinary()
			if err != nil {
				t.Fatal(c.name, err)
			}
			if want == nil {
				want = got
			} else if string(got) != string(want) {
				t.Errorf("%s: GOMAXPROCS=%d gives another chain than GOMAXPROCS=1", c.name, procs)
			}
		}
	}
}

// TestBlocksSampleTheTarget: SGLD and SGHMC in blocks sample N(0, I) with
// the variance their discretisation predicts, and coordinates in different
// blocks (drawn from different generators) are uncorrelated.
func TestBlocksSampleTheTarget(t *testing.T) {
	defer setBlocks(256, 100)()
	const d, eps = 1000, 0.05
	steps := 4000
	if testing.Short() {
		steps = 1500
	}
	g := GradFunc(func(dst, th []float64) { copy(dst, th) })
	for _, c := range []struct {
		name string
		want float64 // stationary variance of θ for this ε
		make func() (Sampler, error)
	}{
		// SGLD: θ' = (1−ε)θ + √(2ε)ξ has variance 2/(2 − ε).
		{"SGLD", 2 / (2 - eps), func() (Sampler, error) { return NewSGLD(g, make([]float64, d), rand.NewPCG(3, 3), nil) }},
		// SGHMC (r first, then θ with the new r), C = 1: the stationary
		// variance of θ of this linear recursion, from its covariance.
		{"SGHMC", sghmcStationaryVar(eps, 1), func() (Sampler, error) {
			return NewSGHMC(g, make([]float64, d), rand.NewPCG(3, 4), nil)
		}},
	} {
		s, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		for range 400 { // burn-in: 20 relaxation times
			if err := s.Step(eps); err != nil {
				t.Fatal(err)
			}
		}
		var sq, cross float64
		for range steps {
			if err := s.Step(eps); err != nil {
				t.Fatal(err)
			}
			x := s.Position()
			for i, v := range x {
				sq += v * v
				if i+100 < d {
					cross += v * x[i+100] // the same offset in the next block
				}
			}
		}
		n := float64(steps)
		v := sq / (n * d)
		rho := cross / (n * (d - 100)) / v
		// Effective draws: d coordinates × steps/τ with τ ≈ 2/ε for θ².
		ne := d * n * eps / 2
		if se := c.want * math.Sqrt(2/ne); math.Abs(v-c.want) > 5*se {
			t.Errorf("%s: E θ² = %.4f, want %.4f ± %.4f", c.name, v, c.want, 5*se)
		}
		if se := math.Sqrt(1 / ne); math.Abs(rho) > 5*se {
			t.Errorf("%s: correlation across blocks %.4f, want 0 ± %.4f", c.name, rho, 5*se)
		}
	}
}

// sghmcStationaryVar returns the stationary variance of θ for the SGHMC
// sweep r' = r − ε(θ + Cr) + √(2εC)ξ, θ' = θ + εr' on U = θ²/2, by
// iterating the covariance of (θ, r) to its fixed point.
func sghmcStationaryVar(eps, c float64) float64 {
	// (θ', r') = A(θ, r) + b ξ with r' = (1−εC)r − εθ + sξ and
	// θ' = θ + εr' = (1 − ε²)θ + ε(1−εC)r + εsξ.
	s := math.Sqrt(2 * eps * c)
	a := [2][2]float64{{1 - eps*eps, eps * (1 - eps*c)}, {-eps, 1 - eps*c}}
	b := [2]float64{eps * s, s}
	var p [2][2]float64
	for range 200000 {
		var q [2][2]float64
		for i := range 2 {
			for j := range 2 {
				v := b[i] * b[j]
				for k := range 2 {
					for l := range 2 {
						v += a[i][k] * p[k][l] * a[j][l]
					}
				}
				q[i][j] = v
			}
		}
		if math.Abs(q[0][0]-p[0][0]) < 1e-15 {
			return q[0][0]
		}
		p = q
	}
	return p[0][0]
}
