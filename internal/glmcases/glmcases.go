// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package glmcases is the models package's check against Stan: the cases
// (data simulated once, written to testdata as CSV with a JSON spec), the
// Stan programs and the R script that makes their reference posteriors
// (testdata/stan.R), and the comparison of a sample.Run result with a
// reference. The models package's tests and examples/glm use it.
package glmcases

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/models"
)

// Dir returns the directory of the cases' files, wherever the caller runs.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata")
}

// Spec is a case's model, as this package and testdata/stan.R read it.
type Spec struct {
	// Program is the Stan program: glm (default), glm_cor, categorical or
	// horseshoe.
	Program       string   `json:"program,omitempty"`
	Family        string   `json:"family"`
	Link          string   `json:"link"`
	Predictors    []string `json:"predictors"`
	Group         *string  `json:"group"`
	Slope         *string  `json:"slope"`
	Offset        *string  `json:"offset"`
	Trials        *string  `json:"trials"`
	SD            *string  `json:"sd"`
	PriorBScale   float64  `json:"prior_b_scale"`
	PriorIntLoc   float64  `json:"prior_int_loc"`
	PriorIntScale float64  `json:"prior_int_scale"`
	PriorAuxRate  float64  `json:"prior_aux_rate"`
	PriorSDRate   float64  `json:"prior_sd_rate"`
	// PriorSDCauchy, if positive, makes the group sd's prior a half-Cauchy
	// of that scale instead of the exponential.
	PriorSDCauchy float64 `json:"prior_sd_cauchy"`
	NuFixed       float64 `json:"nu_fixed"`
	// HSExpected is the horseshoe's p₀.
	HSExpected float64 `json:"hs_expected"`
	// Param is the parameterisation the rule must choose for every level.
	Param string `json:"param"`
	// Correlated makes the group's intercept and slope correlated, with an
	// LKJ(LKJ) prior on their correlation (Stan program glm_cor).
	Correlated bool    `json:"correlated,omitempty"`
	LKJ        float64 `json:"lkj,omitempty"`
}

// Ref is a reference posterior, stan.R's output.
type Ref struct {
	Names       []string  `json:"names"`
	Mean        []float64 `json:"mean"`
	SD          []float64 `json:"sd"`
	MCSE        []float64 `json:"mcse"`
	MinESS      float64   `json:"min_ess"`
	MaxRhat     float64   `json:"max_rhat"`
	Divergences int       `json:"divergences"`
}

// ReadRef reads case name's reference.
func ReadRef(name string) (*Ref, error) {
	js, err := os.ReadFile(filepath.Join(Dir(), name+".ref.json"))
	if err != nil {
		return nil, fmt.Errorf("glmcases: no reference for %s (run stan.R in %s): %w", name, Dir(), err)
	}
	var r Ref
	if err := json.Unmarshal(js, &r); err != nil {
		return nil, fmt.Errorf("glmcases: %s.ref.json: %w", name, err)
	}
	return &r, nil
}

// ReadSpec reads case name's spec.
func ReadSpec(name string) (*Spec, error) {
	js, err := os.ReadFile(filepath.Join(Dir(), name+".json"))
	if err != nil {
		return nil, err
	}
	var s Spec
	if err := json.Unmarshal(js, &s); err != nil {
		return nil, fmt.Errorf("glmcases: %s.json: %w", name, err)
	}
	return &s, nil
}

