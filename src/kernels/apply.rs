//! The apply family: `sapply`, `lapply`, `vapply`, `apply`, `mapply`,
//! `Map`, `Reduce`, `Filter`, `Position` and `Find`. FUN is a function's name (`sapply(x,
//! mean)`, `apply(m, 2, "sd")`) or a `function(i) expr` closure (see
//! [`super::fun`]); extra arguments pass on as R's `...` passes them.
//! FUN's shape rule, or its body's type, gives the result's shape before
//! the run. A closure that draws random numbers draws them from the step's
//! stream, in R's order: FUN on the first element first.

use super::args::{ArgError, Args};
use super::fun::{self, Fun, FunShape};
use super::value::List;
use super::{frame, opt, registry, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "sapply",
        params: &[
            req("X"),
            req("FUN"),
            DOTS,
            opt("simplify"),
            opt("USE.NAMES"),
        ],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
    Kernel {
        name: "lapply",
        params: &[req("X"), req("FUN"), DOTS],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
    Kernel {
        name: "vapply",
        params: &[
            req("X"),
            req("FUN"),
            req("FUN.VALUE"),
            DOTS,
            opt("USE.NAMES"),
        ],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
    Kernel {
        name: "apply",
        params: &[req("X"), req("MARGIN"), req("FUN"), DOTS, opt("simplify")],
        random: false,
        shape: apply_shape,
        eval: apply_eval,
    },
    Kernel {
        name: "mapply",
        params: &[
            req("FUN"),
            DOTS,
            opt("MoreArgs"),
            opt("SIMPLIFY"),
            opt("USE.NAMES"),
        ],
        random: false,
        shape: mapply_shape,
        eval: mapply_eval,
    },
    Kernel {
        name: "Map",
        params: &[req("f"), DOTS],
        random: false,
        shape: mapply_shape,
        eval: mapply_eval,
    },
    Kernel {
        name: "Reduce",
        params: &[
            req("f"),
            req("x"),
            opt("init"),
            opt("right"),
            opt("accumulate"),
            opt("simplify"),
        ],
        random: false,
        shape: reduce_shape,
        eval: reduce_eval,
    },
    Kernel {
        name: "replicate",
        params: &[req("n"), req("expr"), opt("simplify")],
        random: false,
        shape: replicate_shape,
        eval: replicate_eval,
    },
    Kernel {
        name: "do.call",
        params: &[req("what"), req("args"), opt("quote"), opt("envir")],
        random: false,
        shape: do_call_shape,
        eval: do_call_eval,
    },
    Kernel {
        name: "Filter",
        params: &[req("f"), req("x")],
        random: false,
        shape: filter_shape,
        eval: filter_eval,
    },
    Kernel {
        name: "Position",
        params: &[req("f"), req("x"), opt("right"), opt("nomatch")],
        random: false,
        shape: position_shape,
        eval: position_eval,
    },
    Kernel {
        name: "Find",
        params: &[req("f"), req("x"), opt("right"), opt("nomatch")],
        random: false,
        shape: position_shape,
        eval: position_eval,
    },
    Kernel {
        name: "simplify2array",
        params: &[req("x"), opt("higher"), opt("except")],
        random: false,
        shape: simplify2array_shape,
        eval: simplify2array_eval,
    },
];

/// R 4.2.2's `simplify2array(x, higher = TRUE)` (sapply.R) on a list; any
/// other value is its own `unlist`.
fn simplify2array_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let higher = args.bool_or("higher", true)?;
    match args.get("x") {
        Some(Value::List(l)) if l.items.is_empty() => Ok(Value::List(l.clone())),
        Some(Value::List(l)) => {
            let items: Vec<Value> = l
                .items
                .iter()
                .cloned()
                .map(super::names::strip_value)
                .collect();
            simplify(items, higher, ctx)
        }
        Some(v) => Ok(v.clone()),
        None => Err(KernelError::new(
            "argument \"x\" is missing, with no default",
        )),
    }
}

fn simplify2array_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    match args.ty("x") {
        Some(t @ (Type::Num { .. } | Type::Bool { .. } | Type::Str { .. })) => Ok(t.clone()),
        _ => Ok(Type::Any),
    }
}

/// FUN (or `f`) of the call, which every function of the family requires.
fn fun_of<'f>(args: &Args<&Value>, ctx: &Ctx<'f>) -> Result<Fun<'f>, KernelError> {
    let formal = match args.func {
        "mapply" => "FUN",
        "do.call" => "what",
        f if f.ends_with("apply") => "FUN",
        _ => "f",
    };
    fun::resolve(args.get(formal), ctx)?.ok_or_else(|| {
        KernelError::new(format!("argument \"{formal}\" is missing, with no default"))
    })
}

/// The elements of X as R's `X[[i]]` gives them.
fn elements(x: &Value) -> Result<Vec<Value>, KernelError> {
    Ok(match x {
        Value::List(l) => l.items.clone(),
        Value::Null => Vec::new(),
        Value::Formula(_) | Value::Lang(_) => return Err(KernelError::new("X must be a vector")),
        // What `x[[i]]` gives for each i, without asking for each.
        Value::Num(d) => d.iter().map(|&v| Value::Num(vec![v])).collect(),
        other => (0..other.len())
            .map(|i| super::index::index2(other, &Value::scalar((i + 1) as f64)))
            .collect::<Result<_, _>>()?,
    })
}

/// Which dimensions of a matrix `apply` runs over, as R's apply reads
/// MARGIN: `d[MARGIN]` are the answer's dimensions and `d[-MARGIN]` the
/// slice's, so a negative MARGIN names the dimensions FUN is handed.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Margin {
    Rows,
    Cols,
    /// `MARGIN = c(1, 2)`: FUN on each element, in X's column-major order.
    Cells,
    /// `MARGIN = c(2, 1)`: FUN on each element of `t(X)`.
    CellsT,
    /// No dimension (`MARGIN = 0`): R reshapes X to one slice of one
    /// element, which only a 1 x 1 X survives.
    Whole,
}

