//! `merge(x, y, by, by.x, by.y, all, all.x, all.y, sort, suffixes, no.dups)`
//! of two data frames, following R's `merge.data.frame` step by step and
//! `do_merge` (`src/main/unique.c`) for the pairing of rows:
//!
//! - the key of a row is its one `by` column (a factor as its labels), or,
//!   for several, the columns' text pasted with `"\r"` (as R pastes
//!   `rbind(bx, by)`, so each pair of columns is first brought to one type);
//!   keys match as `match` matches them, NA with NA;
//! - `do_merge` numbers each matched key by its first place among the
//!   matched rows of x, sorts both sides' numbers with R's Shell sort
//!   (`isort_with_index`, not stable: rows with one key may come out of
//!   their original order) and pairs every x row with every y row of each
//!   key, then the unmatched rows of x (`all.x`) and of y (`all.y`);
//! - the result holds the key columns (named and typed as x's, y's
//!   unmatched keys joined as `rbind` joins them), x's other columns, then
//!   y's, clashing names suffixed;
//! - `sort = TRUE` orders the rows by key: `sort.list` of the keys of the
//!   matched rows, or with `all` rows `order` of the key columns (a factor
//!   by its levels, text by the collation R sorts text with).
//!
//! With no `by` column every row of x is paired with every row of y, x
//! varying fastest. `by = "row.names"` (or 0) matches the row names, as
//! a first column `Row.names`. The result's row names are automatic.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use super::alloc;
use super::collate;
use super::factor::{as_text, text_is_na};
use super::frame::{self, as_frame, frame_fields, nrow, rbind_column};
use super::index;
use super::value::{List, NA};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "merge",
    params: &[
        req("x"),
        req("y"),
        opt("by"),
        opt("by.x"),
        opt("by.y"),
        opt("all"),
        opt("all.x"),
        opt("all.y"),
        opt("sort"),
        opt("suffixes"),
        opt("no.dups"),
        opt("incomparables"),
        DOTS,
    ],
    random: false,
    shape: merge_shape,
    eval: merge_eval,
}];

/// R's message for `by` naming no column, or an ambiguous one.
fn not_valid(bad: usize) -> String {
    if bad == 1 {
        "'by' must specify a uniquely valid column".to_string()
    } else {
        "'by' must specify uniquely valid columns".to_string()
    }
}

/// R's `charmatch(s, table, 0L)`: the one exact match, else the one
/// partial match; 0 when none or several.
fn charmatch(s: &str, table: &[&str]) -> usize {
    let exact: Vec<usize> = (0..table.len()).filter(|&i| table[i] == s).collect();
    if exact.len() == 1 {
        return exact[0] + 1;
    }
    if !exact.is_empty() {
        return 0;
    }
    let partial: Vec<usize> = (0..table.len())
        .filter(|&i| table[i].starts_with(s))
        .collect();
    if partial.len() == 1 {
        partial[0] + 1
    } else {
        0
    }
}

