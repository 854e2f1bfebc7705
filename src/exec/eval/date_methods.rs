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
use crate::kernels::datetime;
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
    dates::is_date(v) || dates::is_difftime(v) || datetime::is_posixct(v)
}

/// The class a method runs for where Date's and POSIXct's are one and
/// the same logic: R's Date (days) or POSIXct in zone `tz` (seconds).
#[derive(Clone, Copy)]
enum Kind<'a> {
    Date,
    Ct(&'a str),
}

impl Kind<'_> {
    fn is(&self, v: &Value) -> bool {
        match self {
            Kind::Date => dates::is_date(v),
            Kind::Ct(_) => datetime::is_posixct(v),
        }
    }

    /// Bare numbers of the class again (`.Date`, `.POSIXct`).
    fn reclass(&self, v: Value) -> Value {
        match self {
            Kind::Date => dates::date(v),
            Kind::Ct(tz) => datetime::posixct(v, tz),
        }
    }

    fn noun(&self) -> &'static str {
        match self {
            Kind::Date => "a Date",
            Kind::Ct(_) => "a date-time",
        }
    }

    /// `as.character` of the numbers: a Date's "%Y-%m-%d", a POSIXct's
    /// default format over the whole vector (its date alone where every
    /// time is a midnight).
    fn text(&self, x: &[f64]) -> Result<Vec<Option<String>>, KernelError> {
        match self {
            Kind::Date => dates::format_dates(x, &["%Y-%m-%d".to_string()]),
            Kind::Ct(tz) => {
                let f = datetime::default_format(x);
                x.iter().map(|t| datetime::strftime(*t, f, tz)).collect()
            }
        }
    }
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
    if values.iter().any(|(_, v)| datetime::is_posixct(v)) {
        return posix_dispatch(func, &site, values, ctx);
    }
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
            match times_as_text(values) {
                Ok(v) => site.default(func, &v, ctx),
                Err(e) => Err(site.kernel(e)),
            }
        }
        "cut" if first_date => cut(&site, values, ctx, Kind::Date),
        "summary" if first_date => summary(&site, values, Kind::Date),
        "split" if first_date => reclassed(func, &site, values, ctx, Kind::Date),
        "as.numeric" | "as.double" if first_difftime => difftime_number(&site, values),
        "quantile" | "sapply" | "lapply" | "vapply" | "ifelse" if first_date => {
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

/// The arguments of `seq.Date` and `seq.POSIXt` (from, to, by,
/// length.out, along.with) matched as R matches them: exact names, then
/// unique partial ones, then the unnamed in order.
fn seq_slots<'a>(site: &Site, values: &'a Given) -> Result<[Option<&'a Value>; 5], EvalError> {
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
    Ok(slot)
}

/// `seq.Date(from, to, by, length.out, along.with)`.
fn seq(site: &Site, values: &Given) -> Result<Value, EvalError> {
    let slot = seq_slots(site, values)?;
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

/// The arguments of `cut.Date(x, breaks, labels, start.on.monday, right,
/// ...)` by name, the unnamed ones after `x` in that order.
fn cut_args<'a>(values: &'a Given<'_>, kind: Kind) -> Result<Vec<(String, &'a Value)>, String> {
    const FORMALS: [&str; 5] = ["x", "breaks", "labels", "start.on.monday", "right"];
    let mut named: Vec<(String, &Value)> = Vec::new();
    let mut positional = Vec::new();
    for (n, v) in values {
        match n {
            Some(n) => {
                let exact = FORMALS.iter().find(|f| *f == n);
                let partial: Vec<&&str> = FORMALS
                    .iter()
                    .filter(|f| f.starts_with(n.as_str()))
                    .collect();
                let name = match (exact, &partial[..]) {
                    (Some(f), _) => f.to_string(),
                    (None, [f]) if !n.is_empty() => f.to_string(),
                    _ => n.clone(),
                };
                named.push((name, &**v));
            }
            None => positional.push(&**v),
        }
    }
    let mut free = FORMALS
        .iter()
        .filter(|f| !named.iter().any(|(n, _)| n == *f))
        .collect::<Vec<_>>()
        .into_iter();
    for v in positional {
        match free.next() {
            Some(f) => named.push((f.to_string(), v)),
            None => return Err(format!("flowcast's cut() of {} takes x, breaks, labels, start.on.monday and right unnamed, and the rest by name", kind.noun())),
        }
    }
    Ok(named)
}

