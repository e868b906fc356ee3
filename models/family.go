// Copyright ©2026 The sgmcmc Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package models

import (
	"fmt"
	"math"

	"github.com/sgmcmc-go/sgmcmc"
	"github.com/sgmcmc-go/sgmcmc/internal/logreg"
)

// Family is a GLM's response distribution.
type Family int

// The families. Each has one or two links and, for some, an auxiliary
// parameter: Gaussian and StudentT a scale σ ("sigma"), StudentT also its
// degrees of freedom ν ("nu", fixed by GLM.Nu or estimated), NegBinomial
// its shape φ ("shape", Var y = μ + μ²/φ).
const (
	// Gaussian: y ~ N(η, σ²), identity link.
	Gaussian Family = iota + 1
	// StudentT: y ~ t_ν(η, σ), identity link.
	StudentT
	// Bernoulli: y ∈ {0, 1}, P(y = 1) = g⁻¹(η), logit (default) or probit link.
	Bernoulli
	// Binomial: y ∈ {0, …, n} successes of GLM.Trials n, logit or probit link.
	Binomial
	// Poisson: y ∈ {0, 1, …}, mean e^η (log link; an exposure enters as
	// an offset log E).
	Poisson
	// NegBinomial: y ∈ {0, 1, …}, mean μ = e^η, variance μ + μ²/φ.
	NegBinomial
	// Categorical: y ∈ {0, …, K−1} (GLM.Categories names them), P(y = k)
	// = softmax(η)_k with η₀ = 0 for the first (reference) category and
	// its own intercept and coefficients for each other.
	Categorical
)

var familyNames = [...]string{"", "gaussian", "student", "bernoulli", "binomial", "poisson", "negbinomial", "categorical"}

