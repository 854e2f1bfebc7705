//! `reshape(data, direction = "long" | "wide", ...)`: R 4.2.2's
//! stats::reshape (src/library/stats/R/reshape.R), kept in its shape:
//! [`long_eval`] is its `"long"` branch (ix2names, `guess()`, the split of
//! a vector of names by `v.names`) and [`reshape_long`] its inner
//! `reshapeLong`; [`reshape_wide`] is `reshapeWide`.
//!
//! R leaves a `reshapeLong` or `reshapeWide` attribute on the result and
//! reads it back when a later call gives no direction (or no `varying`,
//! or neither `idvar` nor `timevar`). flowcast's data frames carry no
//! attribute beyond their names and row names, so those calls are refused
//! saying so: the reshaping back is written with its arguments again.

use std::collections::HashMap;

use super::args::{ArgError, Args};
use super::factor::as_text;
use super::frame::{as_frame, frame_fields, named_frame, nrow, rbind_frames, CLASS};
use super::index::pick_value;
use super::names::bare;
use super::value::{List, RowNames, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "reshape",
    params: &[
        req("data"),
        opt("varying"),
        opt("v.names"),
        opt("timevar"),
        opt("idvar"),
        opt("ids"),
        opt("times"),
        opt("drop"),
        opt("direction"),
        opt("new.row.names"),
        opt("sep"),
        opt("split"),
    ],
    random: false,
    shape,
    eval,
}];

const NO_DIRECTION: &str = "reshape() without direction is not supported: R takes the direction \
     (and the layout) from the 'reshapeLong' or 'reshapeWide' attribute an earlier reshape() \
     left on the data frame, and flowcast's data frames carry no such attribute; give \
     direction and the layout's arguments again";
const NO_VARYING: &str = "reshape(direction = \"long\") without varying is not supported: R \
     takes varying, v.names, idvar, timevar and times from the 'reshapeWide' attribute an \
     earlier reshape() left on the data frame, and flowcast's data frames carry no such \
     attribute; give varying (and v.names, idvar, timevar, times) again";
const NO_IDS: &str = "reshape(direction = \"wide\") without idvar and timevar is not supported: \
     R takes them (and v.names, varying) from the 'reshapeLong' attribute an earlier reshape() \
     left on the data frame, and flowcast's data frames carry no such attribute; give idvar \
     and timevar again";
const NO_SPLIT: &str = "reshape(split = ) is not supported: flowcast splits the varying names \
     by sep (fixed), or with sep = \"\" before the first digit after a letter, as R's default \
     split does";
const UNDEFINED: &str = "undefined columns selected";

/// Text of a value as `paste` writes it (`as.character`, NA as "NA").
fn texts(v: &Value) -> Result<Vec<String>, KernelError> {
    as_text(bare(v))
        .map(|t| {
            t.into_iter()
                .map(|s| s.unwrap_or_else(|| "NA".to_string()))
                .collect()
        })
        .ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's reshape() takes vectors here, not {}",
                v.type_name()
            ))
        })
}

/// A character vector argument (R's `idvar`, `timevar`, `v.names`).
fn strings(args: &Args<&Value>, name: &str) -> Result<Option<Vec<String>>, KernelError> {
    match args.get(name).map(bare) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.clone())),
        Some(v) => Err(KernelError::new(format!(
            "flowcast's reshape() takes {name} as column names, not {}",
            v.type_name()
        ))),
    }
}

fn columns(data: &List) -> &[String] {
    data.names.as_deref().unwrap_or(&[])
}

/// `data[, j]` for one name.
fn column<'a>(data: &'a List, name: &str) -> Result<&'a Value, KernelError> {
    columns(data)
        .iter()
        .position(|n| n == name)
        .map(|k| &data.items[k])
        .ok_or_else(|| KernelError::new(UNDEFINED))
}

/// `d[, name] <- value`: replaces the column of that name, else appends.
fn assign(
    names: &mut Vec<String>,
    items: &mut Vec<Value>,
    name: &str,
    value: Value,
) -> Result<(), KernelError> {
    // `[<-.data.frame` refuses an empty name (a name guessed with sep = ""
    // from names without a letter before a digit).
    if name.is_empty() {
        return Err(KernelError::new("column name \"\" cannot match any column"));
    }
    match names.iter().position(|n| n == name) {
        Some(k) => items[k] = value,
        None => {
            names.push(name.to_string());
            items.push(value);
        }
    }
    Ok(())
}

