//! `all.equal(target, current, ...)`: TRUE, or R's messages saying how the
//! two differ. A port of R 4.2.2's src/library/base/R/all.equal.R: the
//! dispatch of `all.equal` on the target's class, all.equal.numeric,
//! all.equal.character, all.equal.raw (R's method for logicals),
//! all.equal.factor, all.equal.list (lists, data frames and flowcast's
//! result objects, which R compares as lists) and attr.all.equal, with
//! the options R's methods pass on to each other through `...`.

use super::args::{ArgError, Args};
use super::attributes::attributes_of;
use super::class::{data_class, mode_of};
use super::factor::text_is_na;
use super::logical::if_condition;
use super::names::bare;
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "all.equal",
    params: &[
        req("target"),
        req("current"),
        opt("tolerance"),
        opt("scale"),
        opt("countEQ"),
        opt("check.attributes"),
        opt("use.names"),
        opt("check.names"),
        DOTS,
    ],
    random: false,
    shape,
    eval,
}];

/// The arguments R's methods hand on through `...`, as given.
#[derive(Clone, Copy)]
struct Opts<'a> {
    tolerance: Option<&'a Value>,
    scale: Option<&'a Value>,
    count_eq: Option<&'a Value>,
    check_attributes: Option<&'a Value>,
    use_names: Option<&'a Value>,
    check_names: Option<&'a Value>,
    /// R's warnings raised on the way, for the call's context.
    warnings: &'a std::cell::RefCell<Vec<String>>,
}

type Msgs = Result<Vec<String>, KernelError>;

fn is_logical(v: &Value) -> bool {
    matches!(bare(v), Value::Bool(_) | Value::BoolMat(_))
}

/// `if (!is.logical(flag)) stop(...)`, then `if (flag)`.
fn logical_flag(v: Option<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    match v {
        None => Ok(default),
        Some(v) if !is_logical(v) => Err(KernelError::new(format!("'{name}' must be logical"))),
        Some(v) => if_condition(v),
    }
}

impl Opts<'_> {
    fn check_attributes(&self) -> Result<bool, KernelError> {
        logical_flag(self.check_attributes, "check.attributes", true)
    }
}

/// R's `is.na` of each element of an atomic vector (NaN included).
fn na_flags(v: &Value) -> Vec<bool> {
    match bare(v) {
        Value::Str(s) => s.iter().map(|s| text_is_na(s)).collect(),
        Value::StrMat(s) => s.iter().map(|s| text_is_na(s)).collect(),
        Value::Factor(f) => f.codes.iter().map(Option::is_none).collect(),
        Value::Complex(c) => c.iter().map(|z| z.re.is_nan() || z.im.is_nan()).collect(),
        v => match v.as_logicals() {
            Some(l) if matches!(v, Value::Bool(_) | Value::BoolMat(_)) => {
                l.iter().map(Option::is_none).collect()
            }
            _ => v
                .as_f64_slice()
                .map(|x| x.iter().map(|x| x.is_nan()).collect())
                .unwrap_or_default(),
        },
    }
}

/// R's `names(x)`: a vector's names, a list's, a one-way table's labels.
fn names_of(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::Named(n) if n.value.dims().is_none() => n.names.clone(),
        Value::List(l) => l.names.clone(),
        _ => None,
    }
}

/// `msg[-grep("\\bLengths\\b", msg)]`.
fn drop_lengths(msg: &mut Vec<String>) {
    msg.retain(|m| {
        !m.match_indices("Lengths").any(|(i, _)| {
            let before = m[..i].chars().next_back();
            let after = m[i + 7..].chars().next();
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !word(before) && !word(after)
        })
    });
}

