// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// Target is a posterior to sample and the reference it is judged against.
//
// The sampler works in the unconstrained space of Model (log σ, logits,
// log-increments); Constrain maps a draw to the space the reference reports
// (σ, simplex entries, ordered means), where the rows compare means and
// standard deviations.
type Target struct {
	// Name is the row's target name: the name it was loaded by (see
	// LoadTarget).
	Name string
	// Model is the posterior in unconstrained space. It implements
	// sgmcmc.LogDensity too, and is safe for concurrent use.
	Model sgmcmc.Model
	// Start is the user's start in unconstrained space.
	Start []float64
	// Names are the reference-space parameter names.
	Names []string
	// UNames are the names of the unconstrained parameters, for sample.Run's
	// summary and warnings.
	UNames []string
	// Constrain writes the reference-space image of the unconstrained θ
	// into dst (len(dst) = len(Names)). It is safe for concurrent use.
	Constrain func(dst, theta []float64)
	// RefMean and RefSD are the reference posterior means and standard
	// deviations in reference space: exact for the synthetic targets, from
	// the 10,000 reference draws for the posteriordb targets.
	RefMean, RefSD []float64
	// RefMCSE are the Monte Carlo standard errors of RefMean (from the
	// reference draws' ESS); nil for an exact reference.
	RefMCSE []float64
	// Draws is the number of draws per chain the example asks for.
	Draws int
	// Batch is the minibatch size the oracle runner uses (the N of a
	// model with Len() = 1 gives exact gradients).
	Batch int

	// refMeanU and refCovU are the reference mean and covariance in
	// unconstrained space. Only the oracle runner uses them, to whiten
	// the target with knowledge a user does not have.
	refMeanU []float64
	refCovU  *mat.SymDense
	// unconstrain maps a reference-space draw to unconstrained space
	// (set by refFromDraws; for the tests).
	unconstrain func(dst, x []float64)
	// tempEpsScale, if positive, scales the oracle runner's step sizes.
	tempEpsScale float64
}

// Dim returns the dimension of the reference space.
func (t *Target) Dim() int { return len(t.Names) }

// Targets, in the order of the table.
var (
	// checkTargets are the targets of a run without -set or -dev.
	checkTargets = []string{"earnings", "kidiq", "illcond100", "funnel10"}
	// devTargets are added by -dev.
	devTargets = []string{"kidiq_interaction", "mesquite", "hmm"}
	// devSet is the development set of issue 22 (-set dev): the fourteen
	// posteriordb posteriors by directory name, the synthetic posteriors
	// with exact answers and funnel10.
	devSet = []string{
		"earnings-logearn_height", "earnings-earn_height", "earnings-logearn_interaction", "earnings-logearn_logheight_male",
		"kidiq-kidscore_momiq", "kidiq-kidscore_momhsiq", "kidiq-kidscore_interaction", "kidiq_with_mom_work-kidscore_interaction_c2",
		"mesquite-mesquite", "mesquite-logmesquite_logvash", "mesquite-logmesquite_logvolume",
		"hmm_example-hmm_example", "bball_drive_event_0-hmm_drive_0", "gp_pois_regr-gp_pois_regr",
		"hier_cp", "hier_ncp", "corr9999", "mixture2", "funnel10",
	}
	// shortNames are the names the check and -dev runs give to
	// posteriordb posteriors.
	shortNames = map[string]string{
		"earnings":          "earnings-logearn_height",
		"kidiq":             "kidiq-kidscore_momiq",
		"kidiq_interaction": "kidiq-kidscore_interaction",
		"mesquite":          "mesquite-logmesquite_logvash",
		"hmm":               "hmm_example-hmm_example",
	}
)

// sets are the target sets of -set.
var sets = map[string][]string{"check": checkTargets, "dev": devSet}

// LoadTarget builds the named target, which is named so in its rows: a
// name of checkTargets, devTargets or devSet (posteriordb posteriors by
// directory name, or by their short names in shortNames). The posteriordb
// targets read their data and reference draws from dataDir
// (testdata/posteriordb).
func LoadTarget(name, dataDir string) (*Target, error) {
	t, err := loadByName(name, dataDir)
	if err != nil {
		return nil, err
	}
	t.Name = name
	return t, nil
}

