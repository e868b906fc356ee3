// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package transform_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/sgmcmc-go/sgmcmc/sample"
	"github.com/sgmcmc-go/sgmcmc/transform"
)

// visits is a model written in its natural parameters: daily counts
// c_i ~ Poisson(λ) with λ > 0, λ ~ Gamma(2, 1), and whether a visit came
// from a returning customer, b_i ~ Bernoulli(p) with p ∈ (0, 1),
// p ~ Beta(1, 1). θ = (λ, p).
type visits struct{ c, b []float64 }

func (m visits) Dim() int { return 2 }
func (m visits) Len() int { return len(m.c) }
func (m visits) LogPriorGrad(dst, th []float64) {
	dst[0] += 1/th[0] - 1 // (2 − 1)/λ − 1
}
func (m visits) LogLikGrad(dst, th []float64, i int, scale float64) {
	dst[0] += scale * (m.c[i]/th[0] - 1)
	dst[1] += scale * (m.b[i]/th[1] - (1-m.b[i])/(1-th[1]))
}

// A model with a rate and a probability, sampled by sample.Run in
// unconstrained coordinates (log λ, logit p) and reported in its own.
func Example() {
	r := rand.New(rand.NewPCG(1, 1))
	m := visits{}
	var sc, sb float64
	for range 30 {
		c, b := float64(r.IntN(7)), float64(r.IntN(4)/3) // some counts, some bits
		m.c, m.b = append(m.c, c), append(m.b, b)
		sc, sb = sc+c, sb+b
	}
	sp, err := transform.NewSpace(
		transform.Param{Name: "lambda", Transform: transform.Positive{}},
		transform.Param{Name: "p", Transform: transform.Bounded{Lower: 0, Upper: 1}},
	)
	if err != nil {
		log.Fatal(err)
	}
	um, err := sp.Model(m)
	if err != nil {
		log.Fatal(err)
	}
	y0 := make([]float64, sp.FreeDim())
	if err := sp.Unconstrain(y0, []float64{1, 0.5}); err != nil {
		log.Fatal(err)
	}
	res, err := sample.Run(context.Background(), sample.Problem{Model: um, Names: sp.FreeNames()}, y0, &sample.Settings{Seed: 1}, nil)
	if err != nil {
		log.Fatal(err)
	}
	table, err := sp.Summary(res.Chains)
	if err != nil {
		log.Fatal(err)
	}
	// Exact posteriors: Gamma(2 + Σc, 1 + n) and Beta(1 + Σb, 1 + n − Σb).
	n := float64(len(m.c))
	a, b := 2+sc, 1+n
	pa, pb := 1+sb, 1+n-sb
	exact := [][2]float64{
		{a / b, math.Sqrt(a) / b},
		{pa / (pa + pb), math.Sqrt(pa*pb/(pa+pb+1)) / (pa + pb)},
	}
	for j, row := range table {
		fmt.Printf("%-6s mean within 3 MCSE of exact: %v, sd / exact sd = %.1f\n",
			row.Name, math.Abs(row.Mean-exact[j][0]) < 3*row.MCSEMean, row.SD/exact[j][1])
	}
	// Output:
	// lambda mean within 3 MCSE of exact: true, sd / exact sd = 1.0
	// p      mean within 3 MCSE of exact: true, sd / exact sd = 1.0
}
