//! `power.t.test` and `power.prop.test` (stats/R/power.R): the power of a
//! t test or of a two-sample comparison of proportions, or whichever one
//! of its parameters is given as NULL solved for with R's `uniroot` on
//! the power function (the same interval, `extendInt` and tolerance, so
//! the same iterations and the same root). The result is R's
//! `power.htest`: a list of the parameters, `alternative`, `note` and
//! `method`, with that class.

use std::cell::Cell;

use super::acf::match_arg;
use super::args::ArgError;
use super::htest::uniroot::{uniroot, uniroot_extend, Extend};
use super::nmath::pnbeta::pnf;
use super::nmath::pnorm;
use super::nmath::pnt::pnt;
use super::nmath::qfun::qf;
use super::nmath::qnorm::qnorm;
use super::nmath::qt::qt;
use super::value::{List, Value};
use super::{opt, Args, Ctx, Kernel, KernelError, ShapeCtx, Type};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "power.anova.test",
        params: &[
            opt("groups"),
            opt("n"),
            opt("between.var"),
            opt("within.var"),
            opt("sig.level"),
            opt("power"),
        ],
        random: false,
        shape: anova_shape,
        eval: anova_eval,
    },
    Kernel {
        name: "power.t.test",
        params: &[
            opt("n"),
            opt("delta"),
            opt("sd"),
            opt("sig.level"),
            opt("power"),
            opt("type"),
            opt("alternative"),
            opt("strict"),
            opt("tol"),
        ],
        random: false,
        shape: t_shape,
        eval: t_eval,
    },
    Kernel {
        name: "power.prop.test",
        params: &[
            opt("n"),
            opt("p1"),
            opt("p2"),
            opt("sig.level"),
            opt("power"),
            opt("alternative"),
            opt("strict"),
            opt("tol"),
        ],
        random: false,
        shape: prop_shape,
        eval: prop_eval,
    },
];

fn str1() -> Type {
    Type::Str {
        len: Some(1),
        value: None,
    }
}

fn result_type(params: &[&str], note: Type) -> Type {
    let mut fields: Vec<(&str, Type)> = params.iter().map(|p| (*p, Type::num_unknown())).collect();
    fields.push(("alternative", str1()));
    fields.push(("note", note));
    fields.push(("method", str1()));
    Type::record("power.htest", fields)
}

fn t_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let note = match args.const_str("type") {
        Some("one.sample") => Type::Null,
        Some(_) => str1(),
        None if args.has("type") => Type::Any,
        None => str1(),
    };
    Ok(result_type(
        &["n", "delta", "sd", "sig.level", "power"],
        note,
    ))
}

fn prop_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(result_type(
        &["n", "p1", "p2", "sig.level", "power"],
        str1(),
    ))
}

/// A parameter: `None` for R's NULL (given so, or by default).
fn param(
    args: &Args<&Value>,
    name: &str,
    default: Option<f64>,
) -> Result<Option<Vec<f64>>, KernelError> {
    match args.get(name) {
        None => Ok(default.map(|d| vec![d])),
        Some(Value::Null) => Ok(None),
        Some(v @ (Value::Num(_) | Value::Mat(_) | Value::Bool(_))) => Ok(Some(
            v.as_f64_slice().map(|s| s.to_vec()).unwrap_or_default(),
        )),
        Some(_) if matches!(name, "sig.level" | "power") => Err(prob_error(name)),
        Some(_) => Err(KernelError::new("non-numeric argument to binary operator")),
    }
}

/// A math function's value, noting R's "NaNs produced" when it made a
/// NaN of numbers.
fn checked(value: f64, input: f64, nans: &Cell<bool>) -> f64 {
    if value.is_nan() && !input.is_nan() {
        nans.set(true);
    }
    value
}

fn prob_error(name: &str) -> KernelError {
    KernelError::new(format!("'{name}' must be numeric in [0, 1]"))
}

/// R's `assert_NULL_or_prob(x)`.
fn assert_prob(name: &str, v: &Option<Vec<f64>>) -> Result<(), KernelError> {
    let Some(v) = v else { return Ok(()) };
    if v.iter().any(|x| *x < 0.0 || *x > 1.0) {
        return Err(prob_error(name));
    }
    if v.iter().any(|x| x.is_nan()) {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    }
    Ok(())
}

