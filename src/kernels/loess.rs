//! `loess(formula, data, weights, span, enp.target, degree, parametric,
//! drop.square, normalize, family, control, ...)`: stats::loess of R
//! 4.2.2, local polynomial regression, and `predict` of its value. The R
//! code (src/library/stats/R/loess.R: loess, loess.control, simpleLoess,
//! predict.loess, predLoess) is followed step by step, and below it
//! loessc.c (loess_raw, loess_dfit, loess_dfitse, loess_ifit, loess_ise,
//! loess_workspace, loess_prune, loess_grow) and the dloess Fortran of
//! loessf.f: lowesb/ehg131 (the bounding box ehg126, the k-d tree ehg124
//! with ehg129 and ehg125, the vertex fits ehg139), the local regression
//! ehg127 over LINPACK's dqrdc, dqrsl and dsvdc, the blending
//! interpolation ehg128 (lowese), the direct fit ehg136 (lowesf), the
//! operator rows ehg191 (lowesl), the approximations of delta1 and
//! delta2 (lowesa/ehg141 with ehg176, ehg196/ehg197), lowesc, and the
//! robustness weights and pseudovalues lowesw and lowesp. The loops keep
//! the Fortran's order of operations (reference BLAS sums left to right),
//! and R's `sum`/`rowSums` add in long double as R does.
//!
//! The Fortran is 1-based; the ports keep 1-based indices (slot 0
//! unused) so each line reads as the original.

// The Fortran's loops, as written; and its comparisons, which are false
// for NaN where a negated one is true.
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord)]

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::linalg::blas::dnrm2;
use super::model_matrix;
use super::names::bare;
use super::summary::corcov;
use super::summary::ldouble;
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "loess",
        params: &[
            req("formula"),
            opt("data"),
            opt("weights"),
            opt("span"),
            opt("enp.target"),
            opt("degree"),
            opt("parametric"),
            opt("drop.square"),
            opt("normalize"),
            opt("family"),
            opt("control"),
            opt("surface"),
            opt("statistics"),
            opt("trace.hat"),
            opt("cell"),
            opt("iterations"),
        ],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "loess.control",
        params: &[
            opt("surface"),
            opt("statistics"),
            opt("trace.hat"),
            opt("cell"),
            opt("iterations"),
            opt("iterTrace"),
        ],
        random: false,
        shape: control_shape,
        eval: control_eval,
    },
];

/// R's class of the value.
pub(crate) const CLASS: &str = "loess";

// ---------------------------------------------------------------------
// loess, loess.control, simpleLoess (loess.R) over loess_raw (loessc.c)
// ---------------------------------------------------------------------

fn err(m: impl Into<String>) -> KernelError {
    KernelError::new(m)
}

fn num(v: f64) -> Value {
    Value::Num(vec![v])
}

fn text(s: &str) -> Value {
    Value::Str(vec![s.to_string()])
}

fn record(class: Option<&str>, fields: Vec<(&str, Value)>) -> Value {
    let mut l = List::named(fields);
    l.class = class.map(str::to_string);
    Value::List(l)
}

/// Numbers from an argument (logicals as 0/1).
fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, KernelError> {
    match bare(v) {
        Value::Null => Ok(Vec::new()),
        other => other.as_f64_slice().map(|c| c.into_owned()).ok_or_else(|| {
            err(format!(
                "flowcast's loess() needs numbers for '{what}', not {}",
                other.type_name()
            ))
        }),
    }
}

/// `R's sum()` of doubles (long double).
fn rsum(x: &[f64]) -> f64 {
    ldouble::sum(x).to_f64()
}

/// loess.control's settings.
struct Control {
    surface: &'static str,
    statistics: &'static str,
    trace_hat: &'static str,
    cell: f64,
    iterations: f64,
}

fn control_from(
    surface: Option<&Value>,
    statistics: Option<&Value>,
    trace_hat: Option<&Value>,
    cell: Option<&Value>,
    iterations: Option<&Value>,
    iter_trace: Option<&Value>,
) -> Result<Control, KernelError> {
    let iterations = match iterations {
        None => 4.0,
        Some(v) => {
            let x = numbers(v, "iterations")?;
            if x.len() != 1 {
                return Err(err("length(iterations) == 1L is not TRUE"));
            }
            if x[0].is_nan() {
                return Err(err("!is.na(iterations) is not TRUE"));
            }
            if !(x[0].trunc() > 0.0) {
                return Err(err("as.integer(iterations) > 0L is not TRUE"));
            }
            x[0]
        }
    };
    if let Some(v) = iter_trace {
        let x = numbers(v, "iterTrace")?;
        if x.len() != 1 {
            return Err(err("length(iterTrace) == 1L is not TRUE"));
        }
        if x[0].is_nan() {
            return Err(err("!is.na(iterTrace) is not TRUE"));
        }
        if x[0].trunc() > 0.0 {
            return Err(err(
                "flowcast's loess() cannot print its iterations: give iterTrace = FALSE",
            ));
        }
        if x[0].trunc() < 0.0 {
            return Err(err("as.integer(iterTrace) >= 0L is not TRUE"));
        }
    }
    let arg = super::acf::match_arg;
    let surface = arg(surface, &["interpolate", "direct"])?;
    let statistics = arg(statistics, &["approximate", "exact", "none"])?;
    let trace_hat = arg(trace_hat, &["exact", "approximate"])?;
    let cell = match cell {
        None => 0.2,
        Some(v) => {
            let x = numbers(v, "cell")?;
            if x.len() != 1 {
                return Err(err("invalid argument 'cell'"));
            }
            x[0]
        }
    };
    Ok(Control {
        surface,
        statistics,
        trace_hat,
        cell,
        iterations,
    })
}

fn control_value(c: &Control) -> Value {
    record(
        None,
        vec![
            ("surface", text(c.surface)),
            ("statistics", text(c.statistics)),
            ("trace.hat", text(c.trace_hat)),
            ("cell", num(c.cell)),
            ("iterations", num(c.iterations)),
            ("iterTrace", Value::Bool(vec![Some(false)])),
        ],
    )
}

fn control_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let c = control_from(
        args.get("surface"),
        args.get("statistics"),
        args.get("trace.hat"),
        args.get("cell"),
        args.get("iterations"),
        args.get("iterTrace"),
    )?;
    Ok(control_value(&c))
}