/// `merge`'s `fix.by(by, df)`: the positions `by` names among
/// `c("row.names", names(df))` (0-based: 0 is the row names, `k` the
/// `k`-th column), in order, repeats dropped.
fn fix_by(by: &Value, names: &[String]) -> Result<Vec<usize>, String> {
    let nc = names.len();
    // 1-based positions among c("row.names", names(df)) less one: 0 is
    // the row names; None an NA.
    let picked: Vec<Option<usize>> = match by {
        Value::Null => Vec::new(),
        Value::Str(_) | Value::Factor(_) => {
            let text: Vec<String> = as_text(by)
                .unwrap_or_default()
                .into_iter()
                .map(|s| s.unwrap_or_else(|| "NA".to_string()))
                .collect();
            let poss: Vec<&str> = std::iter::once("row.names")
                .chain(names.iter().map(String::as_str))
                .collect();
            let bad = text.iter().filter(|s| charmatch(s, &poss) == 0).count();
            if bad > 0 {
                return Err(not_valid(bad));
            }
            text.iter()
                .map(|s| poss.iter().position(|p| p == s))
                .collect()
        }
        Value::Num(v) => {
            if v.iter().any(|&x| x < 0.0 || x > nc as f64) {
                return Err("'by' must match numbers of columns".into());
            }
            if v.iter().any(|x| x.is_nan()) {
                return Err("missing value where TRUE/FALSE needed".into());
            }
            v.iter().map(|&x| Some(x.trunc() as usize)).collect()
        }
        Value::Bool(b) => {
            if b.len() != nc {
                return Err("'by' must match number of columns".into());
            }
            b.iter()
                .enumerate()
                .filter_map(|(i, b)| match b {
                    Some(true) => Some(Some(i + 1)),
                    Some(false) => None,
                    None => Some(None),
                })
                .collect()
        }
        _ => {
            return Err("'by' must specify one or more columns as numbers, names or logical".into())
        }
    };
    let bad = picked.iter().filter(|p| p.is_none()).count();
    if bad > 0 {
        return Err(not_valid(bad));
    }
    let mut out: Vec<usize> = Vec::with_capacity(picked.len());
    for p in picked.into_iter().flatten() {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    Ok(out)
}

/// The frame merge matches on and the 0-based columns of its `by`
/// positions ([`fix_by`]): with the row names among them, R's
/// `cbind(Row.names = I(row.names(x)), x)`, whose columns are the
/// positions themselves.
fn by_columns(l: &List, by: Vec<usize>) -> (std::borrow::Cow<'_, List>, Vec<usize>) {
    if !by.contains(&0) {
        return (
            std::borrow::Cow::Borrowed(l),
            by.into_iter().map(|p| p - 1).collect(),
        );
    }
    let mut names = vec!["Row.names".to_string()];
    names.extend(l.names.iter().flatten().cloned());
    let mut items = vec![Value::Str(super::row_names::labels(l))];
    items.extend(l.items.iter().cloned());
    let framed = List {
        class: l.class.clone(),
        names: Some(names),
        items,
        row_names: None,
    };
    (std::borrow::Cow::Owned(framed), by)
}

/// A number as `match` compares numbers: NA equal to NA, NaN to NaN, -0
/// to 0.
fn number_key(x: f64) -> u64 {
    if super::value::is_na(x) {
        NA.to_bits()
    } else if x.is_nan() {
        f64::NAN.to_bits()
    } else if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

/// R's `comm <- match(bx, by, 0L); bxy <- bx[comm > 0L]`, then
/// `xinds <- match(bx, bxy, 0L)` and `yinds <- match(by, bxy, 0L)`: each
/// row's key numbered by its first place among x's matched rows (1-based),
/// 0 for a key the other side lacks.
fn common_indices<K: Hash + Eq>(bx: &[K], by: &[K]) -> (Vec<usize>, Vec<usize>) {
    let in_y: HashSet<&K> = by.iter().collect();
    let mut first: HashMap<&K, usize> = HashMap::new();
    let mut matched = 0;
    for k in bx {
        if in_y.contains(k) {
            matched += 1;
            first.entry(k).or_insert(matched);
        }
    }
    let at = |k: &K| first.get(k).copied().unwrap_or(0);
    (bx.iter().map(at).collect(), by.iter().map(at).collect())
}

/// R's `isort_with_index`: a Shell sort of `x` carrying `indx` along. Not
/// stable, and `merge`'s row order depends on it.
fn isort_with_index(x: &mut [usize], indx: &mut [usize]) {
    let n = x.len();
    let mut h = 1;
    while h <= n / 9 {
        h = 3 * h + 1;
    }
    while h > 0 {
        for i in h..n {
            let v = x[i];
            let iv = indx[i];
            let mut j = i;
            while j >= h && x[j - h] > v {
                x[j] = x[j - h];
                indx[j] = indx[j - h];
                j -= h;
            }
            x[j] = v;
            indx[j] = iv;
        }
        h /= 3;
    }
}

/// `.Internal(merge(xinds, yinds, all.x, all.y))`: rows (0-based) of x
/// and y paired, then those alone.
#[derive(Debug, PartialEq)]
struct Pairs {
    xi: Vec<usize>,
    yi: Vec<usize>,
    x_alone: Vec<usize>,
    y_alone: Vec<usize>,
}

/// R's `do_merge`.
fn do_merge(
    mut xinds: Vec<usize>,
    mut yinds: Vec<usize>,
    all_x: bool,
    all_y: bool,
) -> Result<Pairs, KernelError> {
    let (nx, ny) = (xinds.len(), yinds.len());
    let mut ix: Vec<usize> = (0..nx).collect();
    let mut iy: Vec<usize> = (0..ny).collect();
    isort_with_index(&mut xinds, &mut ix);
    isort_with_index(&mut yinds, &mut iy);
    let nx_lone = xinds.iter().position(|&v| v > 0).unwrap_or(nx);
    let ny_lone = yinds.iter().position(|&v| v > 0).unwrap_or(ny);
    // Each run of one key in x and the run of that key in y.
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut total = 0.0f64;
    let (mut i, mut j) = (nx_lone, ny_lone);
    while i < nx {
        let key = xinds[i];
        let mut nnx = i;
        while nnx < nx && xinds[nnx] == key {
            nnx += 1;
        }
        while j < ny && yinds[j] < key {
            j += 1;
        }
        let mut nny = j;
        while nny < ny && yinds[nny] == key {
            nny += 1;
        }
        total += (nnx - i) as f64 * (nny - j) as f64;
        runs.push((i, nnx, j, nny));
        i = nnx;
        j = nny;
    }
    if total > 4_503_599_627_370_496.0 {
        return Err(KernelError::new(
            "number of rows in the result exceeds maximum vector length",
        ));
    }
    // R allocates the two integer vectors of pairs first.
    alloc::ensure_room(total * 4.0)?;
    let pairs = total as usize;
    let mut xi = alloc::vec_with_capacity(pairs)?;
    let mut yi = alloc::vec_with_capacity(pairs)?;
    for (i, nnx, j, nny) in runs {
        for &a in &ix[i..nnx] {
            for &b in &iy[j..nny] {
                xi.push(a);
                yi.push(b);
            }
        }
    }
    Ok(Pairs {
        xi,
        yi,
        x_alone: if all_x {
            ix[..nx_lone].to_vec()
        } else {
            Vec::new()
        },
        y_alone: if all_y {
            iy[..ny_lone].to_vec()
        } else {
            Vec::new()
        },
    })
}

/// A key column's text as `paste` writes it after `rbind(bx, by)` has
/// brought x's and y's columns to one type: a factor or text makes text,
/// numbers with logicals make numbers.
fn pasted_text(col: &Value, other: &Value) -> Vec<String> {
    let numeric = |v: &Value| matches!(v, Value::Num(_) | Value::Mat(_));
    let col = match col {
        Value::Bool(b) if numeric(other) => {
            Value::Num(b.iter().map(|&b| super::value::logical_f64(b)).collect())
        }
        other => other.clone(),
    };
    as_text(&col)
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.unwrap_or_else(|| "NA".to_string()))
        .collect()
}

/// The keys of x's and y's rows, as `merge` matches them.
enum Keys {
    Numbers(Vec<f64>, Vec<f64>),
    Text(Vec<Option<String>>, Vec<Option<String>>),
}

fn key_column<'a>(col: &'a Value, side: &str) -> Result<&'a Value, KernelError> {
    match col {
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_) => Ok(col),
        other => Err(KernelError::new(format!(
            "flowcast's merge() joins on vector and factor columns, not a {} (in {side})",
            other.type_name()
        ))),
    }
}

