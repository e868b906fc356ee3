// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
)

// fullGrad is ∇U(θ) over every item, summed in item order.
func fullGrad(m Model, th []float64) []float64 {
	g := make([]float64, len(th))
	FullGradient(m).Grad(g, th)
	return g
}

// TestControlVariateMoments: the estimator is unbiased at points near and
// far from the centre (the mean over many batches is the full gradient
// within 4 Monte Carlo standard errors), its variance is the per-datum
// difference formula (N²/n)(1 − n/N)S², its own noise estimate averages to
// that, and at the centre it is exact.
func TestControlVariateMoments(t *testing.T) {
	const n, N, d, reps = 50, 3000, 3, 20000
	m := newLogitModel(N, d, 1)
	center := []float64{0.4, -0.3, 0.2}
	for _, model := range []Model{m, batchLogit{Logit: m}} {
		for _, noise := range []bool{false, true} {
			cv, err := NewControlVariate(model, center, n, false, rand.NewPCG(3, 4), nil)
			if err != nil {
				t.Fatal(err)
			}
			cv.Noise = noise
			g := make([]float64, d)
			cv.Grad(g, center)
			want := fullGrad(m, center)
			for j := range d {
				if math.Abs(g[j]-want[j]) > 1e-9*math.Max(1, math.Abs(want[j])) {
					t.Errorf("at the centre: coordinate %d is %v, the full gradient %v", j, g[j], want[j])
				}
			}
			for _, off := range []float64{0.05, 1} {
				th := []float64{center[0] + off, center[1] - off, center[2] + 0.5*off}
				full := fullGrad(m, th)
				// The formula: S² of the per-datum differences over all N.
				s2 := make([]float64, d)
				mean := make([]float64, d)
				diffs := make([][]float64, N)
				for i := range N {
					dd := make([]float64, d)
					m.LogLikGrad(dd, th, i, 1)
					m.LogLikGrad(dd, center, i, -1)
					diffs[i] = dd
					for j := range d {
						mean[j] += dd[j] / N
					}
				}
				for _, dd := range diffs {
					for j := range d {
						s2[j] += (dd[j] - mean[j]) * (dd[j] - mean[j]) / (N - 1)
					}
				}
				sum, sq, nv := make([]float64, d), make([]float64, d), make([]float64, d)
				v := make([]float64, d)
				for range reps {
					cv.Grad(g, th)
					cv.NoiseVar(v)
					for j := range d {
						sum[j] += g[j]
						sq[j] += (g[j] - full[j]) * (g[j] - full[j])
						nv[j] += v[j] / reps
					}
				}
				for j := range d {
					want := float64(N) * N / n * (1 - float64(n)/N) * s2[j]
					se := math.Sqrt(want / reps)
					if e := sum[j]/reps - full[j]; math.Abs(e) > 4*se {
						t.Errorf("offset %g noise %v: coordinate %d mean error %.4g, 4 MCSE %.4g", off, noise, j, e, 4*se)
					}
					// The variance of a sample variance of reps draws is
					// about 2σ⁴/reps (plus a kurtosis term): 4 of those.
					if got := sq[j] / reps; math.Abs(got/want-1) > 4*math.Sqrt(3.0/reps) {
						t.Errorf("offset %g noise %v: coordinate %d variance %.4g, formula %.4g", off, noise, j, got, want)
					}
					if noise && math.Abs(nv[j]/want-1) > 0.02 {
						t.Errorf("offset %g: coordinate %d mean noise estimate %.4g, formula %.4g", off, j, nv[j], want)
					}
				}
			}
		}
	}
}

