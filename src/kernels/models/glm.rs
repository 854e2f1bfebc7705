//! `glm(formula, family, data, weights, subset)`: iteratively reweighted
//! least squares exactly as R 4.2's `glm.fit` runs it (same starting values
//! from `family$initialize`, the same weighted LINPACK QR as `lm` with
//! `tol = min(1e-7, epsilon / 1000)`, the same step halving and the same
//! convergence rule `|dev - devold| / (|dev| + 0.1) < epsilon`), so the
//! iterations, and not only the optimum, are R's.
//!
//! Rows follow `model.frame` as in `lm` (`subset`, then `na.omit`), through
//! lm's own design matrix.

use super::super::linalg::linpack::dqrls;
use super::super::linalg::qr_value;
use super::super::lm::{
    design_na, obs_names, obs_names_type, omitted_record, terms_type, terms_value, Design,
};
use super::super::model_matrix;
use super::super::na_action::NaAction;
use super::super::summary::sum;
use super::super::value::{Formula, List, NA};
use super::super::{ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};
use super::family::{Dist, Family, Link, Variance};
use nalgebra::DMatrix;

/// `glm.control()`'s defaults.
const EPSILON: f64 = 1e-8;
const MAXIT: usize = 25;

/// The family an argument names: a `family` object (`Gamma(link =
/// "log")`), its name as a string (`"binomial"`, with its default link),
/// or nothing (R's default, gaussian).
pub(crate) fn family_of(v: Option<&Value>) -> Result<Family, KernelError> {
    let one = |v: Option<&Value>| match v {
        Some(Value::Str(s)) if s.len() == 1 => Some(s[0].clone()),
        _ => None,
    };
    match v {
        None | Some(Value::Null) => Ok(Family::new(Dist::Gaussian, Link::Identity)),
        Some(Value::Str(s)) if s.len() == 1 => {
            Family::from_name(&s[0]).ok_or_else(|| not_found(&s[0]))
        }
        Some(Value::List(l)) if l.class.as_deref() == Some("family") => {
            let name = one(l.field("family"))
                .ok_or_else(|| KernelError::new("'family' not recognized"))?;
            let mut dist = Dist::from_name(&name).ok_or_else(|| unknown(&name))?;
            if let (Dist::Quasi(_), Some(v)) = (dist, one(l.field("varfun"))) {
                dist = Dist::Quasi(Variance::from_name(&v)?);
            }
            let link = match one(l.field("link")) {
                Some(link) => Link::from_name(&link)?,
                None => dist.default_link(),
            };
            Ok(Family::new(dist, link))
        }
        Some(other) => Err(KernelError::new(format!(
            "'family' not recognized: a {}",
            other.type_name()
        ))),
    }
}

/// R's error for a family given by a name no function has
/// (`get(family, mode = "function")`), with the families flowcast knows:
/// R's stats has no family flowcast lacks.
fn not_found(name: &str) -> KernelError {
    KernelError::new(format!(
        "object '{name}' of mode 'function' was not found (flowcast's glm() knows gaussian, binomial, poisson, Gamma, inverse.gaussian, quasibinomial, quasipoisson and quasi)"
    ))
}

/// The error for a family object whose family flowcast has no fit for.
fn unknown(name: &str) -> KernelError {
    KernelError::new(format!(
        "family '{name}' is not supported by flowcast's glm(): use gaussian, binomial, poisson, Gamma, inverse.gaussian, quasibinomial, quasipoisson or quasi"
    ))
}

pub(crate) fn family_type(args: &Args<Type>) -> Result<Option<Family>, ArgError> {
    match args.ty("family") {
        None | Some(Type::Null) => Ok(Some(Family::new(Dist::Gaussian, Link::Identity))),
        Some(Type::Any) => Ok(None),
        Some(t @ Type::Str { .. }) => match t.const_str() {
            Some(s) => Family::from_name(s)
                .map(Some)
                .ok_or_else(|| args.error("family", not_found(s).0)),
            None => Ok(None),
        },
        Some(t @ Type::Record { class, .. }) if class == "family" => Ok(t
            .field("family")
            .and_then(Type::const_str)
            .and_then(Dist::from_name)
            .map(|d| {
                let link = t
                    .field("link")
                    .and_then(Type::const_str)
                    .and_then(|l| Link::from_name(l).ok())
                    .unwrap_or(d.default_link());
                Family::new(d, link)
            })),
        Some(t) => Err(args.error(
            "family",
            format!("'family' not recognized: {}", t.describe()),
        )),
    }
}