fn control_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let s = || Type::Str {
        len: Some(1),
        value: None,
    };
    Ok(Type::Record {
        class: "list".into(),
        fields: vec![
            ("surface".into(), s()),
            ("statistics".into(), s()),
            ("trace.hat".into(), s()),
            ("cell".into(), Type::num(1)),
            ("iterations".into(), Type::num(1)),
            (
                "iterTrace".into(),
                Type::Bool {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    })
}

/// What loess_raw returns.
struct Raw {
    fitted: Vec<f64>,
    tree: Option<Tree>,
    trl: f64,
    delta1: f64,
    delta2: f64,
}

/// The fixed settings of a fit (simpleLoess's arguments).
struct Spec {
    d: usize,
    n: usize,
    span: f64,
    degree: usize,
    nonparametric: usize,
    drop_square: Vec<usize>,
    sum_drop_sqr: usize,
    cell: f64,
}

const TOO_BIG: f64 = 2147483647.0;

/// loess_workspace: the settings lowesd makes (nf, tau), with R's
/// refusals of a span too small and of a workspace too large.
fn workspace(sp: &Spec, set_lf: bool) -> Result<(Setup, usize), KernelError> {
    let (d, n) = (sp.d, sp.n);
    let nvmax = n.max(200);
    let nf_f = (n as f64 * sp.span + 1e-5).floor();
    let nf = if nf_f.is_nan() {
        0.0
    } else {
        (n as f64).min(nf_f)
    };
    if nf <= 0.0 || nf.is_nan() {
        return Err(err("span is too small"));
    }
    let nf = nf as usize;
    let tau0 = if sp.degree > 1 {
        ((d + 2) * (d + 1)) / 2
    } else {
        d + 1
    };
    let tau = tau0 - sp.sum_drop_sqr;
    let mut dlv =
        50.0 + (3.0 * d as f64 + 3.0) * nvmax as f64 + n as f64 + (tau0 as f64 + 2.0) * nf as f64;
    let mut dliv = 50.0 + (2f64.powi(d as i32) + 4.0) * nvmax as f64 + 2.0 * n as f64;
    if set_lf {
        dlv += (d as f64 + 1.0) * nf as f64 * nvmax as f64;
        dliv += nf as f64 * nvmax as f64;
    }
    if !(dlv < TOO_BIG && dliv < TOO_BIG) {
        return Err(err(format!(
            "workspace required ({:.0}) is too large{}.",
            dlv.max(dliv),
            if set_lf {
                " probably because of setting 'se = TRUE'"
            } else {
                ""
            }
        )));
    }
    let k = match sp.degree {
        0 => 1,
        1 => d + 1,
        _ => ((d + 2) * (d + 1)) / 2,
    };
    let mut cdeg = [sp.degree; 8];
    cdeg[..d].copy_from_slice(&sp.drop_square[..d]);
    Ok((
        Setup {
            d,
            n,
            nf,
            f: sp.span,
            k,
            dd: sp.nonparametric,
            tdeg: sp.degree,
            cdeg,
            nvmax,
            fc: 0,
        },
        tau,
    ))
}

/// loess_raw for one surface/statistics pair.
fn loess_raw(
    sp: &Spec,
    x: &[f64],
    y: &[f64],
    weights: &[f64],
    robust: &[f64],
    surf_stat: &str,
    warn: &mut Vec<String>,
) -> Result<Raw, KernelError> {
    let n = sp.n;
    let set_lf = surf_stat == "interpolate/exact";
    let (st, tau) = workspace(sp, set_lf)?;
    let cell = sp.span * sp.cell;
    let mut out = Raw {
        fitted: Vec::new(),
        tree: None,
        trl: 0.0,
        delta1: 0.0,
        delta2: 0.0,
    };
    let sum_diag = |diag: &[f64]| {
        let mut t = 0.0;
        for v in diag {
            t += v;
        }
        t
    };
    match surf_stat {
        "interpolate/none" => {
            let (tr, _, _, _, _) = lowesb(&st, x, y, robust, false, false, cell, warn);
            out.fitted = lowese(&tr, x, n, warn);
            out.tree = Some(tr);
        }
        "direct/none" => {
            out.fitted = lowesf(&st, x, y, robust, x, n, 0, warn).0;
        }
        "interpolate/1.approx" => {
            let (tr, diag, _, nsing, _) = lowesb(&st, x, y, weights, true, false, cell, warn);
            out.fitted = lowese(&tr, x, n, warn);
            out.trl = sum_diag(&diag);
            let (d1, d2) = lowesa(out.trl, n, sp.d, tau, nsing, warn);
            out.delta1 = d1;
            out.delta2 = d2;
            out.tree = Some(tr);
        }
        "interpolate/2.approx" => {
            let (tr, _, _, nsing, _) = lowesb(&st, x, y, weights, false, false, cell, warn);
            out.fitted = lowese(&tr, x, n, warn);
            out.trl = ehg196(tau, sp.d, sp.span);
            let (d1, d2) = lowesa(out.trl, n, sp.d, tau, nsing, warn);
            out.delta1 = d1;
            out.delta2 = d2;
            out.tree = Some(tr);
        }
        "direct/approximate" => {
            let (fit, diag, nsing) = lowesf(&st, x, y, weights, x, n, 1, warn);
            out.fitted = fit;
            out.trl = sum_diag(&diag);
            let (d1, d2) = lowesa(out.trl, n, sp.d, tau, nsing, warn);
            out.delta1 = d1;
            out.delta2 = d2;
        }
        "interpolate/exact" => {
            let (tr, _, _, _, lf) = lowesb(&st, x, y, weights, true, true, cell, warn);
            let lf = lf.ok_or_else(|| err("need setLf=.true. for lowesl."))?;
            let mut l = lowesl(&tr, &lf, n, x, n, warn);
            let (trl, d1, d2) = lowesc(n, &mut l);
            out.trl = trl;
            out.delta1 = d1;
            out.delta2 = d2;
            out.fitted = lowese(&tr, x, n, warn);
            out.tree = Some(tr);
        }
        _ => {
            // direct/exact
            let (fit, mut l, _) = lowesf(&st, x, y, weights, x, n, 2, warn);
            let (trl, d1, d2) = lowesc(n, &mut l);
            out.fitted = fit;
            out.trl = trl;
            out.delta1 = d1;
            out.delta2 = d2;
        }
    }
    Ok(out)
}

/// The model frame of a loess formula: the response, the predictors
/// (columns, with their names) and the weights, rows with NA dropped
/// (na.omit).
struct Frame {
    y: Vec<f64>,
    x: Vec<Vec<f64>>,
    names: Vec<String>,
    w: Vec<f64>,
}

fn frame(args: &Args<&Value>) -> Result<Frame, KernelError> {
    let Some(Value::Formula(f)) = args.get("formula").map(bare) else {
        return Err(err(
            "flowcast's loess() needs a formula as its first argument (y ~ x)",
        ));
    };
    let y = match f.response.as_deref().map(bare) {
        None => return Err(err("flowcast's loess() needs a response: y ~ x")),
        Some(Value::Factor(_)) | Some(Value::Str(_)) => {
            return Err(err("invalid type for the response: loess() needs numbers"))
        }
        Some(v) => numbers(v, "the response")?,
    };
    let n = y.len();
    let (vars, _) = model_matrix::variables(f);
    let mut x = Vec::new();
    let mut names = Vec::new();
    for (label, v) in vars {
        let v = bare(v);
        if matches!(v, Value::Factor(_) | Value::Str(_)) {
            return Err(err("predictors must all be numeric"));
        }
        let col = numbers(v, label)?;
        if col.len() != n {
            return Err(err(format!(
                "variable lengths differ (found for '{label}')"
            )));
        }
        x.push(col);
        names.push(label.to_string());
    }
    let w = match args.get("weights").map(bare) {
        None | Some(Value::Null) => None,
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            let w = numbers(v, "weights")?;
            if w.len() != n {
                return Err(err("variable lengths differ (found for '(weights)')"));
            }
            Some(w)
        }
        Some(v) => {
            return Err(err(format!(
                "invalid type ({}) for variable '(weights)'",
                match v {
                    Value::Bool(_) => "logical",
                    Value::Str(_) | Value::StrMat(_) => "character",
                    _ => "list",
                }
            )))
        }
    };
    let keep: Vec<usize> = (0..n)
        .filter(|&i| {
            !y[i].is_nan()
                && x.iter().all(|c| !c[i].is_nan())
                && w.as_ref().is_none_or(|w| !w[i].is_nan())
        })
        .collect();
    let pick = |v: &[f64]| keep.iter().map(|&i| v[i]).collect::<Vec<f64>>();
    Ok(Frame {
        y: pick(&y),
        x: x.iter().map(|c| pick(c)).collect(),
        names,
        w: w.map_or_else(|| vec![1.0; keep.len()], |w| pick(&w)),
    })
}

/// `if (v)` of a logical argument.
fn flag(v: Option<&Value>, default: bool) -> Result<bool, KernelError> {
    match v.map(bare) {
        None => Ok(default),
        Some(Value::Bool(b)) => match b.first() {
            Some(Some(v)) => Ok(*v),
            Some(None) => Err(err("missing value where TRUE/FALSE needed")),
            None => Err(err("argument is of length zero")),
        },
        Some(v) => {
            let x = numbers(v, "normalize")?;
            match x.first() {
                None => Err(err("argument is of length zero")),
                Some(v) if v.is_nan() => Err(err("missing value where TRUE/FALSE needed")),
                Some(v) => Ok(*v != 0.0),
            }
        }
    }
}

/// `match(nmx, nmx[sel], 0L) > 0L` for parametric and drop.square: by
/// name, or by position (logical or numeric).
fn choose(v: Option<&Value>, names: &[String], what: &str) -> Result<Vec<bool>, KernelError> {
    let d = names.len();
    match v.map(bare) {
        None => Ok(vec![false; d]),
        Some(Value::Str(s)) => Ok(names.iter().map(|n| s.contains(n)).collect()),
        Some(Value::Bool(b)) => {
            // nmx[b]: recycled logical index
            let mut sel = vec![false; d];
            if !b.is_empty() {
                for i in 0..d.max(b.len()) {
                    if i < d && b[i % b.len()] == Some(true) {
                        sel[i] = true;
                    }
                }
            }
            Ok(sel)
        }
        Some(v) => {
            let x = numbers(v, what)?;
            let mut sel = vec![false; d];
            if x.iter().any(|&i| i < 0.0) {
                let drop: Vec<usize> = x
                    .iter()
                    .filter(|i| **i <= -1.0)
                    .map(|i| (-i) as usize)
                    .collect();
                for (j, s) in sel.iter_mut().enumerate() {
                    *s = !drop.contains(&(j + 1));
                }
            } else {
                for &i in &x {
                    if i >= 1.0 && (i as usize) <= d {
                        sel[i as usize - 1] = true;
                    }
                }
            }
            Ok(sel)
        }
    }
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let family = super::acf::match_arg(args.get("family"), &["gaussian", "symmetric"])?;
    let fr = frame(args)?;
    let d = fr.x.len();
    let n = fr.y.len();
    let drop_square = choose(args.get("drop.square"), &fr.names, "drop.square")?;
    let parametric = choose(args.get("parametric"), &fr.names, "parametric")?;
    let degree = match args.get("degree") {
        None => 2.0,
        Some(v) => numbers(v, "degree")?.first().copied().unwrap_or(NA),
    };
    if !(degree == 0.0 || degree == 1.0 || degree == 2.0) {
        return Err(err("'degree' must be 0, 1 or 2"));
    }
    if let Some(v) = args.get("degree") {
        if numbers(v, "degree")?.len() != 1 {
            return Err(err("invalid argument 'degree'"));
        }
    }
    let degree_u = degree as usize;
    let control = match args.get("control").map(bare) {
        None => control_from(
            args.get("surface"),
            args.get("statistics"),
            args.get("trace.hat"),
            args.get("cell"),
            args.get("iterations"),
            None,
        )?,
        Some(Value::List(l)) => {
            let s = |name: &str| -> Result<&'static str, KernelError> {
                let all: &[&'static str] = match name {
                    "surface" => &["interpolate", "direct"],
                    "statistics" => &["approximate", "exact", "none"],
                    _ => &["exact", "approximate"],
                };
                match l.field(name).map(bare) {
                    Some(Value::Str(v)) if v.len() == 1 => {
                        all.iter().find(|c| **c == v[0]).copied().ok_or_else(|| {
                            err(format!("flowcast's loess() knows no {name} \"{}\"", v[0]))
                        })
                    }
                    _ => Err(err("invalid 'control' argument")),
                }
            };
            let cell = match l.field("cell").map(bare) {
                Some(Value::Num(v)) if v.len() == 1 => v[0],
                Some(Value::Num(_)) => return Err(err("invalid argument 'cell'")),
                _ => return Err(err("invalid 'control' argument")),
            };
            let iterations = match l.field("iterations").map(bare) {
                Some(Value::Num(v)) if v.len() == 1 => v[0],
                _ => return Err(err("invalid 'control' argument")),
            };
            Control {
                surface: s("surface")?,
                statistics: s("statistics")?,
                trace_hat: s("trace.hat")?,
                cell,
                iterations,
            }
        }
        Some(_) => return Err(err("invalid 'control' argument")),
    };
    let iterations = if family == "gaussian" {
        1
    } else {
        let it = control.iterations.trunc();
        if !(1.0..=1000.0).contains(&it) {
            return Err(err("flowcast's loess() needs 1 to 1000 'iterations'"));
        }
        it as usize
    };
    let mut span = match args.get("span") {
        None => 0.75,
        Some(v) => {
            let x = numbers(v, "span")?;
            if x.len() != 1 {
                return Err(err("invalid argument 'span'"));
            }
            x[0]
        }
    };
    if let Some(v) = args.get("enp.target") {
        if args.get("span").is_some() {
            ctx.warn("both 'span' and 'enp.target' specified: 'span' will be used");
        } else {
            let enp = numbers(v, "enp.target")?.first().copied().unwrap_or(NA);
            let dd = d as f64;
            let tau = match degree_u {
                0 => 1.0,
                1 => dd + 1.0,
                _ => (dd + 1.0) * (dd + 2.0) / 2.0,
            } - drop_square.iter().filter(|b| **b).count() as f64;
            span = 1.2 * tau / enp;
        }
    }
    let normalize = flag(args.get("normalize"), true)?;
    // simpleLoess
    if d > 4 {
        return Err(err("only 1-4 predictors are allowed"));
    }
    if n == 0 || d == 0 {
        return Err(err("invalid 'x'"));
    }
    if fr
        .x
        .iter()
        .flatten()
        .chain(&fr.y)
        .chain(&fr.w)
        .any(|v| !v.is_finite())
    {
        return Err(err("NA/NaN/Inf in foreign function call (arg 1)"));
    }
    if n > 100_000 {
        return Err(err(format!(
            "flowcast's loess() fits at most 100000 points, not {n}"
        )));
    }
    let mut x: Vec<f64> = fr.x.concat();
    let divisor = if normalize && d > 1 {
        let trim = (0.1 * n as f64).ceil() as usize;
        let mut div = Vec::with_capacity(d);
        for j in 0..d {
            let mut col = fr.x[j].clone();
            col.sort_by(|a, b| a.total_cmp(b));
            let part: &[f64] = if trim < n - trim {
                &col[trim..n - trim]
            } else {
                // seq(trim+1, N-trim) runs downward
                return Err(err("flowcast's loess() needs more points to normalize"));
            };
            div.push(corcov::var(part).sqrt());
        }
        for j in 0..d {
            for i in 0..n {
                x[i + j * n] /= div[j];
            }
        }
        div
    } else {
        vec![1.0]
    };
    let sum_drop_sqr = drop_square.iter().filter(|b| **b).count();
    let sum_parametric = parametric.iter().filter(|b| **b).count();
    let nonparametric = d - sum_parametric;
    // order(parametric): the nonparametric columns first
    let mut order: Vec<usize> = (0..d).filter(|&j| !parametric[j]).collect();
    order.extend((0..d).filter(|&j| parametric[j]));
    let x: Vec<f64> = order
        .iter()
        .flat_map(|&j| x[j * n..(j + 1) * n].to_vec())
        .collect();
    let order_drop_sqr: Vec<usize> = order.iter().map(|&j| 2 - drop_square[j] as usize).collect();
    if degree_u == 1 && sum_drop_sqr > 0 {
        return Err(err(
            "specified the square of a factor predictor to be dropped when degree = 1",
        ));
    }
    if d == 1 && sum_drop_sqr > 0 {
        return Err(err(
            "specified the square of a predictor to be dropped with only one numeric predictor",
        ));
    }
    if sum_parametric == d {
        return Err(err("specified parametric for all predictors"));
    }
    if span.is_nan() {
        return Err(err("NA/NaN/Inf in foreign function call (arg 7)"));
    }
    let surface = control.surface;
    let mut statistics = control.statistics;
    if surface == "interpolate" && statistics == "approximate" {
        statistics = if control.trace_hat == "exact" {
            "1.approx"
        } else {
            "2.approx"
        };
    }
    let mut surf_stat = format!("{surface}/{statistics}");
    if surf_stat.ends_with("exact") && n > 3000 {
        return Err(err(format!(
            "flowcast's loess() computes exact statistics for at most 3000 points, not {n}"
        )));
    }
    let sp = Spec {
        d,
        n,
        span,
        degree: degree_u,
        nonparametric,
        drop_square: order_drop_sqr,
        sum_drop_sqr,
        cell: control.cell,
    };
    let do_rob = iterations > 1;
    let y = &fr.y;
    let weights = &fr.w;
    let mut robust = vec![1.0; n];
    let mut warn = Vec::new();
    let mut z = None;
    let (mut trace_hat_out, mut one_delta, mut two_delta) = (0.0, 0.0, 0.0);
    let mut fitted = Vec::new();
    let mut fitted_residuals = Vec::new();
    for j in 1..=iterations {
        let no_st = statistics == "none";
        let (w_arg, r_arg): (Vec<f64>, Vec<f64>) = if no_st {
            (
                vec![1.0; n],
                (0..n).map(|i| weights[i] * robust[i]).collect(),
            )
        } else {
            (weights.clone(), vec![1.0; n])
        };
        let raw = loess_raw(&sp, &x, y, &w_arg, &r_arg, &surf_stat, &mut warn)?;
        fitted = raw.fitted.clone();
        fitted_residuals = (0..n).map(|i| y[i] - fitted[i]).collect();
        if j < iterations {
            robust = lowesw(&fitted_residuals);
        }
        if j == 1 {
            trace_hat_out = raw.trl;
            one_delta = raw.delta1;
            two_delta = raw.delta2;
            if do_rob {
                statistics = "none";
                surf_stat = format!("{surface}/{statistics}");
            }
        }
        z = Some(raw);
    }
    let z = z.ok_or_else(|| err("no iterations"))?;
    let kd = match (&z.tree, surface) {
        (Some(tr), "interpolate") => kd_value(tr, d, n),
        _ => Value::Null,
    };
    let sum_squares = if do_rob {
        let pseudo = lowesp(y, &fitted, weights, &robust);
        let zz = loess_raw(&sp, &x, &pseudo, weights, weights, &surf_stat, &mut warn)?;
        let r: Vec<f64> = (0..n)
            .map(|i| {
                let p = pseudo[i] - zz.fitted[i];
                weights[i] * (p * p)
            })
            .collect();
        rsum(&r)
    } else {
        let r: Vec<f64> = (0..n)
            .map(|i| weights[i] * (fitted_residuals[i] * fitted_residuals[i]))
            .collect();
        rsum(&r)
    };
    for w in dedup(warn) {
        ctx.warn(&w);
    }
    let enp = one_delta + 2.0 * trace_hat_out - n as f64;
    let s = (sum_squares / one_delta).sqrt();
    let xmat = DMatrix::from_column_slice(n, d, &fr.x.concat());
    let lgl = |v: &[bool]| Value::Bool(v.iter().map(|b| Some(*b)).collect());
    let pars = record(
        None,
        vec![
            ("span", num(span)),
            ("degree", num(degree)),
            ("normalize", Value::Bool(vec![Some(normalize)])),
            ("parametric", lgl(&parametric)),
            ("drop.square", lgl(&drop_square)),
            ("surface", text(surface)),
            ("cell", num(control.cell)),
            (
                "family",
                text(if iterations <= 1 {
                    "gaussian"
                } else {
                    "symmetric"
                }),
            ),
            ("trace.hat", text(control.trace_hat)),
            ("iterations", num(iterations as f64)),
        ],
    );
    Ok(record(
        Some(CLASS),
        vec![
            ("n", num(n as f64)),
            ("fitted", Value::Num(fitted)),
            ("residuals", Value::Num(fitted_residuals)),
            ("enp", num(enp)),
            ("s", num(s)),
            ("one.delta", num(one_delta)),
            ("two.delta", num(two_delta)),
            ("trace.hat", num(trace_hat_out)),
            ("divisor", Value::Num(divisor)),
            ("robust", Value::Num(robust)),
            ("pars", pars),
            ("kd", kd),
            ("xnames", Value::Str(fr.names.clone())),
            ("x", Value::Mat(xmat)),
            ("y", Value::Num(fr.y.clone())),
            ("weights", Value::Num(fr.w.clone())),
        ],
    ))
}

