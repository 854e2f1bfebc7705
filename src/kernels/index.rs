//! Indexing: `x[i]`, `x[i, ]`, `x[, j]`, `x[i, j]`, `x[[i]]` and `x$name`,
//! with R's rules (1-based, negative indices drop, `drop = TRUE` for
//! matrices), and the matching shape rules.

use nalgebra::DMatrix;
use num_complex::Complex64;

use super::value::{Factor, List, NA};
use super::{KernelError, Type, Value};

/// A shape-rule failure: which index (0-based among the brackets' entries;
/// `None` for the target) and why.
pub type IndexError = (Option<usize>, String);

const OOB: &str = "subscript out of bounds";

/// Positions selected by one subscript over an extent of `n` (0-based;
/// `None` for NA or, on vectors, past the end). `strict`: a matrix extent,
/// where going past the end is an error.
pub(super) fn resolve(
    idx: &Value,
    n: usize,
    strict: bool,
    names: Option<&[String]>,
) -> Result<Vec<Option<usize>>, KernelError> {
    match idx {
        Value::Null => Ok(Vec::new()),
        Value::Bool(_) | Value::BoolMat(_) => {
            let b = idx.as_logicals().unwrap_or_default();
            if b.is_empty() {
                return Ok(Vec::new());
            }
            if strict && b.len() > n {
                return Err(KernelError::new("(subscript) logical subscript too long"));
            }
            let len = n.max(b.len());
            // An NA in a logical subscript selects an NA.
            Ok((0..len)
                .filter_map(|i| match b[i % b.len()] {
                    Some(true) => Some((i < n).then_some(i)),
                    Some(false) => None,
                    None => Some(None),
                })
                .collect())
        }
        Value::Str(s) if s.len() > 8 => super::names::positions_of(s, names)
            .into_iter()
            .map(|found| match found {
                Some(i) => Ok(Some(i)),
                None if strict => Err(KernelError::new(OOB)),
                None => Ok(None),
            })
            .collect(),
        Value::Str(s) => s
            .iter()
            .map(|name| {
                let found = names.and_then(|ns| ns.iter().position(|x| x == name && x != "NA"));
                match found {
                    Some(i) => Ok(Some(i)),
                    None if strict => Err(KernelError::new(OOB)),
                    None => Ok(None),
                }
            })
            .collect(),
        other => {
            let v = other.as_f64_slice().ok_or_else(|| {
                KernelError::new(format!("invalid subscript type '{}'", other.type_name()))
            })?;
            let v: Vec<f64> = v.iter().map(|x| x.trunc()).collect();
            if v.iter().any(|&x| x < 0.0) {
                if v.iter().any(|&x| x > 0.0 || x.is_nan()) {
                    return Err(KernelError::new(
                        "only 0's may be mixed with negative subscripts",
                    ));
                }
                let mut keep = vec![true; n];
                for &x in &v {
                    let k = (-x) as usize;
                    if k >= 1 && k <= n {
                        keep[k - 1] = false;
                    }
                }
                return Ok((0..n).filter(|&i| keep[i]).map(Some).collect());
            }
            let mut out = Vec::with_capacity(v.len());
            for &x in &v {
                if x.is_nan() {
                    out.push(None);
                } else if x >= 1.0 {
                    let k = x as usize;
                    if k <= n {
                        out.push(Some(k - 1));
                    } else if strict {
                        return Err(KernelError::new(OOB));
                    } else {
                        out.push(None);
                    }
                }
            }
            Ok(out)
        }
    }
}

fn pick<T: Clone>(data: &[T], pos: &[Option<usize>], na: T) -> Vec<T> {
    pos.iter()
        .map(|p| p.map_or_else(|| na.clone(), |i| data[i].clone()))
        .collect()
}

const CNA: Complex64 = Complex64 { re: NA, im: 0.0 };

/// `data[idx]` for a numeric subscript with no negative entry, in one
/// pass with no intermediate positions (`x[1:n]` in a loop body is the
/// common case, and its cost is in allocating and walking the vectors):
/// entries truncate, those in (-1, 1) select nothing, NaN and those past
/// the end select NA. `None` at the first negative entry: the caller takes
/// the general path.
fn gather_positive<T: Clone>(data: &[T], idx: &[f64], na: &T) -> Option<Vec<T>> {
    if let Some(run) = consecutive(idx, data.len()) {
        return Some(data[run].to_vec());
    }
    // A first read classifies the subscript, so the common case (no
    // entry that selects nothing) is one `collect` of known length, with
    // no capacity check per element.
    let mut drops = false;
    for &x in idx {
        if x <= -1.0 {
            return None;
        }
        drops |= x < 1.0;
    }
    if !drops {
        // `as` saturates (a huge subscript is past the end) and reads NaN
        // as 0, which selects NA as R's NA subscript does.
        return Some(
            idx.iter()
                .map(|&x| match x as usize {
                    k @ 1.. if k <= data.len() => data[k - 1].clone(),
                    _ => na.clone(),
                })
                .collect(),
        );
    }
    let mut out = Vec::with_capacity(idx.len());
    for &x in idx {
        if x >= 1.0 {
            out.push(data.get(x as usize - 1).unwrap_or(na).clone());
        } else if x.is_nan() {
            out.push(na.clone());
        } else if x <= -1.0 {
            return None;
        }
    }
    Some(out)
}

/// The positions `idx` names when it counts up by one inside `0..len`
/// (`x[a:b]`, `x[seq_len(k)]`): a slice to copy whole, which costs a
/// fraction of picking element by element. Checking is one read of `idx`.
fn consecutive(idx: &[f64], len: usize) -> Option<std::ops::Range<usize>> {
    let first = *idx.first()?;
    let last = first + (idx.len() - 1) as f64;
    if !(first >= 1.0 && first.fract() == 0.0 && last <= len as f64) {
        return None;
    }
    // Integers below 2^53 add exactly, so `==` is the test.
    let mut next = first;
    for &x in idx {
        if x != next {
            return None;
        }
        next += 1.0;
    }
    Some(first as usize - 1..last as usize)
}