/// all.equal's dispatch (UseMethod on the target's class, then
/// all.equal.default's on its mode).
fn all_equal(target: &Value, current: &Value, o: &Opts) -> Msgs {
    match bare(target) {
        Value::Factor(_) => factor(target, current, o),
        Value::List(_) => list(target, current, o),
        Value::Formula(_) => formula(target, current),
        Value::Lang(_) => language(target, current),
        Value::Num(_) | Value::Mat(_) | Value::Complex(_) | Value::ComplexMat(_) => {
            numeric(target, current, o)
        }
        Value::Str(_) | Value::StrMat(_) => character(target, current, o),
        Value::Bool(_) | Value::BoolMat(_) => raw(target, current, o),
        Value::Null | Value::Named(_) => {
            let (dt, dc) = (data_class(target), data_class(current));
            Ok(if dt != dc {
                vec![format!("target is {dt}, current is {dc}")]
            } else {
                Vec::new()
            })
        }
    }
}

/// R's all.equal.language: modes, then the deparsed texts.
fn language(target: &Value, current: &Value) -> Msgs {
    let text = |v: &Value| {
        crate::kernels::deparse::deparse(
            v,
            false,
            crate::kernels::deparse::Opts {
                cutoff: crate::kernels::deparse::DEFAULT_CUTOFF,
                backtick: true,
                simple: false,
            },
        )
        .map(|l| l.join("\n"))
    };
    let (mt, mc) = (mode_of(target), mode_of(current));
    let mut out = Vec::new();
    if mt != mc {
        out.push(format!("Modes of target, current: {mt}, {mc}"));
    }
    let (t, c) = (text(target)?, text(bare(current)).unwrap_or_default());
    if t != c {
        out.push(if c.starts_with(&t) {
            "target is a subset of current".to_string()
        } else if t.starts_with(&c) {
            "current is a subset of target".to_string()
        } else {
            "target, current do not match when deparsed".to_string()
        });
    }
    Ok(out)
}

/// R's all.equal.formula: formulas compare by their text.
fn formula(target: &Value, current: &Value) -> Msgs {
    let (Value::Formula(t), Value::Formula(c)) = (bare(target), bare(current)) else {
        return Ok(vec!["formulas differ in contents".into()]);
    };
    if t.response_label.is_some() != c.response_label.is_some() {
        return Ok(vec![format!(
            "target, current differ in having response: {}, {}",
            if t.response_label.is_some() {
                "TRUE"
            } else {
                "FALSE"
            },
            if c.response_label.is_some() {
                "TRUE"
            } else {
                "FALSE"
            }
        )]);
    }
    let same = t.text == c.text
        && t.response_label == c.response_label
        && t.intercept == c.intercept
        && t.terms
            .iter()
            .map(|x| &x.0)
            .eq(c.terms.iter().map(|x| &x.0));
    Ok(if same {
        Vec::new()
    } else {
        vec!["formulas differ in contents".into()]
    })
}

/// R's attr.all.equal: modes, lengths, names, then the other attributes
/// (sorted by name) compared as lists.
fn attr_all_equal(target: &Value, current: &Value, o: &Opts) -> Msgs {
    let check_attributes = o.check_attributes()?;
    let check_names = logical_flag(o.check_names, "check.names", true)?;
    let mut msg = Vec::new();
    let (mt, mc) = (mode_of(target), mode_of(current));
    if mt != mc {
        msg.push(format!("Modes: {mt}, {mc}"));
    }
    let (lt, lc) = (target.len(), current.len());
    if lt != lc {
        msg.push(format!("Lengths: {lt}, {lc}"));
    }
    let attrs = |v: &Value| {
        let a = attributes_of(v);
        (!a.is_empty()).then_some(a)
    };
    let (mut ax, mut ay) = (attrs(target), attrs(current));
    let drop_names = |a: &mut Option<Vec<(String, Value)>>| {
        if let Some(a) = a {
            a.retain(|(n, _)| n != "names");
        }
    };
    if check_names {
        let (nx, ny) = (names_of(target), names_of(current));
        let (lx, ly) = (
            nx.as_ref().map_or(0, Vec::len),
            ny.as_ref().map_or(0, Vec::len),
        );
        if lx > 0 || ly > 0 {
            drop_names(&mut ax);
            drop_names(&mut ay);
            if lx > 0 && ly > 0 {
                let (nx, ny) = (
                    Value::Str(nx.unwrap_or_default()),
                    Value::Str(ny.unwrap_or_default()),
                );
                let m = character(&nx, &ny, o)?;
                msg.extend(m.into_iter().map(|m| format!("Names: {m}")));
            } else if lx > 0 {
                msg.push("names for target but not for current".into());
            } else {
                msg.push("names for current but not for target".into());
            }
        }
    } else {
        drop_names(&mut ax);
        drop_names(&mut ay);
    }
    let len = |a: &Option<Vec<(String, Value)>>| a.as_ref().map_or(0, Vec::len);
    if check_attributes && (len(&ax) > 0 || len(&ay) > 0) {
        let as_list = |a: Option<Vec<(String, Value)>>| match a {
            None => Value::Null,
            Some(mut a) => {
                a.sort_by(|p, q| p.0.cmp(&q.0));
                let (names, items) = a.into_iter().unzip();
                Value::List(List {
                    class: None,
                    names: Some(names),
                    items,
                    row_names: None,
                })
            }
        };
        let tt = all_equal(&as_list(ax), &as_list(ay), o)?;
        msg.extend(tt.into_iter().map(|t| format!("Attributes: < {t} >")));
    }
    Ok(msg)
}