/// R warns once per distinct message of a call's warnings (the first
/// fifty); the Fortran's repeats are one warning each in R too, but a
/// workflow shows each message once.
fn dedup(w: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in w {
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

/// loess_prune: the fit's k-d tree and vertex values as R keeps them.
fn kd_value(tr: &Tree, d: usize, n: usize) -> Value {
    let nvmax = n.max(200);
    let ncmax = nvmax;
    let vc = tr.vc;
    let liv = 50 + (3 + vc) * ncmax - 1;
    let lv = 50 + nvmax * d + (d + 1) * nvmax + ncmax - 1;
    let parameter = vec![
        d as f64,
        n as f64,
        vc as f64,
        tr.nc as f64,
        tr.nv as f64,
        liv as f64,
        lv as f64,
    ];
    let mut vert = vec![0.0; 2 * d];
    for i in 0..d {
        vert[i] = tr.v(1, i + 1);
        vert[i + d] = tr.v(vc, i + 1);
    }
    record(
        None,
        vec![
            ("parameter", Value::Num(parameter)),
            (
                "a",
                Value::Num((1..=tr.nc).map(|p| tr.a[p] as f64).collect()),
            ),
            ("xi", Value::Num((1..=tr.nc).map(|p| tr.xi[p]).collect())),
            ("vert", Value::Num(vert)),
            ("vval", Value::Num(tr.vval[..(d + 1) * tr.nv].to_vec())),
        ],
    )
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("formula") {
        if !matches!(t, Type::Formula { .. } | Type::Any) {
            return Err(args.error(
                "formula",
                format!(
                    "flowcast's loess() needs a formula (y ~ x), not {}",
                    t.describe()
                ),
            ));
        }
    }
    let v = Type::num_unknown;
    let one = || Type::num(1);
    let fields: Vec<(&str, Type)> = vec![
        ("n", one()),
        ("fitted", v()),
        ("residuals", v()),
        ("enp", one()),
        ("s", one()),
        ("one.delta", one()),
        ("two.delta", one()),
        ("trace.hat", one()),
        ("divisor", v()),
        ("robust", v()),
        ("pars", Type::Any),
        ("kd", Type::Any),
        (
            "xnames",
            Type::Str {
                len: None,
                value: None,
            },
        ),
        ("x", Type::Any),
        ("y", v()),
        ("weights", v()),
    ];
    Ok(Type::Record {
        class: CLASS.into(),
        fields: fields
            .into_iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect(),
    })
}

// ---------------------------------------------------------------------
// predict.loess and predLoess
// ---------------------------------------------------------------------

/// Whether `v` is a loess value (predict dispatches on it).
pub(crate) fn is_loess(v: Option<&Value>) -> bool {
    matches!(v.map(bare), Some(Value::List(l)) if l.class.as_deref() == Some(CLASS))
}

fn bad() -> KernelError {
    err("flowcast's predict() needs a \"loess\" object as loess() made it")
}

fn field<'a>(l: &'a List, name: &str) -> Option<&'a Value> {
    let names = l.names.as_ref()?;
    let i = names.iter().position(|n| n == name)?;
    l.items.get(i).map(bare)
}

fn field_nums(l: &List, name: &str) -> Result<Vec<f64>, KernelError> {
    match field(l, name) {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            v.as_f64_slice().map(|c| c.into_owned()).ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

fn field_str<'a>(l: &'a List, name: &str) -> Result<&'a str, KernelError> {
    match field(l, name) {
        Some(Value::Str(s)) if s.len() == 1 => Ok(&s[0]),
        _ => Err(bad()),
    }
}

fn field_lgl(l: &List, name: &str) -> Result<Vec<bool>, KernelError> {
    match field(l, name) {
        Some(Value::Bool(b)) => Ok(b.iter().map(|v| *v == Some(true)).collect()),
        _ => Err(bad()),
    }
}

/// `predict(object, newdata, se)` of a loess value.
pub(crate) fn predict(
    object: &Value,
    newdata: Option<&Value>,
    se: Option<&Value>,
) -> Result<Value, KernelError> {
    let Value::List(obj) = bare(object) else {
        return Err(err("first argument must be a \"loess\" object"));
    };
    let se = flag(se, false)?;
    let newdata = newdata.map(bare).filter(|v| !matches!(v, Value::Null));
    if newdata.is_none() && !se {
        return field(obj, "fitted").cloned().ok_or_else(bad);
    }
    let Some(Value::List(pars)) = field(obj, "pars") else {
        return Err(bad());
    };
    let xnames: Vec<String> = match field(obj, "xnames") {
        Some(Value::Str(s)) => s.clone(),
        _ => return Err(bad()),
    };
    let d = xnames.len();
    let n = field_nums(obj, "n")?.first().copied().unwrap_or(NA);
    if !(1.0..=100_000.0).contains(&n) || d == 0 || d > 4 {
        return Err(bad());
    }
    let n = n as usize;
    let x = field_nums(obj, "x")?;
    let y = field_nums(obj, "y")?;
    let weights = field_nums(obj, "weights")?;
    let robust = field_nums(obj, "robust")?;
    if x.len() != n * d || y.len() != n || weights.len() != n || robust.len() != n {
        return Err(bad());
    }
    // newx: the predictors' columns of newdata, or x itself
    let (newx, m) = match newdata {
        None => (x.clone(), n),
        Some(Value::List(l)) => {
            let mut cols = Vec::new();
            for name in &xnames {
                let v = l
                    .field(name)
                    .ok_or_else(|| err(format!("object '{name}' not found")))?;
                cols.push(numbers(v, name)?);
            }
            let m = cols[0].len();
            if cols.iter().any(|c| c.len() != m) {
                return Err(err(format!(
                    "variable lengths differ (found for '{}')",
                    xnames[cols.iter().position(|c| c.len() != m).unwrap_or(0)]
                )));
            }
            (cols.concat(), m)
        }
        Some(Value::Mat(mm)) => {
            if mm.ncols() != d {
                return Err(err(
                    "flowcast's predict() of a loess needs one column per predictor in 'newdata'",
                ));
            }
            (mm.as_slice().to_vec(), mm.nrows())
        }
        Some(v) => {
            let c = numbers(v, "newdata")?;
            if d == 1 {
                let m = c.len();
                (c, m)
            } else {
                return Err(err(
                    "flowcast's predict() of a loess needs a data frame for 'newdata'",
                ));
            }
        }
    };
    if m > 1_000_000 || (se && (m as f64) * (n as f64) > 5e7) {
        return Err(err(format!("flowcast's predict() of a loess predicts at most 1e6 points (and 5e7 points times data with se = TRUE), not {m}")));
    }
    let s = field_nums(obj, "s")?.first().copied().unwrap_or(NA);
    let span = field_nums(pars, "span")?.first().copied().unwrap_or(NA);
    let degree = field_nums(pars, "degree")?.first().copied().unwrap_or(NA);
    let normalize = field_lgl(pars, "normalize")?;
    let parametric = field_lgl(pars, "parametric")?;
    let drop_square = field_lgl(pars, "drop.square")?;
    let surface = field_str(pars, "surface")?;
    let cell = field_nums(pars, "cell")?.first().copied().unwrap_or(NA);
    let family = field_str(pars, "family")?;
    let divisor = field_nums(obj, "divisor")?;
    let _ = normalize;
    if parametric.len() != d
        || drop_square.len() != d
        || !(degree == 0.0 || degree == 1.0 || degree == 2.0)
    {
        return Err(bad());
    }
    let mut x = x;
    let mut newx = newx;
    if divisor.iter().any(|v| *v != 1.0) {
        if divisor.len() != d {
            return Err(bad());
        }
        for j in 0..d {
            for i in 0..m {
                newx[i + j * m] /= divisor[j];
            }
            for i in 0..n {
                x[i + j * n] /= divisor[j];
            }
        }
    }
    let sum_drop_sqr = drop_square.iter().filter(|b| **b).count();
    let nonparametric = parametric.iter().filter(|b| !**b).count();
    let mut order: Vec<usize> = (0..d).filter(|&j| !parametric[j]).collect();
    order.extend((0..d).filter(|&j| parametric[j]));
    let x: Vec<f64> = order
        .iter()
        .flat_map(|&j| x[j * n..(j + 1) * n].to_vec())
        .collect();
    let xe: Vec<f64> = order
        .iter()
        .flat_map(|&j| newx[j * m..(j + 1) * m].to_vec())
        .collect();
    let sp = Spec {
        d,
        n,
        span,
        degree: degree as usize,
        nonparametric,
        drop_square: order.iter().map(|&j| 2 - drop_square[j] as usize).collect(),
        sum_drop_sqr,
        cell,
    };
    let mut warn = Vec::new();
    let mut fit = vec![NA; m];
    let mut se_fit = vec![NA; m];
    // rows of newx to evaluate
    let rows: Vec<usize> = if surface == "direct" {
        (0..m)
            .filter(|&i| (0..d).all(|j| !newx[i + j * m].is_nan()))
            .collect()
    } else {
        let mut lo = vec![f64::INFINITY; d];
        let mut hi = vec![f64::NEG_INFINITY; d];
        for j in 0..d {
            for i in 0..n {
                lo[j] = lo[j].min(x[i + j * n]);
                hi[j] = hi[j].max(x[i + j * n]);
            }
        }
        (0..m)
            .filter(|&i| (0..d).all(|j| xe[i + j * m] <= hi[j] && xe[i + j * m] >= lo[j]))
            .collect()
    };
    let m1 = rows.len();
    let z: Vec<f64> = (0..d)
        .flat_map(|j| rows.iter().map(move |&i| (i, j)))
        .map(|(i, j)| xe[i + j * m])
        .collect();
    let wr: Vec<f64> = (0..n).map(|i| weights[i] * robust[i]).collect();
    let se_rows = |l: &[f64]| -> Vec<f64> {
        // rowSums(matrix(L^2, M1, N) / rep(weights, rep_len(M1, N)))
        let q: Vec<f64> = (0..m1 * n)
            .map(|k| (l[k] * l[k]) / weights[k / m1])
            .collect();
        (0..m1)
            .map(|i| s * ldouble::sum_strided(&q[i..], m1).to_f64().sqrt())
            .collect()
    };
    if m1 > 0 {
        if surface == "direct" {
            let (st, _) = workspace(&sp, false)?;
            if se {
                let (f1, l, _) = lowesf(&st, &x, &y, &wr, &z, m1, 2, &mut warn);
                let f = if family == "gaussian" {
                    f1
                } else {
                    lowesf(&st, &x, &y, &robust, &z, m1, 0, &mut warn).0
                };
                let sev = se_rows(&l);
                for (k, &i) in rows.iter().enumerate() {
                    fit[i] = f[k];
                    se_fit[i] = sev[k];
                }
            } else {
                let f = lowesf(&st, &x, &y, &wr, &z, m1, 0, &mut warn).0;
                for (k, &i) in rows.iter().enumerate() {
                    fit[i] = f[k];
                }
            }
        } else {
            let Some(Value::List(kd)) = field(obj, "kd") else {
                return Err(bad());
            };
            let par = field_nums(kd, "parameter")?;
            let a = field_nums(kd, "a")?;
            let xi = field_nums(kd, "xi")?;
            let vert = field_nums(kd, "vert")?;
            let vval = field_nums(kd, "vval")?;
            if par.len() != 7 || par[0] != d as f64 || par[2] != (1usize << d) as f64 {
                return Err(bad());
            }
            let (nc, nv) = (par[3], par[4]);
            if !((1.0..=200_000.0).contains(&nc) && (1.0..=200_000.0).contains(&nv)) {
                return Err(bad());
            }
            let (nc, nv) = (nc as usize, nv as usize);
            if vert.len() != 2 * d
                || vval.len() < (d + 1) * nv
                || a.iter().any(|v| !(0.0..=d as f64).contains(v))
            {
                return Err(bad());
            }
            let a: Vec<usize> = a.iter().map(|v| *v as usize).collect();
            let tr = ehg169(d, nc, nv, &a, &xi, &vert, &vval).ok_or_else(bad)?;
            let f = lowese(&tr, &z, m1, &mut warn);
            for (k, &i) in rows.iter().enumerate() {
                fit[i] = f[k];
            }
            if se {
                // loess_ise
                let (st, _) = workspace(&sp, true)?;
                let (tr2, _, _, _, lf) =
                    lowesb(&st, &x, &y, &weights, false, true, span * cell, &mut warn);
                let lf = lf.ok_or_else(bad)?;
                let l = lowesl(&tr2, &lf, n, &z, m1, &mut warn);
                let sev = se_rows(&l);
                for (k, &i) in rows.iter().enumerate() {
                    se_fit[i] = sev[k];
                }
            }
        }
    }
    if se {
        let one_delta = field_nums(obj, "one.delta")?.first().copied().unwrap_or(NA);
        let two_delta = field_nums(obj, "two.delta")?.first().copied().unwrap_or(NA);
        Ok(record(
            None,
            vec![
                ("fit", Value::Num(fit)),
                ("se.fit", Value::Num(se_fit)),
                ("residual.scale", num(s)),
                ("df", num(one_delta * one_delta / two_delta)),
            ],
        ))
    } else {
        Ok(Value::Num(fit))
    }
}
// ---------------------------------------------------------------------
// BLAS and LINPACK, reference order (left-to-right sums)
// ---------------------------------------------------------------------

