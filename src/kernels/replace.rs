//! R's replacement functions, what `x[i] <- v`, `x[[i]] <- v`, `x$a <- v`,
//! `names(x) <- v`, `colnames(x) <- v` and `levels(f) <- v` call (the
//! parser rewrites the assignment as R defines it,
//! `` x <- `[<-`(x, i, value = v) ``). Each returns the changed copy.
//!
//! `[<-` follows R's `SubassignN`/`VectorAssign` (src/main/subassign.c):
//! positions past the end stretch the vector with NA, names not found are
//! appended, the value is recycled over the positions (warning when they
//! are not a multiple of it), and the result takes the higher of the two
//! types, logical < double < character.

use nalgebra::DMatrix;

use super::data::r_num_to_string;
use super::index::resolve;
use super::names::{self, bare, named};
use super::value::{Factor, List, RowNames, NA};
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "replace",
        params: &[req("x"), req("list"), req("values")],
        random: false,
        shape: replace_shape,
        eval: replace_eval,
    },
    Kernel {
        name: "[<-",
        params: &[req("x"), opt("i"), opt("j"), super::DOTS, req("value")],
        random: false,
        shape: subset_shape,
        eval: subset_eval,
    },
    Kernel {
        name: "[[<-",
        params: &[req("x"), req("i"), opt("j"), req("value")],
        random: false,
        shape: element_shape,
        eval: element_eval,
    },
    Kernel {
        name: "$<-",
        params: &[req("x"), req("name"), req("value")],
        random: false,
        shape: element_shape,
        eval: field_eval,
    },
    Kernel {
        name: "names<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: same_shape,
        eval: names_eval,
    },
    Kernel {
        name: "colnames<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: same_shape,
        eval: colnames_eval,
    },
    Kernel {
        name: "dim<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: dim_shape,
        eval: dim_eval,
    },
    Kernel {
        name: "dimnames<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: same_shape,
        eval: dimnames_eval,
    },
    Kernel {
        name: "is.na<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: is_na_shape,
        eval: is_na_eval,
    },
    Kernel {
        name: "levels<-",
        params: &[req("x"), req("value")],
        random: false,
        shape: levels_shape,
        eval: levels_eval,
    },
];

/// An atomic vector's elements at the type they are assigned at.
#[derive(Clone, Debug, PartialEq)]
enum Atoms {
    Bool(Vec<Option<bool>>),
    Num(Vec<f64>),
    Str(Vec<String>),
}

impl Atoms {
    fn of(v: &Value) -> Option<Atoms> {
        let v = bare(v);
        match v {
            Value::Null => Some(Atoms::Bool(Vec::new())),
            Value::Bool(_) | Value::BoolMat(_) => {
                v.as_logicals().map(|b| Atoms::Bool(b.into_owned()))
            }
            Value::Num(_) | Value::Mat(_) => v.as_f64_slice().map(|s| Atoms::Num(s.into_owned())),
            Value::Str(s) => Some(Atoms::Str(s.clone())),
            Value::StrMat(m) => Some(Atoms::Str(m.as_slice().to_vec())),
            Value::Factor(f) => Some(Atoms::Str(f.labels())),
            _ => None,
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Atoms::Bool(_) => 0,
            Atoms::Num(_) => 1,
            Atoms::Str(_) => 2,
        }
    }

    fn len(&self) -> usize {
        match self {
            Atoms::Bool(v) => v.len(),
            Atoms::Num(v) => v.len(),
            Atoms::Str(v) => v.len(),
        }
    }

    /// R's coercion up to `rank` (as.double, as.character).
    fn into_rank(self, rank: u8) -> Atoms {
        match (self, rank) {
            (Atoms::Bool(b), 1) => Atoms::Num(
                b.iter()
                    .map(|x| x.map_or(NA, |t| if t { 1.0 } else { 0.0 }))
                    .collect(),
            ),
            (Atoms::Bool(b), 2) => Atoms::Str(
                b.iter()
                    .map(|x| match x {
                        Some(true) => "TRUE".to_string(),
                        Some(false) => "FALSE".to_string(),
                        None => "NA".to_string(),
                    })
                    .collect(),
            ),
            (Atoms::Num(v), 2) => Atoms::Str(
                v.iter()
                    .map(|&x| {
                        if x.is_nan() && x.to_bits() == NA.to_bits() {
                            "NA".to_string()
                        } else {
                            r_num_to_string(x)
                        }
                    })
                    .collect(),
            ),
            (a, _) => a,
        }
    }

    /// The elements as R's `as.character` gives them.
    fn into_strings(self) -> Vec<String> {
        match self.into_rank(2) {
            Atoms::Str(s) => s,
            _ => Vec::new(),
        }
    }

    /// Stretches to `n` elements with NA.
    fn stretch(&mut self, n: usize) {
        match self {
            Atoms::Bool(v) => v.resize(n, None),
            Atoms::Num(v) => v.resize(n, NA),
            Atoms::Str(v) => v.resize(n, "NA".to_string()),
        }
    }

    /// `self[at] <- value[from]`; both are of one type.
    fn set(&mut self, at: usize, value: &Atoms, from: usize) {
        match (self, value) {
            (Atoms::Bool(a), Atoms::Bool(b)) => a[at] = b[from],
            (Atoms::Num(a), Atoms::Num(b)) => a[at] = b[from],
            (Atoms::Str(a), Atoms::Str(b)) => a[at] = b[from].clone(),
            _ => {}
        }
    }

    fn into_value(self) -> Value {
        match self {
            Atoms::Bool(v) => Value::Bool(v),
            Atoms::Num(v) => Value::Num(v),
            Atoms::Str(v) => Value::Str(v),
        }
    }
}

/// The positions one subscript assigns over a vector of `n` elements
/// (0-based; `None` for NA), and the names of the elements a character
/// subscript adds. Unlike reading, a position past the end is kept: the
/// vector stretches to it.
fn positions(
    i: &Value,
    n: usize,
    names: Option<&[String]>,
) -> Result<(Vec<Option<usize>>, Vec<String>), KernelError> {
    match bare(i) {
        Value::Str(wanted) => {
            let mut added: Vec<String> = Vec::new();
            let pos = wanted
                .iter()
                .map(|w| {
                    if let Some(k) = names.and_then(|ns| ns.iter().position(|x| x == w)) {
                        return Some(k);
                    }
                    // A new name, once however often the subscript repeats it.
                    let k = added.iter().position(|a| a == w).unwrap_or_else(|| {
                        added.push(w.clone());
                        added.len() - 1
                    });
                    Some(n + k)
                })
                .collect();
            Ok((pos, added))
        }
        Value::Bool(_) | Value::BoolMat(_) => {
            let b = i.as_logicals().unwrap_or_default();
            if b.is_empty() {
                return Ok((Vec::new(), Vec::new()));
            }
            let len = n.max(b.len());
            let pos = (0..len)
                .filter_map(|k| match b[k % b.len()] {
                    Some(true) => Some(Some(k)),
                    Some(false) => None,
                    None => Some(None),
                })
                .collect();
            Ok((pos, Vec::new()))
        }
        Value::Num(v) if v.iter().all(|&x| x.is_nan() || x >= 0.0) => {
            let pos = v
                .iter()
                .filter(|&&x| x.is_nan() || x >= 1.0)
                .map(|&x| (!x.is_nan()).then(|| x.trunc() as usize - 1))
                .collect();
            Ok((pos, Vec::new()))
        }
        // Negative subscripts (which never stretch), errors as in reading.
        other => Ok((resolve(other, n, false, names)?, Vec::new())),
    }
}

