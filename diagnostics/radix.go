// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package diagnostics

import "math"

// pair is a draw and its position, for ranking.
type pair struct {
	key uint64 // order-preserving image of the value, see sortKey
	i   int
}

// sortKey maps a finite float64 to a uint64 with the same order; −0 and +0
// map to the same key.
func sortKey(v float64) uint64 {
	if v == 0 {
		v = 0
	}
	b := math.Float64bits(v)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

const (
	radixBits = 11
	radixSize = 1 << radixBits
	radixMask = radixSize - 1
	radixPass = (64 + radixBits - 1) / radixBits
)

// sortPairs sorts p by key with a least-significant-digit radix sort in
// O(n), using tmp (len(p)) as scratch, and returns the sorted slice (p or
// tmp). Passes whose digit is the same for every key are skipped.
func sortPairs(p, tmp []pair) []pair {
	var count [radixPass][radixSize]int
	for _, e := range p {
		k := e.key
		for d := range radixPass {
			count[d][(k>>(d*radixBits))&radixMask]++
		}
	}
	for d := range radixPass {
		c := &count[d]
		shift := d * radixBits
		if len(p) > 0 && c[(p[0].key>>shift)&radixMask] == len(p) {
			continue
		}
		sum := 0
		for b, v := range c {
			c[b] = sum
			sum += v
		}
		for _, e := range p {
			b := (e.key >> shift) & radixMask
			tmp[c[b]] = e
			c[b]++
		}
		p, tmp = tmp, p
	}
	return p
}

// fromKey inverts sortKey.
func fromKey(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// sortFloats sorts the finite values x in place by radix sort on their
// keys, using keys and tmp (len(x)) as scratch.
func sortFloats(x []float64, keys, tmp []uint64) {
	for i, v := range x {
		keys[i] = sortKey(v)
	}
	var count [radixPass][radixSize]int
	for _, k := range keys {
		for d := range radixPass {
			count[d][(k>>(d*radixBits))&radixMask]++
		}
	}
	for d := range radixPass {
		c := &count[d]
		shift := d * radixBits
		if len(keys) > 0 && c[(keys[0]>>shift)&radixMask] == len(keys) {
			continue
		}
		sum := 0
		for b, v := range c {
			c[b] = sum
			sum += v
		}
		for _, k := range keys {
			b := (k >> shift) & radixMask
			tmp[c[b]] = k
			c[b]++
		}
		keys, tmp = tmp, keys
	}
	for i, k := range keys {
		x[i] = fromKey(k)
	}
}
