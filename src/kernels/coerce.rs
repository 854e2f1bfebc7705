//! Type tests and coercions: `is.numeric`, `is.integer`, `is.double`,
//! `is.character`, `is.factor`, `is.logical`, `is.data.frame`, `is.matrix`,
//! `is.list`, `is.vector`, `is.null`, `is.function`, `as.logical`,
//! `as.vector` and `as.data.frame`, as R 4.2's.
//!
//! A type test's answer is known before the run whenever the argument's
//! type is, so `flowcast check` shows it as a constant.

use nalgebra::DMatrix;

use super::args::{ArgError, Args};
use super::factor::text_is_na;
use super::frame::{self, as_frame, frame_fields};
use super::value::{Factor, List};
use super::{names, row_names};
use super::{opt, registry, req, Ctx, Kernel, KernelError, Param, ShapeCtx, Type, Value, DOTS};

/// R's `as.double` of text (coerceVector's String2Real): NA for "NA" and
/// blanks, `R_strtod`'s numbers, and NA with R's one warning for the rest.
pub(crate) fn text_as_doubles(s: &[String], ctx: &mut Ctx) -> Vec<f64> {
    let mut warned = false;
    let v = s
        .iter()
        .map(|s| {
            if text_is_na(s) {
                return super::value::NA;
            }
            super::data::parse_number(s).unwrap_or_else(|| {
                warned = true;
                super::value::NA
            })
        })
        .collect();
    if warned {
        ctx.warn("NAs introduced by coercion");
    }
    v
}

const X: &[Param] = &[req("x")];

const fn test(name: &'static str) -> Kernel {
    Kernel {
        name,
        params: X,
        random: false,
        shape: is_shape,
        eval: is_eval,
    }
}

pub(super) static KERNELS: &[Kernel] = &[
    test("is.numeric"),
    test("is.integer"),
    test("is.double"),
    test("is.complex"),
    test("is.character"),
    test("is.factor"),
    test("is.ordered"),
    test("is.logical"),
    test("is.data.frame"),
    test("is.matrix"),
    test("is.list"),
    Kernel {
        name: "is.vector",
        params: &[req("x"), opt("mode")],
        random: false,
        shape: is_shape,
        eval: is_eval,
    },
    test("is.null"),
    // flowcast has no function values (a function step is put in where
    // it is called), so no value is one.
    test("is.function"),
    Kernel {
        name: "as.logical",
        params: &[opt("x"), DOTS],
        random: false,
        shape: as_logical_shape,
        eval: as_logical_eval,
    },
    Kernel {
        name: "as.vector",
        params: &[req("x"), opt("mode")],
        random: false,
        shape: as_vector_shape,
        eval: as_vector_eval,
    },
    Kernel {
        name: "as.data.frame",
        params: &[
            req("x"),
            opt("row.names"),
            opt("optional"),
            DOTS,
            opt("responseName"),
            opt("stringsAsFactors"),
            opt("nm"),
        ],
        random: false,
        shape: as_data_frame_shape,
        eval: as_data_frame_eval,
    },
];

/// What a type test says of a value; `integer` when R holds it as an
/// integer vector (see [`Ctx::is_integer`]).
fn is_value(func: &str, v: &Value, integer: bool) -> bool {
    match func {
        // A dist object is a numeric vector with attributes in R.
        "is.numeric" => matches!(v, Value::Num(_) | Value::Mat(_)) || v.dist_values().is_some(),
        // A factor is integer codes with a class, which isInteger refuses;
        // a table holds integer counts.
        "is.integer" | "is.double" => {
            let integer = match v {
                Value::Named(n) if n.table.is_some() => true,
                _ => integer,
            };
            matches!(names::bare(v), Value::Num(_) | Value::Mat(_))
                && integer == (func == "is.integer")
        }
        // Data frames and R's result objects are lists too.
        "is.list" => matches!(v, Value::List(_)),
        "is.complex" => matches!(v, Value::Complex(_) | Value::ComplexMat(_)),
        "is.character" => matches!(v, Value::Str(_) | Value::StrMat(_)),
        "is.factor" => matches!(v, Value::Factor(_)),
        "is.ordered" => matches!(v, Value::Factor(f) if f.ordered),
        "is.logical" => matches!(v, Value::Bool(_) | Value::BoolMat(_)),
        "is.data.frame" => as_frame(v).is_some(),
        "is.matrix" => v.dims().is_some(),
        "is.function" => false,
        _ => matches!(v, Value::Null),
    }
}