/// The positions `a:b` names in a vector of `len` when it counts up
/// inside it from a whole number: what `x[a:b]` copies as a slice without
/// building `a:b`. `None` for anything else (descending, a fraction, NA,
/// past the end), which the general path subscripts.
pub fn range_run(a: &Value, b: &Value, len: usize) -> Option<std::ops::Range<usize>> {
    let (Value::Num(a), Value::Num(b)) = (a, b) else {
        return None;
    };
    let (&[a], &[b]) = (&a[..], &b[..]) else {
        return None;
    };
    (a >= 1.0 && a.fract() == 0.0 && b.fract() == 0.0 && a <= b && b <= len as f64)
        .then(|| a as usize - 1..b as usize)
}

/// `data[idx]` for a numeric subscript of only negative entries and
/// zeros (`x[-1]`): everything but the dropped positions, in one pass.
/// `None` when a positive entry or NaN is mixed in (an error the general
/// path reports).
fn drop_negative<T: Clone>(data: &[T], idx: &[f64]) -> Option<Vec<T>> {
    let mut keep = vec![true; data.len()];
    for &x in idx {
        if x >= 1.0 || x.is_nan() {
            return None;
        }
        if x <= -1.0 {
            if let Some(k) = keep.get_mut((-x) as usize - 1) {
                *k = false;
            }
        }
    }
    Some(
        data.iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(d, _)| d.clone())
            .collect(),
    )
}

/// `data[b]` for a logical subscript as long as `data` (`x[x > 0]`,
/// `x[!is.na(x)]`): an NA selects an NA.
///
/// Written without a branch on the subscript: every element is stored and
/// the end advances only where it is kept, so a subscript of random truth
/// values costs no mispredictions (`x[x > 0]` of normal data is the case).
fn gather_logical<T: Clone>(data: &[T], b: &[Option<bool>], na: &T) -> Vec<T> {
    let Some(first) = data.first() else {
        return Vec::new();
    };
    let kept = b.iter().filter(|&&b| b != Some(false)).count();
    let mut out = vec![first.clone(); kept + 1];
    let mut end = 0;
    for (d, &b) in data.iter().zip(b) {
        out[end] = if b.is_none() { na.clone() } else { d.clone() };
        end += usize::from(b != Some(false));
    }
    out.truncate(kept);
    out
}

/// `data[i]` by one of the one-pass paths above, when `i` is one they take.
fn gather_fast<T: Clone>(data: &[T], i: &Value, na: &T) -> Option<Vec<T>> {
    let idx: &[f64] = match i {
        Value::Num(v) => v,
        Value::Mat(m) => m.as_slice(),
        Value::Bool(b) if b.len() == data.len() => return Some(gather_logical(data, b, na)),
        Value::BoolMat(b) if b.len() == data.len() => {
            return Some(gather_logical(data, b.as_slice(), na))
        }
        _ => return None,
    };
    gather_positive(data, idx, na).or_else(|| drop_negative(data, idx))
}

/// `x[i]` by [`gather_fast`] for an atomic `x`.
fn index_vector_fast(x: &Value, i: &Value) -> Option<Value> {
    Some(match x {
        Value::Num(v) => Value::Num(gather_fast(v, i, &NA)?),
        Value::Mat(m) => Value::Num(gather_fast(m.as_slice(), i, &NA)?),
        Value::Bool(v) => Value::Bool(gather_fast(v, i, &None)?),
        Value::BoolMat(m) => Value::Bool(gather_fast(m.as_slice(), i, &None)?),
        Value::Complex(v) => Value::Complex(gather_fast(v, i, &CNA)?),
        Value::ComplexMat(m) => Value::Complex(gather_fast(m.as_slice(), i, &CNA)?),
        _ => return None,
    })
}

/// `x[i]`: x read as a vector.
fn index_vector(x: &Value, i: &Value) -> Result<Value, KernelError> {
    if let Some(v) = index_vector_fast(x, i) {
        return Ok(v);
    }
    let names = match x {
        Value::List(l) => l.names.as_deref(),
        _ => None,
    };
    let pos = resolve(i, x.len(), false, names)?;
    pick_value(x, &pos)
}

/// `x[i]` of a named vector: the names are subscripted with the values,
/// and `x["a"]` finds `a` among them.
fn index_named_vector(x: &Value, labels: &[String], i: &Value) -> Result<Value, KernelError> {
    let pos = resolve(i, x.len(), false, Some(labels))?;
    let picked = pick_value(x, &pos)?;
    Ok(super::names::named(
        picked,
        pick(labels, &pos, "NA".to_string()),
    ))
}

/// The elements of `x` (read as a vector) at `pos`, NA where `None`.
pub(super) fn pick_value(x: &Value, pos: &[Option<usize>]) -> Result<Value, KernelError> {
    Ok(match x {
        Value::Null => Value::Null,
        Value::Num(v) => Value::Num(pick(v, pos, NA)),
        Value::Mat(m) => Value::Num(pick(m.as_slice(), pos, NA)),
        Value::Complex(v) => Value::Complex(pick(v, pos, CNA)),
        Value::ComplexMat(m) => Value::Complex(pick(m.as_slice(), pos, CNA)),
        Value::Str(v) => Value::Str(pick(v, pos, "NA".to_string())),
        Value::StrMat(m) => Value::Str(pick(m.as_slice(), pos, "NA".to_string())),
        Value::Bool(v) => Value::Bool(pick(v, pos, None)),
        Value::BoolMat(m) => Value::Bool(pick(m.as_slice(), pos, None)),
        Value::List(l) => Value::List(List {
            class: None,
            names: l.names.as_ref().map(|ns| pick(ns, pos, "<NA>".to_string())),
            items: pick(&l.items, pos, Value::Null),
            row_names: None,
        }),
        // `[.factor`: the codes picked, every level kept.
        Value::Factor(f) => Value::Factor(Factor {
            codes: pick(&f.codes, pos, None),
            levels: f.levels.clone(),
            ordered: f.ordered,
        }),
        // A data frame's Date column keeps its class through `[`.
        Value::Named(_) if super::dates::is_date(x) => {
            super::dates::date(pick_value(super::names::bare(x), pos)?)
        }
        Value::Named(_) if super::datetime::is_posixct(x) => super::datetime::posixct(
            pick_value(super::names::bare(x), pos)?,
            &super::datetime::tzone(x),
        ),
        Value::Named(n) => pick_value(&n.value, pos)?,
        Value::Formula(_) => {
            return Err(KernelError::new(
                "object of type 'formula' is not subsettable",
            ))
        }
        Value::Lang(_) => {
            return Err(KernelError::new(format!(
                "object of type '{}' is not subsettable",
                x.type_name()
            )))
        }
    })
}