/// MARGIN's numbers (NaN for NA) as apply.R reads them, with the errors
/// its subscripting and `aperm(X, c(s.call, s.ans))` give: R's indexing
/// truncates, drops zeros and refuses signs mixed.
fn margin(m: &[f64]) -> Result<Margin, String> {
    let no_match = || "'MARGIN' does not match dim(X)".to_string();
    let m: Vec<f64> = m.iter().map(|x| x.trunc()).collect();
    let na = m.iter().any(|x| x.is_nan());
    let pos = m.iter().any(|&x| x > 0.0);
    let neg = m.iter().any(|&x| x < 0.0);
    // MARGIN or -MARGIN mixes a negative with a positive or an NA.
    if (pos && neg) || (na && (pos || neg)) {
        return Err("only 0's may be mixed with negative subscripts".into());
    }
    if na || m.iter().any(|&x| x.abs() > 2.0) {
        return Err(no_match());
    }
    let picked: Vec<usize> = m
        .iter()
        .filter(|&&x| x != 0.0)
        .map(|&x| x.abs() as usize)
        .collect();
    let rest = |d: &Vec<usize>| (1..=2).filter(|i| !d.contains(i)).collect::<Vec<usize>>();
    let (call, ans) = if neg {
        (picked.clone(), rest(&picked))
    } else if picked.is_empty() {
        // `d[-0]` is `d[0]`: no dimension either side.
        (Vec::new(), Vec::new())
    } else {
        (rest(&picked), picked)
    };
    match (call.len() + ans.len(), ans.as_slice()) {
        // `array(ans, d.ans)` with no dimension left.
        (2, []) => Err("'dims' cannot be of length 0".into()),
        (2, [1]) => Ok(Margin::Rows),
        (2, [2]) => Ok(Margin::Cols),
        (2, [1, 2]) => Ok(Margin::Cells),
        (2, [2, 1]) => Ok(Margin::CellsT),
        (0, _) => Ok(Margin::Whole),
        (n, _) => Err(format!("'perm' is of wrong length {n} (!= 2)")),
    }
}

/// The numbers of a constant MARGIN; a character MARGIN names dimensions,
/// which flowcast's matrices never name.
fn margin_numbers(v: &Value) -> Result<Vec<f64>, KernelError> {
    match v {
        Value::Str(_) => Err(KernelError::new("'X' must have named dimnames")),
        Value::Num(_) | Value::Bool(_) => Ok(v.as_f64_slice().unwrap_or_default().into_owned()),
        _ => Err(KernelError::new("'MARGIN' does not match dim(X)")),
    }
}

/// `dim(newX) <- c(1, 1)` of a margin of no dimension.
fn whole_check(len: usize) -> Result<(), String> {
    if len == 1 {
        Ok(())
    } else {
        Err(format!(
            "dims [product 1] do not match the length of object [{len}]"
        ))
    }
}

/// X as the matrix apply runs over (`as.matrix` of a data frame).
fn apply_matrix(x: &Value) -> Result<Value, KernelError> {
    if let Value::BoolMat(_) | Value::StrMat(_) = x {
        return Ok(x.clone());
    }
    let x = frame::coerce_value("apply", x)
        .transpose()?
        .unwrap_or_else(|| x.clone());
    match x {
        Value::Mat(_) => Ok(x),
        _ => Err(KernelError::new("dim(X) must have a positive length")),
    }
}

/// The slices FUN is called on, with `apply`'s margin.
fn slices(func: &str, args: &Args<&Value>) -> Result<(Vec<Value>, Option<Margin>), KernelError> {
    let x = args.get("X").unwrap_or(&Value::Null);
    if func != "apply" {
        return Ok((elements(x)?, None));
    }
    let x = apply_matrix(x)?;
    let m = args
        .get("MARGIN")
        .ok_or_else(|| KernelError::new("argument \"MARGIN\" is missing, with no default"))?;
    let m = margin(&margin_numbers(m)?).map_err(KernelError::new)?;
    if m == Margin::Whole {
        whole_check(x.len()).map_err(KernelError::new)?;
    }
    let parts = match &x {
        Value::BoolMat(b) => match m {
            Margin::Rows => (0..b.nrows())
                .map(|i| Value::Bool(b.row(i).iter().copied().collect()))
                .collect(),
            Margin::Cols => (0..b.ncols())
                .map(|j| Value::Bool(b.column(j).iter().copied().collect()))
                .collect(),
            Margin::CellsT => b
                .transpose()
                .iter()
                .map(|&v| Value::Bool(vec![v]))
                .collect(),
            Margin::Cells | Margin::Whole => b.iter().map(|&v| Value::Bool(vec![v])).collect(),
        },
        Value::StrMat(a) => match m {
            Margin::Rows => (0..a.nrows())
                .map(|i| Value::Str(a.row(i).iter().cloned().collect()))
                .collect(),
            Margin::Cols => (0..a.ncols())
                .map(|j| Value::Str(a.column(j).iter().cloned().collect()))
                .collect(),
            Margin::CellsT => a.transpose().iter().map(|v| Value::string(v)).collect(),
            Margin::Cells | Margin::Whole => a.iter().map(|v| Value::string(v)).collect(),
        },
        Value::Mat(a) => match m {
            Margin::Rows => (0..a.nrows())
                .map(|i| Value::Num(a.row(i).iter().copied().collect()))
                .collect(),
            Margin::Cols => (0..a.ncols())
                .map(|j| Value::Num(a.column(j).iter().copied().collect()))
                .collect(),
            Margin::CellsT => a.transpose().iter().map(|&v| Value::scalar(v)).collect(),
            Margin::Cells | Margin::Whole => a.iter().map(|&v| Value::scalar(v)).collect(),
        },
        _ => Vec::new(),
    };
    Ok((parts, Some(m)))
}

/// apply's answer over both dimensions (or none), as apply.R assembles
/// it: one value per element is a matrix shaped as `d[MARGIN]`; values of
/// another common length, or of differing lengths, would be R's
/// three-dimensional array or list matrix, which flowcast does not have.
fn cells_result(
    results: Vec<Value>,
    dims: (usize, usize),
    whole: bool,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let lens: Vec<usize> = results.iter().map(Value::len).collect();
    let l = lens.first().copied().unwrap_or(0);
    let recursive = results.first().is_some_and(|r| matches!(r, Value::List(_)));
    if recursive || lens.iter().any(|&k| k != l) {
        return Err(KernelError::new(LIST_MATRIX));
    }
    // `unlist(ans)`: of FUN's values all of length 0 (NULL skipped), that
    // empty vector.
    let combined = combine(&results, ctx)?;
    if whole || l == 0 {
        return Ok(combined);
    }
    if l > 1 {
        return Err(KernelError::new(array_message(Some(l))));
    }
    Ok(match combined {
        Value::Num(d) => Value::nums_shaped(d, Some(dims)),
        Value::Bool(d) => Value::logicals_shaped(d, Some(dims)),
        Value::Str(d) => Value::strs_shaped(d, Some(dims)),
        other => other,
    })
}

