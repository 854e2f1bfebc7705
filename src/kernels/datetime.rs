//! R's POSIXct date-times in UTC (or GMT): seconds since 1970-01-01
//! 00:00:00 held as a double with class c("POSIXct", "POSIXt") and the
//! `tzone` attribute, as R's `.POSIXct` makes them. Reading follows
//! `as.POSIXlt.character` (its `tryFormats`) over `R_strptime` of
//! Rstrptime.h, writing `format.POSIXlt` over its strftime; the calendar
//! is dates.rs's. A date-time in the session's time zone (R's `tz = ""`)
//! is refused naming the fix: flowcast's runs must not depend on the
//! machine's zone, so the zone is always said. What R dispatches on the
//! class (`+.POSIXt`, `Ops.POSIXt`, `seq.POSIXt`, …) is in
//! exec/eval/date_methods.rs.

use super::args::{ArgError, Args};
use super::dates::{
    self, civil, days_from_civil, len_of, same_length_num, same_length_str, str_arg,
};
use super::names::with_attr;
use super::value::{is_na, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "as.POSIXct",
        params: &[
            req("x"),
            opt("tz"),
            opt("format"),
            opt("tryFormats"),
            opt("optional"),
            opt("origin"),
        ],
        random: false,
        shape: same_length_num,
        eval: as_posixct_eval,
    },
    Kernel {
        name: "ISOdate",
        params: &[
            req("year"),
            req("month"),
            req("day"),
            opt("hour"),
            opt("min"),
            opt("sec"),
            opt("tz"),
        ],
        random: false,
        shape: longest,
        eval: iso_eval,
    },
    Kernel {
        name: "ISOdatetime",
        params: &[
            req("year"),
            req("month"),
            req("day"),
            req("hour"),
            req("min"),
            req("sec"),
            opt("tz"),
        ],
        random: false,
        shape: longest,
        eval: iso_eval,
    },
    Kernel {
        name: "strftime",
        params: &[req("x"), opt("format"), opt("tz"), opt("usetz"), DOTS],
        random: false,
        shape: same_length_str,
        eval: strftime_eval,
    },
    Kernel {
        name: "strptime",
        params: &[req("x"), req("format"), opt("tz")],
        random: false,
        shape: strptime_shape,
        eval: strptime_eval,
    },
    Kernel {
        name: "as.difftime",
        params: &[req("tim"), opt("format"), opt("units"), opt("tz")],
        random: false,
        shape: tim_length,
        eval: as_difftime_eval,
    },
    Kernel {
        name: "units",
        params: &[req("x")],
        random: false,
        shape: units_shape,
        eval: units_eval,
    },
    Kernel {
        name: "units<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: set_units_shape,
        eval: set_units_eval,
    },
];

/// The refusal of R's session time zone.
pub const NO_SESSION_ZONE: &str = "flowcast keeps date-times in UTC or GMT only, never in the \
     session's time zone R would use here: give tz = \"UTC\"";

/// R's `inherits(x, "POSIXct")`.
pub fn is_posixct(v: &Value) -> bool {
    match v {
        Value::Named(n) => n.attrs.iter().any(|(k, c)| {
            k == "class" && matches!(c, Value::Str(s) if s.iter().any(|c| c == "POSIXct"))
        }),
        _ => false,
    }
}

/// The `tzone` of a POSIXct ("UTC" when absent).
pub fn tzone(v: &Value) -> String {
    match v {
        Value::Named(n) => n
            .attrs
            .iter()
            .find_map(|(k, u)| match (k.as_str(), u) {
                ("tzone", Value::Str(s)) if s.len() == 1 => Some(s[0].clone()),
                _ => None,
            })
            .unwrap_or_else(|| "UTC".into()),
        _ => "UTC".into(),
    }
}

/// R's `.POSIXct(secs, tz)`, names of `secs` kept.
pub fn posixct(secs: Value, tz: &str) -> Value {
    let v = with_attr(
        dates::unclassed(&secs),
        "class",
        Value::Str(vec!["POSIXct".into(), "POSIXt".into()]),
    );
    with_attr(v, "tzone", Value::string(tz))
}