/// The power function of each element, recycled as R's vectorised
/// arithmetic recycles its arguments.
fn recycled(vals: &[&[f64]], f: &dyn Fn(&[f64]) -> f64) -> Vec<f64> {
    if vals.iter().any(|v| v.is_empty()) {
        return Vec::new();
    }
    let len = vals.iter().map(|v| v.len()).max().unwrap_or(0);
    (0..len)
        .map(|i| {
            let at: Vec<f64> = vals.iter().map(|v| v[i % v.len()]).collect();
            f(&at)
        })
        .collect()
}

/// One number for `uniroot`'s function: R's `if (is.na(f.lower))` fails
/// on a longer one.
fn single(name: &str, v: &[f64]) -> Result<f64, KernelError> {
    match v {
        [x] => Ok(*x),
        [] => Err(KernelError::new("argument is of length zero")),
        // R's `if (is.na(f.lower))` on the power function of several.
        _ => {
            let _ = name;
            Err(KernelError::new("the condition has length > 1"))
        }
    }
}

/// Which of the five is NULL, after R's check that exactly one is.
fn the_null(vals: &[(&str, &Option<Vec<f64>>)], message: &str) -> Result<usize, KernelError> {
    let nulls: Vec<usize> = (0..vals.len()).filter(|&i| vals[i].1.is_none()).collect();
    match nulls.as_slice() {
        [i] => Ok(*i),
        _ => Err(KernelError::new(message)),
    }
}

fn tol(args: &Args<&Value>) -> Result<f64, KernelError> {
    match args.get("tol") {
        None => Ok(f64::EPSILON.powf(0.25)),
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| KernelError::new("invalid 'tol' value")),
    }
}

fn finish(
    class_fields: Vec<(&str, Value)>,
    alternative: &str,
    note: Option<&str>,
    method: &str,
) -> Value {
    let mut fields = class_fields;
    fields.push(("alternative", Value::string(alternative)));
    fields.push(("note", note.map_or(Value::Null, Value::string)));
    fields.push(("method", Value::string(method)));
    Value::List(List::record("power.htest", fields))
}

