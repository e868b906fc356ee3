// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"io"
	"strings"
)

// warningKinds classifies sample.Run's warnings by the start of their text:
// what each protects against, in the order sample.Run gives them.
var warningKinds = []struct{ kind, prefix string }{
	{"stopped early", "the run stopped early"},
	{"R̂", "R̂ = "},
	{"bulk ESS", "bulk ESS = "},
	{"divergences", ""}, // "N divergent transitions …": matched by contains
	{"heat", "excess temperature"},
	{"gradient noise", "gradient noise dominates"},
	{"no positive curvature", "the posterior has no positive curvature"},
	{"warmup modes", "the chains' warmups settled in"},
	{"separate places", "the chains settled in"},
	{"failed chains", ""},    // "N of K chains failed …": matched by contains
	{"unreached", ""},        // "chain c: … where its preconditioner did not look …"
	{"centre", ""},           // "chain c: its control variate's centre …"
	{"replica exchange", ""}, // "chain c: replica exchange: …"
}

// containsKinds are the kinds matched by a phrase inside the warning.
var containsKinds = map[string]string{
	"divergences":      "divergent transitions while sampling",
	"failed chains":    "chains failed and are left out",
	"unreached":        "where its preconditioner did not look",
	"centre":           "control variate's centre",
	"replica exchange": "replica exchange:",
}

// warningKind returns the kind of warning w, "other" if none matches.
func warningKind(w string) string {
	for _, k := range warningKinds {
		switch {
		case k.prefix == "" && strings.Contains(w, containsKinds[k.kind]):
			return k.kind
		case k.prefix != "" && strings.HasPrefix(w, k.prefix):
			return k.kind
		}
	}
	return "other"
}

// WarningStat counts, over the rows of a run, the cells that met the goal
// (Row.Pass) and those that missed it on which one kind of warning fired:
// a warning that fires on cells that met the goal is a false alarm.
type WarningStat struct {
	Kind     string `json:"kind"`
	OnMet    int    `json:"on_met"`
	OnMissed int    `json:"on_missed"`
}

// WarningSummary is the warnings' record over a run: the cells that met
// the goal and how many of them carry any warning (false alarms), the
// cells that missed it and how many of them carry a warning or an error
// (the rest are wrong answers without a word), and each kind's counts.
type WarningSummary struct {
	Met          int           `json:"met"`
	MetWarned    int           `json:"met_warned"`
	Missed       int           `json:"missed"`
	MissedWarned int           `json:"missed_warned"`
	Kinds        []WarningStat `json:"kinds"`
}

// summariseWarnings tallies the warnings of rows.
func summariseWarnings(rows []Row) WarningSummary {
	var s WarningSummary
	idx := map[string]int{}
	for _, k := range warningKinds {
		idx[k.kind] = len(s.Kinds)
		s.Kinds = append(s.Kinds, WarningStat{Kind: k.kind})
	}
	idx["other"] = len(s.Kinds)
	s.Kinds = append(s.Kinds, WarningStat{Kind: "other"})
	for _, r := range rows {
		met := r.Pass()
		if met {
			s.Met++
			if len(r.Warnings) > 0 {
				s.MetWarned++
			}
		} else {
			s.Missed++
			if len(r.Warnings) > 0 || r.Error != "" {
				s.MissedWarned++
			}
		}
		seen := map[string]bool{}
		for _, w := range r.Warnings {
			k := warningKind(w)
			if seen[k] {
				continue
			}
			seen[k] = true
			if met {
				s.Kinds[idx[k]].OnMet++
			} else {
				s.Kinds[idx[k]].OnMissed++
			}
		}
	}
	return s
}

// write prints the summary under the table.
func (s WarningSummary) write(w io.Writer) {
	fmt.Fprintf(w, "\nWarnings: %d of %d cells that met the goal carry one (false alarms); %d of %d that missed it carry a warning or an error.\n",
		s.MetWarned, s.Met, s.MissedWarned, s.Missed)
	for _, k := range s.Kinds {
		if k.OnMet+k.OnMissed > 0 {
			fmt.Fprintf(w, "  %-22s on %d met, %d missed\n", k.Kind, k.OnMet, k.OnMissed)
		}
	}
}
