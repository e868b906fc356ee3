// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build unix

package sgmcmc

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used in user and system
// mode. On a shared machine it measures a benchmark's own work, which wall
// time inflates by the time other processes hold the cores.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
