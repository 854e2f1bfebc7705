//! `ftable`, R's flat contingency table, as stats' ftable.default
//! (src/library/stats/R/ftable.R, R 4.2.2): a table (or a matrix, or an
//! array, taken `as.table`; or the factors to `table()`) laid out as a
//! matrix whose rows run over the combinations of `row.vars` and columns
//! over those of `col.vars`, the last variable of each varying fastest.
//! With both given and naming fewer than all the variables, the others
//! are summed out first (`apply(x, all.vars, sum)`). The result carries
//! R's `row.vars` and `col.vars` attributes (the dimnames of each side,
//! named by their variables) and class "ftable".

use nalgebra::DMatrix;

use super::frame::as_frame;
use super::grouping::{cross_sums, grouping};
use super::names::{bare, with_attr};
use super::value::{Factor, List};
use super::{opt, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "ftable",
    params: &[DOTS, opt("exclude"), opt("row.vars"), opt("col.vars")],
    random: false,
    shape,
    eval,
}];

/// A table as ftable.default reads it: its cells (column-major), `dim`,
/// `dimnames` and the names of the dimnames (none for a bare matrix).
pub(super) struct Table {
    pub cells: Vec<f64>,
    pub dx: Vec<usize>,
    pub dn: Vec<Vec<String>>,
    pub dnn: Option<Vec<String>>,
}

/// as.table.default's dimnames where a dimension has none:
/// `make.unique(LETTERS[seq_len(d)], sep = "")`, whose 27th and later are
/// NA made unique ("NA", "NA1", ...).
fn letters(d: usize) -> Vec<String> {
    (0..d)
        .map(|i| match i {
            0..=25 => char::from(b'A' + i as u8).to_string(),
            26 => "NA".to_string(),
            _ => format!("NA{}", i - 26),
        })
        .collect()
}

