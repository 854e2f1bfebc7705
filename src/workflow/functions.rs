//! Functions defined as steps: `se = "function(x) sd(x) / sqrt(length(x))"`.
//!
//! A function is not a task: nothing runs until it is called. So each use is
//! replaced by the function itself before the graph is built. `se(v)`
//! becomes an [`ExprKind::Apply`] holding the body, and `sapply(g, se)`
//! takes the `function(x) ...` in place of the name, as if it had been
//! written there. What the body reads is then read by the step that calls
//! it, so dependences, shapes, costs and cache keys all see through the
//! call. The function steps themselves leave the workflow.

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, SourceFile, Span};

use super::ast::{Expr, ExprKind, Param, Step, StepBody};
use super::depth::MAX_DEPTH;

/// A function step's parameters and body, with its uses already replaced.
type Def = (Vec<Param>, Expr);

/// Replaces every use of a function step in `steps` and removes the
/// function steps; the errors name the use.
pub fn inline(file: &SourceFile, steps: &mut Vec<Step>) -> Result<(), Vec<Diagnostic>> {
    let is_def = |s: &Step| matches!(&s.body, StepBody::Expr(e) if matches!(e.kind, ExprKind::Function { .. }));
    if !steps.iter().any(is_def) {
        return Ok(());
    }
    if steps.iter().all(is_def) {
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
    for s in defs {
        if let StepBody::Expr(Expr {
            kind: ExprKind::Function { params, body },
            ..
        }) = s.body
        {
            raw.insert(s.name, (params, *body));
        }
    }
    let mut cx = Inliner {
        file,
        raw: &raw,
        done: HashMap::new(),
        open: Vec::new(),
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
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

struct Inliner<'a> {
    file: &'a SourceFile,
    raw: &'a HashMap<String, Def>,
    /// Definitions whose own uses are replaced; `None` for one that failed.
    done: HashMap<String, Option<Def>>,
    /// The definitions being replaced, to catch a function that calls
    /// itself.
    open: Vec<String>,
    diags: Vec<Diagnostic>,
}

impl Inliner<'_> {
    /// The definition of `name` with its own uses replaced.
    fn def(&mut self, name: &str) -> Option<Def> {
        if let Some(d) = self.done.get(name) {
            return d.clone();
        }
        let (params, body) = self.raw.get(name)?.clone();
        self.open.push(name.to_string());
        let mark = self.diags.len();
        let mut body = body;
        let mut bound: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
        self.expr(&mut body, &mut bound);
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

    /// The function `name` is, for a use at `span`: `None` when `name` is
    /// no function step, or it failed (its error is reported already).
    fn use_of(&mut self, name: &str, span: Span) -> Option<Option<Def>> {
        if !self.raw.contains_key(name) {
            return None;
        }
        if self.open.iter().any(|n| n == name) {
            self.error(
                span,
                format!(
                    "`{name}` calls itself: a function step may call other function steps, \
                     but not itself, directly or through them"
                ),
            );
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
                if let Some(def) = self.use_of(func, *func_span) {
                    let Some((params, body)) = def else { return };
                    let (func, func_span, args) = (func.clone(), *func_span, std::mem::take(args));
                    e.kind = ExprKind::Apply {
                        func,
                        func_span,
                        params,
                        body: Box::new(body),
                        args,
                    };
                }
            }
            ExprKind::Name(n) if !bound.contains(n) => {
                let n = n.clone();
                if let Some(def) = self.use_of(&n, e.span) {
                    let Some((params, body)) = def else { return };
                    // Where a function is taken, it stands there as written;
                    // anywhere else the closure rules refuse it.
                    e.kind = ExprKind::Function {
                        params,
                        body: Box::new(body),
                    };
                }
            }
            ExprKind::Function { params, body } => {
                let outer = bound.len();
                bound.extend(params.iter().map(|p| p.name.clone()));
                for d in params.iter_mut().filter_map(|p| p.default.as_mut()) {
                    self.replace(d, bound);
                }
                self.replace(body, bound);
                bound.truncate(outer);
            }
            ExprKind::Block(stmts) => {
                let outer = bound.len();
                for s in stmts.iter_mut() {
                    self.replace(s, bound);
                    let mut assigned = Vec::new();
                    s.assigned(&mut assigned);
                    let assigned: Vec<String> = assigned.into_iter().map(str::to_string).collect();
                    bound.extend(assigned);
                }
                bound.truncate(outer);
            }
            _ => e.visit_children_mut(&mut |c| self.replace(c, bound)),
        }
    }
}

/// The height of `e`'s tree, walked without recursion: a tree that holds
/// function bodies may be deeper than the parser allows, and is measured
/// before anything recurses on it.
fn height(e: &Expr) -> usize {
    let mut most = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, h)) = stack.pop() {
        most = most.max(h);
        e.visit_children(&mut |c| stack.push((c, h + 1)));
    }
    most
}
