// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package stancsv

import (
	"fmt"
	"strconv"
	"strings"
)

// hmcColumns are the sampler columns CmdStan writes for algorithm = hmc,
// in its order.
var hmcColumns = []string{"lp__", "accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__", "divergent__", "energy__"}

// cmdStan reports whether comments are those of a CmdStan file, which
// begins with its version.
func cmdStan(comments []Comment) bool {
	for _, m := range comments {
		if m.Key == "stan_version_major" {
			return true
		}
	}
	return false
}

// lookup returns the first word of the value of the first comment with
// the given key ("1000" of "num_samples = 1000 (Default)").
func lookup(comments []Comment, key string) (string, bool) {
	for _, m := range comments {
		if m.Key == key {
			v, _, _ := strings.Cut(m.Value, " ")
			return v, true
		}
	}
	return "", false
}

// checkCmdStanColumns returns what is wrong with the header fields of a
// CmdStan file whose comments say algorithm = hmc but which lacks some of
// that algorithm's sampler columns, or "".
func checkCmdStanColumns(comments []Comment, fields []string) string {
	if !cmdStan(comments) {
		return ""
	}
	if alg, _ := lookup(comments, "algorithm"); alg != "hmc" {
		return ""
	}
	have := make(map[string]bool, len(fields))
	for _, f := range fields {
		have[strings.TrimSpace(f)] = true
	}
	var missing []string
	for _, name := range hmcColumns {
		if !have[name] {
			missing = append(missing, name)
		}
	}
	if missing == nil {
		return ""
	}
	return fmt.Sprintf("the comments say CmdStan's algorithm = hmc, whose sampler columns are %s, but %d columns lack %s: a truncated or damaged header?",
		strings.Join(hmcColumns, ","), len(fields), strings.Join(missing, ","))
}

// checkCmdStanDraws returns what is wrong if c, read from a CmdStan file
// of method = sample, has fewer draws than its comments claim (at least
// num_samples/thin, plus num_warmup/thin if save_warmup), or "".
func checkCmdStanDraws(c *Chain) string {
	if !cmdStan(c.Comments) {
		return ""
	}
	if m, _ := lookup(c.Comments, "method"); m != "sample" {
		return ""
	}
	count := func(key string) (int, bool) {
		v, ok := lookup(c.Comments, key)
		if !ok {
			return 0, false
		}
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= 0
	}
	samples, ok := count("num_samples")
	if !ok {
		return ""
	}
	thin, ok := count("thin")
	if !ok || thin < 1 {
		thin = 1
	}
	want := samples / thin
	claim := fmt.Sprintf("num_samples = %d, thin = %d", samples, thin)
	if sw, _ := lookup(c.Comments, "save_warmup"); sw == "1" || sw == "true" {
		if warmup, ok := count("num_warmup"); ok {
			want += warmup / thin
			claim += fmt.Sprintf(", save_warmup with num_warmup = %d", warmup)
		}
	}
	if n := c.Len(); n < want {
		return fmt.Sprintf("%d draws, but the comments claim at least %d (%s): the file ends early (truncated?)", n, want, claim)
	}
	return ""
}