/// The keys of x's and y's rows, and x's keys as `sort.list` sorts them
/// (`bx`: one column's values, a factor's as text, or the pasted text).
fn keys(x: &List, y: &List, by_x: &[usize], by_y: &[usize]) -> Result<(Keys, Value), KernelError> {
    if let ([jx], [jy]) = (by_x, by_y) {
        let (cx, cy) = (
            key_column(&x.items[*jx], "x")?,
            key_column(&y.items[*jy], "y")?,
        );
        let text = |v: &Value| matches!(v, Value::Str(_) | Value::Factor(_));
        let nums = |v: &Value| v.as_f64_slice().unwrap_or_default().into_owned();
        let bx = if text(cx) {
            Value::Str(
                as_text(cx)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|s| s.unwrap_or_else(|| "NA".to_string()))
                    .collect(),
            )
        } else {
            Value::Num(nums(cx))
        };
        if text(cx) || text(cy) {
            let keys = Keys::Text(
                as_text(cx).unwrap_or_default(),
                as_text(cy).unwrap_or_default(),
            );
            return Ok((keys, bx));
        }
        return Ok((Keys::Numbers(nums(cx), nums(cy)), bx));
    }
    let (nx, ny) = (nrow(x), nrow(y));
    let mut bx = vec![String::new(); nx];
    let mut by = vec![String::new(); ny];
    for (k, (&jx, &jy)) in by_x.iter().zip(by_y).enumerate() {
        let (cx, cy) = (
            key_column(&x.items[jx], "x")?,
            key_column(&y.items[jy], "y")?,
        );
        for (out, text) in [
            (&mut bx, pasted_text(cx, cy)),
            (&mut by, pasted_text(cy, cx)),
        ] {
            for (o, t) in out.iter_mut().zip(text) {
                if k > 0 {
                    o.push('\r');
                }
                o.push_str(&t);
            }
        }
    }
    let sorted = Value::Str(bx.clone());
    let keys = Keys::Text(
        bx.into_iter().map(Some).collect(),
        by.into_iter().map(Some).collect(),
    );
    Ok((keys, sorted))
}

