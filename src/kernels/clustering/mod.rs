//! Clustering: `dist`, `as.dist`, `hclust`, `cutree` and `kmeans`, ported from R's own
//! sources (`distance.c`, `hclust.f`, `hclust-utils.c`, `kmns.f`,
//! `kmeans.c` and the R wrappers in package stats) so that merges, orders
//! and cluster labels are R's exactly and heights agree to rounding.

mod cutree;
mod dist;
pub use dist::{as_square, dist_type};
mod hclust;
mod kmeans;
mod kmns;

use super::{opt, req, Kernel, KernelError, Type, Value};

/// A column-major r x c matrix row by row: distances between points then
/// read two contiguous runs instead of two strided walks.
fn by_rows(x: &[f64], r: usize, c: usize) -> Vec<f64> {
    (0..r * c).map(|t| x[t / c + (t % c) * r]).collect()
}

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "dist",
        params: &[req("x"), opt("method"), opt("diag"), opt("upper"), opt("p")],
        random: false,
        shape: dist::shape,
        eval: dist::eval,
    },
    Kernel {
        name: "as.dist",
        params: &[req("m"), opt("diag"), opt("upper")],
        random: false,
        shape: dist::as_dist_shape,
        eval: dist::as_dist_eval,
    },
    Kernel {
        name: "hclust",
        params: &[req("d"), opt("method"), opt("members")],
        random: false,
        shape: hclust::shape,
        eval: hclust::eval,
    },
    Kernel {
        name: "cutree",
        params: &[req("tree"), opt("k"), opt("h")],
        random: false,
        shape: cutree::shape,
        eval: cutree::eval,
    },
    Kernel {
        name: "kmeans",
        params: &[
            req("x"),
            opt("centers"),
            opt("iter.max"),
            opt("nstart"),
            opt("algorithm"),
        ],
        random: true,
        shape: kmeans::shape,
        eval: kmeans::eval,
    },
];

/// The full name of the method `s` selects, as R matches it (`"av"` is
/// `"average"`; kmeans' `"Forgy"` is `"Lloyd"`, the same algorithm):
/// `method` of `hclust` and `dist`, `algorithm` of `kmeans`.
pub(super) fn method_name(func: &str, s: &str) -> Option<&'static str> {
    match func {
        "hclust" => hclust::method_index(s).ok().map(|i| hclust::METHODS[i]),
        "dist" => dist::method_index(s).map(|i| dist::METHODS[i]),
        "kmeans" => match kmeans::method(s).ok()? {
            1 => Some("Hartigan-Wong"),
            2 => Some("Lloyd"),
            _ => Some("MacQueen"),
        },
        _ => None,
    }
}

/// R's `pmatch(s, table)` for a single string: an exact match, else the
/// unique entry `s` is a prefix of; `None` when there is none or several.
fn pmatch(s: &str, table: &[&str]) -> Option<usize> {
    if let Some(i) = table.iter().position(|t| *t == s) {
        return Some(i);
    }
    if s.is_empty() {
        return None;
    }
    let mut hits = table.iter().enumerate().filter(|(_, t)| t.starts_with(s));
    match (hits.next(), hits.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// A numeric matrix as R's `as.matrix(x)` sees it: column-major data, rows,
/// columns (a vector is one column).
struct RMatrix<'a> {
    data: std::borrow::Cow<'a, [f64]>,
    nrow: usize,
    ncol: usize,
}

fn as_matrix<'a>(v: &'a Value, func: &str, arg: &str) -> Result<RMatrix<'a>, KernelError> {
    match v {
        Value::Mat(m) => Ok(RMatrix {
            data: std::borrow::Cow::Borrowed(m.as_slice()),
            nrow: m.nrows(),
            ncol: m.ncols(),
        }),
        Value::Num(_) | Value::Bool(_) => {
            let data = v.as_f64_slice().unwrap_or_default();
            let nrow = data.len();
            Ok(RMatrix {
                data,
                nrow,
                ncol: 1,
            })
        }
        other => Err(KernelError::new(format!(
            "argument \"{arg}\" of {func}() must be a numeric matrix, not {}",
            other.type_name()
        ))),
    }
}

/// `(rows, cols)` of `as.matrix(x)` as far as shape inference knows them;
/// `None` when `x` cannot be a numeric matrix.
fn matrix_dims(t: &Type) -> Option<(Option<usize>, Option<usize>)> {
    match t {
        Type::Mat { rows, cols } => Some((*rows, *cols)),
        Type::Num { len, .. } | Type::Bool { len, .. } => Some((*len, Some(1))),
        Type::Any => Some((None, None)),
        _ => None,
    }
}

/// A sum accumulated with more precision than `f64` (Neumaier's compensated
/// summation), standing in for R's `long double` accumulators in `sum()`
/// and `colMeans()`.
fn long_sum(xs: impl IntoIterator<Item = f64>) -> f64 {
    let mut s = 0.0f64;
    let mut c = 0.0f64;
    for x in xs {
        let t = s + x;
        if s.abs() >= x.abs() {
            c += (s - t) + x;
        } else {
            c += (x - t) + s;
        }
        s = t;
    }
    s + c
}

/// The field `name` of a classed record, or a clear error.
fn record_field<'a>(
    v: &'a Value,
    class: &str,
    name: &str,
    what: &str,
) -> Result<&'a Value, KernelError> {
    match v {
        Value::List(l) if l.class.as_deref() == Some(class) => l
            .items
            .get(
                l.names
                    .as_ref()
                    .and_then(|n| n.iter().position(|x| x == name))
                    .ok_or_else(|| KernelError::new(format!("{what}: no `{name}` component")))?,
            )
            .ok_or_else(|| KernelError::new(format!("{what}: no `{name}` component"))),
        other => Err(KernelError::new(format!(
            "{what}: expected a \"{class}\" object, not {}",
            match other {
                Value::List(l) => l.class.clone().unwrap_or_else(|| "list".into()),
                o => o.type_name().to_string(),
            }
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmatch_is_exact_then_unique_prefix() {
        let t = ["ward.D", "single", "ward.D2"];
        assert_eq!(pmatch("ward.D", &t), Some(0));
        assert_eq!(pmatch("ward.", &t), None);
        assert_eq!(pmatch("s", &t), Some(1));
        assert_eq!(pmatch("", &t), None);
    }

    #[test]
    fn long_sum_keeps_small_terms() {
        assert_eq!(long_sum([1e16, 1.0, -1e16]), 1.0);
    }
}