/// One key per element for `duplicated`, `match`, `%in%` and `table`:
/// numbers by their bits (NA and NaN apart, as R's hashing keeps them),
/// anything else by its text; `None` for a missing value, which matches
/// only another.
fn keys(v: &Value) -> Result<Vec<Option<String>>, KernelError> {
    Ok(match bare(v) {
        Value::Num(x) => x
            .iter()
            .map(|&x| {
                if super::value::is_na(x) {
                    None
                } else if x.is_nan() {
                    Some("NaN".to_string())
                } else {
                    Some(format!("{:x}", (x + 0.0).to_bits()))
                }
            })
            .collect(),
        other => as_text(other).ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's reshape() matches vectors, not {}",
                other.type_name()
            ))
        })?,
    })
}

/// `interaction(data[, idvar], drop = TRUE)` as keys and labels: each
/// component's text joined by "."; NA where any component is NA.
fn interaction(data: &List, idvar: &[String]) -> Result<Vec<Option<String>>, KernelError> {
    let parts: Vec<Vec<Option<String>>> = idvar
        .iter()
        .map(|n| {
            column(data, n).and_then(|c| {
                as_text(bare(c))
                    .ok_or_else(|| KernelError::new("flowcast's reshape() takes vector id columns"))
            })
        })
        .collect::<Result<_, _>>()?;
    let n = nrow(data);
    Ok((0..n)
        .map(|i| {
            parts
                .iter()
                .map(|p| p[i].clone())
                .collect::<Option<Vec<String>>>()
                .map(|v| v.join("."))
        })
        .collect())
}

/// The frame `data` with the columns `drop` names (or picks) taken out,
/// as `data[, if (is.logical(drop)) !drop else -drop, drop = FALSE]`.
fn drop_columns(data: &List, drop: Option<&Value>) -> Result<List, KernelError> {
    let Some(drop) = drop.map(bare).filter(|d| !matches!(d, Value::Null)) else {
        return Ok(data.clone());
    };
    let names = columns(data);
    let gone: Vec<bool> = match drop {
        Value::Str(s) => names.iter().map(|n| s.contains(n)).collect(),
        Value::Bool(b) if b.len() == names.len() => b.iter().map(|b| *b == Some(true)).collect(),
        Value::Num(k) if k.iter().all(|&k| k >= 1.0 && (k as usize) <= names.len()) => {
            let mut g = vec![false; names.len()];
            for &k in k {
                g[k as usize - 1] = true;
            }
            g
        }
        _ => {
            return Err(KernelError::new(
                "flowcast's reshape() takes drop as column names, their numbers or a logical \
                 for each column",
            ))
        }
    };
    let mut out = data.clone();
    let keep = |v: &Vec<String>| -> Vec<String> {
        v.iter()
            .zip(&gone)
            .filter(|(_, g)| !**g)
            .map(|(s, _)| s.clone())
            .collect()
    };
    out.names = data.names.as_ref().map(keep);
    out.items = data
        .items
        .iter()
        .zip(&gone)
        .filter(|(_, g)| !**g)
        .map(|(v, _)| v.clone())
        .collect();
    Ok(out)
}

/// R's `match.arg(direction, c("wide", "long"))`.
fn direction(v: &Value) -> Result<&'static str, KernelError> {
    const CHOICES: [&str; 2] = ["wide", "long"];
    let s = match bare(v) {
        Value::Str(s) => s,
        _ => return Err(KernelError::new("'arg' must be NULL or a character vector")),
    };
    if s.len() == 2 && s[0] == "wide" && s[1] == "long" {
        return Ok("wide");
    }
    if s.len() != 1 {
        return Err(KernelError::new("'arg' must be of length 1"));
    }
    let table: Vec<String> = CHOICES.iter().map(|c| c.to_string()).collect();
    super::match_arg::pmatch(&s[0], &table)
        .map(|i| CHOICES[i])
        .ok_or_else(|| {
            KernelError::new("'arg' should be one of \u{201c}wide\u{201d}, \u{201c}long\u{201d}")
        })
}

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let data = args
        .get("data")
        .ok_or_else(|| KernelError::new("argument \"data\" is missing, with no default"))?;
    let sep = match args.get("sep").map(bare) {
        None => ".".to_string(),
        Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
        Some(_) => return Err(KernelError::new("'sep' must be a character string")),
    };
    if args.has("split") {
        return Err(KernelError::new(NO_SPLIT));
    }
    let Some(dir) = args.get("direction") else {
        return Err(KernelError::new(NO_DIRECTION));
    };
    let dir = direction(dir)?;
    let Some(data) = as_frame(data) else {
        return Err(KernelError::new(format!(
            "flowcast's reshape() takes a data frame, not {}",
            data.type_name()
        )));
    };
    if dir == "wide" {
        if !args.has("timevar") && !args.has("idvar") {
            return Err(KernelError::new(NO_IDS));
        }
        let timevar = strings(args, "timevar")?.unwrap_or_else(|| vec!["time".into()]);
        let idvar = strings(args, "idvar")?.unwrap_or_else(|| vec!["id".into()]);
        let [timevar] = &timevar[..] else {
            return Err(KernelError::new("flowcast's reshape() takes one timevar"));
        };
        return reshape_wide(args, ctx, data, timevar, &idvar, &sep);
    }
    long_eval(args, ctx, data, &sep)
}

