// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/sample"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
)

// reference runs every chain in one process, as a user without a cluster
// would: sample.Run of all K chains, or sgmcmc.RunChains; it returns
// the chains and the run's own summary.
func reference(t *testing.T, c Config) ([]*sgmcmc.Chain, diagnostics.Table) {
	t.Helper()
	m := newModel()
	if c.Method == "sghmc" {
		chains, err := sgmcmc.RunChains(context.Background(), c.Chains, c.Seed, newSGHMC(m), sghmcOptions(c.Draws))
		if err != nil {
			t.Fatal(err)
		}
		table, err := diagnostics.NewTable(names, chains)
		if err != nil {
			t.Fatal(err)
		}
		return chains, table
	}
	res, err := sample.Run(context.Background(), sample.Problem{Model: m, Names: names}, make([]float64, 3),
		&sample.Settings{Chains: c.Chains, Draws: c.Draws, Seed: c.Seed}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var table diagnostics.Table
	for _, p := range res.Summary {
		table = append(table, diagnostics.Row{Name: p.Name, Summary: p.Summary})
	}
	return res.Chains, table
}

// sameDraws fails unless the merged chains hold exactly the reference's
// draws and step sizes, bit for bit.
func sameDraws(t *testing.T, merged []*stancsv.Chain, ref []*sgmcmc.Chain) {
	t.Helper()
	if len(merged) != len(ref) {
		t.Fatalf("%d merged chains, %d in the reference", len(merged), len(ref))
	}
	for k, ch := range merged {
		r := ref[k]
		if ch.Len() != r.Len() {
			t.Fatalf("chain %d: %d draws merged, %d in the reference", k, ch.Len(), r.Len())
		}
		for i, v := range ch.Draws {
			if v != r.Draws[i] {
				t.Fatalf("chain %d differs from the single-process run at value %d: %v, want %v", k, i, v, r.Draws[i])
			}
		}
		for i, v := range ch.StepSize {
			if v != r.Eps[i] {
				t.Fatalf("chain %d: step size %d is %v, want %v", k, i, v, r.Eps[i])
			}
		}
	}
}

// sameTable fails unless two summary tables are identical.
func sameTable(t *testing.T, got, want diagnostics.Table) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for j := range got {
		if got[j] != want[j] {
			t.Errorf("row %d:\n got %+v\nwant %+v", j, got[j], want[j])
		}
	}
}

// TestMergeEqualsOneProcess: K = 3 chains run one at a time (as three
// processes would run them, here in-process), written, read back and
// merged, equal a single-process run of all three bit for bit, and the
// merged summary equals that run's own summary exactly; for sample.Run
// (ChainIDs) and for RunChains (Run of newSampler(k, ChainSource(seed, k))).
func TestMergeEqualsOneProcess(t *testing.T) {
	for _, method := range []string{"sample", "sghmc"} {
		t.Run(method, func(t *testing.T) {
			c := Config{Method: method, Chains: 3, Seed: 7, Draws: 200}
			if testing.Short() {
				c.Draws = 50
			}
			dir := t.TempDir()
			m := newModel()
			for _, k := range []int{2, 0, 1} {
				c.Chain = k
				ch, _, err := RunChain(context.Background(), c, m)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := writeChain(dir, k, ch); err != nil {
					t.Fatal(err)
				}
			}
			files, err := chainFiles(dir)
			if err != nil {
				t.Fatal(err)
			}
			merged, table, err := Merge(files)
			if err != nil {
				t.Fatal(err)
			}
			ref, refTable := reference(t, c)
			sameDraws(t, merged, ref)
			sameTable(t, table, refTable)
			if testing.Short() {
				return
			}
			// And RunAll, what -all runs, is that reference.
			all, allTable, err := RunAll(context.Background(), c, m)
			if err != nil {
				t.Fatal(err)
			}
			sameTable(t, allTable, refTable)
			for k := range all {
				if len(all[k].Draws) != len(merged[k].Draws) || all[k].Draws[0] != merged[k].Draws[0] || all[k].LogDensity[5] != merged[k].LogDensity[5] {
					t.Fatalf("RunAll's chain %d differs from the merged one", k)
				}
			}
		})
	}
}