/// The same test of a type: `None` when the type does not decide it.
fn is_type(func: &str, t: &Type) -> Option<bool> {
    if matches!(t, Type::Any) {
        return None;
    }
    Some(match func {
        "is.numeric" => match t {
            Type::Num { .. } | Type::Mat { .. } => true,
            Type::Record { class, .. } => class == "dist",
            _ => false,
        },
        "is.complex" => matches!(t, Type::Complex { .. } | Type::ComplexMat { .. }),
        "is.character" => matches!(t, Type::Str { .. } | Type::StrMat { .. }),
        "is.factor" => matches!(t, Type::Factor { .. }),
        "is.ordered" => matches!(t, Type::Factor { ordered: true, .. }),
        "is.logical" => matches!(t, Type::Bool { .. } | Type::BoolMat { .. }),
        "is.data.frame" => frame_fields(t).is_some(),
        "is.matrix" => t.dims().is_some(),
        "is.function" => false,
        "is.list" => matches!(t, Type::List { .. } | Type::Record { .. }),
        // Whether a number is an integer, and which attributes a value
        // carries, is known at run time.
        "is.integer" | "is.double" | "is.vector" => match t {
            Type::Num { .. } | Type::Mat { .. } | Type::List { .. } | Type::Record { .. } => {
                return None
            }
            _ if func == "is.vector" => return None,
            _ => false,
        },
        _ => matches!(t, Type::Null),
    })
}

/// R's `is.vector(x, mode)`: a vector of that mode with no attributes
/// but names (a matrix, factor, table or classed list is none).
fn is_vector(x: &Value, mode: &str, integer: bool) -> bool {
    let plain = match x {
        Value::Named(n) => {
            n.rownames.is_none()
                && n.colnames.is_none()
                && n.table.is_none()
                && n.match_length.is_none()
                && n.tsp.is_none()
                && n.attrs.is_empty()
                && n.value.dims().is_none()
        }
        Value::List(l) => l.class.is_none() && l.row_names.is_none(),
        Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Complex(_) => true,
        _ => false,
    };
    let kind = super::class::type_of(x, integer);
    let of_mode = match mode {
        "any" => true,
        "numeric" => matches!(kind, "double" | "integer"),
        // do_isvector: any other mode is compared with the type's name.
        _ => kind == mode,
    };
    plain && of_mode
}

fn is_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    if args.func == "is.vector" {
        let mode = match args.get("mode").map(names::bare) {
            None => "any",
            Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
            Some(_) => return Err(KernelError::new("invalid 'mode' argument")),
        };
        return Ok(Value::flag(is_vector(x, mode, ctx.is_integer(x))));
    }
    Ok(Value::flag(is_value(args.func, x, ctx.is_integer(x))))
}

fn is_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x").and_then(|t| is_type(args.func, t)) {
        Some(b) => Type::logical_const(vec![Some(b)]),
        None => Type::logical(Some(1)),
    })
}

/// R's `StringTrue`/`StringFalse`: the spellings `as.logical` reads.
fn text_logical(s: &str) -> Option<bool> {
    match s {
        "T" | "True" | "TRUE" | "true" => Some(true),
        "F" | "False" | "FALSE" | "false" => Some(false),
        _ => None,
    }
}