/// One extent of a matrix subscript, resolved: a run of consecutive
/// positions (an empty subscript, `m[a:b, ]`), copied as slices of each
/// column, or positions picked one by one (`None`: NA). Picking `m[, j]`
/// row by row took ten times as long as copying the column.
enum Extent {
    Run(std::ops::Range<usize>),
    Picked(Vec<Option<usize>>),
}

impl Extent {
    /// Extent `i` of one of `n` (named `names`), by R's rules for a matrix
    /// subscript.
    fn resolve(
        i: Option<&Value>,
        n: usize,
        names: Option<&[String]>,
    ) -> Result<Extent, KernelError> {
        let Some(i) = i else {
            return Ok(Extent::Run(0..n));
        };
        if let Value::Num(idx) = i {
            if let Some(run) = consecutive(idx, n) {
                return Ok(Extent::Run(run));
            }
        }
        resolve(i, n, true, names).map(Extent::Picked)
    }

    fn len(&self) -> usize {
        match self {
            Extent::Run(r) => r.len(),
            Extent::Picked(p) => p.len(),
        }
    }

    /// The positions one by one: for the dimnames.
    fn positions(&self) -> std::borrow::Cow<'_, [Option<usize>]> {
        match self {
            Extent::Run(r) => r.clone().map(Some).collect::<Vec<_>>().into(),
            Extent::Picked(p) => p.into(),
        }
    }
}

/// `m[rows, cols]`: a vector (`vector`) when `drop`, else a matrix
/// (`matrix`); NA (`na`) where a subscript selects none.
fn gather_matrix<T: nalgebra::Scalar>(
    m: &DMatrix<T>,
    rows: &Extent,
    cols: &Extent,
    na: T,
    drop: bool,
    vector: fn(Vec<T>) -> Value,
    matrix: fn(DMatrix<T>) -> Value,
) -> Value {
    let mut out = Vec::with_capacity(rows.len() * cols.len());
    let mut column = |c: Option<usize>| match c {
        Some(c) => {
            let column = &m.as_slice()[c * m.nrows()..(c + 1) * m.nrows()];
            match rows {
                Extent::Run(run) => out.extend_from_slice(&column[run.clone()]),
                Extent::Picked(p) => out.extend(
                    p.iter()
                        .map(|r| r.map_or_else(|| na.clone(), |r| column[r].clone())),
                ),
            }
        }
        None => out.extend(std::iter::repeat_n(na.clone(), rows.len())),
    };
    match cols {
        Extent::Run(run) => run.clone().for_each(|c| column(Some(c))),
        Extent::Picked(p) => p.iter().for_each(|&c| column(c)),
    }
    if drop {
        vector(out)
    } else {
        matrix(DMatrix::from_vec(rows.len(), cols.len(), out))
    }
}

/// `x[...]`; `None` entries are empty indices (`x[i, ]`).
pub fn index(x: &Value, indices: &[Option<Value>]) -> Result<Value, KernelError> {
    index_drop(x, indices, true)
}

/// R's `drop =` of `x[i, j, drop = ]`: a value that must be TRUE or FALSE.
pub fn drop_flag(v: &Value) -> Result<bool, KernelError> {
    match v.as_scalar() {
        Some(x) if !x.is_nan() => Ok(x != 0.0),
        _ => Err(KernelError::new(
            "invalid 'drop' argument: TRUE or FALSE needed",
        )),
    }
}

/// The extent each entry of `x[...]` subscripts: `length(x)` for one
/// entry, the rows and the columns of a matrix for two.
pub fn extents(x: &Value, entries: usize) -> Vec<usize> {
    if let Some(dims) = super::arrays::array_dims(x).filter(|d| d.len() == entries) {
        return dims;
    }
    match (super::names::bare(x), entries) {
        (Value::Mat(m), 2) => vec![m.nrows(), m.ncols()],
        (Value::ComplexMat(m), 2) => vec![m.nrows(), m.ncols()],
        (Value::BoolMat(m), 2) => vec![m.nrows(), m.ncols()],
        (Value::StrMat(m), 2) => vec![m.nrows(), m.ncols()],
        _ => vec![x.len(); entries],
    }
}

/// `x[k]` for one position `k` within `x`, as [`index_drop`] gives it:
/// the subscript of a loop body, taken without building a selection.
/// `None` for any other subscript.
pub fn element(x: &[f64], k: &[f64]) -> Option<Value> {
    let &[k] = k else {
        return None;
    };
    // R truncates a fractional position.
    (k >= 1.0 && k < x.len() as f64 + 1.0).then(|| Value::Num(vec![x[k as usize - 1]]))
}

/// R's logical `NA` as a subscript over an extent of `n`: recycled, it
/// selects `n` NAs (`x[NA]` is `length(x)` NAs, where `x[NA_real_]` is one).
pub fn logical_na(n: usize) -> Value {
    Value::Num(vec![NA; n])
}

