//! `ts.union(..., dframe = FALSE)`, `ts.intersect(..., dframe = FALSE)`
//! and `cbind` of time series (`cbind.ts`): R 4.2.2's `.cbind.ts` in
//! stats/R/ts.R, which puts series of one frequency and phase side by
//! side over the union (padded with NA) or the intersection of their
//! times, as an mts. A plain vector among them is a series over that span
//! when it has its length (or one value). The columns are named by each
//! argument's tag, or its text (`.makeNamesTs`, which the evaluator
//! supplies); a matrix's columns `name.column`. `dframe = TRUE` is
//! refused.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed};
use super::ts::{tsp_of, with_tsp};
use super::value::NA;
use super::{opt, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "ts.union",
        params: &[DOTS, opt("dframe")],
        random: false,
        shape,
        eval,
    },
    Kernel {
        name: "ts.intersect",
        params: &[DOTS, opt("dframe")],
        random: false,
        shape,
        eval,
    },
];

/// R's `getOption("ts.eps")`.
const TS_EPS: f64 = 1e-5;

fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    if let Some(t) = args.ty("dframe") {
        if t.const_scalar().is_some_and(|v| v != 0.0) {
            return Err(args.error("dframe", DFRAME));
        }
    }
    Ok(Type::Any)
}

const DFRAME: &str = "flowcast's ts.union and ts.intersect take dframe = FALSE";

fn eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    if let Some(d) = args.get("dframe") {
        match bare(d).as_flag() {
            Some(false) => {}
            Some(true) => return Err(KernelError::new(DFRAME)),
            None => return Err(KernelError::new("argument is not interpretable as logical")),
        }
    }
    cbind_ts(args.dots(), args.func == "ts.union", ctx)
}

/// One argument of `.cbind.ts`: its values column by column, its rows
/// and columns, its tsp, its column names, and its name.
struct Ser {
    data: Vec<f64>,
    rows: usize,
    cols: usize,
    tsp: Option<[f64; 3]>,
    colnames: Option<Vec<String>>,
    name: String,
}

