//! `cutree(tree, k, h)`: R's `cutree` (R code plus `hclust-utils.c`).
//! Groups are numbered by the first observation (in 1..n) that falls in
//! them, as R does.

use super::{record_field, KernelError, Type, Value};
use crate::kernels::args::{ArgError, Args};
use crate::kernels::ShapeCtx;
use nalgebra::DMatrix;

pub(super) fn shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let tree = args.ty("tree").unwrap_or(&Type::Any);
    let n = match tree {
        Type::Record { class, .. } if class == "hclust" => tree
            .field("merge")
            .and_then(Type::dims)
            .and_then(|(r, _)| r)
            .map(|r| r + 1),
        Type::Any => None,
        // R's `tree$merge` fails first on an atomic vector.
        other @ (Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Mat { .. } | Type::BoolMat { .. }) => {
            return Err(args.error(
                "tree",
                format!(
                    "$ operator is invalid for atomic vectors: cutree() needs an hclust object as 'tree', not {}",
                    other.describe()
                ),
            ))
        }
        other => {
            return Err(args.error(
                "tree",
                format!(
                    "invalid 'tree': cutree() needs an hclust object, not {}",
                    other.describe()
                ),
            ))
        }
    };
    let cuts = match (args.ty("k"), args.ty("h")) {
        (Some(k), _) if !matches!(k, Type::Null) => {
            if let (Some(n), Some(ks)) = (n, k.const_nums()) {
                if ks
                    .iter()
                    .any(|&k| !(k.trunc() >= 1.0 && k.trunc() <= n as f64))
                {
                    return Err(
                        args.error("k", format!("elements of 'k' must be between 1 and {n}"))
                    );
                }
            }
            k.len()
        }
        (_, Some(h)) if !matches!(h, Type::Null) => h.len(),
        _ => return Err(ArgError::call("either 'k' or 'h' must be specified")),
    };
    // One k gives a vector, several a matrix: unknown until k's length is.
    Ok(match cuts {
        Some(1) => n.map_or_else(Type::num_unknown, Type::num),
        Some(c) => Type::Mat {
            rows: n,
            cols: Some(c),
        },
        None => Type::Any,
    })
}

fn given<'a>(args: &'a Args<&Value>, name: &str) -> Option<&'a Value> {
    args.get(name).filter(|v| !matches!(v, Value::Null))
}

pub(super) fn eval(args: &Args<&Value>, _: &mut crate::kernels::Ctx) -> Result<Value, KernelError> {
    let tree = args.get("tree").unwrap_or(&Value::Null);
    let bad = "invalid 'tree' ('merge' component)";
    let merge = match record_field(tree, "hclust", "merge", bad)? {
        Value::Mat(m) if m.ncols() == 2 && m.nrows() >= 1 => m,
        _ => return Err(KernelError::new(bad)),
    };
    let n = merge.nrows() + 1;
    let ks: Vec<i64> = if given(args, "k").is_some() {
        let k = args.nums("k")?;
        let ok = !k.is_empty()
            && k.iter()
                .all(|&k| k.is_finite() && k.trunc() >= 1.0 && k.trunc() <= n as f64);
        if !ok {
            return Err(KernelError::new(format!(
                "elements of 'k' must be between 1 and {n}"
            )));
        }
        k.iter().map(|&k| k.trunc() as i64).collect()
    } else if given(args, "h").is_some() {
        let h = args.nums("h")?;
        let height = record_field(tree, "hclust", "height", bad)?
            .as_f64_slice()
            .ok_or_else(|| KernelError::new("invalid 'tree' ('height' component)"))?;
        if height.windows(2).any(|w| w[1] < w[0]) {
            return Err(KernelError::new(
                "the 'height' component of 'tree' is not sorted (increasingly)",
            ));
        }
        let mut ks = Vec::with_capacity(h.len());
        for &h in h.iter() {
            if h.is_nan() {
                return Err(KernelError::new("invalid 'h': NA"));
            }
            // R: which.max(c(height, Inf) > h), which is 1 (k = n) when
            // nothing is above h, i.e. h = Inf.
            let first = if h < f64::INFINITY {
                height.iter().position(|&x| x > h).unwrap_or(height.len())
            } else {
                0
            };
            ks.push(n as i64 - first as i64);
        }
        ks
    } else {
        return Err(KernelError::new("either 'k' or 'h' must be specified"));
    };
    let mut merge_i = Vec::with_capacity(n - 1);
    for i in 0..n - 1 {
        let (a, b) = (merge[(i, 0)], merge[(i, 1)]);
        let valid = |v: f64, i: usize| {
            v.fract() == 0.0 && v != 0.0 && (v < 0.0 && -v <= n as f64 || v > 0.0 && v <= i as f64)
        };
        if !valid(a, i) || !valid(b, i) {
            return Err(KernelError::new(bad));
        }
        merge_i.push([a as i64, b as i64]);
    }
    let groups = cut(n, &merge_i, &ks);
    if ks.len() == 1 {
        Ok(Value::Num(groups.into_iter().map(|g| g as f64).collect()))
    } else {
        Ok(Value::Mat(DMatrix::from_iterator(
            n,
            ks.len(),
            groups.into_iter().map(|g| g as f64),
        )))
    }
}