/// `cut.Date` and `cut.POSIXt`: the breaks as days or seconds (given as
/// the class, a number of intervals, or a string of units from the
/// earliest value), the default cut of the bare numbers, and the levels
/// named by the values that start each interval.
fn cut(site: &Site, values: &Given, ctx: &mut Ctx, kind: Kind) -> Result<Value, EvalError> {
    let args = cut_args(values, kind).map_err(|m| site.fail(m))?;
    let get = |name: &str| args.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let x = dates::days(&values[0].1);
    let Some(breaks) = get("breaks") else {
        return Err(site.fail("argument \"breaks\" is missing, with no default"));
    };
    let given_breaks = breaks;
    let start_on_monday = match get("start.on.monday") {
        None => true,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| site.fail("argument is not interpretable as logical"))?,
    };
    let breaks: Value = if kind.is(breaks) {
        let mut b = dates::days(breaks);
        b.retain(|d| !d.is_nan());
        b.sort_by(f64::total_cmp);
        Value::Num(b)
    } else {
        match names::bare(breaks) {
            Value::Num(b) if b.len() == 1 && !classed(breaks) => Value::Num(b.clone()),
            Value::Str(b) if b.len() == 1 => {
                let b = match kind {
                    Kind::Date => cut_breaks(&x, &b[0], start_on_monday),
                    Kind::Ct(_) => ct_cut_breaks(&x, &b[0], start_on_monday),
                };
                Value::Num(b.map_err(|m| site.fail(m))?)
            }
            _ => return Err(site.fail("invalid specification of 'breaks'")),
        }
    };
    let numeric_breaks =
        matches!(names::bare(given_breaks), Value::Num(_)) && !classed(given_breaks);
    let mut given: Owned = vec![
        (None, Cow::Owned(Value::Num(x.clone()))),
        (Some("breaks".into()), Cow::Owned(breaks.clone())),
    ];
    for (n, v) in &args {
        if !matches!(n.as_str(), "x" | "breaks" | "start.on.monday") {
            given.push((Some(n.clone()), Cow::Owned((*v).clone())));
        }
    }
    // cut.Date's and cut.POSIXt's own default: intervals closed on the left.
    if get("right").is_none() {
        given.push((
            Some("right".into()),
            Cow::Owned(Value::Bool(vec![Some(false)])),
        ));
    }
    let res = site.default("cut", &given, ctx)?;
    let labels_given = get("labels").is_some_and(|l| !matches!(l, Value::Null));
    if labels_given {
        return Ok(res);
    }
    let Value::Factor(mut f) = res else {
        return Ok(res);
    };
    let levels: Vec<f64> = if numeric_breaks {
        // x[!duplicated(res)], as R names the levels of a count of breaks.
        let mut seen = std::collections::HashSet::new();
        x.iter()
            .zip(&f.codes)
            .filter(|(_, c)| seen.insert(**c))
            .map(|(d, _)| *d)
            .collect()
    } else {
        let b = dates::days(&breaks);
        b[..b.len().saturating_sub(1)].to_vec()
    };
    // `levels<-.factor`: at least one label a level, the levels the
    // labels that are not NA (once each), each code moved to its label's.
    if levels.len() < f.levels.len() {
        return Err(site.fail("number of levels differs"));
    }
    let text = kind.text(&levels).map_err(|e| site.kernel(e))?;
    // Hashed: "10 secs" over a few months makes half a million levels.
    let mut nlevs: Vec<String> = Vec::new();
    let mut at: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    for t in text.iter().flatten() {
        if !at.contains_key(t.as_str()) {
            at.insert(t, nlevs.len() as u32);
            nlevs.push(t.clone());
        }
    }
    f.codes = f
        .codes
        .iter()
        .map(|c| {
            let t = text.get((*c)? as usize)?.as_ref()?;
            at.get(t.as_str()).copied()
        })
        .collect();
    f.levels = nlevs;
    Ok(Value::Factor(f))
}

/// A string `breaks` of cut.Date or cut.POSIXt, "[k] unit", read alike
/// by dates.R and datetime.R: the unit's position in `units` (matched
/// partially), the earliest and latest of the values `kept`, and k.
struct BreakSpec {
    unit: usize,
    minx: f64,
    maxx: f64,
    step: f64,
}

fn break_spec(
    x: &[f64],
    breaks: &str,
    units: &[&str],
    kept: fn(&f64) -> bool,
    needs: &str,
) -> Result<BreakSpec, String> {
    let invalid = || "invalid specification of 'breaks'".to_string();
    let by2: Vec<&str> = breaks.split(' ').collect();
    if by2.is_empty() || by2.len() > 2 {
        return Err(invalid());
    }
    let unit = by2[by2.len() - 1];
    let exact = units.iter().position(|u| *u == unit);
    let hits: Vec<usize> = (0..units.len())
        .filter(|&i| !unit.is_empty() && units[i].starts_with(unit))
        .collect();
    let unit = match (exact, &hits[..]) {
        (Some(i), _) => i,
        (None, [i]) => *i,
        _ => return Err(invalid()),
    };
    let present: Vec<f64> = x.iter().copied().filter(kept).collect();
    let (Some(minx), Some(maxx)) = (
        present.iter().copied().reduce(f64::min),
        present.iter().copied().reduce(f64::max),
    ) else {
        return Err(format!(
            "flowcast's cut() of {needs} that is not NA to start the breaks from"
        ));
    };
    // `as.integer(by2[1])`: a count R cannot read makes no breaks.
    let step = if by2.len() == 2 {
        match by2[0].trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v.abs() < 2147483648.0 && v.trunc() != 0.0 => v.trunc(),
            _ => return Err(invalid()),
        }
    } else {
        1.0
    };
    Ok(BreakSpec {
        unit,
        minx,
        maxx,
        step,
    })
}

