// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package rng provides the random number generator every sampler of
// github.com/sgmcmc-go/sgmcmc draws from: Normal, a fast, reproducible and
// checkpointable generator of standard normal, uniform, gamma and Poisson
// variates.
//
// A sampler is given a math/rand/v2 Source by its caller and seeds its own
// Normal from it once, at construction (NewNormalFrom: two words of the
// source); every draw of the chain then comes from that Normal. Users rarely
// need the package directly: to implement a custom Diffusion (whose Noise
// method receives the chain's *Normal), to draw the starting points of a
// simulation study at the samplers' speed, or to restore a generator's state
// from a checkpoint.
//
//	g := rng.NewNormal(1, 2)   // or rng.NewNormalFrom(src)
//	x := make([]float64, 1000)
//	g.Fill(x)                  // 1000 standard normals, about 2 ns each
//	a := g.Gamma(2.5)          // Gamma(2.5, 1)
//	k := g.Poisson(30)         // Poisson(30), as a float64
//	u := g.Float64()           // uniform [0, 1)
//	_ = rand.New(g).IntN(10)   // a Normal is a rand.Source
//
// # The normal generator
//
// Normal draws standard normal variates with a 256-layer Marsaglia–Tsang
// ziggurat (Marsaglia & Tsang 2000, "The ziggurat method for generating
// random variables", J. Stat. Softw. 5(8)) fed by a PCG-DXSM generator that
// it holds by value: the same 128-bit LCG and DXSM output function as
// math/rand/v2's PCG, so that Normal's Uint64 stream is exactly
// rand.NewPCG(seed1, seed2)'s. Two normals come from each 64-bit word, and
// Fill writes a block of them in one loop with the generator's state in
// registers and no interface call: about 2 ns per normal on one core here,
// against 4.5–5.5 ns for rand.Rand.NormFloat64 on PCG and 7 ns on ChaCha8.
//
// Each 32-bit half word h gives one normal: bits 0–7 choose the layer i,
// bit 8 the sign, and bits 9–31 the position m in the layer. Layer and
// position come from disjoint bits and so are independent (Marsaglia and
// Tsang's code took both from overlapping bits, a flaw Doornik 2005 showed
// to be visible). The point is the midpoint of one of 2²³ equal cells of
// the layer, |x| = (2m+1)·zigX[i]/2²⁴: never zero, symmetric, with the mean
// and variance of the continuous uniform to 2⁻⁴⁶. If |x| lies in the part
// of the layer wholly under the density, which an integer comparison
// decides, it is returned at once: 98.5 % of draws. Otherwise the draw goes
// to the wedge test, or for the base strip to Marsaglia's (1964) exact tail
// method, taking fresh 64-bit words from the same stream. The wedge test
// first compares the point with the chord of the density across the wedge,
// with precomputed bounds on the density's distance from it, so that the
// density itself is evaluated for only 0.1 % of draws.
//
// # Accuracy
//
// The layers' areas are equal to 5·10⁻¹³ relative (float64 rounding of the
// tabulated edges), the wedge and tail tests are exact, and the tail's
// uniforms have 53 bits, so it reaches beyond 12σ. The one approximation a
// test could ever see is the grid of 2²³ cells in each layer: at any x the
// distribution function differs from Φ by at most 2⁻²⁴ ≈ 6·10⁻⁸ times the
// share of layers reaching past x, so by less than 2·10⁻⁹ beyond 3σ; a
// Kolmogorov–Smirnov test would need some 10¹⁴ draws to notice it. The tests
// check the tables against the exact density and tail probability, prove
// the wedge bounds, and check the output with χ², Kolmogorov–Smirnov,
// moment and tail-frequency tests out to 6σ (2·10⁷ draws by default,
// SGMCMC_RNG_DRAWS=1e9 for more).
//
// # Reproducibility and checkpoints
//
// For given seeds the output is one fixed sequence on every platform: the
// common path uses only exactly rounded IEEE operations, and the rare paths
// use this package's own exp and log, built from such operations (math.Exp
// and math.Log differ between architectures, and on amd64 between CPUs with
// and without FMA). Fill(dst) gives the values of len(dst) calls of Norm;
// Uint64 and Float64 interleave with both in draw order. The state is the
// 128-bit PCG state plus at most one buffered half word (a normal's worth
// of unused bits): 24 bytes in memory, 28 in MarshalBinary's encoding, which
// UnmarshalBinary restores exactly.
//
// # Gamma and Poisson variates
//
// Gamma uses Marsaglia & Tsang's (2000) method, with an acceptance test that
// stays accurate for shapes up to 10¹⁵, and for shapes below 1 the boost
// Gamma(a+1)·U^{1/a}; LogGamma returns the logarithm of such a draw computed
// in log space, finite for shapes where the draw itself underflows. Poisson
// uses inversion below a mean of 10 and Hörmann's (1993) transformed
// rejection with squeeze above, with a log probability free of cancellation
// (Loader 2000) that keeps P(0) = e^{−λ} exact. Both use the package's exp and
// log and round every product explicitly, so that they too give one fixed
// sequence on every platform.
//
// # Seeding
//
// NewNormal(seed1, seed2) starts from the PCG state (seed1, seed2), like
// rand.NewPCG. NewNormalFrom(src) draws the two seeds from src; it is how
// the library gives a chain its fast generator, seeded from the chain's own
// ChaCha8 stream (rng.ChainSource), so that chains stay independent and
// reproducible while their normals come at PCG speed: ChaCha8 costs 4 ns per
// 64-bit word here, 2 ns per normal before any ziggurat work. All PCG-DXSM
// states lie on one cycle of 2¹²⁸ words, so two generators seeded at random
// overlap only if their start points fall within a run's length of each
// other: for k chains of n words each the probability is below k²n/2¹²⁸,
// 2⁻⁵¹ for 10⁴ chains of 2⁵⁰ words. A sampler whose steps run in blocks on
// several cores (sgmcmc.ParallelDim) gives each block a Normal of its own,
// seeded the same way from the chain's Normal at construction, in block
// order; the bound above then counts every block as a chain.
package rng
