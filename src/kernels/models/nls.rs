//! `nls`: nonlinear least squares by Gauss-Newton, as R 4.2 fits it. The
//! argument checks and the model frame follow `nls` (stats/R/nls.R), the
//! model `nlsModel` there, the derivatives `numeric_deriv` and the
//! iteration `nls_iter` (stats/src/nls.c); each is kept in its original's
//! shape, so the points where the formula is evaluated, and the estimates,
//! are R's. The methods R users call on a fit (`coef.nls`,
//! `residuals.nls`, `summary.nls`, `vcov.nls`, `logLik.nls`, ...) are
//! here too.
//!
//! The formula's right-hand side is an R expression of the parameters and
//! the data, which only the evaluator can run: it hands it over as the
//! call's closure (the left-hand side as the second), called with every
//! variable and parameter by name. Its `formula` argument arrives as a
//! record of the formula's text and variables (see `exec::eval`).

use nalgebra::DMatrix;

use super::super::linalg::la_chol2inv;
use super::super::linalg::linpack::{dqrdc2, dqrsl, Job, Qr};
use super::super::names;
use super::super::nmath::pbeta::pt;
use super::super::summary::sum;
use super::super::value::{List, NA};
use super::super::vector::format_g;
use super::super::{fun, ArgError, Args, Ctx, KernelError, ShapeCtx, Type, Value};

pub(crate) const CLASS: &str = "nls";
const SUMMARY_CLASS: &str = "summary.nls";

/// What the evaluator hands over as `formula`: the formula read, its
/// variables and which of them it found.
pub(crate) mod handoff {
    /// The formula's text (R's deparse).
    pub const TEXT: &str = "text";
    /// The right-hand side's text, which `predict` evaluates again.
    pub const RHS: &str = "rhs";
    /// `all.vars(formula)` in R's order.
    pub const VARS: &str = "vars";
    /// The values of those the evaluator found, by name.
    pub const FOUND: &str = "found";
    /// The text of the `data` argument (R's `substitute(data)`).
    pub const DATA: &str = "data";
    /// A selfStart model on the right-hand side (`SSlogis(x, Asym, ...)`):
    /// its name, its parameters' names and its inputs' values, the
    /// response's (see `self_start::initial`).
    pub const SELF_START: &str = "selfStart";
}

/// `nls.control()`'s settings.
#[derive(Clone, Copy)]
pub(crate) struct Control {
    maxiter: f64,
    tol: f64,
    min_factor: f64,
    warn_only: bool,
    pub scale_offset: f64,
    pub central: bool,
}

const CONTROL_NAMES: [&str; 7] = [
    "maxiter",
    "tol",
    "minFactor",
    "printEval",
    "warnOnly",
    "scaleOffset",
    "nDcentral",
];

fn default_control() -> List {
    List::named(vec![
        ("maxiter", Value::scalar(50.0)),
        ("tol", Value::scalar(1e-5)),
        ("minFactor", Value::scalar(1.0 / 1024.0)),
        ("printEval", Value::flag(false)),
        ("warnOnly", Value::flag(false)),
        ("scaleOffset", Value::scalar(0.0)),
        ("nDcentral", Value::flag(false)),
    ])
}

/// `nls.control(...)`, with its `stopifnot` checks.
pub(super) fn control_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let mut ctrl = default_control();
    for (name, slot) in CONTROL_NAMES.iter().zip(ctrl.items.iter_mut()) {
        if let Some(v) = args.get(name) {
            *slot = names::bare(v).clone();
        }
    }
    let num = |i: usize| match &ctrl.items[i] {
        Value::Num(x) if x.len() == 1 => Some(x[0]),
        _ => None,
    };
    let fail = |what: &str| Err(KernelError::new(format!("{what} is not TRUE")));
    match num(1) {
        None => return fail("is.numeric(tol) && length(tol) == 1L"),
        Some(t) if t.is_nan() || t <= 0.0 => return fail("tol > 0"),
        _ => {}
    }
    if num(2).is_none() {
        return fail("is.numeric(minFactor) && length(minFactor) == 1L");
    }
    if num(5).is_none() {
        return fail("is.numeric(scaleOffset) && length(scaleOffset) == 1L");
    }
    if !matches!(&ctrl.items[6], Value::Bool(b) if b.len() == 1 && b[0].is_some()) {
        return fail("is.logical(nDcentral) && length(nDcentral) == 1L && !is.na(nDcentral)");
    }
    Ok(Value::List(ctrl))
}

pub(super) fn control_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(control_type())
}

fn control_type() -> Type {
    Type::record(
        "list",
        CONTROL_NAMES
            .iter()
            .map(|n| {
                let t = if matches!(*n, "printEval" | "warnOnly" | "nDcentral") {
                    Type::logical(Some(1))
                } else {
                    Type::num(1)
                };
                (*n, t)
            })
            .collect(),
    )
}

/// `ctrl <- nls.control(); ctrl[names(control)] <- control`, read as
/// `nls_iter` reads it.
pub(crate) fn read_control(control: Option<&Value>) -> Result<(Control, Value), KernelError> {
    let mut ctrl = default_control();
    let given = match control.map(names::bare) {
        None => Value::List(ctrl.clone()),
        Some(Value::Null) => Value::List(List::sequence(Vec::new())),
        Some(v @ Value::List(l)) => {
            let names = l.names.clone().unwrap_or_default();
            for (n, item) in names.iter().zip(&l.items) {
                match ctrl
                    .names
                    .as_ref()
                    .and_then(|c| c.iter().position(|c| c == n))
                {
                    Some(i) => ctrl.items[i] = item.clone(),
                    None if n.is_empty() => {}
                    None => {
                        ctrl.names.get_or_insert_with(Vec::new).push(n.clone());
                        ctrl.items.push(item.clone());
                    }
                }
            }
            v.clone()
        }
        Some(v) => {
            return Err(KernelError::new(format!(
                "'control' must be a list (nls.control(...) or list(...)), not {}",
                v.type_name()
            )))
        }
    };
    let field = |name: &str| ctrl.field(name).map(names::bare);
    let number = |name: &str| -> Result<f64, KernelError> {
        match field(name) {
            Some(Value::Num(x)) if !x.is_empty() => Ok(x[0]),
            _ => Err(KernelError::new(format!("'control${name}' absent"))),
        }
    };
    let logical = |name: &str| -> Result<bool, KernelError> {
        match field(name) {
            Some(Value::Bool(b)) if !b.is_empty() => Ok(b[0] == Some(true)),
            _ => Err(KernelError::new(format!("'control${name}' absent"))),
        }
    };
    let maxiter = number("maxiter")?;
    let c = Control {
        // asInteger: NA stops at once as a count below one does.
        maxiter: if maxiter.is_nan() {
            0.0
        } else {
            maxiter.trunc()
        },
        tol: number("tol")?,
        min_factor: number("minFactor")?,
        warn_only: logical("warnOnly")?,
        scale_offset: number("scaleOffset")?,
        central: logical("nDcentral")?,
    };
    logical("printEval")?;
    Ok((c, given))
}