/// The largest position an assignment may stretch a vector to: R's own
/// limit on a vector's length.
const MAX_LEN: usize = 1 << 40;

/// R's checks of `x[pos] <- value` for a value of `m` elements (`pos` not
/// empty), and the length the vector must stretch to.
fn assignable(pos: &[Option<usize>], m: usize, ctx: &mut Ctx) -> Result<usize, KernelError> {
    if m == 0 {
        return Err(KernelError::new("replacement has length zero"));
    }
    if m > 1 && pos.iter().any(Option::is_none) {
        return Err(KernelError::new(
            "NAs are not allowed in subscripted assignments",
        ));
    }
    if pos.len() % m != 0 {
        ctx.warn("number of items to replace is not a multiple of replacement length");
    }
    let end = pos.iter().flatten().max().map_or(0, |&k| k + 1);
    if end > MAX_LEN {
        return Err(KernelError::new(format!(
            "cannot stretch a vector to {end} elements"
        )));
    }
    // `x[1e11] <- 1` stretches x: R's error when that cannot be had,
    // whose size is EnlargeVector's request, 5% over the new length.
    let r_bytes = (end as f64 * 1.05).floor() * 8.0;
    super::alloc::ensure_room(end as f64 * 8.0)
        .map_err(|_| super::alloc::cannot_allocate(r_bytes))?;
    Ok(end)
}

/// `x[pos] <- value` on atoms, R's `VectorAssign`.
fn assign_atoms(
    x: Atoms,
    pos: &[Option<usize>],
    value: Atoms,
    ctx: &mut Ctx,
) -> Result<Atoms, KernelError> {
    let m = value.len();
    if pos.is_empty() {
        return Ok(x);
    }
    let end = assignable(pos, m, ctx)?;
    let rank = x.rank().max(value.rank());
    let (mut x, value) = (x.into_rank(rank), value.into_rank(rank));
    if end > x.len() {
        x.stretch(end);
    }
    for (k, p) in pos.iter().enumerate() {
        if let Some(p) = p {
            x.set(*p, &value, k % m);
        }
    }
    Ok(x)
}

/// A factor's `f[i] <- value`: the value's labels must be levels.
fn assign_factor(
    f: &Factor,
    pos: &[Option<usize>],
    value: &Value,
    ctx: &mut Ctx,
) -> Result<Factor, KernelError> {
    let codes: Vec<Option<u32>> = match bare(value) {
        Value::Factor(v) => v
            .codes
            .iter()
            .map(|c| c.and_then(|c| f.levels.iter().position(|l| *l == v.levels[c as usize])))
            .map(|c| c.map(|c| c as u32))
            .collect(),
        other => {
            let labels: Vec<Option<String>> = match Atoms::of(other) {
                Some(Atoms::Str(s)) => s.into_iter().map(Some).collect(),
                Some(Atoms::Bool(b)) if b.iter().all(Option::is_none) => vec![None; b.len()],
                Some(Atoms::Num(v)) if v.iter().all(|x| x.is_nan()) => vec![None; v.len()],
                Some(a) => a.into_strings().into_iter().map(Some).collect(),
                None => {
                    return Err(KernelError::new(format!(
                        "cannot put a {} into a factor",
                        other.type_name()
                    )))
                }
            };
            let mut invalid = false;
            let codes = labels
                .iter()
                .map(|l| {
                    let l = l.as_ref()?;
                    let c = f.levels.iter().position(|x| x == l);
                    invalid |= c.is_none();
                    c.map(|c| c as u32)
                })
                .collect();
            if invalid {
                ctx.warn("invalid factor level, NA generated");
            }
            codes
        }
    };
    let m = codes.len();
    if pos.is_empty() {
        return Ok(f.clone());
    }
    let end = assignable(pos, m, ctx)?;
    let mut out = f.clone();
    if end > out.codes.len() {
        out.codes.resize(end, None);
    }
    for (k, p) in pos.iter().enumerate() {
        if let Some(p) = p {
            out.codes[*p] = codes[k % m];
        }
    }
    Ok(out)
}

/// `x[i] <- value` for a vector, a factor or a matrix taken as a vector.
fn assign_vector(x: &Value, i: &Value, value: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let old_names = names::names(x).map(<[String]>::to_vec);
    let base = bare(x);
    let n = match base {
        Value::Factor(f) => f.codes.len(),
        v => v.len(),
    };
    let (pos, added) = positions(i, n, old_names.as_deref())?;
    let result = match base {
        Value::Factor(f) => Value::Factor(assign_factor(f, &pos, value, ctx)?),
        _ => {
            let xa = Atoms::of(base).ok_or_else(|| cannot_assign_into(base))?;
            let va = Atoms::of(value).ok_or_else(|| {
                KernelError::new(format!(
                    "cannot put a {} into a vector",
                    bare(value).type_name()
                ))
            })?;
            let out = assign_atoms(xa, &pos, va, ctx)?;
            match (base, out) {
                // A matrix keeps its shape (and dimnames) when it did not
                // stretch and still holds numbers or logicals.
                (Value::Mat(m), Atoms::Num(v)) if v.len() == m.len() => {
                    let mat = Value::Mat(DMatrix::from_vec(m.nrows(), m.ncols(), v));
                    let (r, c) = names::dimnames(x);
                    return Ok(names::dimnamed(
                        mat,
                        r.map(<[String]>::to_vec),
                        c.map(<[String]>::to_vec),
                    ));
                }
                (Value::BoolMat(m), Atoms::Bool(v)) if v.len() == m.len() => {
                    let mat = Value::BoolMat(DMatrix::from_vec(m.nrows(), m.ncols(), v));
                    let (r, c) = names::dimnames(x);
                    return Ok(names::dimnamed(
                        mat,
                        r.map(<[String]>::to_vec),
                        c.map(<[String]>::to_vec),
                    ));
                }
                // Text put into any matrix makes it a character matrix,
                // as R coerces the whole matrix.
                (Value::Mat(m), Atoms::Str(v)) if v.len() == m.len() => {
                    return Ok(str_matrix_like(x, m.shape(), v))
                }
                (Value::BoolMat(m), Atoms::Str(v)) if v.len() == m.len() => {
                    return Ok(str_matrix_like(x, m.shape(), v))
                }
                (Value::StrMat(m), Atoms::Str(v)) if v.len() == m.len() => {
                    return Ok(str_matrix_like(x, m.shape(), v))
                }
                (_, out) => out.into_value(),
            }
        }
    };
    let len = match &result {
        Value::Factor(f) => f.codes.len(),
        v => v.len(),
    };
    if old_names.is_none() && added.is_empty() {
        return Ok(result);
    }
    // Stretched elements are named "", those a character subscript added
    // by it.
    let mut labels = old_names.unwrap_or_else(|| vec![String::new(); n]);
    labels.resize(n, String::new());
    labels.extend(added);
    labels.resize(len, String::new());
    Ok(named(result, labels))
}