// TestProcesses builds the program and runs K = 3 real processes, taking
// their chain index from -chain, from a Slurm job array's
// SLURM_ARRAY_TASK_ID and from a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX; then -merge -json. The files hold the
// single-process draws bit for bit and the printed summary is the
// single-process summary.
func TestProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the program; skipped in -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the program with")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "chains")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SLURM_ARRAY_TASK_ID=") && !strings.HasPrefix(e, "JOB_COMPLETION_INDEX=") {
			env = append(env, e)
		}
	}
	dir := filepath.Join(tmp, "out")
	common := []string{"-chains", "3", "-seed", "7", "-draws", "200", "-out", dir}
	procs := []struct {
		args []string
		env  string
	}{
		{[]string{"-chain", "0"}, ""},
		{nil, "SLURM_ARRAY_TASK_ID=1"},
		{nil, "JOB_COMPLETION_INDEX=2"},
	}
	cmds := make([]*exec.Cmd, len(procs))
	outs := make([]*strings.Builder, len(procs))
	for i, p := range procs {
		cmds[i] = exec.Command(bin, append(p.args, common...)...)
		cmds[i].Env = env
		if p.env != "" {
			cmds[i].Env = append(env, p.env)
		}
		outs[i] = new(strings.Builder)
		cmds[i].Stderr = outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i])
		}
	}
	for i, want := range []string{"chain 0 of 3 (index from -chain)", "chain 1 of 3 (index from SLURM_ARRAY_TASK_ID)", "chain 2 of 3 (index from JOB_COMPLETION_INDEX)"} {
		if !strings.Contains(outs[i].String(), want) {
			t.Errorf("process %d says %q, want %q", i, outs[i], want)
		}
	}
	cmd := exec.Command(bin, "-merge", "-json", "-out", dir)
	cmd.Env = env
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("-merge: %v", err)
	}
	var got struct{ Rows diagnostics.Table }
	if err := json.Unmarshal(stdout, &got); err != nil {
		t.Fatalf("-merge -json: %v\n%s", err, stdout)
	}
	files, _ := chainFiles(dir)
	merged, _, err := Merge(files)
	if err != nil {
		t.Fatal(err)
	}
	ref, refTable := reference(t, Config{Method: "sample", Chains: 3, Seed: 7, Draws: 200})
	sameDraws(t, merged, ref)
	sameTable(t, got.Rows, refTable) // JSON round trip is exact for float64
}

// TestChainIndex: the flag first, then Kubernetes, then Slurm; bad values
// and no index are errors that say what to do.
func TestChainIndex(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		flag    int
		env     func(string) string
		k       int
		from    string
		wantErr string
	}{
		{3, env("SLURM_ARRAY_TASK_ID", "1"), 3, "-chain", ""},
		{-1, env("SLURM_ARRAY_TASK_ID", "1"), 1, "SLURM_ARRAY_TASK_ID", ""},
		{-1, env("JOB_COMPLETION_INDEX", "2", "SLURM_ARRAY_TASK_ID", "1"), 2, "JOB_COMPLETION_INDEX", ""},
		{-1, env("SLURM_ARRAY_TASK_ID", "x"), 0, "SLURM_ARRAY_TASK_ID", "not a chain index"},
		{-1, env("JOB_COMPLETION_INDEX", "-1"), 0, "JOB_COMPLETION_INDEX", "not a chain index"},
		{-1, env(), 0, "", "no chain index: pass -chain k"},
	} {
		k, from, err := ChainIndex(c.flag, c.env)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ChainIndex(%d): err = %v, want %q", c.flag, err, c.wantErr)
			}
			continue
		}
		if err != nil || k != c.k || from != c.from {
			t.Errorf("ChainIndex(%d) = %d, %q, %v; want %d, %q", c.flag, k, from, err, c.k, c.from)
		}
	}
	if _, _, err := RunChain(context.Background(), Config{Method: "sample", Chains: 3, Chain: 3, Draws: 10}, newModel()); err == nil || !strings.Contains(err.Error(), "chain 3 of 3") {
		t.Errorf("chain 3 of 3: %v", err)
	}
}

// TestMergeErrors: files that are not one complete analysis are refused,
// naming the files and the chains.
func TestMergeErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, kv ...string) string {
		var cm []stancsv.Comment
		for i := 0; i < len(kv); i += 2 {
			cm = append(cm, stancsv.Comment{Key: kv[i], Value: kv[i+1]})
		}
		f := filepath.Join(dir, name)
		ch := &stancsv.Chain{Comments: cm, Names: names, Draws: make([]float64, 3*10)}
		for i := range ch.Draws {
			ch.Draws[i] = float64(i % 7)
		}
		if err := stancsv.WriteFile(f, ch); err != nil {
			t.Fatal(err)
		}
		return f
	}
	tags := func(seed, chains, chain string) []string {
		return []string{"method", "sample", "seed", seed, "chains", chains, "chain", chain, "draws", "10"}
	}
	a := write("a.csv", tags("1", "3", "0")...)
	b := write("b.csv", tags("1", "3", "2")...)
	c := write("c.csv", tags("2", "3", "1")...)
	d := write("d.csv", tags("1", "3", "0")...)
	e := write("e.csv", "seed", "1")
	f := write("f.csv", tags("1", "3", "5")...)
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{a, b}, "chains [1] of 3 are missing"},
		{[]string{a, b, c}, "has seed = 2"},
		{[]string{a, d, b}, "are both chain 0"},
		{[]string{e}, `no "method" comment`},
		{[]string{a, f}, "is chain 5, want in [0, 3)"},
		{nil, "no chain files"},
	} {
		if _, _, err := Merge(tc.files); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge(%v): %v, want %q", tc.files, err, tc.want)
		}
	}
	if _, err := chainFiles(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no chain-*.csv files") {
		t.Errorf("chainFiles of an empty directory: %v", err)
	}
}
