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
)

// Target is a posterior to sample and the reference it is judged against.
//
// The sampler works in the unconstrained space of Model (log σ, logits,
// log-increments); Constrain maps a draw to the space the reference reports
// (σ, simplex entries, ordered means), where the rows compare means and
// standard deviations.
type Target struct {
	// Name is the row's target name: earnings, kidiq, illcond100, funnel10,
	// or one of the development targets.
	Name string
	// Model is the posterior in unconstrained space. It implements
	// sgmcmc.LogDensity too, and is safe for concurrent use.
	Model sgmcmc.Model
	// Start is the user's start in unconstrained space.
	Start []float64
	// Names are the reference-space parameter names.
	Names []string
	// UNames are the names of the unconstrained parameters, for Sample's
	// summary and warnings.
	UNames []string
	// Constrain writes the reference-space image of the unconstrained θ
	// into dst (len(dst) = len(Names)). It is safe for concurrent use.
	Constrain func(dst, theta []float64)
	// RefMean and RefSD are the reference posterior means and standard
	// deviations in reference space: exact for illcond100 and funnel10,
	// from the 10,000 reference draws for the posteriordb targets.
	RefMean, RefSD []float64
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
	// tempEpsScale, if positive, scales the oracle runner's step sizes.
	tempEpsScale float64
}

// Dim returns the dimension of the reference space.
func (t *Target) Dim() int { return len(t.Names) }

// Targets, in the order of the table.
var (
	checkTargets = []string{"earnings", "kidiq", "illcond100", "funnel10"}
	devTargets   = []string{"kidiq_interaction", "mesquite", "hmm"}
)

// LoadTarget builds the named target; the posteriordb targets read their
// data and reference draws from dataDir (testdata/posteriordb).
func LoadTarget(name, dataDir string) (*Target, error) {
	switch name {
	case "earnings":
		return loadRegression(dataDir, earningsSpec)
	case "kidiq":
		return loadRegression(dataDir, kidiqSpec)
	case "kidiq_interaction":
		return loadRegression(dataDir, kidiqInteractionSpec)
	case "mesquite":
		return loadRegression(dataDir, mesquiteSpec)
	case "hmm":
		return loadHMM(filepath.Join(dataDir, "hmm_example-hmm_example"))
	case "illcond100":
		return NewIllCond(IllCondSeed)
	case "funnel10":
		return NewFunnel(), nil
	}
	return nil, fmt.Errorf("unknown target %q (have %v and, for development, %v)", name, checkTargets, devTargets)
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
	t.refMeanU, t.refCovU = meanU, cov
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
