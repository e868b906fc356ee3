// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/sample"
)

var writeStan = flag.Bool("write-stan", false, "write the Stan check's data and specs into testdata/stan (then run stan.R there)")

// stanSpec is a Stan-check case: the model, as both stan_test.go and
// testdata/stan/stan.R read it.
type stanSpec struct {
	Family        string   `json:"family"`
	Link          string   `json:"link"`
	Predictors    []string `json:"predictors"`
	Group         *string  `json:"group"`
	Slope         *string  `json:"slope"`
	Offset        *string  `json:"offset"`
	Trials        *string  `json:"trials"`
	PriorBScale   float64  `json:"prior_b_scale"`
	PriorIntLoc   float64  `json:"prior_int_loc"`
	PriorIntScale float64  `json:"prior_int_scale"`
	PriorAuxRate  float64  `json:"prior_aux_rate"`
	PriorSDRate   float64  `json:"prior_sd_rate"`
	NuFixed       float64  `json:"nu_fixed"`
	// Param is the parameterisation the rule must choose for every level
	// (for the record; Stan's program is non-centred throughout).
	Param string `json:"param"`
}

// stanCase generates a case's data.
type stanCase struct {
	name     string
	spec     stanSpec
	n, k     int     // rows, levels (0: none)
	tau, aux float64 // the true group sd and σ or φ
	seed     uint64
}

func sp(s string) *string { return &s }

var stanCases = []stanCase{
	{"gauss_few", stanSpec{Family: "gaussian", Link: "identity", Predictors: []string{"x1"}, Group: sp("g"), PriorBScale: 2.5, PriorIntScale: 5, PriorAuxRate: 1, PriorSDRate: 1, Param: "noncentred"}, 200, 40, 0.3, 1, 1},
	{"gauss_many", stanSpec{Family: "gaussian", Link: "identity", Predictors: []string{"x1"}, Group: sp("g"), PriorBScale: 2.5, PriorIntScale: 5, PriorAuxRate: 1, PriorSDRate: 1, Param: "centred"}, 1200, 8, 1, 1, 2},
	{"poisson_offset", stanSpec{Family: "poisson", Link: "log", Predictors: []string{"x1", "x2"}, Group: sp("g"), Slope: sp("x1"), Offset: sp("logexposure"), PriorBScale: 1, PriorIntScale: 2.5, PriorSDRate: 2}, 200, 25, 0.4, 0, 3},
	{"logit", stanSpec{Family: "bernoulli", Link: "logit", Predictors: []string{"x1", "x2", "x3"}, Group: sp("g"), PriorBScale: 2.5, PriorIntScale: 2.5, PriorSDRate: 1}, 480, 12, 0.8, 0, 4},
	{"binomial_probit", stanSpec{Family: "binomial", Link: "probit", Predictors: []string{"x1"}, Group: sp("g"), Trials: sp("n"), PriorBScale: 2.5, PriorIntScale: 2.5, PriorSDRate: 1}, 200, 10, 0.5, 0, 5},
	{"negbin", stanSpec{Family: "negbinomial", Link: "log", Predictors: []string{"x1"}, PriorBScale: 2.5, PriorIntScale: 2.5, PriorAuxRate: 1}, 400, 0, 0, 2, 6},
	{"student", stanSpec{Family: "student", Link: "identity", Predictors: []string{"x1", "x2"}, PriorBScale: 2.5, PriorIntScale: 5, PriorAuxRate: 1}, 300, 0, 0, 1, 7},
}