/// One sort key of `order`/`sort.list`: NA last, ties in place.
enum SortKey<'a> {
    Numbers(std::borrow::Cow<'a, [f64]>),
    Text(Vec<Option<&'a str>>),
    Codes(Vec<Option<u32>>),
}

impl SortKey<'_> {
    fn of(v: &Value) -> SortKey<'_> {
        match v {
            Value::Str(s) => SortKey::Text(
                s.iter()
                    .map(|t| (!text_is_na(t)).then_some(t.as_str()))
                    .collect(),
            ),
            Value::Factor(f) => SortKey::Codes(f.codes.clone()),
            other => SortKey::Numbers(other.as_f64_slice().unwrap_or_default()),
        }
    }

    fn cmp(&self, a: usize, b: usize) -> Ordering {
        fn na_last<T>(a: Option<T>, b: Option<T>, f: impl FnOnce(T, T) -> Ordering) -> Ordering {
            match (a, b) {
                (Some(a), Some(b)) => f(a, b),
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (None, None) => Ordering::Equal,
            }
        }
        match self {
            SortKey::Numbers(v) => {
                let n = |x: f64| (!x.is_nan()).then_some(x);
                na_last(n(v[a]), n(v[b]), |x, y| {
                    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
                })
            }
            SortKey::Text(v) => na_last(v[a], v[b], collate::compare),
            SortKey::Codes(v) => na_last(v[a], v[b], |x, y| x.cmp(&y)),
        }
    }
}

/// `order(...)` of `keys` (0-based), stable.
fn order(keys: &[SortKey], n: usize) -> Vec<usize> {
    let mut o: Vec<usize> = (0..n).collect();
    o.sort_by(|&a, &b| {
        keys.iter()
            .map(|k| k.cmp(a, b))
            .find(|c| *c != Ordering::Equal)
            .unwrap_or(Ordering::Equal)
    });
    o
}

/// `v[rows]` with 0-based rows, `None` an NA row.
fn rows_of(v: &Value, rows: &[Option<usize>]) -> Result<Value, KernelError> {
    let i = Value::Num(
        rows.iter()
            .map(|r| r.map_or(NA, |r| r as f64 + 1.0))
            .collect(),
    );
    index::index(v, &[Some(i)])
}

fn suffixed(name: &str, suffix: &str) -> String {
    format!("{name}{suffix}")
}

/// The `suffixes` argument: R reads its first and second elements.
fn suffixes(v: Option<&Value>) -> Result<(String, String), KernelError> {
    match v {
        None => Ok((".x".into(), ".y".into())),
        Some(Value::Str(s)) => {
            let at = |k: usize| s.get(k).cloned().unwrap_or_else(|| "NA".to_string());
            Ok((at(0), at(1)))
        }
        Some(other) => Err(KernelError::new(format!(
            "'suffixes' must be a character vector of length 2, not {}",
            other.type_name()
        ))),
    }
}

fn frame_arg<'a>(args: &'a Args<&Value>, name: &str) -> Result<&'a List, KernelError> {
    let v = args.get(name).ok_or_else(|| {
        KernelError::new(format!("argument \"{name}\" is missing, with no default"))
    })?;
    as_frame(v).ok_or_else(|| {
        KernelError::new(format!(
            "flowcast's merge() takes two data frames; `{name}` is {}",
            v.type_name()
        ))
    })
}

/// `intersect(names(x), names(y))`: `by`'s default.
fn common_names(x: &[String], y: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in x {
        if y.contains(n) && !out.contains(n) {
            out.push(n.clone());
        }
    }
    out
}