/// Subscripts without their own names (`x[which(y)]`, where `which`
/// named its positions).
fn bare_indices(indices: &[Option<Value>]) -> std::borrow::Cow<'_, [Option<Value>]> {
    if !indices
        .iter()
        .flatten()
        .any(|i| matches!(i, Value::Named(_)))
    {
        return std::borrow::Cow::Borrowed(indices);
    }
    std::borrow::Cow::Owned(
        indices
            .iter()
            .map(|i| i.as_ref().map(|v| super::names::strip(v).into_owned()))
            .collect(),
    )
}

/// `x[...]` with R's `drop`: `drop = FALSE` keeps a matrix a matrix.
pub fn index_drop(x: &Value, indices: &[Option<Value>], drop: bool) -> Result<Value, KernelError> {
    let indices = &*bare_indices(indices);
    if let Some(dims) = super::arrays::array_dims(x) {
        if indices.len() >= 2 {
            return super::arrays::index_array(x, &dims, indices, drop);
        }
    }
    if let Value::Named(n) = x {
        let picked = match (indices, &n.names) {
            ([] | [None], _) => return Ok(x.clone()),
            ([Some(i)], Some(labels)) => index_named_vector(&n.value, labels, i),
            ([Some(i)], None) => index_vector(&n.value, i),
            ([i, j], _) => index_matrix(
                &n.value,
                i.as_ref(),
                j.as_ref(),
                drop,
                (n.rownames.as_deref(), n.colnames.as_deref()),
            ),
            _ => Err(KernelError::new("incorrect number of dimensions")),
        }?;
        // `[.Date` and `[.difftime` keep the class (and units).
        if super::dates::is_date(x) {
            return Ok(super::dates::date(picked));
        }
        if super::datetime::is_posixct(x) {
            return Ok(super::datetime::posixct(picked, &super::datetime::tzone(x)));
        }
        if super::dates::is_difftime(x) {
            return Ok(super::dates::difftime(
                picked,
                super::dates::difftime_units(x),
            ));
        }
        // A table stays one unless it drops to a single cell or, from
        // two dimensions, to a vector.
        return Ok(match &n.table {
            Some(dnn)
                if picked.len() != 1 && picked.dims().is_some() == n.value.dims().is_some() =>
            {
                super::names::tabled(picked, dnn.clone())
            }
            _ => picked,
        });
    }
    if let Some(r) = super::frame::index_drop(x, indices, drop) {
        return r;
    }
    match indices {
        [] | [None] => Ok(x.clone()),
        [Some(i)] => index_vector(x, i),
        [i, j] => index_matrix(x, i.as_ref(), j.as_ref(), drop, (None, None)),
        _ => Err(KernelError::new("incorrect number of dimensions")),
    }
}

/// `m[i, j]`, the dimnames (when given) subscripted with it: `m["a", ]`
/// finds row `a`, and a dropped row keeps the column names as its names.
fn index_matrix(
    x: &Value,
    i: Option<&Value>,
    j: Option<&Value>,
    drop: bool,
    (rownames, colnames): (Option<&[String]>, Option<&[String]>),
) -> Result<Value, KernelError> {
    let value = {
        let (nr, nc) = match x {
            Value::Mat(m) => (m.nrows(), m.ncols()),
            Value::ComplexMat(m) => (m.nrows(), m.ncols()),
            Value::BoolMat(m) => (m.nrows(), m.ncols()),
            Value::StrMat(m) => (m.nrows(), m.ncols()),
            _ => return Err(KernelError::new("incorrect number of dimensions")),
        };
        let rows = Extent::resolve(i, nr, rownames)?;
        let cols = Extent::resolve(j, nc, colnames)?;
        let drop = drop && (rows.len() == 1 || cols.len() == 1);
        let labels =
            |l: Option<&[String]>, e: &Extent| l.map(|l| pick(l, &e.positions(), "NA".to_string()));
        let (rn, cn) = (labels(rownames, &rows), labels(colnames, &cols));
        let value = match x {
            Value::ComplexMat(m) => gather_matrix(
                m,
                &rows,
                &cols,
                CNA,
                drop,
                Value::Complex,
                Value::ComplexMat,
            ),
            Value::Mat(m) => gather_matrix(m, &rows, &cols, NA, drop, Value::Num, Value::Mat),
            Value::BoolMat(m) => {
                gather_matrix(m, &rows, &cols, None, drop, Value::Bool, Value::BoolMat)
            }
            Value::StrMat(m) => gather_matrix(
                m,
                &rows,
                &cols,
                "NA".to_string(),
                drop,
                Value::Str,
                Value::StrMat,
            ),
            _ => return Err(KernelError::new("incorrect number of dimensions")),
        };
        if !drop {
            return Ok(super::names::dimnamed(value, rn, cn));
        }
        // A dropped matrix keeps the names of the extent that is left.
        (value, rows.len(), cols.len(), rn, cn)
    };
    let (value, nrows, ncols, rn, cn) = value;
    Ok(match (nrows, ncols, rn, cn) {
        (1, 1, _, _) => value,
        (1, _, _, Some(cn)) => super::names::named(value, cn),
        (_, 1, Some(rn), _) => super::names::named(value, rn),
        _ => value,
    })
}

/// A constant index type as a value, to resolve it with the evaluator's code.
fn const_index(t: &Type) -> Option<Value> {
    match t {
        Type::Num { value: Some(v), .. } => Some(Value::Num(v.clone())),
        Type::Bool { value: Some(v), .. } => Some(Value::Bool(v.clone())),
        Type::Null => Some(Value::Null),
        _ => None,
    }
}

/// How many positions a subscript selects over an extent of `n`, when known.
/// A numeric subscript of unknown value is taken to be positive (`a[i, ]`
/// with a scalar `i` selects one row).
fn selected(idx: &Type, n: Option<usize>) -> Option<usize> {
    if let Some(v) = const_index(idx) {
        if let Some(n) = n {
            return resolve(&v, n, false, None).ok().map(|p| p.len());
        }
        return match v {
            Value::Num(v) if v.iter().all(|&x| x >= 0.0 || x.is_nan()) => {
                Some(v.iter().filter(|&&x| x != 0.0).count())
            }
            _ => None,
        };
    }
    match idx {
        Type::Num { len, .. } | Type::Str { len, .. } => *len,
        _ => None,
    }
}