/// A character matrix of `x`'s shape and dimnames holding `v`.
fn str_matrix_like(x: &Value, (r, c): (usize, usize), v: Vec<String>) -> Value {
    let (rn, cn) = names::dimnames(x);
    names::dimnamed(
        Value::StrMat(DMatrix::from_vec(r, c, v)),
        rn.map(<[String]>::to_vec),
        cn.map(<[String]>::to_vec),
    )
}

fn cannot_assign_into(x: &Value) -> KernelError {
    KernelError::new(format!(
        "flowcast cannot assign into part of a {}",
        x.type_name()
    ))
}

/// `m[i, j] <- value`: the value recycled down the selected block's
/// columns.
fn assign_matrix(
    x: &Value,
    i: &Value,
    j: &Value,
    value: &Value,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let (rn, cn) = names::dimnames(x);
    let base = bare(x);
    let (nr, nc) = base.dims().ok_or_else(|| cannot_assign_into(base))?;
    let rows = resolve(i, nr, true, rn)?;
    let cols = resolve(j, nc, true, cn)?;
    let pos: Vec<Option<usize>> = cols
        .iter()
        .flat_map(|c| rows.iter().map(move |r| c.zip(*r).map(|(c, r)| c * nr + r)))
        .collect();
    let flat = Value::Num(
        pos.iter()
            .map(|p| p.map_or(NA, |p| (p + 1) as f64))
            .collect(),
    );
    assign_vector(x, &flat, value, ctx)
}

/// `d[i, j] <- value` on a data frame, as R's `[<-.data.frame` does it.
/// `i` is `None` for `d[, j]` and `d[j]`: whole columns, replaced (so a
/// column may change type, and a NULL value removes it). Rows past the
/// end, or row names not there, add rows; columns not there are added;
/// both NA elsewhere.
fn assign_frame(
    l: &List,
    i: Option<&Value>,
    j: &Value,
    value: &Value,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    if matches!(bare(value), Value::Null) {
        return match i {
            Some(_) => Err(KernelError::new("replacement has length zero")),
            None => drop_columns(l, j),
        };
    }
    let (mut out, rows) = match i {
        Some(i) => {
            let (grown, rows) = frame_rows(l, i, value)?;
            (grown, Some(rows))
        }
        None => (l.clone(), None),
    };
    let nrows = super::frame::nrow(&out);
    let cols = frame_columns(&mut out, j)?;
    let n = rows.as_ref().map_or(nrows, Vec::len);
    let at = rows
        .as_ref()
        .map(|r| Value::Num(r.iter().map(|&r| (r + 1) as f64).collect()));
    // A list or data frame value gives one element per selected column
    // (`d[, 2:3] <- round(d[, 2:3], 1)`), recycled over them; from the
    // last column back, so that a NULL element's removal moves no column
    // still to come.
    if let Value::List(vl) = bare(value) {
        let m = vl.items.len();
        if m == 0 && !cols.is_empty() {
            return Err(KernelError::new("replacement has length zero"));
        }
        if m > cols.len() {
            ctx.warn(format!(
                "provided {m} variables to replace {} variables",
                cols.len()
            ));
        }
        let mut order: Vec<usize> = (0..cols.len()).collect();
        order.sort_by_key(|&c| std::cmp::Reverse(cols[c]));
        let mut frame = Value::List(out);
        for c in order {
            let Value::List(now) = &frame else {
                unreachable!("assign_frame gives a data frame")
            };
            let col = Value::scalar((cols[c] + 1) as f64);
            frame = assign_frame(now, at.as_ref(), &col, &vl.items[c % m], ctx)?;
        }
        return Ok(frame);
    }
    let value = names::strip_value(bare(value).clone());
    let m = value.len();
    let p = cols.len();
    let rows_word = |k: usize| if k == 1 { "row" } else { "rows" };
    if p == 1 && m > n {
        return Err(KernelError::new(format!(
            "replacement has {m} {}, data has {n}",
            rows_word(m)
        )));
    }
    if p == 1 && m > 0 && m < n && n % m != 0 {
        return Err(KernelError::new(format!(
            "replacement has {m} {}, data has {nrows}",
            rows_word(m)
        )));
    }
    if p > 1 && m < n * p && (m == 0 || (n * p) % m != 0) {
        return Err(KernelError::new(format!(
            "replacement has {m} {}, need {}",
            if m == 1 { "item" } else { "items" },
            n * p
        )));
    }
    if m == 0 && at.is_some() && n > 0 {
        return Err(KernelError::new("replacement has length zero"));
    }
    for (c, &col) in cols.iter().enumerate() {
        // The block is filled column by column, the value recycled over it;
        // `d[, j] <- numeric(0)` is lengthened with NA, as R does.
        let part = (0..n)
            .map(|r| {
                if m == 0 {
                    NA
                } else {
                    ((c * n + r) % m + 1) as f64
                }
            })
            .collect();
        let piece = super::index::index(&value, &[Some(Value::Num(part))])?;
        out.items[col] = match &at {
            None => piece,
            Some(at) => assign_vector(&out.items[col], at, &piece, ctx)?,
        };
    }
    Ok(Value::List(out))
}

