//! `hclust(d, method, members)`: R's `hclust.f` (Murtagh's algorithm with
//! nearest-neighbour lists and Lance–Williams updates, as modified for R)
//! followed by `hcass2`, which turns the agglomerations into R's `merge`
//! (negative: an observation, positive: an earlier step) and `order`.

use super::{record_field, KernelError, Type, Value};
use crate::kernels::args::{ArgError, Args};
use crate::kernels::value::List;
use crate::kernels::ShapeCtx;
use nalgebra::DMatrix;

/// In R's order: `i.meth` is the 1-based position (`iOpt` of the Fortran).
pub(super) const METHODS: [&str; 8] = [
    "ward.D", "single", "complete", "average", "mcquitty", "median", "centroid", "ward.D2",
];

/// R's method matching; "ward" is R's old name of "ward.D".
pub(super) fn method_index(s: &str) -> Result<usize, String> {
    let s = if s == "ward" { "ward.D" } else { s };
    super::pmatch(s, &METHODS).ok_or_else(|| format!("invalid clustering method {s}"))
}

/// The number of objects of a dist type, when known.
fn dist_size(t: &Type) -> Option<usize> {
    if let Some(n) = t.field("size").and_then(Type::const_scalar) {
        return Some(n as usize);
    }
    let len = t.field("values")?.len()?;
    // len = n(n-1)/2
    let n = ((1.0 + (1.0 + 8.0 * len as f64).sqrt()) / 2.0).round() as usize;
    (n * n.saturating_sub(1) / 2 == len).then_some(n)
}

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let d = args.ty("d").unwrap_or(&Type::Any);
    let n = match d {
        Type::Record { class, .. } if class == "dist" => dist_size(d),
        Type::Any => None,
        other => {
            return Err(args.error(
                "d",
                format!(
                    "invalid dissimilarities: hclust() needs a dist object (from dist()), not {}",
                    other.describe()
                ),
            ))
        }
    };
    if let Some(n) = n {
        if n < 2 {
            return Err(args.error("d", "must have n >= 2 objects to cluster"));
        }
    }
    let method = match args.get("method") {
        None => Some("complete"),
        Some(t) => match t.const_str() {
            Some(s) => Some(METHODS[method_index(s).map_err(|m| args.error("method", m))?]),
            None => None,
        },
    };
    if let (Some(n), Some(m)) = (n, args.ty("members")) {
        if m.len().is_some_and(|l| l != n) {
            return Err(args.error("members", "invalid length of members"));
        }
    }
    let str1 = |v: Option<&str>| {
        v.map_or(
            Type::Str {
                len: Some(1),
                value: None,
            },
            Type::str_const,
        )
    };
    Ok(Type::record(
        "hclust",
        vec![
            (
                "merge",
                Type::Mat {
                    rows: n.map(|n| n - 1),
                    cols: Some(2),
                },
            ),
            (
                "height",
                n.map_or_else(Type::num_unknown, |n| Type::num(n - 1)),
            ),
            ("order", n.map_or_else(Type::num_unknown, Type::num)),
            ("method", str1(method)),
            (
                "dist.method",
                str1(d.field("method").and_then(Type::const_str)),
            ),
            ("labels", Type::Any),
        ],
    ))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut crate::kernels::Ctx) -> Result<Value, KernelError> {
    let method = method_index(args.str_or("method", "complete")?).map_err(KernelError)?;
    let d = args.get("d").unwrap_or(&Value::Null);
    let what = "invalid dissimilarities: hclust() needs a dist object (from dist())";
    let values = record_field(d, "dist", "values", what)?
        .as_f64_slice()
        .ok_or_else(|| KernelError::new(what))?;
    let n = record_field(d, "dist", "size", what)?
        .as_scalar()
        .filter(|n| n.is_finite() && *n >= 0.0)
        .ok_or_else(|| KernelError::new("size cannot be NA nor exceed 65536"))?;
    if n > 65536.0 {
        return Err(KernelError::new("size cannot be NA nor exceed 65536"));
    }
    let n = n as usize;
    if n < 2 {
        return Err(KernelError::new("must have n >= 2 objects to cluster"));
    }
    let len = n * (n - 1) / 2;
    if values.len() < len {
        return Err(KernelError::new("dissimilarities of improper length"));
    }
    let members = match args.get("members") {
        None | Some(Value::Null) => vec![1.0; n],
        Some(_) => {
            let m = args.nums("members")?.into_owned();
            if m.len() != n {
                return Err(KernelError::new("invalid length of members"));
            }
            m
        }
    };
    let mut diss = values[..len].to_vec();
    if diss.iter().chain(&members).any(|v| !v.is_finite()) {
        return Err(KernelError::new(
            "NA/NaN/Inf in foreign function call (arg 10)",
        ));
    }
    let (ia, ib, crit) = agglomerate(n, method + 1, members, &mut diss);
    let (merge, order) = hcass2(n, &ia, &ib);
    let merge = DMatrix::from_fn(n - 1, 2, |i, j| merge[i][j] as f64);
    let field = |name: &str| match d {
        Value::List(l) => l.field(name).cloned().unwrap_or(Value::Null),
        _ => Value::Null,
    };
    let (dist_method, labels) = (field("method"), field("labels"));
    Ok(Value::List(List::record(
        "hclust",
        vec![
            ("merge", Value::Mat(merge)),
            ("height", Value::Num(crit)),
            (
                "order",
                Value::Num(order.iter().map(|&o| o as f64).collect()),
            ),
            ("method", Value::string(METHODS[method])),
            ("dist.method", dist_method),
            // R's hclust: `labels = attr(d, "Labels")`.
            ("labels", labels),
        ],
    )))
}