/// The first constant subscript outside `1..=n` (after truncation).
fn out_of_range(idx: &Type, n: usize) -> Option<f64> {
    let v = idx.const_nums()?;
    if matches!(idx, Type::Bool { .. }) {
        return (v.len() > n).then_some(v.len() as f64);
    }
    if v.iter().any(|&x| x.trunc() < 0.0) {
        return None;
    }
    v.into_iter()
        .find(|&x| x.trunc() as usize > n && !x.is_nan())
}

/// The type of `x[...]`.
pub fn index_type(x: &Type, indices: &[Option<Type>]) -> Result<Type, IndexError> {
    index_drop_type(x, indices, true)
}

/// The type of `x[...]` with R's `drop`.
pub fn index_drop_type(x: &Type, indices: &[Option<Type>], drop: bool) -> Result<Type, IndexError> {
    if let Some(r) = super::frame::index_drop_type(x, indices, drop) {
        return r;
    }
    match indices {
        [] | [None] => Ok(x.clone()),
        [Some(i)] => {
            if let Some(c) = const_index(i) {
                if let Some(v) = x.const_nums() {
                    if matches!(x, Type::Num { .. }) {
                        let r = index_vector(&Value::Num(v), &c).map_err(|e| (Some(0), e.0))?;
                        if let Value::Num(d) = r {
                            return Ok(Type::num_const(d));
                        }
                    }
                }
            }
            if let Type::Num { .. } = i {
                if i.const_nums().is_some_and(|v| {
                    v.iter().any(|&x| x.trunc() < 0.0)
                        && v.iter().any(|&x| x.trunc() > 0.0 || x.is_nan())
                }) {
                    return Err((
                        Some(0),
                        "only 0's may be mixed with negative subscripts".into(),
                    ));
                }
            }
            if !matches!(
                i,
                Type::Num { .. }
                    | Type::Bool { .. }
                    | Type::Str { .. }
                    | Type::Null
                    | Type::Any
                    | Type::Mat { .. }
                    | Type::BoolMat { .. }
                    | Type::StrMat { .. }
            ) {
                return Err((Some(0), format!("invalid subscript type: {}", i.describe())));
            }
            let len = selected(i, x.len());
            Ok(match x {
                Type::Num { .. } | Type::Mat { .. } => Type::Num { len, value: None },
                Type::Bool { .. } | Type::BoolMat { .. } => Type::Bool { len, value: None },
                Type::Str { .. } | Type::StrMat { .. } => Type::Str { len, value: None },
                Type::Complex { .. } | Type::ComplexMat { .. } => Type::Complex { len },
                Type::List { elem, .. } => Type::List {
                    len,
                    elem: elem.clone(),
                },
                Type::Null => Type::Null,
                Type::Factor {
                    levels, ordered, ..
                } => Type::Factor {
                    len,
                    levels: levels.clone(),
                    ordered: *ordered,
                },
                Type::Formula { .. } => {
                    return Err((None, "object of type 'formula' is not subsettable".into()))
                }
                Type::Record { .. } | Type::Any => Type::Any,
            })
        }
        [i, j] => {
            let (rows, cols, complex) = match x {
                Type::Mat { rows, cols } | Type::BoolMat { rows, cols } => (*rows, *cols, false),
                Type::ComplexMat { rows, cols } => (*rows, *cols, true),
                Type::StrMat { rows, cols } => (*rows, *cols, false),
                Type::Any => return Ok(Type::Any),
                other => {
                    return Err((
                        None,
                        format!(
                            "incorrect number of dimensions: {} is not a matrix",
                            other.describe()
                        ),
                    ))
                }
            };
            let shape = |n: Option<usize>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
            let dims = format!("{}x{}", shape(rows), shape(cols));
            let extent = |k: usize, idx: &Option<Type>, n: Option<usize>, what: &str| {
                let Some(t) = idx else { return Ok(n) };
                if let Some(n) = n {
                    if let Some(bad) = out_of_range(t, n) {
                        return Err((Some(k), format!("{OOB}: {what} {bad} of a {dims} matrix")));
                    }
                }
                Ok(selected(t, n))
            };
            let nr = extent(0, i, rows, "row")?;
            let nc = extent(1, j, cols, "column")?;
            let logical = matches!(x, Type::BoolMat { .. });
            let text = matches!(x, Type::StrMat { .. });
            let vector = |len: Option<usize>| {
                if complex {
                    Type::Complex { len }
                } else if text {
                    Type::Str { len, value: None }
                } else if logical {
                    Type::logical(len)
                } else {
                    Type::Num { len, value: None }
                }
            };
            Ok(match (nr, nc) {
                (Some(1), c) if drop => vector(c),
                (r, Some(1)) if drop => vector(r),
                (Some(r), Some(c)) if complex => Type::ComplexMat {
                    rows: Some(r),
                    cols: Some(c),
                },
                (Some(r), Some(c)) if logical => Type::BoolMat {
                    rows: Some(r),
                    cols: Some(c),
                },
                (Some(r), Some(c)) if text => Type::str_mat(Some(r), Some(c)),
                (Some(r), Some(c)) => Type::mat(r, c),
                _ => Type::Any,
            })
        }
        // An array (typed as what it holds, or unknown) may have as many
        // dimensions; the run checks.
        _ if matches!(x, Type::Any | Type::Num { .. } | Type::Bool { .. }) => Ok(Type::Any),
        _ => Err((None, "incorrect number of dimensions".into())),
    }
}

