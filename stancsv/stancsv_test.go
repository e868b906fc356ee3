// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// hardValues are float64 values whose text forms are easy to get wrong.
var hardValues = []float64{
	0, math.Copysign(0, -1), 0.1, 1.0 / 3, math.Pi, -2.5e-310, 5e-324,
	math.MaxFloat64, -math.SmallestNonzeroFloat64, 1e21, 123456789012345678,
	math.Nextafter(1, 2), math.Inf(1), math.Inf(-1),
}

// randomChain returns a chain of n draws of d parameters whose values run
// over many magnitudes, with hardValues among them.
func randomChain(rng *rand.Rand, n, d int, lp bool) *stancsv.Chain {
	c := &stancsv.Chain{
		Comments: []stancsv.Comment{{"sampler", "SGHMC"}, {"seed", "42"}, {"friction", "50"}, {"adapted step size", "0.0012345678901234567"}, {"note", ""}},
		Names:    diagnostics.IndexedNames("beta", d),
		Draws:    make([]float64, n*d),
		StepSize: make([]float64, n),
	}
	c.Divergent = make([]bool, n)
	for i := range c.Draws {
		c.Draws[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
	}
	copy(c.Draws, hardValues)
	for i := range n {
		c.StepSize[i] = rng.Float64() * 1e-3
		c.Divergent[i] = rng.IntN(7) == 0
	}
	if lp {
		c.LogDensity = make([]float64, n)
		for i := range n {
			c.LogDensity[i] = -1e4 * rng.Float64()
		}
		c.LogDensity[0] = math.Inf(-1)
	}
	return c
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func sameChain(t *testing.T, got, want *stancsv.Chain) {
	t.Helper()
	if !slices.Equal(got.Comments, want.Comments) {
		t.Errorf("comments %q, want %q", got.Comments, want.Comments)
	}
	if !slices.Equal(got.Names, want.Names) {
		t.Errorf("names %q, want %q", got.Names, want.Names)
	}
	if !sameFloats(got.Draws, want.Draws) {
		t.Errorf("draws differ")
	}
	if !sameFloats(got.LogDensity, want.LogDensity) {
		t.Errorf("lp__ differs: %v, want %v", got.LogDensity, want.LogDensity)
	}
	if !sameFloats(got.StepSize, want.StepSize) {
		t.Errorf("stepsize__ differs")
	}
	if !slices.Equal(got.Divergent, want.Divergent) {
		t.Errorf("divergent__ differs")
	}
	if len(got.Extra) != len(want.Extra) {
		t.Fatalf("%d extra columns, want %d", len(got.Extra), len(want.Extra))
	}
	for k := range got.Extra {
		if got.Extra[k].Name != want.Extra[k].Name || !sameFloats(got.Extra[k].Values, want.Extra[k].Values) {
			t.Errorf("extra column %d: %v, want %v", k, got.Extra[k], want.Extra[k])
		}
	}
}

// TestRoundTrip writes chains and reads them back bit for bit.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		c    *stancsv.Chain
	}{
		{"with lp__", randomChain(rng, 50, 7, true)},
		{"without lp__", randomChain(rng, 30, 20, false)},
		{"one parameter, no draws", &stancsv.Chain{Names: []string{"sigma"}, Divergent: []bool{}}},
		{"extra columns", func() *stancsv.Chain {
			c := randomChain(rng, 10, 2, false)
			c.Extra = []stancsv.Column{{Name: "accept_stat__", Values: make([]float64, 10)}, {Name: "energy__", Values: hardValues[:10]}}
			return c
		}()},
	} {
		var buf bytes.Buffer
		if err := stancsv.Write(&buf, tc.c); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := stancsv.Read(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sameChain(t, got, tc.c)
		if got.Len() != tc.c.Len() {
			t.Errorf("%s: %d draws, want %d", tc.name, got.Len(), tc.c.Len())
		}
	}
	// A chain without step sizes or divergences: no stepsize__ column,
	// divergent__ all zero.
	c := &stancsv.Chain{Names: []string{"a", "b"}, Draws: []float64{1, 2, 3, 4}}
	var buf bytes.Buffer
	if err := stancsv.Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	if want := "divergent__,a,b\n0,1,2\n0,3,4\n"; buf.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteFileReadFiles(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	var files []string
	var chains []*stancsv.Chain
	for k := range 3 {
		c := randomChain(rng, 20+k, 4, true)
		f := filepath.Join(dir, "chain-"+string(rune('1'+k))+".csv")
		if err := stancsv.WriteFile(f, c); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		chains = append(chains, c)
	}
	got, err := stancsv.ReadFiles(files...)
	if err != nil {
		t.Fatal(err)
	}
	for k := range got {
		sameChain(t, got[k], chains[k])
	}
	if v, ok := got[0].Lookup("seed"); !ok || v != "42" {
		t.Errorf("Lookup(seed) = %q, %v", v, ok)
	}
	other := &stancsv.Chain{Names: []string{"beta.1", "beta.2", "beta.3", "gamma"}, Draws: make([]float64, 8)}
	f := filepath.Join(dir, "other.csv")
	if err := stancsv.WriteFile(f, other); err != nil {
		t.Fatal(err)
	}
	if _, err := stancsv.ReadFiles(files[0], f); err == nil || !strings.Contains(err.Error(), "other.csv") {
		t.Errorf("files with different parameters: err = %v", err)
	}
	if _, err := stancsv.ReadFiles(filepath.Join(dir, "absent.csv")); err == nil {
		t.Error("absent file: no error")
	}
	if _, err := stancsv.ReadFiles(); err == nil {
		t.Error("no files: no error")
	}
}

// TestReadCmdStan reads the layout CmdStan writes: indented comments,
// sampler columns of NUTS, an adaptation block after the header and timing
// comments at the end.
func TestReadCmdStan(t *testing.T) {
	t.Parallel()
	const file = `# stan_version_major = 2
# model = bernoulli_model
# method = sample (Default)
#   sample
#     num_samples = 2
#     adapt
#       delta = 0.8 (Default)
# 
lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,divergent__,energy__,theta,beta.1,beta.2
# Adaptation terminated
# Step size = 0.932037
# Diagonal elements of inverse mass matrix:
# 0.591014
-7.10025,0.883512,0.932037,1,3,0,7.21463,0.373617,1.5,-2
-6.79166,1,0.932037,1,1,1,7.02883,0.289963,nan,inf

# 
#  Elapsed Time: 0.005 seconds (Warm-up)
`
	c, err := stancsv.Read(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Names, []string{"theta", "beta.1", "beta.2"}) || c.Len() != 2 {
		t.Fatalf("names %q, %d draws", c.Names, c.Len())
	}
	if !sameFloats(c.LogDensity, []float64{-7.10025, -6.79166}) || !sameFloats(c.StepSize, []float64{0.932037, 0.932037}) ||
		!slices.Equal(c.Divergent, []bool{false, true}) {
		t.Errorf("lp__ %v, stepsize__ %v, divergent__ %v", c.LogDensity, c.StepSize, c.Divergent)
	}
	if x := c.At(1); x[0] != 0.289963 || !math.IsNaN(x[1]) || !math.IsInf(x[2], 1) {
		t.Errorf("draw 1 = %v", x)
	}
	var extra []string
	for _, col := range c.Extra {
		extra = append(extra, col.Name)
	}
	if !slices.Equal(extra, []string{"accept_stat__", "treedepth__", "n_leapfrog__", "energy__"}) || c.Extra[2].Values[0] != 3 {
		t.Errorf("extra columns %v", c.Extra)
	}
	for key, want := range map[string]string{"model": "bernoulli_model", "num_samples": "2", "Step size": "0.932037", "sample": ""} {
		if v, ok := c.Lookup(key); !ok || v != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", key, v, ok, want)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	good := func() *stancsv.Chain {
		return &stancsv.Chain{Names: []string{"a", "b"}, Draws: []float64{1, 2, 3, 4}, StepSize: []float64{1, 1}}
	}
	for _, tc := range []struct {
		name string
		edit func(c *stancsv.Chain)
	}{
		{"no names", func(c *stancsv.Chain) { c.Names = nil }},
		{"empty name", func(c *stancsv.Chain) { c.Names[1] = "" }},
		{"comma in a name", func(c *stancsv.Chain) { c.Names[1] = "b,c" }},
		{"repeated name", func(c *stancsv.Chain) { c.Names[1] = "a" }},
		{"sampler-column name", func(c *stancsv.Chain) { c.Names[1] = "lp__" }},
		{"ragged draws", func(c *stancsv.Chain) { c.Draws = c.Draws[:3] }},
		{"short step sizes", func(c *stancsv.Chain) { c.StepSize = c.StepSize[:1] }},
		{"long lp__", func(c *stancsv.Chain) { c.LogDensity = []float64{1, 2, 3} }},
		{"short divergent__", func(c *stancsv.Chain) { c.Divergent = []bool{true} }},
		{"extra without __", func(c *stancsv.Chain) { c.Extra = []stancsv.Column{{Name: "energy", Values: []float64{1, 2}}} }},
		{"short extra", func(c *stancsv.Chain) { c.Extra = []stancsv.Column{{Name: "energy__", Values: []float64{1}}} }},
		{"line break in a comment", func(c *stancsv.Chain) { c.Comments = []stancsv.Comment{{"a", "b\nc"}} }},
		{"empty comment key", func(c *stancsv.Chain) { c.Comments = []stancsv.Comment{{"", "b"}} }},
		{"' = ' in a comment key", func(c *stancsv.Chain) { c.Comments = []stancsv.Comment{{"a = b", "c"}} }},
	} {
		c := good()
		tc.edit(c)
		if err := stancsv.Write(&bytes.Buffer{}, c); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if err := stancsv.Write(&bytes.Buffer{}, good()); err != nil {
		t.Errorf("good chain: %v", err)
	}
	if err := stancsv.Write(&bytes.Buffer{}, nil); err == nil {
		t.Error("nil chain: no error")
	}
}

func TestReadErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		line       int
	}{
		{"empty", "", 0},
		{"comments only", "# a = b\n", 1},
		{"too few values", "a,b\n1,2\n3\n", 3},
		{"too many values", "a,b\n1,2,3\n", 2},
		{"not a number", "# x\na,b\n1,2\n1,two\n", 4},
		{"repeated column", "a,b,a\n", 1},
		{"empty column name", "a,,b\n", 1},
		{"sampler columns only", "lp__,stepsize__\n1,2\n", 1},
	} {
		_, err := stancsv.Read(strings.NewReader(tc.text))
		var pe *stancsv.ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line {
			t.Errorf("%s: err = %v, want a *ParseError at line %d", tc.name, err, tc.line)
		}
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(f, []byte("# a\nx,y\n1,2\n1,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := stancsv.ReadFile(f); err == nil || !strings.Contains(err.Error(), "bad.csv:4: column 2 (y)") {
		t.Errorf("bad number: err = %v, want it to name bad.csv:4 and column 2 (y)", err)
	}
	if _, err := stancsv.ReadFile(filepath.Join(dir, "missing.csv")); err == nil {
		t.Error("missing file: no error")
	}
}
