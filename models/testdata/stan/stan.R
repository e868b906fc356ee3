#!/usr/bin/env Rscript
# stan.R — the reference posteriors of the models package's Stan check
# (stan_test.go): for each case testdata/stan/CASE.json (the spec) and
# CASE.csv (the data), rstan's NUTS on glm.stan, 4 chains of 5,000 draws
# after 2,000 warmup, writes CASE.ref.json: the natural parameters' names
# (the models package's), means, sds and MCSEs of the mean (posterior's).
# Run from models/testdata/stan: Rscript stan.R case1 case2 …
# Needs Debian's r-cran-rstan and r-cran-posterior (see ../../../../shared/bench/README.md for the Boost fix).
suppressMessages({library(rstan); library(posterior); library(jsonlite)})
m <- stan_model("glm.stan", auto_write = TRUE)
fams <- c(gaussian = 1, student = 2, bernoulli = 3, binomial = 4, poisson = 5, negbinomial = 6)
links <- c(identity = 1, logit = 2, probit = 3, log = 4)
for (case in commandArgs(TRUE)) {
  s <- fromJSON(paste0(case, ".json"))
  d <- read.csv(paste0(case, ".csv"))
  N <- nrow(d); xs <- s$predictors; P <- length(xs)
  X <- if (P > 0) as.matrix(d[, xs, drop = FALSE]) else matrix(0, N, 0)
  K <- if (is.null(s$group)) 0L else length(unique(d[[s$group]]))
  lev <- if (K > 0) as.integer(factor(d[[s$group]], levels = sort(unique(d[[s$group]])))) else rep(1L, N)
  S <- as.integer(!is.null(s$slope))
  data <- list(N = N, P = P, X = X, y = d$y, yi = if (fams[[s$family]] <= 2) rep(0L, N) else as.integer(round(d$y)),
    trials = if (is.null(s$trials)) rep(0L, N) else as.integer(d[[s$trials]]),
    offset = if (is.null(s$offset)) rep(0, N) else d[[s$offset]],
    family = fams[[s$family]], link = links[[s$link]], K = K, level = lev, S = S,
    slope = if (S == 1) match(s$slope, xs) else 1L,
    prior_b_scale = s$prior_b_scale, prior_int_loc = s$prior_int_loc, prior_int_scale = s$prior_int_scale,
    prior_aux_rate = s$prior_aux_rate, prior_sd_rate = s$prior_sd_rate, nu_fixed = s$nu_fixed)
  fit <- sampling(m, data = data, chains = 4, cores = 1, iter = 7000, warmup = 2000, seed = 1, refresh = 0,
                  control = list(adapt_delta = 0.95))
  dr <- as_draws_df(fit)
  names <- c("b.Intercept", paste0("b.", xs)); vars <- c("b0", if (P > 0) paste0("b[", 1:P, "]"))
  if (fams[[s$family]] %in% c(1, 2)) { names <- c(names, "sigma"); vars <- c(vars, "aux[1]") }
  if (fams[[s$family]] == 6) { names <- c(names, "shape"); vars <- c(vars, "aux[1]") }
  if (fams[[s$family]] == 2 && s$nu_fixed == 0) { names <- c(names, "nu"); vars <- c(vars, "nu[1]") }
  if (K > 0) {
    eff <- c("Intercept", if (S == 1) s$slope)
    for (e in seq_along(eff)) { names <- c(names, paste0("sd_", s$group, ".", eff[e])); vars <- c(vars, paste0("sd_g[", e, "]")) }
    levs <- sort(unique(d[[s$group]]))
    for (j in seq_len(K)) for (e in seq_along(eff)) {
      names <- c(names, paste0("r_", s$group, ".", levs[j], ".", eff[e])); vars <- c(vars, paste0("r[", j, ",", e, "]"))
    }
  }
  sm <- summarise_draws(subset_draws(dr, variable = vars), "mean", "sd", "mcse_mean", "ess_bulk", "rhat")
  sm <- sm[match(vars, sm$variable), ]
  out <- list(names = names, mean = sm$mean, sd = sm$sd, mcse = sm$mcse_mean, min_ess = min(sm$ess_bulk),
              max_rhat = max(sm$rhat), divergences = sum(get_divergent_iterations(fit)))
  writeLines(toJSON(out, digits = 10, auto_unbox = TRUE), paste0(case, ".ref.json"))
  cat(case, ": min ESS", min(sm$ess_bulk), "max Rhat", max(sm$rhat), "divergences", out$divergences, "\n")
}