/// The position `x[[i]]` selects, or R's error.
pub(super) fn index2_pos(
    len: usize,
    i: &Value,
    names: Option<&[String]>,
    list: bool,
) -> Result<Option<usize>, KernelError> {
    if i.len() > 1 {
        return Err(KernelError::new(if list {
            "recursive indexing is not supported"
        } else {
            "attempt to select more than one element in vectorIndex"
        }));
    }
    if i.is_empty() {
        return Err(KernelError::new(
            "attempt to select less than one element in get1index",
        ));
    }
    match i {
        Value::Str(s) => match names.and_then(|ns| ns.iter().position(|n| *n == s[0])) {
            Some(p) => Ok(Some(p)),
            None if list => Ok(None),
            None => Err(KernelError::new(OOB)),
        },
        other => {
            let k = other
                .as_scalar()
                .ok_or_else(|| {
                    KernelError::new(format!("invalid subscript type '{}'", other.type_name()))
                })?
                .trunc();
            if k.is_nan() {
                return if list {
                    Ok(None)
                } else {
                    Err(KernelError::new(OOB))
                };
            }
            if k < 0.0 {
                return Err(KernelError::new(
                    "invalid negative subscript in get1index <real>",
                ));
            }
            if k == 0.0 {
                return Err(KernelError::new(
                    "attempt to select less than one element in get1index <real>",
                ));
            }
            let k = k as usize;
            if k > len {
                return Err(KernelError::new(OOB));
            }
            Ok(Some(k - 1))
        }
    }
}

/// `m[[i, j]]`: one element of a matrix.
pub fn index2_matrix(x: &Value, i: &Value, j: &Value) -> Result<Value, KernelError> {
    let (nr, nc) = match x {
        Value::Mat(m) => (m.nrows(), m.ncols()),
        Value::ComplexMat(m) => (m.nrows(), m.ncols()),
        Value::StrMat(m) => (m.nrows(), m.ncols()),
        _ => return Err(KernelError::new("incorrect number of subscripts")),
    };
    let r = index2_pos(nr, i, None, false)?.ok_or_else(|| KernelError::new(OOB))?;
    let c = index2_pos(nc, j, None, false)?.ok_or_else(|| KernelError::new(OOB))?;
    Ok(match x {
        Value::Mat(m) => Value::scalar(m[(r, c)]),
        Value::ComplexMat(m) => Value::Complex(vec![m[(r, c)]]),
        Value::StrMat(m) => Value::string(&m[(r, c)]),
        _ => return Err(KernelError::new("incorrect number of subscripts")),
    })
}

/// The type of `m[[i, j]]`.
pub fn index2_matrix_type(x: &Type, i: &Type, j: &Type) -> Result<Type, IndexError> {
    let (rows, cols, one) = match x {
        Type::Mat { rows, cols } => (*rows, *cols, Type::num(1)),
        Type::ComplexMat { rows, cols } => (*rows, *cols, Type::Complex { len: Some(1) }),
        Type::StrMat { rows, cols } => (
            *rows,
            *cols,
            Type::Str {
                len: Some(1),
                value: None,
            },
        ),
        Type::Any => return Ok(Type::Any),
        other => {
            return Err((
                None,
                format!(
                    "incorrect number of subscripts: {} is not a matrix",
                    other.describe()
                ),
            ))
        }
    };
    for (k, (t, n)) in [(i, rows), (j, cols)].into_iter().enumerate() {
        if t.len().is_some_and(|l| l != 1) {
            return Err((
                Some(k),
                format!("`[[` needs a single index, not {}", t.describe()),
            ));
        }
        if let (Some(v), Some(n)) = (t.const_scalar(), n) {
            let v = v.trunc();
            if v.is_nan() || v < 1.0 || v as usize > n {
                return Err((Some(k), format!("{OOB}: {v} of {n}")));
            }
        }
    }
    Ok(one)
}

/// `x[[i]]`.
pub fn index2(x: &Value, i: &Value) -> Result<Value, KernelError> {
    let i = super::names::bare(i);
    let (names, list) = match x {
        Value::List(l) => (l.names.as_deref(), true),
        Value::Named(n) => (n.names.as_deref(), false),
        _ => (None, false),
    };
    // `[[.Date` keeps the class, as `[[.difftime` does its units.
    let outer_class = if super::dates::is_date(x) {
        Some(true)
    } else {
        super::dates::is_difftime(x).then_some(false)
    };
    let outer_units = super::dates::difftime_units(x).to_string();
    // `x[["a"]]` finds `a` among the names; the element comes without it.
    let x = super::names::bare(x);
    // A formula's or a call's parts (`f[[2]]`).
    if let Some(part) = super::language::index2(x, i) {
        return part;
    }
    if matches!(x, Value::Null) {
        return Ok(Value::Null);
    }
    let Some(p) = index2_pos(x.len(), i, names, list)? else {
        return Ok(Value::Null);
    };
    let classed = |v: Value| match outer_class {
        Some(true) => super::dates::date(v),
        Some(false) => super::dates::difftime(v, &outer_units),
        None => v,
    };
    Ok(classed(match x {
        Value::List(l) => as_r_keeps_it(l, &l.items[p]),
        Value::Num(v) => Value::scalar(v[p]),
        Value::Mat(m) => Value::scalar(m.as_slice()[p]),
        Value::Complex(v) => Value::Complex(vec![v[p]]),
        Value::ComplexMat(m) => Value::Complex(vec![m.as_slice()[p]]),
        Value::Str(v) => Value::string(&v[p]),
        Value::StrMat(m) => Value::string(&m.as_slice()[p]),
        Value::Bool(v) => Value::Bool(vec![v[p]]),
        Value::BoolMat(m) => Value::Bool(vec![m.as_slice()[p]]),
        Value::Factor(f) => Value::Factor(Factor {
            codes: vec![f.codes[p]],
            levels: f.levels.clone(),
            ordered: f.ordered,
        }),
        Value::Null | Value::Formula(_) | Value::Lang(_) | Value::Named(_) => {
            return Err(KernelError::new("object is not subsettable"))
        }
    }))
}

