//! Functions defined as steps: `se = "function(x) sd(x) / sqrt(length(x))"`.
//!
//! A function is not a task: nothing runs until it is called. So each use is
//! replaced by the function itself before the graph is built. `se(v)`
//! becomes an [`ExprKind::Apply`] holding the body, and `sapply(g, se)`
//! takes the `function(x) ...` in place of the name, as if it had been
//! written there. What the body reads is then read by the step that calls
//! it, so dependences, shapes, costs and cache keys all see through the
//! call. The function steps themselves leave the workflow.
//!
//! A function assigned inside a step's statements (`f <- function(a) a *
//! k; f(2) + f(3)`) is put in the same way, at each use after it in the
//! same statements, and its assignment leaves them.

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, SourceFile, Span};

use super::ast::{Arg, Expr, ExprKind, FunctionStep, Param, Step, StepBody, DOTS, RECALL};
use super::binding;
use super::depth::{height, MAX_DEPTH};
use super::vectorize;
use crate::kernels::callable::CALL_VALUE;

/// A function step's parameters and body, with its uses already replaced.
type Def = (Vec<Param>, Expr);

/// A local function's name, with the functions its body calls and where.
type LocalDef = (String, Vec<(String, Span)>);

/// Replaces every use of a function step in `steps` and removes the
/// function steps, which it returns in file order; the errors name the use.
pub fn inline(
    file: &SourceFile,
    steps: &mut Vec<Step>,
) -> Result<Vec<FunctionStep>, Vec<Diagnostic>> {
    let is_def = |s: &Step| matches!(&s.body, StepBody::Expr(e) if matches!(e.kind, ExprKind::Function { .. }));
    let any_def = steps.iter().any(is_def);
    if !any_def
        && !steps.iter().any(defines_local_function)
        && !steps
            .iter()
            .any(|s| calls(s, "Vectorize") || calls(s, "Recall"))
    {
        return Ok(Vec::new());
    }
    if any_def && steps.iter().all(is_def) {
        let first = &steps[0];
        return Err(vec![Diagnostic::new(
            file,
            Some(first.name_span),
            "every step is a function: a workflow needs a step that computes something \
             (a function step only runs where another step calls it)",
        )
        .in_step(&first.name)]);
    }
    let (defs, mut rest): (Vec<Step>, Vec<Step>) =
        std::mem::take(steps).into_iter().partition(is_def);
    let mut raw: HashMap<String, Def> = HashMap::new();
    let mut functions = Vec::new();
    let written = |name: &str, name_span, span: crate::diagnostic::Span| FunctionStep {
        name: name.to_string(),
        name_span,
        source: file
            .text
            .get(span.start..span.end)
            .unwrap_or_default()
            .to_string(),
    };
    for s in defs {
        if let StepBody::Expr(Expr {
            kind: ExprKind::Function { params, body },
            span,
        }) = s.body
        {
            functions.push(written(&s.name, s.name_span, span));
            raw.insert(s.name, (params, *body));
        }
    }
    // A step `vf = "Vectorize(f)"` is a function step too: the function
    // it makes, from the definition of `f` as written.
    let mut diags = Vec::new();
    rest.retain_mut(|s| {
        let StepBody::Expr(Expr {
            kind: ExprKind::Call { func, args, .. },
            span,
        }) = &mut s.body
        else {
            return true;
        };
        if func != "Vectorize" {
            return true;
        }
        if let Some(fun) = vectorize::fun_arg(args) {
            if let ExprKind::Name(n) = &fun.kind {
                if let Some((params, body)) = raw.get(n) {
                    fun.kind = ExprKind::Function {
                        params: params.clone(),
                        body: Box::new(body.clone()),
                    };
                }
            }
        }
        match vectorize::function(args, *span) {
            Ok(Expr {
                kind: ExprKind::Function { params, body },
                ..
            }) => {
                functions.push(written(&s.name, s.name_span, *span));
                raw.insert(s.name.clone(), (params, *body));
                false
            }
            Ok(_) => true,
            Err(m) => {
                diags.push(Diagnostic::new(file, Some(*span), m).in_step(&s.name));
                false
            }
        }
    });
    if !diags.is_empty() {
        return Err(diags);
    }
    let step_names: Vec<String> = rest.iter().map(|s| s.name.clone()).collect();
    let mut cx = Inliner {
        file,
        raw: &raw,
        steps: &step_names,
        done: HashMap::new(),
        open: Vec::new(),
        local: Vec::new(),
        frames: Vec::new(),
        named: Vec::new(),
        diags: Vec::new(),
    };
    let mut names: Vec<&String> = raw.keys().collect();
    names.sort();
    for name in names {
        cx.def(name);
    }
    for step in &mut rest {
        let mark = cx.diags.len();
        match &mut step.body {
            StepBody::Expr(e) => cx.expr(e, &mut Vec::new()),
            StepBody::Loop(l) => {
                cx.expr(&mut l.range, &mut Vec::new());
                cx.expr(&mut l.body, &mut vec![l.var.clone()]);
            }
        }
        for d in &mut cx.diags[mark..] {
            if d.step.is_none() {
                d.step = Some(step.name.clone());
            }
        }
    }
    let diags = cx.diags;
    *steps = rest;
    functions.sort_by_key(|f| f.name_span.start);
    if diags.is_empty() {
        Ok(functions)
    } else {
        Err(diags)
    }
}

