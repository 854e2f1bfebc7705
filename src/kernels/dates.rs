//! R's Date class: whole days since 1970-01-01 held as a double with the
//! class attribute "Date" (a `Named` numeric, as R holds it), and the
//! difftime a subtraction of dates gives (class "difftime", units
//! "days"). Parsing is flowcast's one `R_strptime` (R's
//! src/main/Rstrptime.h) for dates and date-times alike (as.Date reads a
//! clock and drops it, as R does),
//! formatting `do_formatPOSIXlt`'s strftime for the same family, and the
//! calendar `mkdate00`/`day_of_the_week` of src/main/datetime.c over the
//! proleptic Gregorian calendar R uses. What R dispatches on the class
//! (`+.Date`, `Ops.Date`, `seq.Date`, …) is in exec/date_methods.rs.

use super::args::{ArgError, Args};
use super::constants::MONTHS;
use super::names::with_attr;
use super::value::{is_na, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "as.Date",
        params: &[
            req("x"),
            opt("format"),
            opt("tryFormats"),
            opt("optional"),
            opt("origin"),
            opt("tz"),
        ],
        random: false,
        shape: same_length_num,
        eval: as_date_eval,
    },
    Kernel {
        name: "weekdays",
        params: &[req("x"), opt("abbreviate")],
        random: false,
        shape: same_length_str,
        eval: weekdays_eval,
    },
    Kernel {
        name: "months",
        params: &[req("x"), opt("abbreviate")],
        random: false,
        shape: same_length_str,
        eval: months_eval,
    },
    Kernel {
        name: "julian",
        params: &[req("x"), opt("origin")],
        random: false,
        shape: same_length_num,
        eval: julian_eval,
    },
    Kernel {
        name: "difftime",
        params: &[req("time1"), req("time2"), opt("tz"), opt("units")],
        random: false,
        shape: difftime_shape,
        eval: difftime_eval,
    },
];

const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// Whether `v` carries exactly the class attribute `class`.
fn has_class(v: &Value, class: &str) -> bool {
    match v {
        Value::Named(n) => n.attrs.iter().any(|(k, c)| {
            k == "class" && matches!(c, Value::Str(s) if s.len() == 1 && s[0] == class)
        }),
        _ => false,
    }
}

/// R's `inherits(x, "Date")`.
pub fn is_date(v: &Value) -> bool {
    has_class(v, "Date")
}

/// R's `inherits(x, "difftime")`.
pub fn is_difftime(v: &Value) -> bool {
    has_class(v, "difftime")
}

/// The units attribute of a difftime ("days" when absent).
pub fn difftime_units(v: &Value) -> &str {
    match v {
        Value::Named(n) => n
            .attrs
            .iter()
            .find_map(|(k, u)| match (k.as_str(), u) {
                ("units", Value::Str(s)) if s.len() == 1 => Some(s[0].as_str()),
                _ => None,
            })
            .unwrap_or("days"),
        _ => "days",
    }
}

/// `v` without its class and units attributes (R's `unclass`), names kept.
pub fn unclassed(v: &Value) -> Value {
    match v {
        Value::Named(n) => {
            let mut n = n.clone();
            n.attrs
                .retain(|(k, _)| !matches!(k.as_str(), "class" | "units" | "origin" | "tzone"));
            if n.names.is_none()
                && n.rownames.is_none()
                && n.colnames.is_none()
                && n.table.is_none()
                && n.match_length.is_none()
                && n.tsp.is_none()
                && n.attrs.is_empty()
            {
                n.value
            } else {
                Value::Named(n)
            }
        }
        other => other.clone(),
    }
}

/// R's `.Date(x)`: the numbers of `v` (its names kept) as a Date.
pub fn date(v: Value) -> Value {
    with_attr(unclassed(&v), "class", Value::string("Date"))
}

/// R's `.difftime(x, units)`: units, then class, as R sets them.
pub fn difftime(v: Value, units: &str) -> Value {
    let v = with_attr(unclassed(&v), "units", Value::string(units));
    with_attr(v, "class", Value::string("difftime"))
}