/// The varying names as `varying` gives them: a column's name, or its
/// number (`ix2names`).
fn ix2names(data: &List, v: &Value) -> Result<Vec<String>, KernelError> {
    match bare(v) {
        Value::Str(s) => Ok(s.clone()),
        Value::Num(k) => Ok(k
            .iter()
            .map(|&k| {
                (k >= 1.0)
                    .then(|| columns(data).get(k as usize - 1).cloned())
                    .flatten()
                    .unwrap_or_else(|| "NA".to_string())
            })
            .collect()),
        other => Err(KernelError::new(format!(
            "flowcast's reshape() takes varying as column names or numbers, not {}",
            other.type_name()
        ))),
    }
}

/// What `guess()` makes of the varying names: their groups by stem, the
/// stems (`v.names`) and the times.
struct Guess {
    varying: Vec<Vec<String>>,
    v_names: Vec<String>,
    times: Value,
}

/// R's `guess()` inside reshape: each name split in two, by `sep` (fixed)
/// or, with `sep = ""`, after the letter before a digit (the default
/// `split`'s regexp `[A-Za-z][0-9]`, `include = TRUE`); the stems in order
/// of appearance; the times as numbers where `as.numeric` reads every one
/// without a warning, else as text.
fn guess(nms: &[String], sep: &str) -> Result<(Guess, Option<String>), KernelError> {
    let parts: Vec<Vec<String>> = nms
        .iter()
        .map(|n| {
            if sep.is_empty() {
                let c: Vec<(usize, char)> = n.char_indices().collect();
                let at = c
                    .windows(2)
                    .find(|w| w[0].1.is_ascii_alphabetic() && w[1].1.is_ascii_digit());
                match at {
                    Some(w) => vec![n[..w[1].0].to_string(), n[w[1].0..].to_string()],
                    // regexpr -1: substr(n, 1, -1) and substr(n, 0, 10000).
                    None => vec![String::new(), n.clone()],
                }
            } else {
                // strsplit drops an empty piece at the end.
                let mut p: Vec<String> = n.split(sep).map(str::to_string).collect();
                if p.last().is_some_and(String::is_empty) {
                    p.pop();
                }
                p
            }
        })
        .collect();
    // do.call("rbind", ...): as many columns as the longest, the shorter
    // recycled.
    let ncol = parts.iter().map(Vec::len).max().unwrap_or(0);
    if ncol != 2 {
        return Err(KernelError::new(
            "failed to guess time-varying variables from their names",
        ));
    }
    let warning = parts
        .iter()
        .position(|p| p.is_empty() || ncol % p.len() != 0)
        .map(|k| {
            format!(
                "number of columns of result is not a multiple of vector length (arg {})",
                k + 1
            )
        });
    let cell = |p: &Vec<String>, j: usize| {
        if p.is_empty() {
            String::new()
        } else {
            p[j % p.len()].clone()
        }
    };
    let mut v_names: Vec<String> = Vec::new();
    let mut times: Vec<String> = Vec::new();
    for p in &parts {
        let (a, b) = (cell(p, 0), cell(p, 1));
        if !v_names.contains(&a) {
            v_names.push(a);
        }
        if !times.contains(&b) {
            times.push(b);
        }
    }
    let mut varying: Vec<Vec<String>> = vec![Vec::new(); v_names.len()];
    for (n, p) in nms.iter().zip(&parts) {
        let a = cell(p, 0);
        if let Some(k) = v_names.iter().position(|v| *v == a) {
            varying[k].push(n.clone());
        }
    }
    // tryCatch(as.numeric(times), warning = function(w) times)
    let numbers: Option<Vec<f64>> = times
        .iter()
        .map(|t| {
            if super::factor::text_is_na(t) || t.trim().is_empty() {
                Some(NA)
            } else {
                super::data::parse_number(t)
            }
        })
        .collect();
    let times = match numbers {
        Some(x) => Value::Num(x),
        None => Value::Str(times),
    };
    Ok((
        Guess {
            varying,
            v_names,
            times,
        },
        warning,
    ))
}

