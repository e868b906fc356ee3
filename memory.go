// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import "github.com/sgmcmc-go/sgmcmc/internal/valid"

// The memory guard. Every allocation whose size comes from the caller — a
// Chain of Draws × Dim floats in Run and RunChains, dense preconditioners,
// metrics and curvature memories of d × d or more — is compared first with
// the memory limit: the smallest of the Go runtime's memory limit
// (debug.SetMemoryLimit or GOMEMLIMIT) when one is set, the cgroup's limit
// (memory.max under cgroup v2, memory.limit_in_bytes under v1) and the
// machine's physical memory (MemTotal in /proc/meminfo). A request that
// would not fit is an error wrapping ErrRange naming the size, instead of
// a fatal out-of-memory that no caller can recover from.

// checkMemory returns an error wrapping ErrRange if an allocation of the
// given number of bytes exceeds limit (the memory limit if limit ≤ 0).
func checkMemory(who, what string, bytes float64, limit int64) error {
	return valid.CheckMemory(ErrRange, who, what, bytes, limit)
}

// floatBytes returns the size in bytes of the product of the counts of
// float64 values.
func floatBytes(counts ...int) float64 { return valid.FloatBytes(counts...) }