/// `ddot` with strides (reference BLAS; its unrolled loop still adds
/// left to right).
fn ddot(n: usize, x: &[f64], ix: usize, incx: usize, y: &[f64], iy: usize, incy: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += x[ix + i * incx] * y[iy + i * incy];
    }
    s
}

/// Fortran's `dsign(a, b)`.
fn dsign(a: f64, b: f64) -> f64 {
    if b >= 0.0 {
        a.abs()
    } else {
        -a.abs()
    }
}

/// `drotg` of reference BLAS 3.11 (the scaled form): returns (r, c, s).
fn drotg(a: f64, b: f64) -> (f64, f64, f64) {
    let safmin = f64::MIN_POSITIVE;
    let safmax = 1.0 / safmin;
    let anorm = a.abs();
    let bnorm = b.abs();
    if bnorm == 0.0 {
        (a, 1.0, 0.0)
    } else if anorm == 0.0 {
        (b, 0.0, 1.0)
    } else {
        let scl = safmax.min(safmin.max(anorm).max(bnorm));
        let sigma = if anorm > bnorm {
            dsign(1.0, a)
        } else {
            dsign(1.0, b)
        };
        let r = sigma * (scl * ((a / scl).powi(2) + (b / scl).powi(2)).sqrt());
        (r, a / r, b / r)
    }
}

/// `drot` on columns `x0` and `y0` (length n) of one array.
fn drot(m: &mut [f64], n: usize, x0: usize, y0: usize, c: f64, s: f64) {
    for i in 0..n {
        let t = c * m[x0 + i] + s * m[y0 + i];
        m[y0 + i] = c * m[y0 + i] - s * m[x0 + i];
        m[x0 + i] = t;
    }
}

/// LINPACK `dqrdc(x, ldx, n, p, qraux, jpvt, work, job = 0)`: Householder
/// QR without pivoting. `x` column-major with leading dimension `ldx`.
fn dqrdc(x: &mut [f64], ldx: usize, n: usize, p: usize, qraux: &mut [f64]) {
    let at = |i: usize, j: usize| (i - 1) + (j - 1) * ldx;
    let lup = n.min(p);
    for l in 1..=lup {
        qraux[l - 1] = 0.0;
        if l == n {
            continue;
        }
        let mut nrmxl = dnrm2(&x[at(l, l)..at(l, l) + n - l + 1]);
        if nrmxl == 0.0 {
            continue;
        }
        if x[at(l, l)] != 0.0 {
            nrmxl = dsign(nrmxl, x[at(l, l)]);
        }
        let sc = 1.0 / nrmxl;
        for i in l..=n {
            x[at(i, l)] *= sc;
        }
        x[at(l, l)] += 1.0;
        for j in l + 1..=p {
            let t = -ddot(n - l + 1, x, at(l, l), 1, x, at(l, j), 1) / x[at(l, l)];
            for i in l..=n {
                x[at(i, j)] += t * x[at(i, l)];
            }
        }
        qraux[l - 1] = x[at(l, l)];
        x[at(l, l)] = -nrmxl;
    }
}

/// LINPACK `dqrsl` for job 1000 (`qty`, in place in `y`) or 10000
/// (`qy`, in place).
fn dqrsl(x: &mut [f64], ldx: usize, n: usize, k: usize, qraux: &[f64], y: &mut [f64], qy: bool) {
    let at = |i: usize, j: usize| (i - 1) + (j - 1) * ldx;
    let ju = k.min(n.saturating_sub(1));
    if ju == 0 {
        return;
    }
    let step = |x: &mut [f64], y: &mut [f64], j: usize| {
        if qraux[j - 1] == 0.0 {
            return;
        }
        let temp = x[at(j, j)];
        x[at(j, j)] = qraux[j - 1];
        let t = -ddot(n - j + 1, x, at(j, j), 1, y, j - 1, 1) / x[at(j, j)];
        for i in j..=n {
            y[i - 1] += t * x[at(i, j)];
        }
        x[at(j, j)] = temp;
    };
    if qy {
        for jj in 1..=ju {
            step(x, y, ju - jj + 1);
        }
    } else {
        for j in 1..=ju {
            step(x, y, j);
        }
    }
}

/// LINPACK `dsvdc(x, ldx, n, p, s, e, u, ldu, v, ldv, work, job = 21,
/// info)` as ehg127 calls it: `u` is `x` itself (one array, `ld` its
/// leading dimension), the right vectors go to `v`. Returns info.
#[allow(clippy::too_many_arguments)]
fn dsvdc21(
    xu: &mut [f64],
    ld: usize,
    n: usize,
    p: usize,
    s: &mut [f64],
    e: &mut [f64],
    v: &mut [f64],
    ldv: usize,
) -> usize {
    let at = |i: usize, j: usize| (i - 1) + (j - 1) * ld;
    let vt = |i: usize, j: usize| (i - 1) + (j - 1) * ldv;
    // s and e are 1-based here through these.
    let mut work = vec![0.0; n + 1];
    let maxit = 30;
    let ncu = n.min(p);
    let nct = (n - 1).min(p);
    let nrt = (p as i64 - 2).min(n as i64).max(0) as usize;
    let lu = nct.max(nrt);
    for l in 1..=lu {
        let lp1 = l + 1;
        if l <= nct {
            s[l] = dnrm2(&xu[at(l, l)..at(l, l) + n - l + 1]);
            if s[l] != 0.0 {
                if xu[at(l, l)] != 0.0 {
                    s[l] = dsign(s[l], xu[at(l, l)]);
                }
                let sc = 1.0 / s[l];
                for i in l..=n {
                    xu[at(i, l)] *= sc;
                }
                xu[at(l, l)] += 1.0;
            }
            s[l] = -s[l];
        }
        for j in lp1..=p {
            if l <= nct && s[l] != 0.0 {
                let t = -ddot(n - l + 1, xu, at(l, l), 1, xu, at(l, j), 1) / xu[at(l, l)];
                for i in l..=n {
                    xu[at(i, j)] += t * xu[at(i, l)];
                }
            }
            e[j] = xu[at(l, j)];
        }
        // (u = x: copying column l onto itself.)
        if l <= nrt {
            e[l] = dnrm2(&e[lp1..=p]);
            if e[l] != 0.0 {
                if e[lp1] != 0.0 {
                    e[l] = dsign(e[l], e[lp1]);
                }
                let sc = 1.0 / e[l];
                for i in lp1..=p {
                    e[i] *= sc;
                }
                e[lp1] += 1.0;
            }
            e[l] = -e[l];
            if lp1 <= n && e[l] != 0.0 {
                for i in lp1..=n {
                    work[i] = 0.0;
                }
                for j in lp1..=p {
                    for i in lp1..=n {
                        work[i] += e[j] * xu[at(i, j)];
                    }
                }
                for j in lp1..=p {
                    let t = -e[j] / e[lp1];
                    for i in lp1..=n {
                        xu[at(i, j)] += t * work[i];
                    }
                }
            }
            for i in lp1..=p {
                v[vt(i, l)] = e[i];
            }
        }
    }
    let mut m = p.min(n + 1);
    let nctp1 = nct + 1;
    let nrtp1 = nrt + 1;
    if nct < p {
        s[nctp1] = xu[at(nctp1, nctp1)];
    }
    if n < m {
        s[m] = 0.0;
    }
    if nrtp1 < m {
        e[nrtp1] = xu[at(nrtp1, m)];
    }
    e[m] = 0.0;
    // u
    if ncu >= nctp1 {
        for j in nctp1..=ncu {
            for i in 1..=n {
                xu[at(i, j)] = 0.0;
            }
            xu[at(j, j)] = 1.0;
        }
    }
    for ll in 1..=nct {
        let l = nct - ll + 1;
        if s[l] != 0.0 {
            let lp1 = l + 1;
            for j in lp1..=ncu {
                let t = -ddot(n - l + 1, xu, at(l, l), 1, xu, at(l, j), 1) / xu[at(l, l)];
                for i in l..=n {
                    xu[at(i, j)] += t * xu[at(i, l)];
                }
            }
            for i in l..=n {
                xu[at(i, l)] *= -1.0;
            }
            xu[at(l, l)] += 1.0;
            for i in 1..l {
                xu[at(i, l)] = 0.0;
            }
        } else {
            for i in 1..=n {
                xu[at(i, l)] = 0.0;
            }
            xu[at(l, l)] = 1.0;
        }
    }
    // v
    for ll in 1..=p {
        let l = p - ll + 1;
        let lp1 = l + 1;
        if l <= nrt && e[l] != 0.0 {
            for j in lp1..=p {
                let t = -ddot(p - l, v, vt(lp1, l), 1, v, vt(lp1, j), 1) / v[vt(lp1, l)];
                for i in lp1..=p {
                    v[vt(i, j)] += t * v[vt(i, l)];
                }
            }
        }
        for i in 1..=p {
            v[vt(i, l)] = 0.0;
        }
        v[vt(l, l)] = 1.0;
    }
    let mm = m;
    let mut iter = 0;
    let mut info = 0;
    loop {
        if m == 0 {
            break;
        }
        if iter >= maxit {
            info = m;
            break;
        }
        let mut l = 0;
        for ll in 1..=m {
            l = m - ll;
            if l == 0 {
                break;
            }
            let test = s[l].abs() + s[l + 1].abs();
            let ztest = test + e[l].abs();
            let acc = (test - ztest).abs() / (1.0e-100 + test);
            if !(acc > 1.0e-15) {
                e[l] = 0.0;
                break;
            }
        }
        let kase = if l == m - 1 {
            4
        } else {
            let lp1 = l + 1;
            let mp1 = m + 1;
            let mut ls = l;
            for lls in lp1..=mp1 {
                ls = m + lp1 - lls;
                if ls == l {
                    break;
                }
                let mut test = 0.0;
                if ls != m {
                    test += e[ls].abs();
                }
                if ls != l + 1 {
                    test += e[ls - 1].abs();
                }
                let ztest = test + s[ls].abs();
                let acc = (test - ztest).abs() / (1.0e-100 + test);
                if !(acc > 1.0e-15) {
                    s[ls] = 0.0;
                    break;
                }
            }
            if ls == l {
                3
            } else if ls == m {
                1
            } else {
                l = ls;
                2
            }
        };
        l += 1;
        match kase {
            1 => {
                let mm1 = m - 1;
                let mut f = e[m - 1];
                e[m - 1] = 0.0;
                for kk in l..=mm1 {
                    let k = mm1 - kk + l;
                    let (r, cs, sn) = drotg(s[k], f);
                    s[k] = r;
                    if k != l {
                        f = -sn * e[k - 1];
                        e[k - 1] *= cs;
                    }
                    drot(v, p, vt(1, k), vt(1, m), cs, sn);
                }
            }
            2 => {
                let mut f = e[l - 1];
                e[l - 1] = 0.0;
                for k in l..=m {
                    let (r, cs, sn) = drotg(s[k], f);
                    s[k] = r;
                    f = -sn * e[k];
                    e[k] *= cs;
                    drot(xu, n, at(1, k), at(1, l - 1), cs, sn);
                }
            }
            3 => {
                let scale = s[m]
                    .abs()
                    .max(s[m - 1].abs())
                    .max(e[m - 1].abs())
                    .max(s[l].abs())
                    .max(e[l].abs());
                let sm = s[m] / scale;
                let smm1 = s[m - 1] / scale;
                let emm1 = e[m - 1] / scale;
                let sl = s[l] / scale;
                let el = e[l] / scale;
                let b = ((smm1 + sm) * (smm1 - sm) + emm1 * emm1) / 2.0;
                let c = (sm * emm1) * (sm * emm1);
                let mut shift = 0.0;
                if !(b == 0.0 && c == 0.0) {
                    shift = (b * b + c).sqrt();
                    if b < 0.0 {
                        shift = -shift;
                    }
                    shift = c / (b + shift);
                }
                let mut f = (sl + sm) * (sl - sm) + shift;
                let mut g = sl * el;
                let mm1 = m - 1;
                for k in l..=mm1 {
                    let (r, cs, sn) = drotg(f, g);
                    if k != l {
                        e[k - 1] = r;
                    }
                    f = cs * s[k] + sn * e[k];
                    e[k] = cs * e[k] - sn * s[k];
                    g = sn * s[k + 1];
                    s[k + 1] *= cs;
                    drot(v, p, vt(1, k), vt(1, k + 1), cs, sn);
                    let (r, cs, sn) = drotg(f, g);
                    s[k] = r;
                    f = cs * e[k] + sn * s[k + 1];
                    s[k + 1] = -sn * e[k] + cs * s[k + 1];
                    g = sn * e[k + 1];
                    e[k + 1] *= cs;
                    if k < n {
                        drot(xu, n, at(1, k), at(1, k + 1), cs, sn);
                    }
                }
                e[m - 1] = f;
                iter += 1;
            }
            _ => {
                if s[l] < 0.0 {
                    s[l] = -s[l];
                    for i in 1..=p {
                        v[vt(i, l)] *= -1.0;
                    }
                }
                while l != mm && !(s[l] >= s[l + 1]) {
                    s.swap(l, l + 1);
                    if l < p {
                        for i in 1..=p {
                            v.swap(vt(i, l), vt(i, l + 1));
                        }
                    }
                    if l < n {
                        for i in 1..=n {
                            xu.swap(at(i, l), at(i, l + 1));
                        }
                    }
                    l += 1;
                }
                iter = 0;
                m -= 1;
            }
        }
    }
    info
}
// ---------------------------------------------------------------------
// dloess (loessf.f)
// ---------------------------------------------------------------------