/// `C_cutree`: the group of each observation for each k, column-major.
fn cut(n: usize, merge: &[[i64; 2]], which: &[i64]) -> Vec<i64> {
    let mut ans = vec![0i64; n * which.len()];
    // 1-based, as in R: is observation l still a singleton, and the last
    // merge step that contains it.
    let mut sing = vec![true; n + 1];
    let mut m_nr = vec![0i64; n + 1];
    let mut z = vec![0i64; n + 1];
    for k in 1..n {
        let [mut m1, m2] = merge[k - 1];
        let k = k as i64;
        if m1 < 0 && m2 < 0 {
            m_nr[(-m1) as usize] = k;
            m_nr[(-m2) as usize] = k;
            sing[(-m1) as usize] = false;
            sing[(-m2) as usize] = false;
        } else if m1 < 0 || m2 < 0 {
            let j = if m1 < 0 {
                let j = -m1;
                m1 = m2;
                j
            } else {
                -m2
            };
            for v in m_nr.iter_mut().skip(1) {
                if *v == m1 {
                    *v = k;
                }
            }
            m_nr[j as usize] = k;
            sing[j as usize] = false;
        } else {
            for v in m_nr.iter_mut().skip(1) {
                if *v == m1 || *v == m2 {
                    *v = k;
                }
            }
        }
        let mut first: Option<usize> = None;
        for (j, &w) in which.iter().enumerate() {
            if w != n as i64 - k {
                continue;
            }
            match first {
                None => {
                    first = Some(j);
                    z.iter_mut().for_each(|v| *v = 0);
                    let mut nclust = 0;
                    for l in 1..=n {
                        ans[j * n + l - 1] = if sing[l] {
                            nclust += 1;
                            nclust
                        } else {
                            let g = m_nr[l] as usize;
                            if z[g] == 0 {
                                nclust += 1;
                                z[g] = nclust;
                            }
                            z[g]
                        };
                    }
                }
                Some(f) => {
                    for l in 0..n {
                        ans[j * n + l] = ans[f * n + l];
                    }
                }
            }
        }
    }
    for (j, &w) in which.iter().enumerate() {
        if w == n as i64 {
            for l in 0..n {
                ans[j * n + l] = l as i64 + 1;
            }
        }
    }
    ans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_numbered_by_first_appearance() {
        let merge = [[-1, -2], [-3, -4], [1, 2], [-5, 3]];
        assert_eq!(cut(5, &merge, &[2]), vec![1, 1, 1, 1, 2]);
        assert_eq!(cut(5, &merge, &[3]), vec![1, 1, 2, 2, 3]);
        assert_eq!(cut(5, &merge, &[5, 1]), vec![1, 2, 3, 4, 5, 1, 1, 1, 1, 1]);
    }
}