/// A Date's days (or a difftime's numbers).
pub fn days(v: &Value) -> Vec<f64> {
    match super::names::bare(v) {
        Value::Num(x) => x.clone(),
        Value::Bool(b) => b.iter().map(|b| b.map_or(NA, f64::from)).collect(),
        _ => Vec::new(),
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date; `month` may run
/// past 1..=12 and `day` past the month, as `mktime00` normalises them.
pub fn days_from_civil(year: i64, month: i64, day: i64) -> f64 {
    let m0 = month - 1;
    let y = year + m0.div_euclid(12);
    let m = m0.rem_euclid(12) + 1;
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146_097 + doe - 719_468 + day - 1) as f64
}

/// The calendar fields of a day (R's `as.POSIXlt` of a Date).
#[derive(Clone, Copy, Debug)]
pub struct Civil {
    pub year: i64,
    /// 1..=12.
    pub month: u32,
    pub day: u32,
    /// 0 is Sunday.
    pub wday: u32,
    /// 0-based day of the year.
    pub yday: u32,
}

/// The date of day `z` since 1970-01-01 (floored, as `as.POSIXlt` does).
pub fn civil(z: f64) -> Option<Civil> {
    if !z.is_finite() || z.abs() > 1e11 {
        return None;
    }
    let z = z.floor() as i64;
    let wday = (z + 4).rem_euclid(7) as u32;
    let zz = z + 719_468;
    let era = zz.div_euclid(146_097);
    let doe = zz - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    let yday = (z as f64 - days_from_civil(year, 1, 1)) as u32;
    Some(Civil {
        year,
        month,
        day,
        wday,
        yday,
    })
}

fn leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The conversions flowcast's one R_strptime reads, for dates and
/// date-times alike.
const READS: &str =
    "%Y %y %m %d %e %j %b %B %h %a %A %H %k %I %l %p %M %S %OS %T %R %r %F %D %z %n %t and %%";

/// The fields R_strptime fills (R's `struct tm` with `psecs`): the clock
/// starts at midnight, the calendar fields unset until read.
#[derive(Default, Clone, Copy)]
pub struct Tm {
    year: Option<i64>,
    mon: Option<u32>,
    mday: Option<u32>,
    yday: Option<u32>,
    hour: u32,
    min: u32,
    sec: f64,
    /// `have_I`: the hour came from %I, so %p may move it past noon.
    have_i: bool,
    is_pm: bool,
    /// `%z`'s offset from UTC, in seconds east.
    offset: Option<i64>,
}

/// `get_number(from, to, n)` of Rstrptime.h: leading blanks skipped, up
/// to `n` digits read (R reads them all, so "40" is no day), then checked
/// against `from..=to`.
fn get_number(s: &[u8], at: &mut usize, from: i64, to: i64, n: usize) -> Option<i64> {
    while s.get(*at) == Some(&b' ') {
        *at += 1;
    }
    let mut val: i64 = 0;
    let mut left = n;
    match s.get(*at) {
        Some(c) if c.is_ascii_digit() => {}
        _ => return None,
    }
    loop {
        val = val * 10 + i64::from(s[*at] - b'0');
        *at += 1;
        left -= 1;
        if left == 0 || !s.get(*at).is_some_and(u8::is_ascii_digit) {
            break;
        }
    }
    (from..=to).contains(&val).then_some(val)
}

/// Rstrptime.h's `match_string`: a case-blind prefix match.
fn match_name(s: &[u8], at: &mut usize, name: &str) -> bool {
    let n = name.len();
    let ok = s.len() >= *at + n && s[*at..*at + n].eq_ignore_ascii_case(name.as_bytes());
    if ok {
        *at += n;
    }
    ok
}

/// The index of the name starting at `at`: full names tried first, then
/// the abbreviations.
fn match_names(s: &[u8], at: &mut usize, names: &[&str]) -> Option<usize> {
    names
        .iter()
        .position(|full| match_name(s, at, full))
        .or_else(|| names.iter().position(|full| match_name(s, at, &full[..3])))
}

/// The conversion of the `%` at `f[i]` and the index past it, `%O` taken
/// with its letter (`%OS` read as `o`); an error for one flowcast does
/// not read.
fn conversion(f: &[u8], i: usize) -> Result<(u8, usize), KernelError> {
    let Some(&spec) = f.get(i + 1) else {
        return Err(KernelError::new(format!(
            "flowcast reads the conversions {READS} in a date or date-time format, \
             not a lone '%' at its end"
        )));
    };
    let (spec, next) = match (spec, f.get(i + 2)) {
        (b'O', Some(b'S')) => (b'o', i + 3),
        (b'O', Some(&c)) if b"deHIMmy".contains(&c) => (c, i + 3),
        _ => (spec, i + 2),
    };
    if b"YymdejbBhaAHkIlpMSoTRrFDznt%".contains(&spec) {
        Ok((spec, next))
    } else {
        Err(KernelError::new(format!(
            "flowcast reads the conversions {READS} in a date or date-time format, not %{}",
            spec as char
        )))
    }
}

/// `strptime_internal` of Rstrptime.h: reads `s` from `at` by format
/// `f` into `tm`; false where the text does not fit.
fn strptime_internal(s: &[u8], at: &mut usize, f: &[u8], tm: &mut Tm) -> bool {
    let mut i = 0usize;
    while i < f.len() {
        let c = f[i];
        if c.is_ascii_whitespace() {
            while s.get(*at).is_some_and(u8::is_ascii_whitespace) {
                *at += 1;
            }
            i += 1;
            continue;
        }
        if c != b'%' {
            if s.get(*at) != Some(&c) {
                return false;
            }
            *at += 1;
            i += 1;
            continue;
        }
        // The format was checked whole before the text was read.
        let Ok((spec, next)) = conversion(f, i) else {
            return false;
        };
        i = next;
        let got = match spec {
            b'Y' => get_number(s, at, 0, 9999, 4).map(|v| tm.year = Some(v)),
            b'y' => get_number(s, at, 0, 99, 2)
                .map(|v| tm.year = Some(if v >= 69 { 1900 + v } else { 2000 + v })),
            b'm' => get_number(s, at, 1, 12, 2).map(|v| tm.mon = Some(v as u32)),
            b'd' | b'e' => get_number(s, at, 1, 31, 2).map(|v| tm.mday = Some(v as u32)),
            b'j' => get_number(s, at, 1, 366, 3).map(|v| tm.yday = Some(v as u32 - 1)),
            b'b' | b'B' | b'h' => match_names(s, at, &MONTHS).map(|m| tm.mon = Some(m as u32 + 1)),
            // The weekday is read and not used: the date comes from the
            // month and day (or %j).
            b'a' | b'A' => match_names(s, at, &WEEKDAYS).map(|_| ()),
            // R allows 24:00:00, the next day's midnight.
            b'H' | b'k' => get_number(s, at, 0, 24, 2).map(|v| {
                tm.hour = v as u32;
                tm.have_i = false;
            }),
            b'I' | b'l' => get_number(s, at, 1, 12, 2).map(|v| {
                tm.hour = v as u32 % 12;
                tm.have_i = true;
            }),
            b'p' => {
                if match_name(s, at, "AM") {
                    Some(())
                } else if match_name(s, at, "PM") {
                    tm.is_pm = true;
                    Some(())
                } else {
                    None
                }
            }
            b'M' => get_number(s, at, 0, 59, 2).map(|v| tm.min = v as u32),
            b'S' => get_number(s, at, 0, 61, 2).map(|v| tm.sec = v as f64),
            b'o' => {
                // %OS: strtod's number; one out of 0..=61, or none, leaves
                // the seconds as they were and the text read on.
                let start = *at;
                while s.get(*at).is_some_and(|c| c.is_ascii_digit() || *c == b'.') {
                    *at += 1;
                }
                if let Some(v) = std::str::from_utf8(&s[start..*at])
                    .ok()
                    .and_then(|t| t.parse::<f64>().ok())
                    .filter(|v| (0.0..=61.0).contains(v))
                {
                    tm.sec = v;
                }
                Some(())
            }
            b'T' => strptime_internal(s, at, b"%H:%M:%S", tm).then_some(()),
            b'R' => strptime_internal(s, at, b"%H:%M", tm).then_some(()),
            b'F' => strptime_internal(s, at, b"%Y-%m-%d", tm).then_some(()),
            // HERE_D_FMT: R's %D is year first.
            b'D' => strptime_internal(s, at, b"%y/%m/%d", tm).then_some(()),
            b'r' => strptime_internal(s, at, b"%I:%M:%S %p", tm).then_some(()),
            b'z' => zone_offset(s, at).map(|off| tm.offset = Some(off)),
            b'n' | b't' => {
                while s.get(*at).is_some_and(u8::is_ascii_whitespace) {
                    *at += 1;
                }
                Some(())
            }
            _ => (s.get(*at) == Some(&b'%')).then(|| *at += 1),
        };
        if got.is_none() {
            return false;
        }
    }
    true
}

/// R 4.2's `%z`: blanks, a sign and exactly four digits `hhmm`, the
/// minutes below 60 and the offset at most 14 hours (R warns of one
/// beyond and gives NA); seconds east of UTC.
fn zone_offset(s: &[u8], at: &mut usize) -> Option<i64> {
    while s.get(*at) == Some(&b' ') {
        *at += 1;
    }
    let neg = match s.get(*at) {
        Some(b'+') => false,
        Some(b'-') => true,
        _ => return None,
    };
    *at += 1;
    let (mut val, mut n) = (0i64, 0);
    while n < 4 && s.get(*at).is_some_and(u8::is_ascii_digit) {
        val = val * 10 + i64::from(s[*at] - b'0');
        *at += 1;
        n += 1;
    }
    if n != 4 || val % 100 >= 60 {
        return None;
    }
    // The minutes as hundredths of an hour.
    let val = (val / 100) * 100 + ((val % 100) * 50) / 30;
    if val > 1400 {
        return None;
    }
    let off = (val * 3600) / 100;
    Some(if neg { -off } else { off })
}

/// R_strptime of one string in one format: `Ok(None)` where the text
/// does not fit (R's NA), `Err` for a format flowcast cannot read as R
/// does. Text left after the format is ignored, as R ignores it.
pub fn r_strptime(text: &str, fmt: &str) -> Result<Option<Tm>, KernelError> {
    let f = fmt.as_bytes();
    let mut i = 0;
    while i < f.len() {
        i = if f[i] == b'%' {
            conversion(f, i)?.1
        } else {
            i + 1
        };
    }
    let mut tm = Tm::default();
    let mut at = 0usize;
    if !strptime_internal(text.as_bytes(), &mut at, f, &mut tm) {
        return Ok(None);
    }
    if tm.have_i && tm.is_pm {
        tm.hour += 12;
    }
    Ok(Some(tm))
}

impl Tm {
    /// The day since 1970-01-01 the fields name (R's `glibc_fix` and
    /// `validate_tm` as far as a date): `Ok(None)` for one past its
    /// month's end; `Err` where R would fill a field from today's date.
    pub fn day(&self) -> Result<Option<f64>, KernelError> {
        let Some(year) = self.year else {
            return Err(KernelError::new(
                "a date format without a year (%Y or %y): R fills it from today's date, \
                 which flowcast will not read",
            ));
        };
        match (self.mon, self.mday, self.yday) {
            (Some(m), Some(d), _) => Ok(
                (d <= days_in_month(year, m)).then(|| days_from_civil(year, m.into(), d.into()))
            ),
            // `!(have_mon && have_mday) && have_yday`: the day comes from %j.
            (_, _, Some(yd)) => {
                let len = if leap(year) { 366 } else { 365 };
                Ok((yd < len).then(|| days_from_civil(year, 1, 1) + f64::from(yd)))
            }
            _ => Err(KernelError::new(
                "a date format without a month and a day (%m and %d, or %j): R fills them \
                 from today's date, which flowcast will not read",
            )),
        }
    }

    /// Seconds past midnight the clock fields name, less a `%z` offset
    /// (so UTC's).
    pub fn clock(&self) -> f64 {
        let local = f64::from(self.hour) * 3600.0 + f64::from(self.min) * 60.0 + self.sec;
        local - self.offset.map_or(0.0, |o| o as f64)
    }
}

/// R_strptime as far as a date (`as.Date.character`: the clock read and
/// dropped): `Ok(None)` is NA.
pub fn strptime(text: &str, fmt: &str) -> Result<Option<f64>, KernelError> {
    match r_strptime(text, fmt)? {
        // A `%z` offset moves the time to UTC first, the day with it.
        Some(tm) if tm.offset.is_some() => Ok(tm
            .day()?
            .map(|d| ((d * 86400.0 + tm.clock()) / 86400.0).floor())),
        Some(tm) => tm.day(),
        None => Ok(None),
    }
}

/// `format.Date`: strftime of one day in `fmt`; `None` is NA.
pub fn strftime(z: f64, fmt: &str) -> Result<Option<String>, KernelError> {
    let Some(t) = civil(z) else {
        // NA stays NA; R still refuses a format it cannot write.
        check_format(fmt)?;
        return Ok(None);
    };
    let mut out = String::new();
    let mut chars = fmt.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(spec) = chars.next() else {
            out.push('%');
            break;
        };
        let month = MONTHS[t.month as usize - 1];
        let wday = WEEKDAYS[t.wday as usize];
        match spec {
            'Y' => out.push_str(&t.year.to_string()),
            'y' => out.push_str(&format!("{:02}", t.year.rem_euclid(100))),
            // R writes the century of year 99 as "0".
            'C' => out.push_str(&t.year.div_euclid(100).to_string()),
            'm' => out.push_str(&format!("{:02}", t.month)),
            'd' => out.push_str(&format!("{:02}", t.day)),
            'e' => out.push_str(&format!("{:2}", t.day)),
            'j' => out.push_str(&format!("{:03}", t.yday + 1)),
            'b' | 'h' => out.push_str(&month[..3]),
            'B' => out.push_str(month),
            'a' => out.push_str(&wday[..3]),
            'A' => out.push_str(wday),
            'u' => out.push_str(&(if t.wday == 0 { 7 } else { t.wday }).to_string()),
            'w' => out.push_str(&t.wday.to_string()),
            'U' => out.push_str(&format!("{:02}", (t.yday + 7 - t.wday) / 7)),
            'W' => out.push_str(&format!("{:02}", (t.yday + 7 - (t.wday + 6) % 7) / 7)),
            'D' => out.push_str(&format!(
                "{:02}/{:02}/{:02}",
                t.month,
                t.day,
                t.year.rem_euclid(100)
            )),
            'F' => out.push_str(&format!("{}-{:02}-{:02}", t.year, t.month, t.day)),
            'n' => out.push('\n'),
            't' => out.push('\t'),
            '%' => out.push('%'),
            // format.Date writes the POSIXlt of the day's UTC midnight.
            'H' | 'M' | 'S' => out.push_str("00"),
            'I' => out.push_str("12"),
            'p' => out.push_str("AM"),
            'T' => out.push_str("00:00:00"),
            'R' => out.push_str("00:00"),
            other => {
                return Err(KernelError::new(format!(
                    "flowcast writes the conversions %Y %y %C %m %d %e %j %b %h %B %a %A %u %w \
                     %U %W %D %F %H %M %S %I %p %T %R %n %t and %% of a date, not %{other}"
                )))
            }
        }
    }
    Ok(Some(out))
}