pub(super) fn glm_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let family = family_type(args)?;
    let p = match args.ty("formula") {
        Some(Type::Formula {
            response,
            terms,
            intercept,
        }) => {
            match response.as_deref() {
                Some(Type::Num { .. } | Type::Bool { .. } | Type::Any) => {}
                Some(Type::Mat { cols, .. })
                    if matches!(cols, Some(1) | None)
                        || (*cols == Some(2) && family.is_none_or(Family::binomial_like)) => {}
                Some(t) => {
                    return Err(args.error(
                        "formula",
                        format!(
                            "glm() needs a numeric vector response (or, for binomial, a two-column matrix), not {}",
                            t.describe()
                        ),
                    ))
                }
                None => return Err(args.error("formula", "glm() needs a response: y ~ x")),
            }
            model_matrix::columns_type(terms, *intercept)
                .map_err(|m| args.error("formula", m))?
                .filter(|_| !super::super::lm::given_contrasts(args))
        }
        None | Some(Type::Any) => None,
        Some(t) => {
            return Err(args.error(
                "formula",
                format!("glm() needs a formula, not {}", t.describe()),
            ))
        }
    };
    if let Some(w) = args.ty("weights") {
        if !matches!(
            w,
            Type::Num { .. } | Type::Mat { .. } | Type::Any | Type::Null
        ) {
            return Err(args.error(
                "weights",
                format!("'weights' must be a numeric vector, not {}", w.describe()),
            ));
        }
    }
    let terms = match args.ty("formula") {
        Some(Type::Formula { terms, .. }) => Some(
            terms
                .iter()
                .filter(|(_, t)| !model_matrix::is_offset_type(t))
                .count(),
        ),
        _ => None,
    };
    Ok(glm_type(p, terms))
}

/// The fields of a glm object, as R names them (plus `coefficient.names`).
fn glm_type(p: Option<usize>, terms: Option<usize>) -> Type {
    let num = |len| Type::Num { len, value: None };
    let one = || Type::num(1);
    let flag = || Type::Bool {
        len: Some(1),
        value: None,
    };
    Type::record(
        "glm",
        vec![
            ("coefficients", num(p)),
            (
                "coefficient.names",
                Type::Str {
                    len: p,
                    value: None,
                },
            ),
            ("residuals", Type::num_unknown()),
            ("fitted.values", Type::num_unknown()),
            ("effects", Type::num_unknown()),
            ("rank", one()),
            (
                "qr",
                Type::record(
                    "qr",
                    vec![
                        (
                            "qr",
                            Type::Mat {
                                rows: None,
                                cols: p,
                            },
                        ),
                        ("rank", one()),
                        ("qraux", num(p)),
                        ("pivot", num(p)),
                    ],
                ),
            ),
            (
                "family",
                Type::record(
                    "family",
                    vec![
                        (
                            "family",
                            Type::Str {
                                len: Some(1),
                                value: None,
                            },
                        ),
                        (
                            "link",
                            Type::Str {
                                len: Some(1),
                                value: None,
                            },
                        ),
                    ],
                ),
            ),
            ("linear.predictors", Type::num_unknown()),
            ("deviance", one()),
            ("aic", one()),
            ("null.deviance", one()),
            ("iter", one()),
            ("weights", Type::num_unknown()),
            ("prior.weights", Type::num_unknown()),
            ("df.residual", one()),
            ("df.null", one()),
            ("y", Type::num_unknown()),
            ("converged", flag()),
            ("boundary", flag()),
            ("assign", num(p)),
            (
                "x",
                Type::Mat {
                    rows: None,
                    cols: p,
                },
            ),
            ("terms", terms_type(terms)),
            ("obs.names", obs_names_type()),
            ("offset", Type::num_unknown()),
            ("na.action", Type::Any),
            (
                "response",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    )
}

pub(super) fn glm_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::Formula(f)) = args.get("formula") else {
        return Err(KernelError::new(
            "glm() needs a formula as its first argument (y ~ x)",
        ));
    };
    let family = family_of(args.get("family"))?;
    let mut record = glm_formula(
        f,
        family,
        args.get("subset"),
        args.get("weights"),
        args.get("data"),
        args.get("contrasts"),
        args.get("offset"),
        NaAction::of(args.get("na.action"))?,
        ctx,
    )?;
    super::super::lm::keep_model(
        &mut record,
        f.response_label.as_deref(),
        args.get("data"),
        args.get("weights"),
    );
    Ok(Value::List(record))
}

