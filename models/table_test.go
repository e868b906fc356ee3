// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/dataset"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// asTable returns g's rows as a Memory table and a float64 File of the
// same rows (the response in column 1, the predictors around it), with
// g's Y, X and Groups cleared.
func asTable(t *testing.T, g GLM) (GLM, *dataset.Memory, *dataset.File) {
	t.Helper()
	n, p := g.X.Dims()
	c := p + 1
	vals := make([]float64, 0, n*c)
	names := []string{"x1", "y"}
	for j := 2; j <= p; j++ {
		names = append(names, "x"+string(rune('0'+j)))
	}
	path := filepath.Join(t.TempDir(), "glm.bin")
	w, err := dataset.Create(path, names, 8)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		row := []float64{g.X.At(i, 0), g.Y[i]}
		for j := 1; j < p; j++ {
			row = append(row, g.X.At(i, j))
		}
		vals = append(vals, row...)
		if err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mem, err := dataset.NewMemory(vals, c)
	if err != nil {
		t.Fatal(err)
	}
	f, err := dataset.Open(path, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	tg := g
	tg.Y, tg.X, tg.Groups = nil, nil, nil
	tg.Response = 1
	return tg, mem, f
}

// TestTableMatchesMemory: a GLM over a Table (in memory or a file) is the
// GLM over the same Y and X: the same priors, start and names, the same
// gradients and log densities to rounding (minibatches, a full pass's
// runs, single rows; the horseshoe's too), CheckModel passes, a warm
// minibatch gradient allocates nothing, and sample.Run draws the same
// bits.
func TestTableMatchesMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, fl := range []struct {
		f Family
		l Link
	}{{Bernoulli, Logit}, {Gaussian, Identity}, {Poisson, LogLink}, {StudentT, Identity}} {
		for _, hs := range []bool{false, true} {
			g := simulate(fl.f, fl.l, 9000, 3, 1, false, 5)
			g.Groups = nil
			if hs {
				g.Horseshoe = &Horseshoe{Expected: 1}
			}
			mm, err := NewGLM(g)
			if err != nil {
				t.Fatal(err)
			}
			tg, mem, f := asTable(t, g)
			for _, tb := range []dataset.Table{mem, f} {
				tg.Table = tb
				tm, err := NewGLM(tg)
				if err != nil {
					t.Fatalf("%v: %v", fl.f, err)
				}
				what := fl.f.String() + " memory"
				if _, ok := tb.(*dataset.File); ok {
					what = fl.f.String() + " file"
				}
				if tm.Describe() != mm.Describe() || !slices.Equal(tm.Start(), mm.Start()) || !slices.Equal(tm.Names(), mm.Names()) {
					t.Fatalf("%s: the table model is not the in-memory one:\n%s\n%v\nwant\n%s\n%v", what, tm.Describe(), tm.Start(), mm.Describe(), mm.Start())
				}
				x := randomPoint(tm, r)
				for _, idx := range [][]int{r.Perm(9000)[:300], seq(100, 8200), {17}} {
					want, got := make([]float64, mm.Dim()), make([]float64, mm.Dim())
					mm.LogLikGradBatch(want, x, idx, 2)
					tm.LogLikGradBatch(got, x, idx, 2)
					for j := range want {
						if math.Abs(got[j]-want[j]) > 1e-11*(1+math.Abs(want[j])) {
							t.Fatalf("%s hs %v, %d rows: gradient %v, want %v", what, hs, len(idx), got, want)
						}
					}
				}
				if a, b := tm.LogLik(x, 123), mm.LogLik(x, 123); math.Abs(a-b) > 1e-12*(1+math.Abs(b)) {
					t.Errorf("%s: LogLik %v, want %v", what, a, b)
				}
				if _, err := sgmcmc.CheckModel(tm, x, nil); err != nil {
					t.Errorf("%s hs %v: CheckModel: %v", what, hs, err)
				}
				if !raceEnabled {
					idx, dst := r.Perm(9000)[:500], make([]float64, tm.Dim())
					tm.LogLikGradBatch(dst, x, idx, 1)
					if a := testing.AllocsPerRun(20, func() { tm.LogLikGradBatch(dst, x, idx, 1) }); a != 0 {
						t.Errorf("%s: %v allocations a minibatch gradient", what, a)
					}
				}
			}
		}
	}
	// sample.Run: the same draws from memory and from the file.
	g := simulate(Bernoulli, Logit, 20000, 3, 1, false, 6)
	g.Groups = nil
	mm, err := NewGLM(g)
	if err != nil {
		t.Fatal(err)
	}
	tg, _, f := asTable(t, g)
	tg.Table = f
	tm, err := NewGLM(tg)
	if err != nil {
		t.Fatal(err)
	}
	var draws [2][]float64
	for k, m := range []*Model{mm, tm} {
		p, err := m.Problem()
		if err != nil {
			t.Fatal(err)
		}
		res, err := sample.Run(context.Background(), p, m.Start(), &sample.Settings{Seed: 4, Draws: 100, Chains: 2}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Chains {
			draws[k] = append(draws[k], c.Draws...)
		}
	}
	if !slices.Equal(draws[0], draws[1]) {
		t.Errorf("sample.Run draws differ between the in-memory GLM and the same rows from a file")
	}
}

// seq returns lo, lo+1, …, hi−1.
func seq(lo, hi int) []int {
	s := make([]int, hi-lo)
	for i := range s {
		s[i] = lo + i
	}
	return s
}

// TestTableBadInput: a Table model's bad data and settings are errors
// naming the row and column, or the setting.
func TestTableBadInput(t *testing.T) {
	g := simulate(Bernoulli, Logit, 50, 2, 1, false, 1)
	g.Groups = nil
	tg, _, _ := asTable(t, g)
	vals := make([]float64, 50*3)
	for i := range 50 {
		vals[3*i+1] = float64(i % 2)
	}
	vals[3*7+1] = 0.5 // a response Bernoulli cannot take
	bad, _ := dataset.NewMemory(vals, 3)
	nan := slices.Clone(vals)
	nan[3*7+1] = 0
	nan[3*9+2] = math.NaN()
	withNaN, _ := dataset.NewMemory(nan, 3)
	good, _ := dataset.NewMemory(func() []float64 { v := slices.Clone(nan); v[3*9+2] = 1; return v }(), 3)
	for _, c := range []struct {
		name  string
		g     GLM
		want  error
		words string
	}{
		{"bad response", GLM{Family: Bernoulli, Table: bad, Response: 1}, sgmcmc.ErrRange, "Y[7]"},
		{"NaN predictor", GLM{Family: Bernoulli, Table: withNaN, Response: 1}, sgmcmc.ErrNonFinite, "row 9"},
		{"response column", GLM{Family: Bernoulli, Table: good, Response: 3}, sgmcmc.ErrRange, "Response column 3"},
		{"predictor twice", GLM{Family: Bernoulli, Table: good, Response: 1, Predictors: []int{0, 0}}, sgmcmc.ErrRange, "Predictors"},
		{"Y and Table", GLM{Family: Bernoulli, Table: good, Response: 1, Y: g.Y}, sgmcmc.ErrRange, "give the data once"},
		{"weights", GLM{Family: Bernoulli, Table: good, Response: 1, Weights: make([]float64, 50)}, sgmcmc.ErrUnsupported, "Weights"},
		{"binomial", GLM{Family: Binomial, Table: good, Response: 1}, sgmcmc.ErrUnsupported, "Binomial"},
		{"names", GLM{Family: Bernoulli, Table: tg.Table, Response: 1, Names: []string{"a"}}, sgmcmc.ErrDimension, "Names"},
	} {
		if c.g.Table == nil {
			continue
		}
		_, err := NewGLM(c.g)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%s: %v, want an error wrapping %v saying %q", c.name, err, c.want, c.words)
		}
	}
}