fn merge_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = frame_arg(args, "x")?;
    let y = frame_arg(args, "y")?;
    let default_by = Value::Str(common_names(
        x.names.as_deref().unwrap_or_default(),
        y.names.as_deref().unwrap_or_default(),
    ));
    let by = args.get("by").unwrap_or(&default_by);
    let by_x = fix_by(
        args.get("by.x").unwrap_or(by),
        x.names.as_deref().unwrap_or_default(),
    )
    .map_err(KernelError::new)?;
    let by_y = fix_by(
        args.get("by.y").unwrap_or(by),
        y.names.as_deref().unwrap_or_default(),
    )
    .map_err(KernelError::new)?;
    if by_x.len() != by_y.len() {
        return Err(KernelError::new(
            "'by.x' and 'by.y' specify different numbers of columns",
        ));
    }
    let (x, by_x) = by_columns(x, by_x);
    let (y, by_y) = by_columns(y, by_y);
    let (x, y) = (&*x, &*y);
    let names_x = x.names.clone().unwrap_or_default();
    let names_y = y.names.clone().unwrap_or_default();
    let all = args.bool_or("all", false)?;
    let all_x = args.bool_or("all.x", all)?;
    let all_y = args.bool_or("all.y", all)?;
    let sort = args.bool_or("sort", true)?;
    let no_dups = args.bool_or("no.dups", true)?;
    let (suffix_x, suffix_y) = suffixes(args.get("suffixes"))?;
    if !matches!(args.get("incomparables"), None | Some(Value::Null)) {
        return Err(KernelError::new(
            "flowcast's merge() does not take 'incomparables'",
        ));
    }
    if by_x.is_empty() {
        return cross_join(x, y, &names_x, &names_y, &suffix_x, &suffix_y);
    }
    let (nx, ny) = (nrow(x), nrow(y));
    let (ks, bx) = keys(x, y, &by_x, &by_y)?;
    let (xinds, yinds) = match &ks {
        Keys::Numbers(a, b) => {
            let k = |v: &[f64]| v.iter().map(|&x| number_key(x)).collect::<Vec<_>>();
            common_indices(&k(a), &k(b))
        }
        Keys::Text(a, b) => common_indices(a, b),
    };
    let m = if nx > 0 && ny > 0 {
        do_merge(xinds, yinds, all_x, all_y)?
    } else {
        Pairs {
            xi: Vec::new(),
            yi: Vec::new(),
            x_alone: (0..nx).collect(),
            y_alone: (0..ny).collect(),
        }
    };
    let rest_x: Vec<usize> = (0..names_x.len()).filter(|j| !by_x.contains(j)).collect();
    let rest_y: Vec<usize> = (0..names_y.len()).filter(|j| !by_y.contains(j)).collect();
    let nm_by: Vec<String> = by_x.iter().map(|&j| names_x[j].clone()).collect();
    let nm: Vec<String> = rest_x.iter().map(|&j| names_x[j].clone()).collect();
    let mut nm_x = nm.clone();
    let mut nm_y: Vec<String> = rest_y.iter().map(|&j| names_y[j].clone()).collect();
    let all_x = all_x && !m.x_alone.is_empty();
    let all_y = all_y && !m.y_alone.is_empty();
    let (nxx, nyy) = (m.x_alone.len(), m.y_alone.len());
    let cnm: Vec<bool> = nm_x.iter().map(|n| nm_y.contains(n)).collect();
    let has_common = cnm.iter().any(|&c| c);
    if has_common && !suffix_x.is_empty() {
        for (n, &c) in nm_x.iter_mut().zip(&cnm) {
            if c {
                *n = suffixed(n, &suffix_x);
            }
        }
    }
    let rows = m.xi.len() + if all_x { nxx } else { 0 } + if all_y { nyy } else { 0 };
    let width: usize = x.items.len() + y.items.len();
    alloc::ensure_room(rows as f64 * width as f64 * 8.0)?;
    // x's rows: the pairs, then x's alone; y's alone get NA, but their keys.
    let x_rows: Vec<Option<usize>> =
        m.xi.iter()
            .chain(if all_x { &m.x_alone[..] } else { &[] })
            .map(|&r| Some(r))
            .collect();
    let mut columns: Vec<Value> = Vec::with_capacity(width);
    for (k, &j) in by_x.iter().enumerate() {
        let mine = rows_of(&x.items[j], &x_rows)?;
        columns.push(if all_y {
            let theirs = rows_of(&y.items[by_y[k]], &to_rows(&m.y_alone))?;
            rbind_column(&[&mine, &theirs], ctx)?
        } else {
            mine
        });
    }
    let x_rest_rows: Vec<Option<usize>> = x_rows
        .iter()
        .copied()
        .chain(std::iter::repeat_n(None, if all_y { nyy } else { 0 }))
        .collect();
    for &j in &rest_x {
        columns.push(rows_of(&x.items[j], &x_rest_rows)?);
    }
    if has_common && !suffix_y.is_empty() {
        for n in nm_y.iter_mut() {
            if nm.contains(n) {
                *n = suffixed(n, &suffix_y);
            }
        }
    }
    // y's rows: the pairs, NA for x's alone, then y's alone.
    let y_rows: Vec<Option<usize>> =
        m.yi.iter()
            .map(|&r| Some(r))
            .chain(std::iter::repeat_n(None, if all_x { nxx } else { 0 }))
            .chain(to_rows(if all_y { &m.y_alone } else { &[] }))
            .collect();
    for &j in &rest_y {
        columns.push(rows_of(&y.items[j], &y_rows)?);
    }
    if no_dups && !suffix_y.is_empty() {
        let mi: Vec<usize> = nm_by
            .iter()
            .filter_map(|b| nm_y.iter().position(|n| n == b))
            .collect();
        for i in mi {
            nm_y[i] = suffixed(&nm_y[i], &suffix_y);
        }
    }
    let names: Vec<String> = nm_by.iter().chain(&nm_x).chain(&nm_y).cloned().collect();
    warn_duplicated(&names, ctx);
    if sort {
        let perm = if all_x || all_y {
            let ks: Vec<SortKey> = columns[..by_x.len()].iter().map(SortKey::of).collect();
            order(&ks, rows)
        } else {
            // sort.list(bx[m$xi]): the keys of the paired rows of x.
            let key = rows_of(&bx, &to_rows(&m.xi))?;
            order(&[SortKey::of(&key)], rows)
        };
        let perm: Vec<Option<usize>> = perm.into_iter().map(Some).collect();
        columns = columns
            .iter()
            .map(|c| rows_of(c, &perm))
            .collect::<Result<_, _>>()?;
    }
    Ok(frame::frame(names, columns))
}