const LIST_MATRIX: &str = "apply over both dimensions: FUN's values differ in length or are \
                           lists, so R's answer is a list matrix, which flowcast does not have";

fn array_message(len: Option<usize>) -> String {
    let len = len.map_or_else(|| "more than 1".to_string(), |l| l.to_string());
    format!(
        "apply over both dimensions: FUN's values are of length {len}, so R's answer is a \
         3-dimensional array, which flowcast does not have"
    )
}

/// `apply` over a margin of extent 0, as R's `apply` does it: FUN is
/// called once on a slice of zeros (FALSE for a logical matrix) as long as
/// the other extent, and the result is that value's type emptied
/// (`ans[1L][-1L]`), or NULL.
fn empty_apply(
    args: &Args<&Value>,
    margin: Option<Margin>,
    f: &Fun<'_>,
    dots: &[(Option<&str>, &Value)],
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let x = apply_matrix(args.get("X").unwrap_or(&Value::Null))?;
    let (rows, cols) = x.dims().unwrap_or((0, 0));
    // The slice's length: 1 over both dimensions.
    let len = match margin {
        Some(Margin::Rows) => cols,
        Some(Margin::Cols) => rows,
        _ => 1,
    };
    let zeros = match x {
        Value::BoolMat(_) => Value::Bool(vec![Some(false); len]),
        Value::StrMat(_) => Value::Str(vec![String::new(); len]),
        _ => Value::Num(vec![0.0; len]),
    };
    let value = f.call_on(&zeros, dots, ctx)?;
    // Over both dimensions R returns `array(ans, d.ans)`: empty, shaped.
    let dims = match margin {
        Some(Margin::Cells) => Some((rows, cols)),
        Some(Margin::CellsT) => Some((cols, rows)),
        _ => None,
    };
    Ok(match value {
        Value::Null => Value::Null,
        Value::Bool(_) | Value::BoolMat(_) => Value::logicals_shaped(Vec::new(), dims),
        Value::Str(_) => Value::strs_shaped(Vec::new(), dims),
        Value::List(_) if dims.is_some() => return Err(KernelError::new(LIST_MATRIX)),
        Value::List(_) => Value::List(List::sequence(Vec::new())),
        _ => Value::nums_shaped(Vec::new(), dims),
    })
}

/// `c(...)` of FUN's values, as `unlist` joins atomic ones.
fn combine(results: &[Value], ctx: &mut Ctx) -> Result<Value, KernelError> {
    let c = registry()
        .get("c")
        .ok_or_else(|| KernelError::new("c() is missing"))?;
    let given: Vec<(Option<String>, &Value)> = results.iter().map(|r| (None, r)).collect();
    let matched =
        Args::match_call(c.name, c.params, given).map_err(|e| KernelError::new(e.message))?;
    c.call(&matched, ctx)
}

/// Each matrix among `results` as its vector, column by column, as
/// unlist reads it.
fn as_vectors(results: Vec<Value>) -> Vec<Value> {
    results
        .into_iter()
        .map(|r| match r {
            Value::Mat(m) => Value::Num(m.as_slice().to_vec()),
            Value::BoolMat(m) => Value::Bool(m.as_slice().to_vec()),
            Value::StrMat(m) => Value::Str(m.as_slice().to_vec()),
            other => other,
        })
        .collect()
}

/// R's `simplify2array(x, higher)` of results: one value each → a vector,
/// as `c` combines them; equal lengths → a matrix with a column each, or,
/// when `higher` and every value is a matrix of the same dimensions, an
/// array with one more dimension; else the list.
fn simplify(results: Vec<Value>, higher: bool, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let dim = |v: &Value| match v {
        Value::Mat(m) => Some(m.shape()),
        Value::BoolMat(m) => Some(m.shape()),
        Value::StrMat(m) => Some(m.shape()),
        _ => None,
    };
    let common = results.first().and_then(dim);
    let higher = higher && common.is_some() && results.iter().all(|r| dim(r) == common);
    let results = as_vectors(results);
    let atomic = |v: &Value| matches!(v, Value::Num(_) | Value::Bool(_) | Value::Str(_));
    if results.is_empty() || !results.iter().all(atomic) {
        return Ok(Value::List(List::sequence(results)));
    }
    let n = results[0].len();
    if results.iter().any(|r| r.len() != n) {
        return Ok(Value::List(List::sequence(results)));
    }
    let combined = combine(&results, ctx)?;
    if n == 1 {
        return Ok(combined);
    }
    let cols = results.len();
    if let (true, Some((r, c))) = (higher, common) {
        return super::arrays::shaped(combined, &[r, c, cols]);
    }
    Ok(match combined {
        Value::Num(d) => Value::nums_shaped(d, Some((n, cols))),
        Value::Bool(d) => Value::logicals_shaped(d, Some((n, cols))),
        Value::Str(d) => Value::strs_shaped(d, Some((n, cols))),
        _ => Value::List(List::sequence(results)),
    })
}

/// sapply's and replicate's `simplify`, as R reads it: `None` for FALSE
/// (the list), else whether `simplify2array` goes `higher` (`"array"`).
fn simplify_flag(args: &Args<&Value>) -> Result<Option<bool>, KernelError> {
    match args.get("simplify") {
        Some(Value::Str(s)) => Ok(Some(s.len() == 1 && s[0] == "array")),
        _ => Ok(args.bool_or("simplify", true)?.then_some(false)),
    }
}