struct Inliner<'a> {
    file: &'a SourceFile,
    raw: &'a HashMap<String, Def>,
    /// The steps that compute something, whose names mean their values.
    steps: &'a [String],
    /// Definitions whose own uses are replaced; `None` for one that failed.
    done: HashMap<String, Option<Def>>,
    /// The definitions being replaced, to catch a function that calls
    /// itself.
    open: Vec<String>,
    /// Functions assigned in the statements being walked, innermost last.
    local: Vec<Local>,
    /// Where in the names in scope each function being walked begins: its
    /// parameters and locals are a new environment, which a function
    /// assigned outside it cannot see.
    frames: Vec<usize>,
    /// The function whose body is being walked, innermost last: its name,
    /// or `None` for a `function(...)` written in place, which has none.
    named: Vec<Option<(String, Vec<Param>)>>,
    diags: Vec<Diagnostic>,
}

/// A function assigned in a step's statements: its name, its definition,
/// and how many names were in scope where it was made (a name bound
/// after those, at a use, is not the one its body meant).
struct Local {
    name: String,
    def: Def,
    scope: usize,
}

impl Local {
    fn new(name: &str, params: &[Param], body: &Expr, scope: usize) -> Local {
        Local {
            name: name.to_string(),
            def: (params.to_vec(), body.clone()),
            scope,
        }
    }
}

/// Whether `s` calls `func`: `Vectorize`, which makes a function (see
/// `vectorize`), or `Recall`, which calls one.
fn calls(s: &Step, func: &str) -> bool {
    let mut found = false;
    let mut stack: Vec<&Expr> = match &s.body {
        StepBody::Expr(e) => vec![e],
        StepBody::Loop(l) => vec![&l.range, &l.body],
    };
    while let Some(e) = stack.pop() {
        found |= matches!(&e.kind, ExprKind::Call { func: f, .. } if f == func);
        e.visit_children(&mut |c| stack.push(c));
    }
    found
}

