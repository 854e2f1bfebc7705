//! R's self-starting nonlinear models and what their starting values are
//! made of. The models (`SSlogis`, `SSasymp`, ..., stats/R/zzModels.R)
//! give their value with a "gradient" attribute, which `nls` takes in
//! place of numerical derivatives; their `initial` functions, run by
//! `getInitial` and by `nls` without `start`, are ported here each in its
//! original's shape: the same linearising `lm` fits, then a partially
//! linear `nls` fit (`plinear`), so the start values are R's to the last
//! digit. `sortedXyData`, `NLSstClosestX`, `NLSstRtAsymptote`,
//! `NLSstLfAsymptote` and `NLSstAsymptotic` follow stats/R/selfStart.R.
//!
//! A model's parameters are named by the arguments it is called with
//! (`SSlogis(x, Asym, xmid, scal)`): the evaluator hands the kernel their
//! text (see `exec::eval::nls`), and, for `getInitial` and `nls`, the
//! inputs' and the response's values.

use nalgebra::DMatrix;

use super::super::arith::ops::r_pow;
use super::super::frame;
use super::super::linalg::linpack::dqrdc2;
use super::super::names;
use super::super::summary::mean;
use super::super::value::{List, RowNames, NA};
use super::super::{
    opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS,
};
use super::nls::{nls_iter, read_control, Control};
use super::plinear::{qr_coef, Plinear};

/// The hidden argument through which the evaluator hands a model the text
/// of each parameter argument that is a bare name ("" for any other),
/// R's `.actualArgs`.
pub const ACTUAL_ARGS: &str = "\0actualArgs";

/// A selfStart model: its formals in order, its parameters (R's
/// `pnames`, in the gradient's order) and its data inputs.
pub struct Spec {
    pub name: &'static str,
    pub formals: &'static [&'static str],
    pub params: &'static [&'static str],
    pub inputs: &'static [&'static str],
}

pub const MODELS: [Spec; 10] = [
    Spec {
        name: "SSasymp",
        formals: &["input", "Asym", "R0", "lrc"],
        params: &["Asym", "R0", "lrc"],
        inputs: &["input"],
    },
    Spec {
        name: "SSasympOff",
        formals: &["input", "Asym", "lrc", "c0"],
        params: &["Asym", "lrc", "c0"],
        inputs: &["input"],
    },
    Spec {
        name: "SSasympOrig",
        formals: &["input", "Asym", "lrc"],
        params: &["Asym", "lrc"],
        inputs: &["input"],
    },
    Spec {
        name: "SSbiexp",
        formals: &["input", "A1", "lrc1", "A2", "lrc2"],
        params: &["A1", "lrc1", "A2", "lrc2"],
        inputs: &["input"],
    },
    Spec {
        name: "SSfol",
        formals: &["Dose", "input", "lKe", "lKa", "lCl"],
        params: &["lKe", "lKa", "lCl"],
        inputs: &["Dose", "input"],
    },
    Spec {
        name: "SSfpl",
        formals: &["input", "A", "B", "xmid", "scal"],
        params: &["A", "B", "xmid", "scal"],
        inputs: &["input"],
    },
    Spec {
        name: "SSlogis",
        formals: &["input", "Asym", "xmid", "scal"],
        params: &["Asym", "xmid", "scal"],
        inputs: &["input"],
    },
    Spec {
        name: "SSmicmen",
        formals: &["input", "Vm", "K"],
        params: &["Vm", "K"],
        inputs: &["input"],
    },
    Spec {
        name: "SSgompertz",
        formals: &["x", "Asym", "b2", "b3"],
        params: &["Asym", "b2", "b3"],
        inputs: &["x"],
    },
    Spec {
        name: "SSweibull",
        formals: &["x", "Asym", "Drop", "lrc", "pwr"],
        params: &["Asym", "Drop", "lrc", "pwr"],
        inputs: &["x"],
    },
];

/// The selfStart model called `name`, if it is one.
pub fn spec(name: &str) -> Option<&'static Spec> {
    MODELS.iter().find(|s| s.name == name)
}

macro_rules! model_kernel {
    ($name:literal, [$($p:literal),*]) => {
        Kernel {
            name: $name,
            params: &[$(req($p)),*, opt(ACTUAL_ARGS)],
            random: false,
            shape: model_shape,
            eval: model_eval,
        }
    };
}

