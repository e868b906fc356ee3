// glm.stan with the grouping factor's effects correlated, as the models
// package's Group.Correlated (package glmcases, run by stan.R): a level's
// varying intercept and, if S = 1, its varying slope on column slope are
// r_j = diag(sd_g)·L·z_j, z_j ~ N(0, I), L ~ lkj_corr_cholesky(lkj_eta)
// (non-centred at every level, as the package samples them); Omega = LLᵀ
// gives the correlations. Family and link codes as glm.stan's.
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
  int<lower=1> K;
  int<lower=1> level[N];
  int<lower=1, upper=1> S;
  int<lower=1> slope;
  real prior_b_scale;
  real prior_int_loc;
  real prior_int_scale;
  real prior_aux_rate;
  real prior_sd_rate;
  real prior_sd_cauchy; // > 0: sd ~ half-Cauchy(0, prior_sd_cauchy) instead
  real nu_fixed; // 0: estimated, gamma(2, 0.1), nu > 1
  real<lower=0> lkj_eta;
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
  vector<lower=0>[1 + S] sd_g;
  cholesky_factor_corr[1 + S] L;
  matrix[1 + S, K] z;
}
transformed parameters {
  matrix[K, 1 + S] r = (diag_pre_multiply(sd_g, L) * z)';
}
model {
  vector[N] eta = offset + b0 + (P > 0 ? X * b : rep_vector(0, N));
  for (i in 1:N) {
    eta[i] += r[level[i], 1];
    if (S == 1) eta[i] += r[level[i], 2] * X[i, slope];
  }
  b0 ~ normal(prior_int_loc, prior_int_scale);
  b ~ normal(0, prior_b_scale);
  if (has_aux) aux[1] ~ exponential(prior_aux_rate);
  if (est_nu) nu[1] ~ gamma(2, 0.1);
  if (prior_sd_cauchy > 0) sd_g ~ cauchy(0, prior_sd_cauchy); else sd_g ~ exponential(prior_sd_rate);
  L ~ lkj_corr_cholesky(lkj_eta);
  to_vector(z) ~ std_normal();
  if (family == 1) { if (has_sd) y ~ normal(eta, sdv); else y ~ normal(eta, aux[1]); }
  else if (family == 2) y ~ student_t(est_nu ? nu[1] : nu_fixed, eta, aux[1]);
  else if (family == 3) { if (link == 2) yi ~ bernoulli_logit(eta); else yi ~ bernoulli(Phi(eta)); }
  else if (family == 4) { if (link == 2) yi ~ binomial_logit(trials, eta); else yi ~ binomial(trials, Phi(eta)); }
  else if (family == 5) yi ~ poisson_log(eta);
  else yi ~ neg_binomial_2_log(eta, aux[1]);
}
generated quantities {
  corr_matrix[1 + S] Omega = multiply_lower_tri_self_transpose(L);
}