// write simulates the case and writes its CSV and spec.
func (c stanCase) write(dir string) error {
	r := rand.New(rand.NewPCG(c.seed, 1))
	s := c.spec
	head := append([]string{"y"}, s.Predictors...)
	if s.Group != nil {
		head = append(head, *s.Group)
	}
	if s.Offset != nil {
		head = append(head, *s.Offset)
	}
	if s.Trials != nil {
		head = append(head, *s.Trials)
	}
	var b strings.Builder
	b.WriteString(strings.Join(head, ",") + "\n")
	eff := make([]float64, c.k)
	slope := make([]float64, c.k)
	for j := range eff {
		eff[j] = c.tau * r.NormFloat64()
		slope[j] = 0.5 * c.tau * r.NormFloat64()
	}
	for i := range c.n {
		x := make([]float64, len(s.Predictors))
		eta := 0.2
		for j := range x {
			x[j] = math.Round(r.NormFloat64()*1000) / 1000
			eta += (0.5 - 0.3*float64(j)) * x[j]
		}
		lvl := 0
		if c.k > 0 {
			lvl = i % c.k
			eta += eff[lvl]
			if s.Slope != nil {
				eta += slope[lvl] * x[0]
			}
		}
		logE := 0.0
		if s.Offset != nil {
			logE = math.Round(math.Log(1+9*r.Float64())*1000) / 1000
			eta += logE
		}
		n := 1 + r.IntN(8)
		var y float64
		switch s.Family {
		case "gaussian":
			y = math.Round((eta+c.aux*r.NormFloat64())*1e6) / 1e6
		case "student":
			chi := 0.0
			for range 4 {
				z := r.NormFloat64()
				chi += z * z
			}
			y = math.Round((eta+c.aux*r.NormFloat64()/math.Sqrt(chi/4))*1e6) / 1e6
		case "bernoulli":
			if r.Float64() < sigmoid(eta) {
				y = 1
			}
		case "binomial":
			for range n {
				if r.Float64() < normCDF(eta) {
					y++
				}
			}
		case "poisson":
			y = float64(poisson(r, math.Exp(eta)))
		case "negbinomial":
			g := 0.0 // gamma(φ = 2, rate 2) frailty: mean 1
			for range 2 {
				g += r.ExpFloat64()
			}
			y = float64(poisson(r, math.Exp(eta)*g/2))
		}
		row := []string{strconv.FormatFloat(y, 'g', -1, 64)}
		for _, v := range x {
			row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
		}
		if s.Group != nil {
			row = append(row, strconv.Itoa(lvl+1))
		}
		if s.Offset != nil {
			row = append(row, strconv.FormatFloat(logE, 'g', -1, 64))
		}
		if s.Trials != nil {
			row = append(row, strconv.Itoa(n))
		}
		b.WriteString(strings.Join(row, ",") + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, c.name+".csv"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	js, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, c.name+".json"), append(js, '\n'), 0o644)
}

// glm builds the case's GLM from its files, as a user would from a CSV.
func (c stanCase) glm(dir string) (GLM, error) {
	fh, err := os.Open(filepath.Join(dir, c.name+".csv"))
	if err != nil {
		return GLM{}, err
	}
	defer fh.Close()
	f, err := ReadCSV(fh)
	if err != nil {
		return GLM{}, err
	}
	s := c.spec
	fam := map[string]Family{"gaussian": Gaussian, "student": StudentT, "bernoulli": Bernoulli, "binomial": Binomial, "poisson": Poisson, "negbinomial": NegBinomial}[s.Family]
	link := map[string]Link{"identity": Identity, "logit": Logit, "probit": Probit, "log": LogLink}[s.Link]
	g := GLM{Family: fam, Link: link, Prior: Normal(0, s.PriorBScale), InterceptPrior: Normal(s.PriorIntLoc, s.PriorIntScale)}
	if g.Y, err = f.Numeric("y"); err != nil {
		return g, err
	}
	if g.X, g.Names, err = f.Matrix(s.Predictors, nil); err != nil {
		return g, err
	}
	if fam.hasScale() || fam.hasShape() {
		g.AuxPrior = Exponential(s.PriorAuxRate)
	}
	if fam == StudentT {
		g.Nu = s.NuFixed
	}
	if s.Offset != nil {
		if g.Offset, err = f.Numeric(*s.Offset); err != nil {
			return g, err
		}
	}
	if s.Trials != nil {
		if g.Trials, err = f.Numeric(*s.Trials); err != nil {
			return g, err
		}
	}
	if s.Group != nil {
		idx, levels, err := f.Factor(*s.Group)
		if err != nil {
			return g, err
		}
		gr := Group{Name: *s.Group, Index: idx, Levels: levels, Prior: Exponential(s.PriorSDRate)}
		if s.Slope != nil {
			gr.Slopes = []int{0}
		}
		g.Groups = []Group{gr}
	}
	return g, nil
}

