//! `sweep(x, MARGIN, STATS, FUN = "-", check.margin = TRUE, ...)` of a
//! matrix, as R's base::sweep: STATS laid out along MARGIN
//! (`aperm(array(STATS, dims[perm]), order(perm))`), then
//! `FUN(x, that, ...)`, so `"-"`, `"/"`, `"^"` or any function of two
//! matrices gives R's own arithmetic. The check.margin warnings are R's.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::fun::{self, FunShape};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "sweep",
    params: &[
        req("x"),
        req("MARGIN"),
        req("STATS"),
        opt("FUN"),
        opt("check.margin"),
        DOTS,
    ],
    random: false,
    shape: sweep_shape,
    eval: sweep_eval,
}];

/// Whether STATS runs down the rows (`MARGIN = 1` or `c(1, 2)`: STATS
/// indexed `i + j * nrow`) or along them (`2` or `c(2, 1)`: `j + i * ncol`).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Layout {
    ByRow,
    ByColumn,
}

/// MARGIN of a matrix, or R's error for it. `check` is check.margin: R
/// meets an out-of-range margin there first.
fn layout(margin: &[f64], check: bool) -> Result<(Layout, Vec<usize>), String> {
    let m: Vec<f64> = margin.iter().map(|x| x.trunc()).collect();
    if m.iter().any(|x| x.is_nan() || *x > 2.0) {
        return Err(if check {
            "missing value where TRUE/FALSE needed"
        } else {
            "negative length vectors are not allowed"
        }
        .into());
    }
    if m.iter().any(|x| *x < 0.0) {
        return Err("only 0's may be mixed with negative subscripts".into());
    }
    let kept: Vec<usize> = m
        .iter()
        .filter(|x| **x != 0.0)
        .map(|x| *x as usize)
        .collect();
    match (kept.as_slice(), m.len() == kept.len()) {
        ([], _) => Err("'dims' cannot be of length 0".into()),
        (_, false) => Err(format!(
            "'perm' is of wrong length {} (!= 2)",
            m.len() + (2 - kept.len().min(2))
        )),
        ([1] | [1, 2], _) => Ok((Layout::ByRow, kept)),
        ([2] | [2, 1], _) => Ok((Layout::ByColumn, kept)),
        _ => Err("non-conformable arrays".into()),
    }
}

/// check.margin's warning, if any: STATS against `dim(x)[MARGIN]`.
fn margin_warning(dims: (usize, usize), margin: &[usize], stats: &Value) -> Option<&'static str> {
    let extent: Vec<usize> = margin
        .iter()
        .map(|&k| if k == 1 { dims.0 } else { dims.1 })
        .collect();
    let lstats = stats.len();
    if lstats > extent.iter().product() {
        return Some("STATS is longer than the extent of 'dim(x)[MARGIN]'");
    }
    if let Some((r, c)) = stats.dims() {
        let big = |v: &[usize]| v.iter().copied().filter(|&d| d > 1).collect::<Vec<_>>();
        return (big(&extent) != big(&[r, c]))
            .then_some("length(STATS) or dim(STATS) do not match dim(x)[MARGIN]");
    }
    if lstats == 0 {
        // max() of no cumulative extent at or below 0.
        return Some("no non-missing arguments to max; returning -Inf");
    }
    let mut cum = vec![1usize];
    for e in &extent {
        cum.push(cum.last().copied().unwrap_or(1).saturating_mul(*e));
    }
    let upper = cum.iter().copied().filter(|&c| c >= lstats).min()?;
    let lower = cum.iter().copied().filter(|&c| c <= lstats).max()?;
    (upper % lstats != 0 || lstats % lower != 0)
        .then_some("STATS does not recycle exactly across MARGIN")
}

/// STATS as the matrix FUN receives: recycled along the layout, NA when
/// STATS is empty; logical STATS stays logical.
fn spread(stats: &Value, (nr, nc): (usize, usize), layout: Layout) -> Result<Value, KernelError> {
    let at = |i: usize, j: usize| match layout {
        Layout::ByRow => i + j * nr,
        Layout::ByColumn => j + i * nc,
    };
    match stats {
        Value::Bool(_) | Value::BoolMat(_) => {
            let s = stats.as_logicals().unwrap_or_default();
            Ok(Value::BoolMat(DMatrix::from_fn(nr, nc, |i, j| {
                if s.is_empty() {
                    None
                } else {
                    s[at(i, j) % s.len()]
                }
            })))
        }
        Value::Num(_) | Value::Mat(_) | Value::Null => {
            let s = stats.as_f64_slice().unwrap_or_default();
            Ok(Value::Mat(DMatrix::from_fn(nr, nc, |i, j| {
                if s.is_empty() {
                    super::value::NA
                } else {
                    s[at(i, j) % s.len()]
                }
            })))
        }
        other => Err(KernelError::new(format!(
            "flowcast's sweep() takes numbers or logicals as STATS, not {}",
            other.type_name()
        ))),
    }
}

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

