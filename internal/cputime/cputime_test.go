// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcess: on unix the CPU time is read, and a busy loop of about 20 ms
// adds to it.
func TestProcess(t *testing.T) {
	c0, ok := Process()
	if !ok {
		if runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" {
			t.Fatalf("CPU time not available on %s", runtime.GOOS)
		}
		t.Skip("no process CPU time on this platform")
	}
	x := 1.0
	for start := time.Now(); time.Since(start) < 20*time.Millisecond; {
		x = x*1.0000001 + 1e-9
	}
	c1, _ := Process()
	if !(c1-c0 >= 10*time.Millisecond) || x == 0 {
		t.Errorf("a 20 ms busy loop added %v of CPU time", c1-c0)
	}
}
