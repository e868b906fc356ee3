// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !race

package dataset

// RaceEnabled says the race detector is on: its sync.Pool drops items at
// random, so the allocation checks are skipped.
const RaceEnabled = false