/// The values a formula evaluates to, as doubles (`storage.mode<-`).
fn doubles(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match names::bare(v) {
        Value::Num(x) => Ok(x.clone()),
        Value::Mat(m) => Ok(m.as_slice().to_vec()),
        Value::Bool(b) => Ok(b
            .iter()
            .map(|b| b.map_or(NA, |b| f64::from(u8::from(b))))
            .collect()),
        Value::Null => Ok(Vec::new()),
        other => Err(KernelError::new(format!(
            "non-numeric argument to binary operator ({what} is {})",
            other.type_name()
        ))),
    }
}

/// The model of `nlsModel`: the formula's sides, the parameters' current
/// values and what the iteration reads off them.
struct Model<'f> {
    rhs: fun::Fun<'f>,
    /// The model frame's variables, bound before the parameters.
    vars: Vec<(String, Value)>,
    /// Each parameter's name and length (`ind`).
    params: Vec<(String, usize)>,
    lhs: Vec<f64>,
    swts: Vec<f64>,
    /// The parameters, flattened (`internalPars`).
    pars: Vec<f64>,
    fitted: Vec<f64>,
    /// `attr(rhs, "gradient")`, n x p column-major, unweighted.
    grad: Vec<f64>,
    resid: Vec<f64>,
    dev: f64,
    qr: Qr,
    central: bool,
    scale_offset: f64,
    /// Whether the right-hand side carries its own "gradient".
    analytic: bool,
}

impl Model<'_> {
    /// The right-hand side at parameters `pars`.
    fn eval_rhs(&self, pars: &[f64], ctx: &mut Ctx) -> Result<Vec<f64>, KernelError> {
        doubles(&self.eval_value(pars, ctx)?, "the right-hand side")
    }

    /// The right-hand side's value, attributes and all.
    fn eval_value(&self, pars: &[f64], ctx: &mut Ctx) -> Result<Value, KernelError> {
        let values = self.param_values(pars);
        let mut given: Vec<(Option<String>, &Value)> = self
            .vars
            .iter()
            .map(|(n, v)| (Some(n.clone()), v))
            .collect();
        given.extend(
            self.params
                .iter()
                .zip(&values)
                .map(|((n, _), v)| (Some(n.clone()), v)),
        );
        self.rhs.call_named(given, ctx)
    }

    /// Each parameter's value, cut from the flat `pars`.
    fn param_values(&self, pars: &[f64]) -> Vec<Value> {
        let mut at = 0;
        self.params
            .iter()
            .map(|(_, len)| {
                let v = Value::Num(pars[at..at + len].to_vec());
                at += len;
                v
            })
            .collect()
    }

    /// R's `numericDeriv` of the right-hand side (see [`numeric_deriv`]).
    fn numeric_deriv(
        &self,
        pars: &[f64],
        ctx: &mut Ctx,
    ) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
        numeric_deriv(
            &mut |p: &[f64], ctx: &mut Ctx| self.eval_rhs(p, ctx),
            pars,
            self.central,
            ctx,
        )
    }

    /// The right-hand side and its "gradient" attribute, which a
    /// selfStart model (`SSlogis`, ...) attaches: R's `nlsModel` takes
    /// that in place of `numericDeriv` when the first evaluation has one.
    fn analytic_deriv(
        &self,
        pars: &[f64],
        ctx: &mut Ctx,
    ) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
        let v = self.eval_value(pars, ctx)?;
        let res = doubles(&v, "the right-hand side")?;
        let grad =
            match gradient_attr(&v) {
                Some(g) => g,
                None => return Err(KernelError::new(
                    "the model's value lost its \"gradient\" attribute when a parameter changed",
                )),
            };
        if res.iter().chain(&grad).any(|x| !x.is_finite()) {
            return Err(KernelError::new(
                "NA/NaN/Inf in foreign function call (arg 1)",
            ));
        }
        Ok((res, grad))
    }

    /// `.swts * (lhs - rhs)`, R's recycling of the shorter.
    fn residuals(&self, rhs: &[f64], ctx: &mut Ctx) -> Vec<f64> {
        let diff = recycle(&self.lhs, rhs, |l, r| l - r, ctx);
        recycle(&self.swts, &diff, |w, d| w * d, ctx)
    }

    /// `qr(.swts * gr)`, and whether its rank falls short. A gradient of
    /// one number is a vector to R (`as.vector(gr)`), recycled to the
    /// weights' length: `y ~ a` fits a constant.
    fn decompose(&self, rows: usize, ctx: &mut Ctx) -> Result<(Qr, bool), KernelError> {
        let p = self.pars.len();
        let w = self.swts.len();
        let n = if self.grad.len() == 1 { w.max(1) } else { rows };
        if self.grad.len() > 1 && w > self.grad.len() {
            return Err(KernelError::new(format!(
                "dims [product {}] do not match the length of object [{w}]",
                self.grad.len()
            )));
        }
        if self.grad.len() > 1 {
            recycle_warning(w, self.grad.len(), ctx);
        }
        let weighted: Vec<f64> = (0..n * p)
            .map(|k| {
                let g = self.grad[k % self.grad.len()];
                self.swts.get(k % w.max(1)).unwrap_or(&1.0) * g
            })
            .collect();
        let qr = dqrdc2(weighted, n, p, 1e-7);
        let short = qr.rank < n.min(p);
        Ok((qr, short))
    }

    /// `m$setPars(newPars)`: the model at new parameters; true when the
    /// gradient is singular there.
    fn set_pars(&mut self, new: Vec<f64>, ctx: &mut Ctx) -> Result<bool, KernelError> {
        let (rhs, grad) = if self.analytic {
            self.analytic_deriv(&new, ctx)?
        } else {
            self.numeric_deriv(&new, ctx)?
        };
        self.pars = new;
        self.resid = self.residuals(&rhs, ctx);
        self.dev = sum_squares(&self.resid);
        self.grad = grad;
        let (qr, short) = self.decompose(rhs.len(), ctx)?;
        self.grad = qr_input_gradient(&self.grad, qr.n, qr.p);
        self.fitted = rhs;
        self.qr = qr;
        Ok(short)
    }

    fn same_rows(&self) -> Result<(), KernelError> {
        if self.resid.len() != self.qr.n {
            return Err(KernelError::new(
                "'qr' and 'y' must have the same number of rows",
            ));
        }
        Ok(())
    }

    /// `m$conv()`: the relative offset convergence criterion.
    fn conv(&self) -> Result<f64, KernelError> {
        let npar = self.pars.len();
        if npar == 0 {
            return Ok(0.0);
        }
        self.same_rows()?;
        let rr = dqrsl(
            &self.qr,
            self.qr.rank,
            &self.resid,
            Job {
                qty: true,
                ..Job::default()
            },
        )
        .qty;
        let k = npar.min(rr.len());
        let head: Vec<f64> = rr[..k].iter().map(|x| x * x).collect();
        let tail: Vec<f64> = rr[k..].iter().map(|x| x * x).collect();
        let offset = (self.resid.len() as f64 - npar as f64) * self.scale_offset.powi(2);
        Ok((sum(&head, false) / (offset + sum(&tail, false))).sqrt())
    }

    /// `m$incr()`: `qr.coef(QR, resid)`, the Gauss-Newton increment.
    fn incr(&self) -> Result<Vec<f64>, KernelError> {
        self.same_rows()?;
        let k = self.qr.rank;
        let out = dqrsl(
            &self.qr,
            k,
            &self.resid,
            Job {
                b: true,
                ..Job::default()
            },
        );
        if out.info != 0 {
            return Err(KernelError::new("exact singularity in 'qr.coef'"));
        }
        let mut coef = vec![NA; self.qr.p];
        for (i, b) in out.b.iter().take(k).enumerate() {
            coef[self.qr.pivot[i] - 1] = *b;
        }
        Ok(coef)
    }

    /// The parameters' names as `unlist` gives them: `b`, or `b1`, `b2`.
    fn par_names(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.pars.len());
        for (n, len) in &self.params {
            if *len == 1 {
                out.push(n.clone());
            } else {
                out.extend((1..=*len).map(|k| format!("{n}{k}")));
            }
        }
        out
    }

    /// `qr.R(QR)`: the p x p triangle.
    fn rmat(&self) -> DMatrix<f64> {
        let (n, p) = (self.qr.n, self.qr.p);
        DMatrix::from_fn(n.min(p), p, |i, j| {
            if i <= j {
                self.qr.qr[j * n + i]
            } else {
                0.0
            }
        })
    }
}

