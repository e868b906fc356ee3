// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/targets"
)

// target is one row's posterior and what it is judged by; nil fields are
// truths the target does not have.
type target struct {
	name  string
	d     int
	model sgmcmc.Model
	start []float64
	// mean and sd of each coordinate (after sort, when set).
	mean, sd []float64
	// sort orders each draw's coordinates first (label switching).
	sort bool
	// mode maps a draw to the index of its mode; weights are the modes'
	// exact weights (nil: no weights judged).
	mode    func(x []float64) int
	modes   int
	weights []float64
	// quant gives the exact p-quantile of coordinate j (nil: not judged).
	quant func(j int, p float64) float64
	// improper: no truth; the run must say what is wrong with the model.
	improper bool
}

// targetNames are the targets in table order.
var targetNames = []string{"bimodal_between", "bimodal_from_mode", "mixture4", "gmm_labels", "student_t3", "cauchy", "improper", "nonidentified"}

// newTargets returns the targets of name: bimodal ones in 1-D and 10-D.
func newTargets(name string) []target {
	switch name {
	case "bimodal_between", "bimodal_from_mode":
		var ts []target
		for _, d := range []int{1, 10} {
			b := targets.Bimodal{D: d}
			t := target{name: name, d: d, model: targets.DensityModel{T: b}, start: make([]float64, d),
				mean: make([]float64, d), sd: make([]float64, d), mode: b.Mode, modes: 2, weights: []float64{0.5, 0.5}}
			for j := range d {
				t.sd[j] = math.Sqrt(b.Var())
				if name == "bimodal_from_mode" {
					t.start[j] = -b.Offset()
				}
			}
			ts = append(ts, t)
		}
		return ts
	case "mixture4":
		f := targets.FourModes{}
		mean, v := targets.Mixture4Moments()
		return []target{{name: name, d: 2, model: targets.DensityModel{T: f}, start: make([]float64, 2),
			mean: mean[:], sd: []float64{math.Sqrt(v[0]), math.Sqrt(v[1])}, mode: f.Mode, modes: 4, weights: targets.FourModesWeights[:]}}
	case "gmm_labels":
		g := targets.NewGMMLabels()
		mean, sd := g.SortedMoments()
		return []target{{name: name, d: 2, model: g, start: make([]float64, 2), mean: mean[:], sd: sd[:], sort: true,
			mode: func(x []float64) int {
				if x[0] < x[1] {
					return 0
				}
				return 1
			}, modes: 2}}
	case "student_t3", "cauchy":
		nu := 3.0
		if name == "cauchy" {
			nu = 1
		}
		h := targets.HeavyTail{Nu: nu}
		return []target{{name: name, d: 1, model: targets.DensityModel{T: h}, start: make([]float64, 1),
			mode: func([]float64) int { return 0 }, modes: 1,
			quant: func(_ int, p float64) float64 { return h.Quantile(p) }}}
	case "improper":
		return []target{{name: name, d: 2, model: targets.Improper{}, start: make([]float64, 2), improper: true}}
	case "nonidentified":
		return []target{{name: name, d: 2, model: targets.NewNonidentified(), start: make([]float64, 2), improper: true}}
	}
	return nil
}
