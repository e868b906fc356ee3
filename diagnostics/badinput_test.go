// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// diagBadCase is one entry of the diagnostics' bad-input catalogue: either
// an *InputError with the given fields (-2 means "any") and message
// fragment, or (defined) a documented value, checked by run itself.
type diagBadCase struct {
	name    string
	run     func() error
	fn      string // InputError.Func
	chain   int
	index   int
	coord   int
	substr  string
	defined bool
}

func ie(fn string, chain, index, coord int, substr string) diagBadCase {
	return diagBadCase{fn: fn, chain: chain, index: index, coord: coord, substr: substr}
}

func (c diagBadCase) with(name string, run func() error) diagBadCase {
	c.name, c.run = name, run
	return c
}

func defined(name string, run func() error) diagBadCase {
	return diagBadCase{name: name, run: run, defined: true}
}

func e1(_ float64, err error) error { return err }

func wantValue(got float64, err error, want float64) error {
	if err != nil {
		return err
	}
	if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
		return fmt.Errorf("got %v, want %v", got, want)
	}
	return nil
}

func diagBadCases() []diagBadCase {
	ok4 := [][]float64{{1, 2, 3, 4}, {2, 3, 1, 5}}
	huge := [][]float64{{1e308, -1e308, 1e308, -1e308}, {-1e308, 1e308, -1e308, 1e308}}
	score := func(dst, x []float64) {
		for j, v := range x {
			dst[j] = -v
		}
	}
	dens := func(x float64) float64 { return math.Exp(-x * x / 2) }
	return []diagBadCase{
		ie("ESSBulk", -1, -1, -1, "no chains").with("ESSBulk no chains", func() error { return e1(diagnostics.ESSBulk(nil)) }),
		ie("ESSBulk", 0, 0, -1, "beyond ±MaxAbs").with("ESSBulk ±1e308", func() error { return e1(diagnostics.ESSBulk(huge)) }),
		ie("ESSTail", -1, -1, -1, "need at least 4").with("ESSTail too short", func() error { return e1(diagnostics.ESSTail([][]float64{{1, 2, 3}})) }),
		ie("ESSMean", 1, -1, -1, "length").with("ESSMean unequal lengths", func() error { return e1(diagnostics.ESSMean([][]float64{{1, 2, 3, 4}, {1, 2, 3, 4, 5}})) }),
		ie("ESSQuantile", -1, -1, -1, "probability").with("ESSQuantile p = 0", func() error { return e1(diagnostics.ESSQuantile(ok4, 0)) }),
		ie("ESSQuantile", -1, -1, -1, "probability").with("ESSQuantile p = NaN", func() error { return e1(diagnostics.ESSQuantile(ok4, math.NaN())) }),
		ie("MCSEMean", 1, 3, -1, "non-finite").with("MCSEMean +Inf", func() error {
			return e1(diagnostics.MCSEMean([][]float64{{1, 2, 3, 4}, {1, 2, 3, math.Inf(1)}}))
		}),
		ie("MCSEQuantile", -1, -1, -1, "probability").with("MCSEQuantile p = 1", func() error { return e1(diagnostics.MCSEQuantile(ok4, 1)) }),
		ie("RHat", 0, 1, -1, "non-finite").with("RHat NaN", func() error { return e1(diagnostics.RHat([][]float64{{1, math.NaN(), 3, 4}})) }),
		ie("RHatBulkTail", -1, -1, -1, "no chains").with("RHatBulkTail no chains", func() error {
			_, _, err := diagnostics.RHatBulkTail([][]float64{})
			return err
		}),
		defined("RHat of equal constant chains is 1", func() error {
			v, err := diagnostics.RHat([][]float64{{2, 2, 2, 2}, {2, 2, 2, 2}})
			return wantValue(v, err, 1)
		}),
		defined("RHat of different constant chains is +Inf", func() error {
			v, err := diagnostics.RHat([][]float64{{2, 2, 2, 2}, {3, 3, 3, 3}})
			return wantValue(v, err, math.Inf(1))
		}),
		defined("ESSBulk of constant chains is the number of draws", func() error {
			v, err := diagnostics.ESSBulk([][]float64{{2, 2, 2, 2}, {2, 2, 2, 2}})
			return wantValue(v, err, 8)
		}),
		ie("Summarize", 0, 0, -1, "beyond ±MaxAbs").with("Summarize ±1e308 (issue: sd = +Inf)", func() error { return e1s(diagnostics.Summarize(huge)) }),
		defined("Summarize ±4e307 is finite", func() error {
			s, err := diagnostics.Summarize([][]float64{{4e307, -4e307, 4e307, -4e307, 4e307, 4e307}})
			if err != nil {
				return err
			}
			for _, v := range []float64{s.Mean, s.SD, s.MCSEMean, s.MAD, s.Q5, s.Q95, s.ESSBulk, s.ESSTail} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("summary %+v not finite", s)
				}
			}
			return nil
		}),
		defined("ESSMean of tiny draws is not the constant-chain value", func() error {
			x := []float64{1e-300, -2e-300, 3e-300, 1e-300, -1e-300, 2e-300, 0, 1e-300}
			big := make([]float64, len(x))
			for i, v := range x {
				big[i] = v * 1e300
			}
			a, err := diagnostics.ESSMean([][]float64{x})
			b, err2 := diagnostics.ESSMean([][]float64{big})
			if err != nil || err2 != nil {
				return errors.Join(err, err2)
			}
			if math.Abs(a-b) > 1e-9*b {
				return fmt.Errorf("ESSMean = %v for draws of 1e-300, %v for the same ×1e300", a, b)
			}
			return nil
		}),
		ie("SummarizeChains", 1, -1, -1, "nil chain").with("SummarizeChains nil chain", func() error {
			_, err := diagnostics.SummarizeChains([]*diagnostics.Rows{{{1}, {2}, {3}, {4}}, nil})
			return err
		}),
		ie("Columns", -1, -1, -1, "coordinate 5").with("Columns j out of range", func() error {
			_, err := diagnostics.Columns([]diagnostics.Rows{{{1, 2}, {3, 4}}}, 5)
			return err
		}),
		ie("Autocovariance", -1, -1, -1, "need at least 1").with("Autocovariance empty", func() error {
			_, err := diagnostics.Autocovariance(nil, nil)
			return err
		}),
		ie("Autocovariance", -1, -1, -1, "overflows").with("Autocovariance of 1e160", func() error {
			_, err := diagnostics.Autocovariance(nil, []float64{1e-76, 1e-76, 1.4e160, 1e-76})
			return err
		}),
		defined("Autocorrelation of 1e160 is finite", func() error {
			r, err := diagnostics.Autocorrelation(nil, []float64{1e-76, 1e-76, 1.4e160, 1e-76})
			if err != nil {
				return err
			}
			if r[0] != 1 || math.IsNaN(r[1]) {
				return fmt.Errorf("ρ̂ = %v", r)
			}
			return nil
		}),
		defined("Autocorrelation of a constant is 1, 0, 0, …", func() error {
			r, err := diagnostics.Autocorrelation(nil, []float64{3, 3, 3})
			if err != nil || r[0] != 1 || r[1] != 0 || r[2] != 0 {
				return fmt.Errorf("ρ̂ = %v, %v", r, err)
			}
			return nil
		}),
		ie("KS", -1, -1, -1, "nil CDF").with("KS nil CDF", func() error { return e1(diagnostics.KS([]float64{1}, nil)) }),
		ie("KS", -1, -1, -1, "not in [0, 1]").with("KS CDF above 1", func() error {
			return e1(diagnostics.KS([]float64{1}, func(float64) float64 { return 2 }))
		}),
		ie("KSTwoSample", 1, -1, -1, "need at least 1").with("KSTwoSample empty y", func() error { return e1(diagnostics.KSTwoSample([]float64{1}, nil)) }),
		ie("RosenblattKS", -1, -1, -1, "dims").with("RosenblattKS dims 0", func() error {
			return e1(diagnostics.RosenblattKS([][]float64{{0.5, 0.5}}, diagnostics.DirichletConditionalCDF([]float64{1, 1}), 0))
		}),
		ie("RosenblattKS", -1, 0, 0, "conditional CDF").with("RosenblattKS invalid Dirichlet alpha", func() error {
			return e1(diagnostics.RosenblattKS([][]float64{{0.5, 0.5}}, diagnostics.DirichletConditionalCDF([]float64{1, -1}), 1))
		}),
		ie("Wasserstein", -1, -1, -1, "tail").with("Wasserstein CDF whose tail never falls", func() error {
			return e1(diagnostics.Wasserstein([]float64{0, 1}, func(float64) float64 { return 0.5 }))
		}),
		ie("Wasserstein", -1, -1, -1, "nil CDF").with("Wasserstein nil CDF", func() error { return e1(diagnostics.Wasserstein([]float64{0}, nil)) }),
		defined("Wasserstein of draws near ±4e307 against a wide normal is finite", func() error {
			v, err := diagnostics.Wasserstein([]float64{-4e307, 4e307}, distuv.Normal{Sigma: 1e300}.CDF)
			if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				return fmt.Errorf("W = %v with a nil error", v)
			}
			return nil
		}),
		ie("WassersteinTwoSample", 0, 1, -1, "non-finite").with("WassersteinTwoSample Inf", func() error {
			return e1(diagnostics.WassersteinTwoSample([]float64{1, math.Inf(-1)}, []float64{1}))
		}),
		ie("KL", -1, -1, -1, "finite width").with("KL grid of overflowing width", func() error {
			return e1(diagnostics.KL([]float64{0}, dens, diagnostics.Grid{Min: -1e308, Max: 1e308, Bins: 4}))
		}),
		ie("KL", -1, -1, -1, "Bins").with("KL 1<<40 bins", func() error {
			return e1(diagnostics.KL([]float64{0}, dens, diagnostics.Grid{Min: -1, Max: 1, Bins: 1 << 40}))
		}),
		ie("KL", -1, -1, -1, "density").with("KL negative density", func() error {
			return e1(diagnostics.KL([]float64{0}, func(float64) float64 { return -1 }, diagnostics.Grid{Min: -1, Max: 1, Bins: 4}))
		}),
		defined("KL with a draw where the density is 0 is +Inf", func() error {
			v, err := diagnostics.KL([]float64{0.9}, func(x float64) float64 { return math.Max(0, -x) }, diagnostics.Grid{Min: -1, Max: 1, Bins: 2})
			return wantValue(v, err, math.Inf(1))
		}),
		ie("KL2D", -1, -1, -1, "y values").with("KL2D lengths differ", func() error {
			return e1(diagnostics.KL2D([]float64{0}, nil, func(x, y float64) float64 { return 1 }, diagnostics.Grid{Min: 0, Max: 1, Bins: 1}, diagnostics.Grid{Min: 0, Max: 1, Bins: 1}))
		}),
		ie("KL2D", -1, -1, -1, "cells").with("KL2D too many cells", func() error {
			g := diagnostics.Grid{Min: 0, Max: 1, Bins: 1 << 20}
			return e1(diagnostics.KL2D([]float64{0.5}, []float64{0.5}, func(x, y float64) float64 { return 1 }, g, g))
		}),
		ie("KSD", -1, -1, -1, "too large").with("KSD of the issue (was NaN)", func() error {
			return e1(diagnostics.KSD([][]float64{{1e-76, 1e-76}, {1.4e160, 1e-76}}, score, nil))
		}),
		ie("KSD", -1, -1, -1, "nil score").with("KSD nil score", func() error { return e1(diagnostics.KSD([][]float64{{1}}, nil, nil)) }),
		ie("KSD", -1, 0, 1, "non-finite score").with("KSD NaN score", func() error {
			return e1(diagnostics.KSD([][]float64{{1, 2}}, func(dst, x []float64) { dst[0], dst[1] = 0, math.NaN() }, nil))
		}),
		ie("KSD", -1, 1, 0, "beyond ±MaxAbs").with("KSD draw of 1e308", func() error {
			return e1(diagnostics.KSD([][]float64{{1}, {1e308}}, score, nil))
		}),
		ie("KSD", -1, -1, -1, "Beta").with("KSD Beta = 0.5", func() error {
			return e1(diagnostics.KSD([][]float64{{1}}, score, &diagnostics.IMQ{Beta: 0.5}))
		}),
		ie("WeightedMean", -1, -1, -1, "step sizes").with("WeightedMean lengths differ", func() error { return e1(diagnostics.WeightedMean([]float64{1}, nil)) }),
		ie("WeightedMean", -1, 0, -1, "step size").with("WeightedMean step size 0", func() error { return e1(diagnostics.WeightedMean([]float64{1}, []float64{0})) }),
		ie("StepWeighted", -1, -1, -1, "nil function").with("StepWeighted nil f", func() error {
			return e1(diagnostics.StepWeighted([]diagnostics.Rows{{{1}}}, [][]float64{{1}}, nil))
		}),
		ie("StepWeighted", 0, -1, -1, "step sizes").with("StepWeighted eps of wrong length", func() error {
			return e1(diagnostics.StepWeighted([]diagnostics.Rows{{{1}}}, [][]float64{{1, 1}}, func([]float64) float64 { return 0 }))
		}),
	}
}

