// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
)

// nanDataModel is a two-parameter normal regression whose datum bad is
// NaN.
type nanDataModel struct {
	x   []float64
	bad int
}

func newNaNData(n, bad int) nanDataModel {
	m := nanDataModel{x: make([]float64, n), bad: bad}
	for i := range m.x {
		m.x[i] = math.Sin(float64(i))
	}
	if bad >= 0 {
		m.x[bad] = math.NaN()
	}
	return m
}

func (m nanDataModel) Dim() int { return 2 }
func (m nanDataModel) Len() int { return len(m.x) }
func (m nanDataModel) LogPriorGrad(dst, th []float64) {
	dst[0] -= th[0] / 100
	dst[1] -= th[1] / 100
}
func (m nanDataModel) LogLikGrad(dst, th []float64, i int, s float64) {
	r := m.x[i] - th[0] - th[1]*float64(i%3)
	dst[0] += s * r
	dst[1] += s * r * float64(i%3)
}

// TestErrorNamesTheDatum: NaN in the data is an error that says so,
// naming the datum (0-based) and the parameter by its name.
func TestErrorNamesTheDatum(t *testing.T) {
	m := newNaNData(500, 17)
	_, err := Run(context.Background(), Problem{Model: m, Names: []string{"a", "b"}}, []float64{0, 0}, &Settings{Seed: 1, Chains: 1, Draws: 100}, nil)
	if !errors.Is(err, sgmcmc.ErrNonFinite) {
		t.Fatalf("err = %v, want one wrapping ErrNonFinite", err)
	}
	t.Log(err)
	for _, want := range []string{"data item 17 (0-based)", "is NaN in parameter a (index 0)", "datum NaN or infinite"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