/// R's `data.class` mismatch message.
fn class_mismatch(target: &Value, current: &Value) -> Option<String> {
    let (dt, dc) = (data_class(target), data_class(current));
    (dt != dc).then(|| format!("target is {dt}, current is {dc}"))
}

/// R's `format(err)`: seven significant digits.
fn format_err(x: f64) -> String {
    super::vector::format_number(x, 7)
}

/// R's all.equal.numeric.
fn numeric(target: &Value, current: &Value, o: &Opts) -> Msgs {
    let tolerance = match o.tolerance.map(bare) {
        None => 1.5e-8,
        Some(t @ (Value::Num(_) | Value::Mat(_))) => {
            let t = t.as_f64_slice().unwrap_or_default();
            if t.len() != 1 {
                return Err(KernelError::new("length(tolerance) == 1L is not TRUE"));
            }
            t[0]
        }
        Some(_) => return Err(KernelError::new("'tolerance' should be numeric")),
    };
    let scale: Option<Vec<f64>> = match o.scale.map(bare) {
        None | Some(Value::Null) => None,
        Some(s @ (Value::Num(_) | Value::Mat(_))) => {
            Some(s.as_f64_slice().unwrap_or_default().to_vec())
        }
        Some(_) => return Err(KernelError::new("'scale' should be numeric or NULL")),
    };
    let check_attributes = logical_flag(o.check_attributes, "check.attributes", true)?;
    let mut msg = if check_attributes {
        attr_all_equal(target, current, o)?
    } else {
        Vec::new()
    };
    if let Some(m) = class_mismatch(target, current) {
        msg.push(m);
        return Ok(msg);
    }
    let (lt, lc) = (target.len(), current.len());
    let complex = matches!(bare(target), Value::Complex(_) | Value::ComplexMat(_));
    if lt != lc {
        drop_lengths(&mut msg);
        msg.push(format!(
            "{}: lengths ({lt}, {lc}) differ",
            if complex { "Complex" } else { "Numeric" }
        ));
        return Ok(msg);
    }
    if complex {
        return Err(KernelError::new(
            "flowcast's all.equal does not compare complex numbers",
        ));
    }
    let t = bare(target).as_f64_slice().unwrap_or_default();
    let c = bare(current).as_f64_slice().unwrap_or_default();
    let nat: Vec<bool> = t.iter().map(|x| x.is_nan()).collect();
    let nac = c.iter().filter(|x| x.is_nan()).count();
    if nat.iter().zip(c.iter()).any(|(&a, b)| a != b.is_nan()) {
        let nt = nat.iter().filter(|&&a| a).count();
        msg.push(format!(
            "'is.NA' value mismatch: {nac} in current {nt} in target"
        ));
        return Ok(msg);
    }
    #[allow(clippy::float_cmp)]
    let out: Vec<bool> = nat
        .iter()
        .zip(t.iter().zip(c.iter()))
        .map(|(&na, (a, b))| na || a == b)
        .collect();
    if out.iter().all(|&b| b) {
        return Ok(msg);
    }
    let any_out = out.iter().any(|&b| b);
    let count_eq = match o.count_eq {
        None => false,
        Some(v) => if_condition(v)?,
    };
    let sabst0 = if count_eq && any_out {
        let eq: Vec<f64> = t
            .iter()
            .zip(&out)
            .filter(|(_, &o)| o)
            .map(|(x, _)| x.abs())
            .collect();
        super::summary::mean(&eq)
    } else {
        0.0
    };
    let keep: Vec<usize> = (0..out.len()).filter(|&i| !out[i]).collect();
    let scale = scale.map(|s| {
        if s.len() > 1 {
            keep.iter().map(|&i| s[i % s.len()]).collect()
        } else {
            s
        }
    });
    let t: Vec<f64> = keep.iter().map(|&i| t[i]).collect();
    let c: Vec<f64> = keep.iter().map(|&i| c[i]).collect();
    let n = t.len() as f64;
    let missing = || KernelError::new("missing value where TRUE/FALSE needed");
    let (what, scale) = match scale {
        None => {
            let abs: Vec<f64> = t.iter().map(|x| x.abs() / n).collect();
            let s = sabst0 + super::summary::sum(&abs, false);
            if s.is_finite() && tolerance.is_nan() {
                return Err(missing());
            }
            if s.is_finite() && s > tolerance {
                ("relative", vec![s])
            } else {
                ("absolute", vec![1.0])
            }
        }
        Some(s) => {
            if s.is_empty() || !s.iter().all(|&x| x > 0.0) {
                return Err(KernelError::new("all(scale > 0) is not TRUE"));
            }
            let what = if s.iter().all(|x| (x - 1.0).abs() < 1e-7) {
                "absolute"
            } else {
                "scaled"
            };
            (what, s)
        }
    };
    let terms: Vec<f64> = t
        .iter()
        .zip(&c)
        .enumerate()
        .map(|(i, (a, b))| (a - b).abs() / (n * scale[i % scale.len()]))
        .collect();
    let xy = super::summary::sum(&terms, false);
    if !xy.is_nan() && tolerance.is_nan() {
        return Err(missing());
    }
    if xy.is_nan() || xy > tolerance {
        msg.push(format!("Mean {what} difference: {}", format_err(xy)));
    }
    Ok(msg)
}

