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

// modeSeparation is the distance, in a chain's own robust standard
// deviations along one parameter (its draws' interquartile range over
// 1.349), beyond which another chain's median places it elsewhere — when
// each of the two chains places the other that far. Chains that sample
// one region have medians within a fraction of a standard deviation of
// each other on every parameter (R̂ would be far above 1 otherwise);
// chains in separate modes of an equal mixture of N(±10, 1) are 20 apart.
// The chains' preconditioners (Adapted) are not used: on a9a a chain's
// preconditioner narrower than its draws in one direction put chains of
// one log-concave posterior 16 "standard deviations" apart.
const modeSeparation = 6

// modeWarning returns a warning when the chains of r (the first n draws of
// those with at least n, n the fewest draws of a chain the summary covers)
// settled in separate places, nil otherwise. Each chain is placed by the
// medians of its draws (robust to heavy tails, where means wander) and
// judged in its own and the other's robust standard deviations, parameter
// by parameter. With a model that implements LogDensity, the warning gives
// the log density at each group's medians.
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
	scale := make([][]float64, len(cs))
	buf := make([]float64, n)
	for k, c := range cs {
		ch := r.Chains[c]
		med[k] = make([]float64, d)
		scale[k] = make([]float64, d)
		for j := range d {
			for i := range n {
				buf[i] = ch.Draws[i*d+j]
			}
			slices.Sort(buf)
			med[k][j] = quantileSorted(buf, 0.5)
			// The interquartile range over 1.349: the sd of a normal, and
			// finite for heavy tails.
			scale[k][j] = (quantileSorted(buf, 0.75) - quantileSorted(buf, 0.25)) / 1.349
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
	for k := range cs {
		for l := range cs {
			if k == l {
				continue
			}
			for j := range d {
				if dj := math.Abs(med[l][j]-med[k][j]) / scale[k][j]; dj > dist[k][l] || math.IsNaN(dj) {
					dist[k][l] = dj
				}
			}
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
	return []string{fmt.Sprintf("the chains settled in %d separate places — %s — each at least %.0f of its own standard deviations from the others along some parameter: separate modes, or parts of the posterior between which the chains do not move within the run; the draws weigh them by how many chains found them, not by their posterior mass; run more chains to see how many there are, or sample with a method for multimodal posteriors",
		len(roots), strings.Join(parts, "; "), closest)}
}

// quantileSorted returns the p quantile of the ascending x by linear
// interpolation between order statistics.
func quantileSorted(x []float64, p float64) float64 {
	h := p * float64(len(x)-1)
	i := int(h)
	if i+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[i] + (h-float64(i))*(x[i+1]-x[i])
}
