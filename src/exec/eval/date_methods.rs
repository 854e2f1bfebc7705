//! R's methods for its Date class (base's dates.R): what a call does when
//! an argument is a Date (or a difftime), before the generic kernel sees
//! the bare numbers. Each arm follows the method R dispatches to
//! (`+.Date`, `-.Date`, `Ops.Date`, `Math.Date`, `Summary.Date`,
//! `c.Date`, `format.Date`, `seq.Date`, `diff.Date`, ...): it refuses what
//! R refuses with R's message, or runs the default on the unclassed days
//! and gives the result R's class back.

use std::borrow::Cow;

use crate::diagnostic::Span;
use crate::kernels::dates::{self, By};
use crate::kernels::{names, KernelError, Value};
use crate::workflow::Arg;

use super::{call, Ctx, EvalError};

type Given<'v> = [(Option<String>, Cow<'v, Value>)];
type Owned<'v> = Vec<(Option<String>, Cow<'v, Value>)>;

/// The call's spans, for the defaults it runs and the errors it raises.
struct Site<'a> {
    func_span: Span,
    call_span: Span,
    args: &'a [Arg],
}

impl Site<'_> {
    fn fail(&self, message: impl Into<String>) -> EvalError {
        EvalError {
            span: self.call_span,
            message: message.into(),
        }
    }

    fn kernel(&self, e: KernelError) -> EvalError {
        self.fail(e.0)
    }

    /// The default method of `func` on `values`.
    fn default(&self, func: &str, values: &Given, ctx: &mut Ctx) -> Result<Value, EvalError> {
        let args = if values.len() == self.args.len() {
            self.args
        } else {
            &[]
        };
        call(func, self.func_span, self.call_span, args, values, ctx)
    }
}

fn classed(v: &Value) -> bool {
    dates::is_date(v) || dates::is_difftime(v)
}

/// The values with Dates and difftimes as their bare numbers.
fn unclass_all<'v>(values: &Given<'v>) -> Owned<'v> {
    values
        .iter()
        .map(|(n, v)| {
            let v = if classed(v) {
                Cow::Owned(dates::unclassed(v))
            } else {
                v.clone()
            };
            (n.clone(), v)
        })
        .collect()
}

/// `+.Date`'s `coerceTimeUnit`: a difftime as whole days.
fn time_unit_days(v: &Value) -> Value {
    let k = match dates::difftime_units(v) {
        "secs" => 1.0 / 86400.0,
        "mins" => 1.0 / 1440.0,
        "hours" => 1.0 / 24.0,
        "weeks" => 7.0,
        _ => 1.0,
    };
    let d = dates::days(v)
        .into_iter()
        .map(|x| (x * k).round_ties_even())
        .collect();
    Value::Num(d)
}

/// A Date's days formatted as `format.Date` writes them, names kept.
fn as_text(v: &Value, fmt: &str) -> Result<Value, KernelError> {
    let out = dates::text(dates::format_dates(&dates::days(v), &[fmt.to_string()])?);
    Ok(match names::names(v) {
        Some(n) => names::named(out, n.to_vec()),
        None => out,
    })
}

/// The values with each Date as its text (what `as.character` gives).
fn dates_as_text<'v>(values: &Given<'v>) -> Result<Owned<'v>, KernelError> {
    values
        .iter()
        .map(|(n, v)| {
            let v = if dates::is_date(v) {
                Cow::Owned(as_text(v, "%Y-%m-%d")?)
            } else {
                v.clone()
            };
            Ok((n.clone(), v))
        })
        .collect()
}

const MATH: &[&str] = &[
    "abs", "sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "floor", "ceiling", "signif",
    "sign", "cumsum", "cumprod", "cummax", "cummin", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "gamma", "lgamma", "digamma", "trigamma",
];