fn check_format(fmt: &str) -> Result<(), KernelError> {
    strftime(0.0, fmt).map(|_| ())
}

/// `format(x, format)` of a Date: `None` entries are NA.
pub fn format_dates(x: &[f64], fmt: &[String]) -> Result<Vec<Option<String>>, KernelError> {
    if fmt.is_empty() {
        return Err(KernelError::new("invalid 'format' argument"));
    }
    let n = if x.is_empty() {
        0
    } else {
        x.len().max(fmt.len())
    };
    (0..n)
        .map(|i| strftime(x[i % x.len()], &fmt[i % fmt.len()]))
        .collect()
}

/// R's character vector of formatted dates: NA as "NA".
pub fn text(v: Vec<Option<String>>) -> Value {
    Value::Str(
        v.into_iter()
            .map(|s| s.unwrap_or_else(|| "NA".into()))
            .collect(),
    )
}

/// Strings as R's `as.Date.character` reads them: `""` and "NA" are NA.
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

pub(super) fn str_arg(v: Option<&Value>, what: &str) -> Result<Option<Vec<String>>, KernelError> {
    match v.map(super::names::bare) {
        None => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.clone())),
        Some(_) => Err(KernelError::new(format!("invalid '{what}' argument"))),
    }
}

/// Each string of `x` read by `parse` with its format, `x` and `fmts`
/// recycled to the longer; NA where it does not read.
pub(super) fn read_formats(
    x: &[Option<String>],
    fmts: &[String],
    parse: fn(&str, &str) -> Result<Option<f64>, KernelError>,
) -> Result<Vec<f64>, KernelError> {
    if fmts.is_empty() {
        return Err(KernelError::new("invalid 'format' argument"));
    }
    let n = if x.is_empty() {
        0
    } else {
        x.len().max(fmts.len())
    };
    (0..n)
        .map(|i| match &x[i % x.len()] {
            None => Ok(NA),
            Some(s) => parse(s, &fmts[i % fmts.len()]).map(|d| d.unwrap_or(NA)),
        })
        .collect()
}