/// reshape()'s `"long"` branch.
fn long_eval(
    args: &Args<&Value>,
    ctx: &mut Ctx,
    data: &List,
    sep: &str,
) -> Result<Value, KernelError> {
    let Some(varying) = args.get("varying") else {
        return Err(KernelError::new(NO_VARYING));
    };
    let mut v_names = strings(args, "v.names")?;
    let v_names_given = args.has("v.names");
    let mut times: Option<Value> = args.get("times").map(|t| bare(t).clone());
    let groups: Vec<Vec<String>> = match bare(varying) {
        Value::Null => {
            return Err(KernelError::new(
                "'varying' must be nonempty list or vector",
            ))
        }
        // `split(c(varying), row(varying))`: a matrix's rows.
        Value::Mat(m) => {
            let rows: Vec<Value> = (0..m.nrows())
                .map(|i| Value::Num(m.row(i).iter().copied().collect()))
                .collect();
            rows.iter()
                .map(|r| ix2names(data, r))
                .collect::<Result<_, _>>()?
        }
        v @ (Value::Str(_) | Value::Num(_)) => {
            let names = ix2names(data, v)?;
            if !v_names_given {
                let (g, warning) = guess(&names, sep)?;
                if let Some(w) = warning {
                    ctx.warn(w);
                }
                // "This must happen after guess()": v.names and times come
                // from it, a given `times` set aside.
                v_names = Some(g.v_names);
                times = Some(g.times);
                g.varying
            } else {
                let vn = v_names.clone().unwrap_or_default();
                if vn.is_empty() || names.len() % vn.len() != 0 {
                    return Err(KernelError::new(
                        "length of 'v.names' does not evenly divide length of 'varying'",
                    ));
                }
                let ntimes = names.len() / vn.len();
                match &times {
                    None => times = Some(Value::Num((1..=ntimes).map(|i| i as f64).collect())),
                    Some(t) if t.len() != ntimes => {
                        return Err(KernelError::new(
                            "length of 'varying' must be the product of length of 'v.names' \
                             and length of 'times'",
                        ))
                    }
                    Some(_) => {}
                }
                // `split(varying, rep(v.names, ntimes))`: the groups in the
                // sorted order of v.names' levels, each group's names in
                // their order; v.names itself stays as given, so names
                // are matched to the sorted groups as R matches them.
                let levels = super::collate::sorted_unique(vn.iter().map(String::as_str));
                if levels.len() != vn.len() {
                    return Err(KernelError::new(
                        "flowcast's reshape() takes v.names without repeats",
                    ));
                }
                let mut groups = vec![Vec::new(); levels.len()];
                for (i, n) in names.iter().enumerate() {
                    let v = &vn[i % vn.len()];
                    if let Some(k) = levels.iter().position(|l| l == v) {
                        groups[k].push(n.clone());
                    }
                }
                groups
            }
        }
        Value::List(l) if l.class.is_none() => l
            .items
            .iter()
            .map(|v| ix2names(data, v))
            .collect::<Result<_, _>>()?,
        other => {
            return Err(KernelError::new(format!(
                "flowcast's reshape() takes varying as a vector or list of column names, not {}",
                other.type_name()
            )))
        }
    };
    // `times = seq_along(varying[[1L]])`, forced after varying is settled.
    let times = match times {
        Some(t) => t,
        None => Value::Num(
            (1..=groups.first().map_or(0, Vec::len))
                .map(|i| i as f64)
                .collect(),
        ),
    };
    let timevar = strings(args, "timevar")?.unwrap_or_else(|| vec!["time".into()]);
    let idvar = strings(args, "idvar")?.unwrap_or_else(|| vec!["id".into()]);
    let [timevar] = &timevar[..] else {
        return Err(KernelError::new("flowcast's reshape() takes one timevar"));
    };
    reshape_long(
        ctx,
        data,
        &groups,
        v_names.as_deref(),
        timevar,
        &idvar,
        args.get("ids"),
        &times,
        args.get("drop"),
        args.get("new.row.names"),
    )
}

