// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/sgmcmc-go/sgmcmc/models"
	"github.com/sgmcmc-go/sgmcmc/sample"
)

// A Poisson regression of counts on a dose, with an exposure and a
// varying intercept by site, read from a CSV file, sampled by sample.Run
// with its defaults and summarised on the natural scale.
func Example() {
	const data = `count,dose,exposure_log,site
3,0.1,0.0,a
5,0.5,0.7,a
2,0.2,0.0,b
9,1.1,0.7,b
4,0.4,0.3,c
7,0.9,0.3,c
1,0.0,0.0,d
6,0.8,0.5,d
`
	f, err := models.ReadCSV(strings.NewReader(data))
	if err != nil {
		log.Fatal(err)
	}
	y, _ := f.Numeric("count")
	off, _ := f.Numeric("exposure_log")
	x, names, err := f.Matrix([]string{"dose"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	site, levels, _ := f.Factor("site")
	m, err := models.NewGLM(models.GLM{
		Family: models.Poisson, Y: y, X: x, Names: names, Offset: off,
		Groups: []models.Group{{Name: "site", Index: site, Levels: levels}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Join(m.Names(), " "))
	p, err := m.Problem()
	if err != nil {
		log.Fatal(err)
	}
	res, err := sample.Run(context.Background(), p, m.Start(), &sample.Settings{Seed: 1, Draws: 200}, nil)
	if err != nil {
		log.Fatal(err)
	}
	table, err := m.Summary(res.Finished())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(table), "rows:", table[0].Name, "…", table[len(table)-1].Name)
	// Output:
	// b.Intercept b.dose sd_site.Intercept r_site.a.Intercept r_site.b.Intercept r_site.c.Intercept r_site.d.Intercept
	// 7 rows: b.Intercept … r_site.d.Intercept
}
