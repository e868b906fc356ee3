// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package transform lets a model with constrained parameters — a scale
// σ > 0, a probability in (0, 1), a vector of proportions on the simplex —
// be sampled by the package sgmcmc's samplers, which move in all of ℝᵈ.
//
// The user writes the model in its natural parameters x, as an
// sgmcmc.Model (and, optionally, sgmcmc.LogDensity) whose log densities
// are those of the constrained space. A Space lists the parameters, each
// with its Transform, a smooth bijection x = f(y) from unconstrained
// coordinates y; Space.Model returns the model in y, whose log prior
// carries the log absolute Jacobian determinant log |det ∂x/∂y|, so that
// its posterior is the user's posterior, expressed in y. Samplers run on
// it; Space.Chains maps their draws back to x for summaries
// (Space.Summary) and for export (stancsv, with Space.Names).
//
//	sp, err := transform.NewSpace(
//		transform.Param{Name: "sigma", Transform: transform.Positive{}},
//		transform.Param{Name: "w", Size: 3, Transform: transform.Simplex{}},
//	)
//	um, err := sp.Model(m)                       // m has Dim() == sp.Dim() == 4
//	y0 := make([]float64, sp.FreeDim())          // 3 unconstrained coordinates
//	err = sp.Unconstrain(y0, []float64{1, 0.2, 0.3, 0.5})
//	res, err := sample.Run(ctx, sample.Problem{Model: um, Names: sp.FreeNames()}, y0, nil, nil)
//	table, err := sp.Summary(res.Chains)         // sigma, w.1, w.2, w.3
//
// # The transforms
//
// They are Stan's (Stan Reference Manual, "Constraint transforms"), with
// its definitions and log-Jacobians:
//
//	Positive      x = exp(y)                          log |J| = y
//	Lower{a}      x = a + exp(y)                      log |J| = y
//	Upper{b}      x = b − exp(y)                      log |J| = y
//	Bounded{a, b} x = a + (b − a)·logit⁻¹(y)          log |J| = log(b − a) + log u + log(1 − u), u = logit⁻¹(y)
//	Simplex       stick-breaking, K − 1 → K           log |J| = Σ_k log z_k + log(1 − z_k) + log r_k
//	Identity      x = y                               log |J| = 0
//
// The coordinate-wise transforms apply to a scalar or to each coordinate of
// a vector; Simplex maps K − 1 unconstrained coordinates to a vector of K
// positive coordinates summing to 1 (see Simplex for the construction).
//
// # Limits and round trips
//
// Bounds must be finite; Bounded's may be as far apart as float64 allows
// (Bounded{−1e308, 1e308}: the width, which overflows, is never formed).
// Space.Constrain, Space.Chain and Space.Chains return an error wrapping
// sgmcmc.ErrNonFinite, naming the parameter, for y that is NaN or infinite
// and where x or the log-Jacobian overflows float64 (Positive at
// y > 709.78, a log-Jacobian summed to −Inf); they never return a
// non-finite value with a nil error. Where x is closer to a bound than
// float64 resolves (Positive below y ≈ −745, Bounded{0, 1} beyond
// y ≈ 37.4), x rounds onto the bound, and Unconstrain then reports it
// outside the set.
//
// Elsewhere Unconstrain inverts Constrain as closely as x's rounding
// allows: for the coordinate-wise transforms
//
//	|Unconstrain(Constrain(y)) − y| ≤ 10⁻⁹·(1 + |y|) + δx / |∂x/∂y|,
//	δx = 8ε·(|x| + |bounds|) + 2⁻¹⁰⁷², ε = 2⁻⁵³,
//
// and for Simplex, Constrain(Unconstrain(x)) is x within 10⁻¹² relative
// (plus 2⁻¹⁰⁰⁰) in each coordinate. FuzzTransform checks both.
//
// # Why the Jacobian, and where
//
// A sampler on y targets the density of y. If x has posterior density
// p(x | data), y = f⁻¹(x) has density p(f(y) | data)·|det J(y)|; without the
// Jacobian term a sampler on y would sample a different distribution (for
// σ = exp(y), one with an extra factor 1/σ). The term depends on no datum,
// so it goes with the prior: a minibatch estimate scales the likelihood by
// N/n and leaves the prior, and hence the Jacobian, as it is.
//
// # Concurrency and cost
//
// A Space is immutable. The model of Space.Model keeps its scratch buffers
// in a sync.Pool, so one model can serve every chain of sample.Run or
// sgmcmc.RunChains at once; it maps y to x once per minibatch (it
// implements sgmcmc.BatchModel) and once per point for the per-datum calls
// of a gradient-noise estimate, and allocates nothing once warm.
package transform