/// apply.R's `apply` over an array of three or more dimensions: FUN is
/// called on each cell of the margins (the first fastest) with the cells of
/// the other dimensions (a vector, or a matrix or array when two or more
/// are left); results of one length `len.a` make a vector (one margin,
/// one value each), an array of `dim(X)[MARGIN]`, or one of
/// `c(len.a, dim(X)[MARGIN])`.
pub(super) fn apply_array(
    args: &Args<&Value>,
    x: &Value,
    dims: &[usize],
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let f = fun_of(args, ctx)?;
    let margin = args
        .get("MARGIN")
        .ok_or_else(|| KernelError::new("argument \"MARGIN\" is missing, with no default"))?;
    let margin = margin_numbers(super::names::bare(margin))?;
    let k = dims.len();
    let mut s_ans = Vec::with_capacity(margin.len());
    for &m in &margin {
        if m.is_nan() || m.trunc() < 1.0 || m.trunc() > k as f64 {
            return Err(KernelError::new("'MARGIN' does not match dim(X)"));
        }
        s_ans.push(m.trunc() as usize - 1);
    }
    if s_ans.is_empty() {
        return Err(KernelError::new(
            "flowcast's apply over an array needs at least one MARGIN",
        ));
    }
    if (1..s_ans.len()).any(|i| s_ans[..i].contains(&s_ans[i])) {
        // aperm(X, c(s.call, s.ans)) with a dimension twice.
        return Err(KernelError::new("invalid 'perm' argument"));
    }
    let s_call: Vec<usize> = (0..k).filter(|d| !s_ans.contains(d)).collect();
    let d_ans: Vec<usize> = s_ans.iter().map(|&d| dims[d]).collect();
    let d2: usize = d_ans.iter().product();
    if d2 == 0 {
        return Err(KernelError::new(
            "flowcast's apply over an array needs every MARGIN extent above zero",
        ));
    }
    let parts = super::arrays::margin_slices(x, dims, &s_call, &s_ans)?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    let results = parts
        .iter()
        .map(|s| f.call_on(s, &dots, ctx))
        .collect::<Result<Vec<_>, _>>()?;
    let flat = as_vectors(results);
    let atomic = |v: &Value| matches!(v, Value::Num(_) | Value::Bool(_) | Value::Str(_));
    let simplify = args.bool_or("simplify", true)?;
    let ragged = !flat.iter().all(atomic) || flat.iter().any(|r| r.len() != flat[0].len());
    if !simplify || ragged {
        if s_ans.len() == 1 {
            return Ok(Value::List(List::sequence(flat)));
        }
        return Err(KernelError::new(
            "flowcast cannot hold apply's list of results with dimensions (over several margins)",
        ));
    }
    let ans = combine(&flat, ctx)?;
    let len_a = ans.len();
    if len_a == d2 {
        if s_ans.len() == 1 {
            return Ok(ans);
        }
        return super::arrays::shaped(ans, &d_ans);
    }
    if len_a > 0 && len_a % d2 == 0 {
        let mut d = vec![len_a / d2];
        d.extend(&d_ans);
        return super::arrays::shaped(ans, &d);
    }
    Ok(ans)
}

fn apply_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = fun_of(args, ctx)?;
    let (parts, margin) = slices(args.func, args)?;
    let dots: Vec<(Option<&str>, &Value)> = args.dots().collect();
    if args.func == "apply" && parts.is_empty() {
        return empty_apply(args, margin, &f, &dots, ctx);
    }
    let results = parts
        .iter()
        .map(|s| f.call_on_named(s, &dots, ctx))
        .collect::<Result<Vec<_>, _>>()?;
    // lapply's list keeps each value's names; sapply, vapply and apply
    // name their matrix's rows by them (simplify2array, do_vapply, apply).
    if args.func == "lapply" {
        return Ok(Value::List(List::sequence(results)));
    }
    let rows = row_names(args, &results);
    let scalars = args.func == "sapply" && results.iter().all(|r| r.len() == 1);
    let inner: Vec<Option<String>> = if scalars {
        results
            .iter()
            .map(|r| super::names::names(r).and_then(|n| n.first().cloned()))
            .collect()
    } else {
        Vec::new()
    };
    let results: Vec<Value> = results.into_iter().map(super::names::strip_value).collect();
    let value = apply_results(args, results, margin, ctx)?;
    Ok(match (rows, value.dims()) {
        (Some(rows), Some((r, _))) if rows.len() == r => {
            super::names::dimnamed(value, Some(rows), None)
        }
        // unlist's names: each value's own, "" where it has none.
        (_, None) if inner.iter().any(Option::is_some) && inner.len() == value.len() => {
            super::names::named(
                value,
                inner.into_iter().map(Option::unwrap_or_default).collect(),
            )
        }
        _ => value,
    })
}

/// The names R gives the rows of sapply's, vapply's or apply's matrix:
/// the first value's (apply: only when every value has the same).
/// FUN.VALUE's names, which vapply takes first, are put on by
/// `names::carry`, which sees the arguments as written.
fn row_names(args: &Args<&Value>, results: &[Value]) -> Option<Vec<String>> {
    let first = super::names::names(results.first()?)?;
    if args.func == "apply"
        && results
            .iter()
            .any(|r| super::names::names(r) != Some(first))
    {
        return None;
    }
    Some(first.to_vec())
}

/// apply_eval's value from FUN's values, their names gone.
fn apply_results(
    args: &Args<&Value>,
    results: Vec<Value>,
    margin: Option<Margin>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    if let Some(m @ (Margin::Cells | Margin::CellsT | Margin::Whole)) = margin {
        if !args.bool_or("simplify", true)? {
            return Err(KernelError::new(LIST_MATRIX));
        }
        let x = apply_matrix(args.get("X").unwrap_or(&Value::Null))?;
        let (r, c) = x.dims().unwrap_or((0, 0));
        let dims = if m == Margin::CellsT { (c, r) } else { (r, c) };
        return cells_result(results, dims, m == Margin::Whole, ctx);
    }
    match args.func {
        "vapply" => vapply_check(args.get("FUN.VALUE"), results, ctx),
        "sapply" => match simplify_flag(args)? {
            None => Ok(Value::List(List::sequence(results))),
            Some(higher) => simplify(results, higher, ctx),
        },
        "apply" if !args.bool_or("simplify", true)? => Ok(Value::List(List::sequence(results))),
        _ => simplify(results, false, ctx),
    }
}

