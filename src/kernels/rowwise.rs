//! Row-wise helpers from base and stats: `findInterval` (a port of
//! `findInterval2` in R's src/appl/interv.c), `rowsum` (rowsum.default and
//! `rowsum_matrix` in R's unique.c), `embed` (stats/R/embed.R) and
//! `max.col` (`R_max_col` in R's src/appl/maxcol.c, whose random ties draw
//! from the workflow's stream as R's draw from `.Random.seed`).

use std::cmp::Ordering;

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed, dimnames};
use super::value::{is_na, Value, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "findInterval",
        params: &[
            req("x"),
            req("vec"),
            opt("rightmost.closed"),
            opt("all.inside"),
            opt("left.open"),
        ],
        random: false,
        shape: find_interval_shape,
        eval: find_interval_eval,
    },
    Kernel {
        name: "rowsum",
        params: &[req("x"), req("group"), opt("reorder"), opt("na.rm"), DOTS],
        random: false,
        shape: rowsum_shape,
        eval: rowsum_eval,
    },
    Kernel {
        name: "embed",
        params: &[req("x"), opt("dimension")],
        random: false,
        shape: embed_shape,
        eval: embed_eval,
    },
    Kernel {
        name: "max.col",
        params: &[req("m"), opt("ties.method")],
        random: true,
        shape: max_col_shape,
        eval: max_col_eval,
    },
];

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

/// R's `asLogical` of an option: its first element, NA for NA and for
/// text that is no logical spelling.
fn as_logical(v: Option<&Value>, default: bool) -> Option<bool> {
    let Some(v) = v else { return Some(default) };
    match bare(v) {
        Value::Str(s) => match s.first()?.as_str() {
            "TRUE" | "true" | "True" | "T" => Some(true),
            "FALSE" | "false" | "False" | "F" => Some(false),
            _ => None,
        },
        other => other.as_logicals()?.first().copied().flatten(),
    }
}

/// `findInterval2` of R's interv.c: the index `i` with `xt[i] <= x <
/// xt[i+1]` (1-based; `(s, t]` when `left_open`), starting the search from
/// the previous answer `ilo` as R's loop does.
pub(crate) fn find_interval2(
    xt: &[f64],
    x: f64,
    rightmost_closed: bool,
    all_inside: bool,
    left_open: bool,
    mut ilo: i64,
) -> i64 {
    let n = xt.len() as i64;
    if n == 0 {
        return 0;
    }
    // 1-based, as the C indexes after `--xt`.
    let at = |i: i64| xt[(i - 1) as usize];
    let grtr = |v: f64| x > v || (!left_open && x >= v);
    let smlr = |v: f64| x < v || (left_open && x <= v);
    let left_boundary = || i64::from(all_inside || (rightmost_closed && x == at(1)));
    let right_boundary = || {
        if all_inside || (rightmost_closed && x == at(n)) {
            n - 1
        } else {
            n
        }
    };
    if ilo <= 0 {
        if smlr(at(1)) {
            return left_boundary();
        }
        ilo = 1;
    }
    let mut ihi = ilo + 1;
    if ihi >= n {
        if grtr(at(n)) {
            return right_boundary();
        }
        if n <= 1 {
            return left_boundary();
        }
        ilo = n - 1;
        ihi = n;
    }
    if smlr(at(ihi)) {
        if grtr(at(ilo)) {
            return ilo;
        }
        // x < xt[ilo]: step ilo down, doubling, to capture x.
        let mut istep = 1;
        let mut found = false;
        loop {
            ihi = ilo;
            ilo = ihi - istep;
            if ilo <= 1 {
                break;
            }
            let v = at(ilo);
            if (!left_open && x >= v) || (left_open && x > v) {
                found = true;
                break;
            }
            istep *= 2;
        }
        if !found {
            ilo = 1;
            if smlr(at(1)) {
                return left_boundary();
            }
        }
    } else {
        // x >= xt[ihi]: step ihi up, doubling.
        let mut istep = 1;
        let mut found = false;
        loop {
            ilo = ihi;
            ihi = ilo + istep;
            if ihi >= n {
                break;
            }
            let v = at(ihi);
            if (!left_open && x < v) || (left_open && x <= v) {
                found = true;
                break;
            }
            istep *= 2;
        }
        if !found {
            if grtr(at(n)) {
                return right_boundary();
            }
            ihi = n;
        }
    }
    // Bisection: xt[ilo] <= x < xt[ihi] (or < and <= when left_open).
    loop {
        let middle = (ilo + ihi) / 2;
        if middle == ilo {
            return ilo;
        }
        let v = at(middle);
        if (!left_open && x >= v) || (left_open && x > v) {
            ilo = middle;
        } else {
            ihi = middle;
        }
    }
}

