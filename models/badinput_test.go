// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/badinput"

	"gonum.org/v1/gonum/mat"
)

// TestBadInputModels: every bad specification or data file gives an error
// of its class naming the cause — never a panic, never a model.
func TestBadInputModels(t *testing.T) {
	nan := math.NaN()
	base := func() GLM { return simulate(Poisson, LogLink, 60, 2, 4, false, 9) }
	with := func(f func(g *GLM)) func() error {
		return func() error {
			g := base()
			f(&g)
			_, err := NewGLM(g)
			return err
		}
	}
	csvErr := func(text string, use func(f *Frame) error) func() error {
		return func() error {
			f, err := ReadCSV(strings.NewReader(text))
			if err != nil {
				return err
			}
			return use(f)
		}
	}
	cases := []struct {
		name   string
		run    func() error
		want   error
		substr string
	}{
		{"no rows", with(func(g *GLM) { g.Y, g.X, g.Groups = nil, nil, nil }), nil, "no rows"},
		{"unknown family", with(func(g *GLM) { g.Family = 0 }), sgmcmc.ErrRange, "want one of"},
		{"family out of range", with(func(g *GLM) { g.Family = 99 }), sgmcmc.ErrRange, "Family(99)"},
		{"Poisson with probit", with(func(g *GLM) { g.Link = Probit }), sgmcmc.ErrRange, "probit"},
		{"Gaussian with logit", with(func(g *GLM) { g.Family, g.Link = Gaussian, Logit }), sgmcmc.ErrRange, "logit"},
		{"both X and Sparse", with(func(g *GLM) { g.Sparse = &CSR{Rows: 60} }), sgmcmc.ErrRange, "both X and Sparse"},
		{"X rows differ", with(func(g *GLM) { g.X = mat.NewDense(59, 2, nil) }), sgmcmc.ErrDimension, "59 rows"},
		{"Sparse rows differ", with(func(g *GLM) { g.X, g.Sparse = nil, &CSR{Rows: 5, Cols: 1, Ptr: make([]int, 6)} }), sgmcmc.ErrDimension, "5 rows"},
		{"Sparse bad pointers", with(func(g *GLM) { g.X, g.Sparse = nil, &CSR{Rows: 60, Cols: 1, Ptr: make([]int, 3)} }), sgmcmc.ErrRange, "inconsistent CSR"},
		{"Sparse column out of range", with(func(g *GLM) {
			s := &CSR{Rows: 60, Cols: 2, Ptr: make([]int, 61), Idx: []int{5}, Val: []float64{1}}
			for i := 1; i <= 60; i++ {
				s.Ptr[i] = 1
			}
			g.X, g.Sparse = nil, s
		}), sgmcmc.ErrRange, "column index 5"},
		{"Names count", with(func(g *GLM) { g.Names = []string{"a"} }), sgmcmc.ErrDimension, "1 Names for 2"},
		{"name with a comma", with(func(g *GLM) { g.Names = []string{"a,b", "c"} }), sgmcmc.ErrRange, "CmdStan CSV"},
		{"Y NaN", with(func(g *GLM) { g.Y[7] = nan }), sgmcmc.ErrNonFinite, "Y[7]"},
		{"Poisson negative count", with(func(g *GLM) { g.Y[3] = -1 }), sgmcmc.ErrRange, "Y[3] = -1"},
		{"Poisson fractional count", with(func(g *GLM) { g.Y[4] = 1.5 }), sgmcmc.ErrRange, "Y[4] = 1.5"},
		{"Bernoulli 2", with(func(g *GLM) {
			g.Family, g.Link = Bernoulli, DefaultLink
			for i := range g.Y {
				g.Y[i] = float64(i % 2)
			}
			g.Y[2] = 2
		}), sgmcmc.ErrRange, "Y[2] = 2"},
		{"Binomial without trials", with(func(g *GLM) { g.Family, g.Link = Binomial, DefaultLink }), sgmcmc.ErrRange, "needs Trials"},
		{"Binomial y above trials", with(func(g *GLM) {
			g.Family, g.Link, g.Trials = Binomial, DefaultLink, make([]float64, 60)
			for i := range g.Trials {
				g.Trials[i] = 100
			}
			g.Trials[5], g.Y[5] = 2, 3
		}), sgmcmc.ErrRange, "Trials[5] = 2"},
		{"Trials for Poisson", with(func(g *GLM) { g.Trials = make([]float64, 60) }), sgmcmc.ErrRange, "Trials set"},
		{"Offset length", with(func(g *GLM) { g.Offset = make([]float64, 3) }), sgmcmc.ErrDimension, "Offset has 3"},
		{"Offset Inf", with(func(g *GLM) { g.Offset = make([]float64, 60); g.Offset[9] = math.Inf(1) }), sgmcmc.ErrNonFinite, "Offset[9]"},
		{"Weights negative", with(func(g *GLM) { g.Weights = make([]float64, 60); g.Weights[1] = -1 }), sgmcmc.ErrRange, "Weights[1]"},
		{"predictor NaN", with(func(g *GLM) { g.X.Set(11, 1, nan) }), sgmcmc.ErrNonFinite, "row 11"},
		{"predictor constant", with(func(g *GLM) {
			for i := range 60 {
				g.X.Set(i, 0, 3)
			}
		}), sgmcmc.ErrRange, "x1 is constant"},
		{"Y constant Gaussian", with(func(g *GLM) {
			g.Family, g.Link = Gaussian, DefaultLink
			for i := range g.Y {
				g.Y[i] = 2
			}
		}), sgmcmc.ErrRange, "Y is constant"},
		{"StudentT Nu negative", with(func(g *GLM) { g.Family, g.Link, g.Nu = StudentT, DefaultLink, -2 }), sgmcmc.ErrRange, "Nu = -2"},
		{"Nu for Poisson", with(func(g *GLM) { g.Nu = 3 }), sgmcmc.ErrRange, "Nu set"},
		{"Prior scale zero", with(func(g *GLM) { g.Prior = Normal(0, 0) }), sgmcmc.ErrRange, "scale 0"},
		{"Prior NaN location", with(func(g *GLM) { g.Prior = Normal(nan, 1) }), sgmcmc.ErrRange, "location NaN"},
		{"Prior a scale prior on coefficients", with(func(g *GLM) { g.Prior = HalfNormal(1) }), sgmcmc.ErrRange, "positive scale"},
		{"AuxPrior for Poisson", with(func(g *GLM) { g.AuxPrior = Exponential(1) }), sgmcmc.ErrRange, "no σ or φ"},
		{"AuxPrior on the whole line", with(func(g *GLM) { g.Family, g.AuxPrior = NegBinomial, Normal(0, 1) }), sgmcmc.ErrRange, "whole line"},
		{"InterceptPrior without intercept", with(func(g *GLM) { g.NoIntercept, g.InterceptPrior = true, Normal(0, 1) }), sgmcmc.ErrRange, "NoIntercept"},
		{"Student prior df zero", with(func(g *GLM) { g.Prior = StudentTPrior(0, 0, 1) }), sgmcmc.ErrRange, "degrees of freedom 0"},
		{"group Index length", with(func(g *GLM) { g.Groups[0].Index = g.Groups[0].Index[:10] }), sgmcmc.ErrDimension, "Index has 10"},
		{"group negative level", with(func(g *GLM) { g.Groups[0].Index[4] = -1 }), sgmcmc.ErrRange, "Index[4] = -1"},
		{"group few Levels", with(func(g *GLM) { g.Groups[0].Levels = []string{"a"} }), sgmcmc.ErrDimension, "1 Levels"},
		{"group slope column", with(func(g *GLM) { g.Groups[0].Slopes = []int{7} }), sgmcmc.ErrRange, "slope column 7"},
		{"group Param", with(func(g *GLM) { g.Groups[0].Param = 9 }), sgmcmc.ErrRange, "Param 9"},
		{"group empty name", with(func(g *GLM) { g.Groups[0].Name = "" }), sgmcmc.ErrRange, "empty name"},
		{"two groups one name", with(func(g *GLM) { g.Groups = append(g.Groups, g.Groups[0]) }), sgmcmc.ErrRange, "second factor"},
		{"group prior on the whole line", with(func(g *GLM) { g.Groups[0].Prior = Cauchy(0, 1) }), sgmcmc.ErrRange, "whole line"},
		{"CSV empty", csvErr("", func(*Frame) error { return nil }), nil, "no header"},
		{"CSV header only", csvErr("y,x\n", func(*Frame) error { return nil }), nil, "no rows"},
		{"CSV ragged", csvErr("y,x\n1,2\n3\n", func(*Frame) error { return nil }), nil, "row 2"},
		{"CSV duplicate names", csvErr("y,y\n1,2\n", func(*Frame) error { return nil }), sgmcmc.ErrRange, "two columns named"},
		{"CSV unnamed column", csvErr("y,\n1,2\n", func(*Frame) error { return nil }), sgmcmc.ErrRange, "column 2 has no name"},
		{"CSV missing cell", csvErr("y,x\n1,2\n3,NA\n", func(f *Frame) error { _, err := f.Numeric("x"); return err }), sgmcmc.ErrNonFinite, "row 2"},
		{"CSV non-numeric cell", csvErr("y,x\n1,2\n3,abc\n", func(f *Frame) error { _, err := f.Numeric("x"); return err }), sgmcmc.ErrRange, `"abc"`},
		{"CSV no such column", csvErr("y,x\n1,2\n", func(f *Frame) error { _, err := f.Numeric("z"); return err }), sgmcmc.ErrRange, `no column "z"`},
		{"CSV constant column", csvErr("y,x\n1,2\n3,2\n", func(f *Frame) error { _, _, err := f.Matrix([]string{"x"}, nil); return err }), sgmcmc.ErrRange, `"x" is constant`},
		{"CSV one-level factor", csvErr("y,g\n1,a\n3,a\n", func(f *Frame) error { _, _, err := f.Matrix(nil, []string{"g"}); return err }), sgmcmc.ErrRange, "one level"},
		{"CSV factor missing", csvErr("y,g\n1,a\n3,\n", func(f *Frame) error { _, _, err := f.Factor("g"); return err }), sgmcmc.ErrNonFinite, "row 2"},
		{"CSV Matrix nothing", csvErr("y,g\n1,a\n3,b\n", func(f *Frame) error { _, _, err := f.Matrix(nil, nil); return err }), nil, "no columns"},
	}
	for _, c := range cases {
		t.Run(badinput.SubtestName(c.name), func(t *testing.T) {
			bc := badinput.Case{Run: c.run, Want: c.want, Substr: c.substr}
			if c.want == nil {
				// A plain error (the CSV reader's, or no rows): any error
				// that names the cause.
				err := c.run()
				if err == nil || !strings.Contains(err.Error(), c.substr) {
					t.Fatalf("err = %v, want an error saying %q", err, c.substr)
				}
				return
			}
			bc.Check(t, func(err error) bool { var s *sgmcmc.StepError; return errors.As(err, &s) }, func(err error) string { return err.Error() })
		})
	}
}