/// `as.Date.character`: `format` (recycled) when given, else the first
/// of `tryFormats` that reads the first non-NA string (its `charToDate`).
pub fn parse_dates(
    x: &[Option<String>],
    format: Option<&[String]>,
    try_formats: &[String],
    optional: bool,
) -> Result<Vec<f64>, KernelError> {
    let read = |fmts: &[String]| read_formats(x, fmts, strptime);
    if let Some(f) = format {
        return read(f);
    }
    let Some(first) = x.iter().flatten().next() else {
        return Ok(vec![NA; x.len()]);
    };
    for f in try_formats {
        if strptime(first, f)?.is_some() {
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

/// R's `as.Date(x, ...)` for a character vector, factor, Date, number
/// (with `origin`), NULL or all-NA logical.
pub fn as_date(args: &Args<&Value>) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    as_date_of(
        x,
        args.get("format"),
        args.get("tryFormats"),
        args.get("optional"),
        args.get("origin"),
    )
}

/// `as.Date(x)` with no other argument.
pub fn as_date_plain(x: &Value) -> Result<Value, KernelError> {
    as_date_of(x, None, None, None, None)
}

fn as_date_of(
    x: &Value,
    format: Option<&Value>,
    try_formats: Option<&Value>,
    optional: Option<&Value>,
    origin: Option<&Value>,
) -> Result<Value, KernelError> {
    if is_date(x) {
        return Ok(x.clone());
    }
    if super::datetime::is_posixct(x) {
        // as.Date.POSIXct with tz = "UTC": the day the second falls in.
        return Ok(date(Value::Num(
            days(x).into_iter().map(|t| (t / 86400.0).floor()).collect(),
        )));
    }
    if let Some(s) = strings_of(x) {
        let format = str_arg(format, "format")?;
        let tries = str_arg(try_formats, "tryFormats")?
            .unwrap_or_else(|| vec!["%Y-%m-%d".into(), "%Y/%m/%d".into()]);
        let optional = match optional {
            None => false,
            Some(v) => v
                .as_flag()
                .ok_or_else(|| KernelError::new("invalid 'optional' argument"))?,
        };
        let d = parse_dates(&s, format.as_deref(), &tries, optional)?;
        return Ok(date(Value::Num(d)));
    }
    match super::names::bare(x) {
        Value::Num(v) => {
            let Some(origin) = origin else {
                return Err(KernelError::new("'origin' must be supplied"));
            };
            let o = as_date_of(origin, None, None, None, None)?;
            let o = days(&o);
            if o.is_empty() {
                return Ok(date(Value::Num(Vec::new())));
            }
            let n = if v.is_empty() {
                0
            } else {
                v.len().max(o.len())
            };
            Ok(date(Value::Num(
                (0..n).map(|i| o[i % o.len()] + v[i % v.len()]).collect(),
            )))
        }
        Value::Null => Ok(date(Value::Num(Vec::new()))),
        Value::Bool(b) if b.iter().all(Option::is_none) => Ok(date(Value::Num(vec![NA; b.len()]))),
        other => Err(KernelError::new(format!(
            "do not know how to convert 'x' to class \u{201c}Date\u{201d} (flowcast was given {})",
            other.type_name()
        ))),
    }
}

fn as_date_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    as_date(args)
}

fn need_date<'a>(args: &'a Args<&Value>, f: &str) -> Result<&'a Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    if is_date(x) {
        Ok(x)
    } else {
        Err(KernelError::new(format!(
            "no applicable method for '{f}' applied to an object of class \"{}\"",
            r_class(x)
        )))
    }
}