fn numbers<'a>(
    args: &'a Args<&Value>,
    name: &str,
) -> Result<std::borrow::Cow<'a, [f64]>, KernelError> {
    let v = args.get(name).ok_or_else(|| missing(name))?;
    match bare(v) {
        Value::Null => Ok(std::borrow::Cow::Borrowed(&[])),
        Value::Factor(f) => Ok(std::borrow::Cow::Owned(f.integer_codes())),
        other => other.as_f64_slice().ok_or_else(|| {
            KernelError::new(format!(
                "flowcast's {}() needs numbers for '{name}', not {}",
                args.func,
                other.type_name()
            ))
        }),
    }
}

fn find_interval_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let vec = numbers(args, "vec")?;
    let x = numbers(args, "x")?;
    // `!identical(FALSE, is.unsorted(vec))`: NA makes is.unsorted NA.
    if vec.iter().any(|v| v.is_nan()) || vec.windows(2).any(|w| w[1] < w[0]) {
        return Err(KernelError::new(
            "'vec' must be sorted non-decreasingly and not contain NAs",
        ));
    }
    let right = as_logical(args.get("rightmost.closed"), false)
        .ok_or_else(|| KernelError::new("invalid 'rightmost.closed' argument"))?;
    let inside = as_logical(args.get("all.inside"), false)
        .ok_or_else(|| KernelError::new("invalid 'all.inside' argument"))?;
    // do_findinterval does not check left.open: NA is a true int in C.
    let left_open = as_logical(args.get("left.open"), false).unwrap_or(true);
    let mut out = super::alloc::vec_with_capacity(x.len())?;
    let mut ii: i64 = 1;
    for &xi in x.iter() {
        if xi.is_nan() {
            // NA_INTEGER: below 1, so the next search starts afresh.
            ii = i64::from(i32::MIN);
            out.push(NA);
        } else {
            ii = find_interval2(&vec, xi, right, inside, left_open, ii);
            out.push(ii as f64);
        }
    }
    Ok(Value::Num(out))
}

fn find_interval_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    for name in ["x", "vec"] {
        if let Some(t @ (Type::Str { .. } | Type::Record { .. } | Type::List { .. })) =
            args.ty(name)
        {
            return Err(args.error(
                name,
                format!(
                    "flowcast's findInterval() needs numbers for '{name}', not {}",
                    t.describe()
                ),
            ));
        }
    }
    Ok(Type::Num {
        len: args.ty("x").and_then(Type::len),
        value: None,
    })
}

/// A group's key: its number, or its text (factors by level code, so
/// that sorting follows the levels as R's sort of a factor does).
#[derive(Clone, Debug, PartialEq)]
enum Key {
    Num(f64),
    Text(Option<String>),
}

fn group_keys(g: &Value) -> Result<(Vec<Key>, Option<Vec<String>>), KernelError> {
    Ok(match bare(g) {
        Value::Str(s) => (
            s.iter()
                .map(|s| Key::Text((s != "NA").then(|| s.clone())))
                .collect(),
            None,
        ),
        Value::Factor(f) => (
            f.integer_codes().into_iter().map(Key::Num).collect(),
            Some(f.levels.clone()),
        ),
        other => (
            other
                .as_f64_slice()
                .ok_or_else(|| KernelError::new("'group' must be a vector"))?
                .iter()
                .map(|&v| Key::Num(v))
                .collect(),
            None,
        ),
    })
}

fn key_is_na(k: &Key) -> bool {
    match k {
        Key::Num(v) => v.is_nan(),
        Key::Text(t) => t.is_none(),
    }
}

