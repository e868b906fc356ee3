// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package glmcases

import (
	"flag"
	"testing"
)

var write = flag.Bool("write", false, "write the cases' data and specs into testdata (then run stan.R there)")

// TestWrite writes the cases' files with -write.
func TestWrite(t *testing.T) {
	if !*write {
		t.Skip("writes testdata only with -write")
	}
	for _, c := range Cases {
		if err := c.Write(Dir()); err != nil {
			t.Fatal(err)
		}
	}
}