/// R's method for `func` when an argument is a Date or difftime; `None`
/// where R's default (on the bare numbers) is what R runs.
pub(super) fn dispatch(
    func: &str,
    func_span: Span,
    call_span: Span,
    args: &[Arg],
    values: &Given,
    ctx: &mut Ctx,
) -> Option<Result<Value, EvalError>> {
    if !values.iter().any(|(_, v)| classed(v)) {
        return None;
    }
    let site = Site {
        func_span,
        call_span,
        args,
    };
    let any_date = values.iter().any(|(_, v)| dates::is_date(v));
    let first_date = values.first().is_some_and(|(_, v)| dates::is_date(v));
    let first_difftime = values.first().is_some_and(|(_, v)| dates::is_difftime(v));
    let r = match func {
        "+" | "-" if any_date => plus_minus(func, &site, values, ctx),
        "*" | "/" | "^" | "%%" | "%/%" | "&" | "|" if any_date => {
            Err(site.fail(format!("{func} not defined for \"Date\" objects")))
        }
        "!" if any_date => Err(site.fail("unary ! not defined for \"Date\" objects")),
        "==" | "!=" | "<" | ">" | "<=" | ">=" if any_date => compare(func, &site, values, ctx),
        f if first_date && MATH.contains(&f) => {
            Err(site.fail(format!("{f} not defined for \"Date\" objects")))
        }
        "sum" | "prod" | "any" | "all" if any_date => {
            Err(site.fail(format!("{func} not defined for \"Date\" objects")))
        }
        "min" | "max" | "range" if first_date => re_date(func, &site, values, ctx),
        "mean" | "median" | "round" | "trunc" | "rev" | "sort" | "unique" | "head" | "tail"
        | "rep" | "na.omit"
            if first_date =>
        {
            re_date(func, &site, values, ctx)
        }
        "diff" if first_date => site
            .default(func, &unclass_all(values), ctx)
            .map(|v| dates::difftime(v, "days")),
        "c" if first_date => concat(&site, values),
        "format" if first_date => format_date(&site, values),
        "format" if first_difftime => format_difftime(&site, values, ctx),
        "as.character" if first_date => {
            as_text(&values[0].1, "%Y-%m-%d").map_err(|e| site.kernel(e))
        }
        "print" | "invisible" | "identity" => Ok(values[0].1.clone().into_owned()),
        "is.numeric" if first_date || first_difftime => Ok(Value::Bool(vec![Some(false)])),
        "seq"
            if first_date
                || values
                    .iter()
                    .any(|(n, v)| n.as_deref() == Some("from") && dates::is_date(v)) =>
        {
            seq(&site, values)
        }
        "table" | "paste" | "paste0" | "factor" | "as.factor" if any_date => {
            match dates_as_text(values) {
                Ok(v) => site.default(func, &v, ctx),
                Err(e) => Err(site.kernel(e)),
            }
        }
        "summary" | "quantile" | "cut" | "split" | "sapply" | "lapply" | "vapply" | "ifelse"
            if first_date =>
        {
            Err(site.fail(format!(
                "flowcast cannot yet run {func}() on a Date as R does; convert it first \
                 (as.numeric(x) or format(x))"
            )))
        }
        _ => return None,
    };
    Some(r)
}

/// `+.Date` and `-.Date`.
fn plus_minus(op: &str, site: &Site, values: &Given, ctx: &mut Ctx) -> Result<Value, EvalError> {
    let e1 = &values[0].1;
    if values.len() == 1 {
        return if op == "+" {
            Ok(e1.clone().into_owned())
        } else {
            Err(site.fail("unary - is not defined for \"Date\" objects"))
        };
    }
    let e2 = &values[1].1;
    if op == "+" {
        if dates::is_date(e1) && dates::is_date(e2) {
            return Err(site.fail("binary + is not defined for \"Date\" objects"));
        }
    } else {
        if !dates::is_date(e1) {
            return Err(site.fail("can only subtract from \"Date\" objects"));
        }
        if dates::is_date(e2) {
            return dates::difftime_of(e1, e2, "days").map_err(|e| site.kernel(e));
        }
        if !dates::is_difftime(e2) && has_class(e2) {
            return Err(site.fail("can only subtract numbers from \"Date\" objects"));
        }
    }
    let operand = |v: &Cow<Value>| -> Value {
        if dates::is_difftime(v) {
            time_unit_days(v)
        } else {
            dates::unclassed(v)
        }
    };
    let bare = [
        (None, Cow::Owned(operand(e1))),
        (None, Cow::Owned(operand(e2))),
    ];
    site.default(op, &bare, ctx).map(dates::date)
}

/// Whether R sees a class attribute on `v` (a factor's, a table's, ...).
fn has_class(v: &Value) -> bool {
    crate::kernels::class::class_attr(v).is_some()
}

/// `Ops.Date`'s comparisons: a string is read as a date first.
fn compare(op: &str, site: &Site, values: &Given, ctx: &mut Ctx) -> Result<Value, EvalError> {
    let mut bare = Vec::with_capacity(values.len());
    for (n, v) in values {
        let v = match names::bare(v) {
            Value::Str(_) if !dates::is_date(v) => {
                dates::unclassed(&dates::as_date_plain(v).map_err(|e| site.kernel(e))?)
            }
            _ => dates::unclassed(v),
        };
        bare.push((n.clone(), Cow::Owned(v)));
    }
    site.default(op, &bare, ctx)
}

/// The default of `func` on the bare days, as a Date again.
fn re_date(func: &str, site: &Site, values: &Given, ctx: &mut Ctx) -> Result<Value, EvalError> {
    site.default(func, &unclass_all(values), ctx)
        .map(dates::date)
}