/// A key as R's `match` compares them: 0 and -0 alike, NA apart from
/// the other NaNs, every NaN alike.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum HashKey {
    Num(u64),
    Text(Option<String>),
}

fn hash_key(k: &Key) -> HashKey {
    match k {
        Key::Num(x) if *x == 0.0 => HashKey::Num(0),
        Key::Num(x) if is_na(*x) => HashKey::Num(NA.to_bits()),
        Key::Num(x) if x.is_nan() => HashKey::Num(f64::NAN.to_bits()),
        Key::Num(x) => HashKey::Num(x.to_bits()),
        Key::Text(t) => HashKey::Text(t.clone()),
    }
}

fn key_label(k: &Key, levels: Option<&[String]>) -> String {
    match (k, levels) {
        (Key::Num(v), _) if is_na(*v) => "NA".into(),
        (Key::Num(v), Some(l)) => l[*v as usize - 1].clone(),
        (Key::Num(v), None) => super::data::r_num_to_string(*v),
        (Key::Text(t), _) => t.clone().unwrap_or_else(|| "NA".into()),
    }
}

fn rowsum_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args.get("x").ok_or_else(|| missing("x"))?;
    let g = args.get("group").ok_or_else(|| missing("group"))?;
    let colnames = dimnames(xv).1.map(<[String]>::to_vec);
    let x = bare(xv);
    let (data, n, p) = match x {
        Value::Mat(m) => (m.as_slice(), m.nrows(), m.ncols()),
        Value::Num(v) => (&v[..], v.len(), 1),
        _ => return Err(KernelError::new("'x' must be numeric")),
    };
    let (keys, levels) = group_keys(g)?;
    if keys.len() != n {
        return Err(KernelError::new("incorrect length for 'group'"));
    }
    if keys.iter().any(key_is_na) {
        ctx.warn("missing values for 'group'");
    }
    let reorder = match args.get("reorder") {
        Some(v) => super::logical::if_condition(v)?,
        None => true,
    };
    let na_rm = args.bool_or("na.rm", false)?;
    let mut unique: Vec<Key> = Vec::new();
    let mut seen: super::hashing::FastMap<HashKey, usize> = Default::default();
    let mut code = Vec::with_capacity(n);
    for k in &keys {
        let at = *seen.entry(hash_key(k)).or_insert_with(|| {
            unique.push(k.clone());
            unique.len() - 1
        });
        code.push(at);
    }
    // sort(ugroup, na.last = TRUE): the others in order, NA and NaN after
    // in the order they came.
    let mut order: Vec<usize> = (0..unique.len()).collect();
    if reorder {
        let (mut kept, nas): (Vec<usize>, Vec<usize>) =
            order.iter().partition(|&&i| !key_is_na(&unique[i]));
        kept.sort_by(|&a, &b| match (&unique[a], &unique[b]) {
            (Key::Num(x), Key::Num(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
            (Key::Text(Some(x)), Key::Text(Some(y))) => super::collate::compare(x, y),
            _ => Ordering::Equal,
        });
        kept.extend(nas);
        order = kept;
    }
    let mut row_of = vec![0; unique.len()];
    for (r, &u) in order.iter().enumerate() {
        row_of[u] = r;
    }
    let ng = unique.len();
    let mut out = vec![0.0; ng * p];
    for j in 0..p {
        for i in 0..n {
            let v = data[i + j * n];
            if !na_rm || !v.is_nan() {
                out[row_of[code[i]] + j * ng] += v;
            }
        }
    }
    let labels = order
        .iter()
        .map(|&u| key_label(&unique[u], levels.as_deref()))
        .collect();
    Ok(dimnamed(
        Value::Mat(DMatrix::from_vec(ng, p, out)),
        Some(labels),
        colnames,
    ))
}

fn rowsum_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let cols = match args.ty("x") {
        Some(Type::Mat { cols, .. }) => *cols,
        Some(Type::Num { .. }) => Some(1),
        None | Some(Type::Any) => None,
        Some(_) => return Err(args.error("x", "'x' must be numeric")),
    };
    Ok(Type::Mat { rows: None, cols })
}