pub(crate) static KERNELS: &[Kernel] = &[
    model_kernel!("SSasymp", ["input", "Asym", "R0", "lrc"]),
    model_kernel!("SSasympOff", ["input", "Asym", "lrc", "c0"]),
    model_kernel!("SSasympOrig", ["input", "Asym", "lrc"]),
    model_kernel!("SSbiexp", ["input", "A1", "lrc1", "A2", "lrc2"]),
    model_kernel!("SSfol", ["Dose", "input", "lKe", "lKa", "lCl"]),
    model_kernel!("SSfpl", ["input", "A", "B", "xmid", "scal"]),
    model_kernel!("SSlogis", ["input", "Asym", "xmid", "scal"]),
    model_kernel!("SSmicmen", ["input", "Vm", "K"]),
    model_kernel!("SSgompertz", ["x", "Asym", "b2", "b3"]),
    model_kernel!("SSweibull", ["x", "Asym", "Drop", "lrc", "pwr"]),
    Kernel {
        name: "getInitial",
        params: &[req("object"), opt("data"), DOTS],
        random: false,
        shape: initial_shape,
        eval: initial_eval,
    },
    Kernel {
        name: "sortedXyData",
        params: &[req("x"), req("y"), opt("data")],
        random: false,
        shape: sorted_shape,
        eval: sorted_eval,
    },
    Kernel {
        name: "NLSstClosestX",
        params: &[req("xy"), req("yval")],
        random: false,
        shape: scalar_shape,
        eval: closest_eval,
    },
    Kernel {
        name: "NLSstRtAsymptote",
        params: &[req("xy")],
        random: false,
        shape: scalar_shape,
        eval: rt_eval,
    },
    Kernel {
        name: "NLSstLfAsymptote",
        params: &[req("xy")],
        random: false,
        shape: scalar_shape,
        eval: lf_eval,
    },
    Kernel {
        name: "NLSstAsymptotic",
        params: &[req("xy")],
        random: false,
        shape: asymptotic_shape,
        eval: asymptotic_eval,
    },
];

fn numbers(v: Option<&Value>, what: &str) -> Result<Vec<f64>, KernelError> {
    match v.map(names::bare) {
        Some(Value::Num(x)) => Ok(x.clone()),
        Some(Value::Mat(m)) => Ok(m.as_slice().to_vec()),
        Some(Value::Bool(b)) => Ok(b
            .iter()
            .map(|b| b.map_or(NA, |b| f64::from(u8::from(b))))
            .collect()),
        Some(other) => Err(KernelError::new(format!(
            "non-numeric argument to mathematical function ('{what}' is {})",
            other.type_name()
        ))),
        None => Err(KernelError::new(format!(
            "argument \"{what}\" is missing, with no default"
        ))),
    }
}

