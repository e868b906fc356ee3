// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng

import (
	"encoding/binary"
	"math/rand/v2"
)

// ChainSource returns the random source of chain number chain of a run
// of several chains with master seed seed (sgmcmc.RunChains, sample.Run): a ChaCha8 generator whose 32-byte key
// is derived from (seed, chain) by the SplitMix64 mixing function. Distinct
// (seed, chain) pairs give unrelated keys, hence independent streams.
// RunChains hands it to its newSampler; call it directly to rerun one
// chain alone.
func ChainSource(seed uint64, chain int) *rand.ChaCha8 {
	var key [32]byte
	base := mix64(seed + 0x9e3779b97f4a7c15*uint64(chain+1))
	for w := range 4 {
		base += 0x9e3779b97f4a7c15
		binary.LittleEndian.PutUint64(key[8*w:], mix64(base^seed))
	}
	return rand.NewChaCha8(key)
}

// mix64 is the SplitMix64 finaliser (Steele, Lea & Flood 2014), a bijection
// of uint64 with good avalanche.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
