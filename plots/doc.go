// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package plots draws the standard pictures of MCMC output with gonum/plot:
// trace plots, rank plots and marginal densities, per parameter and across
// chains.
//
// Trace plots show each chain's draws of one parameter against the draw
// number: chains that mix overlap as one band. Rank plots (Vehtari,
// Gelman, Simpson, Carpenter & Bürkner 2021) rank the draws of all chains
// together and show, for each chain, the histogram of its draws' ranks:
// when the chains sample the same distribution every histogram is flat,
// while a chain stuck apart piles its ranks at one end, and a chain that
// explores too little piles them in the middle. They are easier to read
// than trace plots when chains are long. Density plots overlay a kernel
// density estimate of each chain's marginal.
//
// The chains enter through the Draws interface (Len and At), which
// *sgmcmc.Chain, *stancsv.Chain and diagnostics.Rows satisfy. Trace, Rank
// and Density return the panels of one parameter for composing figures;
// SaveTrace, SaveRank and SaveDensity write a whole figure, one row of
// panels per parameter, with a title and a legend of the chain colours
// (ChainColor), in the format the file name's extension names (.png, .svg,
// .pdf).
//
// Long runs draw quickly: a trace line has at most TracePoints points (a
// min/max decimation that keeps every extreme), a density is estimated
// from binned draws beyond 16,384 per chain, and four chains of 10⁶ draws
// make a trace, rank or density figure in about a second or less.
//
//	chains, _ := sgmcmc.RunChains(ctx, 4, seed, newSampler, opts)
//	names := diagnostics.IndexedNames("beta", chains[0].Dim)
//	err := plots.SaveRank("rank.png", names, chains, &plots.Options{Title: "SGHMC", Params: []int{0, 1, 2}})
package plots