/// The model's value and its gradient's columns (one per parameter, in
/// the spec's order), element by element with R's recycling; each
/// expression as zzModels.R writes it, so the rounding is R's.
fn evaluate(name: &str, a: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = if a.iter().any(Vec::is_empty) {
        0
    } else {
        a.iter().map(Vec::len).max().unwrap_or(0)
    };
    let k = match name {
        "SSasympOrig" | "SSmicmen" => 2,
        "SSasymp" | "SSasympOff" | "SSfol" | "SSlogis" | "SSgompertz" => 3,
        _ => 4,
    };
    let mut value = Vec::with_capacity(n);
    let mut grad = vec![Vec::with_capacity(n); k];
    for i in 0..n {
        let v = |j: usize| a[j][i % a[j].len()];
        let (val, g): (f64, Vec<f64>) = match name {
            "SSasymp" => {
                let (input, asym, r0, lrc) = (v(0), v(1), v(2), v(3));
                let e1 = r0 - asym;
                let e2 = lrc.exp();
                let e5 = ((-e2) * input).exp();
                (
                    asym + e1 * e5,
                    vec![1.0 - e5, e5, -(e1 * (e5 * (e2 * input)))],
                )
            }
            "SSasympOff" => {
                let (input, asym, lrc, c0) = (v(0), v(1), v(2), v(3));
                let e1 = lrc.exp();
                let e3 = input - c0;
                let e5 = ((-e1) * e3).exp();
                let e6 = 1.0 - e5;
                (
                    asym * e6,
                    vec![e6, asym * (e5 * (e1 * e3)), -(asym * (e5 * e1))],
                )
            }
            "SSasympOrig" => {
                let (input, asym, lrc) = (v(0), v(1), v(2));
                let e1 = lrc.exp();
                let e4 = ((-e1) * input).exp();
                let e5 = 1.0 - e4;
                (asym * e5, vec![e5, asym * (e4 * (e1 * input))])
            }
            "SSbiexp" => {
                let (input, a1, lrc1, a2, lrc2) = (v(0), v(1), v(2), v(3), v(4));
                let e1 = lrc1.exp();
                let e4 = ((-e1) * input).exp();
                let e6 = lrc2.exp();
                let e9 = ((-e6) * input).exp();
                (
                    a1 * e4 + a2 * e9,
                    vec![
                        e4,
                        -(a1 * (e4 * (e1 * input))),
                        e9,
                        -(a2 * (e9 * (e6 * input))),
                    ],
                )
            }
            "SSfol" => {
                let (dose, input, lke, lka, lcl) = (v(0), v(1), v(2), v(3), v(4));
                let e4 = dose * ((lke + lka) - lcl).exp();
                let e5 = lke.exp();
                let e8 = (-e5 * input).exp();
                let e9 = lka.exp();
                let e12 = (-e9 * input).exp();
                let e14 = e4 * (e8 - e12);
                let e15 = e9 - e5;
                let e16 = e14 / e15;
                let e23 = e15 * e15;
                (
                    e16,
                    vec![
                        (e14 - e4 * (e8 * (e5 * input))) / e15 + e14 * e5 / e23,
                        (e14 + e4 * (e12 * (e9 * input))) / e15 - e14 * e9 / e23,
                        -e16,
                    ],
                )
            }
            "SSfpl" => {
                let (input, a_, b_, xmid, scal) = (v(0), v(1), v(2), v(3), v(4));
                let e1 = b_ - a_;
                let e2 = xmid - input;
                let e_2 = e2 / scal;
                let e4 = e_2.exp();
                let e5 = 1.0 + e4;
                let e8 = 1.0 / e5;
                let e13 = e5 * e5;
                let xm = e1 * e4 / scal / e13;
                (a_ + e1 / e5, vec![1.0 - e8, e8, -xm, xm * e_2])
            }
            "SSlogis" => {
                let (input, asym, xmid, scal) = (v(0), v(1), v(2), v(3));
                let e1 = xmid - input;
                let e2 = e1 / scal;
                let e3 = e2.exp();
                let e4 = 1.0 + e3;
                let e10 = e4 * e4;
                let xm = asym * e3 / scal / e10;
                (asym / e4, vec![1.0 / e4, -xm, xm * e2])
            }
            "SSmicmen" => {
                let (input, vm, k) = (v(0), v(1), v(2));
                let e1 = vm * input;
                let e2 = k + input;
                (e1 / e2, vec![input / e2, -(e1 / (e2 * e2))])
            }
            "SSgompertz" => {
                let (x, asym, b2, b3) = (v(0), v(1), v(2), v(3));
                let e2 = r_pow(b3, x);
                let e4 = (-b2 * e2).exp();
                (
                    asym * e4,
                    vec![
                        e4,
                        -asym * (e4 * e2),
                        -asym * (e4 * (b2 * (r_pow(b3, x - 1.0) * x))),
                    ],
                )
            }
            _ => {
                // SSweibull
                let (x, asym, drop, lrc, pwr) = (v(0), v(1), v(2), v(3), v(4));
                let e1 = lrc.exp();
                let e3 = r_pow(x, pwr);
                let ee = e1 * e3;
                let e5 = (-ee).exp();
                let de = drop * e5;
                let g_lrc = de * ee;
                (asym - de, vec![1.0, -e5, g_lrc, g_lrc * x.ln()])
            }
        };
        value.push(val);
        for (col, x) in grad.iter_mut().zip(g) {
            col.push(x);
        }
    }
    (value, grad)
}

fn model_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let name = args_name(args)?;
    let spec = spec(name).ok_or_else(|| KernelError::new("not a selfStart model"))?;
    let actual: Option<Vec<String>> = match args.get(ACTUAL_ARGS).map(names::bare) {
        None => None,
        Some(Value::Str(s)) => Some(s.clone()),
        Some(_) => return Err(KernelError::new("unused argument")),
    };
    let a: Vec<Vec<f64>> = spec
        .formals
        .iter()
        .map(|f| numbers(args.get(f), f))
        .collect::<Result<_, _>>()?;
    let (value, grad) = evaluate(spec.name, &a);
    // R attaches the gradient only when every parameter is given as a
    // name, which names its column.
    let Some(cols) =
        actual.filter(|c| c.len() == spec.params.len() && c.iter().all(|c| !c.is_empty()))
    else {
        return Ok(Value::Num(value));
    };
    let n = value.len();
    let g = DMatrix::from_fn(n, grad.len(), |i, j| grad[j][i]);
    let g = names::dimnamed(Value::Mat(g), None, Some(cols));
    Ok(names::with_attr(Value::Num(value), "gradient", g))
}

/// Which model a kernel was called as: its first formal tells them apart
/// with its parameters.
fn args_name(args: &Args<&Value>) -> Result<&'static str, KernelError> {
    let params: Vec<&str> = args
        .params()
        .iter()
        .map(|p| p.name)
        .filter(|n| *n != ACTUAL_ARGS)
        .collect();
    MODELS
        .iter()
        .find(|s| s.formals == params.as_slice())
        .map(|s| s.name)
        .ok_or_else(|| KernelError::new("not a selfStart model"))
}

fn model_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let lens: Vec<Option<usize>> = args
        .params()
        .iter()
        .filter(|p| p.name != ACTUAL_ARGS)
        .map(|p| args.ty(p.name).and_then(Type::len))
        .collect();
    let len = if lens.iter().all(Option::is_some) {
        lens.iter().flatten().copied().max()
    } else {
        None
    };
    Ok(Type::Num { len, value: None })
}

