// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// refMAD is R's mad: 1.4826 × the median of |x − median(x)|, with R's
// median (the mean of the two middle values of an even count).
func refMAD(chains [][]float64) float64 {
	var all []float64
	for _, x := range chains {
		all = append(all, x...)
	}
	med := func(x []float64) float64 {
		s := append([]float64(nil), x...)
		sort.Float64s(s)
		n := len(s)
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	}
	m := med(all)
	dev := make([]float64, len(all))
	for i, v := range all {
		dev[i] = math.Abs(v - m)
	}
	return 1.4826 * med(dev)
}

func TestMAD(t *testing.T) {
	t.Parallel()
	s, err := diagnostics.Summarize([][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}})
	// median 4.5, deviations 0.5 ×2, 1.5 ×2, 2.5 ×2, 3.5 ×2: median 2.
	if err != nil || s.MAD != 1.4826*2 {
		t.Errorf("MAD of 1…8 = %v, %v; want %v", s.MAD, err, 1.4826*2)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{101, 200} {
		chains := ar1(rng, 3, n, 0.5, []float64{0, 0.3, -0.2})
		s, err := diagnostics.Summarize(chains)
		if want := refMAD(chains); err != nil || relErr(s.MAD, want) > 1e-14 {
			t.Errorf("%d draws per chain: MAD %v, %v; want %v", n, s.MAD, err, want)
		}
	}
}

func TestTable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	const k, n, d = 4, 100, 3
	chains := make([]diagnostics.Rows, k)
	for c := range chains {
		chains[c] = make(diagnostics.Rows, n)
		for i := range chains[c] {
			chains[c][i] = []float64{rng.NormFloat64(), 1e4 + rng.NormFloat64(), 1e-3 * rng.NormFloat64()}
		}
	}
	sums, err := diagnostics.SummarizeChains(chains)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := diagnostics.NewTable(nil, chains)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"theta.1", "theta.2", "theta.3"}
	if len(tab) != d {
		t.Fatalf("%d rows, want %d", len(tab), d)
	}
	for j, r := range tab {
		if r.Name != want[j] || r.Summary != sums[j] {
			t.Errorf("row %d: %q %v, want %q %v", j, r.Name, r.Summary, want[j], sums[j])
		}
	}
	named, err := diagnostics.NewTable([]string{"mu", "beta.1", "sigma"}, chains)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := named.Lookup("beta.1"); !ok || r.Summary != sums[1] {
		t.Errorf("Lookup(beta.1) = %v, %v; want %v", r, ok, sums[1])
	}
	if _, ok := named.Lookup("theta.1"); ok {
		t.Error("Lookup of an absent name succeeded")
	}

	// Printed: a header and one line per row, all of the same width, the
	// names left-aligned and the R̂ column right-aligned.
	text := named.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	t.Logf("\n%s", text)
	if len(lines) != d+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), d+1, text)
	}
	for i, l := range lines {
		if utf8.RuneCountInString(l) != utf8.RuneCountInString(lines[0]) {
			t.Errorf("line %d has width %d, the header %d:\n%s", i, utf8.RuneCountInString(l), utf8.RuneCountInString(lines[0]), text)
		}
	}
	if !strings.HasPrefix(lines[0], "variable") || !strings.HasSuffix(lines[0], "rhat") ||
		!strings.HasPrefix(lines[2], "beta.1 ") || !strings.Contains(lines[2], " 10000 ") {
		t.Errorf("unexpected layout:\n%s", text)
	}

	// As data: JSON rows with posterior's keys.
	b, err := json.Marshal(named)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]float64
	var names []struct{ Variable string }
	if err := json.Unmarshal(b, &names); err != nil {
		t.Fatal(err)
	}
	// Unmarshal into numbers only after dropping the name.
	_ = json.Unmarshal([]byte(strings.ReplaceAll(string(b), `"variable":"`, `"_":"`)), &rows)
	if len(names) != d || names[1].Variable != "beta.1" {
		t.Errorf("JSON names %v", names)
	}
	for _, key := range []string{"mean", "mcse_mean", "sd", "mad", "q5", "median", "q95", "ess_bulk", "ess_tail", "rhat"} {
		if _, ok := rows[0][key]; !ok {
			t.Errorf("JSON row lacks %q: %s", key, b)
		}
	}

	var ie *diagnostics.InputError
	for _, tc := range []struct {
		name  string
		names []string
	}{
		{"too few names", []string{"a", "b"}},
		{"repeated name", []string{"a", "b", "a"}},
		{"empty name", []string{"a", "", "c"}},
	} {
		if _, err := diagnostics.NewTable(tc.names, chains); !errors.As(err, &ie) {
			t.Errorf("%s: err = %v, want an *InputError", tc.name, err)
		}
	}
	if _, err := diagnostics.NewTable(nil, []diagnostics.Rows{chains[0][:3]}); !errors.As(err, &ie) {
		t.Errorf("3 draws: err = %v, want an *InputError", err)
	}
}

func TestIndexedNames(t *testing.T) {
	t.Parallel()
	got := strings.Join(diagnostics.IndexedNames("beta", 3), ",")
	if got != "beta.1,beta.2,beta.3" {
		t.Errorf("IndexedNames(beta, 3) = %s", got)
	}
	if len(diagnostics.IndexedNames("x", 0)) != 0 {
		t.Error("IndexedNames(x, 0) not empty")
	}
}

func ExampleNewTable() {
	rng := rand.New(rand.NewPCG(1, 2))
	chains := make([]diagnostics.Rows, 4)
	for c := range chains {
		for range 1000 {
			chains[c] = append(chains[c], []float64{rng.NormFloat64(), 2 + 0.5*rng.NormFloat64()})
		}
	}
	t, _ := diagnostics.NewTable([]string{"mu", "sigma"}, chains)
	fmt.Print(t)
	// Output:
	// variable      mean    mcse      sd     mad      q5    median    q95  ess_bulk  ess_tail   rhat
	// mu        0.004616   0.016   1.006   1.004  -1.631  0.005752  1.655      4170      3728  1.000
	// sigma        2.000  0.0078  0.5009  0.5090   1.177     2.002  2.808      4150      3689  1.001
}
