// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"bufio"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// TestOwnModel runs the program in a temporary directory and checks what
// doc.go claims: four CSV files of 1000 draws that read back to the
// printed summary, means within 4 posterior sds of the truth, sds within
// 10 % of the Laplace approximation's, R̂ < 1.01, no warnings, and the
// program under 40 lines.
func TestOwnModel(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(src), "\n") - 4; n > 40 {
		t.Errorf("main.go has %d lines after the licence header, want at most 40", n)
	}
	t.Chdir(t.TempDir())
	stdout := os.Stdout
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	main()
	w.Close()
	os.Stdout = stdout
	out := <-done
	t.Logf("output:\n%s", out)

	files, _ := filepath.Glob("counts-*.csv")
	chains, err := stancsv.ReadFiles(files...)
	if err != nil || len(chains) != 4 {
		t.Fatalf("%d chain files read (%v), want 4", len(chains), err)
	}
	table, err := diagnostics.NewTable(chains[0].Names, chains)
	if err != nil {
		t.Fatal(err)
	}
	truth := map[string]float64{"a": 0.5, "b": 0.8}
	laplace := map[string]float64{"a": 0.0288, "b": 0.0220}
	sc := bufio.NewScanner(strings.NewReader(out))
	seen := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 7 || f[1] != "mean" {
			if len(f) > 0 && f[0] == "warnings:" && sc.Text() != "warnings: none" {
				t.Errorf("Sample warns: %s", sc.Text())
			}
			continue
		}
		row, ok := table.Lookup(f[0])
		if !ok {
			t.Fatalf("printed parameter %q is not in the files", f[0])
		}
		seen++
		mean, _ := strconv.ParseFloat(f[2], 64)
		sd, _ := strconv.ParseFloat(f[6], 64)
		if math.Abs(mean-row.Mean) > 1e-3*math.Abs(row.Mean) || math.Abs(sd-row.SD) > 1e-3*row.SD {
			t.Errorf("%s: printed mean %v sd %v, the files give %v %v", f[0], mean, sd, row.Mean, row.SD)
		}
		if math.Abs(row.Mean-truth[f[0]]) > 4*row.SD {
			t.Errorf("%s: posterior mean %v, %v sds from the truth %v", f[0], row.Mean, math.Abs(row.Mean-truth[f[0]])/row.SD, truth[f[0]])
		}
		if math.Abs(row.SD/laplace[f[0]]-1) > 0.1 {
			t.Errorf("%s: sd %v, Laplace %v", f[0], row.SD, laplace[f[0]])
		}
		if !(row.RHat < 1.01) || chains[0].Len() != 1000 {
			t.Errorf("%s: R̂ = %v, %d draws per chain", f[0], row.RHat, chains[0].Len())
		}
	}
	if seen != 2 {
		t.Errorf("%d summary lines printed, want 2", seen)
	}
}