/// `glm(formula, family, data, weights, subset, contrasts, offset)` of an
/// evaluated formula.
// glm's own arguments, each read as model.frame reads it.
#[allow(clippy::too_many_arguments)]
pub(super) fn glm_formula(
    f: &Formula,
    family: Family,
    subset: Option<&Value>,
    weights: Option<&Value>,
    data: Option<&Value>,
    contrasts: Option<&Value>,
    offset: Option<&Value>,
    na: NaAction,
    ctx: &mut Ctx,
) -> Result<List, KernelError> {
    // A two-column binomial response, cbind(successes, failures): the
    // successes are the response, a row with either NA is dropped.
    let (f, failures) = match f.response.as_deref() {
        None => return Err(KernelError::new("glm() needs a response: y ~ x")),
        Some(Value::Mat(m)) if m.ncols() == 2 => {
            if !family.binomial_like() {
                return Err(KernelError::new(
                    "flowcast's glm() takes a two-column response only for the binomial families",
                ));
            }
            let (s, fl) = (m.column(0), m.column(1));
            let y: Vec<f64> = s
                .iter()
                .zip(fl.iter())
                .map(|(&s, &f)| if f.is_nan() { NA } else { s })
                .collect();
            let formula = Formula {
                response: Some(Box::new(Value::Num(y))),
                response_label: f.response_label.clone(),
                terms: f.terms.clone(),
                intercept: f.intercept,
                predvars: f.predvars.clone(),
                text: None,
                source: f.source.clone(),
            };
            (
                std::borrow::Cow::Owned(formula),
                Some(fl.iter().copied().collect::<Vec<f64>>()),
            )
        }
        Some(Value::Mat(m)) if m.ncols() != 1 => {
            return Err(KernelError::new(format!(
                "glm() needs a vector response or a two-column matrix, not {} columns",
                m.ncols()
            )))
        }
        Some(_) => (std::borrow::Cow::Borrowed(f), None),
    };
    // Under na.pass the family's initialize meets an NA response first
    // (binomial's `any(y < 0 | y > 1)`, poisson's `any(y < 0)`, …): only
    // the gaussian identity link tests nothing there.
    let tests_y = !(family.dist == Dist::Gaussian && family.link == Link::Identity);
    let y_na = f
        .response
        .as_deref()
        .and_then(Value::as_f64_slice)
        .is_some_and(|y| y.iter().any(|v| v.is_nan()));
    if na == NaAction::Pass && tests_y && y_na {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    let d = design_na(&f, subset, weights, contrasts, offset, na)?;
    if d.x.iter().any(|v| !v.is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    let failures = failures.map(|fl| d.rows.iter().map(|&i| fl[i]).collect::<Vec<f64>>());
    let obs = obs_names(data, &d.rows);
    let mut record = glm_record(
        &d,
        failures.as_deref(),
        family,
        f.intercept,
        obs,
        f.response_label.as_deref(),
        ctx,
    )?;
    if let Some(o) = omitted_record(data, &d.omitted, na) {
        record
            .names
            .get_or_insert_with(Vec::new)
            .push("na.action".into());
        record.items.push(o);
    }
    Ok(record)
}

/// The glm record of a design: glm.fit of its matrix, with the model
/// matrix `x` kept, the rows' names `obs` and the response's label.
pub(super) fn glm_record(
    d: &Design,
    failures: Option<&[f64]>,
    family: Family,
    intercept: bool,
    obs: Value,
    response: Option<&str>,
    ctx: &mut Ctx,
) -> Result<List, KernelError> {
    let mut fields = glm_fit(d, failures, family, intercept, ctx)?;
    // glm(x = TRUE)'s model matrix, kept always: anova refits its leading
    // columns as R's anova.glm does with model.matrix(object).
    fields.push(("x", Value::Mat(DMatrix::from_vec(d.n, d.p, d.x.clone()))));
    fields.push(("obs.names", obs));
    // glm()'s `offset` component: drop1 refits the columns with it, as
    // drop1.glm passes `offset = object$offset` to glm.fit.
    if let Some(o) = &d.offset {
        fields.push(("offset", Value::Num(o.clone())));
    }
    // deparse(formula(fit)[[2]]): anova.glmlist keeps only the fits of the
    // first one's response.
    if let Some(label) = response {
        fields.push(("response", Value::Str(vec![label.to_string()])));
    }
    Ok(List::record("glm", fields))
}

/// What anova reads of a `glm.fit` run on a model matrix.
pub(super) struct Refit {
    pub deviance: f64,
    pub null_deviance: f64,
    pub df_residual: f64,
    pub rank: f64,
    pub residuals: Vec<f64>,
    pub weights: Vec<f64>,
}

/// `glm.fit(x, y, weights, offset = offset, family = family, intercept =
/// intercept)` with glm.control()'s defaults, for the fits anova.glm,
/// anova.glmlist and drop1.glm make on columns of a model matrix (`x`: `n`
/// rows, column-major). With an offset, the null deviance is glm()'s (the
/// intercept and offset refitted), not glm.fit's: callers that read it
/// pass none.
#[allow(clippy::too_many_arguments)]
pub(super) fn refit(
    x: Vec<f64>,
    n: usize,
    y: &[f64],
    weights: &[f64],
    offset: Option<&[f64]>,
    family: Family,
    intercept: bool,
    ctx: &mut Ctx,
) -> Result<Refit, KernelError> {
    let d = Design {
        offset: offset.map(<[f64]>::to_vec),
        ..Design::matrix(x, y.to_vec(), weights.to_vec(), n)
    };
    let fields = glm_fit(&d, None, family, intercept, ctx)?;
    let get = |name: &str| match fields.iter().find(|(n, _)| *n == name) {
        Some((_, Value::Num(v))) => v.clone(),
        _ => Vec::new(),
    };
    let one = |name: &str| get(name).first().copied().unwrap_or(NA);
    Ok(Refit {
        deviance: one("deviance"),
        null_deviance: one("null.deviance"),
        df_residual: one("df.residual"),
        rank: one("rank"),
        residuals: get("residuals"),
        weights: get("weights"),
    })
}

/// `drop(x %*% beta)`: reference BLAS `dgemv`, a column at a time.
pub(crate) fn xb(x: &[f64], n: usize, beta: &[f64]) -> Vec<f64> {
    let mut eta = vec![0.0; n];
    for (j, &b) in beta.iter().enumerate() {
        for (e, xv) in eta.iter_mut().zip(&x[j * n..(j + 1) * n]) {
            *e += b * xv;
        }
    }
    eta
}

/// R's `glm.fit`.
fn glm_fit(
    d: &Design,
    failures: Option<&[f64]>,
    family: Family,
    intercept: bool,
    ctx: &mut Ctx,
) -> Result<Vec<(&'static str, Value)>, KernelError> {
    let (nobs, nvars) = (d.n, d.p);
    let prior = d.w.clone().unwrap_or_else(|| vec![1.0; nobs]);
    if prior.iter().any(|&w| w < 0.0) {
        return Err(KernelError::new("negative weights not allowed"));
    }
    let init = family.initialize(&d.y, failures, &prior)?;
    if let Some(w) = init.warning {
        ctx.warn(w);
    }
    let (y, weights) = (init.y, init.weights);
    let offset = d.offset.clone().unwrap_or_else(|| vec![0.0; nobs]);
    // eta = offset + x %*% beta.
    let predictor = |beta: &[f64]| -> Vec<f64> {
        xb(&d.x, nobs, beta)
            .iter()
            .zip(&offset)
            .map(|(e, o)| e + o)
            .collect()
    };
    let dev_of = |mu: &[f64]| sum(&family.dev_resids(&y, mu, &weights), false);
    let linkinv = |eta: &[f64]| eta.iter().map(|&e| family.linkinv(e)).collect::<Vec<f64>>();

    let mut eta: Vec<f64>;
    let mut mu: Vec<f64>;
    let mut coef: Vec<f64> = Vec::new();
    let mut good: Vec<bool>;
    let mut w: Vec<f64> = Vec::new();
    let mut fit = None;
    let mut conv = false;
    let mut boundary = false;
    let mut iter = 0;
    if nvars == 0 {
        // An empty model: the linear predictor is the offset.
        eta = offset.clone();
        mu = linkinv(&eta);
        if !family.valideta(&eta) {
            return Err(KernelError::new(
                "invalid linear predictor values in empty model",
            ));
        }
        if !family.validmu(&mu) {
            return Err(KernelError::new("invalid fitted means in empty model"));
        }
        good = vec![true; nobs];
        w = (0..nobs)
            .map(|i| {
                let m = family.mu_eta(eta[i]);
                (weights[i] * (m * m) / family.variance(mu[i])).sqrt()
            })
            .collect();
        conv = true;
        boundary = true;
    } else {
        eta = init.mustart.iter().map(|&m| family.linkfun(m)).collect();
        mu = linkinv(&eta);
        if !(family.validmu(&mu) && family.valideta(&eta)) {
            return Err(KernelError::new(
                "cannot find valid starting values: please specify some",
            ));
        }
        let mut devold = dev_of(&mu);
        let mut coefold: Option<Vec<f64>> = None;
        let mut start = vec![0.0; nvars];
        good = vec![false; nobs];
        for it in 1..=MAXIT {
            iter = it;
            let varmu_bad = (0..nobs)
                .filter(|&i| weights[i] > 0.0)
                .map(|i| family.variance(mu[i]));
            let varmu: Vec<f64> = varmu_bad.collect();
            if varmu.iter().any(|v| v.is_nan()) {
                return Err(KernelError::new("NAs in V(mu)"));
            }
            if varmu.contains(&0.0) {
                return Err(KernelError::new("0s in V(mu)"));
            }
            let mu_eta: Vec<f64> = eta.iter().map(|&e| family.mu_eta(e)).collect();
            if (0..nobs).any(|i| weights[i] > 0.0 && mu_eta[i].is_nan()) {
                return Err(KernelError::new("NAs in d(mu)/d(eta)"));
            }
            good = (0..nobs)
                .map(|i| weights[i] > 0.0 && mu_eta[i] != 0.0)
                .collect();
            let rows: Vec<usize> = (0..nobs).filter(|&i| good[i]).collect();
            if rows.is_empty() {
                conv = false;
                ctx.warn(format!("no observations informative at iteration {it}"));
                break;
            }
            let z: Vec<f64> = rows
                .iter()
                .map(|&i| (eta[i] - offset[i]) + (y[i] - mu[i]) / mu_eta[i])
                .collect();
            w = rows
                .iter()
                .map(|&i| (weights[i] * (mu_eta[i] * mu_eta[i]) / family.variance(mu[i])).sqrt())
                .collect();
            let m = rows.len();
            let mut xw = Vec::with_capacity(m * nvars);
            for j in 0..nvars {
                xw.extend(rows.iter().zip(&w).map(|(&i, wi)| d.x[j * nobs + i] * wi));
            }
            let zw: Vec<f64> = z.iter().zip(&w).map(|(z, w)| z * w).collect();
            let f = dqrls(xw, m, nvars, &zw, EPSILON / 1000.0);
            if f.coef.iter().any(|c| !c.is_finite()) {
                conv = false;
                ctx.warn(format!("non-finite coefficients at iteration {it}"));
                fit = Some(f);
                break;
            }
            if nobs < f.qr.rank {
                return Err(KernelError::new(format!(
                    "X matrix has rank {}, but only {nobs} observations",
                    f.qr.rank
                )));
            }
            for (k, &piv) in f.qr.pivot.iter().enumerate() {
                start[piv - 1] = f.coef[k];
            }
            fit = Some(f);
            eta = predictor(&start);
            mu = linkinv(&eta);
            let mut dev = dev_of(&mu);
            boundary = false;
            if !dev.is_finite() {
                let Some(old) = &coefold else {
                    return Err(KernelError::new(
                        "no valid set of coefficients has been found: please supply starting values",
                    ));
                };
                ctx.warn("step size truncated due to divergence");
                let mut ii = 1;
                while !dev.is_finite() {
                    if ii > MAXIT {
                        return Err(KernelError::new("inner loop 1; cannot correct step size"));
                    }
                    ii += 1;
                    for (s, o) in start.iter_mut().zip(old) {
                        *s = (*s + o) / 2.0;
                    }
                    eta = predictor(&start);
                    mu = linkinv(&eta);
                    dev = dev_of(&mu);
                }
                boundary = true;
            }
            if !(family.valideta(&eta) && family.validmu(&mu)) {
                let Some(old) = &coefold else {
                    return Err(KernelError::new(
                        "no valid set of coefficients has been found: please supply starting values",
                    ));
                };
                ctx.warn("step size truncated: out of bounds");
                let mut ii = 1;
                while !(family.valideta(&eta) && family.validmu(&mu)) {
                    if ii > MAXIT {
                        return Err(KernelError::new("inner loop 2; cannot correct step size"));
                    }
                    ii += 1;
                    for (s, o) in start.iter_mut().zip(old) {
                        *s = (*s + o) / 2.0;
                    }
                    eta = predictor(&start);
                    mu = linkinv(&eta);
                }
                boundary = true;
                dev = dev_of(&mu);
            }
            if (dev - devold).abs() / (dev.abs() + 0.1) < EPSILON {
                conv = true;
                coef.clone_from(&start);
                break;
            }
            devold = dev;
            coef.clone_from(&start);
            coefold = Some(start.clone());
        }
        if coef.is_empty() {
            return Err(KernelError::new(
                "no valid set of coefficients has been found: please supply starting values",
            ));
        }
    }
    // R warns only about a model it iterated on.
    if nvars > 0 {
        if !conv {
            ctx.warn("glm.fit: algorithm did not converge");
        }
        if boundary {
            ctx.warn("glm.fit: algorithm stopped at boundary value");
        }
        let eps = 10.0 * f64::EPSILON;
        match family.dist {
            Dist::Binomial if mu.iter().any(|&m| m > 1.0 - eps || m < eps) => {
                ctx.warn("glm.fit: fitted probabilities numerically 0 or 1 occurred")
            }
            Dist::Poisson if mu.iter().any(|&m| m < eps) => {
                ctx.warn("glm.fit: fitted rates numerically 0 occurred")
            }
            _ => {}
        }
    }
    let rank = fit.as_ref().map_or(0, |f| f.qr.rank);
    if let Some(f) = &fit {
        for &piv in &f.qr.pivot[rank..] {
            coef[piv - 1] = NA;
        }
    }
    let residuals: Vec<f64> = (0..nobs)
        .map(|i| (y[i] - mu[i]) / family.mu_eta(eta[i]))
        .collect();
    let mut wt = vec![0.0; nobs];
    for (slot, wi) in (0..nobs).filter(|&i| good[i]).zip(&w) {
        wt[slot] = wi * wi;
    }
    let wtdmu: Vec<f64> = if intercept {
        let wy: Vec<f64> = weights.iter().zip(&y).map(|(w, y)| w * y).collect();
        vec![sum(&wy, false) / sum(&weights, false)]
    } else {
        offset.iter().map(|&o| family.linkinv(o)).collect()
    };
    let mut nulldev = sum(&family.dev_resids(&y, &wtdmu, &weights), false);
    if intercept && d.offset.is_some() && nvars == 1 {
        // The intercept alone: the null model is the model.
        nulldev = dev_of(&mu);
    } else if intercept && d.offset.is_some() && nvars > 1 {
        // glm(): with an offset the null model is the intercept and the
        // offset, fitted by glm.fit (from the fit's means, as R starts it).
        let null = Design {
            x: vec![1.0; nobs],
            p: 1,
            names: vec!["(Intercept)".to_string()],
            assign: vec![0],
            ..Design::matrix(Vec::new(), d.y.clone(), prior.clone(), nobs)
        };
        let null = Design {
            offset: d.offset.clone(),
            ..null
        };
        let fields = glm_fit(&null, failures, family, true, ctx)?;
        if let Some((_, Value::Num(dev))) = fields.iter().find(|(n, _)| *n == "deviance") {
            nulldev = dev.first().copied().unwrap_or(NA);
        }
    }
    let n_ok = nobs - weights.iter().filter(|&&w| w == 0.0).count();
    let nulldf = n_ok as f64 - f64::from(u8::from(intercept));
    let resdf = n_ok as f64 - rank as f64;
    let dev = dev_of(&mu);
    let aic = family.aic(&y, &init.n, &mu, &weights, dev) + 2.0 * rank as f64;
    let (qr, effects) = match fit {
        Some(f) => (qr_value(f.qr), Value::Num(f.effects)),
        None => (
            qr_value(super::super::linalg::linpack::dqrdc2(
                Vec::new(),
                0,
                0,
                1e-11,
            )),
            Value::Num(Vec::new()),
        ),
    };
    Ok(vec![
        ("coefficients", Value::Num(coef)),
        ("coefficient.names", Value::Str(d.names.clone())),
        ("residuals", Value::Num(residuals)),
        ("fitted.values", Value::Num(mu)),
        ("effects", effects),
        ("rank", Value::scalar(rank as f64)),
        ("qr", qr),
        ("family", family.value()),
        ("linear.predictors", Value::Num(eta)),
        ("deviance", Value::scalar(dev)),
        ("aic", Value::scalar(aic)),
        ("null.deviance", Value::scalar(nulldev)),
        ("iter", Value::scalar(iter as f64)),
        ("weights", Value::Num(wt)),
        ("prior.weights", Value::Num(weights)),
        ("df.residual", Value::scalar(resdf)),
        ("df.null", Value::scalar(nulldf)),
        ("y", Value::Num(y)),
        ("converged", Value::Bool(vec![Some(conv)])),
        ("boundary", Value::Bool(vec![Some(boundary)])),
        (
            "assign",
            Value::Num(d.assign.iter().map(|&a| a as f64).collect()),
        ),
        ("terms", terms_value(d, intercept)),
    ])
}

/// R's `glm.fit(x, y, weights, family = , intercept = )` called on its
/// own, with glm.control()'s defaults: the same IRLS as `glm`, on the
/// model matrix given. R's list without its `R` (the triangular factor
/// is in `qr`); `start`, `etastart`, `mustart`, `offset` and `control`
/// are refused, as is a matrix `y`.
pub(super) fn glm_fit_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    for name in ["start", "etastart", "mustart", "offset", "control"] {
        if args.get(name).is_some_and(|v| !matches!(v, Value::Null)) {
            return Err(KernelError::new(format!(
                "flowcast's glm.fit takes no '{name}' (R's default only)"
            )));
        }
    }
    let numbers = |v: &Value| -> Result<Vec<f64>, KernelError> {
        match v {
            Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => {
                Ok(v.as_f64_slice().map(|s| s.into_owned()).unwrap_or_default())
            }
            _ => Err(KernelError::new(format!(
                "flowcast's glm.fit takes numeric 'x', 'y' and 'weights', not {}",
                v.type_name()
            ))),
        }
    };
    let xv = args.get("x").unwrap_or(&Value::Null);
    let yv = args.get("y").unwrap_or(&Value::Null);
    if yv.dims().is_some_and(|(_, c)| c != 1) {
        return Err(KernelError::new(
            "flowcast's glm.fit takes a vector 'y' (a two-column binomial response is not taken)",
        ));
    }
    let x = numbers(xv)?;
    let y = numbers(yv)?;
    let n = xv.dims().map_or(x.len(), |(rows, _)| rows);
    if y.len() != n {
        return Err(KernelError::new(format!(
            "flowcast's glm.fit takes 'y' with one value per row of 'x' ({n}), not {}",
            y.len()
        )));
    }
    if x.iter().chain(&y).any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "flowcast's glm.fit takes finite 'x' and 'y' (no NA)",
        ));
    }
    let weights = match args.get("weights") {
        None | Some(Value::Null) => vec![1.0; n],
        Some(w) => {
            let w = numbers(w)?;
            if w.len() != n || w.iter().any(|v| !v.is_finite()) {
                return Err(KernelError::new(
                    "flowcast's glm.fit takes finite 'weights', one per row of 'x'",
                ));
            }
            w
        }
    };
    let intercept = match args.get("intercept") {
        None => true,
        Some(v) => super::super::logical::if_condition(v)?,
    };
    let family = family_of(args.get("family"))?;
    let d = Design::matrix(x, y, weights, n);
    let fields = glm_fit(&d, None, family, intercept, ctx)?;
    let kept: Vec<(&str, Value)> = fields
        .into_iter()
        .filter(|(k, _)| !matches!(*k, "coefficient.names" | "assign" | "terms"))
        .collect();
    Ok(Value::List(List::named(kept)))
}