// Load builds case name's GLM from its files, as a user would from a CSV.
func Load(name string) (models.GLM, *Spec, error) {
	s, err := ReadSpec(name)
	if err != nil {
		return models.GLM{}, nil, err
	}
	fh, err := os.Open(filepath.Join(Dir(), name+".csv"))
	if err != nil {
		return models.GLM{}, nil, err
	}
	defer fh.Close()
	f, err := models.ReadCSV(fh)
	if err != nil {
		return models.GLM{}, nil, err
	}
	fam := map[string]models.Family{"gaussian": models.Gaussian, "student": models.StudentT, "bernoulli": models.Bernoulli, "binomial": models.Binomial,
		"poisson": models.Poisson, "negbinomial": models.NegBinomial, "categorical": models.Categorical}[s.Family]
	link := map[string]models.Link{"identity": models.Identity, "logit": models.Logit, "probit": models.Probit, "log": models.LogLink, "softmax": models.Softmax}[s.Link]
	g := models.GLM{Family: fam, Link: link, InterceptPrior: models.Normal(s.PriorIntLoc, s.PriorIntScale)}
	if s.HSExpected > 0 {
		g.Horseshoe = &models.Horseshoe{Expected: s.HSExpected}
	} else if len(s.Predictors) > 0 {
		g.Prior = models.Normal(0, s.PriorBScale)
	}
	if fam == models.Categorical {
		idx, levels, err := f.Factor("y")
		if err != nil {
			return g, nil, err
		}
		g.Y, g.Categories = make([]float64, len(idx)), levels
		for i, j := range idx {
			g.Y[i] = float64(j)
		}
	} else if g.Y, err = f.Numeric("y"); err != nil {
		return g, nil, err
	}
	if len(s.Predictors) > 0 {
		if g.X, g.Names, err = f.Matrix(s.Predictors, nil); err != nil {
			return g, nil, err
		}
	}
	if s.SD != nil {
		if g.SD, err = f.Numeric(*s.SD); err != nil {
			return g, nil, err
		}
	} else if fam == models.Gaussian || fam == models.StudentT || fam == models.NegBinomial {
		g.AuxPrior = models.Exponential(s.PriorAuxRate)
	}
	if fam == models.StudentT {
		g.Nu = s.NuFixed
	}
	if s.Offset != nil {
		if g.Offset, err = f.Numeric(*s.Offset); err != nil {
			return g, nil, err
		}
	}
	if s.Trials != nil {
		if g.Trials, err = f.Numeric(*s.Trials); err != nil {
			return g, nil, err
		}
	}
	if s.Group != nil {
		idx, levels, err := f.Factor(*s.Group)
		if err != nil {
			return g, nil, err
		}
		gr := models.Group{Name: *s.Group, Index: idx, Levels: levels, Prior: models.Exponential(s.PriorSDRate)}
		if s.PriorSDCauchy > 0 {
			gr.Prior = models.HalfCauchy(s.PriorSDCauchy)
		}
		if s.Slope != nil {
			gr.Slopes = []int{0}
		}
		gr.Correlated, gr.LKJ = s.Correlated, s.LKJ
		g.Groups = []models.Group{gr}
	}
	return g, s, nil
}

// Errors compares a summary (natural parameters, named as the reference)
// with the reference: the largest |mean − mean_ref| over its tolerance
// 4·√(MCSE² + MCSE_ref²) + 0.05·sd_ref (the heat bound's O(ε) allowance),
// the largest |sd/sd_ref − 1| over its tolerance 4/√(2 ESS) + 0.05, and
// the largest |sd/sd_ref − 1|.
//
// The reference may leave parameters out (the horseshoe's local scales,
// whose half-Cauchy posteriors have no finite variance to compare); every
// one it has must be in the summary.
func Errors(tab diagnostics.Table, ref *Ref) (meanOverTol, sdOverTol, sdRel float64, err error) {
	at := map[string]int{}
	for k, row := range tab {
		at[row.Name] = k
	}
	for j, name := range ref.Names {
		k, ok := at[name]
		if !ok {
			return 0, 0, 0, fmt.Errorf("glmcases: no %s in the summary", name)
		}
		row := tab[k]
		tolM := 4*math.Hypot(row.MCSEMean, ref.MCSE[j]) + 0.05*ref.SD[j]
		tolS := 4/math.Sqrt(2*row.ESSBulk) + 0.05
		rel := row.SD/ref.SD[j] - 1
		meanOverTol = math.Max(meanOverTol, math.Abs(row.Mean-ref.Mean[j])/tolM)
		sdOverTol = math.Max(sdOverTol, math.Abs(rel)/tolS)
		sdRel = math.Max(sdRel, math.Abs(rel))
	}
	return meanOverTol, sdOverTol, sdRel, nil
}
