// A Gaussian linear regression with the regularised horseshoe on its
// coefficients (Piironen & Vehtari 2017): the posterior of the models
// package's Horseshoe, tau0 = p0/(P - p0) * sy/sqrt(N), here non-centred,
// b = z .* tau * lambda_tilde (models samples b = z u/sqrt(1 + I u^2)).
data {
  int<lower=1> N;
  int<lower=1> P;
  matrix[N, P] X;
  vector[N] y;
  real prior_int_loc;
  real prior_int_scale;
  real prior_aux_rate;
  real<lower=0> tau0;
  real<lower=0> slab_scale;
  real<lower=0> slab_df;
}
parameters {
  real b0;
  vector[P] z;
  real<lower=0> sigma;
  vector<lower=0>[P] lambda;
  real<lower=0> tau;
  real<lower=0> c2;
}
transformed parameters {
  vector[P] b = z .* (tau * sqrt(c2 * square(lambda) ./ (c2 + tau^2 * square(lambda))));
}
model {
  b0 ~ normal(prior_int_loc, prior_int_scale);
  z ~ std_normal();
  sigma ~ exponential(prior_aux_rate);
  lambda ~ cauchy(0, 1);
  tau ~ cauchy(0, tau0);
  c2 ~ inv_gamma(slab_df / 2, slab_df * slab_scale^2 / 2);
  y ~ normal(b0 + X * b, sigma);
}