/// `.cbind.ts(sers, nmsers, dframe = FALSE, union)`.
pub(crate) fn cbind_ts<'a>(
    given: impl Iterator<Item = (Option<&'a str>, &'a Value)>,
    union: bool,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let err = |m: &str| KernelError::new(m);
    let mut sers = Vec::new();
    for (name, v) in given {
        let b = bare(v);
        if matches!(b, Value::Null) {
            continue;
        }
        let (data, rows, cols) = match b {
            Value::Mat(m) => (m.as_slice().to_vec(), m.nrows(), m.ncols()),
            other => {
                let d = other.as_f64_slice().ok_or_else(|| {
                    KernelError::new(format!(
                        "flowcast binds numeric series, not {}",
                        other.type_name()
                    ))
                })?;
                let n = d.len();
                (d.into_owned(), n, 1)
            }
        };
        let colnames = match v {
            Value::Named(n) => n.colnames.clone(),
            _ => None,
        };
        sers.push(Ser {
            data,
            rows,
            cols,
            tsp: tsp_of(v),
            colnames,
            name: name.unwrap_or("").to_string(),
        });
    }
    if sers.is_empty() {
        return Ok(Value::Null);
    }
    let tsps: Vec<[f64; 3]> = sers.iter().filter_map(|s| s.tsp).collect();
    if sers.len() == 1 {
        let s = sers.pop().unwrap_or_else(|| unreachable!("one series"));
        let v = if s.cols > 1 || s.colnames.is_some() {
            dimnamed(
                Value::Mat(DMatrix::from_vec(s.rows, s.cols, s.data)),
                None,
                s.colnames,
            )
        } else {
            Value::Num(s.data)
        };
        return Ok(match s.tsp {
            Some(t) => with_tsp(v, t),
            None => v,
        });
    }
    if tsps.is_empty() {
        return Err(err("no time series supplied"));
    }
    let freq = tsps.iter().map(|t| t[2]).sum::<f64>() / tsps.len() as f64;
    if tsps.iter().map(|t| (t[2] - freq).abs()).fold(0.0, f64::max) > TS_EPS {
        return Err(err("not all series have the same frequency"));
    }
    // exp(2i * pi * ((tsp[1] * tsp[3]) %% 1)) for each series, against
    // their mean.
    let phases: Vec<(f64, f64)> = tsps
        .iter()
        .map(|t| {
            let ph = (t[0] * t[2]).rem_euclid(1.0);
            let a = 2.0 * std::f64::consts::PI * ph;
            (a.cos(), a.sin())
        })
        .collect();
    let k = phases.len() as f64;
    let (mr, mi) = phases
        .iter()
        .fold((0.0, 0.0), |(r, i), (a, b)| (r + a / k, i + b / k));
    if phases
        .iter()
        .map(|(a, b)| (a - mr).hypot(b - mi))
        .fold(0.0, f64::max)
        > TS_EPS
    {
        return Err(err("not all series have the same phase"));
    }
    let (st, en) = if union {
        (
            tsps.iter().map(|t| t[0]).fold(f64::INFINITY, f64::min),
            tsps.iter().map(|t| t[1]).fold(f64::NEG_INFINITY, f64::max),
        )
    } else {
        let st = tsps.iter().map(|t| t[0]).fold(f64::NEG_INFINITY, f64::max);
        let en = tsps.iter().map(|t| t[1]).fold(f64::INFINITY, f64::min);
        if st > en {
            ctx.warn("non-intersecting series");
            return Ok(Value::Null);
        }
        (st, en)
    };
    // R's .cbind.ts makes the result with `matrix(, n, ns)`, whose `n` is
    // an integer: `ts(1:10, start = 1e15)` beside `ts(1:10)` spans 10^15
    // rows, which sized a vector of 16 PB and aborted.
    let span = (freq * (en - st) + 1.0).round();
    if span.is_nan() || span > f64::from(i32::MAX) {
        ctx.warn("NAs introduced by coercion to integer range");
        return Err(err("invalid 'nrow' value (too large or NA)"));
    }
    let n = span as usize;
    for s in sers.iter_mut().filter(|s| s.tsp.is_none()) {
        if s.rows != 1 && s.rows != n {
            return Err(err("non-time series not of the correct length"));
        }
        // ts(x, start = st, end = en, frequency = freq): one value
        // recycled down the span.
        if s.rows == 1 && n != 1 {
            super::alloc::ensure_room(n as f64 * s.data.len() as f64 * 8.0)?;
            s.data = s
                .data
                .iter()
                .flat_map(|v| std::iter::repeat_n(*v, n))
                .collect();
            s.rows = n;
        }
        s.tsp = Some([st, en, freq]);
    }
    let ns: usize = sers.iter().map(|s| s.cols).sum();
    let mut nm = Vec::with_capacity(ns);
    for s in &sers {
        if s.cols > 1 {
            let cn: Vec<String> = s
                .colnames
                .clone()
                .unwrap_or_else(|| (1..=s.cols).map(|i| i.to_string()).collect());
            nm.extend(cn.iter().map(|c| format!("{}.{c}", s.name)));
        } else {
            nm.push(s.name.clone());
        }
    }
    let mut x = super::alloc::filled(n * ns, NA)?;
    let mut col = 0;
    for s in &sers {
        let t = s.tsp.unwrap_or([st, en, freq]);
        // The row of the result where this series' first value falls
        // (union), or the first of its rows that the result keeps
        // (intersect, window(sers[[i]], st, en)).
        for c in 0..s.cols {
            let src = &s.data[c * s.rows..(c + 1) * s.rows];
            let dst = &mut x[(col + c) * n..(col + c + 1) * n];
            if union {
                let lead = (freq * (t[0] - st)).round() as usize;
                for (i, v) in src.iter().enumerate() {
                    if let Some(d) = dst.get_mut(lead + i) {
                        *d = *v;
                    }
                }
            } else {
                let skip = (freq * (st - t[0])).round() as usize;
                for (i, d) in dst.iter_mut().enumerate() {
                    *d = src.get(skip + i).copied().unwrap_or(NA);
                }
            }
        }
        col += s.cols;
    }
    let m = dimnamed(Value::Mat(DMatrix::from_vec(n, ns, x)), None, Some(nm));
    Ok(with_tsp(m, [st, st + (n as f64 - 1.0) / freq, freq]))
}
