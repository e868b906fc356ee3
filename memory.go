// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
)

// MemoryLimit returns the memory, in bytes, that the library's allocation
// guard lets one request use: the smallest of the Go runtime's memory
// limit (debug.SetMemoryLimit or GOMEMLIMIT) when one is set, the cgroup's
// limit (memory.max under cgroup v2, memory.limit_in_bytes under v1) and
// the machine's physical memory (MemTotal in /proc/meminfo); MaxInt64 where
// none is known. The machine's values are read once.
//
// Every allocation whose size comes from the caller — a Chain of
// Draws × Dim floats in Run and RunChains, Sample's draws and warmup
// matrices (SampleSettings.MemoryLimit overrides the limit there), dense
// preconditioners, metrics and curvature memories of d × d or more — is
// compared with it first, and a request that would not fit is an error
// wrapping ErrRange naming the size, instead of a fatal out-of-memory that
// no caller can recover from.
func MemoryLimit() int64 {
	lim := machineMemory()
	if g := debug.SetMemoryLimit(-1); g > 0 && g < lim {
		lim = g
	}
	return lim
}

// machineMemory is the smaller of the cgroup's limit and the physical
// memory, read once.
var machineMemory = sync.OnceValue(func() int64 {
	lim := int64(math.MaxInt64)
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(f); err == nil {
			if v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64); err == nil && v > 0 && v < lim {
				lim = v
			}
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := bytes.Fields(sc.Bytes())
			if len(fs) >= 2 && string(fs[0]) == "MemTotal:" {
				if kb, err := strconv.ParseInt(string(fs[1]), 10, 64); err == nil && kb > 0 && kb < lim/1024 {
					lim = kb * 1024
				}
				break
			}
		}
	}
	return lim
})

// checkMemory returns an error wrapping ErrRange if an allocation of the
// given number of bytes (a float64, so that a product of sizes cannot
// overflow) exceeds limit (MemoryLimit() if limit ≤ 0). what says what
// the memory is for.
func checkMemory(who, what string, bytes float64, limit int64) error {
	if limit <= 0 {
		limit = MemoryLimit()
	}
	if bytes <= float64(limit) {
		return nil
	}
	return errorf(ErrRange, "%s: %s need %s, more than the memory limit of %s (MemoryLimit: the machine's memory, its cgroup's or GOMEMLIMIT, whichever is least)",
		who, what, byteSize(bytes), byteSize(float64(limit)))
}

// floatBytes returns the size in bytes of the product of the counts of
// float64 values.
func floatBytes(counts ...int) float64 {
	b := 8.0
	for _, n := range counts {
		b *= float64(n)
	}
	return b
}

// byteSize formats a size in bytes with a binary prefix.
func byteSize(b float64) string {
	const unit = 1024
	if b < unit {
		return strconv.FormatFloat(b, 'f', 0, 64) + " B"
	}
	prefixes := "KMGTPE"
	k := -1
	for b >= unit && k < len(prefixes)-1 {
		b /= unit
		k++
	}
	return strconv.FormatFloat(b, 'f', 1, 64) + " " + prefixes[k:k+1] + "iB"
}
