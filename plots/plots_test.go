// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots

import (
	"flag"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"gonum.org/v1/plot"
)

var keep = flag.String("keep", "", "write the test figures to this directory, to look at them")

// rows is a chain of draws held as one slice per draw.
type rows [][]float64

func (r rows) Len() int           { return len(r) }
func (r rows) At(i int) []float64 { return r[i] }

// testChains returns 4 chains of n draws of 3 parameters: an AR(1)
// process, a heavy-tailed one, and one whose chain 4 is shifted 1.5
// standard deviations above the others.
func testChains(n int) []rows {
	rng := rand.New(rand.NewPCG(1, 2))
	chains := make([]rows, 4)
	for c := range chains {
		ar := rng.NormFloat64()
		for range n {
			ar = 0.8*ar + 0.6*rng.NormFloat64()
			stuck := rng.NormFloat64()
			if c == 3 {
				stuck = 1.5 + rng.NormFloat64()
			}
			chains[c] = append(chains[c], []float64{ar, rng.NormFloat64() / rng.NormFloat64(), stuck})
		}
	}
	return chains
}

func TestPooledRanks(t *testing.T) {
	got := pooledRanks([][]float64{{3, 1, 2}, {2, 5, 0}})
	want := [][]float64{{5, 2, 3.5}, {3.5, 6, 1}}
	for c := range want {
		for i := range want[c] {
			if got[c][i] != want[c][i] {
				t.Fatalf("ranks %v, want %v", got, want)
			}
		}
	}
}

// TestRankCounts checks the histograms of Rank: every draw counted once,
// flat for mixed chains, piled at the top for a chain stuck above.
func TestRankCounts(t *testing.T) {
	chains := testChains(1000)
	for j, wantFlat := range []bool{true, true, false} {
		cols, err := column("test", chains, j)
		if err != nil {
			t.Fatal(err)
		}
		for c, counts := range rankCounts(cols, 10) {
			var total float64
			for _, k := range counts {
				total += k
			}
			top := counts[len(counts)-1]
			if total != 1000 || len(counts) != 10 {
				t.Errorf("coordinate %d, chain %d: %v draws in %d bins, want 1000 in 10", j, c, total, len(counts))
			}
			// Expected 100 per bin; a stuck chain piles far more on top.
			stuck := !wantFlat && c == 3
			if stuck != (top > 250) {
				t.Errorf("coordinate %d, chain %d: %v draws in the top bin", j, c, top)
			}
		}
		if _, err := Rank(chains, j, "x", 0); err != nil {
			t.Error(err)
		}
	}
	if _, err := Rank(chains, 0, "x", 1001); err == nil {
		t.Error("1001 bins for 1000 draws: no error")
	}
}

// TestDensity checks that each chain's density estimate integrates to
// about 1 and peaks near the mode.
func TestDensity(t *testing.T) {
	chains := testChains(2000)
	cols, err := column("test", chains, 0)
	if err != nil {
		t.Fatal(err)
	}
	for c, x := range cols {
		sorted := append([]float64(nil), x...)
		sort.Float64s(sorted)
		bw := bandwidth(sorted)
		l := densityCurve(x, sorted[0]-3*bw, sorted[len(x)-1]+3*bw, bw)
		var area, peak, argmax float64
		for k := 1; k < len(l); k++ {
			area += (l[k].X - l[k-1].X) * (l[k].Y + l[k-1].Y) / 2
			if l[k].Y > peak {
				peak, argmax = l[k].Y, l[k].X
			}
		}
		if math.Abs(area-1) > 0.01 || math.Abs(argmax) > 0.5 {
			t.Errorf("chain %d: area %v, mode at %v; want 1 and 0", c, area, argmax)
		}
	}
	if _, err := Density(chains, 0, "ar"); err != nil {
		t.Error(err)
	}
	// Constant draws still give a plot.
	flat := []rows{{{1}, {1}, {1}}, {{1}, {1}, {1}}}
	if _, err := Density(flat, 0, "c"); err != nil {
		t.Errorf("constant draws: %v", err)
	}
}

func TestSave(t *testing.T) {
	chains := testChains(300)
	dir := *keep
	if dir == "" {
		dir = t.TempDir()
	}
	names := []string{"ar", "cauchy", "stuck"}
	files := map[string]func(string) error{
		"trace.png": func(f string) error {
			return SaveTrace(f, names, chains, &Options{Title: "Trace plots: chain 4 of stuck is stuck"})
		},
		"rank.png":    func(f string) error { return SaveRank(f, names, chains, &Options{Title: "Rank plots"}) },
		"density.png": func(f string) error { return SaveDensity(f, names, chains, nil) },
		"rank1.svg":   func(f string) error { return SaveRank(f, names, chains, &Options{Params: []int{2}, Bins: 10}) },
	}
	for name, save := range files {
		if testing.Short() && name != "rank.png" {
			continue // drawing is slow under -race
		}
		f := filepath.Join(dir, name)
		if err := save(f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if filepath.Ext(name) != ".png" {
			continue
		}
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() < 400 || b.Dy() < 150 {
			t.Errorf("%s: %v pixels", name, b)
		}
	}
	for what, err := range map[string]error{
		"too few names":  SaveTrace(filepath.Join(dir, "x.png"), names[:2], chains, nil),
		"bad parameter":  SaveRank(filepath.Join(dir, "x.png"), names, chains, &Options{Params: []int{3}}),
		"no chains":      SaveDensity(filepath.Join(dir, "x.png"), names, []rows{}, nil),
		"unknown format": SaveTrace(filepath.Join(dir, "x.xyz"), names, chains, nil),
		"unequal chains": SaveTrace(filepath.Join(dir, "x.png"), names, []rows{chains[0], chains[1][:10]}, nil),
		"no panels":      Save(filepath.Join(dir, "x.png"), [][]*plot.Plot{}, 100, 100),
		"NaN draw":       SaveTrace(filepath.Join(dir, "x.png"), names, []rows{{{1, 2, math.NaN()}}}, nil),
	} {
		if err == nil {
			t.Errorf("%s: no error", what)
		}
	}
}
