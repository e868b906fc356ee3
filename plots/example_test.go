// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package plots_test

import (
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/sgmcmc-go/sgmcmc/diagnostics"
	"github.com/sgmcmc-go/sgmcmc/plots"
)

// Trace and rank plots of four chains of two parameters, one of which has
// a chain stuck apart.
func ExampleSaveRank() {
	rng := rand.New(rand.NewPCG(1, 2))
	chains := make([]diagnostics.Rows, 4)
	for c := range chains {
		for range 500 {
			stuck := rng.NormFloat64()
			if c == 3 {
				stuck += 2
			}
			chains[c] = append(chains[c], []float64{rng.NormFloat64(), stuck})
		}
	}
	dir, err := os.MkdirTemp("", "plots")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	names := []string{"mu", "tau"}
	if err := plots.SaveTrace(filepath.Join(dir, "trace.png"), names, chains, &plots.Options{Title: "Trace plots"}); err != nil {
		log.Fatal(err)
	}
	if err := plots.SaveRank(filepath.Join(dir, "rank.png"), names, chains, &plots.Options{Title: "Rank plots", Bins: 10}); err != nil {
		log.Fatal(err)
	}
	// Output:
}
