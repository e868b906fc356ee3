// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/larged"
	"gonum.org/v1/gonum/mat"
)

// quadGrad is ∇U(z) = H z for a dense symmetric H.
func quadGrad(h *mat.SymDense) sgmcmc.Gradient {
	return sgmcmc.GradFunc(func(dst, z []float64) { mulSym(dst, h, z) })
}

// TestDiagProbe: the probes recover a diagonal Hessian exactly, and a
// Hessian with off-diagonal entries to their documented error
// √(Σ_{j≠i} H_ij²/m): at most 1 % of the coordinates beyond 3.5 standard
// errors (a normal tail gives 0.05 %), none beyond 6.
func TestDiagProbe(t *testing.T) {
	const d = 300
	r := rand.New(rand.NewPCG(1, 2))
	h := mat.NewSymDense(d, nil)
	for i := range d {
		h.SetSym(i, i, math.Pow(10, 4*r.Float64()-2))
	}
	z := make([]float64, d)
	got := diagProbe(quadGrad(h), z, diagProbes, r)
	for i := range d {
		if math.Abs(got[i]/h.At(i, i)-1) > 1e-8 {
			t.Fatalf("diagonal H: h[%d] = %v, want %v", i, got[i], h.At(i, i))
		}
	}
	// Unit diagonal plus off-diagonal entries of sd 0.03 (rows of norm
	// about 0.5), as a whitened Hessian near the posterior.
	for i := range d {
		h.SetSym(i, i, 1)
		for j := i + 1; j < d; j++ {
			h.SetSym(i, j, 0.03*r.NormFloat64())
		}
	}
	var beyond int
	for rep := range 4 {
		got = diagProbe(quadGrad(h), z, diagProbes, rand.New(rand.NewPCG(uint64(rep), 9)))
		for i := range d {
			var s float64
			for j := range d {
				if j != i {
					s += h.At(i, j) * h.At(i, j)
				}
			}
			se := math.Sqrt(s / diagProbes)
			e := math.Abs(got[i]-1) / se
			if e > 6 {
				t.Errorf("h[%d] = %v, want 1 ± %.3f", i, got[i], se)
			}
			if e > 3.5 {
				beyond++
			}
		}
	}
	if beyond > 4*d/100 {
		t.Errorf("%d of %d estimates beyond 3.5 standard errors", beyond, 4*d)
	}
}

// TestLanczosExtremes: the Lanczos process finds the extreme eigenvalues
// of a matrix with isolated ends.
func TestLanczosExtremes(t *testing.T) {
	const d = 2000
	r := rand.New(rand.NewPCG(3, 3))
	diag := make([]float64, d)
	for i := range diag {
		diag[i] = 1 + 0.2*r.Float64()
	}
	diag[7], diag[100], diag[1500] = 0.01, 0.1, 40
	mul := func(dst, v []float64) {
		for i, x := range v {
			dst[i] = diag[i] * x
		}
	}
	vals, resid, _ := lanczos(mul, d, lanczosSteps, r, false)
	if top := vals[len(vals)-1]; math.Abs(top-40) > 1e-8 {
		t.Errorf("top = %v, want 40", top)
	}
	if math.Abs(vals[0]-0.01) > 1e-6 || math.Abs(vals[1]-0.1) > 1e-6 {
		t.Errorf("bottom = %v, %v, want 0.01, 0.1 (residuals %v)", vals[0], vals[1], resid[:2])
	}
}

// largeRun is one Run on the test Gaussian above DenseMax, shared
// by the tests below.
var largeRun = sync.OnceValues(func() (*larged.Gaussian, *Result) {
	g, err := larged.NewGaussian(400, 100, 7)
	if err != nil {
		panic(err)
	}
	res, err := Run(context.Background(), Problem{Model: g}, make([]float64, 400), &Settings{Seed: 5}, nil)
	if err != nil {
		panic(err)
	}
	return g, res
})

// TestSampleLargeDirections: the low-rank factor Run chooses spans the
// planted rank-10 directions of the test Gaussian, as seen in the
// diagonal whitening: every principal angle between the two subspaces
// below 5°.
func TestSampleLargeDirections(t *testing.T) {
	g, res := largeRun()
	const d = 400
	for c, a := range res.Adapted {
		k := len(a.LowRankC)
		if k != larged.Rank {
			t.Errorf("chain %d: rank %d, want %d", c, k, larged.Rank)
			continue
		}
		// The planted directions in z: diag(σ)⁻¹ v_j, orthonormalised.
		p := mat.NewDense(d, larged.Rank, nil)
		for i := range d {
			for j := range larged.Rank {
				p.Set(i, j, g.V[i*larged.Rank+j]/a.Diag[i])
			}
		}
		var qr mat.QR
		qr.Factorize(p)
		var q mat.Dense
		qr.QTo(&q)
		qp := q.Slice(0, d, 0, larged.Rank)
		u := mat.NewDense(d, k, a.LowRankU)
		var m mat.Dense
		m.Mul(qp.T(), u)
		var svd mat.SVD
		if !svd.Factorize(&m, mat.SVDNone) {
			t.Fatal("SVD failed")
		}
		cos := svd.Values(nil)
		worst := math.Acos(math.Min(1, cos[len(cos)-1])) * 180 / math.Pi
		if worst > 5 {
			t.Errorf("chain %d: largest principal angle %.2f°, want below 5° (cosines %.4f)", c, worst, cos)
		}
		t.Logf("chain %d: largest principal angle %.2f°", c, worst)
	}
}

