//! `marginSums(x, margin)` and its alias `margin.table`: R 4.2.2's
//! marginSums (base/R/table.R), `apply(x, margin, sum)` keeping the
//! dimnames of the margins kept and a table's class. A vector is read as
//! a one-dimensional array, as R does.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed, named, table_dnn, tabled};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "marginSums",
        params: &[req("x"), opt("margin")],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "margin.table",
        params: &[req("x"), opt("margin")],
        random: false,
        shape,
        eval,
    },
];

const NO_MATCH: &str = "'MARGIN' does not match dim(X)";

/// `x` as R's array: its cells (column-major), extents and dimnames.
struct Array {
    cells: Vec<f64>,
    dims: Vec<usize>,
    dimnames: Vec<Option<Vec<String>>>,
    dnn: Option<Vec<String>>,
}

fn array(x: &Value) -> Result<Array, KernelError> {
    let dnn = table_dnn(x).map(<[String]>::to_vec);
    let (rows, cols) = super::names::dimnames(x);
    let inner = bare(x);
    let cells = match inner {
        Value::Num(_) | Value::Mat(_) | Value::Bool(_) | Value::BoolMat(_) => {
            inner.as_f64_slice().unwrap_or_default().into_owned()
        }
        _ => return Err(KernelError::new("'x' is not an array")),
    };
    Ok(match inner.dims() {
        Some((r, c)) => Array {
            cells,
            dims: vec![r, c],
            dimnames: vec![rows.map(<[String]>::to_vec), cols.map(<[String]>::to_vec)],
            dnn,
        },
        // A vector is an array only as a one-way table; R's
        // `dim(x) <- length(x)` drops any other names.
        None => {
            if matches!(inner, Value::Bool(_)) && dnn.is_none() {
                return Err(KernelError::new("'x' is not an array"));
            }
            let names = dnn
                .as_ref()
                .and_then(|_| super::names::names(x).map(<[String]>::to_vec));
            Array {
                dims: vec![cells.len()],
                cells,
                dimnames: vec![names],
                dnn,
            }
        }
    })
}

/// The margins as 0-based dimensions (names matched to the dimnames').
fn margins(m: &Value, a: &Array) -> Result<Vec<usize>, KernelError> {
    let out: Vec<usize> = match bare(m) {
        Value::Str(s) => {
            let dnn = a.dnn.clone().unwrap_or_default();
            s.iter()
                .map(|n| {
                    dnn.iter().position(|d| d == n).ok_or_else(|| {
                        KernelError::new("not all elements of 'MARGIN' are names of dimensions")
                    })
                })
                .collect::<Result<_, _>>()?
        }
        v => {
            let Some(x) = v.as_f64_slice() else {
                return Err(KernelError::new(NO_MATCH));
            };
            // apply's negative MARGIN keeps the other dimensions.
            if a.dims.len() == 2 && x.len() == 1 && (x[0] == -1.0 || x[0] == -2.0) {
                return Ok(vec![if x[0] == -1.0 { 1 } else { 0 }]);
            }
            x.iter()
                .map(|&d| {
                    if d.is_finite() && d >= 1.0 && (d.trunc() as usize) <= a.dims.len() {
                        Ok(d.trunc() as usize - 1)
                    } else {
                        Err(KernelError::new(NO_MATCH))
                    }
                })
                .collect::<Result<_, _>>()?
        }
    };
    if out.len() > a.dims.len() {
        return Err(KernelError::new(NO_MATCH));
    }
    if out.len() == 2 && out[0] == out[1] {
        return Err(KernelError::new("invalid 'perm' argument"));
    }
    Ok(out)
}

