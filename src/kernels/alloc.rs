//! Memory for results: a kernel whose result cannot be allocated fails its
//! step with R's "cannot allocate vector of size …" instead of aborting the
//! process (Rust aborts when an allocation fails).
//!
//! Two lines of defence. Before a kernel runs, [`room_for_result`] asks its
//! shape rule how large the result will be, given the actual arguments, and
//! tries to reserve that much without touching it. (Reserving more, for
//! working copies, would refuse values that fit, such as `c(x, y)` of two
//! 1.2 GB vectors under a 6 GB limit.) Kernels that need much more than
//! their result (`sample`'s permutation) check with [`ensure_room`], and
//! kernels that build large vectors reserve them through
//! [`vec_with_capacity`].

use super::args::Args;
use super::value::{List, Value};
use super::{Kernel, KernelError, ShapeCtx, Type};
use std::path::Path;
use std::sync::OnceLock;

/// Results smaller than this are not checked before the kernel runs: an
/// allocation this small failing means the machine is out of memory anyway.
const CHECK_FROM: f64 = 64.0 * 1024.0 * 1024.0;

/// R's message for a vector of `bytes` that cannot be allocated.
pub fn cannot_allocate(bytes: f64) -> KernelError {
    let kb = bytes / 1024.0;
    KernelError::new(if kb > 1024.0 * 1024.0 {
        format!(
            "cannot allocate vector of size {:.1} Gb",
            kb / 1024.0 / 1024.0
        )
    } else if kb > 1024.0 {
        format!("cannot allocate vector of size {:.1} Mb", kb / 1024.0)
    } else {
        format!("cannot allocate vector of size {kb:.0} Kb")
    })
}

/// R's longest vector, R_XLEN_T_MAX: 2^52 elements.
pub const R_XLEN_T_MAX: f64 = 4_503_599_627_370_496.0;

/// R's asVecSize for a number, with do_makevector's refusal of a negative
/// size: a length R can represent, whether or not it can be allocated.
pub fn as_vec_size(d: f64) -> Result<usize, String> {
    if d.is_nan() {
        return Err("vector size cannot be NA/NaN".into());
    }
    if d.is_infinite() {
        return Err("vector size cannot be infinite".into());
    }
    if d > R_XLEN_T_MAX {
        return Err("vector size specified is too large".into());
    }
    // (R_xlen_t) d truncates: -0.5 is 0, -1 is refused.
    if d <= -1.0 {
        return Err("invalid 'length' argument".into());
    }
    Ok(d as usize)
}

/// An empty vector with room for `n` elements, or R's error.
pub fn vec_with_capacity<T>(n: usize) -> Result<Vec<T>, KernelError> {
    let bytes = n as f64 * std::mem::size_of::<T>() as f64;
    if bytes > memory_limit() {
        return Err(cannot_allocate(bytes));
    }
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| cannot_allocate(bytes))?;
    Ok(v)
}

/// `n` copies of `x`, or R's error.
pub fn filled<T: Clone>(n: usize, x: T) -> Result<Vec<T>, KernelError> {
    let mut v = vec_with_capacity(n)?;
    v.resize(n, x);
    Ok(v)
}

/// Fails like R unless `bytes` could be allocated now: for a kernel's
/// working memory, beyond its result.
pub fn ensure_room(bytes: f64) -> Result<(), KernelError> {
    if bytes < CHECK_FROM || can_allocate(bytes) {
        Ok(())
    } else {
        Err(cannot_allocate(bytes))
    }
}

/// Whether working memory of `bytes` in all (a table a kernel grows
/// piece by piece, as nmath's wilcox.c does) stays within a quarter of
/// the memory one value may take: R would go on until the machine is out
/// of memory, which flowcast must not.
pub fn within_working_share(bytes: f64) -> bool {
    bytes <= memory_limit() / 4.0
}

/// Whether `bytes` could be allocated now: no more than the machine has,
/// and reserved (address space only, no page is touched) and given back at
/// once.
fn can_allocate(bytes: f64) -> bool {
    // NaN too.
    if bytes.is_nan() || bytes >= isize::MAX as f64 || bytes > memory_limit() {
        return false;
    }
    Vec::<u8>::new().try_reserve_exact(bytes as usize).is_ok()
}

