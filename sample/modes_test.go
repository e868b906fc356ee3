// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// bimodal2 is the equal mixture of N((−10, 0), I) and N((10, 0), I).
func bimodal2(int, rand.Source) (sgmcmc.Gradient, error) {
	return sgmcmc.GradFunc(func(dst, th []float64) {
		a := -0.5 * ((th[0] + 10) * (th[0] + 10))
		b := -0.5 * ((th[0] - 10) * (th[0] - 10))
		m := math.Max(a, b)
		wa, wb := math.Exp(a-m), math.Exp(b-m)
		dst[0] = (wa*(th[0]+10) + wb*(th[0]-10)) / (wa + wb)
		dst[1] = th[1]
	}), nil
}

// TestSampleModeWarning: chains that settle in the two modes of an equal
// mixture of N(±10, 1) get a warning naming the modes and the chains,
// and chains that all settle in one mode of the same target get none
// (a local sampler cannot know of a mode no chain reached).
func TestSampleModeWarning(t *testing.T) {
	found := false
	for seed := uint64(1); seed <= 4; seed++ {
		res, err := Run(context.Background(), Problem{Gradient: bimodal2}, []float64{0, 0}, &Settings{Seed: seed, Draws: 200}, SGHMC{})
		if err != nil {
			t.Fatal(err)
		}
		var side [2]int
		for _, ch := range res.Chains {
			if ch.At(0)[0] > 0 {
				side[1]++
			} else {
				side[0]++
			}
		}
		var mw string
		for _, w := range res.Warnings {
			if strings.Contains(w.Message, "separate places") {
				mw = w.Message
			}
		}
		t.Logf("seed %d: chains per mode %v; %q", seed, side, mw)
		split := side[0] > 0 && side[1] > 0
		if split != (mw != "") {
			t.Errorf("seed %d: chains per mode %v but mode warning %q", seed, side, mw)
		}
		found = found || split
	}
	if !found {
		t.Errorf("no seed split the chains between the modes: the test does not test the warning")
	}
	// Started inside one mode, every chain stays there: no warning.
	res, err := Run(context.Background(), Problem{Gradient: bimodal2}, []float64{10, 0}, &Settings{Seed: 1, Draws: 200, StartScale: 0.5}, SGHMC{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w.Message, "separate places") {
			t.Errorf("one mode, mode warning %q", w)
		}
	}
}