/// The text of a character vector, NA as None.
fn texts(v: &Value) -> Vec<Option<String>> {
    match bare(v) {
        Value::Str(_) | Value::StrMat(_) => bare(v)
            .as_strs()
            .unwrap_or_default()
            .iter()
            .map(|s| (!text_is_na(s)).then(|| s.clone()))
            .collect(),
        _ => Vec::new(),
    }
}

/// R's all.equal.character.
fn character(target: &Value, current: &Value, o: &Opts) -> Msgs {
    let mut msg = if o.check_attributes()? {
        attr_all_equal(target, current, o)?
    } else {
        Vec::new()
    };
    if let Some(m) = class_mismatch(target, current) {
        msg.push(m);
        return Ok(msg);
    }
    let (mut t, mut c) = (texts(target), texts(current));
    let (lt, lc) = (t.len(), c.len());
    if lt != lc {
        drop_lengths(&mut msg);
        let ll = lt.min(lc);
        msg.push(format!(
            "Lengths ({lt}, {lc}) differ (string compare on first {ll})"
        ));
        t.truncate(ll);
        c.truncate(ll);
    }
    mismatches(&t, &c, msg, "string")
}

/// The end R's all.equal.character and all.equal.raw share: NA
/// mismatches, then the count of differing elements.
fn mismatches<T: PartialEq>(
    t: &[Option<T>],
    c: &[Option<T>],
    mut msg: Vec<String>,
    what: &str,
) -> Msgs {
    if t.iter().zip(c).any(|(a, b)| a.is_none() != b.is_none()) {
        let nc = c.iter().filter(|x| x.is_none()).count();
        let nt = t.iter().filter(|x| x.is_none()).count();
        msg.push(format!(
            "'is.NA' value mismatch: {nc} in current {nt} in target"
        ));
        return Ok(msg);
    }
    let ne = t
        .iter()
        .zip(c)
        .filter(|(a, b)| a.is_some() && a != b)
        .count();
    match ne {
        0 => {}
        1 => msg.push(format!("1 {what} mismatch")),
        n => msg.push(format!("{n} {what} mismatches")),
    }
    Ok(msg)
}

