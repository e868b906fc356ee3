// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !unix

package main

import "time"

// processCPU reports that the CPU time is not available here.
func processCPU() (time.Duration, bool) { return 0, false }