/// R's `reshapeLong`.
#[allow(clippy::too_many_arguments)]
fn reshape_long(
    ctx: &mut Ctx,
    data: &List,
    varying: &[Vec<String>],
    v_names: Option<&[String]>,
    timevar: &str,
    idvar: &[String],
    ids: Option<&Value>,
    times: &Value,
    drop: Option<&Value>,
    new_row_names: Option<&Value>,
) -> Result<Value, KernelError> {
    let ll: Vec<usize> = varying.iter().map(Vec::len).collect();
    let Some(&l1) = ll.first() else {
        return Err(KernelError::new("missing value where TRUE/FALSE needed"));
    };
    if ll.iter().any(|&l| l != l1) {
        return Err(KernelError::new(
            "'varying' arguments must be the same length",
        ));
    }
    if l1 != times.len() {
        return Err(KernelError::new(
            "'lengths(varying)' must all match 'length(times)'",
        ));
    }
    let data = drop_columns(data, drop)?;
    let n = nrow(&data);
    let new_row_names = new_row_names
        .map(bare)
        .filter(|v| !matches!(v, Value::Null));
    let all_names = columns(&data).to_vec();
    // `ids`: 1:NROW(data) unless given, the id column(s) where there are.
    let mut id_labels: Vec<Option<String>> = match ids {
        Some(v) => as_text(bare(v))
            .ok_or_else(|| KernelError::new("flowcast's reshape() takes ids as a vector"))?,
        None => (1..=n).map(|i| Some(i.to_string())).collect(),
    };
    let ids_value: Option<Value> = ids.map(|v| bare(v).clone());
    if new_row_names.is_none() {
        if idvar.len() > 1 {
            id_labels = interaction(&data, idvar)?;
        } else if let Some(name) = idvar.first().filter(|i| all_names.contains(i)) {
            id_labels = as_text(bare(column(&data, name)?))
                .ok_or_else(|| KernelError::new("flowcast's reshape() takes a vector id column"))?;
        }
        let mut seen = std::collections::HashSet::new();
        if !id_labels.iter().all(|k| seen.insert(k.clone())) {
            return Err(KernelError::new("'idvar' must uniquely identify records"));
        }
    }
    let all_varying: Vec<&String> = varying.iter().flatten().collect();
    let mut d_names = Vec::new();
    let mut d_items = Vec::new();
    for (name, item) in all_names.iter().zip(&data.items) {
        if !all_varying.contains(&name) {
            d_names.push(name.clone());
            d_items.push(item.clone());
        }
    }
    let firsts: Vec<String> = varying.iter().map(|g| g[0].clone()).collect();
    let v_names: Vec<String> = v_names.map_or(firsts, <[String]>::to_vec);
    if v_names.len() != varying.len() {
        return Err(KernelError::new(
            "flowcast's reshape() takes one v.names for each group of varying",
        ));
    }
    let time_text = texts(times)?;
    let id_text: Vec<String> = id_labels
        .iter()
        .map(|s| s.clone().unwrap_or_else(|| "NA".to_string()))
        .collect();
    let new_rows = match new_row_names {
        Some(v) => Some(texts(v)?),
        None => None,
    };
    let mut pieces = Vec::with_capacity(l1);
    for i in 0..l1 {
        let mut names = d_names.clone();
        let mut items = d_items.clone();
        let time = pick_value(times, &vec![Some(i); n])?;
        assign(&mut names, &mut items, timevar, time)?;
        for (k, v) in v_names.iter().enumerate() {
            let col = column(&data, &varying[k][i])?.clone();
            assign(&mut names, &mut items, v, col)?;
        }
        let rows = match &new_rows {
            None => id_text
                .iter()
                .map(|id| format!("{id}.{}", time_text[i]))
                .collect(),
            Some(r) => {
                let picked: Vec<String> = (0..n)
                    .map(|j| {
                        r.get(i * n + j)
                            .cloned()
                            .unwrap_or_else(|| "NA".to_string())
                    })
                    .collect();
                if picked.iter().any(|s| s == "NA") {
                    return Err(KernelError::new(
                        "missing values in 'row.names' are not allowed",
                    ));
                }
                let mut seen = std::collections::HashSet::new();
                if !picked.iter().all(|s| seen.insert(s.clone())) {
                    return Err(KernelError::new("duplicate 'row.names' are not allowed"));
                }
                picked
            }
        };
        pieces.push(named_frame(names, items, Some(RowNames::Text(rows))));
    }
    let parts: Vec<(Option<&str>, &Value)> = pieces.iter().map(|p| (None, p)).collect();
    let rval = rbind_frames(&parts, ctx)?;
    let Value::List(mut rval) = rval else {
        return Ok(rval);
    };
    if let [id] = idvar {
        if !all_names.contains(id) {
            let rows = nrow(&rval);
            let id_col =
                ids_value.unwrap_or_else(|| Value::Num((1..=n).map(|i| i as f64).collect()));
            let len = id_col.len();
            if rows > 0 && (len == 0 || rows % len != 0) {
                return Err(KernelError::new(format!(
                    "replacement has {len} rows, data has {rows}"
                )));
            }
            let at: Vec<Option<usize>> = (0..rows).map(|r| Some(r % len)).collect();
            let col = pick_value(&id_col, &at)?;
            let mut names = rval.names.take().unwrap_or_default();
            assign(&mut names, &mut rval.items, id, col)?;
            rval.names = Some(names);
        }
    }
    Ok(Value::List(rval))
}