/// The 0-based columns `j` selects in `d[i, j] <- value`, with the columns
/// it names that are not there added to `frame` (NA), as R adds them
/// before assigning: a name, or `ncol(d) + 1`, R's next `V<n>`.
fn frame_columns(frame: &mut List, j: &Value) -> Result<Vec<usize>, KernelError> {
    let nvars = frame.items.len();
    let nrows = super::frame::nrow(frame);
    let labels = frame.names.clone().unwrap_or_default();
    let (cols, added) = positions(j, nvars, Some(&labels))?;
    let Some(cols) = cols.into_iter().collect::<Option<Vec<usize>>>() else {
        return Err(KernelError::new(
            "missing values are not allowed in subscripted assignments of data frames",
        ));
    };
    let mut seen = std::collections::HashSet::new();
    if !cols.iter().all(|c| seen.insert(*c)) {
        return Err(KernelError::new("duplicate subscripts for columns"));
    }
    let end = cols.iter().max().map_or(0, |&c| c + 1);
    let new: Vec<String> = if !added.is_empty() {
        added
    } else {
        // By number: `V<n>` for each, and every one up to the last given.
        let numbered = (nvars..end)
            .map(|k| format!("V{}", k + 1))
            .collect::<Vec<_>>();
        if numbered.len() != cols.iter().filter(|&&c| c >= nvars).count() {
            return Err(KernelError::new(
                "new columns would leave holes after existing columns",
            ));
        }
        numbered
    };
    if !new.is_empty() {
        let names = frame
            .names
            .get_or_insert_with(|| vec![String::new(); nvars]);
        for name in new {
            names.push(name);
            frame.items.push(Value::Bool(vec![None; nrows]));
        }
        pin_rows(frame, nrows);
    }
    Ok(cols)
}

/// `d[j] <- NULL` and `d[, j] <- NULL`: the columns removed.
fn drop_columns(l: &List, j: &Value) -> Result<Value, KernelError> {
    let labels = l.names.clone().unwrap_or_default();
    let (cols, _) = positions(j, l.items.len(), Some(&labels))?;
    if cols.iter().any(Option::is_none) {
        return Err(KernelError::new(
            "missing values are not allowed in subscripted assignments of data frames",
        ));
    }
    let nrows = super::frame::nrow(l);
    let mut out = without(l, &cols);
    pin_rows(&mut out, nrows);
    Ok(Value::List(out))
}

/// A frame left without columns keeps its row count in its row names, as
/// R's does.
fn pin_rows(frame: &mut List, nrows: usize) {
    if frame.items.is_empty() && frame.row_names.is_none() {
        frame.row_names = Some(RowNames::Numbers((1..=nrows as i32).collect()));
    }
}

/// The 0-based rows `i` selects in `d[i, j] <- value`, and the frame with
/// the rows it adds: numbers past the last row (named by number, or by the
/// value's own row names when it is a data frame of as many rows and they
/// are new), or row names not there (named so), as `[<-.data.frame` and
/// its `xpdrows.data.frame` do.
fn frame_rows(l: &List, i: &Value, value: &Value) -> Result<(List, Vec<usize>), KernelError> {
    let i = bare(i);
    let nrows = super::frame::nrow(l);
    let has_na = match i {
        Value::Num(v) => v.iter().any(|x| x.is_nan()),
        Value::Bool(_) | Value::BoolMat(_) => i
            .as_logicals()
            .unwrap_or_default()
            .iter()
            .any(Option::is_none),
        _ => false,
    };
    if has_na {
        return Err(KernelError::new(
            "missing values are not allowed in subscripted assignments of data frames",
        ));
    }
    // Only a row subscript by name, or one past the end, reads the names.
    let rows = || super::row_names::labels(l);
    if let Value::Str(wanted) = i {
        let rows = rows();
        // R's `match`: exact names; each one not there is a new row.
        let mut new = Vec::new();
        let at = wanted
            .iter()
            .map(|w| {
                rows.iter().position(|r| r == w).unwrap_or_else(|| {
                    new.push(w.clone());
                    nrows + new.len() - 1
                })
            })
            .collect();
        let frame = if new.is_empty() {
            l.clone()
        } else {
            add_rows(l, &rows, new, false)?
        };
        return Ok((frame, at));
    }
    let mut frame = None;
    if let Value::Num(v) = i {
        let last = v.iter().fold(0.0f64, |a, &x| a.max(x.trunc()));
        if v.iter().all(|&x| x >= 0.0) && last > nrows as f64 {
            let rows = rows();
            let nrr: Vec<String> = (nrows + 1..=last as usize).map(|k| k.to_string()).collect();
            let theirs = super::frame::as_frame(value)
                .filter(|f| super::frame::nrow(f) >= nrr.len())
                .map(|f| super::row_names::labels(f)[..nrr.len()].to_vec());
            let (new, numbered) = match theirs {
                Some(mut names) => {
                    let mut seen = std::collections::HashSet::new();
                    for (k, name) in names.iter_mut().enumerate() {
                        if !seen.insert(name.clone()) || rows.contains(name) {
                            *name = nrr[k].clone();
                        }
                    }
                    let numbered = names == nrr;
                    (names, numbered)
                }
                None => (nrr, true),
            };
            frame = Some(add_rows(l, &rows, new, numbered)?);
        }
    }
    let frame = frame.unwrap_or_else(|| l.clone());
    let at = resolve(i, super::frame::nrow(&frame), false, None)?;
    let Some(at) = at.into_iter().collect::<Option<Vec<usize>>>() else {
        return Err(KernelError::new("non-existent rows not allowed"));
    };
    Ok((frame, at))
}

/// `l` with rows named `new` after its own (named `rows`), NA in every
/// column (R's `xpdrows.data.frame`). `numbered`: the new names are the
/// row numbers that follow, so automatic row names stay automatic.
fn add_rows(
    l: &List,
    rows: &[String],
    new: Vec<String>,
    numbered: bool,
) -> Result<List, KernelError> {
    let nrows = rows.len();
    let total = nrows + new.len();
    super::alloc::ensure_room(total as f64 * 8.0 * l.items.len() as f64)?;
    let at = Value::Num(
        (1..=total)
            .map(|k| if k <= nrows { k as f64 } else { NA })
            .collect(),
    );
    let mut out = l.clone();
    for item in &mut out.items {
        if bare(item).dims().is_some() {
            return Err(KernelError::new(
                "flowcast cannot add rows to a data frame with a matrix column",
            ));
        }
        *item = super::index::index(item, &[Some(at.clone())])?;
    }
    out.row_names = match &l.row_names {
        None if numbered => None,
        Some(RowNames::Numbers(old)) if numbered && old.iter().all(|&r| r as usize <= nrows) => {
            Some(RowNames::Numbers(
                old.iter()
                    .copied()
                    .chain(nrows as i32 + 1..=total as i32)
                    .collect(),
            ))
        }
        _ => {
            let all: Vec<String> = rows.iter().cloned().chain(new).collect();
            let mut seen = std::collections::HashSet::new();
            let unique = all.iter().all(|r| seen.insert(r.as_str()));
            Some(RowNames::Text(if unique {
                all
            } else {
                super::quote::make_unique(&all, ".")
            }))
        }
    };
    pin_rows(&mut out, total);
    Ok(out)
}