/// R's implicit class of a non-Date value, as UseMethod names it.
fn r_class(x: &Value) -> &'static str {
    match super::names::bare(x) {
        Value::Num(_) => "c('double', 'numeric')",
        Value::Str(_) | Value::StrMat(_) => "character",
        Value::Bool(_) => "logical",
        Value::Null => "NULL",
        Value::Factor(_) => "factor",
        Value::List(_) => "list",
        _ => "c('matrix', 'array')",
    }
}

fn abbreviate(args: &Args<&Value>) -> Result<bool, KernelError> {
    super::logical::if_given(args.get("abbreviate"), false)
}

fn named_format(
    args: &Args<&Value>,
    f: &str,
    short: &str,
    long: &str,
) -> Result<Value, KernelError> {
    let x = args.get("x").unwrap_or(&Value::Null);
    // weekdays.POSIXt and months.POSIXt: of the day the second falls in.
    let day_of;
    let x = if super::datetime::is_posixct(x) {
        day_of = as_date_plain(x)?;
        &day_of
    } else {
        need_date(args, f)?
    };
    let fmt = if abbreviate(args)? { short } else { long };
    let out = text(format_dates(&days(x), &[fmt.to_string()])?);
    Ok(match super::names::names(x) {
        Some(n) => super::names::named(out, n.to_vec()),
        None => out,
    })
}