/// The settings lowesd puts in iv/v: dimensions, span, degree.
#[derive(Clone)]
struct Setup {
    d: usize,
    n: usize,
    /// Points in a neighbourhood, `min(n, floor(n * span + 1e-5))`.
    nf: usize,
    /// The span (`v(1)`).
    f: f64,
    /// Columns of the local design, iv(29).
    k: usize,
    /// Nonparametric predictors, iv(33).
    dd: usize,
    /// The local degree, iv(32).
    tdeg: usize,
    /// Per predictor: 2 for its square, 1 when dropped (iv(41..)).
    cdeg: [usize; 8],
    nvmax: usize,
    /// `floor(n * span * cell)`: a cell with no more points is a leaf.
    fc: usize,
}

/// What the kd-tree build and the vertex fits leave (ehg131's arrays),
/// 1-based as the Fortran's.
#[derive(Clone, Default)]
struct Tree {
    d: usize,
    vc: usize,
    nvmax: usize,
    nv: usize,
    nc: usize,
    /// v(nvmax, d)
    v: Vec<f64>,
    a: Vec<usize>,
    xi: Vec<f64>,
    lo: Vec<usize>,
    hi: Vec<usize>,
    /// c(vc, ncmax)
    c: Vec<usize>,
    /// vval(0:d, nvmax)
    vval: Vec<f64>,
}

impl Tree {
    fn new(d: usize, nvmax: usize) -> Tree {
        let vc = 1usize << d;
        Tree {
            d,
            vc,
            nvmax,
            nv: 0,
            nc: 0,
            v: vec![0.0; nvmax * d],
            a: vec![0; nvmax + 1],
            xi: vec![0.0; nvmax + 1],
            lo: vec![0; nvmax + 1],
            hi: vec![0; nvmax + 1],
            c: vec![0; vc * nvmax],
            vval: vec![0.0; (d + 1) * nvmax],
        }
    }
    fn v(&self, i: usize, k: usize) -> f64 {
        self.v[(i - 1) + (k - 1) * self.nvmax]
    }
    fn c(&self, j: usize, p: usize) -> usize {
        self.c[(j - 1) + (p - 1) * self.vc]
    }
}

/// ehg106: Floyd and Rivest's selection of the k-th smallest of
/// `p(pi(il..ir))`, permuting `pi` (1-based positions, 1-based values).
fn ehg106(il: usize, ir: usize, k: usize, p: &dyn Fn(usize) -> f64, pi: &mut [usize]) {
    let mut l = il;
    let mut r = ir;
    while l < r {
        let t = p(pi[k]);
        let mut i = l;
        let mut j = r;
        pi.swap(l, k);
        if t < p(pi[r]) {
            pi.swap(l, r);
        }
        while i < j {
            pi.swap(i, j);
            i += 1;
            j -= 1;
            while p(pi[i]) < t {
                i += 1;
            }
            while t < p(pi[j]) {
                j -= 1;
            }
        }
        if p(pi[l]) == t {
            pi.swap(l, j);
        } else {
            j += 1;
            pi.swap(r, j);
        }
        if j <= k {
            l = j + 1;
        }
        if k <= j {
            if j == 0 {
                break;
            }
            r = j - 1;
        }
    }
}

/// The local fit's factors at one point, as ehg127 leaves them for
/// ehg136/ehg139.
struct Local {
    /// b(nf, k): the QR of the weighted design.
    b: Vec<f64>,
    qraux: Vec<f64>,
    /// sigma (1-based), u(15,15), e(15,15)
    sigma: Vec<f64>,
    u: Vec<f64>,
    e: Vec<f64>,
    w: Vec<f64>,
    tol: f64,
    k: usize,
}

const LD: usize = 15;

/// ehg127: the weighted local regression at `q`: neighbours by distance
/// (psi permuted in place), tricube weights, the equilibrated design,
/// dqrdc, dqrsl, dsvdc of R, and the coefficients `s(0:od)`.
#[allow(clippy::too_many_arguments)]
fn ehg127(
    q: &[f64],
    st: &Setup,
    x: &[f64],
    psi: &mut [usize],
    y: &[f64],
    rw: &[f64],
    dist: &mut [f64],
    od: usize,
    s: &mut [f64],
    rcond: &mut f64,
    sing: &mut usize,
    warn: &mut Vec<String>,
) -> Local {
    let (n, d, nf, f) = (st.n, st.d, st.nf, st.f);
    let xa = |i: usize, j: usize| x[(i - 1) + (j - 1) * n];
    for i3 in 1..=n {
        dist[i3] = 0.0;
    }
    for j in 1..=st.dd {
        let i4 = q[j - 1];
        for i3 in 1..=n {
            let t = xa(i3, j) - i4;
            dist[i3] += t * t;
        }
    }
    {
        let dd: &[f64] = dist;
        ehg106(1, n, nf, &|i| dd[i], psi);
    }
    let rho = dist[psi[nf]] * f.max(1.0);
    if rho <= 0.0 {
        warn.push("zero-width neighborhood. make span bigger".into());
    }
    let mut w = vec![0.0; nf + 1];
    for i3 in 1..=nf {
        w[i3] = (dist[psi[i3]] / rho).sqrt();
    }
    for i3 in 1..=nf {
        let t = 1.0 - w[i3] * w[i3] * w[i3];
        w[i3] = (rw[psi[i3] - 1] * (t * t * t)).sqrt();
    }
    // idamax: the first largest |w|
    let mut big = 0.0f64;
    let mut first = true;
    for i3 in 1..=nf {
        if first || w[i3].abs() > big {
            big = w[i3].abs();
            first = false;
        }
    }
    if big == 0.0 {
        warn.push(format!("at  {}", g5(q[0])));
        warn.push(format!("radius  {}", g5(rho)));
        warn.push("all data on boundary of neighborhood. make span bigger".into());
    }
    let kin = st.k;
    let mut b = vec![0.0; nf * kin.max(1)];
    let bt = |i: usize, j: usize| (i - 1) + (j - 1) * nf;
    let mut column = 1;
    for i3 in 1..=nf {
        b[bt(i3, column)] = w[i3];
    }
    if st.tdeg >= 1 {
        for j in 1..=d {
            if st.cdeg[j - 1] >= 1 {
                column += 1;
                let i5 = q[j - 1];
                for i3 in 1..=nf {
                    b[bt(i3, column)] = w[i3] * (xa(psi[i3], j) - i5);
                }
            }
        }
    }
    let mut k = kin;
    if st.tdeg >= 2 {
        for j in 1..=d {
            if st.cdeg[j - 1] >= 1 {
                if st.cdeg[j - 1] >= 2 {
                    column += 1;
                    let i6 = q[j - 1];
                    for i3 in 1..=nf {
                        let t = xa(psi[i3], j) - i6;
                        b[bt(i3, column)] = w[i3] * (t * t);
                    }
                }
                for jj in j + 1..=d {
                    if st.cdeg[jj - 1] >= 1 {
                        column += 1;
                        let i7 = q[j - 1];
                        let i8 = q[jj - 1];
                        for i3 in 1..=nf {
                            b[bt(i3, column)] =
                                w[i3] * (xa(psi[i3], j) - i7) * (xa(psi[i3], jj) - i8);
                        }
                    }
                }
            }
        }
        k = column;
    }
    // (k > nf when the span is too small: the Fortran then reads past
    // its arrays; here the extra entries are zeros.)
    let mut eta = vec![0.0; nf.max(kin)];
    for i3 in 1..=nf {
        eta[i3 - 1] = w[i3] * y[psi[i3] - 1];
    }
    let mut colnor = [0.0f64; 16];
    for j in 1..=k {
        let mut scal = 0.0;
        for i in 1..=nf {
            scal += b[bt(i, j)] * b[bt(i, j)];
        }
        scal = scal.sqrt();
        if 0.0 < scal {
            for i3 in 1..=nf {
                b[bt(i3, j)] /= scal;
            }
            colnor[j] = scal;
        } else {
            colnor[j] = 1.0;
        }
    }
    let mut qraux = vec![0.0; k];
    dqrdc(&mut b, nf, nf, k, &mut qraux);
    dqrsl(&mut b, nf, nf, k, &qraux, &mut eta, false);
    let mut u = vec![0.0; LD * LD];
    let ut = |i: usize, j: usize| (i - 1) + (j - 1) * LD;
    for i in 1..=k {
        for j in i..=k {
            u[ut(i, j)] = b.get(bt(i, j)).copied().unwrap_or(0.0);
        }
    }
    let mut sigma = vec![0.0; LD + 2];
    let mut g = vec![0.0; LD + 2];
    let mut e = vec![0.0; LD * LD];
    let info = dsvdc21(&mut u, LD, k, k, &mut sigma, &mut g, &mut e, LD);
    if info != 0 {
        warn.push("svddc failed in l2fit.".into());
    }
    let tol = sigma[1] * (100.0 * f64::EPSILON);
    *rcond = rcond.min(sigma[k] / sigma[1]);
    if sigma[k] <= tol {
        *sing += 1;
        if *sing == 1 {
            let at: Vec<String> = q[..d].iter().map(|v| g5(*v)).collect();
            warn.push(format!("pseudoinverse used at {}", at.join(" ")));
            warn.push(format!("neighborhood radius {}", g5(rho.sqrt())));
            warn.push(format!("reciprocal condition number  {}", g5(*rcond)));
        } else if *sing == 2 {
            warn.push(format!(
                "There are other near singularities as well. {}",
                g5(rho)
            ));
        }
    }
    for j in 1..=k {
        let i10 = colnor[j];
        for i3 in 1..=k {
            e[ut(j, i3)] /= i10;
        }
    }
    let mut dgamma = [0.0f64; 16];
    for j in 1..=k {
        dgamma[j] = if tol < sigma[j] {
            ddot(k, &u, ut(1, j), 1, &eta, 0, 1) / sigma[j]
        } else {
            0.0
        };
    }
    for j in 0..=od {
        s[j] = if j < k {
            ddot(k, &e, ut(j + 1, 1), LD, &dgamma, 1, 1)
        } else {
            0.0
        };
    }
    Local {
        b,
        qraux,
        sigma,
        u,
        e,
        w,
        tol,
        k,
    }
}

