#!/usr/bin/env Rscript
# stan.R — the reference posteriors of the models package's check against
# Stan (package glmcases): for each case CASE.json (the spec) and CASE.csv
# (the data), rstan's NUTS, 4 chains of 5,000 draws after 2,000 warmup
# (adapt_delta 0.95), writes CASE.ref.json: the natural parameters' names
# (the models package's), means, sds and MCSEs of the means.
#   cd internal/glmcases/testdata && Rscript stan.R [CASE …]   # no CASE: every *.json
# Needs Debian's r-cran-rstan and r-cran-posterior (Boost fix: ../../../../shared/bench/README.md).
suppressMessages({library(rstan); library(posterior); library(jsonlite)})
rstan_options(auto_write = TRUE)
cases <- commandArgs(TRUE)
if (length(cases) == 0) cases <- sub("\\.json$", "", list.files(".", "\\.json$"))
cases <- cases[!grepl("\\.ref$", cases)]
fams <- c(gaussian = 1, student = 2, bernoulli = 3, binomial = 4, poisson = 5, negbinomial = 6)
links <- c(identity = 1, logit = 2, probit = 3, log = 4)
psd <- function(v) sqrt(mean((v - mean(v))^2)) # the models package's sd (divisor N)
for (case in cases) {
  s <- fromJSON(paste0(case, ".json"))
  prog <- if (is.null(s$program) || s$program == "") "glm" else s$program
  d <- read.csv(paste0(case, ".csv"), stringsAsFactors = FALSE)
  N <- nrow(d); xs <- s$predictors; P <- length(xs)
  X <- if (P > 0) as.matrix(d[, xs, drop = FALSE]) else matrix(0, N, 0)
  names <- c(); vars <- c()
  if (prog == "categorical") {
    levs <- sort(unique(d$y)); K <- length(levs)
    data <- list(N = N, P = P, K = K, X = X, y = match(d$y, levs), prior_b_scale = s$prior_b_scale,
                 prior_int_loc = s$prior_int_loc, prior_int_scale = s$prior_int_scale)
    for (k in 2:K) {
      names <- c(names, paste0("b.mu", levs[k], ".Intercept"), paste0("b.mu", levs[k], ".", xs))
      vars <- c(vars, paste0("b0[", k - 1, "]"), paste0("b[", 1:P, ",", k - 1, "]"))
    }
  } else if (prog == "horseshoe") {
    p0 <- s$hs_expected
    data <- list(N = N, P = P, X = X, y = d$y, prior_int_loc = s$prior_int_loc, prior_int_scale = s$prior_int_scale,
                 prior_aux_rate = s$prior_aux_rate, tau0 = p0 / (P - p0) * psd(d$y) / sqrt(N), slab_scale = 2, slab_df = 4)
    names <- c("b.Intercept", paste0("b.", xs), "sigma", "hs_global")
    vars <- c("b0", paste0("b[", 1:P, "]"), "sigma", "tau")
  } else {
    K <- if (is.null(s$group)) 0L else length(unique(d[[s$group]]))
    levs <- if (K > 0) sort(unique(d[[s$group]])) else c()
    lev <- if (K > 0) match(d[[s$group]], levs) else rep(1L, N)
    S <- as.integer(!is.null(s$slope))
    fam <- fams[[s$family]]
    data <- list(N = N, P = P, X = X, y = d$y, yi = if (fam <= 2) rep(0L, N) else as.integer(round(d$y)),
      trials = if (is.null(s$trials)) rep(0L, N) else as.integer(d[[s$trials]]),
      offset = if (is.null(s$offset)) rep(0, N) else d[[s$offset]],
      has_sd = as.integer(!is.null(s$sd)), sdv = if (is.null(s$sd)) rep(1, N) else d[[s$sd]],
      family = fam, link = links[[s$link]], K = K, level = lev, S = S,
      slope = if (S == 1) match(s$slope, xs) else 1L, centred = as.integer(identical(s$param, "centred")),
      prior_b_scale = s$prior_b_scale, prior_int_loc = s$prior_int_loc, prior_int_scale = s$prior_int_scale,
      prior_aux_rate = s$prior_aux_rate, prior_sd_rate = s$prior_sd_rate,
      prior_sd_cauchy = if (is.null(s$prior_sd_cauchy)) 0 else s$prior_sd_cauchy, nu_fixed = s$nu_fixed,
      lkj_eta = if (is.null(s$lkj) || s$lkj == 0) 1 else s$lkj) # glm_cor's; glm.stan ignores it
    names <- "b.Intercept"; vars <- "b0"
    if (P > 0) { names <- c(names, paste0("b.", xs)); vars <- c(vars, paste0("b[", 1:P, "]")) }
    if (fam == 1 && is.null(s$sd) || fam == 2) { names <- c(names, "sigma"); vars <- c(vars, "aux[1]") }
    if (fam == 6) { names <- c(names, "shape"); vars <- c(vars, "aux[1]") }
    if (fam == 2 && s$nu_fixed == 0) { names <- c(names, "nu"); vars <- c(vars, "nu[1]") }
    if (K > 0) {
      eff <- c("Intercept", if (S == 1) s$slope)
      for (e in seq_along(eff)) { names <- c(names, paste0("sd_", s$group, ".", eff[e])); vars <- c(vars, paste0("sd_g[", e, "]")) }
      if (isTRUE(s$correlated)) for (a in 2:length(eff)) for (b in 1:(a - 1)) {
        names <- c(names, paste0("cor_", s$group, ".", eff[b], ".", eff[a])); vars <- c(vars, paste0("Omega[", a, ",", b, "]"))
      }
      for (j in seq_len(K)) for (e in seq_along(eff)) {
        names <- c(names, paste0("r_", s$group, ".", levs[j], ".", eff[e])); vars <- c(vars, paste0("r[", j, ",", e, "]"))
      }
    }
  }
  m <- stan_model(paste0(prog, ".stan"))
  fit <- sampling(m, data = data, chains = 4, cores = 1, iter = 7000, warmup = 2000, seed = 1, refresh = 0,
                  control = list(adapt_delta = 0.95))
  sm <- summarise_draws(subset_draws(as_draws_df(fit), variable = vars), "mean", "sd", "mcse_mean", "ess_bulk", "rhat")
  sm <- sm[match(vars, sm$variable), ]
  out <- list(names = names, mean = sm$mean, sd = sm$sd, mcse = sm$mcse_mean, min_ess = min(sm$ess_bulk),
              max_rhat = max(sm$rhat), divergences = sum(get_divergent_iterations(fit)))
  writeLines(toJSON(out, digits = 10, auto_unbox = TRUE), paste0(case, ".ref.json"))
  cat(case, ": min ESS", min(sm$ess_bulk), "max Rhat", max(sm$rhat), "divergences", out$divergences, "\n")
}
