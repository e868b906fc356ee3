// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestFigure2Left runs the demo with a fifth of its steps and checks the
// paper's claims: the three complete-recipe samplers match both densities,
// and naive SGRHMC does not, converging instead to p·g^(1/2), which tilts
// its mass towards large g (θ > 0).
func TestFigure2Left(t *testing.T) {
	c := DefaultConfig()
	c.Steps = 100_000
	res, err := Experiment(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != len(targetNames)*len(samplerNames) {
		t.Fatalf("%d results, want %d", len(res), len(targetNames)*len(samplerNames))
	}
	for _, tn := range targetNames {
		for _, sn := range samplerNames {
			r := find(res, tn, sn)
			t.Logf("%-9s %-12s ε %-5g KL %.4f ESS %6.0f mean %+.3f", tn, sn, r.Eps, r.KL, r.ESS, r.Mean)
			if sn == "naive-SGRHMC" {
				continue
			}
			if r.KL > 0.02 {
				t.Errorf("%s on %s: KL %.4f > 0.02", sn, tn, r.KL)
			}
			// The mean's Monte Carlo error is below 0.02; gSGRHMC's
			// first-order bias at ε = 0.03 is about +0.045.
			if math.Abs(r.Mean) > 0.1 {
				t.Errorf("%s on %s: mean %.3f, want 0 within 0.1", sn, tn, r.Mean)
			}
		}
		naive, g := find(res, tn, "naive-SGRHMC"), find(res, tn, "gSGRHMC")
		if naive.KL < 3*g.KL || naive.KL < naive.NaiveLimitKL/2 {
			t.Errorf("%s: naive SGRHMC KL %.4f, want > 3 × gSGRHMC's %.4f and near its limit %.4f", tn, naive.KL, g.KL, naive.NaiveLimitKL)
		}
		if naive.Mean < 0.3 {
			t.Errorf("%s: naive SGRHMC mean %.3f, want the tilt of p·g^(1/2) (about +0.5)", tn, naive.Mean)
		}
	}
}

// TestNaiveLimit checks the closed form of naive SGRHMC's limit against
// the values the demo prints.
func TestNaiveLimit(t *testing.T) {
	for _, tn := range targetNames {
		kl := naiveLimitKL(target(tn))
		if kl < 0.15 || kl > 0.2 {
			t.Errorf("%s: KL of p·g^(1/2) is %.4f, want about 0.17–0.19", tn, kl)
		}
	}
}

// TestOutput checks the -json output (one object {"rows": [...]} with the
// documented keys, reproducible from the seed), the table and the plots on
// a tiny run.
func TestOutput(t *testing.T) {
	c := DefaultConfig()
	c.Steps, c.BurnIn, c.Thin = 2000, 100, 1
	var out [2]bytes.Buffer
	for i := range out {
		if err := run(context.Background(), &out[i], c, true, ""); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
		t.Error("same seed, different output")
	}
	dec := json.NewDecoder(bytes.NewReader(out[0].Bytes()))
	var got struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Error("more than one JSON value on stdout")
	}
	if len(got.Rows) != len(targetNames)*len(samplerNames) {
		t.Fatalf("%d rows, want %d", len(got.Rows), len(targetNames)*len(samplerNames))
	}
	for i, r := range got.Rows {
		tn, sn := targetNames[i/len(samplerNames)], samplerNames[i%len(samplerNames)]
		if r["target"] != tn || r["sampler"] != sn {
			t.Errorf("row %d: %v, %v; want %s, %s", i, r["target"], r["sampler"], tn, sn)
		}
		if kl, ok := r["kl"].(float64); !ok || !(kl >= 0) {
			t.Errorf("row %d: kl = %v", i, r["kl"])
		}
	}

	dir := t.TempDir()
	var table bytes.Buffer
	if err := run(context.Background(), &table, c, false, dir); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(table.Bytes(), []byte("naive-SGRHMC")) {
		t.Errorf("table lacks naive-SGRHMC:\n%s", table.String())
	}
	for _, f := range []string{"kl.png", "density_one-peak.png", "density_two-peaks.png"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("plot %s not written: %v", f, err)
		}
	}
}