/// `l` without the elements at `gone` (positions past its end, and NA,
/// remove nothing).
fn without(l: &List, gone: &[Option<usize>]) -> List {
    let gone: std::collections::HashSet<usize> = gone.iter().flatten().copied().collect();
    let keep = |k: &usize| !gone.contains(k);
    let n = l.items.len();
    List {
        items: (0..n).filter(keep).map(|k| l.items[k].clone()).collect(),
        names: l
            .names
            .as_ref()
            .map(|ns| (0..n).filter(keep).map(|k| ns[k].clone()).collect()),
        class: l.class.clone(),
        row_names: l.row_names.clone(),
    }
}

/// `l[i] <- value` on a list, R's `SubassignN` for a list: the value's
/// elements (an atomic value's one by one) recycled over the positions,
/// positions past the end stretching the list with NULL; a NULL value
/// removes the elements instead.
fn assign_list(l: &List, i: &Value, value: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = l.items.len();
    let (pos, added) = positions(i, n, l.names.as_deref())?;
    if matches!(bare(value), Value::Null) {
        return Ok(Value::List(without(l, &pos)));
    }
    let mut out = l.clone();
    let items: Vec<Value> = match bare(value) {
        Value::List(v) => v.items.clone(),
        v => {
            let v = names::strip_value(v.clone());
            (1..=v.len())
                .map(|k| super::index::index(&v, &[Some(Value::scalar(k as f64))]))
                .collect::<Result<_, _>>()?
        }
    };
    if pos.is_empty() {
        return Ok(Value::List(out));
    }
    let end = assignable(&pos, items.len(), ctx)?;
    if end > n {
        out.items.resize(end, Value::Null);
        if out.names.is_some() || !added.is_empty() {
            let names = out.names.get_or_insert_with(|| vec![String::new(); n]);
            names.extend(added);
            names.resize(end, String::new());
        }
    }
    for (k, p) in pos.iter().enumerate() {
        if let Some(p) = p {
            out.items[*p] = items[k % items.len()].clone();
        }
    }
    Ok(Value::List(out))
}

/// Whether `i` is a logical matrix of the data frame's shape: `d[i] <- v`
/// then replaces the cells it marks (`d[d == -99] <- NA`).
fn cells_of(l: &List, i: &Value) -> bool {
    match bare(i) {
        Value::BoolMat(m) => m.shape() == (super::frame::nrow(l), l.items.len()),
        _ => false,
    }
}

/// `d[i] <- value` for a logical matrix `i`, as `[<-.data.frame` does it:
/// column by column, `x[[v]][i[, v]] <- value`, a longer value handed out
/// in column order.
fn assign_cells(l: &List, i: &Value, value: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let Value::BoolMat(m) = bare(i) else {
        return Err(KernelError::new("a logical matrix subscript was expected"));
    };
    let marked = |c: usize| m.column(c).iter().filter(|b| **b == Some(true)).count();
    let nreplace: usize = (0..m.ncols()).map(marked).sum();
    if nreplace == 0 {
        return Ok(Value::List(l.clone()));
    }
    let value = names::strip_value(bare(value).clone());
    let n = value.len();
    let value = if n > 1 && n < nreplace && nreplace % n == 0 {
        let at = (0..nreplace).map(|k| (k % n + 1) as f64).collect();
        super::index::index(&value, &[Some(Value::Num(at))])?
    } else {
        value
    };
    if n > 1 && value.len() != nreplace {
        return Err(KernelError::new("'value' is the wrong length"));
    }
    let mut out = l.clone();
    let mut done = 0;
    for c in 0..m.ncols() {
        let nv = marked(c);
        if nv == 0 {
            continue;
        }
        let piece = if n > 1 {
            let at = (done + 1..=done + nv).map(|k| k as f64).collect();
            super::index::index(&value, &[Some(Value::Num(at))])?
        } else {
            value.clone()
        };
        let this = Value::Bool(m.column(c).iter().copied().collect());
        out.items[c] = assign_vector(&out.items[c], &this, &piece, ctx)?;
        done += nv;
    }
    Ok(Value::List(out))
}

fn subset_eval(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let value = a.get("value").unwrap_or(&Value::Null);
    let every = Value::Bool(vec![Some(true)]);
    let i = a.get("i");
    let more: Vec<&Value> = a.dots().map(|(_, v)| v).collect();
    if let Some(dims) = super::arrays::array_dims(x) {
        if a.get("j").is_some() || !more.is_empty() {
            let mut idx = vec![i, a.get("j")];
            idx.extend(more.iter().map(|v| Some(*v)));
            return super::arrays::assign_array(x, &dims, &idx, value);
        }
        // `x[k] <- v` within the array keeps its dimensions.
        let out = assign_vector(x, i.unwrap_or(&every), value, ctx)?;
        if out.len() != x.len() {
            return Ok(out);
        }
        return super::arrays::shaped(names::strip_value(out), &dims);
    }
    if !more.is_empty() {
        return Err(KernelError::new("incorrect number of subscripts"));
    }
    match (a.get("j"), bare(x)) {
        (Some(j), Value::List(l)) if super::frame::as_frame(x).is_some() => {
            assign_frame(l, i, j, value, ctx)
        }
        (Some(j), _) => assign_matrix(x, i.unwrap_or(&every), j, value, ctx),
        (None, Value::List(l)) if super::frame::as_frame(x).is_some() => match i {
            Some(i) if cells_of(l, i) => assign_cells(l, i, value, ctx),
            // `d[cols] <- value` takes the frame as a list of columns, as
            // `[<-.data.frame` does: whole columns.
            Some(i) => assign_frame(l, None, i, value, ctx),
            // `d[] <- value`: every column.
            None => assign_frame(l, None, &every, value, ctx),
        },
        (None, Value::List(l)) => assign_list(l, i.unwrap_or(&every), value, ctx),
        (None, _) => assign_vector(x, i.unwrap_or(&every), value, ctx),
    }
}