pub fn index2_type(x: &Type, i: &Type) -> Result<Type, IndexError> {
    if i.len().is_some_and(|n| n != 1) {
        return Err((
            Some(0),
            format!("`[[` needs a single index, not {}", i.describe()),
        ));
    }
    let bounds = |len: Option<usize>| -> Result<(), IndexError> {
        if let (Some(k), Some(n)) = (i.const_scalar(), len) {
            let k = k.trunc();
            if k.is_nan() || k < 1.0 || k as usize > n {
                return Err((Some(0), format!("{OOB}: element {k} of {}", x.describe())));
            }
        }
        Ok(())
    };
    match x {
        Type::Any => Ok(Type::Any),
        Type::Null => Ok(Type::Null),
        // R: a list's `[[NA]]` is NULL.
        Type::List { .. } if i.const_scalar().is_some_and(f64::is_nan) => Ok(Type::Null),
        Type::List { len, elem } => {
            bounds(*len)?;
            Ok((**elem).clone())
        }
        Type::Record { fields, .. } => {
            if let Some(name) = i.const_str() {
                return Ok(fields
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(Type::Null, |(_, t)| t.clone()));
            }
            bounds(Some(fields.len()))?;
            match i.const_scalar() {
                Some(k) => Ok(fields[k as usize - 1].1.clone()),
                None => Ok(Type::Any),
            }
        }
        Type::Num { .. }
        | Type::Mat { .. }
        | Type::Bool { .. }
        | Type::BoolMat { .. }
        | Type::Str { .. }
        | Type::StrMat { .. }
        | Type::Complex { .. }
        | Type::ComplexMat { .. } => {
            // A name is looked up at run time: names are not in the type.
            if !matches!(i, Type::Str { .. }) {
                bounds(x.len())?;
            }
            if let (Some(v), Some(k)) = (x.const_nums(), i.const_scalar()) {
                if matches!(x, Type::Num { .. }) {
                    return Ok(Type::scalar_const(v[k as usize - 1]));
                }
            }
            Ok(match x {
                Type::Bool { .. } | Type::BoolMat { .. } => Type::Bool {
                    len: Some(1),
                    value: None,
                },
                Type::Str { .. } | Type::StrMat { .. } => Type::Str {
                    len: Some(1),
                    value: None,
                },
                Type::Complex { .. } | Type::ComplexMat { .. } => Type::Complex { len: Some(1) },
                _ => Type::num(1),
            })
        }
        Type::Factor {
            levels, ordered, ..
        } => {
            bounds(x.len())?;
            Ok(Type::Factor {
                len: Some(1),
                levels: levels.clone(),
                ordered: *ordered,
            })
        }
        // A formula's part: a name, a call or a constant.
        Type::Formula { .. } => Ok(Type::Any),
    }
}

/// `x$name`.
pub fn field(x: &Value, name: &str) -> Result<Value, KernelError> {
    match x {
        Value::List(l) => Ok(l.field(name).map_or(Value::Null, |v| as_r_keeps_it(l, v))),
        other => Err(KernelError::new(format!(
            "$ operator is invalid for atomic vectors ({})",
            other.type_name()
        ))),
    }
}

/// Element `v` of list `l` as R's object holds it: a model's
/// coefficients carry their names (`fit$coefficients["x"]`), which
/// flowcast keeps beside them as `coefficient.names`.
fn as_r_keeps_it(l: &List, v: &Value) -> Value {
    let model = matches!(l.class.as_deref(), Some("lm" | "glm" | "aov"));
    let coefficients = l.field("coefficients").is_some_and(|c| std::ptr::eq(c, v));
    match (model && coefficients, l.field("coefficient.names"), v) {
        (true, Some(Value::Str(names)), Value::Num(c)) if names.len() == c.len() => {
            super::names::named(v.clone(), names.clone())
        }
        _ => v.clone(),
    }
}

