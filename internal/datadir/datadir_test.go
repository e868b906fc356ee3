// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package datadir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind finds testdata from this package's directory, from the
// repository root and from a directory outside the repository (by the
// source file's location), and fails with a useful error on a missing one.
func TestFind(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(wd, "..", "..")
	for _, dir := range []string{wd, root, t.TempDir()} {
		t.Chdir(dir)
		got, err := Find("testdata/a9a", nil)
		if err != nil {
			t.Fatalf("from %s: %v", dir, err)
		}
		if want := filepath.Clean(filepath.Join(root, "testdata", "a9a")); filepath.Clean(got) != want {
			t.Errorf("from %s: %s, want %s", dir, got, want)
		}
	}
	t.Chdir(wd)
	_, err = Find("testdata/no-such-thing", nil)
	if err == nil || !strings.Contains(err.Error(), "-data DIR") || !strings.Contains(err.Error(), "looked in") {
		t.Errorf("missing data: error %v, want one naming -data DIR and where it looked", err)
	}
	if _, err := Find("testdata/a9a", func(string) bool { return false }); err == nil {
		t.Error("a directory the caller rejects was accepted")
	}
}
