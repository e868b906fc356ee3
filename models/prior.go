// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
)

// A Prior is a prior distribution of one parameter, by name as a
// statistician writes it: Normal, StudentTPrior, Cauchy and Laplace for
// coefficients; HalfNormal, HalfT, HalfCauchy and Exponential for scales
// (σ, group sds, φ). The zero Prior means the default of where it is used
// (GLM says which). Its log densities are normalised, as Stan's _lpdf are;
// the half priors put the whole density on x > 0.
type Prior struct {
	kind           priorKind
	loc, scale, df float64
	lnorm          float64 // log normalising constant
	half, positive bool
}

type priorKind int

const (
	noPrior priorKind = iota
	normalPrior
	studentPrior
	laplacePrior
	exponentialPrior
	gammaPrior
)

// Normal is N(loc, scale²).
func Normal(loc, scale float64) Prior {
	return Prior{kind: normalPrior, loc: loc, scale: scale, lnorm: -math.Log(scale) - 0.5*math.Log(2*math.Pi)}
}

// StudentTPrior is the Student-t of df degrees of freedom, location loc and
// scale scale.
func StudentTPrior(df, loc, scale float64) Prior {
	a, _ := math.Lgamma((df + 1) / 2)
	b, _ := math.Lgamma(df / 2)
	return Prior{kind: studentPrior, loc: loc, scale: scale, df: df, lnorm: a - b - 0.5*math.Log(df*math.Pi) - math.Log(scale)}
}

// Cauchy is the Cauchy distribution: StudentTPrior(1, loc, scale).
func Cauchy(loc, scale float64) Prior { return StudentTPrior(1, loc, scale) }

// Laplace is the double exponential of location loc and scale scale.
func Laplace(loc, scale float64) Prior {
	return Prior{kind: laplacePrior, loc: loc, scale: scale, lnorm: -math.Log(2 * scale)}
}

// HalfNormal is N(0, scale²) restricted to x > 0.
func HalfNormal(scale float64) Prior { return half(Normal(0, scale)) }

// HalfT is the Student-t of df degrees of freedom and scale scale
// restricted to x > 0.
func HalfT(df, scale float64) Prior { return half(StudentTPrior(df, 0, scale)) }

// HalfCauchy is the Cauchy of scale scale restricted to x > 0.
func HalfCauchy(scale float64) Prior { return half(Cauchy(0, scale)) }

// Exponential is the exponential distribution of rate rate (mean 1/rate).
func Exponential(rate float64) Prior {
	return Prior{kind: exponentialPrior, scale: 1 / rate, lnorm: math.Log(rate), positive: true}
}

func half(p Prior) Prior {
	p.half, p.positive = true, true
	p.lnorm += math.Ln2
	return p
}

// IsZero says whether p is the zero Prior (the default where it is used).
func (p Prior) IsZero() bool { return p.kind == noPrior }

// check returns an error if p's parameters are not finite and positive
// where they must be, or if a scale parameter (positive) gets a prior that
// is not for scales and the reverse.
func (p Prior) check(what string, scale bool) error {
	switch {
	case p.kind == noPrior:
		return errorf(sgmcmc.ErrRange, "%s: no prior", what)
	case !(p.scale > 0) || math.IsInf(p.scale, 0):
		return errorf(sgmcmc.ErrRange, "%s: prior %v: scale %v, want finite and > 0", what, p, p.scale)
	case math.IsNaN(p.loc) || math.IsInf(p.loc, 0):
		return errorf(sgmcmc.ErrRange, "%s: prior %v: location %v, want finite", what, p, p.loc)
	case (p.kind == studentPrior || p.kind == gammaPrior) && (!(p.df > 0) || math.IsInf(p.df, 0)):
		return errorf(sgmcmc.ErrRange, "%s: prior %v: degrees of freedom %v, want finite and > 0", what, p, p.df)
	case scale && !p.positive:
		return errorf(sgmcmc.ErrRange, "%s: prior %v is for a parameter on the whole line; a scale wants HalfNormal, HalfT, HalfCauchy, Exponential or Gamma", what, p)
	case !scale && p.positive:
		return errorf(sgmcmc.ErrRange, "%s: prior %v is for a positive scale; a coefficient wants Normal, StudentTPrior, Cauchy or Laplace", what, p)
	}
	return nil
}

// String writes p as a statistician would: "normal(0, 2.5)".
func (p Prior) String() string {
	h := ""
	if p.half {
		h = "half-"
	}
	switch p.kind {
	case normalPrior:
		if p.half {
			return fmt.Sprintf("half-normal(%.3g)", p.scale)
		}
		return fmt.Sprintf("normal(%.3g, %.3g)", p.loc, p.scale)
	case studentPrior:
		if p.df == 1 {
			if p.half {
				return fmt.Sprintf("half-cauchy(%.3g)", p.scale)
			}
			return fmt.Sprintf("cauchy(%.3g, %.3g)", p.loc, p.scale)
		}
		if p.half {
			return fmt.Sprintf("%sstudent_t(%.3g, %.3g)", h, p.df, p.scale)
		}
		return fmt.Sprintf("student_t(%.3g, %.3g, %.3g)", p.df, p.loc, p.scale)
	case laplacePrior:
		return fmt.Sprintf("double_exponential(%.3g, %.3g)", p.loc, p.scale)
	case exponentialPrior:
		return fmt.Sprintf("exponential(%.3g)", 1/p.scale)
	case gammaPrior:
		return fmt.Sprintf("gamma(%.3g, %.3g)", p.df, 1/p.scale)
	}
	return "default"
}

// logPdf returns log p(x) and its derivative.
func (p Prior) logPdf(x float64) (float64, float64) {
	u := (x - p.loc) / p.scale
	switch p.kind {
	case normalPrior:
		return p.lnorm - u*u/2, -u / p.scale
	case studentPrior:
		q := u * u / p.df
		return p.lnorm - (p.df+1)/2*math.Log1p(q), -(p.df + 1) * u / (p.scale * p.df * (1 + q))
	case laplacePrior:
		s := 1.0
		if u < 0 {
			s = -1
		} else if u == 0 {
			s = 0
		}
		return p.lnorm - math.Abs(u), -s / p.scale
	case exponentialPrior:
		return p.lnorm - x/p.scale, -1 / p.scale
	case gammaPrior:
		return p.lnorm + (p.df-1)*math.Log(x) - x/p.scale, (p.df-1)/x - 1/p.scale
	}
	return 0, 0
}

// Gamma is the gamma distribution of shape shape and rate rate (mean
// shape/rate), for a positive parameter.
func Gamma(shape, rate float64) Prior {
	lg, _ := math.Lgamma(shape)
	return Prior{kind: gammaPrior, loc: 0, scale: 1 / rate, df: shape, lnorm: shape*math.Log(rate) - lg, positive: true}
}