/// The gradient as the fit keeps it: `n x p`, one number recycled.
fn qr_input_gradient(grad: &[f64], n: usize, p: usize) -> Vec<f64> {
    if grad.len() == n * p || grad.is_empty() {
        return grad.to_vec();
    }
    (0..n * p).map(|k| grad[k % grad.len()]).collect()
}

/// R's `sum(x^2)`.
fn sum_squares(x: &[f64]) -> f64 {
    let sq: Vec<f64> = x.iter().map(|x| x * x).collect();
    sum(&sq, false)
}

fn recycle_warning(a: usize, b: usize, ctx: &mut Ctx) {
    let (short, long) = (a.min(b), a.max(b));
    if short > 0 && long % short != 0 {
        ctx.warn("longer object length is not a multiple of shorter object length");
    }
}

/// `a op b` element by element, the shorter recycled, as R's arithmetic.
fn recycle(a: &[f64], b: &[f64], op: impl Fn(f64, f64) -> f64, ctx: &mut Ctx) -> Vec<f64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    recycle_warning(a.len(), b.len(), ctx);
    let n = a.len().max(b.len());
    (0..n).map(|i| op(a[i % a.len()], b[i % b.len()])).collect()
}

/// A model's right-hand side at given parameters.
pub(crate) type ModelFn<'a> = dyn FnMut(&[f64], &mut Ctx) -> Result<Vec<f64>, KernelError> + 'a;

/// R's `numericDeriv` (`numeric_deriv` in nls.c) with `dir = 1`: `f` at
/// `pars`, and its forward (or central) differences by each parameter,
/// the step `|x| eps` (`eps` itself at zero); the gradient is
/// `length(f) x p`, column-major.
pub(crate) fn numeric_deriv(
    f: &mut ModelFn,
    pars: &[f64],
    central: bool,
    ctx: &mut Ctx,
) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
    let check = |v: &[f64]| {
        if v.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(KernelError::new(
                "Missing value or an infinity produced when evaluating the model",
            ))
        }
    };
    let changed = || KernelError::new("the model's value changed length when a parameter changed");
    let res = f(pars, ctx)?;
    check(&res)?;
    let eps = f64::EPSILON.powf(1.0 / if central { 3.0 } else { 2.0 });
    let n = res.len();
    let mut grad = Vec::with_capacity(n * pars.len());
    let mut trial = pars.to_vec();
    for j in 0..pars.len() {
        let orig = pars[j];
        let xx = orig.abs();
        let delta = if xx == 0.0 { eps } else { xx * eps };
        trial[j] = orig + delta;
        let del = f(&trial, ctx)?;
        check(&del)?;
        if del.len() != n {
            return Err(changed());
        }
        if central {
            trial[j] = orig - delta;
            let de2 = f(&trial, ctx)?;
            check(&de2)?;
            if de2.len() != n {
                return Err(changed());
            }
            grad.extend(del.iter().zip(&de2).map(|(a, b)| (a - b) / (2.0 * delta)));
        } else {
            grad.extend(del.iter().zip(&res).map(|(a, b)| (a - b) / delta));
        }
        trial[j] = orig;
    }
    Ok((res, grad))
}

/// `attr(v, "gradient")` as numbers, column-major.
fn gradient_attr(v: &Value) -> Option<Vec<f64>> {
    let Value::Named(n) = v else {
        return None;
    };
    let (_, g) = n.attrs.iter().find(|(k, _)| k == "gradient")?;
    match names::bare(g) {
        Value::Mat(m) => Some(m.as_slice().to_vec()),
        Value::Num(x) => Some(x.clone()),
        _ => None,
    }
}

/// What `nls_iter` asks of a model (R's `m` list): `getPars`,
/// `deviance`, `conv`, `incr` and `setPars`.
pub(crate) trait GaussNewton {
    fn pars(&self) -> Vec<f64>;
    fn deviance(&self) -> f64;
    fn conv(&mut self) -> Result<f64, KernelError>;
    fn incr(&mut self) -> Result<Vec<f64>, KernelError>;
    fn set_pars(&mut self, new: Vec<f64>, ctx: &mut Ctx) -> Result<bool, KernelError>;
}

impl GaussNewton for Model<'_> {
    fn pars(&self) -> Vec<f64> {
        self.pars.clone()
    }
    fn deviance(&self) -> f64 {
        self.dev
    }
    fn conv(&mut self) -> Result<f64, KernelError> {
        Model::conv(self)
    }
    fn incr(&mut self) -> Result<Vec<f64>, KernelError> {
        Model::incr(self)
    }
    fn set_pars(&mut self, new: Vec<f64>, ctx: &mut Ctx) -> Result<bool, KernelError> {
        Model::set_pars(self, new, ctx)
    }
}

/// How `nls_iter` stopped.
pub(crate) struct ConvInfo {
    is_conv: bool,
    fin_iter: usize,
    fin_tol: f64,
    stop_code: u8,
    stop_message: String,
}

/// R's `nls_iter`: Gauss-Newton steps, each halved until the deviance
/// does not grow, until the convergence criterion is below `tol`.
pub(crate) fn nls_iter(
    m: &mut dyn GaussNewton,
    c: Control,
    ctx: &mut Ctx,
) -> Result<ConvInfo, KernelError> {
    let mut pars = m.pars();
    let mut dev = m.deviance();
    let mut fac: f64 = 1.0;
    let mut conv_new: f64 = -1.0;
    let max_iter = if c.maxiter > 0.0 {
        c.maxiter.min(i32::MAX as f64) as usize
    } else {
        0
    };
    // A failure is an error, or with warnOnly a warning and the model as
    // it stands.
    let finish = |code: u8, message: String, i: usize, tol: f64, ctx: &mut Ctx| {
        if c.warn_only {
            ctx.warn(message.clone());
            Ok(ConvInfo {
                is_conv: false,
                fin_iter: i,
                fin_tol: tol,
                stop_code: code,
                stop_message: message,
            })
        } else {
            Err(KernelError::new(message))
        }
    };
    let mut i = 0;
    while i < max_iter {
        if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(KernelError::new("cancelled"));
        }
        conv_new = m.conv()?;
        if conv_new <= c.tol {
            return Ok(ConvInfo {
                is_conv: true,
                fin_iter: i,
                fin_tol: conv_new,
                stop_code: 0,
                stop_message: "converged".into(),
            });
        }
        let incr = m.incr()?;
        while fac >= c.min_factor {
            let new: Vec<f64> = pars.iter().zip(&incr).map(|(p, d)| p + fac * d).collect();
            if m.set_pars(new.clone(), ctx)? {
                return finish(1, "singular gradient".into(), i, conv_new, ctx);
            }
            if m.deviance() <= dev {
                dev = m.deviance();
                pars = new;
                fac = (2.0 * fac).min(1.0);
                break;
            }
            fac /= 2.0;
        }
        if fac < c.min_factor {
            let message = format!(
                "step factor {} reduced below 'minFactor' of {}",
                format_g(fac),
                format_g(c.min_factor)
            );
            return finish(2, message, i, conv_new, ctx);
        }
        i += 1;
    }
    let message = format!("number of iterations exceeded maximum of {}", c.maxiter);
    finish(3, message, i, conv_new, ctx)
}

