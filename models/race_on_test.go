// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build race

package models

// raceEnabled: sync.Pool drops items at random under the race detector.
const raceEnabled = true