/// R's `reshapeWide`.
fn reshape_wide(
    args: &Args<&Value>,
    ctx: &mut Ctx,
    data: &List,
    timevar: &str,
    idvar: &[String],
    sep: &str,
) -> Result<Value, KernelError> {
    let data = drop_columns(data, args.get("drop"))?;
    let names = columns(&data).to_vec();
    let n = nrow(&data);
    // The id of each row: the column, or the interaction of several (R's
    // temporary `tempID` column, dropped at the end).
    let id_keys = match idvar {
        [one] => keys(column(&data, one)?)?,
        _ => interaction(&data, idvar)?,
    };
    let time_col = column(&data, timevar)?;
    let time_keys = keys(time_col)?;
    // times <- unique(data[, timevar])
    let mut first_at: Vec<usize> = Vec::new();
    {
        let mut seen = std::collections::HashSet::new();
        for (i, k) in time_keys.iter().enumerate() {
            if seen.insert(k.clone()) {
                first_at.push(i);
            }
        }
    }
    let times = pick_value(
        bare(time_col),
        &first_at.iter().map(|&i| Some(i)).collect::<Vec<_>>(),
    )?;
    let time_text = texts(&times)?;
    if first_at.iter().any(|&i| time_keys[i].is_none()) {
        ctx.warn("there are records with missing times, which will be dropped.");
    }
    let is_id = |c: &String| idvar.contains(c);
    let v_names: Vec<String> = match strings(args, "v.names")? {
        Some(v) => v,
        None => names
            .iter()
            .filter(|c| *c != timevar && !is_id(c))
            .cloned()
            .collect(),
    };
    // varying as R's matrix: one row per v.names, one column per time.
    let varying: Vec<Vec<String>> = match args.get("varying").map(bare) {
        None | Some(Value::Null) => time_text
            .iter()
            .map(|t| v_names.iter().map(|v| format!("{v}{sep}{t}")).collect())
            .collect(),
        Some(Value::List(l)) if l.class.is_none() => {
            let rows: Vec<Vec<String>> = l.items.iter().map(texts).collect::<Result<_, _>>()?;
            let ncol = rows.first().map_or(0, Vec::len);
            if rows.iter().any(|r| r.len() != ncol) {
                return Err(KernelError::new(
                    "flowcast's reshape() takes varying's vectors of one length",
                ));
            }
            (0..ncol)
                .map(|j| rows.iter().map(|r| r[j].clone()).collect())
                .collect()
        }
        Some(v @ Value::Str(_)) => {
            // matrix(varying, nrow = length(v.names)), column by column.
            let s = texts(v)?;
            let nr = v_names.len().max(1);
            s.chunks(nr).map(<[String]>::to_vec).collect()
        }
        Some(v) => {
            return Err(KernelError::new(format!(
                "flowcast's reshape() takes varying as column names, not {}",
                v.type_name()
            )))
        }
    };
    if varying.iter().any(|c| c.len() != v_names.len()) {
        return Err(KernelError::new(
            "flowcast's reshape() takes one varying name for each of v.names at each time",
        ));
    }
    if varying.len() < first_at.len() {
        return Err(KernelError::new("subscript out of bounds"));
    }
    // The "constant" variables must be constant within each id.
    let mut varying_constants: Vec<&str> = Vec::new();
    for (name, item) in names.iter().zip(&data.items) {
        if name == timevar || v_names.contains(name) || is_id(name) {
            continue;
        }
        let vals = keys(item)?;
        let mut by_id: HashMap<&str, &Option<String>> = HashMap::new();
        let mut constant = true;
        for (k, v) in id_keys.iter().zip(&vals) {
            // tapply groups by the ids, NA ids in no group.
            let Some(k) = k else { continue };
            match by_id.get(k.as_str()) {
                Some(first) if *first != v => constant = false,
                Some(_) => {}
                None => {
                    by_id.insert(k, v);
                }
            }
        }
        if !constant {
            varying_constants.push(name);
        }
    }
    if !varying_constants.is_empty() {
        ctx.warn(format!(
            "some constant variables ({}) are really varying",
            varying_constants.join(",")
        ));
    }
    // rval <- data[!duplicated(ids), !(names %in% c(timevar, v.names))]
    let mut firsts: Vec<usize> = Vec::new();
    {
        let mut seen = std::collections::HashSet::new();
        for (i, k) in id_keys.iter().enumerate() {
            if seen.insert(k.clone()) {
                firsts.push(i);
            }
        }
    }
    let at: Vec<Option<usize>> = firsts.iter().map(|&i| Some(i)).collect();
    let mut out_names = Vec::new();
    let mut out_items = Vec::new();
    for (name, item) in names.iter().zip(&data.items) {
        if name == timevar || v_names.contains(name) {
            continue;
        }
        out_names.push(name.clone());
        out_items.push(pick_value(item, &at)?);
    }
    let rows = super::row_names::picked(&data, &at);
    for (i, tkey) in time_keys
        .iter()
        .enumerate()
        .filter(|(i, _)| first_at.contains(i))
        .map(|(_, k)| k)
        .enumerate()
    {
        // thistime <- data[data[, timevar] %in% times[i], ]
        let this: Vec<usize> = (0..n).filter(|&r| &time_keys[r] == tkey).collect();
        let mut first_of: HashMap<&Option<String>, usize> = HashMap::new();
        let mut multiple = false;
        for &r in &this {
            if first_of.contains_key(&id_keys[r]) {
                multiple |= id_keys[r].is_some();
            } else {
                first_of.insert(&id_keys[r], r);
            }
        }
        if multiple {
            ctx.warn(format!(
                "multiple rows match for {timevar}={}: first taken",
                time_text[i]
            ));
        }
        let pos: Vec<Option<usize>> = firsts
            .iter()
            .map(|&r| first_of.get(&id_keys[r]).copied())
            .collect();
        for (k, v) in v_names.iter().enumerate() {
            let col = pick_value(column(&data, v)?, &pos)?;
            assign(&mut out_names, &mut out_items, &varying[i][k], col)?;
        }
    }
    let rows = match args.get("new.row.names").map(bare) {
        None | Some(Value::Null) => rows,
        Some(v) => {
            let r = texts(v)?;
            if r.len() != firsts.len() {
                return Err(KernelError::new("invalid 'row.names' length"));
            }
            RowNames::Text(r)
        }
    };
    Ok(Value::List(List {
        class: Some(CLASS.to_string()),
        names: Some(out_names),
        items: out_items,
        row_names: Some(rows),
    }))
}

