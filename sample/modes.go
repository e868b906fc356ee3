// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/sgmcmc-go/sgmcmc"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/internal/fullpass"
)

// The draws' mode test (doc/adaptation.md §8): modeSeparation is the
// distance, in a chain's own robust standard deviations along one
// parameter (its draws' interquartile range over 1.349), beyond which
// another chain's median places it elsewhere — when each of the two chains
// places the other that far. Chains that sample one region have medians
// within a fraction of a standard deviation of each other on every
// parameter (R̂ would be far above 1 otherwise); chains in separate modes
// of an equal mixture of N(±10, 1) are 20 apart. The chains'
// preconditioners (Adapted) are not used: on a logistic regression with
// 124 coefficients a chain's preconditioner narrower than its draws in one
// direction put chains of one log-concave posterior 16 "standard
// deviations" apart.

// modeWarning returns a warning when the chains of r (the first n draws of
// those with at least n, n the fewest draws of a chain the summary covers)
// settled in separate places, nil otherwise. Each chain is placed by the
// medians of its draws (robust to heavy tails, where means wander) and
// judged in its own and the other's robust standard deviations, parameter
// by parameter. With a model that implements LogDensity, the warning gives
// the log density at each group's medians.
func modeWarning(r *Result, ids []int, m sgmcmc.Model) []Warning {
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
	// Group the chains: two are in one mode unless each places the other
	// beyond modeSeparation.
	g := groupChains(len(cs), func(k, l int) bool { return math.Min(dist[k][l], dist[l][k]) > modeSeparation })
	if len(g.roots) < 2 {
		return nil
	}
	// The smallest separation between chains of different groups.
	closest := math.Inf(1)
	for k := range cs {
		for l := range cs {
			if g.find(k) != g.find(l) {
				closest = math.Min(closest, math.Min(dist[k][l], dist[l][k]))
			}
		}
	}
	parts := g.describe(cs, ids, m, func(k int) []float64 { return med[k] }, "at its medians")
	return []Warning{runWarning(Modes, "", "the chains settled in %d separate places — %s — each at least %.0f of its own standard deviations from the others along some parameter: separate modes, or parts of the posterior between which the chains do not move within the run; the draws weigh them by how many chains found them, not by their posterior mass; run more chains to see how many there are, or sample with ReplicaExchange",
		len(g.roots), strings.Join(parts, "; "), closest)}
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

// settledLimit is the χ²_d quantile at 1 − settledTail: a squared whitened
// distance beyond it lies outside a d-dimensional Gaussian approximation.
// Two tests share it: whether two chains' warmups settled in separate
// modes (warmupModeWarning) and the rounds' test of a chain's mean
// (drawsFit, rounds.go).
func settledLimit(d int) float64 {
	return distuv.ChiSquared{K: float64(d)}.Quantile(1 - settledTail)
}

// settled returns where the chain's warmup settled, in θ: the full-data
// mode when the control variate's centre search converged; nil otherwise,
// and for a multimodal method, whose chains are meant to move between
// modes. The Newton phase's end is not used: on posteriors far from
// Gaussian it stops tens of nats below the mode, and the warning fired on
// unimodal regressions (doc/adaptation.md §8).
func (e *chainEnv) settled(multimodal bool) []float64 {
	if multimodal || !e.centred || e.center == nil {
		return nil
	}
	return append([]float64(nil), e.center...)
}

// warmupModeWarning returns a warning when the chains' warmups settled in
// separate modes (doc/adaptation.md §8): chains k and l are apart when
// each lies outside the other's local Gaussian approximation — half the
// squared distance between their settling points, in each chain's own
// whitened units (its preconditioner, from the curvature and draws where
// it settled), above the χ²_d quantile at 1 − settledTail (half: two
// points of one mode's typical set are √2 times as far apart as a point
// from the mode). nil when fewer than two chains settled.
func warmupModeWarning(outs []chainOut, ids []int, m sgmcmc.Model) []Warning {
	var cs []int
	for c, o := range outs {
		// A chain that joined another (join.go), or whose draws moved away
		// from where its warmup settled (a later round re-adapted it), does
		// not sample the mode its warmup settled in.
		if o.settled != nil && o.adapted.Shift != nil && !o.adapted.Joined && !movedOn(&o) {
			cs = append(cs, c)
		}
	}
	if len(cs) < 2 {
		return nil
	}
	d := len(outs[cs[0]].settled)
	lim := settledLimit(d)
	z, zk := make([]float64, d), make([]float64, d)
	dist := func(k, l int) float64 {
		a := &outs[cs[k]].adapted
		if w := outs[cs[k]].warmup; w != nil {
			a = w
		}
		aff, err := a.Affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
		if err != nil {
			return 0
		}
		aff.ToZ(z, outs[cs[l]].settled)
		aff.ToZ(zk, outs[cs[k]].settled)
		s := 0.0
		for i := range z {
			s += (z[i] - zk[i]) * (z[i] - zk[i])
		}
		return s / 2
	}
	g := groupChains(len(cs), func(k, l int) bool { return dist(k, l) > lim && dist(l, k) > lim })
	if len(g.roots) < 2 {
		return nil
	}
	parts := g.describe(cs, ids, m, func(k int) []float64 { return outs[cs[k]].settled }, "there")
	return []Warning{runWarning(Modes, "", "the chains' warmups settled in %d separate modes — %s — each outside the others' local Gaussian approximations: the posterior has several modes, and each chain samples the one it started in; the draws weigh them by how many chains found them, not by their posterior mass, whatever R̂ says; sample with ReplicaExchange, or run more chains from dispersed starts to see how many modes there are",
		len(g.roots), strings.Join(parts, "; "))}
}

// chainGroups groups chains by union–find: two chains are in one group
// unless they are apart, and groups are joined transitively.
type chainGroups struct {
	parent  []int
	roots   []int         // each group's representative, in chain order
	members map[int][]int // a representative's chains
}

// groupChains groups n chains by apart(k, l), k < l.
func groupChains(n int, apart func(k, l int) bool) *chainGroups {
	g := &chainGroups{parent: make([]int, n), members: map[int][]int{}}
	for k := range g.parent {
		g.parent[k] = k
	}
	for k := range n {
		for l := k + 1; l < n; l++ {
			if !apart(k, l) {
				g.parent[g.find(l)] = g.find(k)
			}
		}
	}
	for k := range n {
		r := g.find(k)
		if _, ok := g.members[r]; !ok {
			g.roots = append(g.roots, r)
		}
		g.members[r] = append(g.members[r], k)
	}
	return g
}

func (g *chainGroups) find(k int) int {
	for g.parent[k] != k {
		k = g.parent[k]
	}
	return k
}

// describe names each group's chains (ids[cs[k]]) and, when m implements
// LogDensity, the log density at the point at(k) of its first chain,
// "(log density … where)".
func (g *chainGroups) describe(cs, ids []int, m sgmcmc.Model, at func(k int) []float64, where string) []string {
	ld, _ := m.(sgmcmc.LogDensity)
	parts := make([]string, len(g.roots))
	for i, r := range g.roots {
		var names []string
		for _, k := range g.members[r] {
			names = append(names, fmt.Sprint(ids[cs[k]]))
		}
		parts[i] = "chains " + strings.Join(names, ", ")
		if len(names) == 1 {
			parts[i] = "chain " + names[0]
		}
		if ld != nil {
			if d, ok := m.(fullpass.Density); ok {
				u := fullpass.Potential(d, at(g.members[r][0]))
				parts[i] += fmt.Sprintf(" (log density %.4g %s)", -u, where)
			}
		}
	}
	return parts
}

// movedOn says whether a chain's draws lie away from the point its warmup
// settled in: ½‖L⁻¹(settled − mean of the draws)‖² beyond settledLimit in
// the chain's final whitening L.
func movedOn(o *chainOut) bool {
	if o.chain == nil || o.chain.Len() == 0 || o.chain.Coords != nil || o.chain.Dim != len(o.settled) {
		return false
	}
	d := len(o.settled)
	mean := make([]float64, d)
	o.chain.Mean(mean)
	aff, err := o.adapted.Affine(sgmcmc.GradFunc(func([]float64, []float64) {}))
	if err != nil {
		return false
	}
	z, zm := make([]float64, d), make([]float64, d)
	aff.ToZ(z, o.settled)
	aff.ToZ(zm, mean)
	var q float64
	for i := range z {
		q += (z[i] - zm[i]) * (z[i] - zm[i])
	}
	return q/2 > settledLimit(d)
}