const LIST_TO_LOGICAL: &str = "'list' object cannot be coerced to type 'logical'";

/// R's `as.logical(x)`: attributes (a matrix's dim) dropped; numbers are
/// TRUE unless 0; text by its spelling; a factor by its levels' text.
fn as_logical(x: &Value) -> Result<Vec<Option<bool>>, KernelError> {
    Ok(match x {
        Value::Named(n) => return as_logical(&n.value),
        Value::Null => Vec::new(),
        Value::Bool(_) | Value::BoolMat(_) | Value::Num(_) | Value::Mat(_) => {
            x.as_logicals().unwrap_or_default().into_owned()
        }
        Value::Complex(z) => z
            .iter()
            .map(|c| (!c.re.is_nan() && !c.im.is_nan()).then_some(c.re != 0.0 || c.im != 0.0))
            .collect(),
        Value::ComplexMat(z) => z
            .iter()
            .map(|c| (!c.re.is_nan() && !c.im.is_nan()).then_some(c.re != 0.0 || c.im != 0.0))
            .collect(),
        Value::Str(_) | Value::StrMat(_) => x
            .as_strs()
            .unwrap_or_default()
            .iter()
            .map(|s| if text_is_na(s) { None } else { text_logical(s) })
            .collect(),
        Value::Factor(f) => {
            let levels: Vec<Option<bool>> = f.levels.iter().map(|l| text_logical(l)).collect();
            f.codes
                .iter()
                .map(|c| c.and_then(|c| levels.get(c as usize).copied().flatten()))
                .collect()
        }
        // A list of single values coerces element by element.
        Value::List(l) if as_frame(x).is_none() => {
            let mut out = Vec::with_capacity(l.items.len());
            for item in &l.items {
                match item {
                    Value::Num(_) | Value::Bool(_) | Value::Str(_) | Value::Factor(_)
                        if item.len() == 1 =>
                    {
                        out.extend(as_logical(item)?)
                    }
                    _ => return Err(KernelError::new(LIST_TO_LOGICAL)),
                }
            }
            out
        }
        Value::List(_) => return Err(KernelError::new(LIST_TO_LOGICAL)),
        Value::Formula(_) | Value::Lang(_) => {
            return Err(KernelError::new(format!(
                "cannot coerce type '{}' to vector of type 'logical'",
                x.type_name()
            )))
        }
    })
}

fn as_logical_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    Ok(Value::Bool(as_logical(
        args.get("x").unwrap_or(&Value::Null),
    )?))
}

fn as_logical_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(match args.ty("x") {
        None | Some(Type::Null) => Type::logical(Some(0)),
        Some(Type::Formula { .. }) => {
            return Err(args.error(
                "x",
                "cannot coerce type 'language' to vector of type 'logical'",
            ))
        }
        Some(t) if frame_fields(t).is_some() => {
            return Err(args.error("x", LIST_TO_LOGICAL));
        }
        Some(t @ (Type::Num { .. } | Type::Bool { .. })) => match t.const_nums() {
            Some(v) => Type::logical_const(
                v.iter()
                    .map(|x| (!x.is_nan()).then_some(*x != 0.0))
                    .collect(),
            ),
            None => Type::logical(t.len()),
        },
        Some(Type::Str {
            value: Some(v),
            len,
        }) if v.len() <= super::types::MAX_CONST_LEN => {
            let _ = len;
            Type::logical_const(
                v.iter()
                    .map(|s| if text_is_na(s) { None } else { text_logical(s) })
                    .collect(),
            )
        }
        Some(t) => Type::logical(t.len()),
    })
}

/// Calls the registered function `name` on `x` alone.
fn call(name: &str, x: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let k = registry()
        .get(name)
        .ok_or_else(|| KernelError::new(format!("could not find function \"{name}\"")))?;
    let matched = Args::match_call(k.name, k.params, vec![(None, x)])
        .map_err(|e| KernelError::new(e.message))?;
    k.call(&matched, ctx)
}

