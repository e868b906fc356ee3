// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package valid

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
)

// MemoryLimit returns the memory, in bytes, that one allocation may ask
// for: the least of the Go runtime's memory limit when one is set, the
// cgroup's and the machine's physical memory (MaxInt64 where none is
// known). The machine's values are read once.
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

// CheckMemory returns an error wrapping kind if an allocation of the
// given number of bytes (a float64, so that a product of sizes cannot
// overflow) exceeds limit (MemoryLimit() if limit ≤ 0). what says what
// the memory is for.
func CheckMemory(kind error, who, what string, bytes float64, limit int64) error {
	if limit <= 0 {
		limit = MemoryLimit()
	}
	if bytes <= float64(limit) {
		return nil
	}
	return Errorf(kind, "%s: %s need %s, more than the memory limit of %s (the machine's memory, its cgroup's or GOMEMLIMIT, whichever is least)",
		who, what, ByteSize(bytes), ByteSize(float64(limit)))
}

// FloatBytes returns the size in bytes of the product of the counts of
// float64 values.
func FloatBytes(counts ...int) float64 {
	b := 8.0
	for _, n := range counts {
		b *= float64(n)
	}
	return b
}

// ByteSize formats a size in bytes with a binary prefix.
func ByteSize(b float64) string {
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