/// `vapply`'s check of every result against FUN.VALUE, then its shape.
fn vapply_check(
    template: Option<&Value>,
    results: Vec<Value>,
    ctx: &mut Ctx,
) -> Result<Value, KernelError> {
    let t = template.ok_or_else(|| KernelError::new("argument \"FUN.VALUE\" is missing"))?;
    let kind = |v: &Value| match v {
        Value::Bool(_) => 0,
        Value::Num(_) | Value::Mat(_) => 1,
        Value::Str(_) | Value::StrMat(_) => 2,
        _ => 3,
    };
    for (i, r) in results.iter().enumerate() {
        if r.len() != t.len() {
            return Err(KernelError::new(format!(
                "values must be length {},\n but FUN(X[[{}]]) result is length {}",
                t.len(),
                i + 1,
                r.len()
            )));
        }
        // Logicals and numbers promote up to FUN.VALUE's type; text
        // takes only text (do_vapply's `okay`).
        if kind(r) > kind(t) || kind(t) == 3 || (kind(t) == 2 && kind(r) != 2) {
            return Err(KernelError::new(format!(
                "values must be type '{}',\n but FUN(X[[{}]]) result is type '{}'",
                type_word(t),
                i + 1,
                type_word(r)
            )));
        }
    }
    if results.is_empty() {
        return Ok(match t {
            Value::Str(_) => Value::Str(Vec::new()),
            Value::Bool(_) => Value::Bool(Vec::new()),
            _ => Value::Num(Vec::new()),
        });
    }
    // do_vapply: a FUN.VALUE with dimensions gives an array of one more.
    let higher = matches!(t, Value::Mat(_) | Value::BoolMat(_) | Value::StrMat(_));
    let v = simplify(results, higher, ctx)?;
    // Logical results promote to FUN.VALUE's type.
    Ok(match (t, v) {
        (Value::Num(_), Value::Bool(b)) => {
            Value::Num(b.iter().map(|&x| super::value::logical_f64(x)).collect())
        }
        (_, v) => v,
    })
}

fn type_word(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "logical",
        Value::Num(_) | Value::Mat(_) => "double",
        Value::Str(_) | Value::StrMat(_) => "character",
        _ => "list",
    }
}

/// The type of one slice of X.
fn slice_type(func: &str, args: &Args<Type>) -> Result<(Option<usize>, Type), ArgError> {
    let x = args.ty("X").cloned().unwrap_or(Type::Null);
    if func == "apply" {
        if let Some(Type::Str { .. }) = args.ty("MARGIN") {
            return Err(args.error("MARGIN", "'X' must have named dimnames"));
        }
        let numbers = args.ty("MARGIN").and_then(Type::const_nums);
        let (rows, cols) = match &x {
            Type::Mat { rows, cols }
            | Type::BoolMat { rows, cols }
            | Type::StrMat { rows, cols } => (*rows, *cols),
            Type::Any => return Ok((None, Type::Any)),
            Type::Record { .. } => return Ok((None, Type::num_unknown())),
            other => {
                return Err(args.error(
                    "X",
                    format!("dim(X) must have a positive length: {}", other.describe()),
                ))
            }
        };
        let Some(m) = numbers else {
            return Ok((None, Type::num_unknown()));
        };
        let m = margin(&m).map_err(|e| args.error("MARGIN", e))?;
        if matches!(x, Type::StrMat { .. }) {
            let text = |len| Type::Str { len, value: None };
            return Ok(match m {
                Margin::Rows => (rows, text(cols)),
                Margin::Cols => (cols, text(rows)),
                Margin::Cells | Margin::CellsT | Margin::Whole => {
                    (rows.zip(cols).map(|(r, c)| r * c), text(Some(1)))
                }
            });
        }
        return Ok(match m {
            Margin::Rows => (
                rows,
                Type::Num {
                    len: cols,
                    value: None,
                },
            ),
            Margin::Cols => (
                cols,
                Type::Num {
                    len: rows,
                    value: None,
                },
            ),
            Margin::Cells | Margin::CellsT | Margin::Whole => (
                rows.zip(cols).map(|(r, c)| r * c),
                if matches!(x, Type::BoolMat { .. }) {
                    Type::logical(Some(1))
                } else {
                    Type::num(1)
                },
            ),
        });
    }
    Ok(element_type(&x))
}

/// How many elements `X[[i]]` runs over, and the type of one.
fn element_type(x: &Type) -> (Option<usize>, Type) {
    match x {
        Type::Num { .. } | Type::Mat { .. } => (x.len(), Type::num(1)),
        Type::Bool { len, .. } => (*len, Type::logical(Some(1))),
        Type::BoolMat { .. } => (x.len(), Type::logical(Some(1))),
        Type::StrMat { .. } => (
            x.len(),
            Type::Str {
                len: Some(1),
                value: None,
            },
        ),
        Type::Str { len, .. } => (
            *len,
            Type::Str {
                len: Some(1),
                value: None,
            },
        ),
        Type::List { len, elem } => (*len, (**elem).clone()),
        Type::Record { fields, .. } => (Some(fields.len()), Type::Any),
        Type::Null => (Some(0), Type::Any),
        _ => (None, Type::Any),
    }
}

fn apply_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let Some(f) = shape_fun(args, "FUN", ctx)? else {
        return Ok(Type::Any);
    };
    // X may be an array (typed unknown, or as numbers or logicals of
    // unknown length), whose result's shape only the run knows.
    if args.func == "apply"
        && matches!(
            args.ty("X"),
            Some(Type::Any | Type::Num { len: None, .. } | Type::Bool { len: None, .. })
        )
    {
        return Ok(Type::Any);
    }
    let (n, elem) = slice_type(args.func, args)?;
    let cells = if args.func == "apply" {
        cells_margin(args)
    } else {
        None
    };
    // FUN's own shape rule on one slice: its errors are the call's.
    let mut given: Vec<(Option<String>, Type)> = vec![(None, elem)];
    given.extend(
        args.dots()
            .map(|(nm, t)| (nm.map(str::to_string), t.clone())),
    );
    let one = fun_shape(&f, given, n, args, "FUN", ctx)?;
    if let Some((m, dims)) = cells {
        return cells_type(&one, m, dims, is_false(args, "simplify"))
            .map_err(|e| args.error("FUN", e));
    }
    if args.func == "lapply" {
        return Ok(Type::List {
            len: n,
            elem: Box::new(one.without_value()),
        });
    }
    let one = if args.func == "vapply" {
        args.ty("FUN.VALUE").cloned().unwrap_or(Type::Any)
    } else {
        one
    };
    if higher_array(args, &one) {
        return Ok(Type::Any);
    }
    let simplify = !matches!(args.func, "sapply" | "apply") || !is_false(args, "simplify");
    Ok(results_type(one, n, simplify))
}