/// R's all.equal.raw, its method for logicals.
fn raw(target: &Value, current: &Value, o: &Opts) -> Msgs {
    let mut msg = if o.check_attributes()? {
        attr_all_equal(target, current, o)?
    } else {
        Vec::new()
    };
    if let Some(m) = class_mismatch(target, current) {
        msg.push(m);
        return Ok(msg);
    }
    let logicals = |v: &Value| {
        bare(v)
            .as_logicals()
            .map(|l| l.into_owned())
            .unwrap_or_default()
    };
    let (mut t, mut c) = (logicals(target), logicals(current));
    let (lt, lc) = (t.len(), c.len());
    if lt != lc {
        drop_lengths(&mut msg);
        let ll = lt.min(lc);
        msg.push(format!(
            "Lengths ({lt}, {lc}) differ (comparison on first {ll} components)"
        ));
        t.truncate(ll);
        c.truncate(ll);
    }
    mismatches(&t, &c, msg, "element")
}

/// R's all.equal.factor: the NA pattern, then the labels as text.
fn factor(target: &Value, current: &Value, o: &Opts) -> Msgs {
    let (Value::Factor(t), Value::Factor(c)) = (bare(target), bare(current)) else {
        return Ok(vec!["'current' is not a factor".into()]);
    };
    let check_attributes = match o.check_attributes {
        None => true,
        Some(v) => if_condition(v)?,
    };
    let mut msg = if check_attributes {
        attr_all_equal(target, current, o)?
    } else {
        Vec::new()
    };
    let (nax, nay) = (na_flags(target), na_flags(current));
    // `nax != nay` recycles the shorter.
    let n = if nax.is_empty() || nay.is_empty() {
        0
    } else {
        let len = nax.len().max(nay.len());
        if len % nax.len() != 0 || len % nay.len() != 0 {
            o.warnings
                .borrow_mut()
                .push("longer object length is not a multiple of shorter object length".into());
        }
        (0..len)
            .filter(|&i| nax[i % nax.len()] != nay[i % nay.len()])
            .count()
    };
    if n > 1 {
        msg.push(format!("{n} NA mismatches"));
    } else if n == 1 {
        msg.push("1, NA mismatch".into());
    } else {
        let labels = |f: &super::value::Factor| {
            Value::Str(
                f.codes
                    .iter()
                    .flatten()
                    .map(|&k| f.levels[k as usize].clone())
                    .collect(),
            )
        };
        msg.extend(all_equal(&labels(t), &labels(c), o)?);
    }
    Ok(msg)
}

/// Element `i` of a list or atomic vector (R's `x[[i]]` after unclass).
fn element(v: &Value, i: usize) -> Value {
    match bare(v) {
        Value::List(l) => l.items[i].clone(),
        Value::Num(x) => Value::scalar(x[i]),
        Value::Mat(m) => Value::scalar(m.as_slice()[i]),
        Value::Str(s) => Value::string(&s[i]),
        Value::StrMat(s) => Value::string(&s.as_slice()[i]),
        Value::Bool(b) => Value::Bool(vec![b[i]]),
        Value::BoolMat(m) => Value::Bool(vec![m.as_slice()[i]]),
        Value::Complex(z) => Value::Complex(vec![z[i]]),
        Value::ComplexMat(z) => Value::Complex(vec![z.as_slice()[i]]),
        Value::Factor(f) => Value::scalar(f.codes[i].map_or(NA, |k| f64::from(k) + 1.0)),
        _ => Value::Null,
    }
}

