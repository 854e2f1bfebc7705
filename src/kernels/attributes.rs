//! `attributes(x)` and `attr(x, which, exact)`: the attributes R keeps on
//! the value flowcast holds, in the order R sets them (a matrix's `dim`
//! before its `dimnames`, a factor's `levels` before its `class`, a data
//! frame's `names`, `class`, `row.names`). identical and all.equal compare
//! these.

use super::args::{ArgError, Args};
use super::class::class_attr;
use super::value::{List, RowNames};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "attributes",
        params: &[req("x")],
        random: false,
        shape: any,
        eval: attributes_eval,
    },
    Kernel {
        name: "attr",
        params: &[req("x"), req("which"), opt("exact")],
        random: false,
        shape: any,
        eval: attr_eval,
    },
];

fn strs(v: &[String]) -> Value {
    Value::Str(v.to_vec())
}

fn dim(d: &[usize]) -> Value {
    Value::Num(d.iter().map(|&n| n as f64).collect())
}

/// R's dimnames list: one item per dimension (NULL where a dimension has
/// no names), named by a table's `dnn`.
fn dimnames(items: Vec<Value>, dnn: Option<&[String]>) -> Value {
    Value::List(List {
        class: None,
        names: dnn.map(<[String]>::to_vec),
        items,
        row_names: None,
    })
}

/// R's `attributes(x)` as (name, value) pairs, in R's order.
pub(crate) fn attributes_of(x: &Value) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    let mut push = |n: &str, v: Value| out.push((n.to_string(), v));
    match x {
        Value::Mat(_) | Value::BoolMat(_) | Value::ComplexMat(_) | Value::StrMat(_) => {
            let (r, c) = x.dims().unwrap_or((0, 0));
            push("dim", dim(&[r, c]));
        }
        Value::Named(n) => match (&n.table, n.value.dims()) {
            // A one-way table is a one-dimensional array.
            (Some(dnn), None) => {
                let names = n.names.as_deref().map_or(Value::Null, strs);
                push("dim", dim(&[n.value.len()]));
                push("dimnames", dimnames(vec![names], Some(dnn)));
                push("class", Value::string("table"));
            }
            (table, Some((r, c))) => {
                push("dim", dim(&[r, c]));
                if n.rownames.is_some() || n.colnames.is_some() || table.is_some() {
                    let item = |n: &Option<Vec<String>>| n.as_deref().map_or(Value::Null, strs);
                    let items = vec![item(&n.rownames), item(&n.colnames)];
                    push("dimnames", dimnames(items, table.as_deref()));
                }
                if table.is_some() {
                    push("class", Value::string("table"));
                }
            }
            (None, None) => {
                if let Some(names) = &n.names {
                    push("names", strs(names));
                }
                if let Value::Factor(f) = &n.value {
                    push("levels", strs(&f.levels));
                    push("class", Value::string("factor"));
                }
            }
        },
        _ => {}
    }
    if let Value::Named(n) = x {
        // regexpr's and gregexpr's match data, as R's do_regexpr sets it.
        if let Some(ml) = &n.match_length {
            push("match.length", Value::Num(ml.clone()));
            push("index.type", Value::string("chars"));
            push("useBytes", Value::Bool(vec![Some(false)]));
        }
        if let Some(t) = n.tsp {
            push("tsp", Value::Num(t.to_vec()));
            if let Some(c) = class_attr(x) {
                push("class", Value::Str(c));
            }
        }
        for (name, v) in &n.attrs {
            push(name, v.clone());
        }
    }
    match x {
        Value::Named(_)
        | Value::Mat(_)
        | Value::BoolMat(_)
        | Value::ComplexMat(_)
        | Value::StrMat(_) => {}
        Value::Factor(f) => {
            push("levels", strs(&f.levels));
            push("class", Value::string("factor"));
        }
        Value::List(l) => {
            if let Some(names) = &l.names {
                push("names", strs(names));
            }
            if let Some(c) = class_attr(x) {
                push("class", Value::Str(c));
            }
            if l.class.as_deref() == Some(super::frame::CLASS) {
                let rows = match &l.row_names {
                    Some(RowNames::Text(t)) => Value::Str(t.clone()),
                    Some(RowNames::Numbers(n)) => {
                        Value::Num(n.iter().map(|&i| f64::from(i)).collect())
                    }
                    None => Value::Num((1..=super::frame::nrow(l)).map(|i| i as f64).collect()),
                };
                push("row.names", rows);
            }
        }
        Value::Formula(_) => push("class", Value::string("formula")),
        Value::Null
        | Value::Num(_)
        | Value::Complex(_)
        | Value::Str(_)
        | Value::Bool(_)
        | Value::Lang(_) => {}
    }
    out
}

/// The attributes as R's named list, NULL when there are none.
pub(crate) fn attributes_list(x: &Value) -> Value {
    let a = attributes_of(x);
    if a.is_empty() {
        return Value::Null;
    }
    let (names, items) = a.into_iter().unzip();
    Value::List(List {
        class: None,
        names: Some(names),
        items,
        row_names: None,
    })
}

fn attributes_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let x = args
        .get("x")
        .ok_or_else(|| KernelError::new("0 arguments passed to 'attributes' which requires 1"))?;
    Ok(attributes_list(x))
}

/// R's do_attr: the attribute named `which` exactly, else (unless
/// `exact`) the one it is a unique prefix of.
fn attr_eval(args: &Args<&Value>, _: &mut Ctx) -> Result<Value, KernelError> {
    let (Some(x), Some(which)) = (args.get("x"), args.get("which")) else {
        return Err(KernelError::new("either 2 or 3 arguments are required"));
    };
    let which = match super::names::bare(which) {
        Value::Str(s) if s.len() == 1 => s[0].clone(),
        Value::Str(_) => {
            return Err(KernelError::new(
                "exactly one attribute 'which' must be given",
            ))
        }
        _ => return Err(KernelError::new("'which' must be of mode character")),
    };
    let exact = match args.get("exact") {
        None => false,
        Some(e) => e.as_flag().unwrap_or(false),
    };
    let attrs = attributes_of(x);
    if let Some((_, v)) = attrs.iter().find(|(n, _)| *n == which) {
        return Ok(v.clone());
    }
    if exact || which == "NA" {
        return Ok(Value::Null);
    }
    let mut partial = attrs.iter().filter(|(n, _)| n.starts_with(&which));
    Ok(match (partial.next(), partial.next()) {
        (Some((_, v)), None) => v.clone(),
        _ => Value::Null,
    })
}

fn any(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}
