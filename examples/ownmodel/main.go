// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"context"
	"fmt"
	"github.com/sgmcmc-go/sgmcmc/sample"
	"github.com/sgmcmc-go/sgmcmc/stancsv"
	"gonum.org/v1/gonum/stat/distuv"
	"log"
	"math"
	"math/rand/v2"
)

type counts struct{ x, y []float64 } // y_i ~ Poisson(exp(a + b·x_i)), flat priors on a, b

func (m counts) Dim() int                       { return 2 }
func (m counts) Len() int                       { return len(m.x) }
func (m counts) LogPriorGrad(dst, th []float64) {}
func (m counts) LogLikGrad(dst, th []float64, i int, scale float64) {
	r := scale * (m.y[i] - math.Exp(th[0]+th[1]*m.x[i]))
	dst[0], dst[1] = dst[0]+r, dst[1]+r*m.x[i]
}

func main() {
	m, src, names := counts{}, rand.NewPCG(1, 2), []string{"a", "b"}
	for x := -2.0; x < 2; x += 0.004 { // 1000 synthetic items with a = 0.5, b = 0.8
		m.x, m.y = append(m.x, x), append(m.y, distuv.Poisson{Lambda: math.Exp(0.5 + 0.8*x), Src: src}.Rand())
	}
	res, err := sample.Run(context.Background(), sample.Problem{Model: m, Names: names}, []float64{0, 0}, &sample.Settings{Seed: 1}, nil)
	for k := 0; err == nil && k < len(res.Chains); k++ { // one CmdStan-style CSV file per chain
		err = stancsv.WriteFile(fmt.Sprintf("counts-%d.csv", k+1), &stancsv.Chain{Names: names, Draws: res.Chains[k].Draws, StepSize: res.Chains[k].Eps})
	}
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range res.Summary {
		fmt.Println(p.Name, p.Summary)
	}
	fmt.Println("warnings:", res.Warnings)
}
