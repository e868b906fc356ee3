// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/badinput"
)

// The bad-input catalogue's machinery, as the root package's tests have it
// (a case, its check, a child process for a panic on a goroutine of the
// library's), for Run's cases.

// badCase is one entry of the bad-input catalogue: a call with bad input
// and the outcome it must have. Exactly one of want (a sentinel the error
// must wrap), step (a *StepError, wrapping want if want is set too) and
// defined (run returns nil iff it observed the documented value) applies.
type badCase struct {
	name    string
	run     func() error
	want    error
	step    bool
	defined bool
	substr  string // if not empty, the error message must contain it
	child   bool   // run in a child process (runInChild)
}

// outcome classifies a case for the closing counts.
func (c badCase) outcome() string { return c.spec().Outcome(sentinelName) }

// spec is the case as the shared machinery reads it.
func (c badCase) spec() badinput.Case {
	return badinput.Case{Run: c.run, Want: c.want, Step: c.step, Defined: c.defined, Substr: c.substr}
}

func sentinelName(err error) string {
	for _, s := range []struct {
		e    error
		name string
	}{{sgmcmc.ErrNil, "ErrNil"}, {sgmcmc.ErrDimension, "ErrDimension"}, {sgmcmc.ErrNonFinite, "ErrNonFinite"}, {sgmcmc.ErrRange, "ErrRange"},
		{sgmcmc.ErrUnsupported, "ErrUnsupported"}, {sgmcmc.ErrCheckpoint, "ErrCheckpoint"}, {sgmcmc.ErrDivergence, "ErrDivergence"}} {
		if err == s.e {
			return s.name
		}
	}
	return fmt.Sprint(err)
}

// TestBadInputSample runs the bad-input catalogue: every case must
// give its documented outcome, never a panic, and the counts by outcome are
// logged (go test -v -run TestBadInputSample).
func TestBadInputSample(t *testing.T) {
	t.Parallel()
	cases := sampleBadCases()
	counts := map[string]int{}
	for _, c := range cases {
		counts[c.outcome()]++
		t.Run(subtestName(c.name), func(t *testing.T) {
			if c.child {
				runInChild(t, c.name)
				return
			}
			c.check(t)
		})
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("%d cases:", len(cases))
	for _, k := range keys {
		t.Logf("  %3d  %s", counts[k], k)
	}
}

// subtestName makes a case's name a subtest name one level deep.
func subtestName(name string) string { return badinput.SubtestName(name) }

// check runs the case and reports an outcome other than its documented one.
func (c badCase) check(t *testing.T) {
	c.spec().Check(t, func(err error) bool {
		var se *sgmcmc.StepError
		return errors.As(err, &se)
	}, sentinelName)
}

// badInputChildEnv names the case a child process runs (runInChild).
const badInputChildEnv = "SGMCMC_BADINPUT_CASE"

// runInChild runs the case in a child process of the test binary, so that
// a panic on a goroutine of the library's, which no recover in the test
// can catch, fails this case instead of killing every test.
func runInChild(t *testing.T, name string) {
	if testing.Short() && raceEnabled {
		t.Skip("child processes under -race -short: covered by the plain run")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestBadInputChildProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), badInputChildEnv+"="+name)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "case ran: ") {
		t.Fatalf("in a child process: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "badinput_test.go") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

// TestBadInputChildProcess runs the one case named by badInputChildEnv; it
// does nothing in a normal run.
func TestBadInputChildProcess(t *testing.T) {
	name := os.Getenv(badInputChildEnv)
	if name == "" {
		t.Skip("runs only as the child of a bad-input case")
	}
	for _, c := range sampleBadCases() {
		if c.name == name {
			c.check(t)
			fmt.Println("case ran: " + name)
			return
		}
	}
	t.Fatalf("no case %q", name)
}