/// Whether matrix results may make an array of three dimensions (sapply's
/// `simplify = "array"`, vapply's FUN.VALUE a matrix), which shape
/// inference types as unknown.
fn higher_array(args: &Args<Type>, one: &Type) -> bool {
    let may_be_matrix = matches!(one, Type::Mat { .. } | Type::StrMat { .. } | Type::Any);
    let higher = match args.func {
        "vapply" => true,
        "sapply" | "replicate" => matches!(args.ty("simplify"), Some(Type::Str { .. })),
        _ => false,
    };
    higher && may_be_matrix
}

/// A matrix's rows and columns as shape inference knows them.
type MatDims = (Option<usize>, Option<usize>);

/// apply's MARGIN when it runs over both dimensions (or none), with X's
/// dimensions.
fn cells_margin(args: &Args<Type>) -> Option<(Margin, MatDims)> {
    let m = margin(&args.ty("MARGIN")?.const_nums()?).ok()?;
    let dims = match args.ty("X")? {
        Type::Mat { rows, cols } | Type::BoolMat { rows, cols } | Type::StrMat { rows, cols } => {
            (*rows, *cols)
        }
        _ => (None, None),
    };
    match m {
        Margin::Cells => Some((m, dims)),
        Margin::CellsT => Some((m, (dims.1, dims.0))),
        Margin::Whole => Some((m, dims)),
        _ => None,
    }
}

/// [`cells_result`] before the run, from the type of FUN's value.
fn cells_type(
    one: &Type,
    m: Margin,
    (rows, cols): MatDims,
    no_simplify: bool,
) -> Result<Type, String> {
    if no_simplify {
        return Err(LIST_MATRIX.into());
    }
    if m == Margin::Whole {
        if let Some(len) = rows.zip(cols).map(|(r, c)| r * c) {
            whole_check(len)?;
        }
        return Ok(Type::Any);
    }
    match (one, one.len()) {
        (Type::Num { .. }, Some(1)) => Ok(Type::Mat { rows, cols }),
        (Type::Bool { .. }, Some(1)) => Ok(Type::BoolMat { rows, cols }),
        (Type::Str { .. }, Some(1)) => Ok(Type::StrMat { rows, cols }),
        (Type::Num { .. } | Type::Bool { .. } | Type::Str { .. }, Some(k)) if k > 1 => {
            Err(array_message(Some(k)))
        }
        (Type::List { .. } | Type::Record { .. }, _) => Err(LIST_MATRIX.into()),
        _ => Ok(Type::Any),
    }
}

/// The flag `name` is a constant FALSE.
fn is_false(args: &Args<Type>, name: &str) -> bool {
    args.ty(name)
        .and_then(Type::const_scalar)
        .is_some_and(|s| s == 0.0)
}

/// The type of `n` results of type `one`: simplified as R's
/// `simplify2array` does, or their list.
fn results_type(one: Type, n: Option<usize>, simplify: bool) -> Type {
    if simplify {
        simplified_type(&one, n)
    } else {
        Type::List {
            len: n,
            elem: Box::new(one.without_value()),
        }
    }
}

/// FUN (the function at `formal`) before the run; `None` when it is not
/// known yet, and the call's type is then unknown too.
fn shape_fun<'f>(
    args: &Args<Type>,
    formal: &str,
    ctx: &ShapeCtx<'f>,
) -> Result<Option<FunShape<'f>>, ArgError> {
    fun::resolve_shape(args.ty(formal), ctx).map_err(|m| args.error(formal, m))
}

/// FUN's type on `given`, run `times` times; its error is the call's, at
/// `formal`.
fn fun_shape(
    f: &FunShape,
    given: Vec<(Option<String>, Type)>,
    times: Option<usize>,
    args: &Args<Type>,
    formal: &str,
    ctx: &ShapeCtx,
) -> Result<Type, ArgError> {
    f.shape(given, times, ctx)
        .map_err(|m| args.error(formal, m))
}

/// The type R's `simplify2array` gives `n` results of type `one`.
fn simplified_type(one: &Type, n: Option<usize>) -> Type {
    match (one, one.len()) {
        (Type::Num { .. }, Some(1)) => Type::Num {
            len: n,
            value: None,
        },
        (Type::Bool { .. }, Some(1)) => Type::logical(n),
        (Type::Str { .. }, Some(1)) => Type::Str {
            len: n,
            value: None,
        },
        (Type::Num { .. } | Type::Mat { .. }, Some(k)) if k > 1 && n != Some(0) => Type::Mat {
            rows: Some(k),
            cols: n,
        },
        (Type::Str { .. } | Type::StrMat { .. }, Some(k)) if k > 1 && n != Some(0) => {
            Type::StrMat {
                rows: Some(k),
                cols: n,
            }
        }
        _ => Type::Any,
    }
}

/// The arguments `mapply`/`Map` run FUN over (its `...`), each as its
/// elements, with their names.
type Columns<'a> = Vec<(Option<&'a str>, Vec<Value>)>;

/// R's `mapply(FUN, ..., MoreArgs, SIMPLIFY)` and `Map(f, ...)`: FUN on
/// the first elements of every `...` argument, then the second, …,
/// shorter ones recycled.
fn mapply_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = fun_of(args, ctx)?;
    let columns: Columns = args
        .dots()
        .map(|(n, v)| Ok((n, elements(v)?)))
        .collect::<Result<_, KernelError>>()?;
    let more_args = if args.func == "Map" {
        None
    } else {
        args.get("MoreArgs")
    };
    let more: Vec<(Option<String>, &Value)> = match more_args {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::List(l)) => l
            .items
            .iter()
            .enumerate()
            .map(|(i, v)| (l.names.as_ref().map(|n| n[i].clone()), v))
            .collect(),
        Some(_) => {
            return Err(KernelError::new(
                "argument 'MoreArgs' of 'mapply' is not a list",
            ))
        }
    };
    let n = columns.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
    if n > 0 && columns.iter().any(|(_, c)| c.is_empty()) {
        return Err(KernelError::new(
            "zero-length inputs cannot be mixed with those of non-zero length",
        ));
    }
    if columns.iter().any(|(_, c)| n % c.len().max(1) != 0) {
        ctx.warn("longer argument not a multiple of length of shorter");
    }
    let mut results = Vec::with_capacity(n);
    for i in 0..n {
        let mut given: Vec<(Option<String>, &Value)> = columns
            .iter()
            .map(|(name, c)| (name.map(str::to_string), &c[i % c.len()]))
            .collect();
        given.extend(more.iter().cloned());
        results.push(f.call(given, ctx)?);
    }
    if args.func == "Map" || !args.bool_or("SIMPLIFY", true)? {
        return Ok(Value::List(List::sequence(results)));
    }
    simplify(results, false, ctx)
}

