//! R's `dpq.h`: how nmath reads a probability given as the lower or the
//! upper tail, on the natural or the log scale. One set, shared by every
//! distribution function, as in R.

/// `R_D_Lval(p)`: the lower tail of a natural-scale `p`.
pub fn d_lval(p: f64, lower: bool) -> f64 {
    if lower {
        p
    } else {
        0.5 - p + 0.5
    }
}

/// `R_D_Cval(p)`: the upper tail of a natural-scale `p`.
pub fn d_cval(p: f64, lower: bool) -> f64 {
    if lower {
        0.5 - p + 0.5
    } else {
        p
    }
}

/// `R_D_half`: probability 1/2 on the requested scale.
pub fn d_half(log_p: bool) -> f64 {
    if log_p {
        -std::f64::consts::LN_2
    } else {
        0.5
    }
}

/// `R_D_qIv(p)`: `p` on the natural scale.
pub fn d_qiv(p: f64, log_p: bool) -> f64 {
    if log_p {
        p.exp()
    } else {
        p
    }
}

/// `R_DT_qIv(p)`: the lower-tail probability on the natural scale.
pub fn dt_qiv(p: f64, lower: bool, log_p: bool) -> f64 {
    match (log_p, lower) {
        (true, true) => p.exp(),
        (true, false) => -p.exp_m1(),
        (false, _) => d_lval(p, lower),
    }
}

/// `R_DT_CIv(p)`: the upper-tail probability on the natural scale.
pub fn dt_civ(p: f64, lower: bool, log_p: bool) -> f64 {
    match (log_p, lower) {
        (true, true) => -p.exp_m1(),
        (true, false) => p.exp(),
        (false, _) => d_cval(p, lower),
    }
}

/// `R_D_log(p)`: log of `p`.
pub fn d_log(p: f64, log_p: bool) -> f64 {
    if log_p {
        p
    } else {
        p.ln()
    }
}

/// `R_D_LExp(x)`: log(1 - x), `x` on either scale.
pub fn d_lexp(x: f64, log_p: bool) -> f64 {
    if log_p {
        log1_exp(x)
    } else {
        (-x).ln_1p()
    }
}

/// `R_DT_log(p)`: log of the lower tail.
pub fn dt_log(p: f64, lower: bool, log_p: bool) -> f64 {
    if lower {
        d_log(p, log_p)
    } else {
        d_lexp(p, log_p)
    }
}

/// `R_DT_Clog(p)`: log of the upper tail.
pub fn dt_clog(p: f64, lower: bool, log_p: bool) -> f64 {
    dt_log(p, !lower, log_p)
}

/// `R_Log1_Exp(x)`: log(1 - exp(x)) for x <= 0.
pub fn log1_exp(x: f64) -> f64 {
    if x > -std::f64::consts::LN_2 {
        (-x.exp_m1()).ln()
    } else {
        (-x.exp()).ln_1p()
    }
}
