// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/sgmcmc-go/sgmcmc"
)

// draws is a chain held as one slice per draw.
type draws [][]float64

func (d draws) Len() int           { return len(d) }
func (d draws) At(i int) []float64 { return d[i] }

// liar is a chain whose Len is n and whose At panics.
type liar int

func (l liar) Len() int       { return int(l) }
func (liar) At(int) []float64 { panic("no draws here") }

// chain1 returns an *sgmcmc.Chain of dimension 1 holding x.
func chain1(x ...float64) *sgmcmc.Chain {
	return &sgmcmc.Chain{Dim: 1, Draws: x, Eps: make([]float64, len(x))}
}

// TestBadInputPlots is the package's catalogue of bad input: each case
// must not panic, and must fail with an error naming the true cause (a
// substring of the message), or give the documented value.
func TestBadInputPlots(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "f.png")
	ok2 := []draws{{{1, 2}, {3, 4}, {5, 6}}, {{2, 1}, {4, 3}, {6, 5}}}
	names := []string{"a", "b"}
	trace := func(chains []draws, j int) func() error {
		return func() error { _, err := Trace(chains, j, "x"); return err }
	}
	rank := func(chains []draws, j, bins int) func() error {
		return func() error { _, err := Rank(chains, j, "x", bins); return err }
	}
	density := func(chains []draws, j int) func() error {
		return func() error { _, err := Density(chains, j, "x"); return err }
	}
	traceChains := func(chains ...*sgmcmc.Chain) func() error {
		return func() error { _, err := Trace(chains, 0, "x"); return err }
	}
	long := make([]float64, 1_000_000)
	for i := range long {
		long[i] = math.Sin(float64(i))
	}
	long[777_777] = 50
	big := []float64{-1e308, 1e308, 0}
	for _, tc := range []struct {
		name string
		run  func() error
		want string // a substring of the error; "" if none is due
	}{
		// Missing, empty and ragged chains.
		{"Trace nil chains", trace(nil, 0), "Trace: no chains"},
		{"Rank no chains", rank([]draws{}, 0, 0), "Rank: no chains"},
		{"Density no chains", density([]draws{}, 0), "Density: no chains"},
		{"Trace nil chain", traceChains(chain1(1, 2), nil), "chain 1 is nil"},
		{"Rank nil draws", rank([]draws{nil}, 0, 0), "chain 0 has no draws"},
		{"Trace empty chain", traceChains(chain1()), "chain 0 has no draws"},
		{"Density unequal lengths", density([]draws{ok2[0], ok2[1][:2]}, 0), "chain 1 has 2 draws, chain 0 has 3"},
		{"Rank unequal lengths", rank([]draws{ok2[0][:1], ok2[1]}, 0, 0), "chain 1 has 3 draws, chain 0 has 1"},
		{"Trace ragged draws", trace([]draws{{{1, 2}, {3}}}, 0), "chain 0, draw 1 has dimension 1, chain 0 has 2"},
		{"Density ragged chains", density([]draws{{{1, 2}}, {{1}}}, 0), "chain 1, draw 0 has dimension 1"},
		{"Trace empty first draw", trace([]draws{{{}, {1}}}, 0), "draw 0 is empty"},
		{"Trace Chain shorter than its Eps", traceChains(&sgmcmc.Chain{Dim: 2, Draws: []float64{1}, Eps: []float64{1}}), "draw 0 is empty"},
		{"Trace second Chain shorter than its Eps", traceChains(chain1(1), &sgmcmc.Chain{Dim: 1, Eps: []float64{1}}), "chain 1, draw 0 has dimension 0"},
		{"Trace At panics", func() error { _, err := Trace([]liar{3}, 0, "x"); return err }, "a chain's Len or At panicked: no draws here"},
		{"Rank negative Len", func() error { _, err := Rank([]liar{-1}, 0, "x", 0); return err }, "chain 0 has Len() = -1"},
		{"SaveTrace At panics", func() error { return SaveTrace(png, []string{"a"}, []liar{2}, nil) }, "panicked"},
		// Coordinates and bins.
		{"Trace coordinate too large", trace(ok2, 2), "coordinate 2 out of range [0, 2)"},
		{"Density negative coordinate", density(ok2, -1), "coordinate -1 out of range"},
		{"Rank too many bins", rank(ok2, 0, 4), "4 bins for 3 draws"},
		{"Rank negative bins", rank(ok2, 0, -1), "-1 bins"},
		// Values.
		{"Trace NaN draw", trace([]draws{{{1, 2}, {3, math.NaN()}}}, 1), "chain 0, draw 1, coordinate 1 is NaN"},
		{"Rank Inf draw", rank([]draws{{{1}, {math.Inf(1)}}}, 0, 0), "coordinate 0 is +Inf"},
		{"Density -Inf draw", density([]draws{{{math.Inf(-1)}}}, 0), "is -Inf"},
		{"Trace range overflowing", traceChains(chain1(big...)), "the draws' range (-1e+308 to 1e+308) overflows float64"},
		{"Density spread overflowing", densityOf(big), "the draws' spread (-1e+308 to 1e+308) overflows float64"},
		{"Density near MaxFloat64", densityOf([]float64{1e308, 1.5e308, 1.7e308}), ""},
		{"Rank extremes", func() error { _, err := Rank([]*sgmcmc.Chain{chain1(big...)}, 0, "x", 0); return err }, ""},
		{"Density constant draws", density([]draws{{{1}, {1}}, {{1}, {1}}}, 0), ""},
		{"Density one draw", density([]draws{{{-3}}}, 0), ""},
		{"Trace one draw", trace([]draws{{{2}}}, 0), ""},
		{"Density subnormal draws", densityOf([]float64{5e-324, 1e-323, 0}), ""},
		// Long chains: decimated traces, binned densities.
		{"Trace long chain decimated", func() error {
			if _, err := Trace([]*sgmcmc.Chain{chain1(long...)}, 0, "x"); err != nil {
				return err
			}
			pts := decimate(long, TracePoints)
			top, at := math.Inf(-1), 0.0
			for _, q := range pts {
				if q.Y > top {
					top, at = q.Y, q.X
				}
			}
			if len(pts) > TracePoints || top != 50 || at != 777_778 {
				t.Errorf("%d points, the highest %v at draw %v; want at most %d, with 50 at draw 777778", len(pts), top, at, TracePoints)
			}
			return nil
		}, ""},
		{"Density long chain", densityOf(long), ""},
		// Figures.
		{"SaveTrace too few names", func() error { return SaveTrace(png, names[:1], ok2, nil) }, "1 names for draws of dimension 2"},
		{"SaveRank nil names", func() error { return SaveRank(png, nil, ok2, nil) }, "0 names for draws of dimension 2"},
		{"SaveDensity no chains", func() error { return SaveDensity(png, names, []draws{}, nil) }, "SaveDensity: no chains"},
		{"SaveTrace empty chain", func() error { return SaveTrace(png, names, []*sgmcmc.Chain{chain1()}, nil) }, "chain 0 has no draws"},
		{"SaveRank parameter out of range", func() error { return SaveRank(png, names, ok2, &Options{Params: []int{0, 3}}) }, "parameter 3 out of range [0, 2)"},
		{"SaveTrace no parameters", func() error { return SaveTrace(png, names, ok2, &Options{Params: []int{}}) }, "no panels"},
		{"SaveRank too many bins", func() error { return SaveRank(png, names, ok2, &Options{Bins: 10}) }, "10 bins for 3 draws"},
		{"SaveDensity NaN draw", func() error { return SaveDensity(png, []string{"a"}, []draws{{{math.NaN()}}}, nil) }, "is NaN"},
		{"SaveTrace unknown format", func() error { return SaveTrace(filepath.Join(dir, "f.xyz"), names, ok2, nil) }, "use .png, .svg or .pdf"},
		{"SaveTrace no extension", func() error { return SaveTrace(filepath.Join(dir, "f"), names, ok2, nil) }, "use .png, .svg or .pdf"},
		{"SaveTrace missing directory", func() error { return SaveTrace(filepath.Join(dir, "none", "f.png"), names, ok2, nil) }, "no such file or directory"},
		{"SaveTrace negative panel width", func() error { return SaveTrace(png, names, ok2, &Options{PanelWidth: -1}) }, "panel size -1 × 0"},
		{"SaveRank NaN panel height", func() error {
			return SaveRank(png, names, ok2, &Options{PanelHeight: vg.Length(math.NaN())})
		}, "panel size"},
		{"SaveTrace huge panels", func() error { return SaveTrace(png, names, ok2, &Options{PanelWidth: 1e6}) }, "larger than 10000 square inches"},
		{"SaveDensity infinite panels", func() error {
			return SaveDensity(png, names, ok2, &Options{PanelHeight: vg.Length(math.Inf(1))})
		}, "larger than 10000 square inches"},
		{"Save no panels", func() error { return Save(png, nil, 100, 100) }, "no panels"},
		{"Save zero panel size", func() error {
			p, _ := Trace(ok2, 0, "a")
			return Save(png, [][]*plot.Plot{{p}}, 0, 100)
		}, "panel size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			err := tc.run()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want one saying %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

// densityOf returns a case drawing the density of one chain of x.
func densityOf(x []float64) func() error {
	return func() error { _, err := Density([]*sgmcmc.Chain{chain1(x...)}, 0, "x"); return err }
}
