// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"math"
	"strconv"
	"strings"
)

// regressionSpec describes how a posteriordb regression (see Regression)
// is built from its data file.
type regressionSpec struct {
	// dir is the posteriordb directory, the posterior's name.
	dir string
	// names are the reference-space names: β…, sigma.
	names []string
	// cauchy is s of σ ~ half-Cauchy(0, s); 0 means σ flat.
	cauchy float64
	// build returns the design's P columns and the responses.
	build func(d *dataSet) (cols [][]float64, y []float64, err error)
}

// regressionDraws is the number of draws per chain of every regression.
const regressionDraws = 1000

// betaNames returns beta[1] … beta[p] and sigma.
func betaNames(p int) []string {
	names := make([]string, p+1)
	for j := range p {
		names[j] = "beta[" + strconv.Itoa(j+1) + "]"
	}
	names[p] = "sigma"
	return names
}

// columns reads the named vectors of d. A name "log x" reads the log of
// x, which must be positive.
func columns(d *dataSet, names ...string) ([][]float64, error) {
	out := make([][]float64, len(names))
	for k, name := range names {
		field, isLog := strings.CutPrefix(name, "log ")
		var ok func(float64) bool
		want := ""
		if isLog {
			ok, want = positive, "> 0 (the model takes its log)"
		}
		v, err := d.vector(field, ok, want)
		if err != nil {
			return nil, err
		}
		if isLog {
			for i, x := range v {
				v[i] = math.Log(x)
			}
		}
		out[k] = v
	}
	return out, nil
}

// design returns the columns 1, cols[0], cols[1], … with the elementwise
// products of the pairs in inter appended.
func design(n int, cols [][]float64, inter ...[2]int) [][]float64 {
	x := append([][]float64{ones(n)}, cols...)
	for _, p := range inter {
		c := make([]float64, n)
		for i := range c {
			c[i] = cols[p[0]][i] * cols[p[1]][i]
		}
		x = append(x, c)
	}
	return x
}

// response reads the response and the predictors of a regression and
// returns its design (see design) and response.
func response(d *dataSet, y string, predictors []string, inter ...[2]int) ([][]float64, []float64, error) {
	c, err := columns(d, append([]string{y}, predictors...)...)
	if err != nil {
		return nil, nil, err
	}
	return design(d.n, c[1:], inter...), c[0], nil
}

// The posteriordb regressions, by directory. Priors: β flat; σ flat or
// half-Cauchy(0, 2.5) as in the Stan model.
var (
	earningsSpec = regressionSpec{
		dir: "earnings-logearn_height", names: betaNames(2),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "log earn", []string{"height"})
		},
	}
	earnHeightSpec = regressionSpec{
		dir: "earnings-earn_height", names: betaNames(2),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "earn", []string{"height"})
		},
	}
	logearnInteractionSpec = regressionSpec{
		dir: "earnings-logearn_interaction", names: betaNames(4),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "log earn", []string{"height", "male"}, [2]int{0, 1})
		},
	}
	logearnLogheightMaleSpec = regressionSpec{
		dir: "earnings-logearn_logheight_male", names: betaNames(3),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "log earn", []string{"log height", "male"})
		},
	}
	kidiqSpec = regressionSpec{
		dir: "kidiq-kidscore_momiq", names: betaNames(2), cauchy: 2.5,
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "kid_score", []string{"mom_iq"})
		},
	}
	kidiqMomhsiqSpec = regressionSpec{
		dir: "kidiq-kidscore_momhsiq", names: betaNames(3), cauchy: 2.5,
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "kid_score", []string{"mom_hs", "mom_iq"})
		},
	}
	kidiqInteractionSpec = regressionSpec{
		dir: "kidiq-kidscore_interaction", names: betaNames(4), cauchy: 2.5,
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "kid_score", []string{"mom_hs", "mom_iq"}, [2]int{0, 1})
		},
	}
	kidiqC2Spec = regressionSpec{
		dir: "kidiq_with_mom_work-kidscore_interaction_c2", names: betaNames(4),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			// Predictors centred on reference points: mom_hs − 0.5,
			// mom_iq − 100, and their product.
			x, y, err := response(d, "kid_score", []string{"mom_hs", "mom_iq"})
			if err != nil {
				return nil, nil, err
			}
			for i := range d.n {
				x[1][i] -= 0.5
				x[2][i] -= 100
			}
			return design(d.n, x[1:], [2]int{0, 1}), y, nil
		},
	}
	mesquiteSpec = regressionSpec{
		dir: "mesquite-logmesquite_logvash", names: betaNames(6),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			c, err := columns(d, "log weight", "log diam1", "log diam2", "log canopy_height", "log total_height", "group")
			if err != nil {
				return nil, nil, err
			}
			ld1, ld2, lch := c[1], c[2], c[3]
			vol, area, shape := make([]float64, d.n), make([]float64, d.n), make([]float64, d.n)
			for i := range d.n {
				vol[i] = ld1[i] + ld2[i] + lch[i] // log canopy volume
				area[i] = ld1[i] + ld2[i]         // log canopy area
				shape[i] = ld1[i] - ld2[i]        // log canopy shape
			}
			return design(d.n, [][]float64{vol, area, shape, c[4], c[5]}), c[0], nil
		},
	}
	logvolumeSpec = regressionSpec{
		dir: "mesquite-logmesquite_logvolume", names: betaNames(2),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			c, err := columns(d, "log weight", "log diam1", "log diam2", "log canopy_height")
			if err != nil {
				return nil, nil, err
			}
			vol := make([]float64, d.n)
			for i := range d.n {
				vol[i] = c[1][i] + c[2][i] + c[3][i] // log canopy volume
			}
			return design(d.n, [][]float64{vol}), c[0], nil
		},
	}
	mesquiteRawSpec = regressionSpec{
		dir: "mesquite-mesquite", names: betaNames(7),
		build: func(d *dataSet) ([][]float64, []float64, error) {
			return response(d, "weight", []string{"diam1", "diam2", "canopy_height", "total_height", "density", "group"})
		},
	}
)

// regressionSpecs are the posteriordb regressions.
var regressionSpecs = []regressionSpec{earningsSpec, earnHeightSpec, logearnInteractionSpec, logearnLogheightMaleSpec,
	kidiqSpec, kidiqMomhsiqSpec, kidiqInteractionSpec, kidiqC2Spec, mesquiteSpec, logvolumeSpec, mesquiteRawSpec}
