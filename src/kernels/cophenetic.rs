//! `loadings(x)` and `cophenetic(x)`: R 4.2.2's stats/R/loadings.R
//! (`x$loadings`, a princomp or factanal result's matrix; R's class
//! "loadings" only changes how it prints) and stats/R/cophenetic.R's
//! `cophenetic.default` over an hclust tree: each merge's height written
//! between every member of its two branches, read back as `as.dist` of
//! the symmetric matrix, labelled by the tree's labels.

use super::names::bare;
use super::value::List;
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "loadings",
        params: &[req("x"), super::DOTS],
        random: false,
        shape: loadings_shape,
        eval: loadings_eval,
    },
    Kernel {
        name: "cophenetic",
        params: &[req("x")],
        random: false,
        shape: cophenetic_shape,
        eval: cophenetic_eval,
    },
];

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

fn loadings_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    match args.get("x") {
        None => Err(missing("x")),
        Some(Value::List(l)) => Ok(l.field("loadings").cloned().unwrap_or(Value::Null)),
        Some(Value::Null) => Ok(Value::Null),
        Some(_) => Err(KernelError::new("$ operator is invalid for atomic vectors")),
    }
}

fn loadings_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        Some(Type::Record { fields, .. }) => fields
            .iter()
            .find(|(n, _)| n == "loadings")
            .map_or(Type::Null, |(_, t)| t.clone()),
        Some(Type::Null) => Type::Null,
        Some(t @ (Type::Num { .. } | Type::Mat { .. } | Type::Str { .. } | Type::Bool { .. })) => {
            return Err(args.error(
                "x",
                format!("$ operator is invalid for atomic vectors: {}", t.describe()),
            ))
        }
        _ => Type::Any,
    })
}

fn not_hclust() -> KernelError {
    KernelError::new("flowcast's cophenetic takes an hclust() result as 'x'")
}

/// An hclust tree as cophenetic reads it.
struct Tree {
    /// n - 1 rows of two signed ids.
    merge: Vec<[i64; 2]>,
    height: Vec<f64>,
    nobs: usize,
}

fn tree(x: &Value) -> Result<Tree, KernelError> {
    let Value::List(l) = bare(x) else {
        return Err(not_hclust());
    };
    let merge = match l.field("merge").map(bare) {
        Some(Value::Mat(m)) if m.ncols() == 2 => m,
        _ => return Err(not_hclust()),
    };
    let height = l
        .field("height")
        .and_then(Value::as_f64_slice)
        .ok_or_else(not_hclust)?;
    let nobs = l.field("order").map_or(0, Value::len);
    let steps = merge.nrows();
    if nobs < 2 || steps != nobs - 1 || height.len() != steps {
        return Err(not_hclust());
    }
    // Each id a leaf (-1..-nobs) or an earlier merge (1..i-1), as hclust
    // writes them.
    let mut rows = Vec::with_capacity(steps);
    for i in 0..steps {
        let mut r = [0i64; 2];
        for (k, slot) in r.iter_mut().enumerate() {
            let v = merge[(i, k)];
            let ok =
                v.fract() == 0.0 && ((v < 0.0 && -v <= nobs as f64) || (v > 0.0 && v <= i as f64));
            if !ok {
                return Err(not_hclust());
            }
            *slot = v as i64;
        }
        rows.push(r);
    }
    Ok(Tree {
        merge: rows,
        height: height.into_owned(),
        nobs,
    })
}

fn cophenetic_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    let Tree {
        merge,
        height,
        nobs,
    } = tree(x)?;
    // `dimnames(out) <- list(x$labels, x$labels)` before as.dist.
    let labels = match bare(x) {
        Value::List(l) => l.field("labels").cloned().unwrap_or(Value::Null),
        _ => Value::Null,
    };
    let mut out = vec![0.0; nobs * nobs];
    let mut ilist: Vec<Vec<usize>> = Vec::with_capacity(merge.len());
    for (i, inds) in merge.iter().enumerate() {
        let ids = |v: i64| -> Vec<usize> {
            if v < 0 {
                vec![(-v) as usize - 1]
            } else {
                ilist[v as usize - 1].clone()
            }
        };
        let (ids1, ids2) = (ids(inds[0]), ids(inds[1]));
        for &a in &ids1 {
            for &b in &ids2 {
                out[a + b * nobs] = height[i];
            }
        }
        ilist.push([ids1, ids2].concat());
    }
    // as.dist(out + t(out)): the lower triangle column by column.
    let mut values = Vec::with_capacity(nobs * (nobs - 1) / 2);
    for j in 0..nobs {
        for i in j + 1..nobs {
            values.push(out[i + j * nobs] + out[j + i * nobs]);
        }
    }
    Ok(Value::List(List::record(
        "dist",
        vec![
            ("values", Value::Num(values)),
            ("size", Value::scalar(nobs as f64)),
            ("labels", labels),
        ],
    )))
}

fn cophenetic_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let n = match args.ty("x") {
        Some(Type::Record { class, fields }) if class == "hclust" => fields
            .iter()
            .find(|(n, _)| n == "order")
            .and_then(|(_, t)| t.len()),
        Some(Type::Record { .. } | Type::Any | Type::List { .. }) => None,
        Some(t) => {
            return Err(args.error(
                "x",
                format!(
                    "flowcast's cophenetic takes an hclust() result as 'x': {}",
                    t.describe()
                ),
            ))
        }
        None => None,
    };
    Ok(super::clustering::dist_type(n, Vec::new()))
}