fn eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if super::arrays::array_dims(x).is_some() {
        if let Some(t) = super::ftable::as_table(x) {
            return array_sums(args, t);
        }
    }
    let a = array(x)?;
    let margin = match args.get("margin") {
        Some(m) if !m.is_empty() => margins(m, &a)?,
        _ => return Ok(Value::scalar(super::summary::sum(&a.cells, false))),
    };
    let sum = super::summary::sum;
    if margin.len() == 2 {
        // Every cell is its own sum; c(2, 1) transposes.
        let (r, c) = (a.dims[0], a.dims[1]);
        let m = DMatrix::from_fn(r, c, |i, j| sum(&[a.cells[i + j * r]], false));
        let (m, rows, cols, dnn) = if margin[0] == 1 {
            let dnn = a.dnn.map(|d| vec![d[1].clone(), d[0].clone()]);
            (
                m.transpose(),
                a.dimnames[1].clone(),
                a.dimnames[0].clone(),
                dnn,
            )
        } else {
            (m, a.dimnames[0].clone(), a.dimnames[1].clone(), a.dnn)
        };
        let v = dimnamed(Value::Mat(m), rows, cols);
        return Ok(match dnn {
            Some(d) => tabled(v, d),
            None => v,
        });
    }
    let d = margin[0];
    let sums: Vec<f64> = if a.dims.len() == 1 {
        a.cells.iter().map(|&c| sum(&[c], false)).collect()
    } else {
        let (r, c) = (a.dims[0], a.dims[1]);
        if d == 0 {
            (0..r)
                .map(|i| {
                    sum(
                        &(0..c).map(|j| a.cells[i + j * r]).collect::<Vec<_>>(),
                        false,
                    )
                })
                .collect()
        } else {
            a.cells
                .chunks(r.max(1))
                .take(c)
                .map(|col| sum(col, false))
                .collect()
        }
    };
    let v = match a.dimnames[d].clone() {
        Some(n) => named(Value::Num(sums), n),
        None => Value::Num(sums),
    };
    Ok(match a.dnn {
        Some(dnn) => tabled(v, vec![dnn[d].clone()]),
        None => v,
    })
}

/// marginSums of an array of three or more dimensions:
/// `apply(x, margin, sum)`, a table of the margins kept (in the order
/// given) with their dimnames.
fn array_sums(args: &Args<&Value>, t: super::ftable::Table) -> Result<Value, KernelError> {
    let a = Array {
        cells: Vec::new(),
        dims: t.dx.clone(),
        dimnames: Vec::new(),
        dnn: t.dnn.clone(),
    };
    let margin = match args.get("margin") {
        Some(m) if !m.is_empty() => margins(m, &a)?,
        _ => return Ok(Value::scalar(super::summary::sum(&t.cells, false))),
    };
    let keep: Vec<usize> = margin.iter().map(|&k| k + 1).collect();
    let sums = super::ftable::collapse(&t, &keep);
    let dn = |k: usize| t.dn[k].clone();
    let dnn = |ks: &[usize]| {
        t.dnn
            .as_ref()
            .map(|d| ks.iter().map(|&k| d[k].clone()).collect())
    };
    Ok(match margin[..] {
        [k] => {
            let v = named(Value::Num(sums), dn(k));
            match dnn(&[k]) {
                Some(d) => tabled(v, d),
                None => v,
            }
        }
        [r, c] => {
            let m = DMatrix::from_vec(t.dx[r], t.dx[c], sums);
            let v = dimnamed(Value::Mat(m), Some(dn(r)), Some(dn(c)));
            match dnn(&[r, c]) {
                Some(d) => tabled(v, d),
                None => v,
            }
        }
        _ => super::grouping::array_table(
            sums,
            margin.iter().map(|&k| dn(k)).collect(),
            dnn(&margin),
        ),
    })
}

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x");
    let m = args.ty("margin");
    Ok(match (x, m) {
        (_, None | Some(Type::Null)) => Type::num(1),
        (
            Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }),
            Some(Type::Num { value: Some(v), .. }),
        ) => match v.as_slice() {
            [d] if *d == 1.0 => Type::Num {
                len: *rows,
                value: None,
            },
            [d] if *d == 2.0 => Type::Num {
                len: *cols,
                value: None,
            },
            [a, _] if *a == 2.0 => Type::Mat {
                rows: *cols,
                cols: *rows,
            },
            _ => Type::Mat {
                rows: *rows,
                cols: *cols,
            },
        },
        _ => Type::Any,
    })
}