fn t_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = param(args, "n", None)?;
    let mut delta = param(args, "delta", None)?;
    let sd = param(args, "sd", Some(1.0))?;
    let sig = param(args, "sig.level", Some(0.05))?;
    let power = param(args, "power", None)?;
    let which = the_null(
        &[
            ("n", &n),
            ("delta", &delta),
            ("sd", &sd),
            ("power", &power),
            ("sig.level", &sig),
        ],
        "exactly one of 'n', 'delta', 'sd', 'power', and 'sig.level' must be NULL",
    )?;
    assert_prob("sig.level", &sig)?;
    assert_prob("power", &power)?;
    let ty = match_arg(args.get("type"), &["two.sample", "one.sample", "paired"])?;
    let alt = match_arg(args.get("alternative"), &["two.sided", "one.sided"])?;
    let strict = args.bool_or("strict", false)?;
    let tol = tol(args)?;
    let tsample = if ty == "two.sample" { 2.0 } else { 1.0 };
    let tside = if alt == "two.sided" { 2.0 } else { 1.0 };
    if tside == 2.0 {
        if let Some(d) = &mut delta {
            d.iter_mut().for_each(|v| *v = v.abs());
        }
    }
    let nans = Cell::new(false);
    let sqrt = |x: f64| checked(x.sqrt(), x, &nans);
    // p.body with (n, delta, sd, sig.level).
    let body = |v: &[f64]| -> f64 {
        let (n, delta, sd, sig) = (v[0], v[1], v[2], v[3]);
        let nu = 1e-7f64.max(n - 1.0) * tsample;
        let nu = if (n - 1.0).is_nan() { n - 1.0 } else { nu };
        let qu = checked(qt(sig / tside, nu, false, false), sig + nu, &nans);
        let ncp = sqrt(n / tsample) * delta / sd;
        if strict && tside == 2.0 {
            pnt(qu, nu, ncp, false, false) + pnt(-qu, nu, ncp, true, false)
        } else {
            pnt(qu, nu, ncp, false, false)
        }
    };
    let mut warn = Vec::new();
    let get = |v: &Option<Vec<f64>>| v.clone().unwrap_or_default();
    let (mut n, mut delta, mut sd, mut sig, mut power) =
        (get(&n), get(&delta), get(&sd), get(&sig), get(&power));
    match which {
        3 => power = recycled(&[&n, &delta, &sd, &sig], &body),
        _ => {
            let target = single("power", &power)?;
            let (nn, dd, ss, gg) = (
                n.first().copied().unwrap_or(0.0),
                delta.first().copied().unwrap_or(0.0),
                sd.first().copied().unwrap_or(0.0),
                sig.first().copied().unwrap_or(0.0),
            );
            for (i, (name, v)) in [
                ("n", &n),
                ("delta", &delta),
                ("sd", &sd),
                ("sig.level", &sig),
            ]
            .into_iter()
            .enumerate()
            {
                if i != [0, 1, 2, usize::MAX, 3][which] {
                    single(name, v)?;
                }
            }
            let root = match which {
                0 => uniroot_extend(
                    &mut |x| body(&[x, dd, ss, gg]) - target,
                    2.0,
                    1e7,
                    tol,
                    Extend::Up,
                    &mut warn,
                )?,
                1 => uniroot_extend(
                    &mut |x| body(&[nn, x, ss, gg]) - target,
                    ss * 1e-7,
                    ss * 1e7,
                    tol,
                    Extend::Up,
                    &mut warn,
                )?,
                2 => uniroot_extend(
                    &mut |x| body(&[nn, dd, x, gg]) - target,
                    dd * 1e-7,
                    dd * 1e7,
                    tol,
                    Extend::Down,
                    &mut warn,
                )?,
                _ => uniroot_extend(
                    &mut |x| body(&[nn, dd, ss, x]) - target,
                    1e-10,
                    1.0 - 1e-10,
                    tol,
                    Extend::Yes,
                    &mut warn,
                )?,
            };
            match which {
                0 => n = vec![root],
                1 => delta = vec![root],
                2 => sd = vec![root],
                _ => sig = vec![root],
            }
        }
    }
    if nans.get() {
        ctx.warn("NaNs produced");
    }
    for w in warn {
        ctx.warn(w);
    }
    let note = match ty {
        "paired" => Some("n is number of *pairs*, sd is std.dev. of *differences* within pairs"),
        "two.sample" => Some("n is number in *each* group"),
        _ => None,
    };
    let method = format!(
        "{} t test power calculation",
        match ty {
            "one.sample" => "One-sample",
            "two.sample" => "Two-sample",
            _ => "Paired",
        }
    );
    Ok(finish(
        vec![
            ("n", Value::Num(n)),
            ("delta", Value::Num(delta)),
            ("sd", Value::Num(sd)),
            ("sig.level", Value::Num(sig)),
            ("power", Value::Num(power)),
        ],
        alt,
        note,
        &method,
    ))
}