/// R's `is.list(x) || is.vector(x)` after unclass: a list, or a vector
/// with no attribute but names.
fn list_like(v: &Value) -> bool {
    match v {
        Value::List(_) => true,
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Complex(_) => true,
        Value::Named(n) => {
            n.value.dims().is_none() && n.table.is_none() && !matches!(n.value, Value::Factor(_))
        }
        _ => false,
    }
}

/// R's all.equal.list: each component, by name where both have names.
fn list(target: &Value, current: &Value, o: &Opts) -> Msgs {
    let check_attributes = o.check_attributes()?;
    let use_names = logical_flag(o.use_names, "use.names", true)?;
    let mut msg = if check_attributes {
        attr_all_equal(target, current, o)?
    } else {
        Vec::new()
    };
    if !list_like(target) {
        msg.push("target is not list-like".into());
        return Ok(msg);
    }
    if !list_like(current) {
        msg.push("current is not list-like".into());
        return Ok(msg);
    }
    let mut n = target.len();
    if n != current.len() {
        drop_lengths(&mut msg);
        n = n.min(current.len());
        msg.push(format!(
            "Length mismatch: comparison on first {n} components"
        ));
    }
    let (nt, nc) = (names_of(target), names_of(current));
    let names = match (use_names, nt, nc) {
        (true, Some(nt), Some(nc)) if nt.len() >= n && nc.len() >= n => Some((nt, nc)),
        (true, _, _) if n == 0 => None,
        _ => None,
    };
    let flag = Value::flag(names.is_some());
    let inner = Opts {
        use_names: Some(&flag),
        ..*o
    };
    for i in 0..n {
        let mi = all_equal(&element(target, i), &element(current, i), &inner)?;
        let label = match &names {
            Some((nt, nc)) if nt[i] == nc[i] => format!("\u{201c}{}\u{201d}", nt[i]),
            _ => (i + 1).to_string(),
        };
        msg.extend(mi.into_iter().map(|m| format!("Component {label}: {m}")));
    }
    Ok(msg)
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let missing =
        |n: &str| KernelError::new(format!("argument \"{n}\" is missing, with no default"));
    let target = args.get("target").ok_or_else(|| missing("target"))?;
    let current = args.get("current").ok_or_else(|| missing("current"))?;
    let warnings = std::cell::RefCell::new(Vec::new());
    let o = Opts {
        tolerance: args.get("tolerance"),
        scale: args.get("scale"),
        count_eq: args.get("countEQ"),
        check_attributes: args.get("check.attributes"),
        use_names: args.get("use.names"),
        check_names: args.get("check.names"),
        warnings: &warnings,
    };
    let msg = all_equal(target, current, &o);
    for w in warnings.take() {
        ctx.warn(w);
    }
    let msg = msg?;
    Ok(if msg.is_empty() {
        Value::flag(true)
    } else {
        Value::Str(msg)
    })
}

fn shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

/// `all.equal(target, current)`'s messages, none when equal: what
/// fisher.test's "'x' has been rounded to integer" warning quotes.
pub(crate) fn all_equal_messages(
    target: &Value,
    current: &Value,
) -> Result<Vec<String>, KernelError> {
    messages(target, current, None)
}

/// `isTRUE(all.equal(target, current, tolerance = tolerance))`, for R
/// functions built on it (isSymmetric).
pub(crate) fn all_equal_within(
    target: &Value,
    current: &Value,
    tolerance: f64,
) -> Result<bool, KernelError> {
    Ok(messages(target, current, Some(&Value::scalar(tolerance)))?.is_empty())
}

/// all.equal's messages with R's defaults but `tolerance`.
fn messages(
    target: &Value,
    current: &Value,
    tolerance: Option<&Value>,
) -> Result<Vec<String>, KernelError> {
    let warnings = std::cell::RefCell::new(Vec::new());
    let o = Opts {
        tolerance,
        scale: None,
        count_eq: None,
        check_attributes: None,
        use_names: None,
        check_names: None,
        warnings: &warnings,
    };
    all_equal(target, current, &o)
}
