// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/valid"
)

// P2 of warmup, the gradient check (doc/adaptation.md §2.2); its
// constants are in constants.go.

// gradCheck compares the model's gradient with central finite differences
// of its log density (LogDensity) on the first gradCheckItems items of
// the fixed batch, at points about one posterior standard deviation from
// the Newton phase's end (w), where the gradient is of order one per
// coordinate whatever the model; it returns an error wrapping ErrGradient
// naming the worst coordinate (or, above gradCheckCoords dimensions, the
// worst direction) if one fails the tolerance (valid.GradTolerance). Its evaluations count in
// the warmup's.
func (e *chainEnv) gradCheck(w *whitening) error {
	ld, ok := e.rawModel.(sgmcmc.LogDensity)
	if !ok || e.fixedMB == nil {
		return nil
	}
	d := e.d
	idx := e.fixedIdx[:min(len(e.fixedIdx), gradCheckItems)]
	scale := float64(e.N) / float64(len(idx))
	lik := func(th []float64) float64 {
		defer tag("LogDensity.LogLik")
		var s float64
		for _, i := range idx {
			s += ld.LogLik(th, i)
		}
		return s
	}
	prior := func(th []float64) float64 {
		defer tag("LogDensity.LogPrior")
		return ld.LogPrior(th)
	}
	u := func(th []float64) float64 {
		e.tick(int64(len(idx)))
		return -prior(th) - scale*lik(th)
	}
	grad := func(dst, th []float64) { e.fixedMB.GradOn(dst, th, idx) }
	// sd[j]: the posterior sd of θ_j by the whitening, √(L Lᵀ)_jj.
	sd := make([]float64, d)
	for j := range d {
		if w.lower != nil {
			var s float64
			for k := 0; k <= j; k++ {
				s += w.lower.At(j, k) * w.lower.At(j, k)
			}
			sd[j] = math.Sqrt(s)
		} else {
			sd[j] = w.diag[j]
		}
	}
	rng := rand.New(rand.NewPCG(e.mbSeed[0]^gradCheckSeed, e.mbSeed[1]))
	z, g, x, dir := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	type bad struct {
		rel, a, n float64
		j         int
		th        []float64
	}
	var worst bad
	for range gradCheckPoints {
		for i := range z {
			z[i] = float64(2*rng.IntN(2) - 1)
		}
		th := w.toTheta(z)
		grad(g, th)
		if valid.FirstNonFinite(g) >= 0 {
			return nil // the gradient's own checks report it
		}
		// diff returns the derivative of U along dir (in θ) by central
		// differences with step h, and a bound on its rounding error,
		// 4·ε_mach·max|U|/(2h): where that bound is not small against the
		// tolerance the difference measures rounding, not the log density
		// (U so large, or θ's posterior sd so small against θ, that a step
		// of 10⁻³ sd does not move U's floating-point value), and the
		// coordinate cannot be checked there. A step that θ's resolution
		// cannot represent to 1 % is likewise uncheckable (bound +Inf).
		diff := func(h float64) (n, round float64) {
			for i := range x {
				x[i] = th[i] + h*dir[i]
			}
			up := u(x)
			for i := range x {
				x[i] = th[i] - h*dir[i]
				if dir[i] != 0 {
					if got := (th[i] + h*dir[i] - x[i]) / (2 * h * dir[i]); math.Abs(got-1) > 0.01 {
						return 0, math.Inf(1)
					}
				}
			}
			um := u(x)
			return (up - um) / (2 * h), 4 * 0x1p-52 * math.Max(math.Abs(up), math.Abs(um)) / (2 * h)
		}
		judge := func(j int, a, n, round float64) {
			scale := math.Max(1, math.Max(math.Abs(a), math.Abs(n)))
			if round > 0.1*valid.GradTolerance*scale {
				return // rounding swamps the difference: not checkable here
			}
			r := math.Abs(a-n) / scale
			if math.IsNaN(r) {
				r = math.Inf(1)
			}
			if r > worst.rel {
				worst = bad{rel: r, a: a, n: n, j: j, th: th}
			}
		}
		if d <= gradCheckCoords {
			for j := range d {
				clear(dir)
				dir[j] = 1
				n, round := diff(gradCheckStep * sd[j])
				judge(j, g[j]*sd[j], n*sd[j], round*sd[j])
			}
			continue
		}
		for k := range gradCheckDirs {
			// A random direction of unit length in whitened units.
			for i := range z {
				z[i] = rng.NormFloat64()
			}
			nz := 0.0
			for _, v := range z {
				nz += v * v
			}
			nz = math.Sqrt(nz)
			for i := range z {
				z[i] /= nz
			}
			w.dirToTheta(dir, z)
			var a float64
			for i, v := range dir {
				a += g[i] * v
			}
			n, round := diff(gradCheckStep)
			judge(-1-k, a, n, round)
		}
	}
	if !(worst.rel > valid.GradTolerance) {
		return nil
	}
	where := fmt.Sprintf("coordinate %d", worst.j)
	unit := "per posterior sd of the coordinate"
	if worst.j < 0 {
		where = fmt.Sprintf("random direction %d of %d", -1-worst.j, gradCheckDirs)
		unit = "per posterior sd along the direction"
	}
	return valid.Errorf(sgmcmc.ErrGradient, "Sample: warmup: the Model's gradient does not match its log density at θ = %s, %s: the gradient of log p is %.6g by LogLikGrad and LogPriorGrad but %.6g by finite differences of LogLik and LogPrior (%s; relative error %.3g, tolerance %g); check the gradient, or the log density",
		brief(worst.th), where, -worst.a, -worst.n, unit, worst.rel, valid.GradTolerance)
}

// dirToTheta maps a direction in w's whitened coordinates to θ: L z.
func (w *whitening) dirToTheta(dst, z []float64) {
	if w.lower == nil {
		for i, v := range z {
			dst[i] = w.diag[i] * v
		}
		return
	}
	for i := range dst {
		var s float64
		for k := 0; k <= i; k++ {
			s += w.lower.At(i, k) * z[k]
		}
		dst[i] = s
	}
}