/// Position in `diss` of the pair (i, j), 1-based with i < j (Fortran's
/// `IOFFST` minus one).
fn ioffst(n: usize, i: usize, j: usize) -> usize {
    j + (i - 1) * n - (i * (i + 1)) / 2 - 1
}

/// Fortran `HCLUST`: returns the agglomerations (ia < ib, 1-based, each
/// cluster named by its smallest member) and their heights. Indices stay
/// 1-based, as in the Fortran, so that ties break exactly as in R.
fn agglomerate(
    n: usize,
    iopt: usize,
    mut membr: Vec<f64>,
    diss: &mut [f64],
) -> (Vec<usize>, Vec<usize>, Vec<f64>) {
    const INF: f64 = 1e300;
    let is_ward = iopt == 1 || iopt == 8;
    // 1-based arrays: slot 0 unused.
    membr.insert(0, 0.0);
    let mut flag = vec![true; n + 1];
    let mut nn = vec![0usize; n + 1];
    let mut disnn = vec![0.0f64; n + 1];
    let mut ia = Vec::with_capacity(n - 1);
    let mut ib = Vec::with_capacity(n - 1);
    let mut crit = Vec::with_capacity(n - 1);
    let (mut im, mut jj, mut jm) = (0usize, 0usize, 0usize);

    if iopt == 8 {
        for v in diss.iter_mut() {
            *v *= *v;
        }
    }
    // Nearest neighbours to the right of each i.
    for i in 1..n {
        let mut dmin = INF;
        for j in i + 1..=n {
            let v = diss[ioffst(n, i, j)];
            if dmin > v {
                dmin = v;
                jm = j;
            }
        }
        nn[i] = jm;
        disnn[i] = dmin;
    }

    let mut ncl = n;
    while ncl > 1 {
        let mut dmin = INF;
        for i in 1..n {
            if flag[i] && disnn[i] < dmin {
                dmin = disnn[i];
                im = i;
                jm = nn[i];
            }
        }
        ncl -= 1;
        let i2 = im.min(jm);
        let j2 = im.max(jm);
        ia.push(i2);
        ib.push(j2);
        crit.push(if iopt == 8 { dmin.sqrt() } else { dmin });
        flag[j2] = false;

        // Lance–Williams update of the new cluster's dissimilarities.
        dmin = INF;
        for k in 1..=n {
            if !flag[k] || k == i2 {
                continue;
            }
            let ind1 = if i2 < k {
                ioffst(n, i2, k)
            } else {
                ioffst(n, k, i2)
            };
            let ind2 = if j2 < k {
                ioffst(n, j2, k)
            } else {
                ioffst(n, k, j2)
            };
            let d12 = diss[ioffst(n, i2, j2)];
            let (d1, d2) = (diss[ind1], diss[ind2]);
            let (mi, mj, mk) = (membr[i2], membr[j2], membr[k]);
            diss[ind1] = if is_ward {
                ((mi + mk) * d1 + (mj + mk) * d2 - mk * d12) / (mi + mj + mk)
            } else {
                match iopt {
                    2 => d1.min(d2),
                    3 => d1.max(d2),
                    4 => (mi * d1 + mj * d2) / (mi + mj),
                    5 => (d1 + d2) / 2.0,
                    6 => ((d1 + d2) - d12 / 2.0) / 2.0,
                    _ => (mi * d1 + mj * d2 - mi * mj * d12 / (mi + mj)) / (mi + mj),
                }
            };
            if i2 < k {
                if diss[ind1] < dmin {
                    dmin = diss[ind1];
                    jj = k;
                }
            } else if diss[ind1] < disnn[k] {
                // Non-monotone methods (centroid, median) can make i2 the
                // nearest neighbour of an earlier k.
                disnn[k] = diss[ind1];
                nn[k] = i2;
            }
        }
        membr[i2] += membr[j2];
        disnn[i2] = dmin;
        nn[i2] = jj;

        // Redetermine nearest neighbours that pointed at i2 or j2.
        for i in 1..n {
            if flag[i] && (nn[i] == i2 || nn[i] == j2) {
                let mut dmin = INF;
                for j in i + 1..=n {
                    if flag[j] {
                        let v = diss[ioffst(n, i, j)];
                        if v < dmin {
                            dmin = v;
                            jj = j;
                        }
                    }
                }
                nn[i] = jj;
                disnn[i] = dmin;
            }
        }
    }
    (ia, ib, crit)
}