/// The x values, their mean responses, and the frame's row numbers when
/// na.omit dropped rows (else empty: R's automatic row names).
type SortedXy = (Vec<f64>, Vec<f64>, Vec<i32>);

/// `sortedXyData.default(x, y)`: the mean response at each distinct x
/// (R's `tapply(y, x, mean, na.rm = TRUE)`, x read back from the
/// factor's levels, 15 significant digits), sorted by x, NA rows left
/// out.
pub(crate) fn sorted_xy(x: &[f64], y: &[f64]) -> Result<SortedXy, KernelError> {
    if x.len() != y.len() {
        return Err(KernelError::new("arguments must have same length"));
    }
    let level = |v: f64| -> f64 { format!("{v:.14e}").parse().unwrap_or(v) };
    let mut keys: Vec<f64> = x
        .iter()
        .filter(|v| !v.is_nan())
        .map(|&v| level(v))
        .collect();
    keys.sort_by(|a, b| a.total_cmp(b));
    keys.dedup();
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let mut rows = Vec::new();
    let mut dropped = false;
    for (r, &k) in keys.iter().enumerate() {
        let cell: Vec<f64> = x
            .iter()
            .zip(y)
            .filter(|(xv, yv)| !xv.is_nan() && level(**xv) == k && !yv.is_nan())
            .map(|(_, yv)| *yv)
            .collect();
        let m = mean(&cell);
        if m.is_nan() {
            dropped = true;
            continue;
        }
        xs.push(k);
        ys.push(m);
        rows.push(r as i32 + 1);
    }
    if !dropped {
        rows.clear();
    }
    Ok((xs, ys, rows))
}

fn xy_frame(x: Vec<f64>, y: Vec<f64>, rows: Vec<i32>) -> Value {
    let rows = (!rows.is_empty()).then_some(RowNames::Numbers(rows));
    frame::named_frame(
        vec!["x".into(), "y".into()],
        vec![Value::Num(x), Value::Num(y)],
        rows,
    )
}

/// x or y of `sortedXyData`: numbers, or a column's name in `data`.
fn xy_arg(args: &Args<&Value>, name: &str) -> Result<Vec<f64>, KernelError> {
    match args.get(name).map(names::bare) {
        Some(Value::Str(s)) if s.len() == 1 => {
            let col = args
                .get("data")
                .and_then(|d| match names::bare(d) {
                    Value::List(l) => l.field(&s[0]).cloned(),
                    _ => None,
                })
                .ok_or_else(|| KernelError::new(format!("object '{}' not found", s[0])))?;
            numbers(Some(&col), name)
        }
        v => numbers(v, name),
    }
}

fn sorted_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = xy_arg(args, "x")?;
    let y = xy_arg(args, "y")?;
    let (x, y, rows) = sorted_xy(&x, &y)?;
    Ok(xy_frame(x, y, rows))
}

fn sorted_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Record {
        class: frame::CLASS.to_string(),
        fields: vec![
            ("x".to_string(), Type::num_unknown()),
            ("y".to_string(), Type::num_unknown()),
        ],
    })
}

fn scalar_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num(1))
}

fn asymptotic_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num(3))
}

fn initial_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num_unknown())
}

/// A sortedXyData frame's columns.
fn xy_of(v: Option<&Value>) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
    let Some(Value::List(l)) = v.map(names::bare) else {
        return Err(KernelError::new(
            "flowcast's NLSst functions take a sortedXyData frame (x and y columns)",
        ));
    };
    let x = numbers(l.field("x"), "x")?;
    let y = numbers(l.field("y"), "y")?;
    Ok((x, y))
}