fn weekdays_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    named_format(args, "weekdays", "%a", "%A")
}

fn months_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    named_format(args, "months", "%b", "%B")
}

/// julian.Date: days since `origin`, with `origin` kept as an attribute.
fn julian_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = need_date(args, "julian")?;
    let origin = match args.get("origin") {
        Some(o) => as_date_of(o, None, None, None, None)?,
        None => date(Value::Num(vec![0.0])),
    };
    let o = days(&origin);
    let v = days(x);
    if o.is_empty() {
        return Ok(with_attr(Value::Num(Vec::new()), "origin", origin));
    }
    let n = if v.is_empty() {
        0
    } else {
        v.len().max(o.len())
    };
    let d = (0..n).map(|i| v[i % v.len()] - o[i % o.len()]).collect();
    Ok(with_attr(Value::Num(d), "origin", origin))
}

/// R's `difftime(time1, time2, units)` of two Dates (or strings R reads
/// as dates), in seconds first as R computes it, then in `units`.
pub fn difftime_of(a: &Value, b: &Value, units: &str) -> Result<Value, KernelError> {
    if super::datetime::is_posixct(a) || super::datetime::is_posixct(b) {
        let secs_of = |v: &Value| -> Result<Vec<f64>, KernelError> {
            if super::datetime::is_posixct(v) {
                return Ok(days(v));
            }
            let tz = super::datetime::tzone(if super::datetime::is_posixct(a) { a } else { b });
            Ok(days(&super::datetime::as_posixct_of(v, &tz)?))
        };
        let (x, y) = (secs_of(a)?, secs_of(b)?);
        let n = if x.is_empty() || y.is_empty() {
            0
        } else {
            x.len().max(y.len())
        };
        let secs = (0..n).map(|i| x[i % x.len()] - y[i % y.len()]).collect();
        return super::datetime::secs_difftime(secs, units);
    }
    let as_day = |v: &Value| -> Result<Vec<f64>, KernelError> {
        if is_date(v) {
            return Ok(days(v));
        }
        match super::names::bare(v) {
            Value::Str(_) => Ok(days(&as_date_of(v, None, None, None, None)?)),
            _ => Err(KernelError::new(
                "flowcast's difftime takes two Dates (or date strings)",
            )),
        }
    };
    let (x, y) = (as_day(a)?, as_day(b)?);
    let n = if x.is_empty() || y.is_empty() {
        0
    } else {
        x.len().max(y.len())
    };
    let secs: Vec<f64> = (0..n)
        .map(|i| (x[i % x.len()] - y[i % y.len()]) * 86400.0)
        .collect();
    let units = match units {
        "auto" => {
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
        u => u,
    };
    let per = match units {
        "secs" => 1.0,
        "mins" => 60.0,
        "hours" => 3600.0,
        "days" => 86400.0,
        "weeks" => 7.0 * 86400.0,
        _ => return Err(KernelError::new("invalid units specified")),
    };
    let z = secs
        .into_iter()
        .map(|s| if is_na(s) { NA } else { s / per })
        .collect();
    let z = match super::names::names(a) {
        Some(nm) if nm.len() == n => super::names::named(Value::Num(z), nm.to_vec()),
        _ => Value::Num(z),
    };
    Ok(difftime(z, units))
}

/// `match.arg(units)` of difftime's choices.
fn units_arg(v: Option<&Value>) -> Result<String, KernelError> {
    const CHOICES: [&str; 6] = ["auto", "secs", "mins", "hours", "days", "weeks"];
    let Some(v) = v else {
        return Ok("auto".into());
    };
    let Value::Str(s) = super::names::bare(v) else {
        return Err(KernelError::new("'arg' must be NULL or a character vector"));
    };
    if s.len() != 1 {
        return Err(KernelError::new("'arg' must be of length 1"));
    }
    let hits: Vec<&&str> = CHOICES
        .iter()
        .filter(|c| c.starts_with(s[0].as_str()))
        .collect();
    match hits[..] {
        [one] if !s[0].is_empty() => Ok(one.to_string()),
        _ => Err(KernelError::new(format!(
            "'arg' should be one of {}",
            CHOICES
                .iter()
                .map(|c| format!("\u{201c}{c}\u{201d}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn difftime_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let units = units_arg(args.get("units"))?;
    let a = args.get("time1").unwrap_or(&Value::Null);
    let b = args.get("time2").unwrap_or(&Value::Null);
    difftime_of(a, b, &units)
}

/// The length of a vector type, when known.
pub(super) fn len_of(t: Option<&Type>) -> Option<usize> {
    match t? {
        Type::Num { len, .. }
        | Type::Str { len, .. }
        | Type::Bool { len, .. }
        | Type::Factor { len, .. } => *len,
        Type::Null => Some(0),
        _ => None,
    }
}

pub(super) fn same_length_num(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Num {
        len: len_of(args.ty("x")),
        value: None,
    })
}

pub(super) fn same_length_str(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Str {
        len: len_of(args.ty("x")),
        value: None,
    })
}

fn difftime_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let len = match (len_of(args.ty("time1")), len_of(args.ty("time2"))) {
        (Some(0), _) | (_, Some(0)) => Some(0),
        (Some(a), Some(b)) => Some(a.max(b)),
        _ => None,
    };
    Ok(Type::Num { len, value: None })
}

/// `seq.Date`'s `by`: a count of days, or of months (`months = true`).
#[derive(Clone, Copy, Debug)]
pub struct By {
    pub step: f64,
    pub months: bool,
    /// "years": seq.Date counts them from the years alone.
    pub years: bool,
}

/// seq.Date's reading of `by`: a number of days, a difftime, or a string
/// "[n ]days|weeks|months|quarters|years" (partially matched).
pub fn seq_by(by: &Value) -> Result<By, KernelError> {
    if is_difftime(by) {
        let k = match difftime_units(by) {
            "secs" => 1.0 / 86400.0,
            "mins" => 1.0 / 1440.0,
            "hours" => 1.0 / 24.0,
            "weeks" => 7.0,
            _ => 1.0,
        };
        let d = days(by);
        if d.len() != 1 {
            return Err(KernelError::new("'by' must be of length 1"));
        }
        return Ok(By {
            step: k * d[0],
            months: false,
            years: false,
        });
    }
    match super::names::bare(by) {
        Value::Str(s) => {
            if s.len() != 1 {
                return Err(KernelError::new("'by' must be of length 1"));
            }
            let parts: Vec<&str> = s[0].split(' ').collect();
            if parts.is_empty() || parts.len() > 2 {
                return Err(KernelError::new("invalid 'by' string"));
            }
            let unit = parts[parts.len() - 1];
            const UNITS: [&str; 5] = ["days", "weeks", "months", "quarters", "years"];
            let hits: Vec<usize> = (0..5)
                .filter(|&i| !unit.is_empty() && UNITS[i].starts_with(unit))
                .collect();
            let exact = UNITS.iter().position(|u| *u == unit);
            let valid = match (exact, &hits[..]) {
                (Some(i), _) => i,
                (None, [i]) => *i,
                _ => return Err(KernelError::new("invalid string for 'by'")),
            };
            let k = if parts.len() == 2 {
                // as.integer(by2[1L]): NA where it is no number.
                parts[0]
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && v.abs() < 2147483648.0)
                    .map_or(NA, f64::trunc)
            } else {
                1.0
            };
            let (step, months) = match valid {
                0 => (k, false),
                1 => (7.0 * k, false),
                2 => (k, true),
                3 => (3.0 * k, true),
                _ => (12.0 * k, true),
            };
            if step.is_nan() {
                return Err(KernelError::new("'by' is NA"));
            }
            Ok(By {
                step,
                months,
                years: valid == 4,
            })
        }
        Value::Num(v) => {
            if v.len() != 1 {
                return Err(KernelError::new("'by' must be of length 1"));
            }
            if v[0].is_nan() {
                return Err(KernelError::new("'by' is NA"));
            }
            Ok(By {
                step: v[0],
                months: false,
                years: false,
            })
        }
        _ => Err(KernelError::new("invalid mode for 'by'")),
    }
}

/// The first `n` dates `step` months apart from `from`, as
/// `as.Date(r1)` normalises an overflowing day (Jan 31 + 1 month is
/// March 2nd, or 1st in a leap year).
fn month_steps(from: &Civil, months: impl Iterator<Item = f64>) -> Vec<f64> {
    months
        .map(|m| {
            days_from_civil(
                from.year,
                i64::from(from.month) + m as i64,
                i64::from(from.day),
            )
        })
        .collect()
}

/// Most dates seq.Date makes before flowcast refuses the call.
const MAX_SEQ: f64 = 1e8;

/// seq.Date's count of steps of `step` (days, or months) over `span`,
/// as seq.int counts them, with R's errors.
fn last_step(span: f64, step: f64) -> Result<usize, KernelError> {
    if step == 0.0 {
        return Err(KernelError::new("invalid '(to - from)/by' in seq(.)"));
    }
    let n = span / step;
    if n < 0.0 {
        return Err(KernelError::new("wrong sign in 'by' argument"));
    }
    if n > MAX_SEQ {
        return Err(KernelError::new(
            "flowcast makes at most 1e8 dates in one seq",
        ));
    }
    Ok((n + 1e-10).floor() as usize)
}

/// `seq.Date(from, to, by, length.out)` where from (and to) are single
/// days; `None` is a missing argument.
pub fn seq_dates(
    from: f64,
    to: Option<f64>,
    by: Option<By>,
    length_out: Option<f64>,
) -> Result<Vec<f64>, KernelError> {
    let given = [to.is_some(), by.is_some(), length_out.is_some()];
    if given.iter().filter(|g| **g).count() != 2 {
        return Err(KernelError::new(
            "exactly two of 'to', 'by' and 'length.out' / 'along.with' must be specified",
        ));
    }
    let length_out = match length_out {
        Some(l) if l.is_nan() || l < 0.0 => {
            return Err(KernelError::new(
                "'length.out' must be a non-negative number",
            ))
        }
        Some(l) if l > MAX_SEQ => {
            return Err(KernelError::new(
                "flowcast makes at most 1e8 dates in one seq",
            ))
        }
        Some(l) => Some(l.ceil() as usize),
        None => None,
    };
    if !from.is_finite() {
        return Err(KernelError::new("'from' must be a finite number"));
    }
    let Some(by) = by else {
        // seq.int(from, to, length.out = n).
        let (to, n) = (to.unwrap_or(from), length_out.unwrap_or(0));
        if !to.is_finite() {
            return Err(KernelError::new("'to' must be a finite number"));
        }
        return Ok(match n {
            0 => Vec::new(),
            1 => vec![from],
            _ => {
                let step = (to - from) / (n - 1) as f64;
                let mut v: Vec<f64> = (0..n).map(|i| from + i as f64 * step).collect();
                v[n - 1] = to;
                v
            }
        });
    };
    let res = if !by.months {
        match (length_out, to) {
            (Some(n), _) => (0..n).map(|i| from + i as f64 * by.step).collect(),
            (None, Some(to)) => {
                if !to.is_finite() {
                    return Err(KernelError::new("'to' must be a finite number"));
                }
                let del = to - from;
                if del == 0.0 {
                    vec![from]
                } else {
                    let k = last_step(del, by.step)?;
                    (0..=k).map(|i| from + i as f64 * by.step).collect()
                }
            }
            (None, None) => Vec::new(),
        }
    } else {
        let Some(start) = civil(from) else {
            return Err(KernelError::new("'from' must be a finite number"));
        };
        match (length_out, to) {
            (Some(n), _) => month_steps(&start, (0..n).map(|i| i as f64 * by.step)),
            (None, Some(to)) => {
                let Some(end) = civil(to) else {
                    return Err(KernelError::new("'to' must be a finite number"));
                };
                let span = if by.years {
                    // seq.int(r1$year, to0$year, by)
                    12.0 * (end.year - start.year) as f64
                } else {
                    12.0 * (end.year - start.year) as f64 + f64::from(end.month)
                        - f64::from(start.month)
                };
                let k = last_step(span, by.step)?;
                month_steps(&start, (0..=k).map(|i| i as f64 * by.step))
            }
            (None, None) => Vec::new(),
        }
    };
    // "can overshoot"
    Ok(match to {
        Some(to) if by.step > 0.0 => res.into_iter().filter(|d| *d <= to).collect(),
        Some(to) => res.into_iter().filter(|d| *d >= to).collect(),
        None => res,
    })
}