pub(super) fn glm_fit_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y", "weights"] {
        if let Some(t @ (Type::Str { .. } | Type::List { .. })) = args.ty(name) {
            return Err(args.error(
                name,
                format!(
                    "flowcast's glm.fit takes numeric 'x', 'y' and 'weights', not {}",
                    t.describe()
                ),
            ));
        }
    }
    let Type::Record { fields, .. } = glm_type(None, None) else {
        unreachable!("glm_type is a record")
    };
    let keep = |k: &str| {
        !matches!(
            k,
            "coefficient.names" | "assign" | "terms" | "x" | "obs.names" | "offset" | "response"
        )
    };
    Ok(Type::Record {
        class: "list".into(),
        fields: fields.into_iter().filter(|(k, _)| keep(k)).collect(),
    })
}

/// `glm.control(epsilon, maxit, trace)`: its arguments as a list, after
/// R's checks (stats/R/glm.R).
pub(super) fn control_eval(
    args: &Args<&Value>,
    _: &mut super::super::Ctx,
) -> Result<Value, KernelError> {
    let epsilon = args.get("epsilon").map_or(Value::scalar(1e-8), |v| {
        crate::kernels::names::bare(v).clone()
    });
    let maxit = args.get("maxit").map_or(Value::scalar(25.0), |v| {
        crate::kernels::names::bare(v).clone()
    });
    let trace = args.get("trace").map_or(Value::flag(false), |v| {
        crate::kernels::names::bare(v).clone()
    });
    // `if(!is.numeric(x) || x <= 0) stop(...)`: an NA leaves `if` no
    // answer; a vector is judged by its first element.
    let check = |v: &Value, message: &str| match v {
        Value::Num(x) => match x.first() {
            None => Err(KernelError::new("argument is of length zero")),
            Some(x) if x.is_nan() => Err(KernelError::new("missing value where TRUE/FALSE needed")),
            Some(x) if *x <= 0.0 => Err(KernelError::new(message)),
            Some(_) => Ok(()),
        },
        _ => Err(KernelError::new(message)),
    };
    check(&epsilon, "value of 'epsilon' must be > 0")?;
    check(&maxit, "maximum number of iterations must be > 0")?;
    Ok(Value::List(List::named(vec![
        ("epsilon", epsilon),
        ("maxit", maxit),
        ("trace", trace),
    ])))
}

pub(super) fn control_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::record(
        "list",
        vec![
            ("epsilon", Type::num(1)),
            ("maxit", Type::num(1)),
            ("trace", Type::Any),
        ],
    ))
}