/// `NLSstClosestX.sortedXyData`: the x whose y is closest to `yval`,
/// interpolated linearly between the points either side.
pub(crate) fn closest_x(x: &[f64], y: &[f64], yval: f64) -> Result<f64, KernelError> {
    if x.len() != y.len() {
        return Err(KernelError::new("the frame's x and y differ in length"));
    }
    let dev: Vec<f64> = y.iter().map(|y| y - yval).collect();
    if dev.iter().any(|d| d.is_nan()) {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    if let Some(i) = dev.iter().position(|d| *d == 0.0) {
        return Ok(x[i]);
    }
    let at = |d: f64| x[dev.iter().position(|v| *v == d).unwrap_or(0)];
    let (mut dev1, mut lim1) = (NA, NA);
    if dev.iter().any(|d| *d <= 0.0) {
        dev1 = dev
            .iter()
            .copied()
            .filter(|d| *d <= 0.0)
            .fold(f64::NEG_INFINITY, f64::max);
        lim1 = at(dev1);
        if dev.iter().all(|d| *d <= 0.0) {
            return Ok(lim1);
        }
    }
    let (mut dev2, mut lim2) = (NA, NA);
    if dev.iter().any(|d| *d >= 0.0) {
        dev2 = dev
            .iter()
            .copied()
            .filter(|d| *d >= 0.0)
            .fold(f64::INFINITY, f64::min);
        lim2 = at(dev2);
        if dev.iter().all(|d| *d >= 0.0) {
            return Ok(lim2);
        }
    }
    let (dev1, dev2) = (dev1.abs(), dev2.abs());
    Ok(lim1 + (lim2 - lim1) * dev1 / (dev1 + dev2))
}

/// NLSstRtAsymptote (`last`) and NLSstLfAsymptote: the range's end the
/// last (first) response is nearer, an eighth of the range beyond it.
pub(crate) fn asymptote(y: &[f64], last: bool) -> Result<f64, KernelError> {
    if y.is_empty() {
        return Err(KernelError::new("argument of length 0"));
    }
    let lo = y.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let end = if last { y[y.len() - 1] } else { y[0] };
    let (d0, d1) = ((lo - end).abs(), (hi - end).abs());
    // match(min(dif), dif) == 2: the maximum strictly nearer.
    Ok(if d1 < d0 {
        hi + (hi - lo) / 8.0
    } else {
        lo - (hi - lo) / 8.0
    })
}

fn closest_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let (x, y) = xy_of(args.get("xy"))?;
    let yval = numbers(args.get("yval"), "yval")?;
    let Some(&yval) = yval.first() else {
        return Err(KernelError::new("argument of length 0"));
    };
    Ok(Value::scalar(closest_x(&x, &y, yval)?))
}

fn rt_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let (_, y) = xy_of(args.get("xy"))?;
    Ok(Value::scalar(asymptote(&y, true)?))
}

fn lf_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let (_, y) = xy_of(args.get("xy"))?;
    Ok(Value::scalar(asymptote(&y, false)?))
}

fn asymptotic_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (x, y) = xy_of(args.get("xy"))?;
    let (c, _) = read_control(None)?;
    let b = nlsst_asymptotic(&x, &y, c, ctx)?;
    Ok(names::named(
        Value::Num(b.to_vec()),
        vec!["b0".into(), "b1".into(), "lrc".into()],
    ))
}

/// `coef(lm(y ~ x))` for the rows where both are present (R's model
/// frame drops NA rows), by R's `dqrls`: `dqrdc2`, tolerance 1e-7, and
/// `dqrsl`; an aliased slope is NA.
pub(crate) fn lm_line(x: &[f64], y: &[f64]) -> Result<[f64; 2], KernelError> {
    let rows: Vec<usize> = (0..x.len().min(y.len()))
        .filter(|&i| !x[i].is_nan() && !y[i].is_nan())
        .collect();
    let n = rows.len();
    if n == 0 {
        return Err(KernelError::new("0 (non-NA) cases"));
    }
    if rows.iter().any(|&i| !x[i].is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'x'"));
    }
    if rows.iter().any(|&i| !y[i].is_finite()) {
        return Err(KernelError::new("NA/NaN/Inf in 'y'"));
    }
    let mut design = vec![1.0; n];
    design.extend(rows.iter().map(|&i| x[i]));
    let qr = dqrdc2(design, n, 2, 1e-7);
    let yy: Vec<f64> = rows.iter().map(|&i| y[i]).collect();
    let c = qr_coef(&qr, &yy)?;
    Ok([c[0], c[1]])
}

/// A partially linear fit of `lhs ~ rhs(pars)` from `start`, as the
/// initial functions call `nls(..., algorithm = "plinear")`: the
/// nonlinear parameters, then `.lin`.
fn plinear(
    rhs: impl FnMut(&[f64]) -> (Vec<f64>, usize) + 'static,
    lhs: &[f64],
    start: Vec<f64>,
    c: Control,
    ctx: &mut Ctx,
) -> Result<(Vec<f64>, Vec<f64>), KernelError> {
    let mut rhs = rhs;
    let f: super::plinear::Rhs = Box::new(move |p: &[f64], _: &mut Ctx| Ok(rhs(p)));
    let mut m = Plinear::new(
        f,
        lhs.to_vec(),
        None,
        start,
        (c.central, c.scale_offset),
        ctx,
    )?;
    nls_iter(&mut m, c, ctx)?;
    Ok((m.pars.clone(), m.lin.clone()))
}

/// `NLSstAsymptotic.sortedXyData`: `b0 + b1 * (1 - exp(-exp(lrc) * x))`
/// by plinear, `lrc` started from a log-linear fit to the distance from
/// the right asymptote.
pub(crate) fn nlsst_asymptotic(
    x: &[f64],
    y: &[f64],
    c: Control,
    ctx: &mut Ctx,
) -> Result<[f64; 3], KernelError> {
    let rt = asymptote(y, true)?;
    let ly: Vec<f64> = y.iter().map(|y| (y - rt).abs().ln()).collect();
    let slope = lm_line(x, &ly)?[1];
    let lrc = (-slope).ln();
    let xs = x.to_vec();
    let (p, lin) = plinear(
        move |p| {
            let mut out = vec![1.0; xs.len()];
            out.extend(xs.iter().map(|x| 1.0 - ((-p[0].exp()) * x).exp()));
            (out, 2)
        },
        y,
        vec![lrc],
        c,
        ctx,
    )?;
    Ok([lin[0], lin[1], p[0]])
}