/// cut.Date's breaks from a string `breaks`, as dates.R builds them from
/// the earliest and latest of `x`.
fn cut_breaks(x: &[f64], breaks: &str, start_on_monday: bool) -> Result<Vec<f64>, String> {
    let invalid = || "invalid specification of 'breaks'".to_string();
    const UNITS: [&str; 5] = ["days", "weeks", "months", "years", "quarters"];
    let BreakSpec {
        unit: valid,
        minx,
        maxx,
        step,
    } = break_spec(x, breaks, &UNITS, |d| !d.is_nan(), "a Date needs a date")?;
    let start = dates::civil(minx).ok_or_else(invalid)?;
    let kernel = |e: KernelError| e.0;
    let by = |s: String| dates::seq_by(&Value::Str(vec![s])).map_err(kernel);
    // seq(start, end, by) of month steps, without the last break when
    // the latest date lies before the one before it.
    let months = |from: f64, end: f64, by_text: String| -> Result<Vec<f64>, String> {
        let mut b = dates::seq_dates(from, Some(end), Some(by(by_text)?), None).map_err(kernel)?;
        let lb = b.len();
        if lb >= 2 && maxx < b[lb - 2] {
            b.pop();
        }
        Ok(b)
    };
    let first_of = |d: f64, mon: Option<u32>| -> Result<f64, String> {
        let c = dates::civil(d).ok_or_else(invalid)?;
        let m = mon.unwrap_or(c.month);
        Ok(dates::days_from_civil(c.year, m.into(), 1))
    };
    let quarter = |m: u32| (m - 1) / 3 * 3 + 1;
    match valid {
        2 => {
            let from = first_of(minx, None)?;
            let end = first_of(maxx + 31.0 * step, None)?;
            months(from, end, breaks.to_string())
        }
        3 => {
            let from = first_of(minx, Some(1))?;
            let end = first_of(maxx + 366.0 * step, Some(1))?;
            months(from, end, breaks.to_string())
        }
        4 => {
            let from = first_of(minx, Some(quarter(start.month)))?;
            let e = dates::civil(maxx + 93.0 * step).ok_or_else(invalid)?;
            let end = first_of(maxx + 93.0 * step, Some(quarter(e.month)))?;
            months(from, end, format!("{} months", step * 3.0))
        }
        _ => {
            let mut from = minx.floor();
            let mut incr = 1.0;
            if valid == 1 {
                from -= f64::from(start.wday);
                if start_on_monday {
                    from += if start.wday > 0 { 1.0 } else { -6.0 };
                }
                incr = 7.0;
            }
            incr *= step;
            let b = dates::seq_dates(from, Some(maxx + incr), Some(by(breaks.to_string())?), None)
                .map_err(kernel)?;
            let last = b.iter().rposition(|d| *d <= maxx).ok_or_else(invalid)?;
            Ok(b[..(last + 2).min(b.len())].to_vec())
        }
    }
}

