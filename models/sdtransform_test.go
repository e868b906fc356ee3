// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/transform"
)

// TestGumbelScale: gumbelScale's inverse undoes it, from deep in the tail
// toward 0 to far above the scale, and its pullback and log-Jacobian
// gradient match central differences of Constrain.
func TestGumbelScale(t *testing.T) {
	tr := gumbelScale{s: []float64{0.3, 2}}
	for _, y0 := range []float64{-6, -4, -2, -0.5, 0, 0.567, 1, 3, 20} {
		y := []float64{y0, y0 / 3}
		x := make([]float64, 2)
		tr.Constrain(x, y)
		back := make([]float64, 2)
		if err := tr.Unconstrain(back, x); err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if math.Abs(back[i]-y[i]) > 1e-12*(1+math.Abs(y[i])) {
				t.Errorf("y = %v: Unconstrain(Constrain) = %v", y[i], back[i])
			}
		}
		g := []float64{0.7, -1.3}
		checkPullback(t, tr, y, g, fmt.Sprintf("y = %v:", y))
	}
	if _, err := tr.FreeDim(3); err == nil {
		t.Error("FreeDim(3) with two scales: no error")
	}
	if err := tr.Unconstrain(make([]float64, 2), []float64{1, 0}); err == nil {
		t.Error("Unconstrain of sd 0: no error")
	}
}

// TestNonCentredProblemGradients: a factor forced non-centred gets
// gumbelScale, a centred one the log, and the unconstrained model's
// gradients match central differences either way.
func TestNonCentredProblemGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, par := range []Param{Centred, NonCentred} {
		g := simulate(Gaussian, Identity, 300, 3, 6, false, 1)
		g.Groups[0].Param = par
		m, err := NewGLM(g)
		if err != nil {
			t.Fatal(err)
		}
		q := &m.groups[0]
		_, gumbel := m.sdTransform(q).(gumbelScale)
		_, log := m.sdTransform(q).(transform.Positive)
		if gumbel != (par == NonCentred) || log != (par == Centred) {
			t.Errorf("%v: sds' transform %T", par, m.sdTransform(q))
		}
		p, err := m.Problem()
		if err != nil {
			t.Fatal(err)
		}
		y := m.Start()
		for i := range y {
			y[i] += 0.3 * r.NormFloat64()
		}
		if _, err := sgmcmc.CheckModel(p.Model, y, nil); err != nil {
			t.Errorf("%v: %v", par, err)
		}
	}
}

// checkPullback compares tr's Pullback (with the weights g) and
// LogJacobianGrad at y with central differences of g·x(y) and of the
// log-Jacobian (step 10⁻⁶, relative tolerance 10⁻⁶), naming the case
// what in an error.
func checkPullback(t *testing.T, tr transform.Transform, y, g []float64, what string) {
	t.Helper()
	n := len(g)
	x := make([]float64, n)
	tr.Constrain(x, y)
	dy, dj := make([]float64, len(y)), make([]float64, len(y))
	tr.Pullback(dy, y, x, g)
	tr.LogJacobianGrad(dj, y, x)
	for i := range y {
		const h = 1e-6
		yp, ym := append([]float64(nil), y...), append([]float64(nil), y...)
		yp[i] += h
		ym[i] -= h
		xp, xm := make([]float64, n), make([]float64, n)
		ljp, ljm := tr.Constrain(xp, yp), tr.Constrain(xm, ym)
		var fd float64
		for k := range g {
			fd += g[k] * (xp[k] - xm[k]) / (2 * h)
		}
		if math.Abs(dy[i]-fd) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("%s coordinate %d: pullback %v, differences %v", what, i, dy[i], fd)
		}
		if fj := (ljp - ljm) / (2 * h); math.Abs(dj[i]-fj) > 1e-6*(1+math.Abs(fj)) {
			t.Errorf("%s coordinate %d: log-Jacobian gradient %v, differences %v", what, i, dj[i], fj)
		}
	}
}