/// C's `%.5g`, as ehg184 writes numbers into its warnings.
fn g5(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    if x == 0.0 {
        return "0".into();
    }
    let e = x.abs().log10().floor() as i32;
    if !(-4..5).contains(&e) {
        let m = format!("{:.4e}", x);
        let (mant, ex) = m.split_once('e').unwrap_or((&m, "0"));
        let mant = trim_zeros(mant);
        let ex: i32 = ex.parse().unwrap_or(0);
        format!("{}e{}{:02}", mant, if ex < 0 { '-' } else { '+' }, ex.abs())
    } else {
        let dec = (4 - e).max(0) as usize;
        trim_zeros(&format!("{:.*}", dec, x))
    }
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// ehg126: the bounding box's vertices, widened by 10% (of a 0.005
/// margin each side).
fn ehg126(t: &mut Tree, n: usize, x: &[f64]) {
    let (d, vc, nvmax) = (t.d, t.vc, t.nvmax);
    let machin = f64::MAX;
    for k in 1..=d {
        let mut alpha = machin;
        let mut beta = -machin;
        for i in 1..=n {
            let v = x[(i - 1) + (k - 1) * n];
            alpha = fmin(alpha, v);
            beta = fmax(beta, v);
        }
        let mu = 0.005 * fmax(beta - alpha, 1e-10 * fmax(alpha.abs(), beta.abs()) + 1e-30);
        alpha -= mu;
        beta += mu;
        t.v[(k - 1) * nvmax] = alpha;
        t.v[(vc - 1) + (k - 1) * nvmax] = beta;
    }
    for i in 2..vc {
        let mut j = i - 1;
        for k in 1..=d {
            t.v[(i - 1) + (k - 1) * nvmax] = t.v[(j % 2) * (vc - 1) + (k - 1) * nvmax];
            j /= 2;
        }
    }
}

/// Fortran's MIN/MAX of two doubles as gfortran computes them (the
/// second when the comparison fails, as with NaN).
fn fmin(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}
fn fmax(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// ehg125: the vertices of cell `p`'s split at `t` on axis `k`, reusing
/// existing ones; fills the sons' corner lists.
fn ehg125(tr: &mut Tree, p: usize, k: usize, t: f64, lo_p: usize, hi_p: usize) -> bool {
    let (d, vc, nvmax) = (tr.d, tr.vc, tr.nvmax);
    let r = 1usize << (k - 1);
    let s = 1usize << (d - k);
    let nv = tr.nv;
    let mut h = nv;
    let fidx = |i: usize, b: usize, j: usize| (i - 1) + b * r + (j - 1) * 2 * r;
    for i in 1..=r {
        for j in 1..=s {
            h += 1;
            if h > nvmax {
                return false;
            }
            let fv = tr.c[(p - 1) * vc + fidx(i, 0, j)];
            for i3 in 1..=d {
                tr.v[(h - 1) + (i3 - 1) * nvmax] = tr.v[(fv - 1) + (i3 - 1) * nvmax];
            }
            tr.v[(h - 1) + (k - 1) * nvmax] = t;
            let mut mtch = false;
            let mut m = 1;
            while !mtch && m <= nv {
                mtch = tr.v(m, 1) == tr.v(h, 1);
                let mut mm = 2;
                while mtch && mm <= d {
                    mtch = tr.v(m, mm) == tr.v(h, mm);
                    mm += 1;
                }
                m += 1;
            }
            m -= 1;
            if mtch {
                h -= 1;
            } else {
                m = h;
            }
            let f0 = tr.c[(p - 1) * vc + fidx(i, 0, j)];
            let f1 = tr.c[(p - 1) * vc + fidx(i, 1, j)];
            tr.c[(lo_p - 1) * vc + fidx(i, 0, j)] = f0;
            tr.c[(lo_p - 1) * vc + fidx(i, 1, j)] = m;
            tr.c[(hi_p - 1) * vc + fidx(i, 0, j)] = m;
            tr.c[(hi_p - 1) * vc + fidx(i, 1, j)] = f1;
        }
    }
    tr.nv = h;
    true
}

/// ehg124: the k-d tree, cells cut at the median of their widest
/// coordinate until they hold at most `fc` points.
fn ehg124(tr: &mut Tree, st: &Setup, x: &[f64], pi: &mut [usize]) {
    let (n, vc, dd) = (st.n, tr.vc, st.dd);
    let ncmax = tr.nvmax;
    let xa = |i: usize, k: usize| x[(i - 1) + (k - 1) * n];
    let mut p = 1;
    let mut l = 1;
    let mut u = n;
    tr.lo[p] = l;
    tr.hi[p] = u;
    while p <= tr.nc {
        let mut diam = 0.0;
        for i4 in 1..=dd {
            let t = tr.v(tr.c(vc, p), i4) - tr.v(tr.c(1, p), i4);
            diam += t * t;
        }
        diam = diam.sqrt();
        let mut leaf = if (u + 1).saturating_sub(l) <= st.fc {
            true
        } else {
            diam <= 0.0
        };
        if !leaf {
            leaf = ncmax < tr.nc + 2 || (tr.nvmax as f64) < tr.nv as f64 + vc as f64 / 2.0;
        }
        let mut m = 0;
        let mut k = 0;
        if !leaf {
            // ehg129: the spread of each coordinate over the cell
            let mut sigma = [0.0f64; 8];
            for kk in 1..=dd {
                let mut alpha = f64::MAX;
                let mut beta = -f64::MAX;
                for i in l..=u {
                    let t = xa(pi[i], kk);
                    alpha = fmin(alpha, t);
                    beta = fmax(beta, t);
                }
                sigma[kk - 1] = beta - alpha;
            }
            // idamax
            k = 1;
            let mut big = sigma[0].abs();
            for kk in 2..=dd {
                if sigma[kk - 1].abs() > big {
                    big = sigma[kk - 1].abs();
                    k = kk;
                }
            }
            m = (l + u) / 2;
            let col = |i: usize| xa(i, k);
            ehg106(l, u, m, &col, pi);
            let mut offset: i64 = 0;
            loop {
                let mo = m as i64 + offset;
                if mo >= u as i64 || mo < l as i64 {
                    break;
                }
                let (lower, check, upper) = if offset < 0 {
                    (l, mo as usize, mo as usize)
                } else {
                    (mo as usize + 1, mo as usize + 1, u)
                };
                ehg106(lower, upper, check, &col, pi);
                if xa(pi[mo as usize], k) == xa(pi[mo as usize + 1], k) {
                    offset = -offset;
                    if offset >= 0 {
                        offset += 1;
                    }
                } else {
                    m = mo as usize;
                    break;
                }
            }
            leaf = tr.v(tr.c(1, p), k) == xa(pi[m], k) || tr.v(tr.c(vc, p), k) == xa(pi[m], k);
        }
        if leaf {
            tr.a[p] = 0;
        } else {
            tr.a[p] = k;
            tr.xi[p] = xa(pi[m], k);
            tr.nc += 1;
            tr.lo[p] = tr.nc;
            tr.lo[tr.nc] = l;
            tr.hi[tr.nc] = m;
            tr.nc += 1;
            tr.hi[p] = tr.nc;
            tr.lo[tr.nc] = m + 1;
            tr.hi[tr.nc] = u;
            let (lp, hp, xip) = (tr.lo[p], tr.hi[p], tr.xi[p]);
            ehg125(tr, p, k, xip, lp, hp);
        }
        p += 1;
        if p > ncmax {
            break;
        }
        l = tr.lo[p];
        u = tr.hi[p];
    }
}

/// ehg137: the leaf cells whose closure holds `z`.
fn ehg137(tr: &Tree, z: &[f64]) -> Vec<usize> {
    let mut stack = Vec::new();
    let mut leaves = Vec::new();
    let mut p = 1;
    while p > 0 {
        if tr.a[p] == 0 {
            leaves.push(p);
            p = stack.pop().unwrap_or(0);
        } else if z[tr.a[p] - 1] == tr.xi[p] {
            stack.push(tr.hi[p]);
            p = tr.lo[p];
        } else if z[tr.a[p] - 1] <= tr.xi[p] {
            p = tr.lo[p];
        } else {
            p = tr.hi[p];
        }
        if stack.len() > 20 || leaves.len() > 256 {
            break;
        }
    }
    leaves
}
/// The cubic Hermite basis at h: phi0, phi1, psi0, psi1.
fn hermite(h: f64) -> (f64, f64, f64, f64) {
    let phi0 = (1.0 - h) * (1.0 - h) * (1.0 + 2.0 * h);
    let phi1 = h * h * (3.0 - 2.0 * h);
    let psi0 = h * (1.0 - h) * (1.0 - h);
    let psi1 = h * h * (h - 1.0);
    (phi0, phi1, psi0, psi1)
}

/// ehg128: the surface at `z`, blending the cubic Hermite interpolants
/// of the vertex values and slopes of the leaf cell holding it (and, in
/// two dimensions, of its neighbours' edges).
fn ehg128(tr: &Tree, vval: &[f64], z: &[f64], warn: &mut Vec<String>) -> f64 {
    let d = tr.d;
    let vc = tr.vc;
    let vv = |i1: usize, i2: usize| vval[i1 + (i2 - 1) * (d + 1)];
    let mut t = [0usize; 21];
    let mut nt = 1;
    t[nt] = 1;
    let mut j = 1;
    while tr.a[j] != 0 {
        nt += 1;
        let i1 = if z[tr.a[j] - 1] <= tr.xi[j] {
            tr.lo[j]
        } else {
            tr.hi[j]
        };
        if nt >= 20 {
            warn.push("nt>20 in eval.".into());
            return f64::NAN;
        }
        t[nt] = i1;
        j = t[nt];
    }
    let mut g = vec![[0.0f64; 9]; vc + 1];
    for i12 in 1..=vc {
        for i11 in 0..=d {
            g[i12][i11] = vv(i11, tr.c(i12, j));
        }
    }
    let mut lg = vc;
    let ll = tr.c(1, j);
    let ur = tr.c(vc, j);
    for i in (1..=d).rev() {
        let h = (z[i - 1] - tr.v(ll, i)) / (tr.v(ur, i) - tr.v(ll, i));
        if !(-0.001..=1.001).contains(&h) {
            warn.push("extrapolation not allowed with blending".into());
        }
        lg /= 2;
        for ig in 1..=lg {
            let (phi0, phi1, psi0, psi1) = hermite(h);
            g[ig][0] = phi0 * g[ig][0]
                + phi1 * g[ig + lg][0]
                + (psi0 * g[ig][i] + psi1 * g[ig + lg][i]) * (tr.v(ur, i) - tr.v(ll, i));
            for ii in 1..i {
                g[ig][ii] = phi0 * g[ig][ii] + phi1 * g[ig + lg][ii];
            }
        }
    }
    let mut s = g[1][0];
    if d == 2 {
        let descend = |mut m: usize| {
            while tr.a[m] != 0 {
                m = if z[tr.a[m] - 1] <= tr.xi[m] {
                    tr.lo[m]
                } else {
                    tr.hi[m]
                };
            }
            m
        };
        // the ancestor cut on `axis` at `xibar`, if any
        let up = |axis: usize, xibar: f64| {
            let mut m = nt - 1;
            while !(m == 0 || (tr.a[t[m]] == axis && tr.xi[t[m]] == xibar)) {
                m -= 1;
            }
            m
        };
        let col = |i: usize| {
            let mut g0 = [0.0f64; 3];
            for (i11, gv) in g0.iter_mut().enumerate() {
                *gv = vv(i11, i);
            }
            g0
        };
        // North
        let mut v0 = tr.v(ll, 1);
        let mut v1 = tr.v(ur, 1);
        let mut g0 = col(tr.c(3, j));
        let mut g1 = col(tr.c(4, j));
        let m = up(2, tr.v(ur, 2));
        if m >= 1 {
            let m = descend(tr.hi[t[m]]);
            if v0 < tr.v(tr.c(1, m), 1) {
                v0 = tr.v(tr.c(1, m), 1);
                g0 = col(tr.c(1, m));
            }
            if tr.v(tr.c(2, m), 1) < v1 {
                v1 = tr.v(tr.c(2, m), 1);
                g1 = col(tr.c(2, m));
            }
        }
        let h = (z[0] - v0) / (v1 - v0);
        let (phi0, phi1, psi0, psi1) = hermite(h);
        let gn = phi0 * g0[0] + phi1 * g1[0] + (psi0 * g0[1] + psi1 * g1[1]) * (v1 - v0);
        let gpn = phi0 * g0[2] + phi1 * g1[2];
        // South
        let mut v0 = tr.v(ll, 1);
        let mut v1 = tr.v(ur, 1);
        let mut g0 = col(tr.c(1, j));
        let mut g1 = col(tr.c(2, j));
        let m = up(2, tr.v(ll, 2));
        if m >= 1 {
            let m = descend(tr.lo[t[m]]);
            if v0 < tr.v(tr.c(3, m), 1) {
                v0 = tr.v(tr.c(3, m), 1);
                g0 = col(tr.c(3, m));
            }
            if tr.v(tr.c(4, m), 1) < v1 {
                v1 = tr.v(tr.c(4, m), 1);
                g1 = col(tr.c(4, m));
            }
        }
        let h = (z[0] - v0) / (v1 - v0);
        let (phi0, phi1, psi0, psi1) = hermite(h);
        let gs = phi0 * g0[0] + phi1 * g1[0] + (psi0 * g0[1] + psi1 * g1[1]) * (v1 - v0);
        let gps = phi0 * g0[2] + phi1 * g1[2];
        // East
        let mut v0 = tr.v(ll, 2);
        let mut v1 = tr.v(ur, 2);
        let mut g0 = col(tr.c(2, j));
        let mut g1 = col(tr.c(4, j));
        let m = up(1, tr.v(ur, 1));
        if m >= 1 {
            let m = descend(tr.hi[t[m]]);
            if v0 < tr.v(tr.c(1, m), 2) {
                v0 = tr.v(tr.c(1, m), 2);
                g0 = col(tr.c(1, m));
            }
            if tr.v(tr.c(3, m), 2) < v1 {
                v1 = tr.v(tr.c(3, m), 2);
                g1 = col(tr.c(3, m));
            }
        }
        let h = (z[1] - v0) / (v1 - v0);
        let (phi0, phi1, psi0, psi1) = hermite(h);
        let ge = phi0 * g0[0] + phi1 * g1[0] + (psi0 * g0[2] + psi1 * g1[2]) * (v1 - v0);
        let gpe = phi0 * g0[1] + phi1 * g1[1];
        // West
        let mut v0 = tr.v(ll, 2);
        let mut v1 = tr.v(ur, 2);
        let mut g0 = col(tr.c(1, j));
        let mut g1 = col(tr.c(3, j));
        let m = up(1, tr.v(ll, 1));
        if m >= 1 {
            let m = descend(tr.lo[t[m]]);
            if v0 < tr.v(tr.c(2, m), 2) {
                v0 = tr.v(tr.c(2, m), 2);
                g0 = col(tr.c(2, m));
            }
            if tr.v(tr.c(4, m), 2) < v1 {
                v1 = tr.v(tr.c(4, m), 2);
                g1 = col(tr.c(4, m));
            }
        }
        let h = (z[1] - v0) / (v1 - v0);
        let (phi0, phi1, psi0, psi1) = hermite(h);
        let gw = phi0 * g0[0] + phi1 * g1[0] + (psi0 * g0[2] + psi1 * g1[2]) * (v1 - v0);
        let gpw = phi0 * g0[1] + phi1 * g1[1];
        // NS
        let h = (z[1] - tr.v(ll, 2)) / (tr.v(ur, 2) - tr.v(ll, 2));
        let (phi0, phi1, psi0, psi1) = hermite(h);
        let sns = phi0 * gs + phi1 * gn + (psi0 * gps + psi1 * gpn) * (tr.v(ur, 2) - tr.v(ll, 2));
        // EW
        let h = (z[0] - tr.v(ll, 1)) / (tr.v(ur, 1) - tr.v(ll, 1));
        let (phi0, phi1, psi0, psi1) = hermite(h);
        let sew = phi0 * gw + phi1 * ge + (psi0 * gpw + psi1 * gpe) * (tr.v(ur, 1) - tr.v(ll, 1));
        s = (sns + sew) - s;
    }
    s
}

/// The operator rows a vertex fit leaves when `setlf` (ehg139's Lf and
/// Lq): `lq(l, 1:nf)` and `lf(0:d, l, 1:nf)`.
struct Lf {
    nf: usize,
    lq: Vec<usize>,
    lf: Vec<f64>,
}

/// ehg131 (lowesb): the k-d tree over x, the local fits at its vertices
/// (ehg139), and with `infl` the hat matrix's diagonal, with `setlf`
/// the vertices' operator rows.
#[allow(clippy::too_many_arguments)]
fn lowesb(
    st: &Setup,
    x: &[f64],
    y: &[f64],
    rw: &[f64],
    infl: bool,
    setlf: bool,
    cell_span: f64,
    warn: &mut Vec<String>,
) -> (Tree, Vec<f64>, f64, usize, Option<Lf>) {
    let (n, d) = (st.n, st.d);
    let mut st = st.clone();
    st.fc = (n as f64 * cell_span).floor().max(0.0) as usize;
    let mut tr = Tree::new(d, st.nvmax);
    ehg126(&mut tr, n, x);
    tr.nv = tr.vc;
    tr.nc = 1;
    for j in 1..=tr.vc {
        tr.c[j - 1] = j;
    }
    let mut pi: Vec<usize> = (0..=n).collect();
    ehg124(&mut tr, &st, x, &mut pi);
    // ehg139
    let nf = st.nf;
    let nv = tr.nv;
    let mut diagl = vec![0.0; n + 1];
    let mut vval2 = vec![0.0; (d + 1) * nv.max(1)];
    let mut psi: Vec<usize> = (0..=n).collect();
    let mut dist = vec![0.0; n + 1];
    let mut vval = vec![0.0; (d + 1) * tr.nvmax];
    let mut rcond = 1.0;
    let mut sing = 0;
    let mut lf = setlf.then(|| Lf {
        nf,
        lq: vec![0; nv * nf],
        lf: vec![0.0; (d + 1) * nv * nf],
    });
    if st.k + 1 > nf {
        warn.push("span too small.   fewer data values than degrees of freedom.".into());
    }
    if st.k > 15 {
        warn.push("k>d2MAX in ehg136.  Need to recompile with increased dimensions.".into());
    }
    let od = d;
    for l in 1..=nv {
        let q: Vec<f64> = (1..=d).map(|i5| tr.v(l, i5)).collect();
        let mut s = vec![0.0; od + 1];
        let loc = ehg127(
            &q, &st, x, &mut psi, y, rw, &mut dist, od, &mut s, &mut rcond, &mut sing, warn,
        );
        vval[(l - 1) * (d + 1)..l * (d + 1)].copy_from_slice(&s);
        let k = loc.k;
        let ut = |i: usize, j: usize| (i - 1) + (j - 1) * LD;
        if infl {
            // phi: psi inverted (ehg139 keeps it in dist's storage).
            let mut phi = vec![0usize; n + 1];
            for i in 1..=nf {
                phi[psi[i]] = i;
            }
            let leaves = ehg137(&tr, &q);
            let mut b = loc.b.clone();
            for leaf in leaves {
                for ii in tr.lo[leaf]..=tr.hi[leaf] {
                    let i = phi[pi[ii]];
                    if i == 0 {
                        continue;
                    }
                    let mut eta = vec![0.0; nf.max(k)];
                    eta[i - 1] = loc.w[i];
                    dqrsl(&mut b, nf, nf, k, &loc.qraux, &mut eta, false);
                    let mut dgamma = [0.0f64; 16];
                    for j in 1..=k {
                        dgamma[j] = if loc.tol < loc.sigma[j] {
                            ddot(k, &loc.u, ut(1, j), 1, &eta, 0, 1) / loc.sigma[j]
                        } else {
                            0.0
                        };
                    }
                    for j in 1..=d + 1 {
                        vval2[(j - 1) + (l - 1) * (d + 1)] = if j <= k {
                            ddot(k, &loc.e, ut(j, 1), LD, &dgamma, 1, 1)
                        } else {
                            0.0
                        };
                    }
                    let z: Vec<f64> = (1..=d).map(|i5| x[(pi[ii] - 1) + (i5 - 1) * n]).collect();
                    let term = ehg128(&tr, &vval2, &z, warn);
                    diagl[pi[ii]] += term;
                    for i5 in 0..=d {
                        vval2[i5 + (l - 1) * (d + 1)] = 0.0;
                    }
                }
            }
        }
        if let Some(lf) = lf.as_mut() {
            if k < d + 1 {
                warn.push("degree must be at least 1 for vertex influence matrix".into());
            }
            for i5 in 1..=nf {
                lf.lq[(l - 1) + (i5 - 1) * nv] = psi[i5];
            }
            let lfi =
                |i5: usize, l: usize, i: usize| i5 + (l - 1) * (d + 1) + (i - 1) * (d + 1) * nv;
            for i6 in 1..=nf {
                for i5 in 0..=d {
                    lf.lf[lfi(i5, l, i6)] = 0.0;
                }
            }
            let mut b = loc.b.clone();
            for j in 1..=k {
                let mut eta = vec![0.0; nf.max(k)];
                for i5 in 1..=k {
                    eta[i5 - 1] = loc.u[ut(i5, j)];
                }
                dqrsl(&mut b, nf, nf, k, &loc.qraux, &mut eta, true);
                let scale = if loc.tol < loc.sigma[j] {
                    1.0 / loc.sigma[j]
                } else {
                    0.0
                };
                for i5 in 1..=nf {
                    eta[i5 - 1] *= scale * loc.w[i5];
                }
                for i in 1..=nf {
                    let i7 = eta[i - 1];
                    for i5 in 0..=d {
                        if i5 < k {
                            lf.lf[lfi(i5, l, i)] += loc.e[ut(1 + i5, j)] * i7;
                        } else {
                            lf.lf[lfi(i5, l, i)] = 0.0;
                        }
                    }
                }
            }
        }
    }
    let mut trl = 0.0;
    if infl && n > 0 {
        let mut i1 = diagl[n];
        for i2 in (1..n).rev() {
            i1 += diagl[i2];
        }
        trl = i1;
    }
    tr.vval = vval;
    diagl.remove(0);
    (tr, diagl, trl, sing, lf)
}

/// lowese (ehg133): the surface at each row of z (m x d, column-major).
fn lowese(tr: &Tree, z: &[f64], m: usize, warn: &mut Vec<String>) -> Vec<f64> {
    let d = tr.d;
    (0..m)
        .map(|i| {
            let zi: Vec<f64> = (0..d).map(|k| z[i + k * m]).collect();
            ehg128(tr, &tr.vval, &zi, warn)
        })
        .collect()
}

/// lowesl (ehg191): the operator matrix L (m x n) of the interpolated
/// surface at the rows of z.
fn lowesl(tr: &Tree, lf: &Lf, n: usize, z: &[f64], m: usize, warn: &mut Vec<String>) -> Vec<f64> {
    let d = tr.d;
    let nv = tr.nv;
    let nf = lf.nf;
    let mut l = vec![0.0; m * n];
    let mut vval2 = vec![0.0; (d + 1) * nv];
    let mut lq = lf.lq.clone();
    for j in 1..=n {
        vval2.iter_mut().for_each(|v| *v = 0.0);
        for i in 1..=nv {
            let lq1 = lq[i - 1];
            lq[i - 1] = j;
            let mut p = nf;
            while lq[(i - 1) + (p - 1) * nv] != j {
                p -= 1;
            }
            lq[i - 1] = lq1;
            if lq[(i - 1) + (p - 1) * nv] == j {
                for i1 in 0..=d {
                    vval2[i1 + (i - 1) * (d + 1)] =
                        lf.lf[i1 + (i - 1) * (d + 1) + (p - 1) * (d + 1) * nv];
                }
            }
        }
        for i in 0..m {
            let zi: Vec<f64> = (0..d).map(|k| z[i + k * m]).collect();
            l[i + (j - 1) * m] = ehg128(tr, &vval2, &zi, warn);
        }
    }
    l
}

/// lowesf (ehg136): the local fit at each row of z directly; with ihat 1
/// the diagonal of L (z = x), with 2 all of L (m x n).
#[allow(clippy::too_many_arguments)]
fn lowesf(
    st: &Setup,
    x: &[f64],
    y: &[f64],
    rw: &[f64],
    z: &[f64],
    m: usize,
    ihat: u8,
    warn: &mut Vec<String>,
) -> (Vec<f64>, Vec<f64>, usize) {
    let (n, d, nf) = (st.n, st.d, st.nf);
    if st.k + 1 > nf {
        warn.push("span too small.   fewer data values than degrees of freedom.".into());
    }
    let mut psi: Vec<usize> = (0..=n).collect();
    let mut dist = vec![0.0; n + 1];
    let mut fit = vec![0.0; m];
    let mut o = match ihat {
        1 => vec![0.0; m],
        2 => vec![0.0; m * n],
        _ => Vec::new(),
    };
    let mut rcond = 1.0;
    let mut sing = 0;
    let ut = |i: usize, j: usize| (i - 1) + (j - 1) * LD;
    for l in 1..=m {
        let q: Vec<f64> = (0..d).map(|i1| z[(l - 1) + i1 * m]).collect();
        let mut s = [0.0f64; 1];
        let loc = ehg127(
            &q, st, x, &mut psi, y, rw, &mut dist, 0, &mut s, &mut rcond, &mut sing, warn,
        );
        fit[l - 1] = s[0];
        let k = loc.k;
        let mut b = loc.b.clone();
        if ihat == 1 {
            let mut i = 1;
            while l != psi[i] {
                i += 1;
                if i >= nf {
                    warn.push(
                        "ihat=1 (diag L) in l2fit only makes sense if z=x (eval=data).".into(),
                    );
                    break;
                }
            }
            let mut eta = vec![0.0; nf.max(k)];
            eta[i - 1] = loc.w[i];
            dqrsl(&mut b, nf, nf, k, &loc.qraux, &mut eta, false);
            let mut dgamma = [0.0f64; 16];
            for j in 1..=k {
                let i2 = eta[j - 1];
                for i1 in 1..=k {
                    dgamma[i1] += i2 * loc.u[ut(j, i1)];
                }
            }
            for j in 1..=k {
                dgamma[j] = if loc.tol < loc.sigma[j] {
                    dgamma[j] / loc.sigma[j]
                } else {
                    0.0
                };
            }
            o[l - 1] = ddot(k, &loc.e, ut(1, 1), LD, &dgamma, 1, 1);
        } else if ihat == 2 {
            for j in 1..=k {
                let mut eta = vec![0.0; nf.max(k)];
                for i1 in 1..=k {
                    eta[i1 - 1] = loc.u[ut(i1, j)];
                }
                dqrsl(&mut b, nf, nf, k, &loc.qraux, &mut eta, true);
                let scale = if loc.tol < loc.sigma[j] {
                    1.0 / loc.sigma[j]
                } else {
                    0.0
                };
                for i1 in 1..=nf {
                    eta[i1 - 1] *= scale * loc.w[i1];
                }
                for i in 1..=nf {
                    o[(l - 1) + (psi[i] - 1) * m] += loc.e[ut(1, j)] * eta[i - 1];
                }
            }
        }
    }
    (fit, o, sing)
}

/// ehg176: the fitted correction of ehg141's approximation, a fixed 1-d
/// surface evaluated by ehg128.
fn ehg176(z: f64) -> f64 {
    let mut tr = Tree::new(1, 10);
    tr.nv = 10;
    tr.nc = 17;
    tr.a = vec![0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0];
    tr.a.resize(18, 0);
    tr.lo = vec![0; 18];
    tr.hi = vec![0; 18];
    tr.xi = vec![0.0; 18];
    let splits: [(usize, usize, usize, f64); 8] = [
        (1, 3, 2, 0.3705),
        (2, 5, 4, 0.2017),
        (3, 7, 6, 0.5591),
        (4, 9, 8, 0.1204),
        (5, 11, 10, 0.2815),
        (6, 13, 12, 0.4536),
        (7, 15, 14, 0.7132),
        (15, 17, 16, 0.8751),
    ];
    for (p, hi, lo, xi) in splits {
        tr.hi[p] = hi;
        tr.lo[p] = lo;
        tr.xi[p] = xi;
    }
    let c: [(usize, usize); 17] = [
        (1, 2),
        (1, 3),
        (3, 2),
        (1, 4),
        (4, 3),
        (3, 5),
        (5, 2),
        (1, 6),
        (6, 4),
        (4, 7),
        (7, 3),
        (3, 8),
        (8, 5),
        (5, 9),
        (9, 2),
        (9, 10),
        (10, 2),
    ];
    tr.c = c.iter().flat_map(|&(a, b)| [a, b]).collect();
    tr.v = vec![
        -5.0e-3, 1.005, 0.3705, 0.2017, 0.5591, 0.1204, 0.2815, 0.4536, 0.7132, 0.8751,
    ];
    let vval = [
        -9.0572e-2, 4.4844, -1.0856e-2, -0.7736, -5.3718e-2, -0.3495, 2.6152e-2, -0.7286,
        -5.8387e-2, 0.1611, 9.5807e-2, -0.7978, -3.1926e-2, -0.4457, -6.4170e-2, 3.2813e-2,
        -2.0636e-2, 0.3350, 4.0172e-2, -4.1032e-2,
    ];
    let mut warn = Vec::new();
    ehg128(&tr, &vval, &[z], &mut warn)
}

/// ehg141: the lookup-table approximation of delta1 and delta2 from
/// trace(L).
fn ehg141(
    trl: f64,
    n: usize,
    deg: usize,
    k: usize,
    d: usize,
    nsing: usize,
    warn: &mut Vec<String>,
) -> (usize, f64, f64) {
    const C: [f64; 48] = [
        0.2971620, 0.3802660, 0.5886043, 0.4263766, 0.3346498, 0.6271053, 0.5241198, 0.3484836,
        0.6687687, 0.6338795, 0.4076457, 0.7207693, 0.1611761, 0.3091323, 0.4401023, 0.2939609,
        0.3580278, 0.5555741, 0.3972390, 0.4171278, 0.6293196, 0.4675173, 0.4699070, 0.6674802,
        0.2848308, 0.2254512, 0.2914126, 0.5393624, 0.2517230, 0.3898970, 0.7603231, 0.2969113,
        0.4740130, 0.9664956, 0.3629838, 0.5348889, 0.2075670, 0.2822574, 0.2369957, 0.3911566,
        0.2981154, 0.3623232, 0.5508869, 0.3501989, 0.4371032, 0.7002667, 0.4291632, 0.4930370,
    ];
    let dk = match deg {
        0 => 1,
        1 => d + 1,
        _ => ((d + 2) * (d + 1)) / 2,
    };
    let nn = n as f64;
    let corx = (k as f64 / nn).sqrt();
    let mut z = ((k as f64 / trl).sqrt() - corx) / (1.0 - corx);
    if nsing == 0 && 1.0 < z {
        warn.push(format!("Chernobyl! trL<k {}", g5(trl)));
    } else if z < 0.0 {
        warn.push(format!("Chernobyl! trL>n {}", g5(trl)));
    }
    z = fmin(1.0, fmax(0.0, z));
    let c4 = ehg176(z).exp();
    let mut i = 1 + 3 * (d.min(4) - 1 + 4 * (deg - 1));
    let coef = |i: usize| -> (f64, f64, f64) {
        if d <= 4 {
            (C[i - 1], C[i], C[i + 1])
        } else {
            let e = (d - 4) as f64;
            (
                C[i - 1] + e * (C[i - 1] - C[i - 4]),
                C[i] + e * (C[i] - C[i - 3]),
                C[i + 1] + e * (C[i + 1] - C[i - 2]),
            )
        }
    };
    let (c1, c2, c3) = coef(i);
    let delta1 = nn - trl * (c1 * z.powf(c2) * (1.0 - z).powf(c3) * c4).exp();
    i += 24;
    let (c1, c2, c3) = coef(i);
    let delta2 = nn - trl * (c1 * z.powf(c2) * (1.0 - z).powf(c3) * c4).exp();
    (dk, delta1, delta2)
}

/// lowesa: delta1 and delta2 interpolated between the degree 1 and 2
/// approximations.
fn lowesa(
    trl: f64,
    n: usize,
    d: usize,
    tau: usize,
    nsing: usize,
    warn: &mut Vec<String>,
) -> (f64, f64) {
    let (dka, d1a, d2a) = ehg141(trl, n, 1, tau, d, nsing, warn);
    let (dkb, d1b, d2b) = ehg141(trl, n, 2, tau, d, nsing, warn);
    let alpha = (tau as f64 - dka as f64) / (dkb as f64 - dka as f64);
    (
        (1.0 - alpha) * d1a + alpha * d1b,
        (1.0 - alpha) * d2a + alpha * d2b,
    )
}

/// ehg196 (with ehg197): trace(L) approximated from the span.
fn ehg196(tau: usize, d: usize, f: f64) -> f64 {
    let ehg197 = |deg: usize| -> (usize, f64) {
        let dk = match deg {
            1 => d + 1,
            _ => ((d + 2) * (d + 1)) / 2,
        };
        let df = d as f64;
        let g1 = (-0.08125 * df + 0.13) * df + 1.05;
        (dk, dk as f64 * (1.0 + fmax(0.0, (g1 - f) / f)))
    };
    let (dka, trla) = ehg197(1);
    let (dkb, trlb) = ehg197(2);
    let alpha = (tau as f64 - dka as f64) / (dkb as f64 - dka as f64);
    (1.0 - alpha) * trla + alpha * trlb
}

/// lowesc: trace(L), delta1 = trace((I-L)(I-L)') and delta2 = trace of
/// its square, from the full operator L (n x n).
fn lowesc(n: usize, l: &mut [f64]) -> (f64, f64, f64) {
    for i in 0..n {
        l[i + i * n] -= 1.0;
    }
    let mut ll = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            ll[i + j * n] = ddot(n, l, i, n, l, j, n);
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            ll[i + j * n] = ll[j + i * n];
        }
    }
    for i in 0..n {
        l[i + i * n] += 1.0;
    }
    let mut trl = 0.0;
    let mut delta1 = 0.0;
    for i in 0..n {
        trl += l[i + i * n];
        delta1 += ll[i + i * n];
    }
    let mut delta2 = 0.0;
    for i in 0..n {
        delta2 += ddot(n, &ll, i, n, &ll, i * n, 1);
    }
    (trl, delta1, delta2)
}

