// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sgmcmc

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
)

// modeSeparation is the distance, in a chain's own preconditioned units
// (the warmup's whitening z = L⁻¹(θ − shift), in which the posterior's
// local Gaussian approximation is N(0, I)), beyond which another chain's
// medians place it in a separate mode — when each of the two chains
// places the other that far. Two chains in one mode have medians within
// about √(2d/n_eff) of each other in those units (0.1–1 on the
// development set, where every target has one mode); a separate mode of
// one that the other's approximation cannot reach is many units off (20
// for an equal mixture of N(±10, 1)). Six units is a point no Gaussian
// approximation gives a chance above 10⁻⁸ per coordinate.
const modeSeparation = 6

// modeWarning returns a warning when the chains of r (the first n draws of
// those with at least n, n the fewest draws of a chain the summary covers)
// settled in separate modes, nil otherwise. Each
// chain is placed by the coordinatewise medians of its draws (robust to
// heavy tails, where means wander) and judged in its own and the other's
// preconditioned units (Adapted.Lower or Diag). With a model that
// implements LogDensity, the warning gives the log density at each
// group's medians.
func modeWarning(r *Result, ids []int, m Model) []string {
	var cs []int // indices into r.Chains of the chains judged
	n := math.MaxInt
	for c, ch := range r.Chains {
		if ch != nil && ch.Len() >= diagnostics.MinDraws {
			cs = append(cs, c)
			n = min(n, ch.Len())
		}
	}
	if len(cs) < 2 || r.Summary == nil {
		return nil
	}
	d := r.Chains[cs[0]].Dim
	med := make([][]float64, len(cs))
	buf := make([]float64, n)
	for k, c := range cs {
		ch := r.Chains[c]
		med[k] = make([]float64, d)
		for j := range d {
			for i := range n {
				buf[i] = ch.Draws[i*d+j]
			}
			slices.Sort(buf)
			med[k][j] = 0.5 * (buf[(n-1)/2] + buf[n/2])
		}
	}
	// Group the chains: two are in one mode unless each places the other
	// beyond modeSeparation.
	group := make([]int, len(cs))
	for k := range group {
		group[k] = k
	}
	find := func(k int) int {
		for group[k] != k {
			k = group[k]
		}
		return k
	}
	dist := make([][]float64, len(cs))
	for k := range cs {
		dist[k] = make([]float64, len(cs))
	}
	diff := make([]float64, d)
	for k := range cs {
		for l := range cs {
			if k == l {
				continue
			}
			for j := range d {
				diff[j] = med[l][j] - med[k][j]
			}
			dist[k][l] = whitenedNorm(&r.Adapted[cs[k]], diff)
		}
	}
	for k := range cs {
		for l := k + 1; l < len(cs); l++ {
			if !(math.Min(dist[k][l], dist[l][k]) > modeSeparation) {
				group[find(l)] = find(k)
			}
		}
	}
	members := map[int][]int{}
	var roots []int
	for k := range cs {
		g := find(k)
		if _, ok := members[g]; !ok {
			roots = append(roots, g)
		}
		members[g] = append(members[g], k)
	}
	if len(roots) < 2 {
		return nil
	}
	// The smallest separation between chains of different groups.
	closest := math.Inf(1)
	for k := range cs {
		for l := range cs {
			if find(k) != find(l) {
				closest = math.Min(closest, math.Min(dist[k][l], dist[l][k]))
			}
		}
	}
	ld, _ := m.(LogDensity)
	parts := make([]string, len(roots))
	for i, g := range roots {
		var names []string
		for _, k := range members[g] {
			names = append(names, fmt.Sprint(ids[cs[k]]))
		}
		parts[i] = "chains " + strings.Join(names, ", ")
		if len(names) == 1 {
			parts[i] = "chain " + names[0]
		}
		if ld != nil {
			if u, err := Potential(m, med[members[g][0]]); err == nil {
				parts[i] += fmt.Sprintf(" (log density %.4g at its medians)", -u)
			}
		}
	}
	return []string{fmt.Sprintf("the chains settled in %d separate places — %s — each at least %.0f posterior standard deviations from the others in their own preconditioned coordinates: separate modes, or parts of the posterior between which the chains do not move within the run; the draws weigh them by how many chains found them, not by their posterior mass; run more chains to see how many there are, or sample with a method for multimodal posteriors",
		len(roots), strings.Join(parts, "; "), closest)}
}

// whitenedNorm returns |L⁻¹ v| for the whitening of a (Lower, row-major
// lower-triangular, or Diag).
func whitenedNorm(a *Adapted, v []float64) float64 {
	d := len(v)
	switch {
	case a.Lower != nil:
		z := make([]float64, d)
		var s float64
		for i := range d {
			x := v[i]
			for j := range i {
				x -= a.Lower[i*d+j] * z[j]
			}
			z[i] = x / a.Lower[i*d+i]
			s += z[i] * z[i]
		}
		return math.Sqrt(s)
	case a.Diag != nil:
		var s float64
		for i, x := range v {
			z := x / a.Diag[i]
			s += z * z
		}
		return math.Sqrt(s)
	}
	return math.NaN()
}