// TestSampleLargeGaussian: above DenseMax, Run's moments of every
// coordinate match the exact posterior N(x̄, Σ): |mean − x̄| within 5
// MCSEs everywhere (400 coordinates: a normal's maximum is about 3),
// the MCSE within 0.05 sd, and the sds within 3 % at the median and 10 %
// at the 99th percentile, without warnings.
func TestSampleLargeGaussian(t *testing.T) {
	g, res := largeRun()
	m := res.Moments
	if m == nil {
		t.Fatal("no Result.Moments above DenseMax")
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %q", res.Warnings)
	}
	mean, sd := g.Mean(), g.SD()
	var errs []float64
	for i := range mean {
		if z := math.Abs(m.Mean[i]-mean[i]) / m.MCSE[i]; z > 5 {
			t.Errorf("θ_%d: mean %.4g, want %.4g (z = %.1f)", i, m.Mean[i], mean[i], z)
		}
		if m.MCSE[i] > 0.05*sd[i] {
			t.Errorf("θ_%d: MCSE %.3g sd", i, m.MCSE[i]/sd[i])
		}
		errs = append(errs, math.Abs(m.SD[i]/sd[i]-1))
	}
	slices.Sort(errs)
	if med, p99 := errs[len(errs)/2], errs[len(errs)*99/100]; med > 0.03 || p99 > 0.1 {
		t.Errorf("sd errors: median %.3f, p99 %.3f, want ≤ 0.03, 0.1", med, p99)
	}
}

// TestSampleLargeRebuild: a chain with the low-rank factor is rebuilt
// bit for bit from Result.Adapted (Adapted.Affine, NewSampler, Run), and
// its sampler checkpoints: a copy restored halfway continues identically.
func TestSampleLargeRebuild(t *testing.T) {
	g, res := largeRun()
	a := res.Adapted[2]
	if a.LowRankC == nil {
		t.Fatal("no low-rank factor")
	}
	build := func() (sgmcmc.Sampler, *sgmcmc.Affine) {
		grad, err := a.NewGradient(g)
		if err != nil {
			t.Fatal(err)
		}
		aff, err := a.Affine(grad)
		if err != nil {
			t.Fatal(err)
		}
		s, err := a.NewSampler(aff)
		if err != nil {
			t.Fatal(err)
		}
		return s, aff
	}
	s, aff := build()
	zc, err := sgmcmc.Run(context.Background(), s, sgmcmc.RunOptions{Draws: 1000, Thin: a.Thin, BurnIn: a.BurnIn, Schedule: sgmcmc.Constant(a.Eps)})
	if err != nil {
		t.Fatal(err)
	}
	th := make([]float64, 400)
	ch := res.Chains[2]
	for i := range zc.Len() {
		aff.ToTheta(th, zc.At(i))
		if !slices.Equal(th, ch.At(i)) {
			t.Fatalf("draw %d: by hand and Sample differ", i)
		}
	}
	// Checkpoint halfway.
	s1, _ := build()
	s2, _ := build()
	for range 50 {
		if err := s1.Step(a.Eps); err != nil {
			t.Fatal(err)
		}
	}
	type bm interface {
		MarshalBinary() ([]byte, error)
		UnmarshalBinary([]byte) error
	}
	b, err := s1.(bm).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.(bm).UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if err := s1.Step(a.Eps); err != nil {
			t.Fatal(err)
		}
		if err := s2.Step(a.Eps); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(s1.Position(), s2.Position()) {
		t.Error("restored from a checkpoint, the chain continues differently")
	}
}

// TestSampleLargeMemory: the large-d warmup runs in O(d) memory. At
// d = 2·10⁴ (a dense warmup would need 12 d × d matrices, 38 GB) under a
// Go memory limit of 1 GiB, the peak heap stays below 200 MB (the data
// take 16 MB, a d-vector 160 kB); and asking for the dense path there is
// an error, not an out-of-memory.
func TestSampleLargeMemory(t *testing.T) {
	const d = 20000
	if testing.Short() {
		t.Skip("d = 2·10⁴ warmup")
	}
	g, err := larged.NewGaussian(d, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	old := debug.SetMemoryLimit(1 << 30)
	defer debug.SetMemoryLimit(old)
	_, err = Run(context.Background(), Problem{Model: g}, make([]float64, d), &Settings{DenseMax: d}, nil)
	if !errors.Is(err, sgmcmc.ErrRange) {
		t.Fatalf("dense path at d = %d: err %v, want ErrRange", d, err)
	}
	t.Log(err)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}()
	res, err := Run(context.Background(), Problem{Model: g}, make([]float64, d), &Settings{Seed: 1, Chains: 1, Draws: 50}, nil)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if peak > 200<<20 {
		t.Errorf("peak heap %.0f MB above 200 MB", float64(peak)/(1<<20))
	}
	t.Logf("peak heap %.0f MB (%.0f MB before), warmup %d gradient evaluations, low rank %d", float64(peak)/(1<<20), float64(base.HeapAlloc)/(1<<20), res.WarmupGradEvals, len(res.Adapted[0].LowRankC))
}