/// The element type of each `...` argument of `mapply`/`Map` and how many
/// times FUN runs, when known.
fn mapply_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let formal = if args.func == "Map" { "f" } else { "FUN" };
    let Some(f) = shape_fun(args, formal, ctx)? else {
        return Ok(Type::Any);
    };
    let mut n = Some(0usize);
    let mut given: Vec<(Option<String>, Type)> = Vec::new();
    for (name, t) in args.dots() {
        let (len, elem) = element_type(t);
        n = match (n, len) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
        given.push((name.map(str::to_string), elem));
    }
    if args.func == "mapply" {
        match args.ty("MoreArgs") {
            Some(Type::Record { fields, .. }) => {
                given.extend(fields.iter().map(|(n, t)| (Some(n.clone()), t.clone())))
            }
            // Arguments FUN gets that shape inference cannot name.
            Some(Type::List { .. } | Type::Any) => return Ok(Type::Any),
            _ => {}
        }
    }
    let one = fun_shape(&f, given, n, args, formal, ctx)?;
    let simplify = args.func != "Map" && !is_false(args, "SIMPLIFY");
    Ok(results_type(one, n, simplify))
}

/// R's `Reduce(f, x, init, right, accumulate, simplify)`, as its R source
/// does it: `f(f(f(x1, x2), x3), …)` from the left, or
/// `f(x1, f(x2, f(…, xn)))` from the right, `init` first (or last).
fn reduce_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = fun_of(args, ctx)?;
    let x = elements(args.get("x").unwrap_or(&Value::Null))?;
    let init = args.get("init").cloned();
    let right = args.bool_or("right", false)?;
    let accumulate = args.bool_or("accumulate", false)?;
    if x.is_empty() {
        return Ok(init.unwrap_or(Value::Null));
    }
    let two = |a: &Value, b: &Value, ctx: &mut Ctx| f.call(vec![(None, a), (None, b)], ctx);
    // The elements in the order they are folded, the first as the start.
    let mut order: Vec<Value> = x;
    if right {
        order.reverse();
    }
    let mut rest = order.into_iter();
    let mut acc = match init {
        Some(v) => v,
        None => rest.next().unwrap_or(Value::Null),
    };
    let mut out = vec![acc.clone()];
    for v in rest {
        acc = if right {
            two(&v, &acc, ctx)?
        } else {
            two(&acc, &v, ctx)?
        };
        if accumulate {
            out.push(acc.clone());
        }
    }
    if !accumulate {
        return Ok(acc);
    }
    if right {
        out.reverse();
    }
    if args.bool_or("simplify", true)? && out.iter().all(|v| v.len() == 1) {
        return simplify(out, false, ctx);
    }
    Ok(Value::List(List::sequence(out)))
}

/// `do.call(what, args)`: `what` called once with the elements of `args`
/// as its arguments, named where the list names them
/// (`do.call(rbind, lapply(files, read.csv))`).
fn do_call_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = fun_of(args, ctx)?;
    let (names, items) = match args.get("args") {
        Some(Value::List(l)) => (l.names.clone(), l.items.clone()),
        // args = list(), its default.
        None => (None, Vec::new()),
        // R's do.call: `if (!is.list(args))`, so NULL and vectors too.
        Some(_) => return Err(KernelError::new("second argument must be a list")),
    };
    let given = items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let name = names
                .as_ref()
                .and_then(|n| n.get(i))
                .filter(|n| !n.is_empty())
                .cloned();
            (name, v)
        })
        .collect::<Vec<_>>();
    let value = f.call_named(given.clone(), ctx)?;
    // `c` names its value by its arguments' tags, which the evaluator
    // reads where c is called in place; here they are the list's names.
    Ok(match &f {
        Fun::Kernel(k) if k.name == "c" => super::names::carry("c", &given, None, value),
        _ => value,
    })
}

fn do_call_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let Some(f) = shape_fun(args, "what", ctx)? else {
        return Ok(Type::Any);
    };
    // The arguments' types are known one by one only for an unnamed list
    // of one element type and a known, small length.
    match args.ty("args") {
        Some(Type::List { len: Some(n), elem }) if *n <= 64 => {
            let given = vec![(None, elem.as_ref().clone()); *n];
            fun_shape(&f, given, Some(1), args, "what", ctx)
        }
        _ => Ok(Type::Any),
    }
}

fn reduce_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let Some(f) = shape_fun(args, "f", ctx)? else {
        return Ok(Type::Any);
    };
    let (n, elem) = element_type(args.ty("x").unwrap_or(&Type::Null));
    let init = args.ty("init").cloned();
    if n == Some(0) {
        return Ok(init.unwrap_or(Type::Null));
    }
    let acc = init.clone().unwrap_or_else(|| elem.clone());
    let right = args
        .ty("right")
        .and_then(Type::const_scalar)
        .is_some_and(|r| r != 0.0);
    let given = if right {
        vec![(None, elem), (None, acc)]
    } else {
        vec![(None, acc), (None, elem)]
    };
    let calls = n.map(|n| if init.is_some() { n } else { n - 1 });
    let one = fun_shape(&f, given, calls, args, "f", ctx)?.without_value();
    let accumulate = args
        .ty("accumulate")
        .and_then(Type::const_scalar)
        .is_some_and(|a| a != 0.0);
    if !accumulate {
        return Ok(one);
    }
    let len = calls.map(|c| c + 1);
    Ok(match one.len() {
        Some(1) => simplified_type(&one, len),
        _ => Type::Any,
    })
}

