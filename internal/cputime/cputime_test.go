// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcess: on unix the CPU time is read, and busy work adds to it: 5 ms
// of CPU time show up within 10 s of wall time however loaded the machine.
func TestProcess(t *testing.T) {
	c0, ok := Process()
	if !ok {
		if runtime.GOOS != "windows" && runtime.GOOS != "plan9" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" {
			t.Fatalf("CPU time not available on %s", runtime.GOOS)
		}
		t.Skip("no process CPU time on this platform")
	}
	x := 1.0
	for start := time.Now(); time.Since(start) < 10*time.Second; {
		for range 100000 {
			x = x*1.0000001 + 1e-9
		}
		if c1, _ := Process(); c1-c0 >= 5*time.Millisecond {
			return
		}
	}
	c1, _ := Process()
	t.Errorf("10 s of busy work added only %v of CPU time (x = %v)", c1-c0, x)
}