/// The modes `as.vector` makes and the function making each.
fn mode_function(mode: &str) -> Option<&'static str> {
    Some(match mode {
        "any" => "",
        "list" => "list",
        "numeric" | "double" => "as.numeric",
        "integer" => "as.integer",
        "character" => "as.character",
        "logical" => "as.logical",
        _ => return None,
    })
}

fn mode_error(mode: &str) -> String {
    match mode {
        "complex" | "raw" | "expression" | "symbol" | "name" | "pairlist" => {
            format!("flowcast's as.vector() does not make mode '{mode}'")
        }
        _ => "invalid 'mode' argument".to_string(),
    }
}

/// `as.vector(x)` (mode "any"): a matrix's data column by column, a
/// factor's labels, a list with its names but no class.
fn as_vector_any(x: &Value) -> Result<Value, KernelError> {
    Ok(match x {
        Value::Mat(m) => Value::Num(m.as_slice().to_vec()),
        Value::BoolMat(m) => Value::Bool(m.as_slice().to_vec()),
        Value::StrMat(m) => Value::Str(m.as_slice().to_vec()),
        Value::ComplexMat(m) => Value::Complex(m.as_slice().to_vec()),
        Value::Factor(f) => Value::Str(f.labels()),
        Value::List(_) if x.dist_values().is_some() => {
            Value::Num(x.dist_values().unwrap_or_default().to_vec())
        }
        Value::List(l) => Value::List(List {
            class: None,
            names: l.names.clone(),
            items: l.items.clone(),
            row_names: None,
        }),
        Value::Formula(_) => return Err(KernelError::new(
            "flowcast's as.vector() takes a vector, a matrix, a factor or a list, not a formula",
        )),
        other => other.clone(),
    })
}

/// `as.vector(x, "list")`: each element its own item (a factor's keep
/// their levels); a list stays itself without its class.
fn as_list(x: &Value) -> Result<Value, KernelError> {
    let items: Vec<Value> = match x {
        Value::List(_) => return as_vector_any(x),
        Value::Factor(f) => f
            .codes
            .iter()
            .map(|c| {
                Value::Factor(Factor {
                    codes: vec![*c],
                    levels: f.levels.clone(),
                    ordered: f.ordered,
                })
            })
            .collect(),
        other => match as_vector_any(other)? {
            Value::Num(v) => v.into_iter().map(Value::scalar).collect(),
            Value::Bool(v) => v.into_iter().map(|b| Value::Bool(vec![b])).collect(),
            Value::Str(v) => v.into_iter().map(|s| Value::Str(vec![s])).collect(),
            Value::Complex(v) => v.into_iter().map(|c| Value::Complex(vec![c])).collect(),
            Value::Null => Vec::new(),
            v => vec![v],
        },
    };
    Ok(Value::List(List::sequence(items)))
}

fn as_vector_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let mode = match args.get("mode") {
        None => "any",
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(_) => return Err(KernelError::new("invalid 'mode' argument")),
    };
    match mode_function(mode) {
        None => Err(KernelError::new(mode_error(mode))),
        Some("") => as_vector_any(x),
        Some("list") => as_list(x),
        Some(f) => match x {
            Value::List(_) if x.dist_values().is_none() => call(f, x, ctx),
            _ => call(f, &as_vector_any_keep_factor(x)?, ctx),
        },
    }
}

/// A matrix's data as a vector; a factor stays a factor, so
/// `as.vector(f, "numeric")` gives its codes as R's does.
fn as_vector_any_keep_factor(x: &Value) -> Result<Value, KernelError> {
    match x {
        Value::Factor(_) => Ok(x.clone()),
        other => as_vector_any(other),
    }
}

