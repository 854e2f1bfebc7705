//! Which steps' values are symmetric matrices, known from the expressions
//! that make them: eigen's cost depends on it, and R only checks
//! `isSymmetric(x)` at run time, so the plan must know it from the file.
//!
//! Only rules that hold for every input are used: `crossprod(x)`, `var(x)`,
//! `t(x) %*% x`, `x %*% t(x)`, `diag(v)`, the inverse of a symmetric
//! matrix, `a + t(a)`, element-wise arithmetic of symmetric matrices and
//! scalars, and names of steps known to be symmetric. Anything else
//! (`x %*% y`, data read from a file) is not known to be symmetric.

use std::collections::HashMap;

use crate::kernels::{registry, ArgValue, Args, ShapeCtx, Type};
use crate::workflow::{sexpr, BinaryOp, Expr, ExprKind};

/// What the rules may consult: which steps are symmetric, and the types of
/// names in scope (`diag(x)` of a matrix is its diagonal, a vector).
pub(super) struct Scope<'a> {
    pub steps: &'a HashMap<&'a str, bool>,
    pub types: &'a HashMap<&'a str, Type>,
    pub file: &'a crate::diagnostic::SourceFile,
    pub ctx: &'a ShapeCtx<'a>,
}

struct ExprArg<'a>(&'a Expr);

impl ArgValue for ExprArg<'_> {
    type Target = Expr;
    fn target(&self) -> &Expr {
        self.0
    }
}

/// A call's arguments matched to its function's formals, as R would.
fn matched<'e>(func: &str, args: &'e [crate::workflow::Arg]) -> Option<Args<ExprArg<'e>>> {
    let kernel = registry().get(func)?;
    let given = args
        .iter()
        .map(|a| (a.name.clone(), ExprArg(&a.value)))
        .collect();
    Args::match_call(kernel.name, kernel.params, given).ok()
}

fn same(a: &Expr, b: &Expr) -> bool {
    sexpr(a) == sexpr(b)
}

/// `t(x)`'s argument.
fn transposed(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        // t has one formal: its one argument is `x`, named or not.
        ExprKind::Call { func, args, .. } if func == "t" && args.len() == 1 => Some(&args[0].value),
        _ => None,
    }
}

fn is_null(e: Option<&Expr>) -> bool {
    e.is_none_or(|e| matches!(e.kind, ExprKind::Null))
}

/// Whether `e`'s value is known to be a symmetric matrix (or a scalar,
/// which broadcasts without breaking symmetry).
pub(super) fn symmetric(e: &Expr, scope: &Scope) -> bool {
    match &e.kind {
        ExprKind::Name(n) => scope.steps.get(n.as_str()).copied().unwrap_or(false),
        ExprKind::Unary { expr, .. } => symmetric(expr, scope),
        ExprKind::Binary { op, lhs, rhs } => match op {
            // AᵀA and AAᵀ always; AA when A is symmetric.
            BinaryOp::MatMul => {
                transposed(lhs).is_some_and(|x| same(x, rhs))
                    || transposed(rhs).is_some_and(|x| same(x, lhs))
                    || (same(lhs, rhs) && symmetric(lhs, scope))
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Pow => {
                let part = |e: &Expr| scalar(e, scope) || symmetric(e, scope);
                // a − t(a) is antisymmetric, a / t(a) neither.
                let with_own_transpose = matches!(op, BinaryOp::Add | BinaryOp::Mul)
                    && (transposed(lhs).is_some_and(|x| same(x, rhs))
                        || transposed(rhs).is_some_and(|x| same(x, lhs)));
                (part(lhs) && part(rhs) && !(scalar(lhs, scope) && scalar(rhs, scope)))
                    || with_own_transpose
            }
            _ => false,
        },
        ExprKind::Call { func, args, .. } => {
            let Some(a) = matched(func, args) else {
                return false;
            };
            match func.as_str() {
                "crossprod" => match a.get("x") {
                    Some(x) => is_null(a.get("y")) || a.get("y").is_some_and(|y| same(x, y)),
                    None => false,
                },
                "var" => match a.get("x") {
                    Some(x) => is_null(a.get("y")) || a.get("y").is_some_and(|y| same(x, y)),
                    None => false,
                },
                // A diagonal matrix, unless `x` is a matrix (its diagonal).
                "diag" => match a.get("x") {
                    None => true,
                    Some(x) => !is_matrix(x, scope),
                },
                // The inverse of a symmetric matrix is symmetric.
                "solve" => is_null(a.get("b")) && a.get("a").is_some_and(|x| symmetric(x, scope)),
                "t" => a.get("x").is_some_and(|x| symmetric(x, scope)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether argument `name` of a call to `func` is known to be symmetric.
pub(super) fn arg_symmetric(
    func: &str,
    args: &[crate::workflow::Arg],
    name: &str,
    scope: &Scope,
) -> bool {
    let has_formal = registry()
        .get(func)
        .is_some_and(|k| k.params.iter().any(|p| p.name == name));
    has_formal
        && matched(func, args)
            .and_then(|a| a.get(name).map(|x| symmetric(x, scope)))
            .unwrap_or(false)
}

/// A single number (a constant, a loop's variable): broadcast over a
/// matrix, it keeps it symmetric.
fn scalar(e: &Expr, scope: &Scope) -> bool {
    match &e.kind {
        ExprKind::Num(_) => true,
        ExprKind::Name(n) => matches!(
            scope.types.get(n.as_str()),
            Some(Type::Num { len: Some(1), .. })
        ),
        ExprKind::Unary { expr, .. } => scalar(expr, scope),
        _ => false,
    }
}

fn is_matrix(e: &Expr, scope: &Scope) -> bool {
    let ty = match &e.kind {
        ExprKind::Name(n) => scope.types.get(n.as_str()).cloned(),
        _ => super::infer(e, scope.types, scope.file, scope.ctx).ok(),
    };
    // Unknown: the diagonal of a matrix is the likelier reading of a
    // non-constant argument, and not claiming symmetry is the safe side.
    ty.is_none_or(|t| matches!(t, Type::Mat { .. } | Type::Any))
}