fn prop_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = param(args, "n", None)?;
    let p1 = param(args, "p1", None)?;
    let p2 = param(args, "p2", None)?;
    let sig = param(args, "sig.level", Some(0.05))?;
    let power = param(args, "power", None)?;
    let which = the_null(
        &[
            ("n", &n),
            ("p1", &p1),
            ("p2", &p2),
            ("power", &power),
            ("sig.level", &sig),
        ],
        "exactly one of 'n', 'p1', 'p2', 'power', and 'sig.level' must be NULL",
    )?;
    assert_prob("sig.level", &sig)?;
    assert_prob("power", &power)?;
    let alt = match_arg(args.get("alternative"), &["two.sided", "one.sided"])?;
    let strict = args.bool_or("strict", false)?;
    let tol = tol(args)?;
    let tside = if alt == "two.sided" { 2.0 } else { 1.0 };
    let nans = Cell::new(false);
    let sqrt = |x: f64| checked(x.sqrt(), x, &nans);
    let qnorm = |p: f64| checked(qnorm(p, 0.0, 1.0, false, false), p, &nans);
    let body = |v: &[f64]| -> f64 {
        let (n, p1, p2, sig) = (v[0], v[1], v[2], v[3]);
        if strict && tside == 2.0 {
            let qu = qnorm(sig / tside);
            let d = (p1 - p2).abs();
            let (q1, q2) = (1.0 - p1, 1.0 - p2);
            let pbar = (p1 + p2) / 2.0;
            let qbar = 1.0 - pbar;
            let (v1, v2) = (p1 * q1, p2 * q2);
            let vbar = pbar * qbar;
            pnorm(
                (sqrt(n) * d - qu * sqrt(2.0 * vbar)) / sqrt(v1 + v2),
                0.0,
                1.0,
                true,
                false,
            ) + pnorm(
                (sqrt(n) * d + qu * sqrt(2.0 * vbar)) / sqrt(v1 + v2),
                0.0,
                1.0,
                false,
                false,
            )
        } else {
            pnorm(
                (sqrt(n) * (p1 - p2).abs()
                    - (qnorm(sig / tside) * sqrt((p1 + p2) * (1.0 - (p1 + p2) / 2.0))))
                    / sqrt(p1 * (1.0 - p1) + p2 * (1.0 - p2)),
                0.0,
                1.0,
                true,
                false,
            )
        }
    };
    let mut warn = Vec::new();
    let get = |v: &Option<Vec<f64>>| v.clone().unwrap_or_default();
    let (mut n, mut p1, mut p2, mut sig, mut power) =
        (get(&n), get(&p1), get(&p2), get(&sig), get(&power));
    if which == 3 {
        power = recycled(&[&n, &p1, &p2, &sig], &body);
    } else {
        let target = single("power", &power)?;
        for (i, (name, v)) in [("n", &n), ("p1", &p1), ("p2", &p2), ("sig.level", &sig)]
            .into_iter()
            .enumerate()
        {
            if i != [0, 1, 2, usize::MAX, 3][which] {
                single(name, v)?;
            }
        }
        let first = |v: &[f64]| v.first().copied().unwrap_or(0.0);
        let (nn, a, b, g) = (first(&n), first(&p1), first(&p2), first(&sig));
        match which {
            0 => {
                n = vec![uniroot_extend(
                    &mut |x| body(&[x, a, b, g]) - target,
                    1.0,
                    1e7,
                    tol,
                    Extend::Up,
                    &mut warn,
                )?]
            }
            1 => {
                let r = uniroot_extend(
                    &mut |x| body(&[nn, x, b, g]) - target,
                    0.0,
                    b,
                    tol,
                    Extend::Yes,
                    &mut warn,
                )?;
                if r < 0.0 {
                    warn.push("No p1 in [0, p2] can be found to achieve the desired power".into());
                }
                p1 = vec![r];
            }
            2 => {
                let r = uniroot_extend(
                    &mut |x| body(&[nn, a, x, g]) - target,
                    a,
                    1.0,
                    tol,
                    Extend::Yes,
                    &mut warn,
                )?;
                if r > 1.0 {
                    warn.push("No p2 in [p1, 1] can be found to achieve the desired power".into());
                }
                p2 = vec![r];
            }
            _ => {
                let r = uniroot_extend(
                    &mut |x| body(&[nn, a, b, x]) - target,
                    1e-10,
                    1.0 - 1e-10,
                    tol,
                    Extend::Up,
                    &mut warn,
                )?;
                if !(0.0..=1.0).contains(&r) {
                    warn.push(
                        "No significance level [0, 1] can be found to achieve the desired power"
                            .into(),
                    );
                }
                sig = vec![r];
            }
        }
    }
    if nans.get() {
        ctx.warn("NaNs produced");
    }
    for w in warn {
        ctx.warn(w);
    }
    Ok(finish(
        vec![
            ("n", Value::Num(n)),
            ("p1", Value::Num(p1)),
            ("p2", Value::Num(p2)),
            ("sig.level", Value::Num(sig)),
            ("power", Value::Num(power)),
        ],
        alt,
        Some("n is number in *each* group"),
        "Two-sample comparison of proportions power calculation",
    ))
}

fn anova_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut fields: Vec<(&str, Type)> = [
        "groups",
        "n",
        "between.var",
        "within.var",
        "sig.level",
        "power",
    ]
    .iter()
    .map(|p| (*p, Type::num_unknown()))
    .collect();
    fields.push(("note", str1()));
    fields.push(("method", str1()));
    Ok(Type::record("power.htest", fields))
}

/// `!is.null(x) && x < 2` as R 4.2.2's `&&` reads it: NA (or nothing)
/// is `if`'s error; of several numbers the first, with R 4.2's warning.
fn below_two(v: &Option<Vec<f64>>, ctx: &mut Ctx) -> Result<bool, KernelError> {
    let Some(v) = v else { return Ok(false) };
    if v.len() > 1 {
        ctx.warn(format!(
            "'length(x) = {} > 1' in coercion to 'logical(1)'",
            v.len()
        ));
    }
    match v.first() {
        Some(x) if !x.is_nan() => Ok(*x < 2.0),
        _ => Err(KernelError::new("missing value where TRUE/FALSE needed")),
    }
}