fn as_vector_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let mode = match args.ty("mode") {
        None => Some("any"),
        Some(t @ Type::Str { .. }) => t.const_str(),
        Some(Type::Any) => None,
        Some(_) => return Err(args.error("mode", "invalid 'mode' argument")),
    };
    let Some(mode) = mode else {
        return Ok(Type::Any);
    };
    let Some(f) = mode_function(mode) else {
        return Err(args.error("mode", mode_error(mode)));
    };
    let x = args.ty("x").cloned().unwrap_or(Type::Any);
    if matches!(x, Type::Formula { .. }) {
        return Err(args.error(
            "x",
            "flowcast's as.vector() takes a vector, a matrix, a factor or a list, not a formula",
        ));
    }
    let len = x.len();
    Ok(match (f, &x) {
        (_, Type::Any) => Type::Any,
        ("", Type::Mat { .. }) => Type::Num { len, value: None },
        ("", Type::BoolMat { .. }) => Type::logical(len),
        ("", Type::StrMat { .. }) => Type::Str { len, value: None },
        ("", Type::ComplexMat { .. }) => Type::Complex { len },
        ("", Type::Factor { .. }) => Type::Str { len, value: None },
        ("", Type::Record { class, .. }) if class == "dist" => Type::num_unknown(),
        ("", Type::Record { .. }) => Type::Any,
        ("", t) => t.clone(),
        ("list", Type::Record { .. } | Type::List { .. }) => Type::Any,
        ("list", _) => Type::List {
            len,
            elem: Box::new(Type::Any),
        },
        ("as.numeric" | "as.integer", _) => Type::Num { len, value: None },
        ("as.character", _) => Type::Str { len, value: None },
        _ => Type::logical(len),
    })
}

/// R's `as.data.frame` of a data frame, a table (`as.data.frame.table`),
/// a matrix, a list and a vector. A vector's column is named `nm`, which
/// the evaluator sets to the argument's text as R's `deparse1(substitute(x))`
/// does.
fn as_data_frame_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("argument \"x\" is missing, with no default"))?;
    let row_names = args.get("row.names").filter(|v| !matches!(v, Value::Null));
    let with_rows = |v: Value| -> Result<Value, KernelError> {
        let Some(r) = row_names else { return Ok(v) };
        let Value::List(mut l) = v else { return Ok(v) };
        l.row_names = row_names::given(r, frame::nrow(&l))?;
        Ok(Value::List(l))
    };
    if as_frame(x).is_some() {
        return with_rows(x.clone());
    }
    if names::table_dnn(x).is_some() {
        let response = args.str_or("responseName", "Freq")?;
        let factors = args.bool_or("stringsAsFactors", true)?;
        return with_rows(table_frame(x, response, factors)?);
    }
    if let Some(frame::MatrixParts {
        columns,
        colnames,
        rows,
    }) = frame::matrix_parts(x)
    {
        let names = match colnames {
            Some(c) => c.to_vec(),
            None => (1..=columns.len()).map(|j| format!("V{j}")).collect(),
        };
        return with_rows(frame::named_frame(names, columns, rows));
    }
    match names::bare(x) {
        Value::List(l) if l.class.is_none() => {
            let names = l.names.as_ref().filter(|n| n.iter().all(|s| !s.is_empty()));
            let Some(names) = names else {
                return Err(KernelError::new(
                    "flowcast's as.data.frame() of a list needs every item named \
                     (R names the others by their text)",
                ));
            };
            let k = registry()
                .get("data.frame")
                .ok_or_else(|| KernelError::new("could not find function \"data.frame\""))?;
            let given: Vec<(Option<String>, &Value)> = names
                .iter()
                .cloned()
                .map(Some)
                .zip(l.items.iter())
                .collect();
            let matched = Args::match_call(k.name, k.params, given)
                .map_err(|e| KernelError::new(e.message))?;
            with_rows(k.call(&matched, ctx)?)
        }
        v @ (Value::Num(_) | Value::Str(_) | Value::Bool(_) | Value::Factor(_)) => {
            let nm = match args.get("nm") {
                Some(Value::Str(s)) if s.len() == 1 => s[0].clone(),
                Some(_) => return Err(KernelError::new("'nm' must be a character string")),
                None => return Err(KernelError::new(VECTOR_NAME)),
            };
            let column = match v {
                Value::Str(_) if args.bool_or("stringsAsFactors", false)? => {
                    Value::Factor(super::factor::as_factor(v)?)
                }
                v => v.clone(),
            };
            let rows = match row_names {
                Some(r) => row_names::given(r, v.len())?,
                None => row_names::from_names(names::names(x)),
            };
            Ok(frame::named_frame(vec![nm], vec![column], rows))
        }
        other => Err(KernelError::new(format!(
            "cannot coerce class '\"{}\"' to a data.frame",
            match other {
                Value::List(l) => l.class.clone().unwrap_or_else(|| "list".into()),
                other => other.type_name().to_string(),
            }
        ))),
    }
}