/// A named list's field by exact name.
fn exact<'a>(l: &'a List, name: &str) -> Option<&'a Value> {
    let i = l.names.as_ref()?.iter().position(|n| n == name)?;
    l.items.get(i)
}

fn text_of(l: &List, name: &str) -> String {
    match exact(l, name) {
        Some(Value::Str(s)) if !s.is_empty() => s[0].clone(),
        _ => String::new(),
    }
}

/// The starting values: `names(start)` and each as doubles.
fn read_start(start: &Value, ctx: &mut Ctx) -> Result<Vec<(String, Vec<f64>)>, KernelError> {
    let (names, items): (Vec<String>, Vec<Value>) = match start {
        Value::List(l) => (
            l.names
                .clone()
                .unwrap_or_else(|| vec![String::new(); l.items.len()]),
            l.items.clone(),
        ),
        v => {
            let bare = names::bare(v);
            let n = bare.len();
            let labels = names::names(v)
                .map(<[String]>::to_vec)
                .unwrap_or_else(|| vec![String::new(); n]);
            let x = doubles(bare, "start").map_err(|_| {
                KernelError::new("'start' must be a named list or named numeric vector")
            })?;
            (labels, x.into_iter().map(Value::scalar).collect())
        }
    };
    let mut out = Vec::with_capacity(names.len());
    for (n, v) in names.into_iter().zip(items) {
        let x = match names::bare(&v) {
            Value::Str(s) => {
                let x: Vec<f64> = s.iter().map(|s| s.trim().parse().unwrap_or(NA)).collect();
                if x.iter().any(|x| x.is_nan()) {
                    ctx.warn("NAs introduced by coercion");
                }
                x
            }
            other => doubles(other, "start").map_err(|_| {
                KernelError::new(format!(
                    "invalid starting value for parameter '{n}': {}",
                    other.type_name()
                ))
            })?,
        };
        out.push((n, x));
    }
    Ok(out)
}

/// Which rows a `subset` keeps, of `n`.
fn subset_rows(subset: &Value, n: usize) -> Result<Vec<usize>, KernelError> {
    match names::bare(subset) {
        Value::Bool(b) => Ok((0..n)
            .filter(|&i| !b.is_empty() && b[i % b.len()] == Some(true))
            .collect()),
        Value::Num(x) => {
            if x.iter().all(|&k| k <= 0.0 || k.is_nan()) && x.iter().any(|&k| k < 0.0) {
                let drop: Vec<usize> = x.iter().map(|&k| (-k) as usize).collect();
                return Ok((0..n).filter(|i| !drop.contains(&(i + 1))).collect());
            }
            if x.iter().any(|&k| k < 0.0) {
                return Err(KernelError::new(
                    "can't mix positive and negative subscripts",
                ));
            }
            Ok(x.iter()
                .filter(|&&k| k >= 1.0 && k <= n as f64)
                .map(|&k| k as usize - 1)
                .collect())
        }
        other => Err(KernelError::new(format!(
            "invalid subscript type '{}'",
            other.type_name()
        ))),
    }
}

pub(super) fn nls_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(a) = args.const_str("algorithm") {
        algorithm(a).map_err(|e| args.error("algorithm", e.0))?;
    }
    Ok(fit_type())
}