/// cut.POSIXt's breaks (in seconds) from a string `breaks`, as
/// datetime.R builds them: the earliest time truncated to the unit, then
/// steps to past the latest; months, years and quarters on the calendar.
fn ct_cut_breaks(x: &[f64], breaks: &str, start_on_monday: bool) -> Result<Vec<f64>, String> {
    let invalid = || "invalid specification of 'breaks'".to_string();
    const UNITS: [&str; 9] = [
        "secs", "mins", "hours", "days", "weeks", "months", "years", "DSTdays", "quarters",
    ];
    let BreakSpec {
        unit: valid,
        minx,
        maxx,
        step,
    } = break_spec(
        x,
        breaks,
        &UNITS,
        |t| t.is_finite(),
        "a date-time needs a time",
    )?;
    let day = (minx / 86400.0).floor();
    let clock = minx - day * 86400.0;
    let start_c = dates::civil(day).ok_or_else(invalid)?;
    let mut start = minx;
    let mut incr = 1.0;
    if valid >= 1 {
        start = day * 86400.0 + (clock / 60.0).floor() * 60.0;
        incr = 60.0;
    }
    if valid >= 2 {
        start = day * 86400.0 + (clock / 3600.0).floor() * 3600.0;
        incr = 3600.0;
    }
    if valid >= 3 {
        start = day * 86400.0;
        incr = 86400.0;
    }
    if valid == 4 {
        let mut d = day - f64::from(start_c.wday);
        if start_on_monday {
            d += if start_c.wday > 0 { 1.0 } else { -6.0 };
        }
        start = d * 86400.0;
        incr = 7.0 * 86400.0;
    }
    if valid == 7 {
        incr = 25.0 * 3600.0;
    }
    // seq(start, end, "k months") from the first of a month, then without
    // the last break where the latest time lies before the one before it.
    let months =
        |first_month: u32, ahead_days: f64, per: f64, quarter: bool| -> Result<Vec<f64>, String> {
            let e = dates::civil(((maxx + ahead_days * step * 86400.0) / 86400.0).floor())
                .ok_or_else(invalid)?;
            let e_month = if quarter {
                (e.month - 1) / 3 * 3 + 1
            } else if per == 12.0 {
                1
            } else {
                e.month
            };
            let end = dates::days_from_civil(e.year, e_month.into(), 1) * 86400.0;
            let by = per * step;
            let mut b = Vec::new();
            for k in 0.. {
                let t = dates::days_from_civil(
                    start_c.year,
                    i64::from(first_month) + (k as f64 * by) as i64,
                    1,
                ) * 86400.0;
                if t > end || b.len() as f64 > 1e8 {
                    break;
                }
                b.push(t);
            }
            let lb = b.len();
            if lb >= 2 && maxx < b[lb - 2] {
                b.pop();
            }
            Ok(b)
        };
    match valid {
        5 => months(start_c.month, 31.0, 1.0, false),
        6 => months(1, 366.0, 12.0, false),
        8 => months((start_c.month - 1) / 3 * 3 + 1, 93.0, 3.0, true),
        _ => {
            incr *= step;
            // DSTdays step a day at a time in UTC.
            let by = match valid {
                0 => step,
                1 => 60.0 * step,
                2 => 3600.0 * step,
                4 => 7.0 * 86400.0 * step,
                _ => 86400.0 * step,
            };
            let n = ((maxx + incr - start) / by + 1e-10).floor();
            if n.is_nan() || !(0.0..=1e8).contains(&n) {
                return Err(invalid());
            }
            let b: Vec<f64> = (0..=n as usize).map(|i| start + i as f64 * by).collect();
            let last = b.iter().rposition(|t| *t <= maxx).ok_or_else(invalid)?;
            Ok(b[..(last + 2).min(b.len())].to_vec())
        }
    }
}

/// `summary.Date` and `summary.POSIXct`: summary.default of the bare
/// numbers to `digits` significant digits (12 and 15, their defaults),
/// the count of NAs moved from the values to an attribute, the class kept.
fn summary(site: &Site, values: &Given, kind: Kind) -> Result<Value, EvalError> {
    let digits = match values[1..]
        .iter()
        .find(|(n, _)| n.as_deref() == Some("digits"))
    {
        Some((_, d)) => match names::bare(d) {
            Value::Num(d) if d.len() == 1 => d[0],
            _ => return Err(site.fail("invalid 'digits' argument")),
        },
        None => match kind {
            Kind::Date => 12.0,
            Kind::Ct(_) => 15.0,
        },
    };
    if let Some((n, _)) = values[1..]
        .iter()
        .find(|(n, _)| n.as_deref() != Some("digits"))
    {
        return Err(site.fail(format!(
            "flowcast's summary() of {} takes digits only, not {}",
            kind.noun(),
            n.as_deref().unwrap_or("an unnamed argument")
        )));
    }
    let x = Value::Num(dates::days(&values[0].1));
    let s = match crate::kernels::summary::summary_default(&x) {
        Some(r) => r.map_err(|e| site.kernel(e))?,
        None => return Err(site.fail("summary of no numbers")),
    };
    let (Some(labels), Value::Num(v)) = (names::names(&s).map(<[String]>::to_vec), names::bare(&s))
    else {
        return Err(site.fail("summary of no numbers"));
    };
    let mut labels = labels;
    let mut v: Vec<f64> = v
        .iter()
        .map(|z| crate::kernels::arith::math::fprec(*z, digits))
        .collect();
    let nas = labels.iter().position(|l| l == "NA's").map(|m| {
        labels.remove(m);
        v.remove(m)
    });
    let mut out = names::named(Value::Num(v), labels);
    if let Some(k) = nas {
        out = names::with_attr(out, "NAs", Value::Num(vec![k]));
    }
    Ok(kind.reclass(out))
}

/// The default of `func` (split, quantile) on the bare numbers, each
/// part or quantile of the class again.
fn reclassed(
    func: &str,
    site: &Site,
    values: &Given,
    ctx: &mut Ctx,
    kind: Kind,
) -> Result<Value, EvalError> {
    match site.default(func, &unclass_all(values), ctx)? {
        Value::List(mut l) => {
            l.items = l.items.into_iter().map(|v| kind.reclass(v)).collect();
            Ok(Value::List(l))
        }
        other => Ok(kind.reclass(other)),
    }
}

