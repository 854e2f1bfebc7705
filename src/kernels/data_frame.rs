//! R's `data.frame(..., stringsAsFactors = FALSE)`: columns from vectors,
//! factors, matrices (one column each) and data frames (their columns),
//! recycled to the longest when its length is a multiple of theirs, named
//! as `make.names(unique = TRUE)` names them.
//!
//! R names an unnamed vector argument after its expression (`data.frame(x,
//! y)` has columns `x` and `y`); a kernel sees values, not expressions, so
//! flowcast asks for the name instead of guessing it.

use super::factor::as_factor;
use super::frame::{self, as_frame, frame_fields};
use super::vector::{like, pick};
use super::{opt, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "data.frame",
    params: &[DOTS, opt("stringsAsFactors"), opt("check.names")],
    random: false,
    shape: shape_data_frame,
    eval: eval_data_frame,
}];

/// One argument's columns: (name, column) pairs, names as given.
fn columns_of(
    func: &str,
    name: Option<&str>,
    v: &Value,
    k: usize,
) -> Result<Vec<(String, Value)>, String> {
    if let Some(l) = as_frame(v) {
        let names = l.names.clone().unwrap_or_default();
        return Ok(names.into_iter().zip(l.items.iter().cloned()).collect());
    }
    match v {
        Value::Mat(m) => Ok((0..m.ncols())
            .map(|j| {
                let col = Value::Num(m.column(j).iter().copied().collect());
                (matrix_column_name(name, j), col)
            })
            .collect()),
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) => match name {
            Some(n) => Ok(vec![(n.to_string(), v.clone())]),
            None => Err(unnamed(func, k)),
        },
        other => Err(format!(
            "{func}() takes vectors, factors, matrices and data frames, not {}",
            other.type_name()
        )),
    }
}

fn matrix_column_name(name: Option<&str>, j: usize) -> String {
    match name {
        Some(n) => format!("{n}.{}", j + 1),
        None => format!("X{}", j + 1),
    }
}

fn unnamed(func: &str, k: usize) -> String {
    format!(
        "argument {} of {func}() has no name: write it `name = value` \
         (flowcast does not name columns after their expressions, as R does)",
        k + 1
    )
}

/// The rows: the longest column's length, when every other divides it.
fn rows(lengths: &[usize]) -> Result<usize, String> {
    let n = lengths.iter().copied().max().unwrap_or(0);
    if lengths
        .iter()
        .any(|&l| (l == 0 && n > 0) || (l > 0 && n % l != 0))
    {
        let mut seen: Vec<String> = Vec::new();
        for l in lengths {
            let s = l.to_string();
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        return Err(format!(
            "arguments imply differing number of rows: {}",
            seen.join(", ")
        ));
    }
    Ok(n)
}

/// R's `make.names(names, unique = TRUE)`: letters, digits, `.` and `_`,
/// starting with a letter or a dot not followed by a digit; duplicates get
/// `.1`, `.2`, … as `make.unique` gives them.
pub fn make_names(names: &[String]) -> Vec<String> {
    let valid: Vec<String> = names
        .iter()
        .map(|n| {
            let mut s: String = n
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() || c == '.' || c == '_' {
                        c
                    } else {
                        '.'
                    }
                })
                .collect();
            let mut chars = s.chars();
            let bad_start = match chars.next() {
                None => true,
                Some(c) if c.is_ascii_digit() || c == '_' => true,
                Some('.') => chars.next().is_some_and(|c| c.is_ascii_digit()),
                Some(_) => false,
            };
            if bad_start {
                s.insert(0, 'X');
            }
            s
        })
        .collect();
    make_unique(&valid)
}

/// R's `make.unique(names)`: the second `x` becomes `x.1`, the third
/// `x.2`, skipping names already taken.
fn make_unique(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    let mut taken: std::collections::HashSet<String> = names.iter().cloned().collect();
    let mut counts: std::collections::HashMap<String, usize> = Default::default();
    let mut first_seen: std::collections::HashSet<String> = Default::default();
    for n in names {
        if first_seen.insert(n.clone()) {
            out.push(n.clone());
            continue;
        }
        let k = counts.entry(n.clone()).or_insert(0);
        let name = loop {
            *k += 1;
            let candidate = format!("{n}.{k}");
            if !taken.contains(&candidate) {
                break candidate;
            }
        };
        taken.insert(name.clone());
        out.push(name);
    }
    out
}

fn eval_data_frame(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let factors = args.bool_or("stringsAsFactors", false)?;
    let check = args.bool_or("check.names", true)?;
    build("data.frame", args.dots(), factors, check)
}

