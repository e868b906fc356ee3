// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"testing"
)

// The digests below pin the chains Run draws: a refactor must leave every
// chain bit-identical; a change that alters a chain on purpose updates its
// digest in the same commit and says why.

// sampleCVDigests pin Run's draws with control variates (the default
// since the scale issue added them). The first-order methods' (SGLD,
// HAMCMC, pSGLD) changed with their pilot run (rounds.go,
// doc/adaptation.md §6.1): each chain first draws 2·10·d draws, which
// count as warmup, and the full run has its own sampler stream; they were
// f40f5b7a71cfa97b, c1fc17254942b9e0 and d4ae1f2e45fd6a08. HAMCMC's
// changed again when Run's HAMCMC came to accept only curvature pairs
// as stiff as γ (HAMCMC.MinPairCurvature 1; it was 16c5407836dca2cf
// with 0.2).
var sampleCVDigests = map[string]string{
	"SGLD":   "b4d5c242ac85c458",
	"SGHMC":  "ee48f08ffec38bc6",
	"SGNHT":  "ddd6363f4656e660",
	"HAMCMC": "f432b63de9d8b0ea",
	"pSGLD":  "4c66068a27e91ea9",
}

// sampleDigests pin Run's draws with PlainMinibatch. Before the scale
// issue they were the runs of the restructuring (SGLD 0eb809c72768fa05,
// SGHMC ff548d4119734d7e, …): PlainMinibatch then drew those bits exactly;
// the new thinning rule (40 % of the predicted autocorrelation time,
// rounded up, instead of a quarter rounded) changed them. pSGLD's changed
// again with sampling rounds (rounds.go; it was 0b07982bf20e79dc):
// its chain 0 has a bulk ESS of 46 of 200 draws, and the second round it
// would run (ESS 128, no warning) is projected at 1.6·10⁶ item gradients,
// past the rounds' allowance (the first round's 7.6·10⁵, or 10⁶): the
// draws are the first round's, as before, and the refused round's
// Hessians and noise probe count in the warmup's evaluations. The
// first-order methods' changed again with their pilot run (see
// sampleCVDigests); they were cb32999c3fe8b4b0, 607e6647174e3b87 and
// a0dadfce4fd855fc. HAMCMC's changed again with MinPairCurvature 1 (it
// was 168aed24df224fff).
var sampleDigests = map[string]string{
	"SGLD":   "264aca6e50255de6",
	"SGHMC":  "dceec49fad1f6114",
	"SGNHT":  "2a0510d4900ccc5b",
	"HAMCMC": "8a2666e197b8a552",
	"pSGLD":  "982f87a4078fee3a",
}

// TestSampleDigests: one Run per method draws what it drew when the
// digests were pinned, with plain minibatches and with control variates.
func TestSampleDigests(t *testing.T) {
	testSampleDigests(t, true, sampleDigests)
	testSampleDigests(t, false, sampleCVDigests)
}

func testSampleDigests(t *testing.T, plain bool, digests map[string]string) {
	m := newLinReg(300, 2, 1, 5)
	for _, meth := range []Method{SGLD{}, SGHMC{}, SGNHT{}, HAMCMC{}, PSGLD{}} {
		res, err := Run(context.Background(), Problem{Model: m}, []float64{0.5, -0.5}, &Settings{Seed: 3, Chains: 2, Draws: 200, PlainMinibatch: plain}, meth)
		if err != nil {
			t.Fatalf("%T: %v", meth, err)
		}
		var draws [][]float64
		var ints []int
		for c, ch := range res.Chains {
			for i := range ch.Len() {
				draws = append(draws, ch.At(i))
			}
			a := res.Adapted[c]
			draws = append(draws, []float64{a.Eps, a.Friction, a.LambdaMax, a.Heat}, a.Shift, a.Lower, a.Diag, a.NoiseVar, a.Accumulator)
			ints = append(ints, a.Thin, a.BatchSize, a.BurnIn)
			if !plain {
				draws = append(draws, a.Center, a.CenterGrad)
				ints = append(ints, a.SetupPasses)
			}
		}
		ints = append(ints, int(res.WarmupGradEvals+res.SamplingGradEvals), int(res.WarmupGradEvals), len(res.Warnings))
		got := chainDigest(draws, ints...)
		want, ok := digests[res.Method]
		if !ok {
			t.Errorf("plain %v: %q: %q,", plain, res.Method, got)
			continue
		}
		if got != want {
			t.Errorf("plain %v: %s: digest %s, want %s (the run changed)", plain, res.Method, got, want)
		}
	}
}
