// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// ldModel is a Model with its log density.
type ldModel interface {
	Model
	LogDensity
}

// wrongGrad corrupts a model's likelihood gradient: doubled ("factor 2"),
// negated ("sign"), or doubled in coordinate coord only ("coordinate").
type wrongGrad struct {
	ldModel
	kind  string
	coord int
	tmp   []float64
}

func (m *wrongGrad) LogLikGrad(dst, th []float64, i int, scale float64) {
	switch m.kind {
	case "factor 2":
		m.ldModel.LogLikGrad(dst, th, i, 2*scale)
	case "sign":
		m.ldModel.LogLikGrad(dst, th, i, -scale)
	case "coordinate":
		if m.tmp == nil {
			m.tmp = make([]float64, len(dst))
		}
		clear(m.tmp)
		m.ldModel.LogLikGrad(m.tmp, th, i, scale)
		m.tmp[m.coord] *= 2
		for j, v := range m.tmp {
			dst[j] += v
		}
	default:
		m.ldModel.LogLikGrad(dst, th, i, scale)
	}
}

// TestSampleGradCheck: warmup's gradient check stops a run whose model's
// gradient is off by a factor of 2, of the wrong sign or wrong in one
// coordinate, naming the coordinate, on three models; a right gradient
// passes on each (and over the development sets of the examples).
func TestSampleGradCheck(t *testing.T) {
	t.Parallel()
	models := []struct {
		name  string
		m     ldModel
		coord int
	}{
		{"Gaussian", testModel{}, 1},
		{"logistic", newLogitModel(500, 4, 2), 2},
		{"dense regression", newDenseReg(6, 400, 5), 4},
	}
	for _, mc := range models {
		for _, kind := range []string{"right", "factor 2", "sign", "coordinate"} {
			t.Run(mc.name+" "+kind, func(t *testing.T) {
				m := &wrongGrad{ldModel: mc.m, kind: kind, coord: mc.coord}
				res, err := Sample(context.Background(), Problem{Model: m}, make([]float64, m.Dim()), &SampleSettings{Seed: 2, Chains: 1, Draws: 50}, nil)
				if kind == "right" {
					if err != nil {
						t.Fatalf("a right gradient: %v", err)
					}
					if res.WarmupGradEvals <= 0 {
						t.Errorf("WarmupGradEvals = %d", res.WarmupGradEvals)
					}
					return
				}
				if !errors.Is(err, ErrGradient) {
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
