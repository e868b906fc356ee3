// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package datadir finds the repository's data files for the examples, so
// that `go run ./examples/NAME` works from any directory of a checkout.
package datadir

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// modulePath is the module whose root holds the data.
const modulePath = "github.com/sgmcmc-go/sgmcmc"

// Find returns the directory rel (a path relative to the repository root,
// such as "testdata/a9a"): under the nearest directory, from the working
// directory upwards, whose go.mod is the sgmcmc module's, or else relative
// to this package's source file (a binary built from a checkout and run
// elsewhere). A candidate counts only if has, when not nil, accepts it
// (the files the caller needs are there); without has, only if it exists.
// The error names every place looked in and says to pass -data DIR.
func Find(rel string, has func(dir string) bool) (string, error) {
	if has == nil {
		has = func(dir string) bool {
			st, err := os.Stat(dir)
			return err == nil && st.IsDir()
		}
	}
	rel = filepath.FromSlash(rel)
	var tried []string
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if isModuleRoot(dir) {
				d := filepath.Join(dir, rel)
				if has(d) {
					return d, nil
				}
				tried = append(tried, d)
				break
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		d := filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", rel))
		if has(d) {
			return d, nil
		}
		tried = append(tried, d)
	}
	msg := "cannot find " + filepath.ToSlash(rel) + ": run inside the sgmcmc repository (any directory) or pass -data DIR"
	if len(tried) > 0 {
		msg += "; looked in " + strings.Join(tried, ", ")
	}
	return "", errors.New(msg)
}

// isModuleRoot reports whether dir holds the go.mod of modulePath.
func isModuleRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == modulePath
		}
	}
	return false
}