/// The values with each Date and POSIXct as its text (what `table`,
/// `paste` and `factor` see after `as.character`).
fn times_as_text<'v>(values: &Given<'v>) -> Result<Owned<'v>, KernelError> {
    values
        .iter()
        .map(|(n, v)| {
            let text = if dates::is_date(v) {
                Kind::Date.text(&dates::days(v))?
            } else if datetime::is_posixct(v) {
                Kind::Ct(&datetime::tzone(v)).text(&dates::days(v))?
            } else {
                return Ok((n.clone(), v.clone()));
            };
            let out = dates::text(text);
            let out = match names::names(v) {
                Some(nm) => names::named(out, nm.to_vec()),
                None => out,
            };
            Ok((n.clone(), Cow::Owned(out)))
        })
        .collect()
}

/// `as.double.difftime(x, units = "auto")`: the numbers in `units`.
fn difftime_number(site: &Site, values: &Given) -> Result<Value, EvalError> {
    let x = &values[0].1;
    let x = match values[1..]
        .iter()
        .find(|(n, _)| n.as_deref() == Some("units"))
    {
        Some((_, u)) if !matches!(names::bare(u), Value::Str(s) if s.len() == 1 && s[0] == "auto") => {
            datetime::set_units(x, u).map_err(|e| site.kernel(e))?
        }
        _ => x.clone().into_owned(),
    };
    Ok(Value::Num(dates::days(&x)))
}

/// The value of argument `name` (or, unnamed, the first after `x`).
fn named_or_second<'a>(values: &'a Given, name: &str) -> Option<&'a Value> {
    values[1..]
        .iter()
        .find(|(n, _)| n.as_deref() == Some(name))
        .or_else(|| values[1..].iter().find(|(n, _)| n.is_none()))
        .map(|(_, v)| &**v)
}

/// A difftime operand as seconds (`+.POSIXt`'s `coerceTimeUnit`).
fn difftime_secs(v: &Value) -> Value {
    let k = datetime::unit_secs(dates::difftime_units(v)).unwrap_or(1.0);
    Value::Num(dates::days(v).into_iter().map(|x| x * k).collect())
}

/// R's methods for POSIXct (`+.POSIXt`, `-.POSIXt`, `Ops.POSIXt`,
/// `Math.POSIXt`, `Summary.POSIXct`, `format.POSIXct`, `trunc.POSIXt`,
/// `round.POSIXt`, `seq.POSIXt`, `diff.POSIXt`, `c.POSIXct`, ...).
fn posix_dispatch(
    func: &str,
    site: &Site,
    values: &Given,
    ctx: &mut Ctx,
) -> Option<Result<Value, EvalError>> {
    let first_ct = datetime::is_posixct(&values[0].1);
    let tz = values
        .iter()
        .find(|(_, v)| datetime::is_posixct(v))
        .map(|(_, v)| datetime::tzone(v))
        .unwrap_or_else(|| "UTC".into());
    let re_ct = |r: Result<Value, EvalError>| r.map(|v| datetime::posixct(v, &tz));
    let r = match func {
        "+" | "-" => ct_plus_minus(func, site, values, ctx, &tz),
        "*" | "/" | "^" | "%%" | "%/%" | "&" | "|" | "!" => {
            Err(site.fail(format!("'{func}' not defined for \"POSIXt\" objects")))
        }
        "==" | "!=" | "<" | ">" | "<=" | ">=" => {
            let mut bare = Vec::with_capacity(values.len());
            for (n, v) in values {
                let v = match names::bare(v) {
                    Value::Str(_) if !datetime::is_posixct(v) => {
                        match datetime::as_posixct_of(v, &tz) {
                            Ok(t) => dates::unclassed(&t),
                            Err(e) => return Some(Err(site.kernel(e))),
                        }
                    }
                    _ => dates::unclassed(v),
                };
                bare.push((n.clone(), Cow::Owned(v)));
            }
            site.default(func, &bare, ctx)
        }
        "trunc" | "round" if first_ct => ct_trunc_round(func, site, values, &tz),
        f if first_ct && MATH.contains(&f) => {
            Err(site.fail(format!("'{f}' not defined for \"POSIXt\" objects")))
        }
        "sum" | "prod" | "any" | "all" => {
            Err(site.fail(format!("'{func}' not defined for \"POSIXt\" objects")))
        }
        "min" | "max" | "range" | "mean" | "median" | "rev" | "sort" | "unique" | "head"
        | "tail" | "rep" | "na.omit"
            if first_ct =>
        {
            re_ct(site.default(func, &unclass_all(values), ctx))
        }
        "diff" if first_ct => site.default(func, &unclass_all(values), ctx).and_then(|v| {
            datetime::secs_difftime(dates::days(&v), "auto").map_err(|e| site.kernel(e))
        }),
        "c" if first_ct => {
            let mut out = Vec::new();
            for (_, v) in values {
                if matches!(names::bare(v), Value::Null) {
                    continue;
                }
                match datetime::as_posixct_of(v, &tz) {
                    Ok(t) => out.extend(dates::days(&t)),
                    Err(e) => return Some(Err(site.kernel(e))),
                }
            }
            Ok(datetime::posixct(Value::Num(out), &tz))
        }
        "format" | "as.character" if first_ct => ct_format(site, values, &tz),
        "print" | "invisible" | "identity" => Ok(values[0].1.clone().into_owned()),
        "is.numeric" if first_ct => Ok(Value::Bool(vec![Some(false)])),
        "seq"
            if first_ct
                || values
                    .iter()
                    .any(|(n, v)| n.as_deref() == Some("from") && datetime::is_posixct(v)) =>
        {
            ct_seq(site, values, &tz)
        }
        "table" | "paste" | "paste0" | "factor" | "as.factor" => match times_as_text(values) {
            Ok(v) => site.default(func, &v, ctx),
            Err(e) => Err(site.kernel(e)),
        },
        "cut" if first_ct => cut(site, values, ctx, Kind::Ct(&tz)),
        "summary" if first_ct => summary(site, values, Kind::Ct(&tz)),
        "quantile" | "split" if first_ct => reclassed(func, site, values, ctx, Kind::Ct(&tz)),
        "sapply" | "lapply" | "vapply" | "ifelse" if first_ct => Err(site.fail(format!(
            "flowcast cannot yet run {func}() on a date-time as R does; convert it first \
             (as.numeric(x) or format(x))"
        ))),
        _ => return None,
    };
    Some(r)
}