fn fit_type() -> Type {
    Type::record(
        CLASS,
        vec![
            ("m", Type::Any),
            (
                "convInfo",
                Type::record(
                    "list",
                    vec![
                        ("isConv", Type::logical(Some(1))),
                        ("finIter", Type::num(1)),
                        ("finTol", Type::num(1)),
                        ("stopCode", Type::num(1)),
                        (
                            "stopMessage",
                            Type::Str {
                                len: Some(1),
                                value: None,
                            },
                        ),
                    ],
                ),
            ),
            (
                "data",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
            ("control", Type::Any),
        ],
    )
}

/// `match.arg(algorithm)`: Gauss-Newton, or the partially linear
/// algorithm; "port" is refused. True for "plinear".
fn algorithm(a: &str) -> Result<bool, KernelError> {
    const ALL: [&str; 3] = ["default", "plinear", "port"];
    let hits: Vec<&str> = ALL.iter().copied().filter(|x| x.starts_with(a)).collect();
    match hits.as_slice() {
        _ if a == "default" => Ok(false),
        [one] if !a.is_empty() && *one == "default" => Ok(false),
        [one] if !a.is_empty() && *one == "plinear" => Ok(true),
        [one] if !a.is_empty() => Err(KernelError::new(format!(
            "flowcast's nls() fits by Gauss-Newton (algorithm = \"default\") or \"plinear\", not algorithm = \"{one}\""
        ))),
        _ => Err(KernelError::new(
            "'arg' should be one of \u{201c}default\u{201d}, \u{201c}plinear\u{201d}, \u{201c}port\u{201d}",
        )),
    }
}

pub(super) fn nls_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Some(Value::List(form)) = args.get("formula") else {
        return Err(KernelError::new(
            "flowcast's nls() needs its formula written in the call: nls(y ~ a * exp(-b * x), ...)",
        ));
    };
    let rhs = fun::resolve(None, ctx)?
        .ok_or_else(|| KernelError::new("nls(): the formula's right-hand side is missing"))?;
    let lhs_fun = fun::resolve2(None, ctx)?;
    let plinear = match args.get("algorithm").map(names::bare) {
        None => false,
        Some(Value::Str(s)) if s.len() == 1 => algorithm(&s[0])?,
        Some(Value::Str(s)) if s.len() == 3 => algorithm("default")?,
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    if args.bool_or("trace", false)? {
        return Err(KernelError::new(
            "flowcast's nls() does not print its iterations (trace = FALSE)",
        ));
    }
    let data = args.get("data").map(names::bare);
    if let Some(d) = data {
        if !matches!(d, Value::List(_)) {
            return Err(KernelError::new("'data' must be a list or an environment"));
        }
    }
    let vars: Vec<String> = match exact(form, handoff::VARS) {
        Some(Value::Str(s)) => s.clone(),
        _ => Vec::new(),
    };
    let found = match exact(form, handoff::FOUND) {
        Some(Value::List(l)) => l.clone(),
        _ => List::named(Vec::new()),
    };
    let found_value = |n: &str| exact(&found, n);

    // pnames: the names of `start`; without it, the variables found
    // nowhere, each started at 1 with R's warning.
    let start_given = args.get("start").filter(|v| !matches!(v, Value::Null));
    let mut start = match start_given {
        Some(s) => read_start(s, ctx)?,
        None => Vec::new(),
    };
    // A selfStart model names its parameters by its arguments.
    let self_start = match exact(form, handoff::SELF_START) {
        Some(Value::List(l)) if start_given.is_none() => Some(l),
        _ => None,
    };
    let pnames: Vec<String> = match self_start {
        Some(ss) => super::self_start::param_names(ss),
        None => start.iter().map(|(n, _)| n.clone()).collect(),
    };
    let mut var_names: Vec<String> = vars
        .iter()
        .filter(|v| !pnames.contains(v))
        .cloned()
        .collect();
    let len_of = |n: &str| found_value(n).map(Value::len);
    let mut lens: Vec<usize> = Vec::new();
    if !var_names.is_empty() {
        let absent: Vec<String> = var_names
            .iter()
            .filter(|v| len_of(v).is_none())
            .cloned()
            .collect();
        if !absent.is_empty() {
            if start_given.is_some() {
                return Err(KernelError::new(format!(
                    "parameters without starting value in 'data': {}",
                    absent.join(", ")
                )));
            }
            if plinear {
                return Err(KernelError::new("no starting values specified"));
            }
            let quoted: Vec<String> = absent
                .iter()
                .map(|n| format!("\u{2018}{n}\u{2019}"))
                .collect();
            ctx.warn(format!(
                "No starting values specified for some parameters.\nInitializing {} to '1.'.\nConsider specifying 'start' or using a selfStart model",
                quoted.join(", ")
            ));
            start = absent.iter().map(|n| (n.clone(), vec![1.0])).collect();
            var_names.retain(|v| !absent.contains(v));
        }
        lens = var_names.iter().map(|v| len_of(v).unwrap_or(0)).collect();
    } else {
        let without: Vec<&String> = pnames.iter().filter(|p| len_of(p).is_none()).collect();
        if without.is_empty() {
            return Err(KernelError::new("no parameters to fit"));
        }
        // R says which parameters it fits without variables, as a
        // message, and fits them.
    }
    if start.is_empty() {
        if start_given.is_some() {
            // `mget(character(0), env)` in nlsModel's getPars.
            return Err(KernelError::new("invalid first argument"));
        }
        let Some(ss) = self_start else {
            return Err(KernelError::new(
                "flowcast's nls() needs 'start' (or a selfStart model, SSlogis and its kin)",
            ));
        };
        // R's getInitial(formula, data = mf, control = control): on the
        // model frame, which a subset would cut.
        if args
            .get("subset")
            .is_some_and(|v| !matches!(v, Value::Null))
        {
            return Err(KernelError::new(
                "flowcast's nls() takes no 'subset' with a selfStart model and no 'start': subset the data first",
            ));
        }
        let (c, _) = read_control(args.get("control"))?;
        let init = super::self_start::initial(ss, c, ctx)?;
        start = init.into_iter().map(|(n, x)| (n, vec![x])).collect();
    }

    // The model frame.
    let bind_vars = |names: &[String]| -> Vec<(Option<String>, Value)> {
        names
            .iter()
            .filter_map(|n| found_value(n).map(|v| (Some(n.clone()), names::bare(v).clone())))
            .collect()
    };
    let lhs_value = |ctx: &mut Ctx, vars: &[(String, Value)]| -> Result<Vec<f64>, KernelError> {
        match &lhs_fun {
            None => Ok(vec![0.0]),
            Some(f) => {
                let given = vars.iter().map(|(n, v)| (Some(n.clone()), v)).collect();
                doubles(&f.call(given, ctx)?, "the left-hand side")
            }
        }
    };
    let all_found: Vec<(String, Value)> = bind_vars(&var_names)
        .into_iter()
        .map(|(n, v)| (n.unwrap_or_default(), v))
        .collect();
    let resp_length = lhs_value(ctx, &all_found)?.len();
    let weights = args.get("weights").filter(|v| !matches!(v, Value::Null));
    let subset = args.get("subset").filter(|v| !matches!(v, Value::Null));
    let mut mf: Vec<(String, Value)>;
    let wts: Vec<f64>;
    if !lens.is_empty() {
        if resp_length == 0 {
            // R's `n %% respLength` is NA, which its next `if` reads.
            return Err(KernelError::new("missing value where TRUE/FALSE needed"));
        }
        let data_names: Vec<String> = match data {
            Some(Value::List(l)) => l.names.clone().unwrap_or_default(),
            _ => Vec::new(),
        };
        let in_data: Vec<usize> = var_names
            .iter()
            .zip(&lens)
            .filter(|(v, _)| data_names.contains(v))
            .map(|(_, &n)| n)
            .collect();
        let uneven = in_data.iter().min() != in_data.iter().max();
        let var_index: Vec<bool> = lens.iter().map(|n| n % resp_length == 0).collect();
        if data.is_some() && uneven {
            // Variables of different lengths in `data`: R takes the data
            // as they are, with no model frame.
            if subset.is_some() {
                ctx.warn("argument 'subset' will be ignored");
            }
            mf = all_found.clone();
            let n = {
                let params: Vec<(Option<String>, Value)> = start
                    .iter()
                    .map(|(n, x)| (Some(n.clone()), Value::Num(x.clone())))
                    .collect();
                let mut given: Vec<(Option<String>, &Value)> =
                    mf.iter().map(|(n, v)| (Some(n.clone()), v)).collect();
                given.extend(params.iter().map(|(n, v)| (n.clone(), v)));
                rhs.call(given, ctx)?.len()
            };
            wts = match weights {
                None => vec![1.0; n],
                Some(w) => doubles(w, "weights")?,
            };
        } else {
            // model.frame(~ variables, data, subset, weights) with
            // na.omit: the variables of the response's length (or a
            // multiple), rows with an NA in any dropped.
            let framed: Vec<usize> = (0..var_names.len()).filter(|&i| var_index[i]).collect();
            let n = framed.first().map_or(resp_length, |&i| lens[i]);
            for &i in &framed {
                if lens[i] != n {
                    return Err(KernelError::new(format!(
                        "variable lengths differ (found for '{}')",
                        var_names[i]
                    )));
                }
            }
            let columns: Vec<Vec<f64>> = framed
                .iter()
                .map(|&i| {
                    found_value(&var_names[i])
                        .map(|v| doubles(v, &format!("variable '{}'", var_names[i])))
                        .unwrap_or(Ok(Vec::new()))
                })
                .collect::<Result<_, _>>()?;
            let w_all = match weights {
                None => None,
                Some(w) => {
                    let w = doubles(w, "weights")?;
                    if w.len() != n {
                        return Err(KernelError::new(
                            "variable lengths differ (found for '(weights)')",
                        ));
                    }
                    Some(w)
                }
            };
            let mut rows: Vec<usize> = match subset {
                None => (0..n).collect(),
                Some(s) => subset_rows(s, n)?,
            };
            rows.retain(|&r| {
                columns.iter().all(|c| !c[r].is_nan())
                    && w_all.as_ref().is_none_or(|w| !w[r].is_nan())
            });
            mf = framed
                .iter()
                .zip(&columns)
                .map(|(&i, c)| {
                    let picked = rows.iter().map(|&r| c[r]).collect();
                    (var_names[i].clone(), Value::Num(picked))
                })
                .collect();
            wts = match &w_all {
                None => vec![1.0; rows.len()],
                Some(w) => rows.iter().map(|&r| w[r]).collect(),
            };
            // Variables of another length join the frame as they are.
            for (i, v) in var_names.iter().enumerate() {
                if !var_index[i] {
                    if let Some(x) = found_value(v) {
                        mf.push((v.clone(), names::bare(x).clone()));
                    }
                }
            }
        }
        if wts.iter().any(|w| *w < 0.0 || w.is_nan()) {
            return Err(KernelError::new("missing or negative weights not allowed"));
        }
    } else {
        mf = Vec::new();
        wts = Vec::new();
    }
    let (control, control_given) = read_control(args.get("control"))?;
    if !matches!(
        args.get("lower").map(names::bare),
        None | Some(Value::Num(_))
    ) || !matches!(
        args.get("upper").map(names::bare),
        None | Some(Value::Num(_))
    ) {
        return Err(KernelError::new("'lower' and 'upper' must be numbers"));
    }
    let bounded = |name: &str, inf: f64| {
        args.get(name)
            .map(names::bare)
            .is_some_and(|v| !matches!(v, Value::Num(x) if x.len() == 1 && x[0] == inf))
    };
    if bounded("lower", f64::NEG_INFINITY) || bounded("upper", f64::INFINITY) {
        ctx.warn("upper and lower bounds ignored unless algorithm = \"port\"");
    }

    // nlsModel.
    let params: Vec<(String, usize)> = start.iter().map(|(n, x)| (n.clone(), x.len())).collect();
    let pars: Vec<f64> = start.iter().flat_map(|(_, x)| x.iter().copied()).collect();
    let lhs = lhs_value(ctx, &mf)?;
    if plinear {
        let wanted = (!wts.is_empty() && weights.is_some()).then_some(wts);
        let (vars, ps) = (&mf, &params);
        let rhs_ref = &rhs;
        let f: super::plinear::Rhs = Box::new(move |p: &[f64], ctx: &mut Ctx| {
            let mut at = 0;
            let values: Vec<Value> = ps
                .iter()
                .map(|(_, len)| {
                    let v = Value::Num(p[at..at + len].to_vec());
                    at += len;
                    v
                })
                .collect();
            let mut given: Vec<(Option<String>, &Value)> =
                vars.iter().map(|(n, v)| (Some(n.clone()), v)).collect();
            given.extend(
                ps.iter()
                    .zip(&values)
                    .map(|((n, _), v)| (Some(n.clone()), v)),
            );
            let v = rhs_ref.call(given, ctx)?;
            let cols = match names::bare(&v) {
                Value::Mat(m) => m.ncols(),
                _ => 1,
            };
            Ok((doubles(&v, "the right-hand side")?, cols))
        });
        let mut pm = super::plinear::Plinear::new(
            f,
            lhs,
            wanted.as_deref(),
            pars,
            (control.central, control.scale_offset),
            ctx,
        )?;
        let info = nls_iter(&mut pm, control, ctx)?;
        let model = plinear_model(&pm, &params, &mf, form);
        return Ok(Value::List(fit_record(
            model,
            info,
            form,
            control_given,
            wanted,
        )));
    }
    let mut m = Model {
        rhs,
        vars: mf,
        params,
        lhs,
        swts: Vec::new(),
        pars: pars.clone(),
        fitted: Vec::new(),
        grad: Vec::new(),
        resid: Vec::new(),
        dev: 0.0,
        qr: dqrdc2(Vec::new(), 0, 0, 1e-7),
        central: control.central,
        scale_offset: control.scale_offset,
        analytic: false,
    };
    let first = m.eval_value(&pars, ctx)?;
    m.analytic = gradient_attr(&first).is_some();
    let first = doubles(&first, "the right-hand side")?;
    m.swts = if wts.is_empty() {
        vec![1.0; first.len()]
    } else {
        wts.iter().map(|w| w.sqrt()).collect()
    };
    if m.set_pars(pars, ctx)? {
        return Err(KernelError::new(
            "singular gradient matrix at initial parameter estimates",
        ));
    }
    let info = nls_iter(&mut m, control, ctx)?;
    Ok(Value::List(fit_record(
        model_list(&m, form),
        info,
        form,
        control_given,
        (!wts.is_empty() && weights.is_some()).then_some(wts),
    )))
}

fn fit_record(
    model: List,
    info: ConvInfo,
    form: &List,
    control: Value,
    weights: Option<Vec<f64>>,
) -> List {
    let conv = List::named(vec![
        ("isConv", Value::flag(info.is_conv)),
        ("finIter", Value::scalar(info.fin_iter as f64)),
        ("finTol", Value::scalar(info.fin_tol)),
        ("stopCode", Value::scalar(f64::from(info.stop_code))),
        ("stopMessage", Value::string(&info.stop_message)),
    ]);
    let mut fields = vec![
        ("m", Value::List(model)),
        ("convInfo", Value::List(conv)),
        ("data", Value::string(&text_of(form, handoff::DATA))),
        ("control", control),
    ];
    if let Some(w) = weights {
        fields.push(("weights", Value::Num(w)));
    }
    List::record(CLASS, fields)
}

/// The parameters' names as `unlist` gives them: `b`, or `b1`, `b2`.
fn unlisted_names(params: &[(String, usize)]) -> Vec<String> {
    let mut out = Vec::new();
    for (n, len) in params {
        if *len == 1 {
            out.push(n.clone());
        } else {
            out.extend((1..=*len).map(|k| format!("{n}{k}")));
        }
    }
    out
}

/// A plinear fit's `m`: its parameters are the nonlinear ones, then
/// `.lin` (`getAllPars`), and its gradient `ddot(gradient, lin)`.
fn plinear_model(
    pm: &super::plinear::Plinear,
    params: &[(String, usize)],
    vars: &[(String, Value)],
    form: &List,
) -> List {
    let mut all = params.to_vec();
    all.push((".lin".to_string(), pm.lin.len()));
    let names = unlisted_names(&all);
    let mut pars = pm.pars.clone();
    pars.extend(&pm.lin);
    let n = pm.lhs().len();
    let d = pm.ddot();
    let gradient = DMatrix::from_vec(n, d.len() / n.max(1), d);
    let env: Vec<(&str, Value)> = vars.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
    List::named(vec![
        ("getPars", names::named(Value::Num(pars), names)),
        ("resid", Value::Num(pm.resid.clone())),
        ("fitted", Value::Num(pm.fitted())),
        ("lhs", Value::Num(pm.lhs().to_vec())),
        ("gradient", Value::Mat(gradient)),
        ("deviance", Value::scalar(pm.dev)),
        ("Rmat", Value::Mat(pm.rmat())),
        ("formula", Value::string(&text_of(form, handoff::TEXT))),
        ("rhs", Value::string(&text_of(form, handoff::RHS))),
        ("env", Value::List(List::named(env))),
        (
            "params",
            Value::Str(all.iter().map(|(n, _)| n.clone()).collect()),
        ),
        (
            "param.lengths",
            Value::Num(all.iter().map(|(_, l)| *l as f64).collect()),
        ),
        ("algorithm", Value::string("plinear")),
    ])
}

fn model_list(m: &Model, form: &List) -> List {
    let names = m.par_names();
    let (n, p) = (m.qr.n, m.qr.p);
    let gradient = DMatrix::from_fn(n, p, |i, j| {
        m.swts.get(i % m.swts.len().max(1)).unwrap_or(&1.0) * m.grad[j * n + i]
    });
    let env: Vec<(&str, Value)> = m
        .vars
        .iter()
        .map(|(n, v)| (n.as_str(), v.clone()))
        .collect();
    let model = List::named(vec![
        ("getPars", names::named(Value::Num(m.pars.clone()), names)),
        ("resid", Value::Num(m.resid.clone())),
        ("fitted", Value::Num(m.fitted.clone())),
        ("lhs", Value::Num(m.lhs.clone())),
        ("gradient", Value::Mat(gradient)),
        ("deviance", Value::scalar(m.dev)),
        ("Rmat", Value::Mat(m.rmat())),
        ("formula", Value::string(&text_of(form, handoff::TEXT))),
        ("rhs", Value::string(&text_of(form, handoff::RHS))),
        ("env", Value::List(List::named(env))),
        (
            "params",
            Value::Str(m.params.iter().map(|(n, _)| n.clone()).collect()),
        ),
        (
            "param.lengths",
            Value::Num(m.params.iter().map(|(_, l)| *l as f64).collect()),
        ),
    ]);
    model
}

/// A fitted `nls` model, read back.
pub(super) struct Nls<'a> {
    record: &'a List,
    m: &'a List,
}

