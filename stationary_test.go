// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

// The stationary-distribution tests (every sampler against the exact
// targets of internal/targets, the naive samplers, the stiff-Gaussian order
// test) live in validation_test.go, in the external test package, since
// internal/targets imports this package. What remains here is shared by the
// internal tests.

// unitMetric g_i = 1 + θ_i²: state-dependent, so that Γ matters.
var unitMetric = DiagMetricFunc(func(g, dg, th []float64) {
	for i, x := range th {
		g[i] = 1 + x*x
		dg[i] = 2 * x
	}
})
