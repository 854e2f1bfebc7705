//! `rapply`: base/R/rapply.R over `do_rapply` and `do_one` in R's
//! src/main/apply.c. Lists (NULL and data frames among them) are walked;
//! every other element is `f(x, ...)` when its class is one of `classes`,
//! else itself (`how = "replace"`) or `deflt`. `how = "unlist"` flattens
//! the result as `unlist(res, recursive = TRUE)`.
//!
//! flowcast holds R's integers as doubles and knows which values are
//! integers only from how an argument was written. An `object` written
//! as `list(...)` in the call has each leaf judged so (the evaluator
//! marks the list and its integer leaves); for any other list, `classes`
//! naming a numeric class ("numeric", "integer", "double") is refused
//! rather than matched differently from R.

use super::args::{ArgError, Args};
use super::fun::{self, Fun};
use super::names::bare;
use super::value::List;
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value, DOTS};

pub(super) static KERNELS: &[Kernel] = &[Kernel {
    name: "rapply",
    params: &[
        req("object"),
        req("f"),
        opt("classes"),
        opt("deflt"),
        opt("how"),
        DOTS,
    ],
    random: false,
    shape: rapply_shape,
    eval: rapply_eval,
}];

const HOW: &[&str] = &["unlist", "replace", "list"];

/// The classes whose members flowcast cannot tell apart inside a list.
const NUMERIC_CLASSES: &[&str] = &["numeric", "integer", "double"];

fn numeric_classes_refused(c: &str) -> String {
    format!(
        "flowcast's rapply() cannot match classes = \"{c}\": it does not know which numbers \
         inside a list are R integers; use \"ANY\" and test inside f"
    )
}

/// The walk of `do_one`, with what stays the same through it.
struct Walk<'a, 'f> {
    f: Fun<'f>,
    /// `None` for "ANY".
    classes: Option<&'a [String]>,
    deflt: &'a Value,
    replace: bool,
    dots: Vec<(Option<&'a str>, &'a Value)>,
}

impl Walk<'_, '_> {
    /// R's `do_one`: a list (or NULL) is walked element by element,
    /// keeping its names; anything else is f's value, itself or `deflt`.
    fn one(&self, x: &Value, ctx: &mut Ctx) -> Result<Value, KernelError> {
        match x {
            Value::List(l) => self.list(l, ctx),
            Value::Null => self.list(&List::default(), ctx),
            _ => {
                let matched = match self.classes {
                    None => true,
                    Some(classes) => super::class::class_of(x, ctx.is_integer(x))
                        .iter()
                        .any(|c| classes.contains(c)),
                };
                if matched {
                    self.f.call_on(x, &self.dots, ctx)
                } else if self.replace {
                    Ok(x.clone())
                } else {
                    Ok(self.deflt.clone())
                }
            }
        }
    }

    fn list(&self, l: &List, ctx: &mut Ctx) -> Result<Value, KernelError> {
        let items = l
            .items
            .iter()
            .map(|e| self.one(e, ctx))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Value::List(List {
            class: None,
            names: l.names.clone(),
            items,
            row_names: None,
        }))
    }
}

/// `unlist(x, recursive = TRUE)`: the leaves combined as `c` combines them.
fn flatten(v: &Value) -> Result<Value, KernelError> {
    match v {
        Value::List(l) => {
            let items = l.items.iter().map(flatten).collect::<Result<Vec<_>, _>>()?;
            super::data::combine(&items.iter().collect::<Vec<_>>())
        }
        other => Ok(other.clone()),
    }
}