func loadByName(name, dataDir string) (*Target, error) {
	full := name
	if s, ok := shortNames[name]; ok {
		full = s
	}
	for _, spec := range regressionSpecs {
		if spec.dir == full {
			return loadRegression(dataDir, spec)
		}
	}
	switch full {
	case "hmm_example-hmm_example":
		return loadHMM(filepath.Join(dataDir, full))
	case "bball_drive_event_0-hmm_drive_0":
		return loadDriveHMM(filepath.Join(dataDir, full))
	case "gp_pois_regr-gp_pois_regr":
		return loadGPPoisson(filepath.Join(dataDir, full))
	case "hier_cp":
		return NewHier(true)
	case "hier_ncp":
		return NewHier(false)
	case "corr9999":
		return NewCorr9999()
	case "mixture2":
		return NewMixture2()
	case "illcond100":
		return NewIllCond(IllCondSeed)
	case "funnel10":
		return NewFunnel(), nil
	}
	return nil, fmt.Errorf("unknown target %q (have %v, for development %v, and the set %v)", name, checkTargets, devTargets, devSet)
}

// refFromDraws sets the reference of t from reference-space draws (chain ×
// draw × parameter): pooled means and standard deviations, and, through
// unconstrain, the mean and covariance in unconstrained space.
func (t *Target) refFromDraws(draws [][][]float64, unconstrain func(dst, x []float64)) error {
	p := t.Dim()
	d := t.Model.Dim()
	var n float64
	mean, m2 := make([]float64, p), make([]float64, p)
	meanU := make([]float64, d)
	cov := mat.NewSymDense(d, nil)
	u := make([]float64, d)
	// Welford's updates, for the constrained moments and the unconstrained
	// covariance alike.
	du := make([]float64, d)
	for _, ch := range draws {
		for _, x := range ch {
			n++
			for j, v := range x {
				delta := v - mean[j]
				mean[j] += delta / n
				m2[j] += delta * (v - mean[j])
			}
			unconstrain(u, x)
			for j, v := range u {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("%s: reference draw %v maps to a non-finite unconstrained value", t.Name, x)
				}
				du[j] = v - meanU[j]
				meanU[j] += du[j] / n
			}
			for i := range d {
				for j := i; j < d; j++ {
					cov.SetSym(i, j, cov.At(i, j)+du[i]*(u[j]-meanU[j]))
				}
			}
		}
	}
	if n < 2 {
		return errors.New(t.Name + ": fewer than two reference draws")
	}
	t.RefMean = mean
	t.RefSD = make([]float64, p)
	for j := range p {
		t.RefSD[j] = math.Sqrt(m2[j] / (n - 1))
		if !(t.RefSD[j] > 0) {
			return fmt.Errorf("%s: reference draws of %s are constant", t.Name, t.Names[j])
		}
	}
	cov.ScaleSym(1/(n-1), cov)
	t.refMeanU, t.refCovU, t.unconstrain = meanU, cov, unconstrain
	// The Monte Carlo standard error of each reference mean.
	t.RefMCSE = make([]float64, p)
	col := make([][]float64, len(draws))
	for c, ch := range draws {
		col[c] = make([]float64, len(ch))
	}
	for j := range p {
		for c, ch := range draws {
			for i, x := range ch {
				col[c][i] = x[j]
			}
		}
		s, err := diagnostics.Summarize(col)
		if err != nil {
			return fmt.Errorf("%s: reference draws of %s: %w", t.Name, t.Names[j], err)
		}
		t.RefMCSE[j] = s.MCSEMean
	}
	return nil
}

// diagSym returns diag(v) as a SymDense.
func diagSym(v []float64) *mat.SymDense {
	m := mat.NewSymDense(len(v), nil)
	for i, x := range v {
		m.SetSym(i, i, x)
	}
	return m
}
