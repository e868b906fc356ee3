// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package rng_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/rng"
)

// A chain's fast generator, seeded from the chain's ChaCha8 source, fills a
// block of normals; its state checkpoints and restores exactly.
func ExampleNormal() {
	g, err := rng.NewNormalFrom(rand.NewChaCha8([32]byte{'c', 'h', 'a', 'i', 'n', 0}))
	if err != nil {
		log.Fatal(err)
	}
	x := make([]float64, 3)
	g.Fill(x)
	fmt.Printf("%.4f\n", x)

	state, err := g.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	a := g.Norm()
	var h rng.Normal
	if err := h.UnmarshalBinary(state); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(state), "bytes; restored draw equal:", h.Norm() == a)
	// Output:
	// [1.0751 0.3443 -0.2745]
	// 28 bytes; restored draw equal: true
}