/// lowesw: the bisquare robustness weights from the residuals.
fn lowesw(res: &[f64]) -> Vec<f64> {
    let n = res.len();
    let mut rw: Vec<f64> = res.iter().map(|r| r.abs()).collect();
    let mut pi: Vec<usize> = (0..=n).collect();
    let nh = n / 2 + 1;
    let cmad = {
        let r = rw.clone();
        let p = |i: usize| r[i - 1];
        ehg106(1, n, nh, &p, &mut pi);
        if (n - nh) + 1 < nh {
            ehg106(1, nh - 1, nh - 1, &p, &mut pi);
            3.0 * (r[pi[nh] - 1] + r[pi[nh - 1] - 1])
        } else {
            6.0 * r[pi[nh] - 1]
        }
    };
    let rsmall = f64::MIN_POSITIVE;
    if cmad < rsmall {
        rw.iter_mut().for_each(|v| *v = 1.0);
    } else {
        for v in rw.iter_mut() {
            if cmad * 0.999 < *v {
                *v = 0.0;
            } else if cmad * 0.001 < *v {
                let t = *v / cmad;
                let u = 1.0 - t * t;
                *v = u * u;
            } else {
                *v = 1.0;
            }
        }
    }
    rw
}

/// lowesp: the pseudovalues of a robust fit.
fn lowesp(y: &[f64], yhat: &[f64], pwgts: &[f64], rwgts: &[f64]) -> Vec<f64> {
    let n = y.len();
    let mut yt: Vec<f64> = (0..n)
        .map(|i| (y[i] - yhat[i]).abs() * pwgts[i].sqrt())
        .collect();
    let mut pi: Vec<usize> = (0..=n).collect();
    let m = n / 2 + 1;
    let mad = {
        let r = yt.clone();
        let p = |i: usize| r[i - 1];
        ehg106(1, n, m, &p, &mut pi);
        if (n - m) + 1 < m {
            ehg106(1, m - 1, m - 1, &p, &mut pi);
            (r[pi[m - 1] - 1] + r[pi[m] - 1]) / 2.0
        } else {
            r[pi[m] - 1]
        }
    };
    let c = (6.0 * mad) * (6.0 * mad) / 5.0;
    for i in 0..n {
        let r = y[i] - yhat[i];
        yt[i] = 1.0 - ((r * r) * pwgts[i]) / c;
    }
    for i in 0..n {
        yt[i] *= rwgts[i].sqrt();
    }
    let i4 = if n == 0 {
        0.0
    } else {
        let mut i1 = yt[n - 1];
        for i2 in (0..n - 1).rev() {
            i1 += yt[i2];
        }
        i1
    };
    let c = n as f64 / i4;
    (0..n)
        .map(|i| yhat[i] + (c * rwgts[i]) * (y[i] - yhat[i]))
        .collect()
}