pub fn field_type(x: &Type, name: &str) -> Result<Type, IndexError> {
    match x {
        Type::Record { class, fields } => match x.field(name) {
            Some(t) => Ok(t.clone()),
            // A prefix of several fields is NULL in R.
            None if fields.iter().filter(|(n, _)| n.starts_with(name)).count() > 1 => {
                Ok(Type::Null)
            }
            None => Err((None, format!("a {class} result has no field `{name}`"))),
        },
        Type::Any | Type::List { .. } => Ok(Type::Any),
        other => Err((
            None,
            format!(
                "$ operator is invalid for atomic vectors ({})",
                other.describe()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass gather selects what `resolve` and `pick` select, for
    /// every kind of non-negative subscript R treats specially.
    #[test]
    fn fast_gather_agrees_with_resolve() {
        let data: Vec<f64> = (1..=5).map(|k| k as f64 * 10.0).collect();
        let idx = [
            1.0,
            5.0,
            5.9,
            0.0,
            0.7,
            -0.5,
            f64::NAN,
            NA,
            6.0,
            1e300,
            f64::INFINITY,
            2.0,
        ];
        let slow = pick(
            &data,
            &resolve(&Value::Num(idx.to_vec()), 5, false, None).unwrap(),
            NA,
        );
        let fast = gather_positive(&data, &idx, &NA).unwrap();
        assert_eq!(fast.len(), slow.len());
        assert_eq!(fast.len(), 9);
        for (a, b) in fast.iter().zip(&slow) {
            assert!(a.to_bits() == b.to_bits(), "{a} against {b}");
        }
        assert!(gather_positive(&data, &[1.0, -1.0], &NA).is_none());
    }

    /// A run counting up by one is copied as a slice only when every
    /// position is inside the vector; anything else (past the end, a
    /// fraction, a gap, zero, NaN, infinity) takes an element-by-element
    /// path with the same result as `resolve`.
    #[test]
    fn consecutive_runs_agree_with_resolve() {
        let data: Vec<f64> = (1..=6).map(|k| k as f64).collect();
        let cases: [&[f64]; 9] = [
            &[2.0, 3.0, 4.0],
            &[1.0, 5.9, f64::NAN, NA, 7.0, 1e300, f64::INFINITY, 2.0],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            &[5.0, 6.0, 7.0],
            &[1.5, 2.5],
            &[2.0, 4.0],
            &[0.0, 1.0, 2.0],
            &[3.0, 4.0, f64::NAN],
            &[6.0],
        ];
        for idx in cases {
            let slow = pick(
                &data,
                &resolve(&Value::Num(idx.to_vec()), 6, false, None).unwrap(),
                NA,
            );
            let fast = gather_positive(&data, idx, &NA).unwrap();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&slow), "{idx:?}");
        }
        let n = Value::scalar;
        assert_eq!(range_run(&n(2.0), &n(4.0), 6), Some(1..4));
        assert_eq!(range_run(&n(6.0), &n(6.0), 6), Some(5..6));
        for (a, b) in [
            (0.0, 3.0),
            (3.0, 2.0),
            (1.5, 3.0),
            (2.0, 3.5),
            (2.0, 7.0),
            (NA, 3.0),
        ] {
            assert_eq!(range_run(&n(a), &n(b), 6), None, "{a}:{b}");
        }
        assert_eq!(range_run(&Value::Num(vec![1.0, 2.0]), &n(3.0), 6), None);
        assert_eq!(range_run(&Value::Bool(vec![Some(true)]), &n(3.0), 6), None);
        assert_eq!(consecutive(&[2.0, 3.0, 4.0], 6), Some(1..4));
        assert_eq!(consecutive(&[5.0, 6.0, 7.0], 6), None);
        assert_eq!(consecutive(&[1.5, 2.5], 6), None);
        assert_eq!(consecutive(&[], 6), None);
    }

    /// A matrix subscript that runs up by one is copied as slices of the
    /// columns; anything else is picked one by one. Both give what picking
    /// every cell by `resolve` gives, dimnames included.
    #[test]
    fn matrix_runs_agree_with_picking_each_cell() {
        let (nr, nc) = (5, 4);
        let m = DMatrix::from_fn(nr, nc, |r, c| (10 * r + c) as f64);
        let rn: Vec<String> = (0..nr).map(|r| format!("r{r}")).collect();
        let cn: Vec<String> = (0..nc).map(|c| format!("c{c}")).collect();
        let subscripts: [Option<&[f64]>; 8] = [
            None,
            Some(&[2.0, 3.0, 4.0]),
            Some(&[4.0]),
            Some(&[3.0, 2.0]),
            Some(&[1.0, 3.0]),
            Some(&[2.0, f64::NAN]),
            Some(&[-1.0]),
            Some(&[0.0, 2.0, 3.0]),
        ];
        let one_by_one = |i: Option<&[f64]>, n: usize, names: &[String]| match i {
            None => (0..n).map(Some).collect::<Vec<_>>(),
            Some(i) => resolve(&Value::Num(i.to_vec()), n, true, Some(names)).unwrap(),
        };
        for i in subscripts {
            for j in subscripts {
                let (rows, cols) = (one_by_one(i, nr, &rn), one_by_one(j, nc, &cn));
                let want: Vec<f64> = cols
                    .iter()
                    .flat_map(|c| rows.iter().map(move |r| (*r, *c)))
                    .map(|rc| match rc {
                        (Some(r), Some(c)) => m[(r, c)],
                        _ => NA,
                    })
                    .collect();
                let v = |x: Option<&[f64]>| x.map(|x| Value::Num(x.to_vec()));
                let got = index_matrix(
                    &Value::Mat(m.clone()),
                    v(i).as_ref(),
                    v(j).as_ref(),
                    false,
                    (Some(&rn), Some(&cn)),
                )
                .unwrap();
                let Value::Named(named) = &got else {
                    panic!("{i:?}, {j:?}: {got:?}");
                };
                let Value::Mat(out) = &named.value else {
                    panic!("{i:?}, {j:?}: {got:?}");
                };
                assert_eq!((out.nrows(), out.ncols()), (rows.len(), cols.len()));
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(out.as_slice()), bits(&want), "{i:?}, {j:?}");
                let names = |p: &[Option<usize>], l: &[String]| {
                    p.iter()
                        .map(|k| k.map_or("NA".to_string(), |k| l[k].clone()))
                        .collect::<Vec<_>>()
                };
                assert_eq!(named.rownames.as_deref(), Some(&names(&rows, &rn)[..]));
                assert_eq!(named.colnames.as_deref(), Some(&names(&cols, &cn)[..]));
            }
        }
    }

    /// Negative and logical subscripts: the one-pass paths select what
    /// the general path does, and leave mixed signs to its error.
    #[test]
    fn fast_drop_and_logical_agree_with_resolve() {
        let data: Vec<f64> = (1..=6).map(|k| k as f64).collect();
        let slow = |i: &Value| pick(&data, &resolve(i, data.len(), false, None).unwrap(), NA);
        for idx in [
            vec![-1.0],
            vec![-6.0, -1.0, -1.0, 0.0, -0.5],
            vec![-7.0, -2.9],
            vec![0.0, -0.2],
        ] {
            let fast = gather_fast(&data, &Value::Num(idx.clone()), &NA).unwrap();
            assert_eq!(fast, slow(&Value::Num(idx.clone())), "{idx:?}");
        }
        assert!(drop_negative(&data, &[-1.0, 2.0]).is_none());
        assert!(drop_negative(&data, &[-1.0, f64::NAN]).is_none());
        assert!(index_vector(&Value::Num(data.clone()), &Value::Num(vec![-1.0, 2.0])).is_err());
        let b = vec![Some(true), None, Some(false), Some(true), Some(false), None];
        let fast = gather_logical(&data, &b, &NA);
        let general = slow(&Value::Bool(b));
        assert_eq!(fast.len(), 4);
        for (a, g) in fast.iter().zip(&general) {
            assert!(a.to_bits() == g.to_bits(), "{a} against {g}");
        }
    }
}