impl<'a> Nls<'a> {
    pub fn of(v: Option<&'a Value>) -> Option<Nls<'a>> {
        let Some(Value::List(l)) = v.map(names::bare) else {
            return None;
        };
        if l.class.as_deref() != Some(CLASS) {
            return None;
        }
        let Some(Value::List(m)) = exact(l, "m") else {
            return None;
        };
        Some(Nls { record: l, m })
    }

    fn nums(&self, name: &str) -> Result<&'a [f64], KernelError> {
        match exact(self.m, name).map(names::bare) {
            Some(Value::Num(x)) => Ok(x),
            _ => Err(KernelError::new(format!(
                "the nls fit has no numeric '{name}'"
            ))),
        }
    }

    /// `formula(fit)[[2L]]` as text: the response (the right-hand side
    /// of a one-sided formula).
    pub fn response(&self) -> String {
        let text = match exact(self.m, "formula") {
            Some(Value::Str(s)) if !s.is_empty() => s[0].clone(),
            _ => String::new(),
        };
        match text.split_once(" ~ ") {
            Some((lhs, _)) => lhs.to_string(),
            None => text.trim_start_matches('~').trim().to_string(),
        }
    }

    /// `coef.nls`: the named parameters.
    pub fn coef(&self) -> Result<Value, KernelError> {
        let pars = self.nums("getPars")?;
        let names = self.par_names();
        if names.len() == pars.len() {
            Ok(names::named(Value::Num(pars.to_vec()), names))
        } else {
            Ok(Value::Num(pars.to_vec()))
        }
    }