/// Fortran `HCASS2`: R's `merge` rows and the dendrogram `order`.
fn hcass2(n: usize, ia: &[usize], ib: &[usize]) -> (Vec<[i64; 2]>, Vec<i64>) {
    let steps = n - 1;
    let mut iia: Vec<i64> = ia.iter().map(|&v| v as i64).collect();
    let mut iib: Vec<i64> = ib.iter().map(|&v| v as i64).collect();
    // A cluster is named by its smallest observation; after step i that
    // name means step i (marked negative here, sign flipped below).
    for i in 0..steps.saturating_sub(1) {
        let k = ia[i].min(ib[i]);
        for j in i + 1..steps {
            if ia[j] == k {
                iia[j] = -(i as i64 + 1);
            }
            if ib[j] == k {
                iib[j] = -(i as i64 + 1);
            }
        }
    }
    for i in 0..steps {
        iia[i] = -iia[i];
        iib[i] = -iib[i];
    }
    for i in 0..steps {
        if iia[i] > 0 && iib[i] < 0 {
            std::mem::swap(&mut iia[i], &mut iib[i]);
        }
        if iia[i] > 0 && iib[i] > 0 {
            let (k1, k2) = (iia[i].min(iib[i]), iia[i].max(iib[i]));
            iia[i] = k1;
            iib[i] = k2;
        }
    }
    // Expand the last merge recursively, left to right.
    let mut order: Vec<i64> = Vec::with_capacity(n);
    order.push(iia[steps - 1]);
    order.push(iib[steps - 1]);
    for i in (1..steps).rev() {
        if let Some(j) = order.iter().position(|&o| o == i as i64) {
            order[j] = iia[i - 1];
            order.insert(j + 1, iib[i - 1]);
        }
    }
    let merge = (0..steps).map(|i| [iia[i], iib[i]]).collect();
    (merge, order.into_iter().map(|o| -o).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ioffst_is_r_dist_order() {
        // n = 4: (1,2) (1,3) (1,4) (2,3) (2,4) (3,4)
        assert_eq!(ioffst(4, 1, 2), 0);
        assert_eq!(ioffst(4, 1, 4), 2);
        assert_eq!(ioffst(4, 2, 3), 3);
        assert_eq!(ioffst(4, 3, 4), 5);
    }

    #[test]
    fn hcass2_names_steps_and_orders() {
        // R-SEMANTICS 5-point example: (1,2) (3,4) (1,3) (1,5).
        let (merge, order) = hcass2(5, &[1, 3, 1, 1], &[2, 4, 3, 5]);
        assert_eq!(merge, vec![[-1, -2], [-3, -4], [1, 2], [-5, 3]]);
        assert_eq!(order, vec![5, 1, 2, 3, 4]);
    }
}