/// The zone an argument names: "UTC" and "GMT" (and their spellings R
/// reads as the same zone) are kept; "" is the session's, refused.
pub fn zone_arg(v: Option<&Value>) -> Result<Option<String>, KernelError> {
    let Some(v) = v else { return Ok(None) };
    match super::names::bare(v) {
        Value::Str(s) if s.len() == 1 => match s[0].as_str() {
            "UTC" | "GMT" => Ok(Some(s[0].clone())),
            "" => Err(KernelError::new(NO_SESSION_ZONE)),
            other => Err(KernelError::new(format!(
                "flowcast keeps date-times in UTC or GMT only, not in time zone \"{other}\": \
                 give tz = \"UTC\""
            ))),
        },
        _ => Err(KernelError::new("invalid 'tz' value")),
    }
}

/// R_strptime (dates.rs's) of one string in one format, to seconds:
/// `Ok(None)` where the text does not fit (R's NA).
pub fn strptime_secs(text: &str, fmt: &str) -> Result<Option<f64>, KernelError> {
    let Some(tm) = dates::r_strptime(text, fmt)? else {
        return Ok(None);
    };
    Ok(tm.day()?.map(|day| day * 86400.0 + tm.clock()))
}

/// Strings as `as.POSIXlt.character` reads them: "" and NA are NA.
fn strings_of(v: &Value) -> Option<Vec<Option<String>>> {
    match super::names::bare(v) {
        Value::Str(s) => Some(
            s.iter()
                .map(|s| (!s.is_empty() && s != "NA").then(|| s.clone()))
                .collect(),
        ),
        Value::Factor(f) => Some(
            f.codes
                .iter()
                .map(|c| c.map(|c| f.levels[c as usize].clone()))
                .collect(),
        ),
        _ => None,
    }
}

const TRY_FORMATS: [&str; 6] = [
    "%Y-%m-%d %H:%M:%OS",
    "%Y/%m/%d %H:%M:%OS",
    "%Y-%m-%d %H:%M",
    "%Y/%m/%d %H:%M",
    "%Y-%m-%d",
    "%Y/%m/%d",
];

/// `as.POSIXlt.character`: `format` (recycled) when given, else the
/// first of `tryFormats` that reads every string that is not NA.
fn parse(
    x: &[Option<String>],
    format: Option<&[String]>,
    tries: &[String],
    optional: bool,
) -> Result<Vec<f64>, KernelError> {
    let read = |fmts: &[String]| dates::read_formats(x, fmts, strptime_secs);
    if let Some(f) = format {
        return read(f);
    }
    if x.iter().all(Option::is_none) {
        return Ok(vec![NA; x.len()]);
    }
    for f in tries {
        let mut all = true;
        for s in x.iter().flatten() {
            if strptime_secs(s, f)?.is_none() {
                all = false;
                break;
            }
        }
        if all {
            return read(std::slice::from_ref(f));
        }
    }
    if optional {
        return Ok(vec![NA; x.len()]);
    }
    Err(KernelError::new(
        "character string is not in a standard unambiguous format",
    ))
}

/// `as.POSIXct(x, tz, ...)` of text, a Date, a POSIXct or numbers.
pub fn as_posixct(args: &Args<&Value>) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let tz = zone_arg(args.get("tz"))?;
    if is_posixct(x) {
        let tz = tz.unwrap_or_else(|| tzone(x));
        return Ok(posixct(x.clone(), &tz));
    }
    if dates::is_date(x) {
        // as.POSIXct.Date: the day's midnight UTC.
        let secs = dates::days(x).into_iter().map(|d| d * 86400.0).collect();
        return Ok(posixct(Value::Num(secs), tz.as_deref().unwrap_or("UTC")));
    }
    let Some(tz) = tz else {
        return Err(KernelError::new(NO_SESSION_ZONE));
    };
    if let Some(s) = strings_of(x) {
        let format = str_arg(args.get("format"), "format")?;
        let tries = str_arg(args.get("tryFormats"), "tryFormats")?
            .unwrap_or_else(|| TRY_FORMATS.iter().map(|s| s.to_string()).collect());
        let optional = match args.get("optional") {
            None => false,
            Some(v) => v
                .as_flag()
                .ok_or_else(|| KernelError::new("invalid 'optional' argument"))?,
        };
        let secs = parse(&s, format.as_deref(), &tries, optional)?;
        return Ok(posixct(Value::Num(secs), &tz));
    }
    match super::names::bare(x) {
        Value::Num(v) => {
            // as.POSIXct.numeric: R 4.2 wants the origin.
            let Some(origin) = args.get("origin") else {
                return Err(KernelError::new("'origin' must be supplied"));
            };
            let o = as_posixct_of(origin, &tz)?;
            let o = dates::days(&o);
            if o.len() != 1 {
                return Err(KernelError::new("'origin' must be of length one"));
            }
            Ok(posixct(
                Value::Num(v.iter().map(|s| s + o[0]).collect()),
                &tz,
            ))
        }
        Value::Null => Ok(posixct(Value::Num(Vec::new()), &tz)),
        Value::Bool(b) if b.iter().all(Option::is_none) => {
            Ok(posixct(Value::Num(vec![NA; b.len()]), &tz))
        }
        other => Err(KernelError::new(format!(
            "do not know how to convert '{}' to class \u{201c}POSIXct\u{201d}",
            other.type_name()
        ))),
    }
}