/// A function given to a function for one of its parameters (`stat` in
/// `boot <- function(x, stat) stat(sample(x))`, called `boot(v, median)`,
/// or a `function(v) ...` given for it): R passes it as a value, flowcast
/// puts it in place in this call's copy of `body`, wherever the parameter
/// is called or passed on, and the call passes NULL for the parameter.
/// A name given is taken for a function only where the body calls the
/// parameter. The error: a function given that reads a name the body
/// binds, which would mean another variable once put there.
fn given_functions(
    func: &str,
    params: &mut [Param],
    body: &mut Expr,
    args: &mut [Arg],
    is_function: &dyn Fn(&str) -> bool,
) -> Result<(), String> {
    let given = args
        .iter()
        .enumerate()
        .map(|(i, a)| (a.name.clone(), i))
        .collect();
    // A call that does not bind fails as it runs, with R's message.
    let Ok(b) = binding::bind(params, body, given) else {
        return Ok(());
    };
    let bound: Vec<(String, Option<usize>)> = b
        .params
        .iter()
        .map(|(p, at)| (p.name.clone(), *at))
        .collect();
    let mut inside: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let mut assigned = Vec::new();
    body.assigned(&mut assigned);
    inside.extend(assigned.into_iter().map(String::from));
    for (name, at) in bound {
        let Some(p) = params.iter_mut().find(|p| p.name == name) else {
            continue;
        };
        // The function: the argument given, or else the default.
        let f = match at {
            Some(at) => &args[at].value,
            None => match &p.default {
                Some(d) => d,
                None => continue,
            },
        };
        let is_fn = match &f.kind {
            ExprKind::Function { .. } => true,
            ExprKind::Name(n) => is_function(n) || calls_name(body, &name),
            _ => false,
        };
        if !is_fn || rebinds(body, &name) {
            continue;
        }
        if matches!(f.kind, ExprKind::Function { .. }) {
            let mut clash = None;
            f.visit_names(&mut |n, _| {
                if clash.is_none() && inside.iter().any(|i| i == n) {
                    clash = Some(n.to_string());
                }
            });
            if let Some(n) = clash {
                return Err(format!(
                    "the function given for `{name}` reads `{n}`, which is also a parameter \
                     or local of `{func}`: rename one of them"
                ));
            }
        }
        let f = f.clone();
        put_function(body, &name, &f);
        let null = |span| Expr {
            kind: ExprKind::Null,
            span,
        };
        // Nothing reads the parameter now: its default is not looked up.
        if let Some(d) = &mut p.default {
            *d = null(d.span);
        }
        if let Some(at) = at {
            args[at].value = null(args[at].value.span);
        }
    }
    Ok(())
}

/// Whether `e` calls `name` as a function, outside the functions put in it.
fn calls_name(e: &Expr, name: &str) -> bool {
    let mut found = false;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Call { func, .. } if func == name => found = true,
            ExprKind::Apply { args, .. } => stack.extend(args.iter().map(|a| &a.value)),
            _ => e.visit_children(&mut |c| stack.push(c)),
        }
    }
    found
}

/// Whether `e` binds `name` anew: assigns it, loops over it, or has a
/// function whose parameter it is.
fn rebinds(e: &Expr, name: &str) -> bool {
    let mut found = false;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Assign { name: n, .. } | ExprKind::For { var: n, .. } if n == name => {
                found = true
            }
            ExprKind::Function { params, .. } if params.iter().any(|p| p.name == name) => {
                found = true
            }
            ExprKind::Apply { args, .. } => {
                stack.extend(args.iter().map(|a| &a.value));
                continue;
            }
            _ => {}
        }
        e.visit_children(&mut |c| stack.push(c));
    }
    found
}

/// `e` with the function `f` (a name or a `function(...)`) put where the
/// parameter `param` is called or read. A call of the running function
/// again passes NULL for it, as the call of it did.
fn put_function(e: &mut Expr, param: &str, f: &Expr) {
    match &mut e.kind {
        ExprKind::Call {
            func,
            func_span,
            args,
        } if func == param => {
            args.iter_mut()
                .for_each(|a| put_function(&mut a.value, param, f));
            match &f.kind {
                ExprKind::Function { params, body } => {
                    e.kind = ExprKind::Apply {
                        func: param.to_string(),
                        func_span: *func_span,
                        params: params.clone(),
                        body: body.clone(),
                        args: std::mem::take(args),
                    }
                }
                ExprKind::Name(n) => *func = n.clone(),
                _ => {}
            }
        }
        ExprKind::Call { func, args, .. } if func == RECALL => {
            for a in args.iter_mut() {
                match &a.value.kind {
                    ExprKind::Name(n) if n == param => a.value.kind = ExprKind::Null,
                    _ => put_function(&mut a.value, param, f),
                }
            }
        }
        ExprKind::Name(n) if n == param => e.kind = f.kind.clone(),
        // Another function's body has names of its own; a formula is not
        // evaluated where it is written.
        ExprKind::Apply { args, .. } => args
            .iter_mut()
            .for_each(|a| put_function(&mut a.value, param, f)),
        ExprKind::Formula { .. } => {}
        _ => e.visit_children_mut(&mut |c| put_function(c, param, f)),
    }
}

