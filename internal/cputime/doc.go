// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package cputime reads the process's CPU time, for benchmarks and
// examples that report it beside wall time: on a shared machine it
// measures the program's own work, which wall time inflates by the time
// other processes hold the cores.
package cputime