/// `+.POSIXt` and `-.POSIXt`: seconds (or a difftime) on a date-time; a
/// date-time less another is their difftime in R's automatic units.
fn ct_plus_minus(
    op: &str,
    site: &Site,
    values: &Given,
    ctx: &mut Ctx,
    tz: &str,
) -> Result<Value, EvalError> {
    let e1 = &values[0].1;
    if values.len() == 1 {
        return if op == "+" {
            Ok(e1.clone().into_owned())
        } else {
            Err(site.fail("unary '-' is not defined for \"POSIXt\" objects"))
        };
    }
    let e2 = &values[1].1;
    let (c1, c2) = (datetime::is_posixct(e1), datetime::is_posixct(e2));
    if op == "+" && c1 && c2 {
        return Err(site.fail("binary '+' is not defined for \"POSIXt\" objects"));
    }
    if op == "-" {
        if !c1 {
            return Err(site.fail("can only subtract from \"POSIXt\" objects"));
        }
        if c2 {
            return dates::difftime_of(e1, e2, "auto").map_err(|e| site.kernel(e));
        }
        if dates::is_date(e2) {
            return Err(site.fail("can only subtract numbers from \"POSIXt\" objects"));
        }
    }
    if dates::is_date(e1) || dates::is_date(e2) {
        return Err(site.fail("binary '+' is not defined for \"POSIXt\" objects"));
    }
    let operand = |v: &Cow<Value>| -> Value {
        if dates::is_difftime(v) {
            difftime_secs(v)
        } else {
            dates::unclassed(v)
        }
    };
    let bare = [
        (None, Cow::Owned(operand(e1))),
        (None, Cow::Owned(operand(e2))),
    ];
    site.default(op, &bare, ctx)
        .map(|v| datetime::posixct(v, tz))
}