// TestControlVariateNoiseShrinks: near the mode of a concentrated
// posterior the estimator's variance is far below a Minibatch's at the
// same batch size, and it grows with the distance from the centre.
func TestControlVariateNoiseShrinks(t *testing.T) {
	const n, N, d = 100, 20000, 3
	m := newLogitModel(N, d, 2)
	center := []float64{0.3, 0.1, -0.2}
	varAt := func(g Gradient, th []float64) float64 {
		full := fullGrad(m, th)
		buf := make([]float64, d)
		var s float64
		for range 500 {
			g.Grad(buf, th)
			for j := range d {
				s += (buf[j] - full[j]) * (buf[j] - full[j])
			}
		}
		return s / 500
	}
	mb, _ := NewMinibatch(m, n, false, rand.NewPCG(1, 1))
	cv, err := NewControlVariate(m, center, n, false, rand.NewPCG(1, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	sd := 1 / math.Sqrt(float64(N)) // about the posterior sd
	near := []float64{center[0] + 2*sd, center[1] - 2*sd, center[2] + sd}
	far := []float64{center[0] + 40*sd, center[1] - 40*sd, center[2] + 20*sd}
	vmb, vnear, vfar := varAt(mb, near), varAt(cv, near), varAt(cv, far)
	t.Logf("variance: minibatch %.4g, control variate near %.4g, far %.4g", vmb, vnear, vfar)
	if !(vnear < vmb/100) {
		t.Errorf("near the centre the control variate's variance %.4g is not 100× below the minibatch's %.4g", vnear, vmb)
	}
	if !(vfar > 50*vnear) {
		t.Errorf("20× farther from the centre the variance %.4g is not far above %.4g", vfar, vnear)
	}
}

// TestControlVariateSVRG: with RecenterEvery k, every k-th call after the
// first moves the centre to its point and is exact there.
func TestControlVariateSVRG(t *testing.T) {
	m := newLogitModel(2000, 3, 3)
	cv, err := NewControlVariate(m, []float64{0, 0, 0}, 20, false, rand.NewPCG(5, 5), &ControlVariateSettings{RecenterEvery: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, 3)
	for call := 1; call <= 10; call++ {
		th := []float64{0.1 * float64(call), -0.05 * float64(call), 0.02}
		cv.Grad(g, th)
		if (call-1)%3 == 0 && call > 1 {
			want := fullGrad(m, th)
			for j := range g {
				if math.Abs(g[j]-want[j]) > 1e-9*math.Max(1, math.Abs(want[j])) {
					t.Errorf("call %d (a re-centring): coordinate %d %v, full gradient %v", call, j, g[j], want[j])
				}
			}
		}
	}
	if cv.Passes() != 4 { // construction, then calls 4, 7 and 10
		t.Errorf("%d full passes, want 4", cv.Passes())
	}
}

// TestControlVariateGOMAXPROCS: the full pass (over several parts) gives
// the same bits for any GOMAXPROCS.
func TestControlVariateGOMAXPROCS(t *testing.T) {
	m := batchLogit{Logit: newLogitModel(3*fullpass.PartSize+17, 4, 4)}
	var ref []float64
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(p)
		cv, err := NewControlVariate(m, []float64{0.1, 0.2, -0.1, 0}, 10, false, rand.NewPCG(1, 2), nil)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = append([]float64(nil), cv.CenterGrad()...)
			continue
		}
		for j, v := range cv.CenterGrad() {
			if v != ref[j] {
				t.Fatalf("GOMAXPROCS %d: centre gradient %d is %v, with 1 core %v", p, j, v, ref[j])
			}
		}
	}
}

// TestControlVariateCheckpoint: a restored estimator continues exactly as
// the uninterrupted one, and a bad checkpoint leaves it as it was.
func TestControlVariateCheckpoint(t *testing.T) {
	m := newLogitModel(500, 3, 5)
	mk := func(s1 uint64) *ControlVariate {
		cv, err := NewControlVariate(m, []float64{0.1, 0, 0}, 17, false, rand.NewPCG(s1, 9), &ControlVariateSettings{RecenterEvery: 4})
		if err != nil {
			t.Fatal(err)
		}
		return cv
	}
	a, b := mk(1), mk(2)
	g, h := make([]float64, 3), make([]float64, 3)
	th := func(k int) []float64 { return []float64{0.01 * float64(k), 0.2, -0.1} }
	for k := range 6 {
		a.Grad(g, th(k))
	}
	cp, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.UnmarshalBinary(cp[:len(cp)-1]); !errors.Is(err, ErrCheckpoint) {
		t.Fatalf("truncated checkpoint: err = %v, want ErrCheckpoint", err)
	}
	if err := b.UnmarshalBinary(cp); err != nil {
		t.Fatal(err)
	}
	for k := 6; k < 20; k++ {
		a.Grad(g, th(k))
		b.Grad(h, th(k))
		for j := range g {
			if g[j] != h[j] {
				t.Fatalf("call %d: restored %v, uninterrupted %v", k, h, g)
			}
		}
	}
}

// TestControlVariateBadInput: clear errors, no panics.
func TestControlVariateBadInput(t *testing.T) {
	m := newLogitModel(100, 3, 6)
	src := func() rand.Source { return rand.NewPCG(1, 1) }
	nanModel := nanAt{m}
	for _, c := range []struct {
		name string
		run  func() error
		want error
	}{
		{"centre of the wrong dimension", func() error { _, err := NewControlVariate(m, []float64{0, 0}, 10, false, src(), nil); return err }, ErrDimension},
		{"non-finite centre", func() error {
			_, err := NewControlVariate(m, []float64{0, math.NaN(), 0}, 10, false, src(), nil)
			return err
		}, ErrNonFinite},
		{"batch larger than N", func() error { _, err := NewControlVariate(m, []float64{0, 0, 0}, 101, false, src(), nil); return err }, ErrRange},
		{"nil model", func() error { _, err := NewControlVariate(nil, []float64{0, 0, 0}, 10, false, src(), nil); return err }, ErrNil},
		{"full gradient not finite at the centre", func() error {
			_, err := NewControlVariate(nanModel, []float64{0, 0, 0}, 10, false, src(), nil)
			return err
		}, ErrNonFinite},
		{"CenterGrad of the wrong dimension", func() error {
			_, err := NewControlVariate(m, []float64{0, 0, 0}, 10, false, src(), &ControlVariateSettings{CenterGrad: []float64{1}})
			return err
		}, ErrDimension},
		{"negative RecenterEvery", func() error {
			_, err := NewControlVariate(m, []float64{0, 0, 0}, 10, false, src(), &ControlVariateSettings{RecenterEvery: -1})
			return err
		}, ErrRange},
	} {
		if err := c.run(); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

// nanAt is a model whose likelihood gradient is NaN at item 3.
type nanAt struct{ *logitModel }

func (m nanAt) LogLikGrad(dst, th []float64, i int, scale float64) {
	m.logitModel.LogLikGrad(dst, th, i, scale)
	if i == 3 {
		dst[0] = math.NaN()
	}
}

// TestControlVariateAllocs: a gradient allocates nothing, with and without
// a BatchModel and the noise estimate.
func TestControlVariateAllocs(t *testing.T) {
	m := newLogitModel(400, 3, 7)
	for _, model := range []Model{m, batchLogit{Logit: m}} {
		for _, noise := range []bool{false, true} {
			cv, err := NewControlVariate(model, []float64{0, 0, 0}, 30, false, rand.NewPCG(1, 1), nil)
			if err != nil {
				t.Fatal(err)
			}
			cv.Noise = noise
			g, th := make([]float64, 3), []float64{0.1, 0.1, 0.1}
			cv.Grad(g, th)
			if a := testing.AllocsPerRun(100, func() { cv.Grad(g, th) }); a != 0 {
				t.Errorf("%T noise %v: %v allocations per gradient", model, noise, a)
			}
		}
	}
}