fn to_rows(rows: &[usize]) -> Vec<Option<usize>> {
    rows.iter().map(|&r| Some(r)).collect()
}

/// R's warning for a result with repeated column names.
fn warn_duplicated(names: &[String], ctx: &mut Ctx) {
    let mut seen: HashSet<&str> = HashSet::new();
    let dups: Vec<&str> = names
        .iter()
        .filter(|n| !seen.insert(n.as_str()))
        .map(String::as_str)
        .collect();
    match dups[..] {
        [] => {}
        [one] => ctx.warn(format!(
            "column name \u{2018}{one}\u{2019} is duplicated in the result"
        )),
        _ => ctx.warn(format!(
            "column names {} are duplicated in the result",
            dups.iter()
                .map(|n| format!("\u{2018}{n}\u{2019}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// `merge` with no `by` column: every row of x with every row of y, x
/// varying fastest (`expand.grid(seq_len(nx), seq_len(ny))`).
fn cross_join(
    x: &List,
    y: &List,
    names_x: &[String],
    names_y: &[String],
    suffix_x: &str,
    suffix_y: &str,
) -> Result<Value, KernelError> {
    let (nx, ny) = (nrow(x), nrow(y));
    let mut nm_x = names_x.to_vec();
    let mut nm_y = names_y.to_vec();
    if nm_x.iter().any(|n| names_y.contains(n)) {
        for n in nm_x.iter_mut() {
            if names_y.contains(n) {
                *n = suffixed(n, suffix_x);
            }
        }
        for n in nm_y.iter_mut() {
            if names_x.contains(n) {
                *n = suffixed(n, suffix_y);
            }
        }
    }
    let rows = nx
        .checked_mul(ny)
        .ok_or_else(|| alloc::cannot_allocate(nx as f64 * ny as f64 * 4.0))?;
    // Two row maps of 16 bytes a row, and one column's index of 8, besides
    // the columns: counting the columns alone, `merge` of two 10^4-row
    // frames without common columns passed the check under a 4 GB limit
    // and then aborted on the maps' 3.2 GB.
    let row_map = 2.0 * std::mem::size_of::<Option<usize>>() as f64 + 8.0;
    alloc::ensure_room(rows as f64 * (row_map + (x.items.len() + y.items.len()) as f64 * 8.0))?;
    let mut xr: Vec<Option<usize>> = alloc::vec_with_capacity(rows)?;
    xr.extend((0..rows).map(|r| Some(r % nx.max(1))));
    let mut yr: Vec<Option<usize>> = alloc::vec_with_capacity(rows)?;
    yr.extend((0..rows).map(|r| Some(r / nx.max(1))));
    let mut columns = Vec::with_capacity(x.items.len() + y.items.len());
    for c in &x.items {
        columns.push(rows_of(c, &xr)?);
    }
    for c in &y.items {
        columns.push(rows_of(c, &yr)?);
    }
    Ok(frame::frame(
        nm_x.into_iter().chain(nm_y).collect(),
        columns,
    ))
}

/// A constant `by`-like argument as a value, to resolve it before the run.
fn const_value(t: &Type) -> Option<Value> {
    match t {
        Type::Null => Some(Value::Null),
        Type::Num { value: Some(v), .. } => Some(Value::Num(v.clone())),
        Type::Bool { value: Some(v), .. } => Some(Value::Bool(v.clone())),
        Type::Str { value: Some(v), .. } => Some(Value::Str(v.clone())),
        _ => None,
    }
}

fn merge_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "y"] {
        match args.ty(name) {
            Some(t) if frame_fields(t).is_some() => {}
            None | Some(Type::Any) => {}
            Some(t) => {
                return Err(args.error(
                    name,
                    format!(
                        "flowcast's merge() takes two data frames; `{name}` is {}",
                        t.describe()
                    ),
                ))
            }
        }
    }
    let (Some(fx), Some(fy)) = (
        args.ty("x").and_then(frame_fields),
        args.ty("y").and_then(frame_fields),
    ) else {
        return Ok(Type::Any);
    };
    let names_x: Vec<String> = fx.iter().map(|(n, _)| n.clone()).collect();
    let names_y: Vec<String> = fy.iter().map(|(n, _)| n.clone()).collect();
    let default_by = Value::Str(common_names(&names_x, &names_y));
    let resolve = |formal: &str, names: &[String]| -> Result<Option<Vec<usize>>, ArgError> {
        let t = args.ty(formal).or_else(|| args.ty("by"));
        let v = match t {
            None => default_by.clone(),
            Some(t) => match const_value(t) {
                Some(v) => v,
                None => return Ok(None),
            },
        };
        let at = if args.has(formal) { formal } else { "by" };
        fix_by(&v, names).map(Some).map_err(|m| args.error(at, m))
    };
    let (Some(by_x), Some(by_y)) = (resolve("by.x", &names_x)?, resolve("by.y", &names_y)?) else {
        return Ok(Type::Any);
    };
    // The row names make a column the type does not hold.
    if by_x.contains(&0) || by_y.contains(&0) {
        return Ok(Type::Any);
    }
    let by_x: Vec<usize> = by_x.into_iter().map(|p| p - 1).collect();
    let by_y: Vec<usize> = by_y.into_iter().map(|p| p - 1).collect();
    if by_x.len() != by_y.len() {
        return Err(ArgError::call(
            "'by.x' and 'by.y' specify different numbers of columns",
        ));
    }
    if by_x.is_empty() {
        return Ok(Type::Any);
    }
    let flag = |name: &str, default: Option<bool>| -> Option<bool> {
        match args.ty(name) {
            None => default,
            Some(t) => t.const_scalar().filter(|x| !x.is_nan()).map(|x| x != 0.0),
        }
    };
    let all = flag("all", Some(false));
    let all_y = flag("all.y", all);
    let suffixes = match args.ty("suffixes") {
        None => Some((".x".to_string(), ".y".to_string())),
        Some(Type::Str { value: Some(v), .. }) => Some((
            v.first().cloned().unwrap_or_else(|| "NA".into()),
            v.get(1).cloned().unwrap_or_else(|| "NA".into()),
        )),
        Some(_) => None,
    };
    let no_dups = flag("no.dups", Some(true));
    let (Some((sx, sy)), Some(no_dups)) = (suffixes, no_dups) else {
        return Ok(Type::Any);
    };
    let column = |t: &Type| super::vector::like(t, None);
    let mut fields: Vec<(String, Type)> = Vec::new();
    for (k, &j) in by_x.iter().enumerate() {
        let tx = &fx[j].1;
        let ty = &fy[by_y[k]].1;
        // Unmatched keys of y may change the column's type.
        let same = std::mem::discriminant(tx) == std::mem::discriminant(ty);
        let t = match (tx, all_y) {
            (Type::Factor { .. }, _) => Type::Factor {
                len: None,
                levels: None,
                ordered: false,
            },
            (_, Some(false)) => column(tx),
            _ if same => column(tx),
            _ => Type::Any,
        };
        fields.push((fx[j].0.clone(), t));
    }
    let rest_y: Vec<&(String, Type)> = (0..fy.len())
        .filter(|j| !by_y.contains(j))
        .map(|j| &fy[j])
        .collect();
    let nm: Vec<&String> = (0..fx.len())
        .filter(|j| !by_x.contains(j))
        .map(|j| &fx[j].0)
        .collect();
    let common = nm.iter().any(|n| rest_y.iter().any(|(m, _)| m == *n));
    for j in (0..fx.len()).filter(|j| !by_x.contains(j)) {
        let (n, t) = &fx[j];
        let clash = rest_y.iter().any(|(m, _)| m == n);
        let name = if common && clash && !sx.is_empty() {
            suffixed(n, &sx)
        } else {
            n.clone()
        };
        fields.push((name, column(t)));
    }
    let mut y_fields: Vec<(String, Type)> = rest_y
        .iter()
        .map(|(n, t)| {
            let name = if common && !sy.is_empty() && nm.contains(&n) {
                suffixed(n, &sy)
            } else {
                n.clone()
            };
            (name, column(t))
        })
        .collect();
    if no_dups && !sy.is_empty() {
        let keys: Vec<String> = fields[..by_x.len()]
            .iter()
            .map(|(n, _)| n.clone())
            .collect();
        let mi: Vec<usize> = keys
            .iter()
            .filter_map(|b| y_fields.iter().position(|(n, _)| n == b))
            .collect();
        for i in mi {
            y_fields[i].0 = suffixed(&y_fields[i].0, &sy);
        }
    }
    fields.extend(y_fields);
    Ok(Type::Record {
        class: frame::CLASS.to_string(),
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_sort_is_rs_and_not_stable() {
        // Ten equal keys with one smaller: h = 4 moves rows past equals.
        let mut x = vec![2, 2, 2, 2, 2, 2, 2, 2, 2, 1];
        let mut ix: Vec<usize> = (0..10).collect();
        isort_with_index(&mut x, &mut ix);
        assert_eq!(x, vec![1, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
        assert_eq!(ix, vec![9, 0, 2, 3, 4, 1, 6, 7, 8, 5]);
    }

    #[test]
    fn pairs_follow_do_merge() {
        let m = do_merge(vec![1, 0, 2, 1], vec![2, 1, 1, 0], true, true).unwrap();
        assert_eq!(m.xi, vec![0, 0, 3, 3, 2]);
        assert_eq!(m.yi, vec![1, 2, 1, 2, 0]);
        assert_eq!(m.x_alone, vec![1]);
        assert_eq!(m.y_alone, vec![3]);
    }

    #[test]
    fn by_is_checked_as_r_checks_it() {
        let names: Vec<String> = ["id", "dose", "do"].iter().map(|s| s.to_string()).collect();
        let s = |v: &[&str]| Value::Str(v.iter().map(|s| s.to_string()).collect());
        assert_eq!(fix_by(&s(&["dose", "id"]), &names), Ok(vec![2, 1]));
        assert_eq!(fix_by(&s(&["dos"]), &names), Err(not_valid(1)));
        assert_eq!(fix_by(&s(&["zz", "d"]), &names), Err(not_valid(2)));
        assert_eq!(
            fix_by(&Value::Num(vec![4.0]), &names),
            Err("'by' must match numbers of columns".to_string())
        );
        assert_eq!(fix_by(&Value::Num(vec![2.0, 2.0]), &names), Ok(vec![2]));
        assert_eq!(fix_by(&s(&["row.names", "id"]), &names), Ok(vec![0, 1]));
    }
}
