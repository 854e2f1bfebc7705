//! Indexing: `x[i]`, `x[i, ]`, `x[, j]`, `x[i, j]`, `x[[i]]` and `x$name`,
//! with R's rules (1-based, negative indices drop, `drop = TRUE` for
//! matrices), and the matching shape rules.

use super::{KernelError, Type, Value};

/// A shape-rule failure: which index (0-based among the brackets' entries;
/// `None` for the target) and why.
pub type IndexError = (Option<usize>, String);

/// `x[...]`; `None` entries are empty indices (`x[i, ]`).
pub fn index(x: &Value, indices: &[Option<Value>]) -> Result<Value, KernelError> {
    let _ = (x, indices);
    Err(KernelError::new("indexing is not implemented yet"))
}

/// The type of `x[...]`.
pub fn index_type(x: &Type, indices: &[Option<Type>]) -> Result<Type, IndexError> {
    let _ = (x, indices);
    Ok(Type::Any)
}

/// `x[[i]]`.
pub fn index2(x: &Value, i: &Value) -> Result<Value, KernelError> {
    let _ = (x, i);
    Err(KernelError::new("indexing is not implemented yet"))
}

pub fn index2_type(x: &Type, i: &Type) -> Result<Type, IndexError> {
    let _ = (x, i);
    Ok(Type::Any)
}

/// `x$name`.
pub fn field(x: &Value, name: &str) -> Result<Value, KernelError> {
    match x {
        Value::List(l) => Ok(l.field(name).cloned().unwrap_or(Value::Null)),
        other => Err(KernelError::new(format!(
            "$ operator is invalid for atomic vectors ({})",
            other.type_name()
        ))),
    }
}

pub fn field_type(x: &Type, name: &str) -> Result<Type, IndexError> {
    match x {
        Type::Record { class, .. } => x
            .field(name)
            .cloned()
            .ok_or_else(|| (None, format!("a {class} result has no field `{name}`"))),
        Type::Any | Type::List { .. } => Ok(Type::Any),
        other => Err((
            None,
            format!(
                "$ operator is invalid for atomic vectors ({})",
                other.describe()
            ),
        )),
    }
}
