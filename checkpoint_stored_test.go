// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateCheckpoints = flag.Bool("update-checkpoints", false, "rewrite testdata/checkpoints (only when the format changes on purpose)")

// storedSteps is the number of steps before and after the stored
// checkpoints.
const storedSteps = 30

func storedName(c ckCase) string { return strings.ReplaceAll(c.name, " ", "_") }

// TestStoredCheckpoints: the checkpoints in testdata/checkpoints, one per
// kind, written by an earlier version of the package after storedSteps
// steps of each checkpoint case (PCG sources), still load into a sampler
// built as they were, marshal back to the same bytes, and continue exactly
// as an uninterrupted chain does. Run with -update-checkpoints to write
// them anew (only when the format changes on purpose, with a new version
// number).
func TestStoredCheckpoints(t *testing.T) {
	dir := filepath.Join("testdata", "checkpoints")
	src := func(seed uint64) rand.Source { return rand.NewPCG(seed, seed^0xabc) }
	for _, c := range ckCases() {
		name := storedName(c)
		if *updateCheckpoints {
			s, g, err := c.build(src(1), src(2))
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for i := range storedSteps {
				if err := s.Step(c.eps); err != nil {
					t.Fatalf("%s: step %d: %v", c.name, i+1, err)
				}
			}
			writeStored(t, filepath.Join(dir, name+".ckpt"), s)
			if g != nil {
				writeStored(t, filepath.Join(dir, name+".source.ckpt"), g)
			}
		}
		// The uninterrupted chain.
		ref, _, err := c.build(src(1), src(2))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i := range 2 * storedSteps {
			if err := ref.Step(c.eps); err != nil {
				t.Fatalf("%s: step %d: %v", c.name, i+1, err)
			}
		}
		// The restored one, built from other seeds.
		s, g, err := c.build(src(7), src(8))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		readStored(t, filepath.Join(dir, name+".ckpt"), s)
		if g != nil {
			readStored(t, filepath.Join(dir, name+".source.ckpt"), g)
		}
		for i := range storedSteps {
			if err := s.Step(c.eps); err != nil {
				t.Fatalf("%s: restored, step %d: %v", c.name, i+1, err)
			}
		}
		want, got := ckStateOf(ref), ckStateOf(s)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: restored chain at coordinate %d after %d more steps: %v, uninterrupted %v", c.name, i, storedSteps, got[i], want[i])
				break
			}
		}
		if ckDivs(ref) != ckDivs(s) {
			t.Errorf("%s: %d divergences restored, %d uninterrupted", c.name, ckDivs(s), ckDivs(ref))
		}
	}
}

func writeStored(t *testing.T, path string, s ckState) {
	t.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readStored restores path into s and checks that s marshals back to the
// same bytes.
func readStored(t *testing.T, path string, s ckState) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("stored checkpoint: %v", err)
	}
	if err := s.UnmarshalBinary(b); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	back, err := s.MarshalBinary()
	if err != nil {
		t.Fatalf("%s: marshalling back: %v", path, err)
	}
	if string(back) != string(b) {
		t.Errorf("%s: restored checkpoint marshals to other bytes", path)
	}
}

// TestCheckpointKinds: every kind of state has its own kind string, and
// the strings are the ones old checkpoints carry.
func TestCheckpointKinds(t *testing.T) {
	kinds := map[string]string{
		kindRecipe: "Recipe", kindSGLD: "SGLD", kindSGHMC: "SGHMC", kindNaiveSGHMC: "NaiveSGHMC",
		kindSGNHT: "SGNHT", kindSGRLD: "SGRLD", kindSGRLDDense: "SGRLDDense", kindSGRHMC: "SGRHMC",
		kindSGRHMCDense: "SGRHMCDense", kindNaiveSGRHMC: "NaiveSGRHMC", kindPSGLD: "PSGLD",
		kindHAMCMC: "HAMCMC", kindSCIR: "SCIR", kindSGRLDSimplex: "SGRLDSimplex",
		kindMinibatch: "Minibatch", kindCountMinibatch: "CountMinibatch",
	}
	if len(kinds) != 16 {
		t.Errorf("%d distinct kinds, want 16: two kinds share a string", len(kinds))
	}
	for k, v := range kinds {
		if k != v {
			t.Errorf("kind %q, want %q (the on-disk string changed)", k, v)
		}
	}
}