// stanRef is stan.R's output.
type stanRef struct {
	Names      []string  `json:"names"`
	Mean       []float64 `json:"mean"`
	SD         []float64 `json:"sd"`
	MCSE       []float64 `json:"mcse"`
	MinESS     float64   `json:"min_ess"`
	MaxRhat    float64   `json:"max_rhat"`
	Divergence int       `json:"divergences"`
}

// TestWriteStanData writes the cases' files with -write-stan.
func TestWriteStanData(t *testing.T) {
	if !*writeStan {
		t.Skip("writes testdata/stan only with -write-stan")
	}
	for _, c := range stanCases {
		if err := c.write("testdata/stan"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAgainstStan samples each case with sample.Run's defaults (SGHMC, 4
// chains of 1,000 draws) and compares every natural parameter with rstan's
// NUTS (testdata/stan/CASE.ref.json, 20,000 draws): each mean within
// 4 combined MCSEs plus 5 % of the posterior sd (the heat bound's O(ε)
// allowance), each sd within 4 of its standard errors √(1/(2 ESS)) plus
// 5 %; and that the rule chose the parameterisation the case was built
// for.
func TestAgainstStan(t *testing.T) {
	cases := stanCases
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			js, err := os.ReadFile(filepath.Join("testdata/stan", c.name+".ref.json"))
			if err != nil {
				t.Fatalf("no reference (run stan.R in testdata/stan): %v", err)
			}
			var ref stanRef
			if err := json.Unmarshal(js, &ref); err != nil {
				t.Fatal(err)
			}
			g, err := c.glm("testdata/stan")
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewGLM(g)
			if err != nil {
				t.Fatal(err)
			}
			if want := c.spec.Param; want != "" {
				for j, cen := range m.groups[0].centred {
					if cen != (want == "centred") {
						t.Errorf("level %d: centred %v, want %s (κ = %.3g)", j+1, cen, want, m.groups[0].kappa[j])
					}
				}
			}
			p, err := m.Problem()
			if err != nil {
				t.Fatal(err)
			}
			res, err := sample.Run(context.Background(), p, m.Start(), &sample.Settings{Seed: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := m.Summary(res.Finished())
			if err != nil {
				t.Fatal(err)
			}
			names := m.Names()
			if fmt.Sprint(names) != fmt.Sprint(ref.Names) {
				t.Fatalf("names %v, Stan's %v", names, ref.Names)
			}
			for j, row := range tab {
				tolM := 4*math.Hypot(row.MCSEMean, ref.MCSE[j]) + 0.05*ref.SD[j]
				relSD := 4*math.Sqrt(1/(2*row.ESSBulk)) + 0.05
				if d := math.Abs(row.Mean - ref.Mean[j]); d > tolM {
					t.Errorf("%s: mean %.4g, Stan %.4g (±%.2g)", row.Name, row.Mean, ref.Mean[j], tolM)
				}
				if d := math.Abs(row.SD/ref.SD[j] - 1); d > relSD {
					t.Errorf("%s: sd %.4g, Stan %.4g (%.1f%% off, allowed %.1f%%)", row.Name, row.SD, ref.SD[j], 100*d, 100*relSD)
				}
			}
			if len(res.Warnings) > 0 {
				t.Logf("warnings: %v", res.Warnings)
			}
			t.Logf("%s", m.Describe())
		})
	}
}
