// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestRows guards the example's claims on a reduced run: replica exchange
// started at one mode of the 1-D mixture finds both and weighs them
// within max(0.05, 4 MCSE) with a weight MCSE at most 0.025; a local
// method started there reports one basin (and is excused); a local method
// whose chains split between the modes warns of it; the improper target
// is an error that names the flat direction; and a row has every key the
// JSON promises.
func TestRows(t *testing.T) {
	from := newTargets("bimodal_from_mode")[0]
	r, _ := run(from, multimodalMethod, 1)
	if r.Error != "" || r.WeightErr == nil || r.WeightTol == nil {
		t.Fatalf("replica exchange: %+v", r)
	}
	if *r.WeightTol > 0.1 || *r.WeightErr > *r.WeightTol || *r.MeanErrSD > 0.1 || *r.SDRelErr > 0.1 || len(r.Warnings) > 0 {
		t.Errorf("replica exchange from a mode: weight err %.3f (tol %.3f), mean err %.3f sd, sd err %.3f, warnings %q",
			*r.WeightErr, *r.WeightTol, *r.MeanErrSD, *r.SDRelErr, r.Warnings)
	}
	if *r.BasinsFound != 2 {
		t.Errorf("replica exchange found %d basins", *r.BasinsFound)
	}
	l, _ := run(from, "SGHMC", 1)
	if l.BasinsFound == nil || *l.BasinsFound != 1 {
		t.Errorf("SGHMC from a mode: basins %v, want 1", l.BasinsFound)
	}
	between := newTargets("bimodal_between")[0]
	b, _ := run(between, "SGHMC", 1)
	if *b.BasinsFound == 2 && !b.ModeWarning {
		t.Errorf("SGHMC between the modes: chains in both, no mode warning: %q", b.Warnings)
	}
	imp, _ := run(newTargets("improper")[0], "SGLD", 1)
	if !strings.Contains(imp.Error, "no curvature along 1.00·theta.2") {
		t.Errorf("improper: error %q", imp.Error)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"target", "method", "seed", "max_mean_err_sd", "max_sd_rel_err", "max_weight_err", "weight_tol", "max_quantile_err_iqr", "basins_found", "mode_warning", "warnings", "error"} {
		if _, ok := m[k]; !ok {
			t.Errorf("row lacks %q", k)
		}
	}
	if v, ok := m["max_quantile_err_iqr"]; !ok || v != nil {
		t.Errorf("max_quantile_err_iqr %v, want null on a target judged by moments", v)
	}
	if math.IsNaN(*r.MeanErrSD) {
		t.Error("NaN mean error")
	}
}
