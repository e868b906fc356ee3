// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models_test

import (
	"context"
	"testing"

	"github.com/sgmcmc-go/sgmcmc/internal/glmcases"
	"github.com/sgmcmc-go/sgmcmc/models"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// TestAgainstStan samples each case of package glmcases with sample.Run's
// defaults but 2,000 draws a chain (as examples/glm) and compares every natural
// parameter with rstan's NUTS (20,000 draws): each mean within 4 combined
// MCSEs plus 5 % of the posterior sd, each sd within 4/√(2 ESS) plus 5 %
// (glmcases.Errors); no warning — or, for a case glmcases marks Hard,
// right or warned of; and the rule's parameterisation is the one the case
// was built for. With -short, the small hierarchical cases only.
func TestAgainstStan(t *testing.T) {
	for _, c := range glmcases.Cases {
		if testing.Short() && (c.Spec.Param == "" || c.N > 1000) {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			ref, err := glmcases.ReadRef(c.Name)
			if err != nil {
				t.Fatal(err)
			}
			g, s, err := glmcases.Load(c.Name)
			if err != nil {
				t.Fatal(err)
			}
			m, err := models.NewGLM(g)
			if err != nil {
				t.Fatal(err)
			}
			if s.Param != "" {
				for j, cen := range m.Centred(*s.Group) {
					if cen != (s.Param == "centred") {
						t.Errorf("level %d: centred %v, want %s\n%s", j+1, cen, s.Param, m.Describe())
					}
				}
			}
			p, err := m.Problem()
			if err != nil {
				t.Fatal(err)
			}
			res, err := sample.Run(context.Background(), p, m.Start(), &sample.Settings{Seed: 1, Draws: 2000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tab, err := m.Summary(res.Finished())
			if err != nil {
				t.Fatal(err)
			}
			mo, so, rel, err := glmcases.Errors(tab, ref)
			if err != nil {
				t.Fatal(err)
			}
			right := mo <= 1 && so <= 1
			switch {
			case c.Hard != "" && !right && len(res.Warnings) == 0:
				t.Errorf("a wrong answer without a warning: mean error %.2f of its tolerance, sd error %.2f of its (largest %.1f%%)\n%s", mo, so, 100*rel, tab)
			case c.Hard == "" && (!right || len(res.Warnings) > 0):
				t.Errorf("mean error %.2f of its tolerance, sd error %.2f of its (largest %.1f%%), warnings: %v\n%s", mo, so, 100*rel, res.Warnings, tab)
			case c.Hard != "":
				t.Logf("right %v, %d warnings (hard: %s)", right, len(res.Warnings), c.Hard)
			}
		})
	}
}