fn rapply_eval(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    // rapply.R's match.arg(how) comes before .Internal's checks.
    let how = super::filter::choice(args.get("how"), HOW)?;
    let object = args
        .get("object")
        .ok_or_else(|| KernelError::new("argument \"object\" is missing, with no default"))?;
    let Value::List(top) = object else {
        return Err(KernelError::new("'object' must be a list or expression"));
    };
    let f = match fun::resolve(args.get("f"), ctx) {
        Ok(Some(f)) => f,
        Ok(None) if args.get("f").is_none() => {
            return Err(KernelError::new(
                "argument \"f\" is missing, with no default",
            ))
        }
        _ => return Err(KernelError::new("invalid 'f' argument")),
    };
    let classes = match args.get("classes").map(bare) {
        None => None,
        Some(Value::Str(c)) if !c.is_empty() => {
            if c[0] == "ANY" {
                None
            } else {
                let known = ctx.is_integer(object);
                if let Some(n) = c.iter().find(|c| NUMERIC_CLASSES.contains(&c.as_str())) {
                    if !known {
                        return Err(KernelError::new(numeric_classes_refused(n)));
                    }
                }
                Some(&c[..])
            }
        }
        Some(_) => return Err(KernelError::new("invalid 'classes' argument")),
    };
    let walk = Walk {
        f,
        classes,
        deflt: args.get("deflt").unwrap_or(&Value::Null),
        replace: how == "replace",
        dots: args.dots().collect(),
    };
    let res = walk.list(top, ctx)?;
    match (how, res) {
        ("unlist", res) => flatten(&res),
        // do_rapply copies the object's attributes when replacing: a data
        // frame stays one.
        ("replace", Value::List(mut l)) => {
            l.class = top.class.clone();
            l.row_names = top.row_names.clone();
            Ok(Value::List(l))
        }
        (_, res) => Ok(res),
    }
}

fn rapply_shape(args: &Args<Type>, ctx: &ShapeCtx) -> Result<Type, ArgError> {
    let how = match args.ty("how") {
        None => "unlist",
        Some(Type::Str {
            value: Some(v),
            len: Some(1),
        }) => super::vector::match_arg(&v[0], HOW).map_err(|e| args.error("how", e.0))?,
        Some(Type::Str { .. } | Type::Any) => return Ok(Type::Any),
        Some(_) => return Err(args.error("how", "'arg' must be NULL or a character vector")),
    };
    match args.ty("object") {
        Some(
            Type::Num { .. }
            | Type::Mat { .. }
            | Type::Str { .. }
            | Type::Bool { .. }
            | Type::BoolMat { .. }
            | Type::Complex { .. }
            | Type::ComplexMat { .. }
            | Type::Factor { .. }
            | Type::Formula { .. },
        ) => return Err(args.error("object", "'object' must be a list or expression")),
        None => return Err(args.error("object", "argument \"object\" is missing, with no default")),
        _ => {}
    }
    match args.ty("classes") {
        None | Some(Type::Any) => {}
        // Whether the numeric classes can be told apart is known only
        // when the call runs (see the module's note).
        Some(Type::Str { .. }) => {}
        Some(_) => return Err(args.error("classes", "invalid 'classes' argument")),
    }
    // do_rapply's isFunction test, in its words.
    let f = fun::resolve_shape(args.ty("f"), ctx)
        .map_err(|_| args.error("f", "invalid 'f' argument"))?;
    let Some(f) = f else {
        return match args.ty("f") {
            None => Err(args.error("f", "argument \"f\" is missing, with no default")),
            Some(_) => Ok(Type::Any),
        };
    };
    // A flat list of one element type with every element matched: f's
    // type is known, and it runs once per element.
    let flat = match args.ty("object") {
        Some(Type::List { len, elem })
            if !matches!(
                elem.as_ref(),
                Type::List { .. } | Type::Record { .. } | Type::Null | Type::Any
            ) && args.ty("classes").is_none() =>
        {
            Some((*len, elem.as_ref().clone()))
        }
        _ => None,
    };
    // f's own checks, on an element and the call's `...`.
    let given = |elem: Type| -> Vec<(Option<String>, Type)> {
        let mut given = vec![(None, elem)];
        given.extend(
            args.dots()
                .map(|(nm, t)| (nm.map(str::to_string), t.clone())),
        );
        given
    };
    let Some((len, elem)) = flat else {
        // Nested or mixed: an element of unknown type.
        f.shape(given(Type::Any), None, ctx)
            .map_err(|m| args.error("f", m))?;
        return Ok(Type::Any);
    };
    let one = f
        .shape(given(elem), len, ctx)
        .map_err(|m| args.error("f", m))?
        .without_value();
    Ok(match how {
        "unlist" => match one {
            Type::Num { len: Some(1), .. } => Type::Num { len, value: None },
            Type::Str { len: Some(1), .. } => Type::Str { len, value: None },
            Type::Bool { len: Some(1), .. } => Type::logical(len),
            _ => Type::Any,
        },
        _ => Type::List {
            len,
            elem: Box::new(one),
        },
    })
}