/// The parameters' names a selfStart call gives: its arguments' text.
pub(crate) fn param_names(ss: &List) -> Vec<String> {
    match ss.field("params").map(names::bare) {
        Some(Value::Str(s)) => s.clone(),
        _ => Vec::new(),
    }
}

fn field_nums(ss: &List, name: &str) -> Result<Vec<f64>, KernelError> {
    numbers(ss.field(name), name)
}

/// R's getInitial for a selfStart model: its `initial` function, on the
/// inputs and response the evaluator found (`ss`, see
/// `exec::eval::nls`), as named start values.
pub(crate) fn initial(
    ss: &List,
    c: Control,
    ctx: &mut Ctx,
) -> Result<Vec<(String, f64)>, KernelError> {
    let model = match ss.field("model").map(names::bare) {
        Some(Value::Str(s)) if !s.is_empty() => s[0].clone(),
        _ => return Err(KernelError::new("not a selfStart model")),
    };
    let pn = param_names(ss);
    let lhs = match ss.field("lhs") {
        Some(v) => numbers(Some(v), "LHS")?,
        None => Vec::new(),
    };
    let input = field_nums(ss, "input")?;
    let named = |vals: Vec<f64>| -> Vec<(String, f64)> { pn.iter().cloned().zip(vals).collect() };
    if model == "SSfol" {
        let dose = field_nums(ss, "Dose")?;
        let v = initial_fol(&dose, &input, &lhs, c, ctx)?;
        return Ok(["lKe", "lKa", "lCl"]
            .iter()
            .map(|s| s.to_string())
            .zip(v)
            .collect());
    }
    let (x, y, _) = sorted_xy(&input, &lhs)?;
    let n = x.len();
    let too_few = |k: usize, what: &str| -> Result<(), KernelError> {
        if n < k {
            Err(KernelError::new(format!(
                "too few distinct input values to fit {what}"
            )))
        } else {
            Ok(())
        }
    };
    let xs = x.clone();
    let vals: Vec<f64> = match model.as_str() {
        "SSlogis" => {
            too_few(4, "a logistic model")?;
            let lo = y.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let dz = hi - lo;
            let z: Vec<f64> = y
                .iter()
                .map(|y| {
                    let z = (y - lo + 0.05 * dz) / (1.1 * dz);
                    (z / (1.0 - z)).ln()
                })
                .collect();
            let aux = lm_line(&z, &x)?;
            let (p, lin) = plinear(
                move |p| {
                    let v = xs.iter().map(|x| 1.0 / (1.0 + ((p[0] - x) / p[1]).exp()));
                    (v.collect(), 1)
                },
                &y,
                vec![aux[0], aux[1]],
                c,
                ctx,
            )?;
            vec![lin[0], p[0], p[1]]
        }
        "SSmicmen" => {
            too_few(3, "a Michaelis-Menten model")?;
            let ix: Vec<f64> = x.iter().map(|x| 1.0 / x).collect();
            let iy: Vec<f64> = y.iter().map(|y| 1.0 / y).collect();
            let b = lm_line(&ix, &iy)?;
            let (p, lin) = plinear(
                move |p| (xs.iter().map(|x| x / (p[0] + x)).collect(), 1),
                &y,
                vec![(b[1] / b[0]).abs()],
                c,
                ctx,
            )?;
            vec![lin[0], p[0]]
        }
        "SSasympOrig" => {
            too_few(3, "the 'asympOrig' model")?;
            let a0 = asymptote(&y, true)?;
            let terms: Vec<f64> = x
                .iter()
                .zip(&y)
                .map(|(x, y)| (1.0 - y / a0).ln() / x)
                .filter(|v| !v.is_nan())
                .collect();
            let lrc = mean(&terms).abs().ln();
            let (p, lin) = plinear(
                move |p| {
                    let v = xs.iter().map(|x| 1.0 - ((-p[0].exp()) * x).exp());
                    (v.collect(), 1)
                },
                &y,
                vec![lrc],
                c,
                ctx,
            )?;
            vec![lin[0], p[0]]
        }
        "SSasymp" => {
            too_few(3, "an asymptotic regression model")?;
            if n > 3 {
                let rt = asymptote(&y, true)?;
                let ld: Vec<f64> = y.iter().map(|y| (y - rt).abs().ln()).collect();
                let lrc = (-lm_line(&x, &ld)?[1]).ln();
                let (p, lin) = plinear(
                    move |p| {
                        let e: Vec<f64> = xs.iter().map(|x| ((-p[0].exp()) * x).exp()).collect();
                        let mut out: Vec<f64> =
                            xs.iter().map(|x| 1.0 - ((-p[0].exp()) * x).exp()).collect();
                        out.extend(e);
                        (out, 2)
                    },
                    &y,
                    vec![lrc],
                    c,
                    ctx,
                )?;
                vec![lin[0], lin[1], p[0]]
            } else {
                let yd = [y[1] - y[0], y[2] - y[1]];
                if yd[0] * yd[1] <= 0.0 {
                    return Err(KernelError::new(
                        "cannot fit an asymptotic regression model to these data",
                    ));
                }
                let frac = (y[2] - y[0]) / (y[1] - y[0]);
                let xd = [x[1] - x[0], x[2] - x[1]];
                if xd[0] != xd[1] {
                    return Err(KernelError::new(
                        "too few observations to fit an asymptotic regression model",
                    ));
                }
                let expm_rd = frac - 1.0;
                let rc = -expm_rd.ln() / xd[0];
                let lrc = rc.ln();
                let expm_rx1 = (-rc * x[0]).exp();
                let bma = yd[0] / (expm_rx1 * (expm_rd - 1.0));
                let asym = y[0] - bma * expm_rx1;
                vec![asym, bma + asym, lrc]
            }
        }
        "SSasympOff" => {
            too_few(4, "the 'asympOff' model")?;
            let rt = asymptote(&y, true)?;
            let ld: Vec<f64> = y.iter().map(|y| (y - rt).abs().ln()).collect();
            let lrc = (-lm_line(&x, &ld)?[1]).ln();
            let (p, lin) = plinear(
                move |p| {
                    let mut out = vec![1.0; xs.len()];
                    out.extend(xs.iter().map(|x| ((-p[0].exp()) * x).exp()));
                    (out, 2)
                },
                &y,
                vec![lrc],
                c,
                ctx,
            )?;
            vec![lin[0], p[0], (-p[0]).exp() * (-lin[1] / lin[0]).ln()]
        }
        "SSbiexp" => {
            too_few(5, "a biexponential")?;
            let nlast = 3.0f64.max((n as f64 / 2.0).round_ties_even()) as usize;
            let last = n - nlast;
            let ly: Vec<f64> = y[last..].iter().map(|y| y.ln()).collect();
            let p2 = lm_line(&x[last..], &ly)?;
            let lrc2 = p2[1].abs().ln();
            let res: Vec<f64> = x
                .iter()
                .zip(&y)
                .map(|(x, y)| y - p2[0].exp() * ((-lrc2.exp()) * x).exp())
                .collect();
            let lr: Vec<f64> = res[..last].iter().map(|r| r.abs().ln()).collect();
            let p1 = lm_line(&x[..last], &lr)?;
            let lrc1 = p1[1].abs().ln();
            let (p, lin) = plinear(
                move |p| {
                    let mut out: Vec<f64> = xs.iter().map(|x| ((-p[0].exp()) * x).exp()).collect();
                    out.extend(xs.iter().map(|x| ((-p[1].exp()) * x).exp()));
                    (out, 2)
                },
                &y,
                vec![lrc1, lrc2],
                c,
                ctx,
            )?;
            vec![lin[0], p[0], lin[1], p[1]]
        }
        "SSfpl" => {
            too_few(5, "a four-parameter logistic")?;
            let lo = y.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = y.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let drng = hi - lo;
            let lp: Vec<f64> = y
                .iter()
                .map(|y| {
                    let prop = (y - lo + 0.05 * drng) / (1.1 * drng);
                    (prop / (1.0 - prop)).ln()
                })
                .collect();
            let ir = lm_line(&lp, &x)?;
            let (p, lin) = plinear(
                move |p| {
                    let mut out = vec![1.0; xs.len()];
                    out.extend(
                        xs.iter()
                            .map(|x| 1.0 / (1.0 + ((p[0] - x) / p[1].exp()).exp())),
                    );
                    (out, 2)
                },
                &y,
                vec![ir[0], ir[1].abs().ln()],
                c,
                ctx,
            )?;
            vec![lin[0], lin[0] + lin[1], p[0], p[1].exp()]
        }
        "SSgompertz" => {
            too_few(4, "the Gompertz model")?;
            let ly: Vec<f64> = y.iter().map(|y| y.abs().ln()).collect();
            // NLSstAsymptotic is not handed nls's control: its fit runs
            // under the defaults.
            let (defaults, _) = read_control(None)?;
            let b = nlsst_asymptotic(&x, &ly, defaults, ctx)?;
            let (p, lin) = plinear(
                move |p| {
                    let v = xs.iter().map(|x| (-p[0] * r_pow(p[1], *x)).exp());
                    (v.collect(), 1)
                },
                &y,
                vec![b[1], (-b[2].exp()).exp()],
                c,
                ctx,
            )?;
            vec![lin[0], p[0], p[1]]
        }
        "SSweibull" => {
            too_few(5, "the Weibull growth model")?;
            if x.iter().any(|x| *x < 0.0) {
                return Err(KernelError::new(
                    "all 'x' values must be non-negative to fit the Weibull growth model",
                ));
            }
            let ra = asymptote(&y, true)?;
            let la = asymptote(&y, false)?;
            let (mut lx, mut ly) = (Vec::new(), Vec::new());
            for (x, y) in x.iter().zip(&y) {
                if *x > 0.0 {
                    lx.push(x.ln());
                    ly.push((-((ra - y) / (ra - la)).ln()).ln());
                }
            }
            let b = lm_line(&lx, &ly)?;
            let (p, lin) = plinear(
                move |p| {
                    let mut out = vec![1.0; xs.len()];
                    out.extend(xs.iter().map(|x| -((-p[0].exp()) * r_pow(*x, p[1])).exp()));
                    (out, 2)
                },
                &y,
                vec![b[0], b[1]],
                c,
                ctx,
            )?;
            vec![lin[0], lin[1], p[0], p[1]]
        }
        other => {
            return Err(KernelError::new(format!(
                "no 'getInitial' method found for \"{other}\" objects"
            )))
        }
    };
    Ok(named(vals))
}