/// R's `Filter(f, x)`: the elements of `x` for which `f` is TRUE.
fn filter_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = fun_of(args, ctx)?;
    let x = args.get("x").unwrap_or(&Value::Null);
    let mut keep = Vec::new();
    for (i, e) in elements(x)?.iter().enumerate() {
        let r = f.call_on(e, &[], ctx)?;
        let flag = match r.as_logicals() {
            Some(b) if b.len() == 1 => b[0],
            _ => {
                return Err(KernelError::new(format!(
                    "Filter(): f gave {} of length {} for element {}; it must give one \
                     TRUE or FALSE",
                    r.type_name(),
                    r.len(),
                    i + 1
                )))
            }
        };
        if flag == Some(true) {
            keep.push((i + 1) as f64);
        }
    }
    super::index::index(x, &[Some(Value::Num(keep))])
}

fn filter_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let Some(f) = shape_fun(args, "f", ctx)? else {
        return Ok(Type::Any);
    };
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    let (n, elem) = element_type(&x);
    let one = fun_shape(&f, vec![(None, elem)], n, args, "f", ctx)?;
    if matches!(one.len(), Some(k) if k != 1) {
        return Err(args.error("f", "f must give one TRUE or FALSE per element"));
    }
    Ok(match x {
        Type::Num { .. } | Type::Mat { .. } => Type::num_unknown(),
        Type::Bool { .. } | Type::BoolMat { .. } => Type::logical(None),
        Type::Str { .. } => Type::Str {
            len: None,
            value: None,
        },
        Type::List { elem, .. } => Type::List { len: None, elem },
        Type::Null => Type::Null,
        _ => Type::Any,
    })
}

/// R's `replicate(n, expr)`: `expr` evaluated `n` times, each time anew,
/// its draws following one another on the step's stream as in R (so the
/// numbers equal R's for the same seed); the results simplified as
/// `sapply` does.
fn replicate_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let n = match args.get("n").and_then(Value::as_scalar) {
        Some(n) if n.is_finite() && n >= 0.0 => n.trunc() as usize,
        _ => return Err(KernelError::new("invalid 'n' value")),
    };
    let f = fun::resolve(None, ctx)?
        .ok_or_else(|| KernelError::new("argument \"expr\" is missing, with no default"))?;
    // R's `sapply(integer(n), …)` fails on `integer(n)` for a count that
    // cannot be held; a list of `n` values is refused the same way, before
    // `n` calls that would never end.
    let mut results = super::alloc::vec_with_capacity(n)
        .map_err(|_| super::alloc::cannot_allocate(n as f64 * 4.0))?;
    for _ in 0..n {
        results.push(f.call_named(Vec::new(), ctx)?);
    }
    let Some(higher) = simplify_flag(args)? else {
        return Ok(Value::List(List::sequence(results)));
    };
    // sapply's names, as replicate is sapply(integer(n), ...): the first
    // value's names name the matrix's rows, a scalar's name its element.
    let rows = results
        .first()
        .and_then(super::names::names)
        .map(<[String]>::to_vec);
    let inner: Vec<Option<String>> = if results.iter().all(|r| r.len() == 1) {
        results
            .iter()
            .map(|r| super::names::names(r).and_then(|n| n.first().cloned()))
            .collect()
    } else {
        Vec::new()
    };
    let results: Vec<Value> = results.into_iter().map(super::names::strip_value).collect();
    let value = simplify(results, higher, ctx)?;
    Ok(match (rows, value.dims()) {
        (Some(rows), Some((r, _))) if rows.len() == r => {
            super::names::dimnamed(value, Some(rows), None)
        }
        (_, None) if inner.iter().any(Option::is_some) && inner.len() == value.len() => {
            super::names::named(
                value,
                inner.into_iter().map(Option::unwrap_or_default).collect(),
            )
        }
        _ => value,
    })
}

fn replicate_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let n = match args.ty("n").and_then(Type::const_scalar) {
        Some(n) if !(n.is_finite() && n >= 0.0) => return Err(args.error("n", "invalid 'n' value")),
        Some(n) => Some(n.trunc() as usize),
        None => None,
    };
    let Some(f) = shape_fun(args, "expr", ctx)? else {
        return Ok(Type::Any);
    };
    let one = fun_shape(&f, Vec::new(), n, args, "expr", ctx)?;
    if higher_array(args, &one) {
        return Ok(Type::Any);
    }
    Ok(results_type(one, n, !is_false(args, "simplify")))
}

/// R 4.2.2's funprog.R: `Position` walks `seq_along(x)` (reversed when
/// `right`) and gives the first `i` for which `if (f(x[[i]]))` holds, else
/// `nomatch` (NA); `Find` gives that `x[[i]]`, else its `nomatch` (NULL).
/// f is not called past the first hit, as R's loop returns there.
fn position_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let f = fun_of(args, ctx)?;
    let x = args.get("x").unwrap_or(&Value::Null);
    let right = match args.get("right") {
        None => false,
        Some(r) => super::logical::if_condition(r)?,
    };
    let items = elements(x)?;
    let order: Box<dyn Iterator<Item = usize>> = if right {
        Box::new((0..items.len()).rev())
    } else {
        Box::new(0..items.len())
    };
    for i in order {
        let hit = f.call_on(&items[i], &[], ctx)?;
        if super::logical::if_condition(&hit)? {
            return Ok(if args.func == "Find" {
                super::index::index2(x, &Value::scalar((i + 1) as f64))?
            } else {
                Value::scalar((i + 1) as f64)
            });
        }
    }
    Ok(match args.get("nomatch") {
        Some(v) => v.clone(),
        None if args.func == "Find" => Value::Null,
        None => Value::Num(vec![super::value::NA]),
    })
}

fn position_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let Some(f) = shape_fun(args, "f", ctx)? else {
        return Ok(Type::Any);
    };
    let x = args.ty("x").cloned().unwrap_or(Type::Null);
    let (n, elem) = element_type(&x);
    fun_shape(&f, vec![(None, elem)], n, args, "f", ctx)?;
    Ok(if args.func == "Position" && args.ty("nomatch").is_none() {
        Type::num(1)
    } else {
        Type::Any
    })
}
