//! A function's parameters bound to the arguments of a call, as R's
//! `matchArgs` binds them: the inliner, shape inference and the evaluator
//! all bind so, whether the arguments are expressions, types or values.

use super::ast::{Arg, Expr, ExprKind, Param, DOTS};

/// A closure's parameters bound to the arguments it is called with (see
/// [`bind`]).
pub struct Bound<'p, T> {
    /// Each parameter but `...`, with its argument (`None`: none given).
    pub params: Vec<(&'p Param, Option<T>)>,
    /// What `...` took, in the call's order, with the names given; empty
    /// also where the function has no `...`.
    pub dots: Vec<(Option<String>, T)>,
    /// Whether the function takes `...`.
    pub has_dots: bool,
}

/// A closure's parameters bound to the arguments it is called with, as R
/// matches them: by exact name first, then by position; what no
/// parameter takes goes to `...`, where there is one. A parameter given
/// no argument takes its default (`None` here, for the caller to
/// evaluate); one with no default must receive a value, unless `body`
/// asks `missing(p)` of it (R reads an argument only where the body does:
/// `if (missing(b)) a else a + b`).
pub fn bind<'p, T>(
    params: &'p [Param],
    body: &Expr,
    given: Vec<(Option<String>, T)>,
) -> Result<Bound<'p, T>, String> {
    let dots = params.iter().position(|p| p.name == DOTS);
    // As many unnamed arguments as parameters: each takes its own.
    if dots.is_none() && given.len() == params.len() && given.iter().all(|(n, _)| n.is_none()) {
        return Ok(Bound {
            params: params
                .iter()
                .zip(given)
                .map(|(p, (_, v))| (p, Some(v)))
                .collect(),
            dots: Vec::new(),
            has_dots: false,
        });
    }
    let mut slots: Vec<Option<T>> = params.iter().map(|_| None).collect();
    let mut positional = Vec::new();
    // What `...` takes, by its place in the call: R keeps the call's order.
    let mut rest: Vec<(usize, Option<String>, T)> = Vec::new();
    for (at, (name, v)) in given.into_iter().enumerate() {
        match name {
            Some(n) => match params.iter().position(|p| p.name == n && n != DOTS) {
                Some(i) if slots[i].is_none() => slots[i] = Some(v),
                Some(_) => {
                    return Err(format!(
                        "formal argument \"{n}\" matched by multiple actual arguments"
                    ))
                }
                None if dots.is_some() => rest.push((at, Some(n), v)),
                None => return Err(format!("unused argument ({n} = ...)")),
            },
            None => positional.push((at, v)),
        }
    }
    // R gives positional arguments to the parameters no name took, in
    // order, defaults or not, up to a `...`.
    let mut positional = positional.into_iter();
    for (_, slot) in slots
        .iter_mut()
        .enumerate()
        .filter(|(i, s)| s.is_none() && dots.is_none_or(|d| *i < d))
    {
        match positional.next() {
            Some((_, v)) => *slot = Some(v),
            None => break,
        }
    }
    if dots.is_none() && !positional.as_slice().is_empty() {
        return Err(format!(
            "unused argument: the function takes {} argument{}",
            params.len(),
            if params.len() == 1 { "" } else { "s" }
        ));
    }
    rest.extend(positional.map(|(at, v)| (at, None, v)));
    rest.sort_by_key(|(at, ..)| *at);
    let params = params
        .iter()
        .zip(slots)
        .filter(|(p, _)| p.name != DOTS)
        .map(|(p, v)| match (v, &p.default) {
            (None, None) if !asks_missing(body, &p.name) => Err(format!(
                "argument \"{}\" is missing, with no default",
                p.name
            )),
            (v, _) => Ok((p, v)),
        })
        .collect::<Result<_, _>>()?;
    Ok(Bound {
        params,
        dots: rest.into_iter().map(|(_, n, v)| (n, v)).collect(),
        has_dots: dots.is_some(),
    })
}

/// Whether `body` calls `missing(name)` (a rare question, asked only of a
/// parameter given no argument and no default).
fn asks_missing(body: &Expr, name: &str) -> bool {
    let mut found = false;
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            found |= func == "missing" && missing_arg(args).is_ok_and(|n| n == name);
        }
        e.visit_children(&mut |c| stack.push(c));
    }
    found
}

/// The name `missing(x)` asks about, as R's `do_missing` takes it: a name,
/// or a string standing for one. The error is R's.
pub fn missing_arg(args: &[Arg]) -> Result<&str, String> {
    let [a] = args else {
        return Err(format!(
            "{} arguments passed to 'missing' which requires 1",
            args.len()
        ));
    };
    match &a.value.kind {
        ExprKind::Name(n) | ExprKind::Str(n) if !n.is_empty() => Ok(n),
        _ => Err("invalid use of 'missing'".into()),
    }
}

/// Whether a call passes `...` on among `args`.
pub fn passes_dots(args: &[Arg]) -> bool {
    args.iter()
        .any(|a| matches!(&a.value.kind, ExprKind::Name(n) if n == DOTS))
}

/// `args` with each `...` among them replaced by what a `...` took, under
/// `names` (`""` where it was given none): R's `..1`, `..2`, ….
pub fn expand_dots(args: &[Arg], names: &[String]) -> Vec<Arg> {
    let mut out = Vec::with_capacity(args.len() + names.len());
    for a in args {
        if !matches!(&a.value.kind, ExprKind::Name(n) if n == DOTS) {
            out.push(a.clone());
            continue;
        }
        out.extend(names.iter().enumerate().map(|(k, n)| Arg {
            name: (!n.is_empty()).then(|| n.clone()),
            value: Expr {
                kind: ExprKind::Name(format!("..{}", k + 1)),
                span: a.value.span,
            },
            span: a.span,
        }));
    }
    out
}