/// `as.POSIXct(v, tz)` of a value alone.
pub fn as_posixct_of(v: &Value, tz: &str) -> Result<Value, KernelError> {
    if is_posixct(v) {
        return Ok(v.clone());
    }
    if dates::is_date(v) {
        let secs = dates::days(v).into_iter().map(|d| d * 86400.0).collect();
        return Ok(posixct(Value::Num(secs), tz));
    }
    match strings_of(v) {
        Some(s) => {
            let tries: Vec<String> = TRY_FORMATS.iter().map(|s| s.to_string()).collect();
            Ok(posixct(Value::Num(parse(&s, None, &tries, false)?), tz))
        }
        None => Err(KernelError::new(format!(
            "do not know how to convert '{}' to class \u{201c}POSIXct\u{201d}",
            v.type_name()
        ))),
    }
}

fn as_posixct_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    as_posixct(args)
}

/// `ISOdate` and `ISOdatetime`: the fields pasted and read back with
/// "%Y-%m-%d-%H-%M-%OS", so a field that is no whole number, or a date
/// past its month's end, is NA.
fn iso_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let date_only = args.func == "ISOdate";
    let tz = match args.get("tz") {
        None if date_only => "GMT".to_string(),
        None => return Err(KernelError::new(NO_SESSION_ZONE)),
        v => zone_arg(v)?.unwrap_or_else(|| "UTC".into()),
    };
    let field = |name: &str, default: f64| -> Result<Vec<f64>, KernelError> {
        match args.get(name) {
            None => Ok(vec![default]),
            Some(v) => match super::names::bare(v) {
                Value::Num(x) => Ok(x.clone()),
                Value::Bool(b) => Ok(b.iter().map(|b| b.map_or(NA, f64::from)).collect()),
                Value::Str(s) => Ok(s.iter().map(|s| s.trim().parse().unwrap_or(NA)).collect()),
                other => Err(KernelError::new(format!(
                    "{}() needs numbers for '{name}', not {}",
                    args.func,
                    other.type_name()
                ))),
            },
        }
    };
    let parts = [
        field("year", NA)?,
        field("month", NA)?,
        field("day", NA)?,
        field("hour", 12.0)?,
        field("min", 0.0)?,
        field("sec", 0.0)?,
    ];
    let n = if parts.iter().any(Vec::is_empty) {
        0
    } else {
        parts.iter().map(Vec::len).max().unwrap_or(0)
    };
    let whole = |v: f64, lo: f64, hi: f64| v.fract() == 0.0 && (lo..=hi).contains(&v);
    let secs = (0..n)
        .map(|i| {
            let p: Vec<f64> = parts.iter().map(|v| v[i % v.len()]).collect();
            let (y, m, d, h, mi, s) = (p[0], p[1], p[2], p[3], p[4], p[5]);
            if p.iter().any(|v| is_na(*v))
                || !whole(y, 0.0, 9999.0)
                || !whole(m, 1.0, 12.0)
                || !whole(d, 1.0, 31.0)
                || !whole(h, 0.0, 23.0)
                || !whole(mi, 0.0, 59.0)
                || !(0.0..=61.0).contains(&s)
            {
                return NA;
            }
            let day = days_from_civil(y as i64, m as i64, d as i64);
            if civil(day).is_none_or(|c| f64::from(c.day) != d) {
                return NA;
            }
            day * 86400.0 + h * 3600.0 + mi * 60.0 + s
        })
        .collect();
    Ok(posixct(Value::Num(secs), &tz))
}