    /// The parameters' names. A kernel that does not read names is given
    /// the fit with `getPars`' names stripped, so they are rebuilt from
    /// `params` and `param.lengths` as `unlist` names them (`b`, or `b1`,
    /// `b2`).
    fn par_names(&self) -> Vec<String> {
        if let Some(n) = exact(self.m, "getPars").and_then(names::names) {
            return n.to_vec();
        }
        let (Some(Value::Str(params)), Some(Value::Num(lengths))) =
            (exact(self.m, "params"), exact(self.m, "param.lengths"))
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (n, &len) in params.iter().zip(lengths) {
            if len == 1.0 {
                out.push(n.clone());
            } else {
                out.extend((1..=len.max(0.0) as usize).map(|k| format!("{n}{k}")));
            }
        }
        out
    }

    fn weights(&self) -> Option<&'a [f64]> {
        match exact(self.record, "weights") {
            Some(Value::Num(w)) => Some(w),
            _ => None,
        }
    }

    /// `residuals.nls`: `lhs - fitted`, or with `pearson` the weighted
    /// residuals (`m$resid()`) over their standard deviation.
    pub fn residuals(&self, pearson: bool) -> Result<Value, KernelError> {
        if !pearson {
            let (lhs, fitted) = (self.nums("lhs")?, self.nums("fitted")?);
            if lhs.is_empty() || fitted.is_empty() {
                return Ok(Value::Num(Vec::new()));
            }
            let n = lhs.len().max(fitted.len());
            let r = (0..n)
                .map(|i| lhs[i % lhs.len()] - fitted[i % fitted.len()])
                .collect();
            return Ok(Value::Num(r));
        }
        let val = self.nums("resid")?;
        let std = (sum_squares(val) / (val.len() as f64 - self.npar()?)).sqrt();
        Ok(Value::Num(val.iter().map(|v| v / std).collect()))
    }

    pub fn fitted(&self) -> Result<Value, KernelError> {
        Ok(Value::Num(self.nums("fitted")?.to_vec()))
    }

    pub fn deviance(&self) -> Result<f64, KernelError> {
        Ok(self.nums("deviance")?.first().copied().unwrap_or(NA))
    }

    /// `nobs.nls`: the cases of non-zero weight.
    pub fn nobs(&self) -> Result<f64, KernelError> {
        Ok(match self.weights() {
            Some(w) => w.iter().filter(|w| **w != 0.0).count() as f64,
            None => self.nums("resid")?.len() as f64,
        })
    }

    fn npar(&self) -> Result<f64, KernelError> {
        Ok(self.nums("getPars")?.len() as f64)
    }

    /// `df.residual.nls`.
    pub fn df_residual(&self) -> Result<f64, KernelError> {
        Ok(self.nobs()? - self.npar()?)
    }

    /// `sigma.default`: `sqrt(deviance / (nobs - p))`.
    pub fn sigma(&self) -> Result<f64, KernelError> {
        Ok((self.deviance()? / (self.nobs()? - self.npar()?)).sqrt())
    }

    /// `logLik.nls`: the value and its df.
    pub fn log_lik(&self) -> Result<(f64, f64, f64), KernelError> {
        let res = self.nums("resid")?;
        let n_all = res.len();
        let w: Vec<f64> = self
            .weights()
            .map_or_else(|| vec![1.0; n_all], <[f64]>::to_vec);
        let zw: Vec<bool> = w.iter().map(|w| *w == 0.0).collect();
        let n = zw.iter().filter(|z| !**z).count() as f64;
        let logs: Vec<f64> = w
            .iter()
            .zip(&zw)
            .map(|(w, z)| (w + f64::from(u8::from(*z))).ln())
            .collect();
        let val = -n
            * ((2.0 * std::f64::consts::PI).ln() + 1.0 - n.ln() - sum(&logs, false) / n
                + sum_squares(res).ln())
            / 2.0;
        Ok((val, 1.0 + self.npar()?, n))
    }

    /// `chol2inv(m$Rmat())`.
    fn xtx_inv(&self) -> Result<DMatrix<f64>, KernelError> {
        let Some(Value::Mat(r)) = exact(self.m, "Rmat") else {
            return Err(KernelError::new("the nls fit has no 'Rmat'"));
        };
        let k = r.nrows().min(r.ncols());
        let v = la_chol2inv(r.as_slice(), r.nrows(), k)?;
        Ok(DMatrix::from_vec(k, k, v))
    }

    fn named_square(&self, m: DMatrix<f64>) -> Value {
        let names = self.par_names();
        names::dimnamed(Value::Mat(m), Some(names.clone()), Some(names))
    }

    /// `summary.nls`.
    pub fn summary(&self) -> Result<Value, KernelError> {
        let r = self.nums("resid")?.to_vec();
        let n = match self.weights() {
            Some(w) => w.iter().filter(|w| **w > 0.0).count() as f64,
            None => r.len() as f64,
        };
        let param = self.nums("getPars")?.to_vec();
        let p = param.len() as f64;
        let rdf = n - p;
        let resvar = if rdf <= 0.0 {
            f64::NAN
        } else {
            self.deviance()? / rdf
        };
        let xtx = self.xtx_inv()?;
        let k = param.len();
        let mut table = DMatrix::zeros(k, 4);
        for i in 0..k {
            let se = (xtx.get((i, i)).copied().unwrap_or(NA) * resvar).sqrt();
            let t = param[i] / se;
            table[(i, 0)] = param[i];
            table[(i, 1)] = se;
            table[(i, 2)] = t;
            table[(i, 3)] = 2.0 * pt(t.abs(), rdf, false, false);
        }
        let cols = ["Estimate", "Std. Error", "t value", "Pr(>|t|)"]
            .map(String::from)
            .to_vec();
        let coefficients = names::dimnamed(Value::Mat(table), Some(self.par_names()), Some(cols));
        let formula = exact(self.m, "formula").cloned().unwrap_or(Value::Null);
        let field = |name: &str| exact(self.record, name).cloned().unwrap_or(Value::Null);
        Ok(Value::List(List::record(
            SUMMARY_CLASS,
            vec![
                ("formula", formula),
                ("residuals", Value::Num(r)),
                ("sigma", Value::scalar(resvar.sqrt())),
                ("df", Value::Num(vec![p, rdf])),
                ("cov.unscaled", self.named_square(xtx)),
                ("convInfo", field("convInfo")),
                ("control", field("control")),
                ("coefficients", coefficients.clone()),
                ("parameters", coefficients),
            ],
        )))
    }

    /// `vcov.nls`: `cov.unscaled * sigma^2`.
    pub fn vcov(&self) -> Result<Value, KernelError> {
        let s = self.summary()?;
        let Value::List(l) = &s else {
            unreachable!("summary is a list")
        };
        let sigma = match exact(l, "sigma") {
            Some(Value::Num(x)) => x[0],
            _ => NA,
        };
        let xtx = self.xtx_inv()?;
        Ok(self.named_square(xtx * (sigma * sigma)))
    }

    /// The right-hand side's text and the values it is evaluated among
    /// for `predict(fit, newdata)`: the fit's variables and parameters.
    pub fn predict_parts(&self) -> Option<(String, Vec<(String, Value)>)> {
        let rhs = match exact(self.m, "rhs") {
            Some(Value::Str(s)) if !s.is_empty() => s[0].clone(),
            _ => return None,
        };
        let mut bound: Vec<(String, Value)> = match exact(self.m, "env") {
            Some(Value::List(l)) => l
                .names
                .clone()
                .unwrap_or_default()
                .into_iter()
                .zip(l.items.iter().cloned())
                .collect(),
            _ => Vec::new(),
        };
        let pars = self.nums("getPars").ok()?;
        let Some(Value::Str(params)) = exact(self.m, "params") else {
            return None;
        };
        let lengths = self.nums("param.lengths").ok()?;
        let mut at = 0;
        for (p, &len) in params.iter().zip(lengths) {
            let end = (at + len as usize).min(pars.len());
            bound.push((p.clone(), Value::Num(pars[at..end].to_vec())));
            at = end;
        }
        Some((rhs, bound))
    }
}