func e1s(_ diagnostics.Summary, err error) error { return err }

// TestBadInputDiagnostics runs the diagnostics' bad-input catalogue: each
// case gives an *InputError naming the function (and the chain, draw and
// coordinate where it applies) or its documented defined value; the counts
// by outcome are logged.
func TestBadInputDiagnostics(t *testing.T) {
	t.Parallel()
	cases := diagBadCases()
	counts := map[string]int{}
	for _, c := range cases {
		if c.defined {
			counts["documented defined value"]++
		} else {
			counts["*InputError"]++
		}
		t.Run(strings.ReplaceAll(c.name, "/", "∕"), func(t *testing.T) {
			err := func() (err error) {
				defer func() {
					if p := recover(); p != nil {
						err = fmt.Errorf("panic: %v", p)
					}
				}()
				return c.run()
			}()
			t.Log(err)
			if c.defined {
				if err != nil {
					t.Error(err)
				}
				return
			}
			var e *diagnostics.InputError
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			if e.Func != c.fn || e.Chain != c.chain || e.Index != c.index || e.Coord != c.coord {
				t.Errorf("InputError{Func %q, Chain %d, Index %d, Coord %d}, want {%q, %d, %d, %d} (%v)",
					e.Func, e.Chain, e.Index, e.Coord, c.fn, c.chain, c.index, c.coord, err)
			}
			if !strings.Contains(err.Error(), c.substr) {
				t.Errorf("%v, want a message containing %q", err, c.substr)
			}
		})
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("%d cases:", len(cases))
	for _, k := range keys {
		t.Logf("  %3d  %s", counts[k], k)
	}
}