/// The calendar and clock of second `t`: the day, and seconds into it.
fn split(t: f64) -> Option<(dates::Civil, f64)> {
    let day = (t / 86400.0).floor();
    let c = civil(day)?;
    Some((c, t - day * 86400.0))
}

/// `format.POSIXct` of one time in `fmt`, in UTC; `None` is NA.
pub fn strftime(t: f64, fmt: &str, zone: &str) -> Result<Option<String>, KernelError> {
    let Some((_, secs)) = split(t) else {
        // NA stays NA; the format must still be one flowcast writes.
        strftime(0.0, fmt, zone)?;
        return Ok(None);
    };
    let day = (t / 86400.0).floor();
    let whole = secs.floor() as u32;
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    let mut out = String::new();
    let mut chars = fmt.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            out.push(ch);
            continue;
        }
        let Some(spec) = chars.next() else {
            out.push('%');
            break;
        };
        match spec {
            'H' => out.push_str(&format!("{h:02}")),
            'I' => out.push_str(&format!("{:02}", if h % 12 == 0 { 12 } else { h % 12 })),
            'M' => out.push_str(&format!("{m:02}")),
            'S' => out.push_str(&format!("{s:02}")),
            'p' => out.push_str(if h < 12 { "AM" } else { "PM" }),
            'T' => out.push_str(&format!("{h:02}:{m:02}:{s:02}")),
            'R' => out.push_str(&format!("{h:02}:{m:02}")),
            'Z' => out.push_str(zone),
            'z' => out.push_str("+0000"),
            's' => out.push_str(&format!("{}", t.floor())),
            'O' if chars.peek() == Some(&'S') => {
                chars.next();
                // %OSn: seconds with n decimals, truncated as R writes them.
                let digits = match chars.peek().and_then(|d| d.to_digit(10)) {
                    Some(d) => {
                        chars.next();
                        d as usize
                    }
                    None => 0,
                };
                if digits == 0 {
                    out.push_str(&format!("{s:02}"));
                } else {
                    let p = 10f64.powi(digits as i32);
                    let v = (secs % 60.0 * p + 1e-6).floor() / p;
                    out.push_str(&format!("{:0w$.digits$}", v, w = digits + 3));
                }
            }
            other => match dates::strftime(day, &format!("%{other}"))? {
                Some(text) => out.push_str(&text),
                None => return Ok(None),
            },
        }
    }
    Ok(Some(out))
}

/// `format.POSIXlt`'s default format in R 4.2: the date alone where every
/// time is a midnight, else the date and the time to the second.
pub fn default_format(t: &[f64]) -> &'static str {
    let clock: Vec<f64> = t
        .iter()
        .filter(|v| v.is_finite())
        .map(|v| v - (v / 86400.0).floor() * 86400.0)
        .collect();
    if clock.iter().all(|s| *s == 0.0) {
        "%Y-%m-%d"
    } else {
        "%Y-%m-%d %H:%M:%S"
    }
}

/// `format(x, format)` of POSIXct seconds, `fmt` recycled.
pub fn format_times(t: &[f64], fmt: &[String], zone: &str) -> Result<Value, KernelError> {
    if fmt.is_empty() {
        return Err(KernelError::new("invalid 'format' argument"));
    }
    let n = if t.is_empty() {
        0
    } else {
        t.len().max(fmt.len())
    };
    let out: Result<Vec<Option<String>>, KernelError> = (0..n)
        .map(|i| {
            let f = &fmt[i % fmt.len()];
            let f = if f.is_empty() { default_format(t) } else { f };
            strftime(t[i % t.len()], f, zone)
        })
        .collect();
    Ok(dates::text(out?))
}

/// difftime's units for a set of seconds, as `difftime(units = "auto")`
/// chooses from the smallest that is not NA.
pub fn auto_units(secs: &[f64]) -> &'static str {
    let zz = secs
        .iter()
        .filter(|z| !z.is_nan())
        .fold(f64::INFINITY, |m, z| m.min(z.abs()));
    if !zz.is_finite() || zz < 60.0 {
        "secs"
    } else if zz < 3600.0 {
        "mins"
    } else if zz < 86400.0 {
        "hours"
    } else {
        "days"
    }
}

/// Seconds in a difftime unit.
pub fn unit_secs(units: &str) -> Option<f64> {
    Some(match units {
        "secs" => 1.0,
        "mins" => 60.0,
        "hours" => 3600.0,
        "days" => 86400.0,
        "weeks" => 7.0 * 86400.0,
        _ => return None,
    })
}