/// Whether `v` is an nls fit by the partially linear algorithm.
pub(crate) fn is_plinear(v: &Value) -> bool {
    Nls::of(Some(v)).is_some_and(|f| {
        matches!(exact(f.m, "algorithm"), Some(Value::Str(s)) if s.first().is_some_and(|a| a == "plinear"))
    })
}

/// [`Nls::predict_parts`] of a value that is an nls fit.
pub(crate) fn predict_parts(v: &Value) -> Option<(String, Vec<(String, Value)>)> {
    Nls::of(Some(v))?.predict_parts()
}

/// The type of `summary.nls`'s value.
pub(super) fn summary_type() -> Type {
    let square = || Type::Mat {
        rows: None,
        cols: None,
    };
    Type::record(
        SUMMARY_CLASS,
        vec![
            ("formula", Type::Any),
            ("residuals", Type::num_unknown()),
            ("sigma", Type::num(1)),
            ("df", Type::num(2)),
            ("cov.unscaled", square()),
            ("convInfo", Type::Any),
            ("control", Type::Any),
            (
                "coefficients",
                Type::Mat {
                    rows: None,
                    cols: Some(4),
                },
            ),
            (
                "parameters",
                Type::Mat {
                    rows: None,
                    cols: Some(4),
                },
            ),
        ],
    )
}

/// `predict.nls` with `newdata`: the evaluator has evaluated the
/// right-hand side among newdata's columns already (see
/// `exec::eval::model_newdata`), `as.vector` of it.
pub(super) fn predict(fit: &Nls, newdata: Option<&Value>) -> Result<Value, KernelError> {
    match newdata.map(names::bare) {
        None | Some(Value::Null) => fit.fitted(),
        Some(v) => Ok(Value::Num(doubles(v, "the prediction")?)),
    }
}

/// `sigma(fit)` of an `lm` (its summary's sigma) or an `nls`.
pub(super) fn sigma_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(fit) = Nls::of(args.get("object")) {
        return Ok(Value::scalar(fit.sigma()?));
    }
    if let Some(m) = super::mlm::Mlm::of(args.get("object")) {
        return m.sigma();
    }
    match args.get("object").map(names::bare) {
        Some(Value::List(l)) if matches!(l.class.as_deref(), Some("lm" | "summary.lm")) => l
            .field("sigma")
            .cloned()
            .ok_or_else(|| KernelError::new("the lm fit has no sigma")),
        Some(v) => Err(KernelError::new(format!(
            "flowcast's sigma() takes a model fitted by lm() or nls(), not a {}",
            v.type_name()
        ))),
        None => Err(KernelError::new(
            "argument \"object\" is missing, with no default",
        )),
    }
}

pub(super) fn sigma_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("object") {
        None | Some(Type::Any) => Ok(Type::num(1)),
        Some(Type::Record { class, fields })
            if class == super::mlm::CLASS || class == super::mlm::MANOVA =>
        {
            let k = fields
                .iter()
                .find(|(n, _)| n == "response.names")
                .and_then(|(_, t)| t.len());
            Ok(Type::Num {
                len: k,
                value: None,
            })
        }
        Some(Type::Record { class, .. })
            if class == CLASS || class == "lm" || class == "summary.lm" =>
        {
            Ok(Type::num(1))
        }
        Some(t) => Err(args.error(
            "object",
            format!(
                "flowcast's sigma() takes a model fitted by lm() or nls(), not {}",
                t.describe()
            ),
        )),
    }
}