/// `x[[name]] <- value` / `x$name <- value` on a list or data frame: NULL
/// removes the element; a data frame's column must have its rows (or
/// divide them, and is recycled).
fn set_element(x: &Value, l: &List, key: &Value, value: &Value) -> Result<Value, KernelError> {
    // Where the value goes: an element, a new name, or a position past
    // the end (R pads with NULL up to it).
    let at: Result<usize, Option<String>> = match bare(key) {
        Value::Str(s) if s.len() == 1 => l
            .names
            .as_ref()
            .and_then(|ns| ns.iter().position(|x| *x == s[0]))
            .ok_or(Some(s[0].clone())),
        k => match k.as_scalar() {
            Some(x) if x >= 1.0 && x.is_finite() && x < MAX_LEN as f64 => Ok(x as usize - 1),
            _ => return Err(KernelError::new("invalid subscript for [[<-")),
        },
    };
    let mut out = l.clone();
    let frame = super::frame::as_frame(x).is_some();
    if matches!(value, Value::Null) {
        if let Ok(p) = at {
            if p < out.items.len() {
                out.items.remove(p);
                if let Some(n) = out.names.as_mut() {
                    n.remove(p);
                }
            }
        }
        return Ok(Value::List(out));
    }
    let value = if frame {
        let nrow = super::frame::nrow(l);
        let m = match bare(value) {
            Value::Factor(f) => f.codes.len(),
            v => v.len(),
        };
        if !l.items.is_empty() && m != nrow {
            if m == 0 || nrow % m != 0 {
                return Err(KernelError::new(format!(
                    "replacement has {m} rows, data has {nrow}"
                )));
            }
            let every: Vec<f64> = (0..nrow).map(|k| (k % m + 1) as f64).collect();
            super::index::index(bare(value), &[Some(Value::Num(every))])?
        } else {
            bare(value).clone()
        }
    } else {
        value.clone()
    };
    match at {
        Ok(p) if p < out.items.len() => out.items[p] = value,
        Ok(p) if frame && p == out.items.len() => {
            out.items.push(value);
            if let Some(n) = out.names.as_mut() {
                n.push(format!("V{}", p + 1));
            }
        }
        Ok(p) => {
            if frame {
                return Err(KernelError::new(format!(
                    "new columns would leave holes after existing columns (column {})",
                    p + 1
                )));
            }
            // `l[[1e12]] <- v`: R's EnlargeVector asks for 5% more than
            // the new length and says so when that cannot be had; the
            // padding here aborted the process on a failed allocation.
            let r_bytes = ((p + 1) as f64 * 1.05).floor() * 8.0;
            let mut items: Vec<Value> = super::alloc::vec_with_capacity(p + 1)
                .map_err(|_| super::alloc::cannot_allocate(r_bytes))?;
            items.append(&mut out.items);
            items.resize(p, Value::Null);
            out.items = items;
            out.items.push(value);
            if let Some(n) = out.names.as_mut() {
                n.resize(p + 1, String::new());
            }
        }
        Err(name) => {
            let mut names = out
                .names
                .take()
                .unwrap_or_else(|| vec![String::new(); out.items.len()]);
            names.push(name.unwrap_or_default());
            out.items.push(value);
            out.names = Some(names);
        }
    }
    Ok(Value::List(out))
}

fn element_eval(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let i = a.get("i").unwrap_or(&Value::Null);
    let value = a.get("value").unwrap_or(&Value::Null);
    if let Value::List(l) = bare(x) {
        if a.get("j").is_some() {
            return subset_eval(a, ctx);
        }
        return set_element(x, l, i, value);
    }
    let one = |v: &Value| match bare(v) {
        Value::Factor(f) => f.codes.len(),
        v => v.len(),
    };
    if one(value) != 1 {
        return Err(KernelError::new(if one(value) == 0 {
            "replacement has length zero"
        } else {
            "more elements supplied than there are to replace"
        }));
    }
    if one(i) != 1 {
        return Err(KernelError::new("[[ ]] with missing subscript"));
    }
    match a.get("j") {
        Some(j) => assign_matrix(x, i, j, value, ctx),
        None => assign_vector(x, i, value, ctx),
    }
}

fn field_eval(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let name = a.get("name").unwrap_or(&Value::Null);
    let value = a.get("value").unwrap_or(&Value::Null);
    match bare(x) {
        Value::List(l) => set_element(x, l, name, value),
        Value::Null => set_element(x, &List::default(), name, value),
        other => Err(KernelError::new(format!(
            "$ operator is invalid for atomic vectors (a {}); use x[\"name\"] <- v",
            other.type_name()
        ))),
    }
}

fn names_eval(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let value = a.get("value").unwrap_or(&Value::Null);
    super::vector::labels::set_names_of(x, value)
}

fn colnames_eval(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let value = a.get("value").unwrap_or(&Value::Null);
    if let Value::List(_) = bare(x) {
        if super::frame::as_frame(x).is_some() {
            return super::vector::labels::set_names_of(x, value);
        }
    }
    let base = bare(x);
    let (_, nc) = base.dims().ok_or_else(|| {
        KernelError::new("attempt to set 'colnames' on an object with less than two dimensions")
    })?;
    let labels: Option<Vec<String>> = match bare(value) {
        Value::Null => None,
        v => Some(super::vector::labels::strings(v)?),
    };
    if let Some(l) = &labels {
        if l.len() != nc {
            return Err(KernelError::new(
                "length of 'dimnames' [2] not equal to array extent",
            ));
        }
    }
    let (rows, _) = names::dimnames(x);
    Ok(names::dimnamed(
        base.clone(),
        rows.map(<[String]>::to_vec),
        labels,
    ))
}

/// Calls the replacement function `func` (`rownames<-`, `colnames<-`).
fn replace_with(func: &str, x: &Value, value: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let k = super::registry()
        .get(func)
        .ok_or_else(|| KernelError::new(format!("could not find function \"{func}\"")))?;
    let given = vec![(None, x), (Some("value".to_string()), value)];
    let matched =
        Args::match_call(k.name, k.params, given).map_err(|e| KernelError::new(e.message))?;
    k.call(&matched, ctx)
}

/// `x` with `dimnames(x) <- value`, as `matrix(..., dimnames =)` and
/// `array(..., dimnames =)` set them.
pub(super) fn with_dimnames(x: &Value, value: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    replace_with("dimnames<-", x, value, ctx)
}

