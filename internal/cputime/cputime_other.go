// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !unix

package cputime

import "time"

// Process is not available on this platform: it returns false.
func Process() (time.Duration, bool) { return 0, false }
