// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package sample

import "github.com/sgmcmc-go/sgmcmc/internal/testmodel"

// The shared test models, under the names the tests use.
type (
	testModel  = testmodel.Test
	ckModel    = testmodel.Ck
	batchLogit = testmodel.BatchLogit
)

var (
	testGrad      = testmodel.Grad
	newLogitModel = testmodel.NewLogit
	chainDigest   = testmodel.ChainDigest
)
