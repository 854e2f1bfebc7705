//! `data.matrix(frame, rownames.force)`: a data frame as a numeric matrix,
//! as base R 4.2.2's data.matrix (base/R/dataframe.R) makes it: numbers as
//! they are, logicals and factors as integers (a factor's codes), text as
//! the codes of `factor(x)` (levels in R's collation).

use nalgebra::DMatrix;

use super::frame::{as_frame, frame_fields, nrow};
use super::names::dimnamed;
use super::{opt, req, ArgError, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "data.matrix",
    params: &[req("frame"), opt("rownames.force")],
    random: false,
    shape: data_matrix_shape,
    eval: data_matrix_eval,
}];

fn data_matrix_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("frame").unwrap_or(&Value::Null);
    let Some(l) = as_frame(x) else {
        // R: `if (!is.data.frame(frame)) return(as.matrix(frame))`.
        return super::registry().call("as.matrix", vec![(None, x)], ctx);
    };
    // rownames.force: FALSE none, TRUE always, NA only names that are not
    // R's automatic 1..n.
    let force = match args.get("rownames.force") {
        None => None,
        Some(Value::Bool(b)) if b.len() == 1 => b[0],
        Some(v) => match v.as_scalar() {
            Some(f) if f.is_nan() => None,
            Some(f) => Some(f != 0.0),
            None => None,
        },
    };
    let n = nrow(l);
    let rows = match force {
        Some(false) => None,
        Some(true) => Some(
            super::row_names::matrix_rownames(l)
                .unwrap_or_else(|| (1..=n).map(|i| i.to_string()).collect()),
        ),
        None => super::row_names::matrix_rownames(l),
    };
    let mut data = Vec::with_capacity(n * l.items.len());
    for (k, col) in l.items.iter().enumerate() {
        let col = super::names::bare(col);
        let codes: Vec<f64> = match col {
            Value::Num(v) => v.clone(),
            Value::Bool(b) => b
                .iter()
                .map(|x| x.map_or(super::value::NA, |t| f64::from(u8::from(t))))
                .collect(),
            Value::Factor(f) => f.integer_codes(),
            Value::Str(_) => match super::registry().call("factor", vec![(None, col)], ctx)? {
                Value::Factor(f) => f.integer_codes(),
                _ => return Err(KernelError::new("internal: factor() gave no factor")),
            },
            other => {
                let name = l
                    .names
                    .as_ref()
                    .and_then(|ns| ns.get(k))
                    .map_or("?", String::as_str);
                return Err(KernelError::new(format!(
                    "data.matrix() of column `{name}` ({}) is not supported: \
                     only vectors and factors become one column each",
                    other.type_name()
                )));
            }
        };
        if codes.len() != n {
            return Err(KernelError::new("internal: a column of another length"));
        }
        data.extend(codes);
    }
    let m = Value::Mat(DMatrix::from_vec(n, l.items.len(), data));
    Ok(dimnamed(m, rows, l.names.clone()))
}

fn data_matrix_shape(a: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let Some(x) = a.ty("frame") else {
        return Ok(Type::Any);
    };
    Ok(match frame_fields(x) {
        Some(fields) => Type::Mat {
            rows: fields.first().map_or(Some(0), |(_, t)| t.len()),
            cols: Some(fields.len()),
        },
        None => match x {
            Type::Num { len, .. } => Type::Mat {
                rows: *len,
                cols: Some(1),
            },
            Type::Mat { .. } => x.clone(),
            _ => Type::Any,
        },
    })
}