/// `cbind` with a data frame among its arguments: R's `cbind.data.frame`,
/// `data.frame(..., check.names = FALSE)`. NULL arguments add nothing.
pub fn cbind_frames<'a>(
    given: impl Iterator<Item = (Option<&'a str>, &'a Value)>,
) -> Result<Value, KernelError> {
    build(
        "cbind",
        given.filter(|(_, v)| !matches!(v, Value::Null)),
        false,
        false,
    )
}

/// The type of [`cbind_frames`]: the error is for the `k`-th argument.
pub fn cbind_frames_type<'a>(
    given: impl Iterator<Item = (Option<&'a str>, &'a Type)>,
) -> Result<Type, (usize, String)> {
    build_type(
        "cbind",
        given.filter(|(_, t)| !matches!(t, Type::Null)),
        false,
        false,
    )
}

fn build<'a>(
    func: &str,
    given: impl Iterator<Item = (Option<&'a str>, &'a Value)>,
    factors: bool,
    check: bool,
) -> Result<Value, KernelError> {
    let mut names = Vec::new();
    let mut columns = Vec::new();
    for (k, (name, v)) in given.enumerate() {
        for (n, c) in columns_of(func, name, v, k).map_err(KernelError::new)? {
            names.push(n);
            columns.push(c);
        }
    }
    let lengths: Vec<usize> = columns.iter().map(Value::len).collect();
    let n = rows(&lengths).map_err(KernelError::new)?;
    let columns = columns
        .into_iter()
        .map(|c| {
            let c = if c.len() == n {
                c
            } else {
                pick(&c, &(0..n).map(|i| i % c.len()).collect::<Vec<_>>())
            };
            match c {
                Value::Str(_) if factors => as_factor(&c).map(Value::Factor),
                c => Ok(c),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let names = if check { make_names(&names) } else { names };
    Ok(frame::frame(names, columns))
}

/// One argument's column types, or `None` when its columns are not known
/// before the run.
fn column_types(
    func: &str,
    name: Option<&str>,
    t: &Type,
    k: usize,
) -> Result<Option<Vec<(String, Type)>>, String> {
    if let Some(fields) = frame_fields(t) {
        return Ok(Some(fields.to_vec()));
    }
    match t {
        Type::Any => Ok(None),
        Type::Mat { rows, cols } => Ok(cols.map(|c| {
            (0..c)
                .map(|j| {
                    (
                        matrix_column_name(name, j),
                        Type::Num {
                            len: *rows,
                            value: None,
                        },
                    )
                })
                .collect()
        })),
        Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Factor { .. } => match name
        {
            Some(n) => Ok(Some(vec![(n.to_string(), t.without_value())])),
            None => Err(unnamed(func, k)),
        },
        other => Err(format!(
            "{func}() takes vectors, factors, matrices and data frames, not {}",
            other.describe()
        )),
    }
}

fn shape_data_frame(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let factors = args.ty("stringsAsFactors").and_then(Type::const_scalar) == Some(1.0);
    let check = args.ty("check.names").and_then(Type::const_scalar) != Some(0.0);
    build_type("data.frame", args.dots(), factors, check).map_err(|(k, m)| args.dots_error(k, m))
}

fn build_type<'a>(
    func: &str,
    given: impl Iterator<Item = (Option<&'a str>, &'a Type)>,
    factors: bool,
    check: bool,
) -> Result<Type, (usize, String)> {
    let mut fields: Vec<(String, Type)> = Vec::new();
    let mut known = true;
    for (k, (name, t)) in given.enumerate() {
        match column_types(func, name, t, k).map_err(|m| (k, m))? {
            Some(f) => fields.extend(f),
            None => known = false,
        }
    }
    if !known {
        return Ok(Type::Any);
    }
    let lengths: Option<Vec<usize>> = fields.iter().map(|(_, t)| t.len()).collect();
    let n = match lengths {
        Some(l) => Some(rows(&l).map_err(|m| (0, m))?),
        None => None,
    };
    let names: Vec<String> = fields.iter().map(|(n, _)| n.clone()).collect();
    let names = if check { make_names(&names) } else { names };
    Ok(Type::Record {
        class: frame::CLASS.to_string(),
        fields: names
            .into_iter()
            .zip(fields)
            .map(|(name, (_, t))| {
                let t = match t {
                    Type::Str { .. } if factors => Type::Factor {
                        len: n,
                        levels: None,
                    },
                    t => like(&t, n),
                };
                (name, t)
            })
            .collect(),
    })
}