/// ehg169 (loess_grow): the k-d tree's vertices and cells rebuilt from
/// a fit's `kd` (the cut axes and points, the box's corners, vval).
fn ehg169(
    d: usize,
    nc: usize,
    nv: usize,
    a: &[usize],
    xi: &[f64],
    vert: &[f64],
    vval: &[f64],
) -> Option<Tree> {
    // One size for the vertex and the cell arrays (a cut makes up to
    // 2^(d-1) vertices, some found again), so room for both counts.
    let mut tr = Tree::new(d, nv.max(nc) + (1 << d));
    let vc = tr.vc;
    if a.len() < nc || xi.len() < nc || nc == 0 || nc > tr.nvmax {
        return None;
    }
    let nvmax = tr.nvmax;
    for i in 0..d {
        tr.v[i * nvmax] = vert[i];
        tr.v[(vc - 1) + i * nvmax] = vert[i + d];
    }
    for i in 2..vc {
        let mut j = i - 1;
        for k in 1..=d {
            tr.v[(i - 1) + (k - 1) * nvmax] = tr.v[(j % 2) * (vc - 1) + (k - 1) * nvmax];
            j /= 2;
        }
    }
    tr.a[1..=nc].copy_from_slice(&a[..nc]);
    tr.xi[1..=nc].copy_from_slice(&xi[..nc]);
    let mut mc = 1;
    tr.nv = vc;
    for j in 1..=vc {
        tr.c[j - 1] = j;
    }
    for p in 1..=nc {
        if tr.a[p] != 0 {
            let k = tr.a[p];
            if k > d || mc + 2 > nc {
                return None;
            }
            mc += 1;
            tr.lo[p] = mc;
            mc += 1;
            tr.hi[p] = mc;
            let (lp, hp, xip) = (tr.lo[p], tr.hi[p], tr.xi[p]);
            if !ehg125(&mut tr, p, k, xip, lp, hp) {
                return None;
            }
        }
    }
    if mc != nc || tr.nv != nv {
        return None;
    }
    tr.nc = nc;
    let mut vv = vec![0.0; (d + 1) * tr.nvmax];
    vv[..(d + 1) * nv].copy_from_slice(&vval[..(d + 1) * nv]);
    tr.vval = vv;
    Some(tr)
}