const VECTOR_NAME: &str = "flowcast's as.data.frame() of a vector needs the column's name: \
     as.data.frame(x, nm = \"name\")";

/// R's `as.data.frame.table`: one row per cell of the table `x`, a column
/// per dimension holding the cell's labels (a factor of the dimension's
/// labels when `factors`; named by the dimnames' names, `Var1`, `Var2`, …
/// where they have none) and the counts as column `response`, the first
/// dimension varying fastest (`expand.grid`'s order).
pub(super) fn table_frame(x: &Value, response: &str, factors: bool) -> Result<Value, KernelError> {
    let (Value::Named(n), Some(dnn)) = (x, names::table_dnn(x)) else {
        return Err(KernelError::new("as.data.frame.table() needs a table"));
    };
    let extents: Vec<&[String]> = match (&n.names, &n.rownames, &n.colnames) {
        (Some(names), _, _) => vec![names],
        (None, Some(r), Some(c)) => vec![r, c],
        _ => return Err(KernelError::new("a table's dimnames are incomplete")),
    };
    let counts = n
        .value
        .as_f64_slice()
        .ok_or_else(|| KernelError::new("a table's counts must be numbers"))?;
    let mut names: Vec<String> = Vec::new();
    let mut columns: Vec<Value> = Vec::new();
    // expand.grid() of an empty dimension is a frame without columns.
    if extents.iter().all(|e| !e.is_empty()) {
        let mut each = 1;
        for (k, labels) in extents.iter().enumerate() {
            let cell: Vec<usize> = (0..counts.len())
                .map(|i| (i / each) % labels.len())
                .collect();
            each *= labels.len();
            names.push(match dnn.get(k).filter(|d| !d.is_empty()) {
                Some(d) => d.clone(),
                None => format!("Var{}", k + 1),
            });
            columns.push(if factors {
                Value::Factor(Factor {
                    codes: cell.iter().map(|&c| Some(c as u32)).collect(),
                    levels: labels.to_vec(),
                    ordered: false,
                })
            } else {
                Value::Str(cell.iter().map(|&c| labels[c].clone()).collect())
            });
        }
    }
    names.push(response.to_string());
    columns.push(Value::Num(counts.into_owned()));
    Ok(frame::frame(
        super::quote::make_names(&names, true, true),
        columns,
    ))
}

fn as_data_frame_shape(args: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    let x = args.ty("x").cloned().unwrap_or(Type::Any);
    if frame_fields(&x).is_some() {
        return Ok(x);
    }
    // A matrix's columns are named by its column names, a table's by its
    // dimnames, a vector's by its text: only the run knows them.
    Ok(match x {
        Type::Num { .. } | Type::Str { .. } | Type::Bool { .. } | Type::Factor { .. } => {
            match args.const_str("nm") {
                Some(nm) => Type::Record {
                    class: frame::CLASS.to_string(),
                    fields: vec![(nm.to_string(), x.without_value())],
                },
                None => Type::Any,
            }
        }
        _ => Type::Any,
    })
}

