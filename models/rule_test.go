// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"math/rand/v2"
	"testing"
)

// varyingIntercepts simulates y_ij = 1 + r_j + σ ε_ij, r_j ~ N(0, τ²),
// with k levels of n rows each.
func varyingIntercepts(k, n int, tau, sigma float64, seed uint64) GLM {
	r := rand.New(rand.NewPCG(seed, 11))
	g := GLM{Family: Gaussian, Y: make([]float64, k*n)}
	idx := make([]int, k*n)
	for j := range k {
		rj := tau * r.NormFloat64()
		for i := range n {
			idx[j*n+i] = j
			g.Y[j*n+i] = 1 + rj + sigma*r.NormFloat64()
		}
	}
	g.Groups = []Group{{Name: "g", Index: idx, Prior: HalfCauchy(1)}}
	return g
}

// TestParameterisationRule: with κ = nτ²/σ² = 400·0.25/4 = 25 every level
// is centred, with 4 rows a level (κ = 0.25) every level non-centred, and
// with a mix of level sizes each level by its own κ; Param overrides.
func TestParameterisationRule(t *testing.T) {
	for _, c := range []struct {
		n    int
		want bool
	}{{400, true}, {4, false}} {
		m, err := NewGLM(varyingIntercepts(50, c.n, 0.5, 2, 1))
		if err != nil {
			t.Fatal(err)
		}
		for j, got := range m.groups[0].centred {
			if got != c.want {
				t.Fatalf("%d rows a level: level %d centred %v (κ = %.3g), want %v\n%s", c.n, j+1, got, m.groups[0].kappa[j], c.want, m.Describe())
			}
		}
	}
	// Mixed: the first 10 levels with 400 rows, the other 40 with 4.
	g := varyingIntercepts(50, 4, 0.5, 2, 2)
	big := varyingIntercepts(10, 400, 0.5, 2, 3)
	g.Y = append(big.Y, g.Y...)
	idx := big.Groups[0].Index
	for _, j := range g.Groups[0].Index {
		idx = append(idx, j+10)
	}
	g.Groups[0].Index = idx
	m, err := NewGLM(g)
	if err != nil {
		t.Fatal(err)
	}
	for j, got := range m.groups[0].centred {
		if got != (j < 10) {
			t.Errorf("mixed sizes: level %d centred %v (κ = %.3g)\n%s", j+1, got, m.groups[0].kappa[j], m.Describe())
		}
	}
	g.Groups[0].Param = NonCentred
	m, err = NewGLM(g)
	if err != nil {
		t.Fatal(err)
	}
	for j, got := range m.groups[0].centred {
		if got {
			t.Fatalf("NonCentred set: level %d centred", j+1)
		}
	}
}