/// `embed(x, dimension)`: row `i` holds `x[i + dimension - 1]` down to
/// `x[i]`; a matrix's columns are embedded each and interleaved.
fn embed_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = bare(args.get("x").ok_or_else(|| missing("x"))?);
    let d = match args.get("dimension") {
        Some(v) => v
            .as_scalar()
            .ok_or_else(|| KernelError::new("wrong embedding dimension"))?,
        None => 1.0,
    };
    let (data, n, m, logical) = match x {
        Value::Mat(a) => (
            std::borrow::Cow::Borrowed(a.as_slice()),
            a.nrows(),
            a.ncols(),
            false,
        ),
        Value::BoolMat(a) => (
            x.as_f64_slice().unwrap_or_default(),
            a.nrows(),
            a.ncols(),
            false,
        ),
        Value::Num(v) => (std::borrow::Cow::Borrowed(&v[..]), v.len(), 1, false),
        Value::Bool(v) => (x.as_f64_slice().unwrap_or_default(), v.len(), 1, true),
        // Text: R's matrix of zeros takes the text, a character matrix.
        Value::Str(_) | Value::StrMat(_) => {
            let (n, m) = x.dims().unwrap_or((x.len(), 1));
            if !(d >= 1.0 && d <= n as f64) {
                return Err(KernelError::new("wrong embedding dimension"));
            }
            let d = d as usize;
            let cells = embedded(x.as_strs().unwrap_or_default(), n, m, d)?;
            return Ok(Value::StrMat(DMatrix::from_vec(n - d + 1, d * m, cells)));
        }
        _ => return Err(KernelError::new("'x' is not a vector or matrix")),
    };
    if !(d >= 1.0 && d <= n as f64) {
        return Err(KernelError::new("wrong embedding dimension"));
    }
    let d = d as usize;
    let rows = n - d + 1;
    let mut out = super::alloc::vec_with_capacity::<f64>(rows * d * m)?;
    out.resize(rows * d * m, 0.0);
    for c in 0..m {
        for k in 0..d {
            let col = c + k * m;
            for i in 0..rows {
                out[i + col * rows] = data[c * n + i + d - 1 - k];
            }
        }
    }
    if logical {
        let b = out
            .iter()
            .map(|&v| (!v.is_nan()).then_some(v != 0.0))
            .collect();
        return Ok(Value::BoolMat(DMatrix::from_vec(rows, d * m, b)));
    }
    Ok(Value::Mat(DMatrix::from_vec(rows, d * m, out)))
}

/// The cells of `embed`'s matrix (column-major) from `m` columns of `n`
/// values each, at embedding dimension `d` (1 ≤ d ≤ n).
fn embedded<T: Clone>(data: &[T], n: usize, m: usize, d: usize) -> Result<Vec<T>, KernelError> {
    let rows = n - d + 1;
    let mut out = super::alloc::vec_with_capacity::<T>(rows * d * m)?;
    // Column `c + k * m` holds column c of x lagged by k.
    for k in 0..d {
        for c in 0..m {
            out.extend((0..rows).map(|i| data[c * n + i + d - 1 - k].clone()));
        }
    }
    Ok(out)
}

fn embed_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let text = matches!(args.ty("x"), Some(Type::Str { .. } | Type::StrMat { .. }));
    let (n, m, logical) = match args.ty("x") {
        Some(Type::Mat { rows, cols })
        | Some(Type::BoolMat { rows, cols })
        | Some(Type::StrMat { rows, cols }) => (*rows, *cols, false),
        Some(t @ (Type::Num { .. } | Type::Str { .. })) => (t.len(), Some(1), false),
        Some(t @ Type::Bool { .. }) => (t.len(), Some(1), true),
        None | Some(Type::Any) => (None, None, false),
        Some(_) => return Err(args.error("x", "'x' is not a vector or matrix")),
    };
    let d = match args.ty("dimension") {
        None => Some(1.0),
        Some(t) => t.const_scalar(),
    };
    if let (Some(d), Some(n)) = (d, n) {
        if !(d >= 1.0 && d <= n as f64) {
            return Err(args.error("dimension", "wrong embedding dimension"));
        }
    }
    let d = d.map(|d| d as usize);
    let rows = match (n, d) {
        (Some(n), Some(d)) => Some(n + 1 - d),
        _ => None,
    };
    let cols = match (m, d) {
        (Some(m), Some(d)) => Some(m * d),
        _ => None,
    };
    Ok(if text {
        Type::StrMat { rows, cols }
    } else if logical {
        Type::BoolMat { rows, cols }
    } else {
        Type::Mat { rows, cols }
    })
}