/// The most one value may take: the machine's memory and swap, or its
/// cgroup's limit when lower. Linux refuses a larger single request under
/// its default overcommit, so glibc's malloc fails where R does; mimalloc
/// maps huge blocks without reserving them, so a reservation alone would
/// succeed and filling it bring the OOM killer instead of R's error.
fn memory_limit() -> f64 {
    static LIMIT: OnceLock<f64> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let machine = read("/proc/meminfo").and_then(|text| {
            let kb = |key: &str| -> Option<f64> {
                let line = text.lines().find(|l| l.starts_with(key))?;
                line[key.len()..]
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse()
                    .ok()
            };
            Some((kb("MemTotal:")? + kb("SwapTotal:").unwrap_or(0.0)) * 1024.0)
        });
        // cgroup v2, then v1; "max" (no limit) does not parse.
        let cgroup = [
            "/sys/fs/cgroup/memory.max",
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        ]
        .iter()
        .find_map(|p| read(p)?.trim().parse::<f64>().ok());
        [machine, cgroup]
            .into_iter()
            .flatten()
            .fold(f64::INFINITY, f64::min)
    })
}

/// Fails like R when the result `kernel` would make of the arguments
/// `matched` could not be allocated. Unknown sizes, and arguments the shape
/// rule refuses, pass: the kernel then decides.
pub fn room_for_result(
    kernel: &Kernel,
    matched: &Args<&Value>,
    base_dir: &Path,
) -> Result<(), KernelError> {
    if bounded_by_arguments(kernel.name) || sized_in_r_bytes(kernel.name) {
        return Ok(());
    }
    let typed = matched.map(|v| type_hint(v));
    let Ok(ty) = (kernel.shape)(
        &typed,
        &ShapeCtx {
            base_dir,
            written: &[],
            closure: None,
            closure2: None,
        },
    ) else {
        return Ok(());
    };
    match type_bytes(&ty) {
        Some(bytes) if bytes >= CHECK_FROM && !can_allocate(bytes) => Err(cannot_allocate(bytes)),
        _ => Ok(()),
    }
}

/// Functions that check their result's room themselves, in R's bytes
/// (4 for an integer or a logical, 8 for a string's pointer), so that the
/// size in R's message is R's.
fn sized_in_r_bytes(func: &str) -> bool {
    matches!(
        func,
        "numeric" | "double" | "integer" | "logical" | "character" | "vector"
    )
}

/// Functions whose result is never larger than their largest argument:
/// element-wise operators and functions, and reductions to one value. A
/// result that size fits wherever its argument did, so asking the shape
/// rule first (paid on every call, and felt where a closure runs once per
/// element) could find nothing.
fn bounded_by_arguments(func: &str) -> bool {
    matches!(
        func,
        "+" | "-"
            | "*"
            | "/"
            | "^"
            | "%%"
            | "%/%"
            | "=="
            | "!="
            | "<"
            | ">"
            | "<="
            | ">="
            | "&"
            | "|"
            | "!"
            | "&&"
            | "||"
            | "xor"
            | "abs"
            | "sqrt"
            | "exp"
            | "log"
            | "log2"
            | "log10"
            | "log1p"
            | "expm1"
            | "asin"
            | "acos"
            | "sinh"
            | "cosh"
            | "tanh"
            | "asinh"
            | "acosh"
            | "atanh"
            | "cospi"
            | "sinpi"
            | "tanpi"
            | "digamma"
            | "trigamma"
            | "floor"
            | "ceiling"
            | "trunc"
            | "round"
            | "signif"
            | "sign"
            | "min"
            | "max"
            | "sum"
            | "mean"
            | "prod"
            | "length"
            | "any"
            | "all"
            | "is.na"
            | "is.nan"
            | "is.finite"
            | "is.infinite"
    )
}

