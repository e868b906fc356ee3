// A categorical (softmax) regression, the first category the reference, as
// the models package's Categorical family.
data {
  int<lower=1> N;
  int<lower=0> P;
  int<lower=2> K;
  matrix[N, P] X;
  int<lower=1, upper=K> y[N];
  real prior_b_scale;
  real prior_int_loc;
  real prior_int_scale;
}
parameters {
  vector[K - 1] b0;
  matrix[P, K - 1] b;
}
model {
  b0 ~ normal(prior_int_loc, prior_int_scale);
  to_vector(b) ~ normal(0, prior_b_scale);
  for (i in 1:N) {
    vector[K] eta;
    eta[1] = 0;
    eta[2:K] = b0 + (X[i] * b)';
    y[i] ~ categorical_logit(eta);
  }
}