const TIES: &[&str] = &["random", "first", "last"];

fn max_col_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let ties = match args.get("ties.method") {
        None => "random",
        Some(Value::Str(s)) if s.len() == 1 => super::vector::match_arg(&s[0], TIES)?,
        Some(_) => return Err(KernelError::new("'arg' must be of length 1")),
    };
    let m = bare(args.get("m").ok_or_else(|| missing("m"))?);
    let (data, nr, nc) = match m {
        Value::Mat(a) => (
            std::borrow::Cow::Borrowed(a.as_slice()),
            a.nrows(),
            a.ncols(),
        ),
        Value::BoolMat(a) => (m.as_f64_slice().unwrap_or_default(), a.nrows(), a.ncols()),
        Value::Num(v) => (std::borrow::Cow::Borrowed(&v[..]), v.len(), 1),
        Value::Bool(v) => (m.as_f64_slice().unwrap_or_default(), v.len(), 1),
        other => {
            return Err(KernelError::new(format!(
                "flowcast's max.col() needs a numeric matrix, not {}",
                other.type_name()
            )))
        }
    };
    Ok(Value::Num(r_max_col(&data, nr, nc, ties, ctx)))
}

/// `R_max_col` of R's maxcol.c: ties within a relative 1e-5 of the row's
/// largest finite magnitude broken by reservoir sampling on `unif_rand`.
fn r_max_col(a: &[f64], nr: usize, nc: usize, ties: &str, ctx: &mut Ctx) -> Vec<f64> {
    const RELTOL: f64 = 1e-5;
    let do_rand = ties == "random";
    let mut out = Vec::with_capacity(nr);
    for r in 0..nr {
        let mut large: f64 = 0.0;
        let mut isna = true;
        for c in 0..nc {
            let v = a[r + c * nr];
            if v.is_nan() {
                isna = true;
                break;
            } else if isna {
                isna = false;
            }
            if !v.is_finite() {
                continue;
            }
            if do_rand {
                large = large.max(v.abs());
            }
        }
        if isna {
            out.push(NA);
            continue;
        }
        let mut m = 0;
        let mut best = a[r];
        if do_rand {
            let tol = RELTOL * large;
            let mut ntie = 1;
            for c in 1..nc {
                let b = a[r + c * nr];
                if b > best + tol {
                    best = b;
                    m = c;
                    ntie = 1;
                } else if b >= best - tol {
                    ntie += 1;
                    if f64::from(ntie) * ctx.rng.unif_rand() < 1.0 {
                        m = c;
                    }
                }
            }
        } else if ties == "first" {
            for c in 1..nc {
                let b = a[r + c * nr];
                if best < b {
                    best = b;
                    m = c;
                }
            }
        } else {
            for c in 1..nc {
                let b = a[r + c * nr];
                if best <= b {
                    best = b;
                    m = c;
                }
            }
        }
        out.push((m + 1) as f64);
    }
    out
}

fn max_col_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("ties.method") {
        if let Some(s) = t.const_str() {
            super::vector::match_arg(s, TIES).map_err(|e| args.error("ties.method", e.0))?;
        }
    }
    let rows = match args.ty("m") {
        Some(Type::Mat { rows, .. } | Type::BoolMat { rows, .. }) => *rows,
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => t.len(),
        None | Some(Type::Any | Type::Record { .. }) => None,
        Some(t) => {
            return Err(args.error(
                "m",
                format!(
                    "flowcast's max.col() needs a numeric matrix, not {}",
                    t.describe()
                ),
            ))
        }
    };
    Ok(Type::Num {
        len: rows,
        value: None,
    })
}