/// `dimnames(x) <- list(rows, cols)`: R's `dimnames<-` on a matrix, and
/// `dimnames<-.data.frame` (row names and names) on a data frame.
fn dimnames_eval(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let value = a.get("value").unwrap_or(&Value::Null);
    let frame = super::frame::as_frame(x).is_some();
    // A matrix's shorter list names its first dimensions only (R's
    // dimnamesgets pads it with NULL).
    let padded;
    let parts = match bare(value) {
        Value::Null if !frame => {
            return Ok(names::dimnamed(bare(x).clone(), None, None));
        }
        Value::List(l) if l.items.len() == 2 => &l.items,
        _ if frame => return Err(KernelError::new("invalid 'dimnames' given for data frame")),
        Value::List(l) if l.items.len() < 2 => {
            padded = [l.items.first().cloned().unwrap_or(Value::Null), Value::Null];
            &padded[..]
        }
        Value::List(l) => {
            return Err(KernelError::new(format!(
                "length of 'dimnames' [{}] must match that of 'dims' [2]",
                l.items.len()
            )))
        }
        _ => return Err(KernelError::new("'dimnames' must be a list")),
    };
    if !frame && bare(x).dims().is_none() {
        return Err(KernelError::new("'dimnames' applied to non-array"));
    }
    if frame && parts.iter().any(|p| matches!(bare(p), Value::Null)) {
        return Err(KernelError::new("invalid 'dimnames' given for data frame"));
    }
    let rows = replace_with("rownames<-", x, &parts[0], ctx)?;
    replace_with("colnames<-", &rows, &parts[1], ctx)
}

/// `is.na(x) <- i`: R's default method, `x[i] <- NA`.
fn is_na_eval(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let i = a.get("value").unwrap_or(&Value::Null);
    let na = Value::Bool(vec![None]);
    match bare(x) {
        Value::List(_) => Err(KernelError::new(
            "flowcast sets list elements to NA one at a time: x[[i]] <- NA",
        )),
        _ => assign_vector(x, i, &na, ctx),
    }
}

fn is_na_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = a.ty("x").cloned().unwrap_or(Type::Any);
    Ok(match x {
        Type::List { .. } | Type::Record { .. } | Type::Any => Type::Any,
        _ => assigned_type(&x, &Type::logical(Some(1))),
    })
}

/// `levels(f) <- value`: renames the levels in order; a name given twice
/// merges those levels, as in R.
fn levels_eval(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = a.get("x").unwrap_or(&Value::Null);
    let value = a.get("value").unwrap_or(&Value::Null);
    let Value::Factor(f) = bare(x) else {
        return Err(KernelError::new(format!(
            "flowcast sets levels on factors, not on a {}",
            bare(x).type_name()
        )));
    };
    let new = super::vector::labels::strings(bare(value))?;
    if new.len() < f.levels.len() {
        return Err(KernelError::new(format!(
            "number of levels differs: the factor has {}, the value {}",
            f.levels.len(),
            new.len()
        )));
    }
    let mut levels: Vec<String> = Vec::new();
    let map: Vec<u32> = new
        .iter()
        .map(|l| {
            let k = levels.iter().position(|x| x == l).unwrap_or_else(|| {
                levels.push(l.clone());
                levels.len() - 1
            });
            k as u32
        })
        .collect();
    let codes = f.codes.iter().map(|c| c.map(|c| map[c as usize])).collect();
    let out = Value::Factor(Factor {
        codes,
        levels,
        ordered: f.ordered,
    });
    Ok(match names::names(x) {
        Some(n) => named(out, n.to_vec()),
        None => out,
    })
}

/// The type after assigning a value of type `v` into part of `x`.
fn assigned_type(x: &Type, v: &Type) -> Type {
    let rank = |t: &Type| match t {
        Type::Bool { .. } | Type::BoolMat { .. } | Type::Null => Some(0),
        Type::Num { .. } | Type::Mat { .. } => Some(1),
        Type::Str { .. } | Type::StrMat { .. } | Type::Factor { .. } => Some(2),
        _ => None,
    };
    match (x, rank(x), rank(v)) {
        (
            Type::Mat { rows, cols } | Type::BoolMat { rows, cols } | Type::StrMat { rows, cols },
            _,
            Some(2),
        )
        | (Type::StrMat { rows, cols }, _, Some(_)) => Type::str_mat(*rows, *cols),
        (Type::Mat { rows, cols }, _, Some(0 | 1)) => Type::Mat {
            rows: *rows,
            cols: *cols,
        },
        (Type::BoolMat { rows, cols }, _, Some(0)) => Type::BoolMat {
            rows: *rows,
            cols: *cols,
        },
        (Type::BoolMat { rows, cols }, _, Some(1)) => Type::Mat {
            rows: *rows,
            cols: *cols,
        },
        (
            Type::Factor {
                levels, ordered, ..
            },
            _,
            _,
        ) => Type::Factor {
            len: None,
            levels: levels.clone(),
            ordered: *ordered,
        },
        (_, Some(a), Some(b)) => match a.max(b) {
            0 => Type::logical(None),
            1 => Type::num_unknown(),
            _ => Type::Str {
                len: None,
                value: None,
            },
        },
        _ => Type::Any,
    }
}

/// A data frame column's type after some of its cells take a `v`: its
/// length kept.
fn cells_type(t: &Type, v: &Type) -> Type {
    let len = t.len();
    match assigned_type(t, v) {
        Type::Num { .. } => Type::Num { len, value: None },
        Type::Bool { .. } => Type::logical(len),
        Type::Str { .. } => Type::Str { len, value: None },
        Type::Factor {
            levels, ordered, ..
        } => Type::Factor {
            len,
            levels,
            ordered,
        },
        other => other,
    }
}

fn refuses(t: &Type) -> bool {
    matches!(
        t,
        Type::Formula { .. } | Type::Complex { .. } | Type::ComplexMat { .. }
    )
}

fn subset_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = a.ty("x").cloned().unwrap_or(Type::Any);
    let v = a.ty("value").cloned().unwrap_or(Type::Any);
    if refuses(&x) {
        return Err(a.error("x", format!("cannot assign into part of {}", x.describe())));
    }
    Ok(match (&x, a.ty("j")) {
        (Type::Record { class, fields }, None)
            if class == super::frame::CLASS && matches!(a.ty("i"), Some(Type::BoolMat { .. })) =>
        {
            Type::Record {
                class: class.clone(),
                fields: fields
                    .iter()
                    .map(|(n, t)| (n.clone(), cells_type(t, &v)))
                    .collect(),
            }
        }
        (Type::List { .. } | Type::Record { .. } | Type::Any, _) => Type::Any,
        (_, Some(_))
            if !matches!(
                x,
                Type::Mat { .. } | Type::BoolMat { .. } | Type::StrMat { .. }
            ) =>
        {
            Type::Any
        }
        _ => assigned_type(&x, &v),
    })
}

fn element_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = a.ty("x").cloned().unwrap_or(Type::Any);
    let v = a.ty("value").cloned().unwrap_or(Type::Any);
    if refuses(&x) {
        return Err(a.error("x", format!("cannot assign into part of {}", x.describe())));
    }
    Ok(match x {
        Type::List { .. } | Type::Record { .. } | Type::Any | Type::Null => Type::Any,
        _ if a.func == "$<-" => {
            return Err(a.error(
                "x",
                format!(
                    "$ operator is invalid for atomic vectors ({})",
                    x.describe()
                ),
            ))
        }
        _ => assigned_type(&x, &v),
    })
}