/// A difftime of `secs` in `units` ("auto": R's choice).
pub fn secs_difftime(secs: Vec<f64>, units: &str) -> Result<Value, KernelError> {
    let units = if units == "auto" {
        auto_units(&secs)
    } else {
        units
    };
    let per = unit_secs(units).ok_or_else(|| KernelError::new("invalid units specified"))?;
    let z = secs
        .into_iter()
        .map(|s| if is_na(s) { NA } else { s / per })
        .collect();
    Ok(dates::difftime(Value::Num(z), units))
}

/// `trunc.POSIXt(x, units)`: back to the start of the unit (a month's
/// first day, a year's first day).
pub fn trunc_to(t: f64, units: &str) -> f64 {
    if !t.is_finite() {
        return t;
    }
    match units {
        "secs" => t.floor(),
        "mins" => (t / 60.0).floor() * 60.0,
        "hours" => (t / 3600.0).floor() * 3600.0,
        "days" => (t / 86400.0).floor() * 86400.0,
        "months" | "years" => match split(t) {
            Some((c, _)) => {
                let m = if units == "years" { 1 } else { c.month };
                days_from_civil(c.year, m.into(), 1) * 86400.0
            }
            None => NA,
        },
        _ => NA,
    }
}

/// `round.POSIXt(x, units)` to seconds, minutes, hours or days: half a
/// unit on, then truncated.
pub fn round_to(t: f64, units: &str) -> f64 {
    let half = match units {
        "secs" => 0.5,
        "mins" => 30.0,
        "hours" => 1800.0,
        _ => 43200.0,
    };
    trunc_to(t + half, units)
}

fn longest(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mut lens = Vec::new();
    for name in ["year", "month", "day", "hour", "min", "sec"] {
        if args.has(name) {
            lens.push(len_of(args.ty(name)));
        }
    }
    let len = if lens.contains(&Some(0)) {
        Some(0)
    } else if lens.iter().all(Option::is_some) {
        lens.into_iter().flatten().max()
    } else {
        None
    };
    Ok(Type::Num { len, value: None })
}

/// `strftime(x, format, tz, usetz)`: `format(as.POSIXlt(x, tz), format)`.
/// A Date is read in UTC, as R reads it; anything else needs its zone.
fn strftime_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let zone = zone_arg(args.get("tz"))?;
    let (secs, zone) = if dates::is_date(x) {
        let t: Vec<f64> = dates::days(x).into_iter().map(|d| d * 86400.0).collect();
        (t, zone.unwrap_or_else(|| "UTC".into()))
    } else {
        let Some(zone) = zone else {
            return Err(KernelError::new(NO_SESSION_ZONE));
        };
        (dates::days(&as_posixct_of(x, &zone)?), zone)
    };
    let fmt = match args.get("format").map(super::names::bare) {
        None => vec![String::new()],
        Some(Value::Str(f)) => f.clone(),
        Some(_) => return Err(KernelError::new("invalid 'format' argument")),
    };
    let usetz = match args.get("usetz") {
        None => false,
        Some(u) => u
            .as_flag()
            .ok_or_else(|| KernelError::new("invalid 'usetz' argument"))?,
    };
    let out = format_times(&secs, &fmt, &zone)?;
    Ok(match out {
        Value::Str(s) if usetz => Value::Str(
            s.into_iter()
                .map(|s| if s == "NA" { s } else { format!("{s} {zone}") })
                .collect(),
        ),
        other => other,
    })
}