fn sweep_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    let margin = args.get("MARGIN").ok_or_else(|| missing("MARGIN"))?;
    let stats = args.get("STATS").ok_or_else(|| missing("STATS"))?;
    let fun = fun::resolve_or(args.get("FUN"), ctx, "-")?;
    let check = match args.get("check.margin") {
        None => true,
        Some(v) => v
            .as_flag()
            .ok_or_else(|| KernelError::new("missing value where TRUE/FALSE needed"))?,
    };
    if matches!(margin, Value::Str(_)) {
        return Err(KernelError::new("'x' must have named dimnames"));
    }
    let dims = match x {
        Value::Mat(_) | Value::BoolMat(_) => x.dims().unwrap_or((0, 0)),
        v if super::frame::as_frame(v).is_some() => {
            return Err(KernelError::new(
                "flowcast's sweep() takes a matrix; as.matrix(x) makes one of a data frame",
            ))
        }
        _ => return Err(KernelError::new("'dims' cannot be of length 0")),
    };
    let m = margin.as_f64_slice().ok_or_else(|| {
        KernelError::new(format!("invalid subscript type '{}'", margin.type_name()))
    })?;
    let (layout, kept) = layout(&m, check).map_err(KernelError::new)?;
    if check {
        if let Some(w) = margin_warning(dims, &kept, stats) {
            ctx.warn(w);
        }
    }
    let spread = spread(stats, dims, layout)?;
    let mut given: Vec<(Option<String>, &Value)> = vec![(None, x), (None, &spread)];
    given.extend(args.dots().map(|(n, v)| (n.map(str::to_string), v)));
    fun.call(given, ctx)
}

fn sweep_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let (rows, cols) = match args.ty("x") {
        Some(Type::Mat { rows, cols } | Type::BoolMat { rows, cols }) => (*rows, *cols),
        Some(Type::Any) | None => (None, None),
        Some(t) if super::frame::frame_fields(t).is_some() => {
            return Err(args.error(
                "x",
                "flowcast's sweep() takes a matrix; as.matrix(x) makes one of a data frame",
            ))
        }
        Some(_) => return Err(args.error("x", "'dims' cannot be of length 0")),
    };
    match args.ty("MARGIN") {
        Some(Type::Str { .. }) => {
            return Err(args.error("MARGIN", "'x' must have named dimnames"));
        }
        Some(t) => {
            if let Some(m) = t.const_nums() {
                let check = args
                    .ty("check.margin")
                    .and_then(Type::const_scalar)
                    .is_none_or(|c| c != 0.0);
                layout(&m, check).map_err(|e| args.error("MARGIN", e))?;
            }
        }
        None => {}
    }
    match args.ty("STATS") {
        Some(
            Type::Num { .. }
            | Type::Mat { .. }
            | Type::Bool { .. }
            | Type::BoolMat { .. }
            | Type::Null
            | Type::Any,
        )
        | None => {}
        Some(t) => {
            return Err(args.error(
                "STATS",
                format!(
                    "flowcast's sweep() takes numbers or logicals as STATS, not {}",
                    t.describe()
                ),
            ))
        }
    }
    let x = args.ty("x").cloned().unwrap_or(Type::Any);
    let stats = Type::Mat { rows, cols };
    let fun = match fun::resolve_shape(args.ty("FUN"), ctx) {
        Ok(Some(f)) => f,
        Ok(None) if args.has("FUN") => return Ok(Type::Any),
        Ok(None) => match super::registry().get("-") {
            Some(k) => FunShape::Kernel(k),
            None => return Ok(Type::Any),
        },
        Err(m) => return Err(args.error("FUN", m)),
    };
    let mut given = vec![(None, x), (None, stats)];
    given.extend(args.dots().map(|(n, t)| (n.map(str::to_string), t.clone())));
    fun.shape(given, Some(1), ctx)
        .map_err(|m| args.error("FUN", m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_as_r_reads_them() {
        assert_eq!(layout(&[1.0], true).unwrap().0, Layout::ByRow);
        assert_eq!(layout(&[1.5], true).unwrap().0, Layout::ByRow);
        assert_eq!(layout(&[2.0, 1.0], true).unwrap().0, Layout::ByColumn);
        assert_eq!(
            layout(&[3.0], true).unwrap_err(),
            "missing value where TRUE/FALSE needed"
        );
        assert_eq!(
            layout(&[1.0, 1.0], true).unwrap_err(),
            "non-conformable arrays"
        );
        assert_eq!(
            layout(&[0.0], true).unwrap_err(),
            "'dims' cannot be of length 0"
        );
        assert!(layout(&[-1.0], true).is_err());
    }

    #[test]
    fn check_margin_warnings_are_rs() {
        let s = |n: usize| Value::Num(vec![1.0; n]);
        assert_eq!(margin_warning((2, 3), &[1], &s(2)), None);
        assert_eq!(
            margin_warning((2, 3), &[1], &s(3)),
            Some("STATS is longer than the extent of 'dim(x)[MARGIN]'")
        );
        assert_eq!(
            margin_warning((2, 3), &[2], &s(2)),
            Some("STATS does not recycle exactly across MARGIN")
        );
        assert_eq!(margin_warning((2, 3), &[1, 2], &s(6)), None);
        assert_eq!(margin_warning((2, 3), &[1, 2], &s(1)), None);
        let row = Value::Mat(DMatrix::from_element(1, 3, 1.0));
        assert_eq!(margin_warning((2, 3), &[2], &row), None);
    }

    #[test]
    fn stats_spread_along_the_margin() {
        let s = Value::Num(vec![1.0, 2.0, 3.0]);
        let Value::Mat(m) = spread(&s, (2, 3), Layout::ByColumn).unwrap() else {
            panic!()
        };
        assert_eq!(m.as_slice(), &[1.0, 1.0, 2.0, 2.0, 3.0, 3.0]);
        let Value::Mat(m) = spread(&s, (2, 3), Layout::ByRow).unwrap() else {
            panic!()
        };
        assert_eq!(m.as_slice(), &[1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    }
}