/// R's `is.na.data.frame`: `is.na` of each column, bound as the columns of
/// a logical matrix (text NA as flowcast reads it, see `factor`).
pub fn frame_is_na(l: &List) -> Result<Value, KernelError> {
    let rows = frame::nrow(l);
    let mut m = DMatrix::from_element(rows, l.items.len(), Some(false));
    for (j, c) in l.items.iter().enumerate() {
        let na: Vec<bool> = match c {
            Value::Num(v) => v.iter().map(|x| x.is_nan()).collect(),
            Value::Str(s) => s.iter().map(|s| text_is_na(s)).collect(),
            Value::Bool(b) => b.iter().map(Option::is_none).collect(),
            Value::Factor(f) => f.codes.iter().map(Option::is_none).collect(),
            other => {
                return Err(KernelError::new(format!(
                    "flowcast's is.na() of a data frame takes vector columns, not {}",
                    other.type_name()
                )))
            }
        };
        if na.len() != rows {
            return Err(KernelError::new(
                "the data frame's columns differ in length",
            ));
        }
        for (i, b) in na.into_iter().enumerate() {
            m[(i, j)] = Some(b);
        }
    }
    Ok(Value::BoolMat(m))
}

/// The shape of [`frame_is_na`]'s result.
pub fn frame_is_na_type(t: &Type) -> Option<Type> {
    let fields = frame_fields(t)?;
    let (rows, _) = frame::type_dims(t).unwrap_or((None, None));
    Some(Type::BoolMat {
        rows,
        cols: Some(fields.len()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_logical_reads_rs_spellings() {
        let s = Value::Str(
            ["T", "yes", "true", "False", "F", "0", "NA"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        );
        assert_eq!(
            as_logical(&s).unwrap(),
            vec![
                Some(true),
                None,
                Some(true),
                Some(false),
                Some(false),
                None,
                None
            ]
        );
        let f = Factor {
            codes: vec![Some(0), Some(1), None],
            levels: vec!["TRUE".into(), "x".into()],
            ordered: false,
        };
        assert_eq!(
            as_logical(&Value::Factor(f)).unwrap(),
            vec![Some(true), None, None]
        );
        assert!(as_logical(&Value::List(List::sequence(vec![Value::Num(vec![
            1.0, 2.0
        ])])))
        .is_err());
    }

    #[test]
    fn as_vector_drops_dim_and_class() {
        let m = Value::Mat(DMatrix::from_vec(2, 2, vec![1.0, 2.0, 3.0, 4.0]));
        assert_eq!(
            as_vector_any(&m).unwrap(),
            Value::Num(vec![1.0, 2.0, 3.0, 4.0])
        );
        let d = frame::frame(vec!["a".into()], vec![Value::Num(vec![1.0])]);
        let Value::List(l) = as_vector_any(&d).unwrap() else {
            panic!()
        };
        assert_eq!(l.class, None);
        assert_eq!(l.names, Some(vec!["a".to_string()]));
    }

    #[test]
    fn type_tests_agree_with_value_tests() {
        let cases = [
            (Value::Num(vec![1.0]), Type::num(1)),
            (Value::string("a"), Type::str_const("a")),
            (Value::flag(true), Type::logical(Some(1))),
            (Value::Null, Type::Null),
            (Value::Mat(DMatrix::zeros(1, 1)), Type::mat(1, 1)),
        ];
        for f in [
            "is.numeric",
            "is.character",
            "is.factor",
            "is.logical",
            "is.data.frame",
            "is.matrix",
            "is.null",
        ] {
            for (v, t) in &cases {
                assert_eq!(Some(is_value(f, v, false)), is_type(f, t), "{f} {v:?}");
            }
        }
    }
}
