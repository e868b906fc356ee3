// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"errors"
	"testing"
	"time"

	"github.com/sgmcmc-go/sgmcmc"
)

// FuzzSettings: any progress interval, counts and bounds are accepted or
// refused by Run's settings check with ErrRange (or ErrNonFinite), before
// any work — never a panic; an accepted interval is not negative (0: the
// default).
func FuzzSettings(f *testing.F) {
	f.Add(int64(-1), 4, 1000, 0.05, int64(0))
	f.Add(int64(0), 0, 0, 0.0, int64(-5))
	f.Add(int64(time.Hour), -3, 1<<40, -1.0, int64(1e12))
	f.Fuzz(func(t *testing.T, every int64, chains, draws int, heat float64, maxEvals int64) {
		s := &Settings{ProgressEvery: time.Duration(every), Chains: chains, Draws: draws, MaxHeat: heat, MaxGradEvals: maxEvals}
		got, err := sampleDefaults(Problem{Model: ckModel{}}, make([]float64, 3), s)
		if err != nil {
			if !errors.Is(err, sgmcmc.ErrRange) && !errors.Is(err, sgmcmc.ErrNonFinite) {
				t.Fatalf("%+v: %v", s, err)
			}
			return
		}
		if got.ProgressEvery < 0 {
			t.Fatalf("accepted ProgressEvery %v", got.ProgressEvery)
		}
	})
}
