// The models package's GLMs as one Stan program, for the reference draws
// of package glmcases (run by stan.R). Family: 1 gaussian, 2 student, 3
// bernoulli, 4 binomial, 5 poisson, 6 negbinomial; link: 1 identity, 2
// logit, 3 probit, 4 log. One grouping factor (K levels, 0 for none) with
// a varying intercept and, if S = 1, a varying slope on column slope,
// centred or not as the data flag says (the posterior is the same).
data {
  int<lower=1> N;
  int<lower=0> P;
  matrix[N, P] X;
  vector[N] y;
  int<lower=0> yi[N];
  int<lower=0> trials[N];
  vector[N] offset;
  int<lower=0, upper=1> has_sd;
  vector[N] sdv;
  int<lower=1, upper=6> family;
  int<lower=1, upper=4> link;
  int<lower=0> K;
  int<lower=1> level[N];
  int<lower=0, upper=1> S;
  int<lower=1> slope;
  int<lower=0, upper=1> centred;
  real prior_b_scale;
  real prior_int_loc;
  real prior_int_scale;
  real prior_aux_rate;
  real prior_sd_rate;
  real prior_sd_cauchy; // > 0: sd ~ half-Cauchy(0, prior_sd_cauchy) instead
  real nu_fixed; // 0: estimated, gamma(2, 0.1), nu > 1
}
transformed data {
  int has_aux = (family == 1 && has_sd == 0) || family == 2 || family == 6;
  int est_nu = family == 2 && nu_fixed == 0;
}
parameters {
  real b0;
  vector[P] b;
  real<lower=0> aux[has_aux];
  real<lower=1> nu[est_nu];
  vector<lower=0>[K > 0 ? 1 + S : 0] sd_g;
  matrix[K, 1 + S] u;
}
transformed parameters {
  matrix[K, 1 + S] r;
  for (e in 1:(1 + S)) if (K > 0) r[, e] = centred ? u[, e] : u[, e] * sd_g[e];
}
model {
  vector[N] eta = offset + b0 + (P > 0 ? X * b : rep_vector(0, N));
  if (K > 0) for (i in 1:N) {
    eta[i] += r[level[i], 1];
    if (S == 1) eta[i] += r[level[i], 2] * X[i, slope];
  }
  b0 ~ normal(prior_int_loc, prior_int_scale);
  b ~ normal(0, prior_b_scale);
  if (has_aux) aux[1] ~ exponential(prior_aux_rate);
  if (est_nu) nu[1] ~ gamma(2, 0.1);
  if (K > 0) {
    if (prior_sd_cauchy > 0) sd_g ~ cauchy(0, prior_sd_cauchy); else sd_g ~ exponential(prior_sd_rate);
    for (e in 1:(1 + S)) { if (centred) u[, e] ~ normal(0, sd_g[e]); else u[, e] ~ std_normal(); }
  }
  if (family == 1) { if (has_sd) y ~ normal(eta, sdv); else y ~ normal(eta, aux[1]); }
  else if (family == 2) y ~ student_t(est_nu ? nu[1] : nu_fixed, eta, aux[1]);
  else if (family == 3) { if (link == 2) yi ~ bernoulli_logit(eta); else yi ~ bernoulli(Phi(eta)); }
  else if (family == 4) { if (link == 2) yi ~ binomial_logit(trials, eta); else yi ~ binomial(trials, Phi(eta)); }
  else if (family == 5) yi ~ poisson_log(eta);
  else yi ~ neg_binomial_2_log(eta, aux[1]);
}