/// `strptime(x, format, tz)`: R_strptime of `as.character(x)` in
/// `format` (both recycled to the longer), as the POSIXct
/// `as.POSIXct(strptime(x, format, tz))` of R's POSIXlt; NA where the
/// text does not fit. `tz = ""` (R's session zone) is read as UTC.
fn strptime_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    let Some(fmt) = args.get("format") else {
        return Err(KernelError::new(
            "argument \"format\" is missing, with no default",
        ));
    };
    let fmt = match super::names::bare(fmt) {
        Value::Str(f) if !f.is_empty() => f.clone(),
        _ => return Err(KernelError::new("invalid 'format' argument")),
    };
    let zone = match args.get("tz").map(super::names::bare) {
        None => "UTC".to_string(),
        Some(Value::Str(z)) if z.len() == 1 && z[0].is_empty() => "UTC".to_string(),
        Some(z @ Value::Str(s)) if s.len() == 1 => zone_arg(Some(z))?.unwrap_or_default(),
        Some(_) => return Err(KernelError::new("invalid 'tz' value")),
    };
    // as.character(x)
    let text: Vec<Option<String>> = if dates::is_date(x) {
        dates::format_dates(&dates::days(x), &["%Y-%m-%d".to_string()])?
    } else {
        super::factor::as_text(super::names::bare(x)).ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's strptime reads text, numbers or dates, not a {}",
                x.type_name()
            ))
        })?
    };
    // An NA string is NA whatever its format (as_text reads "NA" as NA; dates
    // never write it).
    let secs = dates::read_formats(&text, &fmt, strptime_secs)?;
    Ok(posixct(Value::Num(secs), &zone))
}

fn strptime_shape(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::num_unknown())
}

fn tim_length(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Num {
        len: len_of(args.ty("tim")),
        value: None,
    })
}

fn units_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Num { .. }) => Type::Str {
            len: None,
            value: None,
        },
        _ => Type::Null,
    })
}

fn set_units_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Num {
        len: len_of(args.ty("x")),
        value: None,
    })
}

/// `units(x)`: a difftime's units; `attr(x, "units")` of anything else.
fn units_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if dates::is_difftime(x) {
        return Ok(Value::string(dates::difftime_units(x)));
    }
    Ok(match x {
        Value::Named(n) => n
            .attrs
            .iter()
            .find(|(k, _)| k == "units")
            .map_or(Value::Null, |(_, v)| v.clone()),
        _ => Value::Null,
    })
}

/// `units<-.difftime`: the numbers rescaled to the new units.
pub fn set_units(x: &Value, value: &Value) -> Result<Value, KernelError> {
    if !dates::is_difftime(x) {
        return Err(KernelError::new(
            "flowcast sets units() of a difftime only (R's default would set a \"units\" attribute)",
        ));
    }
    let to = match super::names::bare(value) {
        Value::Str(u) if !u.is_empty() => u[0].as_str(),
        _ => return Err(KernelError::new("invalid units specified")),
    };
    let from = dates::difftime_units(x);
    if from == to {
        return Ok(x.clone());
    }
    let (Some(a), Some(b)) = (unit_secs(from), unit_secs(to)) else {
        return Err(KernelError::new("invalid units specified"));
    };
    let v = match dates::unclassed(x) {
        Value::Named(mut n) => {
            n.value = Value::Num(dates::days(&n.value).iter().map(|z| z * (a / b)).collect());
            Value::Named(n)
        }
        other => Value::Num(dates::days(&other).iter().map(|z| z * (a / b)).collect()),
    };
    Ok(dates::difftime(v, to))
}

fn set_units_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    set_units(
        args.get("x").unwrap_or(&Value::Null),
        args.get("value").unwrap_or(&Value::Null),
    )
}

/// `as.difftime(tim, units = )` of numbers: R wants the units said.
fn as_difftime_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    const UNITS: [&str; 6] = ["auto", "secs", "mins", "hours", "days", "weeks"];
    let units = match args.get("units").map(super::names::bare) {
        None => "auto",
        Some(Value::Str(u)) if u.len() == 1 => {
            let hits: Vec<&&str> = UNITS
                .iter()
                .filter(|c| !u[0].is_empty() && c.starts_with(u[0].as_str()))
                .collect();
            match hits[..] {
                [one] => *one,
                _ => {
                    return Err(KernelError::new(format!(
                        "'arg' should be one of {}",
                        UNITS
                            .iter()
                            .map(|c| format!("\u{201c}{c}\u{201d}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )))
                }
            }
        }
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    match super::names::bare(args.get("tim").unwrap_or(&Value::Null)) {
        Value::Num(_) | Value::Bool(_) if units == "auto" => Err(KernelError::new(
            "need explicit units for numeric conversion",
        )),
        v @ (Value::Num(_) | Value::Bool(_)) => {
            Ok(dates::difftime(Value::Num(dates::days(v)), units))
        }
        Value::Str(_) => Err(KernelError::new(
            "flowcast's as.difftime takes numbers with their units, not text to read",
        )),
        other => Err(KernelError::new(format!(
            "'tim' is not character or numeric (flowcast was given {})",
            other.type_name()
        ))),
    }
}