/// Bytes a value of type `t` takes, when its size is known.
pub fn type_bytes(t: &Type) -> Option<f64> {
    let n = |len: Option<usize>| len.map(|l| l as f64);
    Some(match t {
        Type::Null | Type::Any | Type::Formula { .. } => return None,
        Type::Num { len, .. } => n(*len)? * 8.0,
        Type::Mat { rows, cols } => n(*rows)? * n(*cols)? * 8.0,
        Type::Complex { len } => n(*len)? * 16.0,
        Type::ComplexMat { rows, cols } => n(*rows)? * n(*cols)? * 16.0,
        Type::Bool { len, .. } => n(*len)?,
        Type::BoolMat { rows, cols } => n(*rows)? * n(*cols)?,
        Type::Factor { len, .. } => n(*len)? * 4.0,
        Type::Str { len, .. } => n(*len)? * std::mem::size_of::<String>() as f64,
        Type::StrMat { rows, cols } => n(*rows)? * n(*cols)? * std::mem::size_of::<String>() as f64,
        Type::List { len, elem } => n(*len)? * type_bytes(elem).unwrap_or(0.0),
        Type::Record { fields, .. } => fields
            .iter()
            .map(|(_, f)| type_bytes(f).unwrap_or(0.0))
            .sum(),
    })
}

/// Longest vector whose values the shape rules see: sizes and counts
/// (`rnorm(n)`, `diag(1, n)`) are single numbers.
const HINT_VALUES: usize = 16;

/// What a shape rule needs of an argument's value to size the result:
/// dimensions, and the values of short numeric vectors. Strings carry no
/// values, so `read.csv` does not read its file a second time.
fn type_hint(v: &Value) -> Type {
    let len = Some(v.len());
    match v {
        Value::Named(n) => type_hint(&n.value),
        Value::Null => Type::Null,
        Value::Num(x) if x.len() <= HINT_VALUES => Type::num_const(x.clone()),
        Value::Num(_) => Type::Num { len, value: None },
        Value::Mat(m) => Type::mat(m.nrows(), m.ncols()),
        Value::Complex(_) => Type::Complex { len },
        Value::ComplexMat(m) => Type::ComplexMat {
            rows: Some(m.nrows()),
            cols: Some(m.ncols()),
        },
        Value::Str(_) => Type::Str { len, value: None },
        Value::Bool(b) => Type::Bool {
            len,
            value: (b.len() <= HINT_VALUES).then(|| b.clone()),
        },
        Value::StrMat(m) => Type::StrMat {
            rows: Some(m.nrows()),
            cols: Some(m.ncols()),
        },
        Value::BoolMat(m) => Type::BoolMat {
            rows: Some(m.nrows()),
            cols: Some(m.ncols()),
        },
        Value::List(List {
            class: Some(class),
            names: Some(names),
            items,
            ..
        }) => Type::Record {
            class: class.clone(),
            fields: names
                .iter()
                .cloned()
                .zip(items.iter().map(type_hint))
                .collect(),
        },
        Value::List(l) => Type::List {
            len,
            elem: Box::new(l.items.first().map_or(Type::Any, type_hint)),
        },
        Value::Formula(_) | Value::Lang(_) => Type::Any,
        Value::Factor(f) => Type::Factor {
            len,
            levels: Some(f.levels.clone()),
            ordered: f.ordered,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_rs() {
        assert_eq!(
            cannot_allocate(8e9).0,
            "cannot allocate vector of size 7.5 Gb"
        );
        assert_eq!(
            cannot_allocate(100.0 * 1024.0 * 1024.0).0,
            "cannot allocate vector of size 100.0 Mb"
        );
        assert_eq!(
            cannot_allocate(10240.0).0,
            "cannot allocate vector of size 10 Kb"
        );
    }

    #[test]
    fn an_absurd_size_cannot_be_allocated() {
        // 8 TB: `matrix(0, 1e6, 1e6)`. Address space for it can be had,
        // the memory cannot.
        assert!(!can_allocate(8e12));
        assert!(vec_with_capacity::<f64>(1_000_000_000_000).is_err());
        assert!(!can_allocate(1e30));
        assert!(!can_allocate(f64::NAN));
        assert!(can_allocate(1024.0));
        assert!(vec_with_capacity::<f64>(usize::MAX / 2).is_err());
    }
}
