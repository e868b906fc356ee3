// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// TestHAMCMCLinearGaussianExample runs the experiment at a small size and
// checks its output: one JSON row per dimension and method with finite
// values, and the figures.
func TestHAMCMCLinearGaussianExample(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	cfg := config{n: 1000, fig1Iters: 400, dims: []int{4, 6}, iters: 300, seed: 2}
	if err := experiment(cfg, &out, io.Discard, dir); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Rows []map[string]any `json:"rows"`
	}
	dec := json.NewDecoder(&out)
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value")
	}
	want := map[float64][]string{
		2: {"SGLD", "pSGLD", "SGRLD", "HAMCMC-M2"},
		4: {"SGLD", "pSGLD", "SGRLD", "HAMCMC-M2", "HAMCMC-M3"},
		6: {"SGLD", "pSGLD", "SGRLD", "HAMCMC-M2", "HAMCMC-M3"},
	}
	n := 0
	for _, ms := range want {
		n += len(ms)
	}
	if len(got.Rows) != n {
		t.Fatalf("%d rows, want %d", len(got.Rows), n)
	}
	k := 0
	for _, d := range []float64{2, 4, 6} {
		for _, m := range want[d] {
			r := got.Rows[k]
			k++
			if len(r) != 5 {
				t.Errorf("row %v: keys, want D, method, iterations, seconds, error", r)
			}
			if r["D"] != d || r["method"] != m {
				t.Errorf("row %v, want D = %v, method %s", r, d, m)
			}
			iters := cfg.iters
			if d == 2 {
				iters = cfg.fig1Iters
			}
			if r["iterations"] != float64(iters) {
				t.Errorf("row %v: iterations, want %d", r, iters)
			}
			for _, key := range []string{"seconds", "error"} {
				v, ok := r[key].(float64)
				if !ok || !(v >= 0) || math.IsInf(v, 0) {
					t.Errorf("row %v: %s not a finite non-negative number", r, key)
				}
			}
		}
	}
	for _, f := range []string{"fig1_SGLD.png", "fig1_pSGLD.png", "fig1_SGRLD.png", "fig1_HAMCMC-M2.png",
		"fig2_D4_iterations.png", "fig2_D4_seconds.png", "fig2_D6_iterations.png", "fig2_D6_seconds.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("figure %s not written: %v", f, err)
		}
	}
}

// TestHAMCMCLinearGaussianPosterior checks the exact posterior against the
// model's gradient: ∇U vanishes at the mean and its Jacobian is the
// precision.
func TestHAMCMCLinearGaussianPosterior(t *testing.T) {
	p := newProblem(5, 300, 3)
	grad := func(th []float64) []float64 {
		g := make([]float64, p.d)
		p.model.LogPriorGrad(g, th)
		for i := range p.n {
			p.model.LogLikGrad(g, th, i, 1)
		}
		floats.Scale(-1, g)
		return g
	}
	if g := grad(p.mean); floats.Norm(g, math.Inf(1)) > 1e-9 {
		t.Errorf("∇U at the posterior mean = %v", g)
	}
	g0 := grad(p.mean)
	for j := range p.d {
		th := append([]float64(nil), p.mean...)
		th[j]++
		g := grad(th)
		for i := range p.d {
			if e := g[i] - g0[i] - p.prec.At(i, j); math.Abs(e) > 1e-8*(1+math.Abs(p.prec.At(i, j))) {
				t.Fatalf("precision[%d][%d] = %v, Jacobian of ∇U %v", i, j, p.prec.At(i, j), g[i]-g0[i])
			}
		}
	}
	var id mat.Dense
	id.Mul(p.prec, p.cov)
	for i := range p.d {
		for j := range p.d {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(id.At(i, j)-want) > 1e-9 {
				t.Fatalf("precision × covariance ≠ I at %d, %d: %v", i, j, id.At(i, j))
			}
		}
	}
}
