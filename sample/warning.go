// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"fmt"
	"strings"
)

// A Warning says, in words, why some of a Result's draws may not be
// trusted, and, as values a program can act on, what kind of doubt it is,
// which chain and which parameter it concerns.
type Warning struct {
	// Kind classifies the warning.
	Kind WarningKind
	// Chain is the chain concerned, numbered as its messages number it
	// (Settings.ChainIDs, by default its index in Result.Chains), or −1
	// when the warning concerns the run as a whole.
	Chain int
	// Param names the parameter concerned (as in Result.Summary), or is
	// empty when the warning concerns no one parameter.
	Param string
	// Message is the warning in words: what was seen, what it means for
	// the draws and what to do.
	Message string
}

// String returns the warning's message.
func (w Warning) String() string { return w.Message }

// MarshalText returns the message, so that a Warning is a string in JSON.
func (w Warning) MarshalText() ([]byte, error) { return []byte(w.Message), nil }

// Warnings are a Result's warnings, which print one per line.
type Warnings []Warning

// String returns the warnings one per line, or "none".
func (ws Warnings) String() string {
	if len(ws) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(w.Message)
	}
	return b.String()
}

// Messages returns the warnings' messages.
func (ws Warnings) Messages() []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Message
	}
	return out
}

// Has reports whether any of the warnings is of kind k.
func (ws Warnings) Has(k WarningKind) bool {
	for _, w := range ws {
		if w.Kind == k {
			return true
		}
	}
	return false
}

// WarningKind classifies a Warning by what it doubts.
type WarningKind int

// The kinds of warning. doc/adaptation.md says which test raises each.
const (
	// Stopped: the run stopped before every chain kept its Draws.
	Stopped WarningKind = iota + 1
	// NotMixed: R̂ above 1.01 for some parameter; the chains disagree.
	NotMixed
	// FewDraws: a bulk effective sample size below 100 per chain.
	FewDraws
	// Divergent: divergent transitions while sampling.
	Divergent
	// Heat: the gradient noise heats the chain past Settings.MaxHeat, or
	// sgmcmc.Run's temperature test found a chain spread a factor of two
	// or more too wide or too narrow (sgmcmc.ErrTemperature).
	Heat
	// Noise: the gradient noise dominates the sampler's own diffusion.
	Noise
	// Flat: no positive curvature at some warmup points.
	Flat
	// Unreached: a chain's draws went where its preconditioner did not
	// look, and no further round could re-adapt it.
	Unreached
	// Modes: the chains sampled separate places of the posterior.
	Modes
	// Exchange: replica exchange's hot replicas found mass the cold one
	// did not visit (Adapted.Ladder has the ladder's health).
	Exchange
	// Failed: some chains failed (Result.Errors) and the summary leaves
	// them out; the others ran to the end.
	Failed
	// Centre: a chain's control-variate centre search stopped short of
	// the full-data mode (Adapted.CenterStep), so that its gradient noise
	// was measured at an estimate of where the chain samples.
	Centre
)

var kindNames = [...]string{"", "stopped", "not mixed", "few draws", "divergent", "heat", "noise", "flat", "unreached", "modes", "exchange", "failed", "centre"}

// String names the kind.
func (k WarningKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("WarningKind(%d)", int(k))
}

// runWarning returns a warning of the run as a whole.
func runWarning(k WarningKind, param, format string, args ...any) Warning {
	return Warning{Kind: k, Chain: -1, Param: param, Message: fmt.Sprintf(format, args...)}
}