fn strings_of(v: &Value) -> Option<Vec<String>> {
    match bare(v) {
        Value::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// x as a table when it is an array of two or more dimensions (R's
/// `is.array(x) && length(dim(x)) > 1L`, then `as.table(x)`).
pub(super) fn as_table(x: &Value) -> Option<Table> {
    if let Some(dx) = super::arrays::array_dims(x) {
        let Value::Named(n) = x else { return None };
        let cells = n.value.as_f64_slice()?.into_owned();
        let (dn, dnn) = match n.attrs.iter().find(|(k, _)| k == "dimnames") {
            Some((_, Value::List(l))) => (
                l.items.iter().map(strings_of).collect::<Vec<_>>(),
                l.names.clone(),
            ),
            _ => (vec![None; dx.len()], None),
        };
        let dn = dn
            .into_iter()
            .zip(&dx)
            .map(|(d, &k)| d.unwrap_or_else(|| letters(k)))
            .collect();
        return Some(Table { cells, dx, dn, dnn });
    }
    let (rows, cols) = bare(x).dims()?;
    let cells = bare(x).as_f64_slice()?.into_owned();
    let (rn, cn, dnn) = match x {
        Value::Named(n) => (n.rownames.clone(), n.colnames.clone(), n.table.clone()),
        _ => (None, None, None),
    };
    Some(Table {
        cells,
        dx: vec![rows, cols],
        dn: vec![
            rn.unwrap_or_else(|| letters(rows)),
            cn.unwrap_or_else(|| letters(cols)),
        ],
        dnn,
    })
}

/// `table(...)` of the factors (or a data frame's columns), its dimnames
/// named by the arguments' names as table() names them.
fn tabulate(vars: Vec<(Option<&str>, &Value)>) -> Result<Table, KernelError> {
    let factors: Vec<Factor> = vars
        .iter()
        .map(|(_, v)| grouping(v, "..."))
        .collect::<Result<_, _>>()?;
    if factors
        .iter()
        .any(|f| f.codes.len() != factors[0].codes.len())
    {
        return Err(KernelError::new("all arguments must have the same length"));
    }
    let ones = vec![1.0; factors.first().map_or(0, |f| f.codes.len())];
    Ok(Table {
        cells: cross_sums(&factors, &ones)?,
        dx: factors.iter().map(|f| f.levels.len()).collect(),
        dn: factors.iter().map(|f| f.levels.clone()).collect(),
        dnn: Some(
            vars.iter()
                .map(|(n, _)| n.unwrap_or("").to_string())
                .collect(),
        ),
    })
}

/// `row.vars` or `col.vars` as 1-based dimension numbers: names are
/// pmatch'ed against the dimnames' names, numbers must lie in 1..n.
fn vars(v: Option<&Value>, t: &Table, what: &str) -> Result<Option<Vec<usize>>, KernelError> {
    let bad = || KernelError::new(format!("incorrect specification for '{what}'"));
    let Some(v) = v.map(bare) else {
        return Ok(None);
    };
    let n = t.dx.len();
    match v {
        Value::Null => Ok(None),
        Value::Str(s) => {
            let names = t.dnn.as_deref().ok_or_else(bad)?;
            s.iter()
                .map(|s| super::match_arg::pmatch(s, names).map(|i| i + 1))
                .collect::<Option<Vec<_>>>()
                .map(Some)
                .ok_or_else(bad)
        }
        Value::Num(_) | Value::Bool(_) => {
            let x = v.as_f64_slice().unwrap_or_default();
            if x.iter().any(|&x| x.is_nan()) {
                return Err(KernelError::new("missing value where TRUE/FALSE needed"));
            }
            if x.iter().any(|&x| x < 1.0 || x > n as f64) {
                return Err(bad());
            }
            Ok(Some(x.iter().map(|&x| x as usize).collect()))
        }
        _ => Err(bad()),
    }
}

/// R's `apply(x, keep, sum)`: the cells summed over the dimensions not in
/// `keep` (1-based, in the result's order), each sum over its slice in
/// column-major order.
pub(super) fn collapse(t: &Table, keep: &[usize]) -> Vec<f64> {
    let out_dims: Vec<usize> = keep.iter().map(|&k| t.dx[k - 1]).collect();
    let mut slices = vec![Vec::new(); out_dims.iter().product()];
    for (at, &v) in t.cells.iter().enumerate() {
        let mut rest = at;
        let idx: Vec<usize> =
            t.dx.iter()
                .map(|&d| {
                    let i = rest % d;
                    rest /= d;
                    i
                })
                .collect();
        let (mut cell, mut stride) = (0, 1);
        for (&k, &d) in keep.iter().zip(&out_dims) {
            cell += idx[k - 1] * stride;
            stride *= d;
        }
        slices[cell].push(v);
    }
    slices.iter().map(|s| super::nmath::rsum(s)).collect()
}

/// R's do_aperm: the cells of an array of dimensions `dx` laid out with
/// its dimensions in the order `perm` (1-based).
fn aperm(cells: &[f64], dx: &[usize], perm: &[usize]) -> Result<Vec<f64>, KernelError> {
    let n = dx.len();
    if perm.len() != n {
        return Err(KernelError::new(format!(
            "'perm' is of wrong length {} (!= {n})",
            perm.len()
        )));
    }
    let mut seen = vec![false; n];
    for &p in perm {
        if seen[p - 1] {
            return Err(KernelError::new("invalid 'perm' argument"));
        }
        seen[p - 1] = true;
    }
    let mut stride = vec![1; n];
    for k in 1..n {
        stride[k] = stride[k - 1] * dx[k - 1];
    }
    let new_dims: Vec<usize> = perm.iter().map(|&p| dx[p - 1]).collect();
    let mut out = Vec::with_capacity(cells.len());
    let mut idx = vec![0; n];
    for _ in 0..cells.len() {
        let at: usize = (0..n).map(|j| idx[j] * stride[perm[j] - 1]).sum();
        out.push(cells[at]);
        for j in 0..n {
            idx[j] += 1;
            if idx[j] < new_dims[j] {
                break;
            }
            idx[j] = 0;
        }
    }
    Ok(out)
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let Some(&(_, x)) = dots.first() else {
        return Err(KernelError::new("nothing to tabulate"));
    };
    let mut t = match (as_frame(x), as_table(x)) {
        (Some(l), _) => {
            if args.has("exclude") {
                return Err(KernelError::new(
                    "flowcast's ftable() takes the default exclude only",
                ));
            }
            let names = l.names.clone().unwrap_or_default();
            tabulate(
                l.items
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (names.get(k).map(String::as_str), v))
                    .collect(),
            )?
        }
        (None, Some(t)) => t,
        (None, None) => {
            if args.has("exclude") {
                return Err(KernelError::new(
                    "flowcast's ftable() takes the default exclude only",
                ));
            }
            tabulate(dots)?
        }
    };
    let mut row_vars = vars(args.get("row.vars"), &t, "row.vars")?;
    let mut col_vars = vars(args.get("col.vars"), &t, "col.vars")?;
    let n = t.dx.len();
    // An empty data frame has no variables: R's table() refuses it.
    if n == 0 {
        return Err(KernelError::new("nothing to tabulate"));
    }
    let all: Vec<usize> = (1..=n).collect();
    let without =
        |v: &[usize]| -> Vec<usize> { all.iter().copied().filter(|i| !v.contains(i)).collect() };
    let (row_vars, col_vars) = match (row_vars.take(), col_vars.take()) {
        (Some(r), Some(c)) => {
            let mut all_vars: Vec<usize> = r.iter().chain(&c).copied().collect();
            all_vars.sort_unstable();
            if all_vars.len() < n {
                t.cells = collapse(&t, &all_vars);
                let at = |v: usize| all_vars.iter().position(|&a| a == v).map_or(0, |p| p + 1);
                let (r, c) = (
                    r.iter().map(|&v| at(v)).collect(),
                    c.iter().map(|&v| at(v)).collect(),
                );
                t.dn = all_vars.iter().map(|&v| t.dn[v - 1].clone()).collect();
                t.dnn = t
                    .dnn
                    .map(|d| all_vars.iter().map(|&v| d[v - 1].clone()).collect());
                t.dx = all_vars.iter().map(|&v| t.dx[v - 1]).collect();
                (r, c)
            } else {
                (r, c)
            }
        }
        (Some(r), None) => {
            let c = if r.is_empty() {
                all.clone()
            } else {
                without(&r)
            };
            (r, c)
        }
        (None, Some(c)) => {
            let r = if c.is_empty() {
                all.clone()
            } else {
                without(&c)
            };
            (r, c)
        }
        (None, None) => ((1..n).collect(), vec![n]),
    };
    let perm: Vec<usize> = row_vars
        .iter()
        .rev()
        .chain(col_vars.iter().rev())
        .copied()
        .collect();
    let cells = if perm.len() > 1 {
        aperm(&t.cells, &t.dx, &perm)?
    } else {
        t.cells.clone()
    };
    let nrow: usize = row_vars.iter().map(|&v| t.dx[v - 1]).product();
    let ncol: usize = col_vars.iter().map(|&v| t.dx[v - 1]).product();
    if nrow * ncol != cells.len() {
        return Err(KernelError::new(format!(
            "dims [product {}] do not match the length of object [{}]",
            nrow * ncol,
            cells.len()
        )));
    }
    // dn[row.vars]: the dimnames of each side, named by their variables.
    let side = |v: &[usize]| {
        let mut l = List::sequence(v.iter().map(|&k| Value::Str(t.dn[k - 1].clone())).collect());
        l.names = t
            .dnn
            .as_ref()
            .map(|d| v.iter().map(|&k| d[k - 1].clone()).collect());
        Value::List(l)
    };
    let y = Value::Mat(DMatrix::from_vec(nrow, ncol, cells));
    let y = with_attr(y, "row.vars", side(&row_vars));
    let y = with_attr(y, "col.vars", side(&col_vars));
    Ok(with_attr(y, "class", Value::string("ftable")))
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if args.dots().next().is_none() {
        return Err(ArgError::call("nothing to tabulate"));
    }
    Ok(Type::Mat {
        rows: None,
        cols: None,
    })
}