/// SSfol's `initial`: on the data as they are (not sorted), two plinear
/// fits, the first with lKe held at its log-linear estimate.
fn initial_fol(
    dose: &[f64],
    input: &[f64],
    resp: &[f64],
    c: Control,
    ctx: &mut Ctx,
) -> Result<Vec<f64>, KernelError> {
    let n = resp.len();
    if input.len() != n {
        return Err(KernelError::new(
            "must have length of response = length of second argument to 'SSfol'",
        ));
    }
    if n < 4 {
        return Err(KernelError::new(
            "must have at least 4 observations to fit an 'SSfol' model",
        ));
    }
    if dose.is_empty() {
        return Err(KernelError::new(
            "argument \"Dose\" is missing, with no default",
        ));
    }
    // which.max: the first maximum, NAs skipped.
    let mut rmax = None;
    for (i, r) in resp.iter().enumerate() {
        if !r.is_nan() && rmax.is_none_or(|m: usize| *r > resp[m]) {
            rmax = Some(i);
        }
    }
    let Some(rmax) = rmax else {
        return Err(KernelError::new("argument of length 0"));
    };
    let lke = if rmax == n - 1 {
        -2.5
    } else {
        ((resp[rmax].ln() - resp[n - 1].ln()) / (input[n - 1] - input[rmax])).ln()
    };
    let (inp, d) = (input.to_vec(), dose.to_vec());
    let (p1, _) = plinear(
        move |p| {
            let v = (0..inp.len()).map(|i| {
                ((-inp[i] * lke.exp()).exp() - (-inp[i] * p[0].exp()).exp()) * d[i % d.len()]
            });
            (v.collect(), 1)
        },
        resp,
        vec![lke + 1.0],
        c,
        ctx,
    )?;
    let (inp, d) = (input.to_vec(), dose.to_vec());
    let (p, lin) = plinear(
        move |p| {
            let (lka, lke) = (p[0], p[1]);
            let v = (0..inp.len()).map(|i| {
                (d[i % d.len()] * ((-inp[i] * lke.exp()).exp() - (-inp[i] * lka.exp()).exp()))
                    / (lka.exp() - lke.exp())
            });
            (v.collect(), 1)
        },
        resp,
        vec![p1[0], lke],
        c,
        ctx,
    )?;
    let (lka, lke) = (p[0], p[1]);
    Ok(vec![lke, lka, lke + lka - lin[0].ln()])
}

/// `getInitial(formula, data)`: the evaluator has found the formula's
/// selfStart model and its data (see `exec::eval::nls`).
fn initial_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let ss = match args.get("object").map(names::bare) {
        Some(Value::List(form)) => match form.field(super::nls::handoff::SELF_START) {
            Some(Value::List(ss)) => ss.clone(),
            _ => {
                return Err(KernelError::new(
                    "no 'getInitial' method found for \"function\" objects",
                ))
            }
        },
        _ => {
            return Err(KernelError::new(
                "flowcast's getInitial() needs its formula written in the call: getInitial(y ~ SSlogis(x, Asym, xmid, scal), data = d)",
            ))
        }
    };
    let control = args
        .dots()
        .find(|(n, _)| *n == Some("control"))
        .map(|(_, v)| v);
    let (c, _) = read_control(control)?;
    let init = initial(&ss, c, ctx)?;
    let (n, v): (Vec<String>, Vec<f64>) = init.into_iter().unzip();
    Ok(names::named(Value::Num(v), n))
}