/// The result's columns and rows before the run, where the data frame's
/// columns and the arguments that name the layout are constants.
fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let sep = match args.ty("sep") {
        None => ".".to_string(),
        Some(t) => match t.const_str() {
            Some(s) => s.to_string(),
            None => return Ok(Type::Any),
        },
    };
    let dir = match args.const_str("direction") {
        Some(d) => d,
        None => return Ok(Type::Any),
    };
    if args.has("split") || args.has("drop") || args.has("new.row.names") || args.has("ids") {
        return Ok(Type::Any);
    }
    let Some(fields) = args.ty("data").and_then(frame_fields) else {
        return Ok(Type::Any);
    };
    let rows = fields.first().and_then(|(_, t)| t.len());
    let const_strs = |name: &str, default: &str| -> Option<Vec<String>> {
        match args.ty(name) {
            None => Some(vec![default.to_string()]),
            Some(Type::Str { value, .. }) => value.clone(),
            _ => None,
        }
    };
    let (Some(timevar), Some(idvar)) = (const_strs("timevar", "time"), const_strs("idvar", "id"))
    else {
        return Ok(Type::Any);
    };
    let field = |n: &str| fields.iter().find(|(f, _)| f == n).map(|(_, t)| t);
    match dir {
        "long" if !args.has("times") => {
            // ix2names: a column's number names it.
            let varying: Vec<String> = match args.ty("varying") {
                Some(Type::Str { value: Some(v), .. }) => v.clone(),
                Some(Type::Num { value: Some(k), .. }) => {
                    let named: Option<Vec<String>> = k
                        .iter()
                        .map(|&k| {
                            (k >= 1.0)
                                .then(|| fields.get(k as usize - 1).map(|(n, _)| n.clone()))
                                .flatten()
                        })
                        .collect();
                    match named {
                        Some(v) => v,
                        None => return Ok(Type::Any),
                    }
                }
                _ => return Ok(Type::Any),
            };
            let varying = &varying;
            let (groups, v_names, times_len, times_num) = match args.ty("v.names") {
                None => {
                    let Ok((g, _)) = guess(varying, &sep) else {
                        return Ok(Type::Any);
                    };
                    let num = matches!(g.times, Value::Num(_));
                    let len = g.times.len();
                    (g.varying, g.v_names, len, num)
                }
                Some(_) => return Ok(Type::Any),
            };
            if groups.iter().any(|g| g.len() != times_len) || timevar.len() != 1 {
                return Ok(Type::Any);
            }
            let out_rows = rows.map(|r| r * times_len);
            let all: Vec<&String> = groups.iter().flatten().collect();
            let mut out: Vec<(String, Type)> = Vec::new();
            let put = |out: &mut Vec<(String, Type)>, n: &str, t: Type| match out
                .iter()
                .position(|(f, _)| f == n)
            {
                Some(k) => out[k].1 = t,
                None => out.push((n.to_string(), t)),
            };
            for (n, t) in fields {
                if !all.contains(&n) {
                    out.push((n.clone(), like_field(t, out_rows)));
                }
            }
            let time_t = if times_num {
                Type::Num {
                    len: out_rows,
                    value: None,
                }
            } else {
                Type::Str {
                    len: out_rows,
                    value: None,
                }
            };
            put(&mut out, &timevar[0], time_t);
            for (k, v) in v_names.iter().enumerate() {
                let Some(t) = groups[k].first().and_then(|g| field(g)) else {
                    return Ok(Type::Any);
                };
                put(&mut out, v, like_field(t, out_rows));
            }
            if let [id] = &idvar[..] {
                if field(id).is_none() {
                    put(
                        &mut out,
                        id,
                        Type::Num {
                            len: out_rows,
                            value: None,
                        },
                    );
                }
            }
            Ok(Type::Record {
                class: CLASS.to_string(),
                fields: out,
            })
        }
        "wide" if args.has("timevar") || args.has("idvar") => {
            let Some([timevar]) = Some(&timevar[..]) else {
                return Ok(Type::Any);
            };
            let v_names: Vec<String> = match args.ty("v.names") {
                None => fields
                    .iter()
                    .map(|(n, _)| n)
                    .filter(|n| *n != timevar && !idvar.contains(n))
                    .cloned()
                    .collect(),
                Some(Type::Str { value: Some(v), .. }) => v.clone(),
                _ => return Ok(Type::Any),
            };
            // The new columns: varying's names where it is a constant
            // (`matrix(varying, nrow = length(v.names))`, column by column),
            // else v.names and sep pasted to the time column's distinct
            // values, known when that column is a constant.
            let new_columns: Vec<(String, &String)> = match args.ty("varying") {
                Some(Type::Str { value: Some(v), .. })
                    if !v_names.is_empty() && v.len() % v_names.len() == 0 =>
                {
                    v.iter()
                        .enumerate()
                        .map(|(k, n)| (n.clone(), &v_names[k % v_names.len()]))
                        .collect()
                }
                Some(_) => return Ok(Type::Any),
                None => {
                    let times: Vec<String> = match field(timevar) {
                        Some(Type::Num { value: Some(v), .. }) => {
                            let mut u: Vec<f64> = Vec::new();
                            for &x in v {
                                if !u.iter().any(|y| y.to_bits() == x.to_bits()) {
                                    u.push(x);
                                }
                            }
                            u.into_iter().map(super::data::r_num_to_string).collect()
                        }
                        Some(Type::Str { value: Some(v), .. }) => {
                            let mut u: Vec<String> = Vec::new();
                            for s in v {
                                if !u.contains(s) {
                                    u.push(s.clone());
                                }
                            }
                            u
                        }
                        _ => return Ok(Type::Any),
                    };
                    times
                        .iter()
                        .flat_map(|t| {
                            let sep = &sep;
                            v_names.iter().map(move |v| (format!("{v}{sep}{t}"), v))
                        })
                        .collect()
                }
            };
            // The rows are the distinct ids: known when the ids are.
            let out_rows = match &idvar[..] {
                [one] => match field(one) {
                    Some(Type::Num { value: Some(v), .. }) => {
                        let mut u: Vec<u64> = Vec::new();
                        for x in v {
                            if !u.contains(&x.to_bits()) {
                                u.push(x.to_bits());
                            }
                        }
                        Some(u.len())
                    }
                    Some(Type::Str { value: Some(v), .. }) => {
                        let mut u: Vec<&String> = Vec::new();
                        for s in v {
                            if !u.contains(&s) {
                                u.push(s);
                            }
                        }
                        Some(u.len())
                    }
                    _ => None,
                },
                _ => None,
            };
            let mut out: Vec<(String, Type)> = fields
                .iter()
                .filter(|(n, _)| n != timevar && !v_names.contains(n))
                .map(|(n, t)| (n.clone(), like_field(t, out_rows)))
                .collect();
            for (n, v) in new_columns {
                let Some(ft) = field(v) else {
                    return Ok(Type::Any);
                };
                let ty = like_field(ft, out_rows);
                match out.iter().position(|(f, _)| *f == n) {
                    Some(k) => out[k].1 = ty,
                    None => out.push((n, ty)),
                }
            }
            Ok(Type::Record {
                class: CLASS.to_string(),
                fields: out,
            })
        }
        _ => Ok(Type::Any),
    }
}

/// A column's type at another length (a factor's levels may change as
/// rbind joins them).
fn like_field(t: &Type, len: Option<usize>) -> Type {
    match t {
        Type::Factor { ordered, .. } => Type::Factor {
            len,
            levels: None,
            ordered: *ordered,
        },
        t => super::vector::like(t, len),
    }
}