/// Whether any statement of `s` assigns a function to a name.
fn defines_local_function(s: &Step) -> bool {
    let mut found = false;
    let mut stack: Vec<&Expr> = match &s.body {
        StepBody::Expr(e) => vec![e],
        StepBody::Loop(l) => vec![&l.range, &l.body],
    };
    while let Some(e) = stack.pop() {
        if let ExprKind::Assign { value, .. } = &e.kind {
            found |= matches!(&value.kind, ExprKind::Function { .. })
                || matches!(&value.kind, ExprKind::Call { func, .. } if func == "Vectorize");
        }
        e.visit_children(&mut |c| stack.push(c));
    }
    found
}

impl Inliner<'_> {
    /// The definition of `name` with its own uses replaced.
    fn def(&mut self, name: &str) -> Option<Def> {
        if let Some(d) = self.done.get(name) {
            return d.clone();
        }
        let (params, body) = self.raw.get(name)?.clone();
        self.open.push(name.to_string());
        self.named.push(Some((name.to_string(), params.clone())));
        let mark = self.diags.len();
        let mut body = body;
        let mut bound: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
        self.expr(&mut body, &mut bound);
        self.named.pop();
        self.open.pop();
        for d in &mut self.diags[mark..] {
            d.step.get_or_insert_with(|| name.to_string());
        }
        let ok = self.diags.len() == mark;
        let d = ok.then_some((params, body));
        self.done.insert(name.to_string(), d.clone());
        d
    }

    fn error(&mut self, span: Span, message: String) {
        self.diags
            .push(Diagnostic::new(self.file, Some(span), message));
    }

    /// The function a call of `func` at `span` calls again, if it is a
    /// call of the function whose body is being walked (`fib(n - 1)` in
    /// fib's, or R's `Recall`), not hidden by a parameter or local of that
    /// name: it becomes a call of [`RECALL`], which the evaluator runs.
    fn recursion(&mut self, func: &str, span: Span, bound: &[String]) -> Option<String> {
        let innermost = self.named.last()?;
        if func == "Recall" && !bound.iter().any(|b| b == func) {
            return match innermost {
                Some((name, _)) => Some(name.clone()),
                None => {
                    self.error(
                        span,
                        "Recall in a function written in place (`function(x) ...` given to \
                         sapply and the like) has no name to call again: define the \
                         function as a step or a local, and call it by its name"
                            .into(),
                    );
                    // Reported: not also an unknown function.
                    Some(func.to_string())
                }
            };
        }
        // From a `function(...)` written inside it too (`sapply(x,
        // function(v) f(v - 1))`), which runs within the call of it.
        self.enclosing(func, bound).map(|_| func.to_string())
    }

    /// The parameters of `name`, when it is the named function whose body
    /// is being walked (perhaps inside a `function(...)` written there),
    /// not hidden by a parameter or local of that name.
    fn enclosing(&self, name: &str, bound: &[String]) -> Option<Vec<Param>> {
        match self.named.iter().rev().flatten().next() {
            Some((n, params)) if n == name && !bound.iter().any(|b| b == name) => {
                Some(params.clone())
            }
            _ => None,
        }
    }

    /// The arguments passing a function's own parameters on, by name, to
    /// a call of it (the function `name` given as a value), and its `...`
    /// as `...`.
    fn own_args(params: &[Param], span: Span) -> Vec<Arg> {
        params
            .iter()
            .map(|p| Arg {
                name: (p.name != DOTS).then(|| p.name.clone()),
                value: Expr {
                    kind: ExprKind::Name(p.name.clone()),
                    span,
                },
                span,
            })
            .collect()
    }

    /// The function `name` is, for a use at `span` with `bound` in scope:
    /// `None` when `name` is no function there, `Some(None)` when it failed
    /// (its error is reported already).
    fn use_of(&mut self, name: &str, span: Span, bound: &[String]) -> Option<Option<Def>> {
        if let Some(i) = self.local.iter().rposition(|l| l.name == name) {
            let l = &self.local[i];
            // A parameter or local of that name made since hides it.
            if bound
                .get(l.scope..)
                .unwrap_or_default()
                .contains(&name.to_string())
            {
                return None;
            }
            // Names of the functions entered since: what the body's names
            // would wrongly mean once it stands here.
            let inner = self
                .frames
                .iter()
                .find(|&&f| f >= l.scope)
                .map_or(&[][..], |&f| bound.get(f..).unwrap_or_default());
            let (params, body) = &l.def;
            // What the body reads from outside it (not its parameters or
            // its own locals).
            let mut captured = None;
            let function = Expr {
                kind: ExprKind::Function {
                    params: params.clone(),
                    body: Box::new(body.clone()),
                },
                span,
            };
            function.visit_names(&mut |n, _| {
                if captured.is_none() && inner.iter().any(|b| b == n) {
                    captured = Some(n.to_string());
                }
            });
            if let Some(n) = captured {
                self.error(
                    span,
                    format!(
                        "`{name}` reads `{n}`, which is another variable here (a parameter or \
                         local of the function this call is in): rename one of them"
                    ),
                );
                return Some(None);
            }
            return Some(Some(l.def.clone()));
        }
        let local = !self.raw.contains_key(name);
        if local && !self.open.iter().any(|n| n == name) {
            return None;
        }
        if let Some(at) = self.open.iter().position(|n| n == name) {
            self.error(span, cycle(&self.open[at..], name));
            return Some(None);
        }
        Some(self.def(name))
    }

    /// Replaces the uses in `e` (not inside what it puts in place: that is
    /// replaced already), then checks that the result is not too deep.
    fn expr(&mut self, e: &mut Expr, bound: &mut Vec<String>) {
        let mark = self.diags.len();
        self.replace(e, bound);
        if self.diags.len() == mark && height(e) > MAX_DEPTH {
            self.error(
                e.span,
                format!(
                    "expression nested too deeply once its function steps are put in: more \
                     than {MAX_DEPTH} operations inside one another"
                ),
            );
        }
    }

    /// Refuses a call in local function `name`'s body of a local function
    /// defined after it in the same statements (`later`). R finds that one
    /// when the call runs; flowcast resolves the calls in a local function
    /// where it is defined, before the later one is known.
    fn forward_call(
        &mut self,
        name: &str,
        calls: &[(String, Span)],
        later: &[Option<LocalDef>],
        bound: &[String],
    ) {
        let known = |f: &str| {
            self.raw.contains_key(f)
                || self.local.iter().any(|l| l.name == f)
                || bound.iter().any(|b| b == f)
        };
        for (func, at) in calls {
            if func == name || known(func) {
                continue;
            }
            let Some(callee) = later.iter().flatten().find(|(n, _)| n == func) else {
                continue;
            };
            let message = if callee.1.iter().any(|(f, _)| f == name) {
                format!(
                    "`{name}` and `{func}` call each other: a local function may call itself, \
                     but not through another function (merge them into one)"
                )
            } else {
                format!(
                    "could not find function `{func}`: `{name}` calls it, but it is defined \
                     after `{name}`, and flowcast resolves a local function's calls where it \
                     is defined: define `{func}` before `{name}`"
                )
            };
            self.error(*at, message);
            return;
        }
    }

    /// Replaces the uses in a function's parameter defaults and body, its
    /// parameters in scope there.
    fn function(&mut self, params: &mut [Param], body: &mut Expr, bound: &mut Vec<String>) {
        let outer = bound.len();
        bound.extend(params.iter().map(|p| p.name.clone()));
        for d in params.iter_mut().filter_map(|p| p.default.as_mut()) {
            self.replace(d, bound);
        }
        self.replace(body, bound);
        bound.truncate(outer);
    }

    /// `bound`: the parameters and locals in scope, which a name of a
    /// function step does not mean there.
    fn replace(&mut self, e: &mut Expr, bound: &mut Vec<String>) {
        match &mut e.kind {
            ExprKind::Call {
                func,
                func_span,
                args,
            } => {
                for a in args.iter_mut() {
                    self.replace(&mut a.value, bound);
                }
                if func == "Vectorize" {
                    match vectorize::function(args, e.span) {
                        Ok(f) => *e = f,
                        Err(m) => self.error(e.span, m),
                    }
                    return;
                }
                // `Vectorize(f)(x, y)`: the function made, called where it
                // is written.
                if func == CALL_VALUE {
                    if let [made, text, ..] = &args[..] {
                        if let ExprKind::Function { params, body } = &made.value.kind {
                            let func = match &text.value.kind {
                                ExprKind::Str(s) => s.clone(),
                                _ => "function".into(),
                            };
                            e.kind = ExprKind::Apply {
                                func,
                                func_span: made.value.span,
                                params: params.clone(),
                                body: body.clone(),
                                args: args[2..].to_vec(),
                            };
                            return;
                        }
                    }
                }
                if let Some(name) = self.recursion(func, *func_span, bound) {
                    e.kind = recall(&name, std::mem::take(args), *func_span);
                    return;
                }
                if let Some(def) = self.use_of(func, *func_span, bound) {
                    let Some((mut params, mut body)) = def else {
                        return;
                    };
                    let (func, func_span, mut args) =
                        (func.clone(), *func_span, std::mem::take(args));
                    // A name that no step or variable here has: a function.
                    let steps = self.steps;
                    let is_function = |n: &str| {
                        crate::kernels::registry().get(n).is_some()
                            && !steps.iter().any(|s| s == n)
                            && !bound.iter().any(|b| b == n)
                    };
                    let given =
                        given_functions(&func, &mut params, &mut body, &mut args, &is_function);
                    if let Err(m) = given {
                        self.error(func_span, m);
                        return;
                    }
                    e.kind = ExprKind::Apply {
                        func,
                        func_span,
                        params,
                        body: Box::new(body),
                        args,
                    };
                }
            }
            ExprKind::Name(n) if !bound.contains(n) || self.local.iter().any(|l| &l.name == n) => {
                let n = n.clone();
                // Itself given as a value inside its body (`lapply(l,
                // flat)` in flat's): a function calling it again.
                if let Some(params) = self.enclosing(&n, bound) {
                    let args = Self::own_args(&params, e.span);
                    e.kind = ExprKind::Function {
                        params,
                        body: Box::new(Expr {
                            kind: recall(&n, args, e.span),
                            span: e.span,
                        }),
                    };
                    return;
                }
                if let Some(def) = self.use_of(&n, e.span, bound) {
                    let Some((params, body)) = def else { return };
                    // Where a function is taken, it stands there as written;
                    // anywhere else the closure rules refuse it. One that
                    // calls itself is taken as a call of it, which its calls
                    // of itself find (`function(n) fib(n)`).
                    let body = if recalls(&body, &n) {
                        let args = Self::own_args(&params, e.span);
                        Expr {
                            kind: ExprKind::Apply {
                                func: n.clone(),
                                func_span: e.span,
                                params: params.clone(),
                                body: Box::new(body),
                                args,
                            },
                            span: e.span,
                        }
                    } else {
                        body
                    };
                    e.kind = ExprKind::Function {
                        params,
                        body: Box::new(body),
                    };
                }
            }
            ExprKind::Function { params, body } => {
                self.frames.push(bound.len());
                self.named.push(None);
                self.function(params, body, bound);
                self.named.pop();
                self.frames.pop();
            }
            ExprKind::Block(stmts) => {
                let outer = bound.len();
                let outer_local = self.local.len();
                let last = stmts.len().saturating_sub(1);
                let mut defined = vec![false; stmts.len()];
                // The local functions each statement defines, with the
                // functions their bodies call.
                let defs: Vec<Option<LocalDef>> = stmts
                    .iter()
                    .map(|s| match &s.kind {
                        ExprKind::Assign { name, value, .. } => match &value.kind {
                            ExprKind::Function { body, .. } => {
                                let mut calls = Vec::new();
                                body.visit_calls(&mut |f, at| calls.push((f.to_string(), at)));
                                Some((name.clone(), calls))
                            }
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect();
                for (i, s) in stmts.iter_mut().enumerate() {
                    if let Some((name, calls)) = &defs[i] {
                        self.forward_call(name, calls, &defs[i + 1..], bound);
                    }
                    // `f <- Vectorize(g)`: the function it makes, its uses
                    // put in already.
                    if let (true, ExprKind::Assign { name, value, .. }) = (i < last, &mut s.kind) {
                        if matches!(&value.kind, ExprKind::Call { func, .. } if func == "Vectorize")
                        {
                            self.replace(value, bound);
                            if let ExprKind::Function { params, body } = &value.kind {
                                self.local.push(Local::new(name, params, body, bound.len()));
                                defined[i] = true;
                            }
                            continue;
                        }
                    }
                    // `f <- function(...) body`, with statements after it:
                    // each use of `f` there gets the function itself.
                    if let (true, ExprKind::Assign { name, value, .. }) = (i < last, &mut s.kind) {
                        if let ExprKind::Function { params, body } = &mut value.kind {
                            self.open.push(name.clone());
                            self.named.push(Some((name.clone(), params.to_vec())));
                            self.function(params, body, bound);
                            self.named.pop();
                            self.open.pop();
                            self.local.push(Local::new(name, params, body, bound.len()));
                            defined[i] = true;
                            continue;
                        }
                    }
                    self.replace(s, bound);
                    let mut assigned = Vec::new();
                    s.assigned(&mut assigned);
                    let assigned: Vec<String> = assigned.into_iter().map(str::to_string).collect();
                    bound.extend(assigned);
                }
                bound.truncate(outer);
                self.local.truncate(outer_local);
                let mut i = 0;
                stmts.retain(|_| {
                    i += 1;
                    !defined[i - 1]
                });
            }
            ExprKind::For { var, seq, body, .. } => {
                self.replace(seq, bound);
                let outer = bound.len();
                bound.push(var.clone());
                self.replace(body, bound);
                bound.truncate(outer);
            }
            _ => e.visit_children_mut(&mut |c| self.replace(c, bound)),
        }
    }
}

/// Why a use of `name` inside the functions `open` (`name` first) cannot
/// be put in place: a call of itself by its name is (see
/// [`Inliner::recursion`]), but not through another function, nor the
/// function given as a value inside itself.
fn cycle(open: &[String], name: &str) -> String {
    if open.len() > 1 {
        let path: Vec<String> = open
            .iter()
            .chain([&name.to_string()])
            .map(|n| format!("`{n}`"))
            .collect();
        format!(
            "{} call each other in a cycle: a function may call itself, but not through \
             another function (call it directly, or merge them into one)",
            path.join(" → ")
        )
    } else {
        format!(
            "`{name}` is taken as a value inside itself: a function may call itself \
             (`{name}(...)` or `Recall(...)`), not pass itself on (write `function(x) \
             {name}(x)`)"
        )
    }
}

/// A call of the function `name` by itself, with `args` (see [`RECALL`]).
fn recall(name: &str, mut args: Vec<Arg>, span: Span) -> ExprKind {
    let name = Arg {
        name: None,
        value: Expr {
            kind: ExprKind::Str(name.to_string()),
            span,
        },
        span,
    };
    args.insert(0, name);
    ExprKind::Call {
        func: RECALL.into(),
        func_span: span,
        args,
    }
}

/// Whether `body` calls the function `name` again (see [`RECALL`]).
fn recalls(body: &Expr, name: &str) -> bool {
    let mut found = false;
    let mut stack = vec![body];
    while let Some(e) = stack.pop() {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            found |= func == RECALL
                && matches!(args.first(), Some(Arg { value: Expr { kind: ExprKind::Str(s), .. }, .. }) if s == name);
        }
        e.visit_children(&mut |c| stack.push(c));
    }
    found
}