/// `c.Date`: every argument as.Date'd, its days joined.
fn concat(site: &Site, values: &Given) -> Result<Value, EvalError> {
    let mut out = Vec::new();
    for (_, v) in values {
        if dates::is_date(v) {
            out.extend(dates::days(v));
            continue;
        }
        match names::bare(v) {
            Value::Null => {}
            Value::Str(_) | Value::Factor(_) | Value::Num(_) | Value::Bool(_) => {
                let d = dates::as_date_plain(v).map_err(|e| site.kernel(e))?;
                out.extend(dates::days(&d));
            }
            _ => {
                return Err(site.fail(format!(
                    "do not know how to convert 'e' to class \u{201c}Date\u{201d} (flowcast was given {})",
                    v.type_name()
                )))
            }
        }
    }
    Ok(dates::date(Value::Num(out)))
}

/// The text of an argument that must be a character vector.
fn strings(v: &Value, what: &str) -> Result<Vec<String>, String> {
    match names::bare(v) {
        Value::Str(s) => Ok(s.clone()),
        _ => Err(format!("invalid '{what}' argument")),
    }
}

/// `format.Date(x, format = "%Y-%m-%d")`: the format named, or the
/// first unnamed argument after x.
fn format_date(site: &Site, values: &Given) -> Result<Value, EvalError> {
    let x = &values[0].1;
    let fmt = values[1..]
        .iter()
        .find(|(n, _)| n.as_deref() == Some("format"))
        .or_else(|| values[1..].iter().find(|(n, _)| n.is_none()));
    let fmt = match fmt {
        Some((_, f)) => strings(f, "format").map_err(|m| site.fail(m))?,
        None => vec!["%Y-%m-%d".to_string()],
    };
    let out = dates::format_dates(&dates::days(x), &fmt).map_err(|e| site.kernel(e))?;
    let out = dates::text(out);
    Ok(match names::names(x) {
        Some(n) if n.len() == out.len() => names::named(out, n.to_vec()),
        _ => out,
    })
}

/// `format.difftime`: the numbers formatted, then their units.
fn format_difftime(site: &Site, values: &Given, ctx: &mut Ctx) -> Result<Value, EvalError> {
    let units = dates::difftime_units(&values[0].1).to_string();
    let v = site.default("format", &unclass_all(values), ctx)?;
    let paste = |s: &String| {
        if s == "NA" {
            format!("NA {units}")
        } else {
            format!("{s} {units}")
        }
    };
    Ok(match v {
        Value::Str(s) => Value::Str(s.iter().map(paste).collect()),
        Value::Named(mut n) => {
            if let Value::Str(s) = &n.value {
                n.value = Value::Str(s.iter().map(paste).collect());
            }
            Value::Named(n)
        }
        other => other,
    })
}

/// `seq.Date(from, to, by, length.out, along.with)`.
fn seq(site: &Site, values: &Given) -> Result<Value, EvalError> {
    const FORMALS: [&str; 5] = ["from", "to", "by", "length.out", "along.with"];
    let mut slot: [Option<&Value>; 5] = [None; 5];
    let mut positional = Vec::new();
    for (n, v) in values {
        match n {
            Some(n) => {
                let exact = FORMALS.iter().position(|f| f == n);
                let partial: Vec<usize> = (0..5)
                    .filter(|&i| FORMALS[i].starts_with(n.as_str()))
                    .collect();
                let i = match (exact, &partial[..]) {
                    (Some(i), _) => i,
                    (None, [i]) => *i,
                    _ => return Err(site.fail(format!("unused argument ({n} = ...)"))),
                };
                slot[i] = Some(v);
            }
            None => positional.push(&**v),
        }
    }
    for v in positional {
        match slot.iter().position(Option::is_none) {
            Some(i) => slot[i] = Some(v),
            None => return Err(site.fail("unused argument")),
        }
    }
    let one = |v: &Value, what: &str| -> Result<f64, EvalError> {
        if !dates::is_date(v) {
            return Err(site.fail(format!("'{what}' must be a \"Date\" object")));
        }
        match dates::days(v)[..] {
            [d] => Ok(d),
            _ => Err(site.fail(format!("'{what}' must be of length 1"))),
        }
    };
    let from = match slot[0] {
        Some(v) => one(v, "from")?,
        None => return Err(site.fail("'from' must be specified")),
    };
    let to = slot[1].map(|v| one(v, "to")).transpose()?;
    let length_out = match (slot[4], slot[3]) {
        (Some(a), _) => Some(a.len() as f64),
        (None, Some(l)) => match names::bare(l) {
            Value::Num(x) if x.len() == 1 => Some(x[0]),
            Value::Null => None,
            _ => return Err(site.fail("'length.out' must be of length 1")),
        },
        (None, None) => None,
    };
    let by: Option<By> = slot[2]
        .map(dates::seq_by)
        .transpose()
        .map_err(|e| site.kernel(e))?;
    let d = dates::seq_dates(from, to, by, length_out).map_err(|e| site.kernel(e))?;
    Ok(dates::date(Value::Num(d)))
}