fn same_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(a.ty("x").cloned().unwrap_or(Type::Any))
}

fn levels_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match a.ty("x") {
        Some(Type::Factor { len, ordered, .. }) => Ok(Type::Factor {
            len: *len,
            levels: None,
            ordered: *ordered,
        }),
        Some(Type::Any) | None => Ok(Type::Any),
        Some(t) => Err(a.error(
            "x",
            format!("flowcast sets levels on factors, not on {}", t.describe()),
        )),
    }
}

/// `dim(x) <- c(r, c)`: a vector as a matrix (column-major, as R fills
/// it); `dim(m) <- NULL` a matrix as a vector. Names are dropped, as R
/// drops them.
fn dim_eval(a: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = bare(a.get("x").unwrap_or(&Value::Null));
    let value = bare(a.get("value").unwrap_or(&Value::Null));
    if matches!(value, Value::Null) {
        return Ok(match x {
            Value::Mat(m) => Value::Num(m.as_slice().to_vec()),
            Value::BoolMat(m) => Value::Bool(m.as_slice().to_vec()),
            Value::StrMat(m) => Value::Str(m.as_slice().to_vec()),
            other => other.clone(),
        });
    }
    let d = value.as_f64_slice().unwrap_or_default();
    let dims: Vec<usize> = d
        .iter()
        .map(|&v| (v.is_finite() && v >= 0.0).then_some(v as usize))
        .collect::<Option<_>>()
        .ok_or_else(|| KernelError::new("the dims contain missing or negative values"))?;
    if dims.len() >= 3 {
        let data = match x {
            Value::Num(_) | Value::Mat(_) => {
                Value::Num(x.as_f64_slice().unwrap_or_default().into_owned())
            }
            Value::Bool(_) | Value::BoolMat(_) => {
                Value::Bool(x.as_logicals().unwrap_or_default().into_owned())
            }
            other => {
                return Err(KernelError::new(format!(
                    "flowcast's arrays hold numbers or logicals, not a {}",
                    other.type_name()
                )))
            }
        };
        return super::arrays::shaped(data, &dims);
    }
    let [r, c] = dims[..] else {
        return Err(KernelError::new(format!(
            "flowcast's matrices have two dimensions, not {}",
            dims.len()
        )));
    };
    let len = x.len();
    if r.checked_mul(c) != Some(len) {
        return Err(KernelError::new(format!(
            "dims [product {}] do not match the length of object [{len}]",
            r.saturating_mul(c)
        )));
    }
    match x {
        Value::Num(_) | Value::Mat(_) => {
            let v = x.as_f64_slice().unwrap_or_default().into_owned();
            Ok(Value::Mat(DMatrix::from_vec(r, c, v)))
        }
        Value::Bool(_) | Value::BoolMat(_) => {
            let v = x.as_logicals().unwrap_or_default().into_owned();
            Ok(Value::BoolMat(DMatrix::from_vec(r, c, v)))
        }
        Value::Str(_) | Value::StrMat(_) => Ok(Value::StrMat(DMatrix::from_vec(
            r,
            c,
            x.as_strs().unwrap_or_default().to_vec(),
        ))),
        other => Err(KernelError::new(format!(
            "flowcast's matrices hold numbers, logicals or text, not a {}",
            other.type_name()
        ))),
    }
}

fn dim_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = a.ty("x").cloned().unwrap_or(Type::Any);
    let dims = a.ty("value").and_then(|t| match t {
        Type::Num { value: Some(v), .. } if v.len() == 2 => Some((v[0] as usize, v[1] as usize)),
        _ => None,
    });
    // Dimensions not known to be two may make an array, typed unknown.
    let two = a.ty("value").and_then(Type::len) == Some(2);
    Ok(match (x, a.ty("value")) {
        (Type::Mat { .. }, Some(Type::Null)) => Type::num_unknown(),
        (Type::BoolMat { .. }, Some(Type::Null)) => Type::logical(None),
        (Type::StrMat { .. }, Some(Type::Null)) => Type::Str {
            len: None,
            value: None,
        },
        _ if !two => Type::Any,
        (Type::Str { .. } | Type::StrMat { .. }, _) => {
            Type::str_mat(dims.map(|d| d.0), dims.map(|d| d.1))
        }
        (Type::Bool { .. } | Type::BoolMat { .. }, _) => Type::BoolMat {
            rows: dims.map(|d| d.0),
            cols: dims.map(|d| d.1),
        },
        (Type::Num { .. } | Type::Mat { .. }, _) => Type::Mat {
            rows: dims.map(|d| d.0),
            cols: dims.map(|d| d.1),
        },
        _ => Type::Any,
    })
}

/// The formals of `[<-`, which `replace` calls.
fn subset_params() -> &'static [super::Param] {
    KERNELS
        .iter()
        .find(|k| k.name == "[<-")
        .map_or(&[], |k| k.params)
}

/// `replace(x, list, values)`'s arguments as base/R/replace.R passes them
/// on, `x[list] <- values`: `[<-`'s x, i and value.
fn as_subassign<T>(a: &Args<T>) -> Option<Args<T>>
where
    T: Clone + super::args::ArgValue,
{
    let slot = |n: &str| Some((a.position(n)?, a.slot_value(n)?.clone()));
    let (x, list, values) = (slot("x")?, slot("list")?, slot("values")?);
    let mut sub = Args::match_call(
        "[<-",
        subset_params(),
        vec![
            (None, x.1.clone()),
            (None, list.1.clone()),
            (Some("value".to_string()), values.1.clone()),
        ],
    )
    .ok()?;
    // Errors point at replace's own arguments.
    sub.set("x", Some(x.1), x.0);
    sub.set("i", Some(list.1), list.0);
    sub.set("value", Some(values.1), values.0);
    Some(sub)
}

/// R's replace (base/R/replace.R): `x[list] <- values; x`.
fn replace_eval(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    for n in ["x", "list", "values"] {
        if !a.has(n) {
            return Err(KernelError::new(format!(
                "argument \"{n}\" is missing, with no default"
            )));
        }
    }
    let sub = as_subassign(a).ok_or_else(|| KernelError::new("invalid arguments to replace"))?;
    subset_eval(&sub, ctx)
}

fn replace_shape(a: &Args<Type>, s: &ShapeCtx) -> Result<Type, ArgError> {
    match as_subassign(a) {
        Some(sub) => subset_shape(&sub, s),
        None => Ok(Type::Any),
    }
}