/// `match.arg(units)` of trunc.POSIXt's and round.POSIXt's units.
fn time_units(v: Option<&Value>, round: bool) -> Result<&'static str, String> {
    const UNITS: [&str; 6] = ["secs", "mins", "hours", "days", "months", "years"];
    let Some(v) = v else { return Ok("secs") };
    let u = match names::bare(v) {
        // round(x, 0): the generic's digits.
        Value::Num(d) if round && d.len() == 1 && d[0] == 0.0 => return Ok("secs"),
        Value::Str(s) if s.len() == 1 => s[0].as_str(),
        Value::Str(s) if s.len() == UNITS.len() && s.iter().eq(UNITS.iter()) => return Ok("secs"),
        Value::Str(_) => return Err("'arg' must be of length 1".into()),
        _ => return Err("'arg' must be NULL or a character vector".into()),
    };
    let hits: Vec<&&str> = UNITS.iter().filter(|x| x.starts_with(u)).collect();
    match (UNITS.iter().find(|x| **x == u), &hits[..]) {
        (Some(x), _) => Ok(*x),
        (None, [x]) if !u.is_empty() => Ok(**x),
        _ => Err(format!(
            "'arg' should be one of {}",
            UNITS
                .iter()
                .map(|c| format!("\u{201c}{c}\u{201d}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// `trunc.POSIXt` and `round.POSIXt`, as POSIXct (R's value is the
/// POSIXlt of the same time).
fn ct_trunc_round(func: &str, site: &Site, values: &Given, tz: &str) -> Result<Value, EvalError> {
    let round = func == "round";
    let arg = if round { "digits" } else { "units" };
    let u = values[1..]
        .iter()
        .find(|(n, _)| {
            matches!(n.as_deref(), Some("units" | "digits")) || n.as_deref() == Some(arg)
        })
        .or_else(|| values[1..].iter().find(|(n, _)| n.is_none()))
        .map(|(_, v)| &**v);
    let units = time_units(u, round).map_err(|m| site.fail(m))?;
    if round && matches!(units, "months" | "years") {
        return Err(site.fail(format!(
            "flowcast rounds a date-time to secs, mins, hours or days, not {units} (use trunc)"
        )));
    }
    let t = dates::days(&values[0].1);
    let out = t
        .into_iter()
        .map(|x| {
            if round {
                datetime::round_to(x, units)
            } else {
                datetime::trunc_to(x, units)
            }
        })
        .collect();
    Ok(datetime::posixct(Value::Num(out), tz))
}

/// `format.POSIXct(x, format = "", tz = "", usetz = FALSE)`.
fn ct_format(site: &Site, values: &Given, tz: &str) -> Result<Value, EvalError> {
    let x = &values[0].1;
    let fmt = match named_or_second(values, "format") {
        Some(f) => strings(f, "format").map_err(|m| site.fail(m))?,
        None => vec![String::new()],
    };
    let zone = match values[1..].iter().find(|(n, _)| n.as_deref() == Some("tz")) {
        Some((_, z)) => match names::bare(z) {
            Value::Str(s) if s.len() == 1 && s[0].is_empty() => tz.to_string(),
            _ => datetime::zone_arg(Some(&**z))
                .map_err(|e| site.kernel(e))?
                .unwrap_or_else(|| tz.to_string()),
        },
        None => tz.to_string(),
    };
    let usetz = match values[1..]
        .iter()
        .find(|(n, _)| n.as_deref() == Some("usetz"))
    {
        Some((_, u)) => u
            .as_flag()
            .ok_or_else(|| site.fail("invalid 'usetz' argument"))?,
        None => false,
    };
    let t = dates::days(x);
    let out = datetime::format_times(&t, &fmt, &zone).map_err(|e| site.kernel(e))?;
    let out = match out {
        Value::Str(s) if usetz => Value::Str(
            s.into_iter()
                .map(|s| if s == "NA" { s } else { format!("{s} {zone}") })
                .collect(),
        ),
        other => other,
    };
    Ok(match names::names(x) {
        Some(n) if n.len() == out.len() => names::named(out, n.to_vec()),
        _ => out,
    })
}

/// seq.POSIXt's `by`: seconds, or months.
enum CtBy {
    Secs(f64),
    Months(f64),
}

fn ct_by(by: &Value) -> Result<CtBy, String> {
    if dates::is_difftime(by) {
        let s = dates::days(&difftime_secs(by));
        return match s[..] {
            [x] => Ok(CtBy::Secs(x)),
            _ => Err("'by' must be of length 1".into()),
        };
    }
    match names::bare(by) {
        Value::Num(v) if v.len() == 1 => {
            if v[0].is_nan() {
                Err("'by' is NA".into())
            } else {
                Ok(CtBy::Secs(v[0]))
            }
        }
        Value::Num(_) | Value::Str(_) if by.len() != 1 => Err("'by' must be of length 1".into()),
        Value::Str(s) => {
            let parts: Vec<&str> = s[0].split(' ').collect();
            if parts.is_empty() || parts.len() > 2 {
                return Err("invalid 'by' string".into());
            }
            const UNITS: [&str; 9] = [
                "secs", "mins", "hours", "days", "weeks", "months", "years", "DSTdays", "quarters",
            ];
            let unit = parts[parts.len() - 1];
            let exact = UNITS.iter().position(|u| *u == unit);
            let hits: Vec<usize> = (0..UNITS.len())
                .filter(|&i| !unit.is_empty() && UNITS[i].starts_with(unit))
                .collect();
            let valid = match (exact, &hits[..]) {
                (Some(i), _) => i,
                (None, [i]) => *i,
                _ => return Err("invalid string for 'by'".into()),
            };
            let k = if parts.len() == 2 {
                match parts[0].trim().parse::<f64>() {
                    Ok(v) if v.is_finite() && v.abs() < 2147483648.0 => v.trunc(),
                    _ => return Err("invalid 'by' string".into()),
                }
            } else {
                1.0
            };
            Ok(match valid {
                0 => CtBy::Secs(k),
                1 => CtBy::Secs(60.0 * k),
                2 => CtBy::Secs(3600.0 * k),
                // In UTC a DST day is a day.
                3 | 7 => CtBy::Secs(86400.0 * k),
                4 => CtBy::Secs(7.0 * 86400.0 * k),
                5 => CtBy::Months(k),
                6 => CtBy::Months(12.0 * k),
                _ => CtBy::Months(3.0 * k),
            })
        }
        _ => Err("invalid mode for 'by'".into()),
    }
}

/// Most date-times one seq makes before flowcast refuses the call.
const MAX_CT_SEQ: f64 = 1e8;

/// `seq.POSIXt(from, to, by, length.out, along.with)`.
fn ct_seq(site: &Site, values: &Given, tz: &str) -> Result<Value, EvalError> {
    let slot = seq_slots(site, values)?;
    let one = |v: &Value, what: &str| -> Result<f64, EvalError> {
        if !datetime::is_posixct(v) && !dates::is_date(v) {
            return Err(site.fail(format!("'{what}' must be a \"POSIXt\" object")));
        }
        let t = if dates::is_date(v) {
            dates::days(v).into_iter().map(|d| d * 86400.0).collect()
        } else {
            dates::days(v)
        };
        match t[..] {
            [d] if d.is_finite() => Ok(d),
            [_] => Err(site.fail(format!("'{what}' must be a finite number"))),
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
            Value::Num(x) if x.len() == 1 && x[0] >= 0.0 => Some(x[0].ceil()),
            Value::Num(x) if x.len() == 1 => {
                return Err(site.fail("'length.out' must be a non-negative number"))
            }
            _ => return Err(site.fail("'length.out' must be of length 1")),
        },
        (None, None) => None,
    };
    if length_out.is_some_and(|n| n > MAX_CT_SEQ) {
        return Err(site.fail("flowcast makes at most 1e8 date-times in one seq"));
    }
    let given = [to.is_some(), slot[2].is_some(), length_out.is_some()];
    if given.iter().filter(|g| **g).count() != 2 {
        return Err(site
            .fail("exactly two of 'to', 'by' and 'length.out' / 'along.with' must be specified"));
    }
    let by = slot[2].map(ct_by).transpose().map_err(|m| site.fail(m))?;
    let count = |span: f64, step: f64| -> Result<usize, EvalError> {
        if step == 0.0 {
            return Err(site.fail("invalid '(to - from)/by' in seq(.)"));
        }
        let n = span / step;
        if n < 0.0 {
            return Err(site.fail("wrong sign in 'by' argument"));
        }
        if n > MAX_CT_SEQ {
            return Err(site.fail("flowcast makes at most 1e8 date-times in one seq"));
        }
        Ok((n + 1e-10).floor() as usize)
    };
    let out: Vec<f64> = match by {
        None => {
            let (to, n) = (to.unwrap_or(from), length_out.unwrap_or(0.0) as usize);
            match n {
                0 => Vec::new(),
                1 => vec![from],
                _ => {
                    let step = (to - from) / (n - 1) as f64;
                    (0..n).map(|i| from + i as f64 * step).collect()
                }
            }
        }
        Some(CtBy::Secs(step)) => match (length_out, to) {
            (Some(n), _) => (0..n as usize).map(|i| from + i as f64 * step).collect(),
            (None, Some(to)) => {
                let k = count(to - from, step)?;
                (0..=k).map(|i| from + i as f64 * step).collect()
            }
            (None, None) => Vec::new(),
        },
        Some(CtBy::Months(step)) => {
            let day = (from / 86400.0).floor();
            let clock = from - day * 86400.0;
            let Some(c) = dates::civil(day) else {
                return Err(site.fail("'from' must be a finite number"));
            };
            // Months past i64's calendar are no date-times.
            let reach = step.abs() * length_out.unwrap_or(0.0);
            if !reach.is_finite() || reach > 1.2e9 {
                return Err(
                    site.fail("flowcast makes date-times at most 1e8 years apart in one seq")
                );
            }
            let at = |k: f64| {
                dates::days_from_civil(c.year, i64::from(c.month) + k as i64, i64::from(c.day))
                    * 86400.0
                    + clock
            };
            match (length_out, to) {
                (Some(n), _) => (0..n as usize).map(|i| at(i as f64 * step)).collect(),
                (None, Some(to)) => {
                    let Some(e) = dates::civil((to / 86400.0).floor()) else {
                        return Err(site.fail("'to' must be a finite number"));
                    };
                    let span =
                        12.0 * (e.year - c.year) as f64 + f64::from(e.month) - f64::from(c.month);
                    let k = count(span, step)?;
                    let v: Vec<f64> = (0..=k).map(|i| at(i as f64 * step)).collect();
                    v.into_iter()
                        .filter(|t| if step > 0.0 { *t <= to } else { *t >= to })
                        .collect()
                }
                (None, None) => Vec::new(),
            }
        }
    };
    Ok(datetime::posixct(Value::Num(out), tz))
}
