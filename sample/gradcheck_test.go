// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/testmodel"
)

// TestSampleGradCheck: warmup's gradient check stops a run whose model's
// gradient is off by a factor of 2, of the wrong sign or wrong in one
// coordinate, naming the coordinate, on three models; a right gradient
// passes on each (and over the development sets of the examples).
func TestSampleGradCheck(t *testing.T) {
	t.Parallel()
	models := []struct {
		name  string
		m     testmodel.LDModel
		coord int
	}{
		{"Gaussian", testModel{}, 1},
		{"logistic", newLogitModel(500, 4, 2), 2},
		{"dense regression", newDenseReg(6, 400, 5), 4},
	}
	for _, mc := range models {
		for _, kind := range []string{"right", "factor 2", "sign", "coordinate"} {
			t.Run(mc.name+" "+kind, func(t *testing.T) {
				m := &testmodel.WrongGrad{LDModel: mc.m, Kind: kind, Coord: mc.coord}
				res, err := Run(context.Background(), Problem{Model: m}, make([]float64, m.Dim()), &Settings{Seed: 2, Chains: 1, Draws: 50}, nil)
				if kind == "right" {
					if err != nil {
						t.Fatalf("a right gradient: %v", err)
					}
					if res.WarmupGradEvals <= 0 {
						t.Errorf("WarmupGradEvals = %d", res.WarmupGradEvals)
					}
					return
				}
				if !errors.Is(err, sgmcmc.ErrGradient) {
					t.Fatalf("err = %v, want one wrapping ErrGradient", err)
				}
				if kind == "coordinate" && !strings.Contains(err.Error(), fmt.Sprintf("coordinate %d:", mc.coord)) {
					t.Errorf("err = %v, want it to name coordinate %d", err, mc.coord)
				}
				t.Log(err)
			})
		}
	}
}