// String names the family as brms does.
func (f Family) String() string {
	if f > 0 && int(f) < len(familyNames) {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", int(f))
}

// Link is a GLM's link function g, η = g(E y).
type Link int

// The links. The zero value is the family's default: identity for Gaussian
// and StudentT, logit for Bernoulli and Binomial, log for Poisson and
// NegBinomial.
const (
	DefaultLink Link = iota
	Identity
	Logit
	Probit
	LogLink
	Softmax
)

var linkNames = [...]string{"default", "identity", "logit", "probit", "log", "softmax"}

// String names the link.
func (l Link) String() string {
	if l >= 0 && int(l) < len(linkNames) {
		return linkNames[l]
	}
	return fmt.Sprintf("Link(%d)", int(l))
}

// resolve returns the link the family uses for l, or an error if the
// family does not take it.
func (f Family) resolve(l Link) (Link, error) {
	switch f {
	case Gaussian, StudentT:
		if l == DefaultLink || l == Identity {
			return Identity, nil
		}
	case Bernoulli, Binomial:
		switch l {
		case DefaultLink, Logit:
			return Logit, nil
		case Probit:
			return Probit, nil
		}
	case Poisson, NegBinomial:
		if l == DefaultLink || l == LogLink {
			return LogLink, nil
		}
	case Categorical:
		if l == DefaultLink || l == Softmax {
			return Softmax, nil
		}
	default:
		return 0, errorf(sgmcmc.ErrRange, "family %v: want one of Gaussian, StudentT, Bernoulli, Binomial, Poisson, NegBinomial, Categorical", f)
	}
	return 0, errorf(sgmcmc.ErrRange, "family %v does not take the %v link", f, l)
}

// hasScale says whether the family has the scale σ; hasShape whether it has
// NegBinomial's φ.
func (f Family) hasScale() bool { return f == Gaussian || f == StudentT }
func (f Family) hasShape() bool { return f == NegBinomial }

// obs is one row's response: y, the trials n (Binomial), weight w and,
// for a Gaussian with known sds (GLM.SD), its sd (0 otherwise).
type obs struct{ y, n, w, sd float64 }

// aux holds the auxiliary parameters at a point: σ (or φ) and ν, and
// what the rows share: log σ, and the constants of the Student-t density.
type aux struct {
	a, nu        float64 // σ (Gaussian, StudentT) or φ (NegBinomial); ν
	logA         float64
	tConst       float64 // log Γ((ν+1)/2) − log Γ(ν/2) − ½ log(νπ)
	lgA, digA    float64 // log Γ(φ), ψ(φ)
	needsDerivNu bool
}

func newAux(f Family, a, nu float64, estNu bool) aux {
	x := aux{a: a, nu: nu, logA: math.Log(a), needsDerivNu: estNu}
	switch f {
	case StudentT:
		l1, _ := math.Lgamma((nu + 1) / 2)
		l2, _ := math.Lgamma(nu / 2)
		x.tConst = l1 - l2 - 0.5*math.Log(nu*math.Pi)
	case NegBinomial:
		x.lgA, _ = math.Lgamma(a)
		x.digA = digamma(a)
	}
	return x
}

// logLik returns row's log likelihood at η (its constant in y included,
// so that LogLik is the density Stan's _lpdf/_lpmf gives).
func (f Family) logLik(l Link, o obs, eta float64, x *aux) float64 {
	y := o.y
	switch f {
	case Gaussian:
		if o.sd > 0 {
			r := (y - eta) / o.sd
			return -0.5*r*r - math.Log(o.sd) - 0.5*math.Log(2*math.Pi)
		}
		r := (y - eta) / x.a
		return -0.5*r*r - x.logA - 0.5*math.Log(2*math.Pi)
	case StudentT:
		r := (y - eta) / x.a
		return x.tConst - x.logA - (x.nu+1)/2*math.Log1p(r*r/x.nu)
	case Bernoulli:
		return y*logCDF(l, eta) + (1-y)*logCDF(l, -eta)
	case Binomial:
		return lchoose(o.n, y) + y*logCDF(l, eta) + (o.n-y)*logCDF(l, -eta)
	case Poisson:
		lg, _ := math.Lgamma(y + 1)
		return y*eta - math.Exp(eta) - lg
	case NegBinomial:
		phi := x.a
		// log(φ/(φ + μ)) and log(μ/(φ + μ)) from η = log μ, stably.
		lp := -softplus(eta - x.logA) // log φ/(φ+μ)
		lm := -softplus(x.logA - eta) // log μ/(φ+μ)
		a, _ := math.Lgamma(y + phi)
		b, _ := math.Lgamma(y + 1)
		return a - x.lgA - b + phi*lp + y*lm
	}
	return math.NaN()
}

// grads returns ∂ℓ/∂η, ∂ℓ/∂a (σ or φ) and ∂ℓ/∂ν of row's log likelihood.
func (f Family) grads(l Link, o obs, eta float64, x *aux) (dEta, dA, dNu float64) {
	y := o.y
	switch f {
	case Gaussian:
		r := y - eta
		if o.sd > 0 {
			return r / (o.sd * o.sd), 0, 0
		}
		s2 := x.a * x.a
		return r / s2, -1/x.a + r*r/(s2*x.a), 0
	case StudentT:
		r := y - eta
		s2 := x.a * x.a
		den := x.nu*s2 + r*r
		dEta = (x.nu + 1) * r / den
		dA = -1/x.a + (x.nu+1)*r*r/(x.a*den)
		if x.needsDerivNu {
			q := r * r / (x.nu * s2)
			dNu = 0.5 * (digamma((x.nu+1)/2) - digamma(x.nu/2) - 1/x.nu - math.Log1p(q) + (x.nu+1)*q/(x.nu*(1+q)))
		}
		return dEta, dA, dNu
	case Bernoulli:
		if l == Logit {
			return y - sigmoid(eta), 0, 0
		}
		return y*dLogCDF(l, eta) - (1-y)*dLogCDF(l, -eta), 0, 0
	case Binomial:
		if l == Logit {
			return y - o.n*sigmoid(eta), 0, 0
		}
		return y*dLogCDF(l, eta) - (o.n-y)*dLogCDF(l, -eta), 0, 0
	case Poisson:
		return y - math.Exp(eta), 0, 0
	case NegBinomial:
		phi := x.a
		w := sigmoid(eta - x.logA) // μ/(φ + μ)
		dEta = y - (y+phi)*w
		dA = digamma(y+phi) - x.digA - softplus(eta-x.logA) + 1 - (y+phi)/(phi+math.Exp(eta))
		return dEta, dA, 0
	}
	return math.NaN(), 0, 0
}

// info returns the expected information E[−∂²ℓ/∂η²] of a row o at η with
// auxiliary a, for the parameterisation rule.
func (f Family) info(l Link, o obs, eta, a, nu float64) float64 {
	n := o.n
	switch f {
	case Gaussian:
		if o.sd > 0 {
			return 1 / (o.sd * o.sd)
		}
		return 1 / (a * a)
	case StudentT:
		return (nu + 1) / ((nu + 3) * a * a)
	case Bernoulli, Binomial:
		if f == Bernoulli {
			n = 1
		}
		if l == Probit {
			p := normCDF(eta)
			d := math.Exp(-eta*eta/2) / math.Sqrt(2*math.Pi)
			return n * d * d / (p * (1 - p))
		}
		p := sigmoid(eta)
		return n * p * (1 - p)
	case Poisson:
		return math.Exp(eta)
	case NegBinomial:
		mu := math.Exp(eta)
		return mu / (1 + mu/a)
	}
	return 0
}

// logCDF returns log F(η) for the link's inverse F: log σ(η) or log Φ(η).
func logCDF(l Link, eta float64) float64 {
	if l == Probit {
		return logNormCDF(eta)
	}
	return -softplus(-eta)
}

// dLogCDF returns d log F(η)/dη: σ(−η) for logit, φ(η)/Φ(η) for probit.
func dLogCDF(l Link, eta float64) float64 {
	if l == Probit {
		return millsInv(eta)
	}
	return sigmoid(-eta)
}

// sigmoid returns 1/(1 + e^−x): internal/logreg's, whose table-driven
// exponential takes half math.Exp's time (a third of a logistic
// minibatch gradient's with math.Exp).
func sigmoid(x float64) float64 { return logreg.Sigmoid(x) }

// softplus returns log(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// normCDF returns Φ(x).
func normCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// logNormCDF returns log Φ(x), accurate far into the lower tail through
// the scaled complementary error function: Φ(x) = ½ erfcx(−x/√2) e^{−x²/2}.
func logNormCDF(x float64) float64 {
	if x > -5 {
		return math.Log(normCDF(x))
	}
	return math.Log(0.5*erfcx(-x/math.Sqrt2)) - x*x/2
}

// millsInv returns φ(x)/Φ(x), the derivative of log Φ.
func millsInv(x float64) float64 {
	if x > -5 {
		return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) / normCDF(x)
	}
	return 2 / (math.Sqrt(2*math.Pi) * erfcx(-x/math.Sqrt2))
}

// erfcx returns e^{x²} erfc(x) for x ≥ 3.5 by its continued fraction
// (Abramowitz & Stegun 7.1.14), to 1e-15 relative there.
func erfcx(x float64) float64 {
	// erfc(x) = e^{−x²}/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + 2/(x + …))))).
	f := x
	for k := 60; k >= 1; k-- {
		f = x + float64(k)/2/f
	}
	return 1 / (math.Sqrt(math.Pi) * f)
}

// lchoose returns log C(n, k).
func lchoose(n, k float64) float64 {
	a, _ := math.Lgamma(n + 1)
	b, _ := math.Lgamma(k + 1)
	c, _ := math.Lgamma(n - k + 1)
	return a - b - c
}

// digamma returns ψ(x) for x > 0: the recurrence up to x ≥ 6, then the
// asymptotic series.
func digamma(x float64) float64 {
	var r float64
	for x < 6 {
		r -= 1 / x
		x++
	}
	f := 1 / (x * x)
	return r + math.Log(x) - 0.5/x - f*(1.0/12-f*(1.0/120-f*(1.0/252-f*(1.0/240-f/132))))
}