/// R's power.anova.test (stats/R/power.R): the power of the balanced
/// one-way ANOVA F test, or the one parameter given as NULL solved for by
/// `uniroot` on p.body over R's interval (no extension, R's default tol).
fn anova_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let groups = param(args, "groups", None)?;
    let n = param(args, "n", None)?;
    let between = param(args, "between.var", None)?;
    let within = param(args, "within.var", None)?;
    let sig = param(args, "sig.level", Some(0.05))?;
    let power = param(args, "power", None)?;
    let which = the_null(
        &[
            ("groups", &groups),
            ("n", &n),
            ("between.var", &between),
            ("within.var", &within),
            ("power", &power),
            ("sig.level", &sig),
        ],
        "exactly one of 'groups', 'n', 'between.var', 'within.var', 'power', and 'sig.level' must be NULL",
    )?;
    if below_two(&groups, ctx)? {
        return Err(KernelError::new("number of groups must be at least 2"));
    }
    if below_two(&n, ctx)? {
        return Err(KernelError::new(
            "number of observations in each group must be at least 2",
        ));
    }
    assert_prob("sig.level", &sig)?;
    assert_prob("power", &power)?;
    let nans = Cell::new(false);
    // p.body with (groups, n, between.var, within.var, sig.level).
    let body = |v: &[f64]| -> f64 {
        let (groups, n, between, within, sig) = (v[0], v[1], v[2], v[3], v[4]);
        let lambda = (groups - 1.0) * n * (between / within);
        let (df1, df2) = (groups - 1.0, (n - 1.0) * groups);
        let q = checked(qf(sig, df1, df2, false, false), sig + df1 + df2, &nans);
        checked(
            pnf(q, df1, df2, lambda, false, false),
            q + df1 + df2 + lambda,
            &nans,
        )
    };
    let get = |v: &Option<Vec<f64>>| v.clone().unwrap_or_default();
    let mut vals = [
        get(&groups),
        get(&n),
        get(&between),
        get(&within),
        get(&sig),
    ];
    let mut power = get(&power);
    if which == 4 {
        let refs: Vec<&[f64]> = vals.iter().map(Vec::as_slice).collect();
        power = recycled(&refs, &body);
    } else {
        // The parameter solved for, as its place in p.body's arguments.
        let at = [0, 1, 2, 3, usize::MAX, 4][which];
        let target = single("power", &power)?;
        let names = ["groups", "n", "between.var", "within.var", "sig.level"];
        let mut fixed = [0.0; 5];
        for i in 0..5 {
            if i != at {
                fixed[i] = single(names[i], &vals[i])?;
            }
        }
        let (lower, upper) = match at {
            0 => (2.0, 100.0),
            1 => (2.0, 1e5),
            // within.var over between.var * c(1e-7, 1e7), and back.
            2 => (fixed[3] * 1e-7, fixed[3] * 1e7),
            3 => (fixed[2] * 1e-7, fixed[2] * 1e7),
            _ => (1e-10, 1.0 - 1e-10),
        };
        // uniroot's lower = min(interval), upper = max(interval).
        // `lower >= upper` of an NA end is `if`'s error.
        if lower.is_nan() || upper.is_nan() {
            return Err(KernelError::new("missing value where TRUE/FALSE needed"));
        }
        let (lower, upper) = (lower.min(upper), lower.max(upper));
        let mut f = |x: f64| {
            let mut v = fixed;
            v[at] = x;
            body(&v) - target
        };
        let (fl, fu) = if lower >= upper {
            (f64::NAN, f64::NAN)
        } else {
            (f(lower), f(upper))
        };
        let root = uniroot(&mut f, lower, upper, fl, fu, f64::EPSILON.powf(0.25))?;
        vals[at] = vec![root];
    }
    if nans.get() {
        ctx.warn("NaNs produced");
    }
    let [groups, n, between, within, sig] = vals;
    Ok(Value::List(List::record(
        "power.htest",
        vec![
            ("groups", Value::Num(groups)),
            ("n", Value::Num(n)),
            ("between.var", Value::Num(between)),
            ("within.var", Value::Num(within)),
            ("sig.level", Value::Num(sig)),
            ("power", Value::Num(power)),
            ("note", Value::string("n is number in each group")),
            (
                "method",
                Value::string("Balanced one-way analysis of variance power calculation"),
            ),
        ],
    )))
}
