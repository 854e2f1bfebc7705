//! Dependence analysis: a validated [`Workflow`] becomes a [`TaskGraph`], the
//! paper's task precedence graph, with every step's type and shape inferred
//! before anything runs.
//!
//! Order in the file does not matter for data: a step depends on the steps
//! whose names it reads. It matters for randomness: steps that draw random
//! numbers share one stream, consumed in file order exactly as R running the
//! file top to bottom would. A step whose draws are counted before the run
//! (`rnorm(900 * 900)` takes 1,620,000 uniforms) does not hold up the next
//! one: that one starts by skipping the stream past them. So each random
//! step waits only for the last random step before it whose count only its
//! run will tell ([`Task::rng_after`]), and skips what the counted steps
//! between take ([`Task::rng_skip`]).

pub mod files;
pub mod formula;
pub mod function_args;
pub mod implicit_names;
pub mod index_work;
pub mod lint;
pub mod memory;
pub mod promises;
mod shape;
pub mod suggest;
mod symmetric;

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, SourceFile, Span};
use crate::kernels::path::{self, CallPath};
use crate::kernels::{model_matrix, registry, Args, ShapeCtx, Type, Work};
use crate::workflow::{Expr, ExprKind, StepBody, Workflow};

pub use shape::{infer, infer_with_operands, loop_range, loop_texts};

/// A loop's iteration values, and for a loop over text its texts (the
/// values are then 1, 2, …).
#[allow(clippy::type_complexity)]
fn loop_values(
    range: &Expr,
    env: &HashMap<&str, Type>,
    file: &SourceFile,
    ctx: &ShapeCtx,
) -> Result<(Vec<f64>, Option<Vec<String>>), Diagnostic> {
    match loop_texts(range, env, file, ctx)? {
        Some(texts) => Ok(((1..=texts.len()).map(|k| k as f64).collect(), Some(texts))),
        None => loop_range(range, env, file, ctx).map(|v| (v, None)),
    }
}

/// Index of a task in [`TaskGraph::tasks`].
pub type TaskId = usize;

/// What a step is, for display and for the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskKind {
    /// Creates data (random draws, literals, `matrix`, `read.csv`, ...).
    Data,
    /// A function call on other steps' values.
    Call,
    /// A do-all loop: its iterations are independent tasks.
    Loop,
}

impl TaskKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskKind::Data => "data",
            TaskKind::Call => "call",
            TaskKind::Loop => "loop",
        }
    }
}

/// One step of the workflow as a node of the task graph.
#[derive(Clone, Debug)]
pub struct Task {
    pub id: TaskId,
    /// The step's name (unique).
    pub name: String,
    pub kind: TaskKind,
    /// The steps whose values this task reads, in file order.
    pub deps: Vec<TaskId>,
    /// When this step draws from the shared stream: the last random step
    /// before it in the file whose draws are not known before the run (it
    /// starts from where that one left the stream), an ordering edge that
    /// carries no value. `None`: it starts from the seed.
    pub rng_after: Option<TaskId>,
    /// Uniforms the random steps between `rng_after` (or the seed) and this
    /// one take, all known before the run: skipped before this step draws.
    pub rng_skip: u64,
    /// Draws from the shared random stream (loops draw from their own
    /// per-iteration streams and are never `random`).
    pub random: bool,
    /// The outermost function (the loop body's, for loops): what the cost
    /// model is keyed by.
    pub function: String,
    /// The other calls the step (a loop: its body) makes, beyond element-wise
    /// arithmetic and subscripts, outermost first: its time is
    /// theirs too, so they key its cost model with `function`
    /// (`matrix(rnorm(n), r)` costs rnorm's draws, `matrix(1:4, 2)` nothing).
    pub inner: Vec<String>,
    /// The inferred type and shape of the step's value.
    pub ty: Type,
    /// For loops, the iteration values of the loop variable.
    pub iterations: Option<Vec<f64>>,
    /// For a loop over text (`f in list.files(...)`), the loop variable's
    /// value in each iteration; `iterations` then counts them (1, 2, …).
    pub labels: Option<Vec<String>>,
    /// The cost model's inputs: the sizes of the outermost call's arguments
    /// (rows and columns of a matrix, the length of anything else), in
    /// argument order. For a loop, of one iteration's call.
    pub features: Vec<f64>,
    /// The algorithm the outermost call takes, for functions whose cost
    /// depends on it (eigen symmetric or general, a rank test exact or
    /// asymptotic): the cost model is keyed by function and path.
    pub path: Option<CallPath>,
    /// The value is known to be a symmetric matrix (from `crossprod(x)`,
    /// `var(x)`, `t(x) %*% x`, ...), before anything runs.
    pub symmetric: bool,
    /// The operation count of every call in the step, at the sizes
    /// inferred for each (a loop's: one iteration of its whole body): what
    /// the cost model predicts from before it has observed anything.
    /// A loop whose work depends on its index: the mean iteration's.
    pub work: Work,
    /// A loop body's work as a function of the loop variable, when it
    /// depends on it (`sum(x[1:i])`): how the loop's cost spreads over its
    /// iterations.
    pub index_work: Option<index_work::IndexWork>,
}

/// The task precedence graph of a workflow.
#[derive(Clone, Debug)]
pub struct TaskGraph {
    /// Tasks in file order (`tasks[i].id == i`).
    pub tasks: Vec<Task>,
}

impl Task {
    /// The function a person names the step by, for tables and charts. It
    /// is [`Task::function`], except where that only picks a piece out of
    /// another call's value: `t.test(x, y)$p.value` is about `t.test`, not
    /// `$`, and `{ fit <- lm(f); coef(fit)[2] }` about `{lm}`. The model
    /// key keeps both (`$<t.test>`), as the cost depends on the whole.
    pub fn label(&self) -> String {
        let (open, f, close) = match self
            .function
            .strip_prefix('{')
            .and_then(|f| f.strip_suffix('}'))
        {
            Some(f) => ("{", f, "}"),
            None => ("", self.function.as_str(), ""),
        };
        match self.inner.first() {
            Some(first) if matches!(f, "$" | "[" | "[[" | "(") => format!("{open}{first}{close}"),
            _ => self.function.clone(),
        }
    }
}

impl TaskGraph {
    pub fn task(&self, name: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.name == name)
    }

    /// Tasks that read `id`'s value.
    pub fn dependents(&self, id: TaskId) -> impl Iterator<Item = &Task> {
        self.tasks.iter().filter(move |t| t.deps.contains(&id))
    }

    /// Every predecessor of a task, value and ordering edges alike.
    pub fn predecessors(&self, id: TaskId) -> impl Iterator<Item = TaskId> + '_ {
        let t = &self.tasks[id];
        t.deps.iter().copied().chain(t.rng_after)
    }

    /// Task ids in an order where every predecessor comes first.
    pub fn topological_order(&self) -> Vec<TaskId> {
        topo_order(self.tasks.len(), |i| self.predecessors(i).collect())
            .unwrap_or_else(|_| (0..self.tasks.len()).collect())
    }
}

/// Functions whose calls create data rather than transform it.
const DATA_FUNCTIONS: &[&str] = &[
    "rnorm", "runif", "sample", "matrix", "array", "c", "seq", "seq_len", "read.csv",
];

/// Analyses a workflow: names, functions, cycles, then types. Returns every
/// error found (one per step at most), never panics.
pub fn build(wf: &Workflow) -> Result<TaskGraph, Vec<Diagnostic>> {
    let file = &wf.file;
    let index: HashMap<&str, TaskId> = wf
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let mut errors = Vec::new();

    // 1. Names and functions.
    let mut deps: Vec<Vec<TaskId>> = Vec::with_capacity(wf.steps.len());
    for (own, step) in wf.steps.iter().enumerate() {
        let mut reads = Vec::new();
        let mut first_error: Option<Diagnostic> = None;
        let local = match &step.body {
            StepBody::Loop(l) => Some(l.var.as_str()),
            StepBody::Expr(_) => None,
        };
        for expr in step_exprs(&step.body) {
            // Names R looks up in a call's `data` first may be its columns:
            // shape inference checks them against the data's columns.
            let mut in_data = Vec::new();
            formula::data_scoped_spans(expr, &mut in_data);
            let mut loose = Vec::new();
            formula::loose_formula_spans(expr, &mut loose);
            in_data.extend(loose.iter().copied());
            let mut functions = Vec::new();
            function_args::function_arg_spans(expr, &mut functions);
            let mut parameters = Vec::new();
            formula::nls_parameter_spans(expr, &mut parameters);
            // An unknown function first: its arguments' names (a formula's
            // columns) mean nothing until the function is known.
            expr.visit_calls(&mut |func, span| {
                if registry().get(func).is_none() && first_error.is_none() {
                    let mut msg = format!("could not find function `{func}`");
                    msg.push_str(&suggest::unknown_function_hint(func, &registry().names()));
                    first_error = Some(Diagnostic::new(file, Some(span), msg));
                }
            });
            expr.visit_names(&mut |name, span| {
                if Some(name) == local || parameters.contains(&span) {
                    return;
                }
                let column = name == "."
                    || in_data
                        .iter()
                        .any(|s| s.start <= span.start && span.end <= s.end);
                let within = |spans: &[Span]| {
                    spans
                        .iter()
                        .any(|s| s.start <= span.start && span.end <= s.end)
                };
                match index.get(name) {
                    // R keeps a formula unevaluated: `x0 = 'x0 ~ x0'` names
                    // the step it makes, and reads nothing.
                    Some(&id) if id == own && within(&loose) => {}
                    Some(&id) if !reads.contains(&id) => reads.push(id),
                    Some(_) => {}
                    None if column => {}
                    None if crate::kernels::constants::constant(name).is_some() => {}
                    // `sapply(x, mean)`: a function, not a step.
                    None if functions.contains(&span) => {}
                    // R's errors where no function around takes `...`.
                    None if first_error.is_none()
                        && (name == crate::workflow::DOTS
                            || crate::workflow::is_dots_element(name)) =>
                    {
                        let msg = match name {
                            crate::workflow::DOTS => "'...' used in an incorrect context".into(),
                            _ => format!("{name} used in an incorrect context, no ... to look in"),
                        };
                        first_error = Some(Diagnostic::new(file, Some(span), msg));
                    }
                    None if first_error.is_none() => {
                        let mut msg = format!("object `{name}` not found");
                        // The step itself would be a cycle, and in a loop's
                        // body the likeliest slip is its variable (`x[j]`
                        // for `x[i]`), which wins a tie.
                        let others = index.keys().copied().filter(|k| *k != step.name);
                        let step_near = closest(name, others);
                        let var_near = local.filter(|v| closest(name, [*v].into_iter()).is_some());
                        let near = match (var_near, step_near) {
                            (Some(v), Some(s))
                                if edit_distance(name, s) < edit_distance(name, v) =>
                            {
                                Some(s)
                            }
                            (Some(v), _) => Some(v),
                            (None, s) => s,
                        };
                        if let Some(s) = near {
                            msg.push_str(&format!(" (did you mean `{s}`?)"));
                        } else if let Some(why) = suggest::r_dataset(name) {
                            msg.push_str(&format!(" ({why})"));
                        }
                        first_error = Some(Diagnostic::new(file, Some(span), msg));
                    }
                    None => {}
                }
            });
        }
        if let Some(e) = first_error {
            errors.push(e.in_step(&step.name));
        }
        reads.sort_unstable();
        deps.push(reads);
    }
    if errors.is_empty() {
        errors = files::add_dependences(wf, &mut deps);
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // 2. Cycles.
    let order = match topo_order(wf.steps.len(), |i| deps[i].clone()) {
        Ok(order) => order,
        Err(cycle) => {
            let names: Vec<&str> = cycle.iter().map(|&i| wf.steps[i].name.as_str()).collect();
            let first = &wf.steps[cycle[0]];
            let msg = if names.len() == 2 && names[0] == names[1] {
                format!("step `{}` reads its own value", names[0])
            } else {
                format!("dependence cycle: {}", names.join(" → "))
            };
            return Err(vec![
                Diagnostic::new(file, Some(first.name_span), msg).in_step(&first.name)
            ]);
        }
    };

    // 3. Types, in dependence order; a step whose input failed is not checked
    // again (its error is already reported).
    let base_dir = wf.base_dir();
    let written = files::written(wf);
    let ctx = ShapeCtx {
        base_dir: &base_dir,
        written: &written,
        closure: None,
        closure2: None,
    };
    let mut types: Vec<Option<Type>> = vec![None; wf.steps.len()];
    let mut iterations: Vec<Option<Vec<f64>>> = vec![None; wf.steps.len()];
    let mut labels: Vec<Option<Vec<String>>> = vec![None; wf.steps.len()];
    let mut features: Vec<Vec<f64>> = vec![Vec::new(); wf.steps.len()];
    let mut paths: Vec<Option<CallPath>> = vec![None; wf.steps.len()];
    let mut symmetric: HashMap<&str, bool> = HashMap::new();
    let mut work: Vec<Work> = vec![Work::default(); wf.steps.len()];
    let mut index_works: Vec<Option<index_work::IndexWork>> = vec![None; wf.steps.len()];
    for &i in &order {
        let step = &wf.steps[i];
        if deps[i].iter().any(|&d| types[d].is_none()) {
            continue;
        }
        let mut env: HashMap<&str, Type> = deps[i]
            .iter()
            .filter_map(|&d| Some((wf.steps[d].name.as_str(), types[d].clone()?)))
            .collect();
        let result = match &step.body {
            StepBody::Expr(e) => {
                infer_with_operands(e, &env, file, &ctx).map(|(t, operands, w)| {
                    features[i] = operand_features(&operands);
                    work[i] = w;
                    let scope = symmetric::Scope {
                        steps: &symmetric,
                        types: &env,
                        file,
                        ctx: &ctx,
                    };
                    paths[i] = call_path(e, &operands, &scope);
                    work[i].ops =
                        (work[i].ops - path_saving(e, &features[i], paths[i].as_ref())).max(0.0);
                    let sym = symmetric::symmetric(e, &scope);
                    symmetric.insert(step.name.as_str(), sym);
                    t
                })
            }
            StepBody::Loop(l) => {
                loop_values(&l.range, &env, file, &ctx).and_then(|(values, text)| {
                    // A loop of no iterations is checked all the same: a
                    // body that is wrong now is wrong once its directory
                    // fills, and a typo is best reported before then.
                    env.insert(
                        l.var.as_str(),
                        match text {
                            Some(_) => Type::Str {
                                len: Some(1),
                                value: None,
                            },
                            None => Type::num(1),
                        },
                    );
                    labels[i] = text.clone();
                    let (body, operands, w) = infer_with_operands(&l.body, &env, file, &ctx)?;
                    features[i] = operand_features(&operands);
                    // The loop variable shadows a step of the same name.
                    let mut steps = symmetric.clone();
                    steps.insert(l.var.as_str(), false);
                    let scope = symmetric::Scope {
                        steps: &steps,
                        types: &env,
                        file,
                        ctx: &ctx,
                    };
                    paths[i] = call_path(&l.body, &operands, &scope);
                    work[i] = w;
                    // A text loop's work is alike at every file: no profile.
                    if text.is_none() {
                        if let Some(iw) = index_work::sample(l, &values, &env, file, &ctx) {
                            let mean = iw.mean(&values);
                            work[i].ops = mean.ops;
                            work[i].ld_adds = mean.ld_adds;
                            work[i].streamed = mean.streamed;
                            work[i].fetched = mean.fetched;
                            // A flat body needs no profile.
                            index_works[i] = Some(iw).filter(|iw| !iw.is_flat());
                        }
                    }
                    let n = values.len();
                    iterations[i] = Some(values);
                    Ok(match body {
                        // No iteration made a number: R's `sapply` of
                        // nothing is `list()`.
                        Type::Num { len: Some(1), .. } if n > 0 => Type::num(n),
                        elem => Type::List {
                            len: Some(n),
                            elem: Box::new(elem.without_value()),
                        },
                    })
                })
            }
        };
        match result {
            Ok(t) => types[i] = Some(t),
            Err(d) => errors.push(d.in_step(&step.name)),
        }
    }
    if !errors.is_empty() {
        errors.sort_by_key(|d| d.span.map_or(0, |s| s.start));
        return Err(errors);
    }

    // 4. Tasks, with the random stream's anchors and skips in file order.
    let mut anchor: Option<TaskId> = None;
    let mut since_anchor: u64 = 0;
    let tasks = wf
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let top = match &step.body {
                StepBody::Loop(l) => &l.body,
                StepBody::Expr(e) => e,
            };
            let (kind, random, function) = match &step.body {
                StepBody::Loop(l) => (TaskKind::Loop, false, top_function(&l.body)),
                StepBody::Expr(e) => {
                    let function = top_function(e);
                    let kind = if DATA_FUNCTIONS.contains(&function.as_str())
                        || !matches!(
                            e.kind,
                            ExprKind::Call { .. }
                                | ExprKind::Binary { .. }
                                | ExprKind::Index { .. }
                                | ExprKind::Index2 { .. }
                                | ExprKind::Field { .. }
                        ) {
                        TaskKind::Data
                    } else {
                        TaskKind::Call
                    };
                    (kind, draws_random(e), function)
                }
            };
            let (rng_after, rng_skip) = if random {
                let at = (anchor, since_anchor);
                match work[i].known_draws() {
                    Some(n) => since_anchor = since_anchor.saturating_add(n),
                    None => (anchor, since_anchor) = (Some(i), 0),
                }
                at
            } else {
                (None, 0)
            };
            if rng_skip > 0 {
                work[i] += crate::kernels::work::skip_work(rng_skip);
            }
            Task {
                id: i,
                name: step.name.clone(),
                kind,
                deps: deps[i].clone(),
                rng_after,
                rng_skip,
                random,
                function,
                inner: inner_calls(top),
                ty: types[i].take().unwrap_or(Type::Any),
                iterations: iterations[i].take(),
                labels: labels[i].take(),
                features: std::mem::take(&mut features[i]),
                path: paths[i].take(),
                symmetric: symmetric.get(step.name.as_str()).copied().unwrap_or(false),
                work: work[i],
                index_work: index_works[i].take(),
            }
        })
        .collect();
    Ok(TaskGraph { tasks })
}

/// The algorithm path of `e`'s outermost call, from its arguments' types
/// (`operands`, in call order) and which of them are symmetric.
fn call_path(e: &Expr, operands: &[Type], scope: &symmetric::Scope) -> Option<CallPath> {
    let ExprKind::Call { func, args, .. } = &e.kind else {
        return None;
    };
    let kernel = registry().get(func)?;
    let typed = args
        .iter()
        .zip(operands)
        .map(|(a, t)| (a.name.clone(), t.clone()))
        .collect();
    let matched = Args::match_call(kernel.name, kernel.params, typed).ok()?;
    let x_symmetric = symmetric::arg_symmetric(func, args, "x", scope);
    path::planned(kernel.name, &matched, x_symmetric)
}

/// The ops the outermost call saves on the path it takes, where shape
/// inference priced the costlier one: `eigen(x)` without `symmetric` is
/// priced general, but takes R's symmetric path on `crossprod(x)` and the
/// like.
fn path_saving(e: &Expr, features: &[f64], path: Option<&CallPath>) -> f64 {
    let (ExprKind::Call { func, args, .. }, Some(path)) = (&e.kind, path) else {
        return 0.0;
    };
    let explicit = args.iter().skip(1).any(|a| a.name.is_none())
        || args.iter().any(|a| a.name.as_deref() == Some("symmetric"));
    if func != "eigen" || explicit || !path.tag.starts_with("symmetric") {
        return 0.0;
    }
    let n = features.first().copied().unwrap_or(0.0);
    crate::kernels::work::eigen_symmetric_saving(n, path.tag.contains("values"))
}

/// Argument sizes of a call or operator from its operands' types, what its
/// work grows with: rows and columns of a matrix, the length of a vector,
/// the size of a result object's largest part (a `dist`'s distances, an
/// `hclust`'s merges; R's `length` would count its fields), and a formula's
/// rows and columns. 0 when unknown.
fn operand_features(operands: &[Type]) -> Vec<f64> {
    let size = |n: Option<usize>| n.map_or(0.0, |n| n as f64);
    let mut out = Vec::new();
    for t in operands {
        match t {
            Type::Record { .. } => out.push(size(elements(t))),
            Type::Formula {
                response, terms, ..
            } => {
                let rows = response
                    .iter()
                    .map(|r| &**r)
                    .chain(terms.iter().map(|(_, t)| model_matrix::sized_by(t)))
                    .find_map(|t| t.dims().map_or(t.len(), |(r, _)| r));
                let cols: Option<usize> = terms
                    .iter()
                    .map(|(_, t)| t.dims().map_or(Some(1), |(_, c)| c))
                    .sum();
                out.push(size(rows));
                out.push(size(cols));
            }
            _ => match t.dims() {
                Some((r, c)) => {
                    out.push(size(r));
                    out.push(size(c));
                }
                None => out.push(size(t.len())),
            },
        }
    }
    out
}

/// Elements of a value, and of a result object its largest part's.
fn elements(t: &Type) -> Option<usize> {
    match t {
        Type::Record { fields, .. } => fields.iter().filter_map(|(_, f)| elements(f)).max(),
        _ => t.len(),
    }
}

fn step_exprs(body: &StepBody) -> Vec<&Expr> {
    match body {
        StepBody::Expr(e) => vec![e],
        StepBody::Loop(l) => vec![&l.range, &l.body],
    }
}

/// Whether evaluating `e` draws from the random stream.
pub fn draws_random(e: &Expr) -> bool {
    let mut random = matches!(&e.kind, ExprKind::Call { func, args, .. }
        if registry().get(func).is_some_and(|k| k.random) || simulates(func, args));
    e.visit_children(&mut |c| random |= draws_random(c));
    random
}

/// Whether a call asks for a Monte Carlo p-value (`chisq.test` and
/// `fisher.test` with `simulate.p.value`), which draws from the stream
/// although the function otherwise does not. Anything but a written
/// `FALSE` counts, and so does the argument passed on through an apply
/// (`sapply(tables, chisq.test, simulate.p.value = TRUE)`).
pub fn simulates(func: &str, args: &[crate::workflow::Arg]) -> bool {
    let position = match func {
        "chisq.test" => Some(5),
        "fisher.test" => Some(10),
        _ => None,
    };
    let not_false = |a: &crate::workflow::Arg| !matches!(a.value.kind, ExprKind::Bool(false));
    let named = args.iter().any(|a| {
        a.name.as_deref().is_some_and(|n| {
            // R's partial matching: no other formal of either starts with "s".
            let matches = n == "simulate.p.value"
                || (position.is_some() && !n.is_empty() && "simulate.p.value".starts_with(n));
            matches && not_false(a)
        })
    });
    let positional = position.is_some_and(|k| {
        args.iter()
            .filter(|a| a.name.is_none())
            .nth(k)
            .is_some_and(not_false)
    });
    named || positional
}

/// The function a step is "about": its outermost call or operator.
fn top_function(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Call { func, .. } => func.clone(),
        ExprKind::Binary { op, .. } => op.symbol().to_string(),
        ExprKind::Unary { .. } => "-".to_string(),
        ExprKind::Index { .. } => "[".to_string(),
        ExprKind::Index2 { .. } => "[[".to_string(),
        ExprKind::Field { .. } => "$".to_string(),
        ExprKind::Formula { .. } => "~".to_string(),
        // A block is about the last statement that does something (the
        // loop of `{ s <- 0; for (...) ...; s }`), in braces: its cost is
        // the whole block's, which no plain call of that function tells.
        ExprKind::Block(stmts) => stmts
            .iter()
            .rev()
            .map(top_function)
            .find(|f| f != "literal")
            .map_or_else(|| "literal".to_string(), |f| format!("{{{f}}}")),
        ExprKind::Assign { value, .. } => top_function(value),
        ExprKind::Apply { body, .. } => top_function(body),
        ExprKind::If { .. } => "if".to_string(),
        ExprKind::For { .. } => "for".to_string(),
        ExprKind::While { cond: Some(_), .. } => "while".to_string(),
        ExprKind::While { cond: None, .. } => "repeat".to_string(),
        _ => "literal".to_string(),
    }
}

/// At most this many inner calls key a model: enough to tell the
/// generators and kernels apart, short enough to read in `flowcast model`.
const MAX_INNER: usize = 3;

/// The calls and operators inside `e` below its outermost one (see
/// [`Task::inner`]), without those whose cost is a pass over their operands
/// at most (arithmetic, comparisons, `c`, subscripts): they would only
/// split a model's observations.
fn inner_calls(e: &Expr) -> Vec<String> {
    fn cheap(f: &str) -> bool {
        matches!(
            f,
            "+" | "-"
                | "*"
                | "/"
                | "^"
                | ":"
                | "=="
                | "!="
                | "<"
                | ">"
                | "<="
                | ">="
                | "&"
                | "&&"
                | "|"
                | "||"
                | "!"
                | "c"
                | "list"
                | "("
                | "["
                | "[["
                | "$"
        )
    }
    fn walk(e: &Expr, top: bool, out: &mut Vec<String>) {
        let name = match &e.kind {
            ExprKind::Call { func, .. } => Some(func.as_str()),
            ExprKind::Binary { op, .. } => Some(op.symbol()),
            _ => None,
        };
        if let Some(f) = name.filter(|f| !top && !cheap(f)) {
            if out.len() < MAX_INNER && !out.iter().any(|o| o == f) {
                out.push(f.to_string());
            }
        }
        // The outermost call of a block is its last statement's, of an
        // assignment its value's, of an apply its body's (`top_function`).
        let top_child: Option<&Expr> = match (&e.kind, top) {
            (ExprKind::Block(stmts), true) => stmts.last(),
            (ExprKind::Assign { value, .. }, true) => Some(value),
            (ExprKind::Apply { body, .. }, true) => Some(body),
            _ => None,
        };
        e.visit_children(&mut |c| walk(c, top_child.is_some_and(|t| std::ptr::eq(t, c)), out));
    }
    let mut out = Vec::new();
    walk(e, true, &mut out);
    out
}

/// Kahn's algorithm over `n` nodes given each node's predecessors; on a cycle,
/// returns one cycle as a path that starts and ends at the same node.
fn topo_order(n: usize, preds: impl Fn(usize) -> Vec<usize>) -> Result<Vec<usize>, Vec<usize>> {
    let preds: Vec<Vec<usize>> = (0..n).map(preds).collect();
    let mut indegree: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut succs = vec![Vec::new(); n];
    for (i, ps) in preds.iter().enumerate() {
        for &p in ps {
            succs[p].push(i);
        }
    }
    let mut ready: std::collections::VecDeque<usize> =
        (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(i) = ready.pop_front() {
        order.push(i);
        for &s in &succs[i] {
            indegree[s] -= 1;
            if indegree[s] == 0 {
                ready.push_back(s);
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    // Every node left has a predecessor left: walk predecessors until a node
    // repeats, which closes a cycle. Start from the first such node in file
    // order so the report is stable.
    let start = (0..n).find(|&i| indegree[i] > 0).unwrap_or(0);
    let mut path = vec![start];
    let mut seen = vec![None; n];
    seen[start] = Some(0);
    let mut cur = start;
    loop {
        let Some(&next) = preds[cur].iter().find(|&&p| indegree[p] > 0) else {
            return Err(vec![start, start]);
        };
        if let Some(pos) = seen[next] {
            let mut cycle: Vec<usize> = path[pos..].to_vec();
            cycle.reverse(); // predecessors were walked: show data flow order
                             // Start at the step that stands first in the file.
            let first = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap_or(0);
            cycle.rotate_left(first);
            cycle.push(cycle[0]);
            return Err(cycle);
        }
        seen[next] = Some(path.len());
        path.push(next);
        cur = next;
    }
}

/// The candidate closest to `name` by edit distance, when close enough to be
/// a likely typo.
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Points a diagnostic at `span` in `file` (used by shape inference).
pub(crate) fn diag(file: &SourceFile, span: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(file, Some(span), msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topo_order_reports_a_cycle_in_flow_order() {
        // 0 <- 1 <- 2 <- 0 (preds)
        let preds = [vec![2], vec![0], vec![1]];
        let cycle = topo_order(3, |i| preds[i].clone()).unwrap_err();
        assert_eq!(cycle.first(), cycle.last());
        assert_eq!(cycle.len(), 4);
    }

    #[test]
    fn closest_finds_typos_only() {
        let names = ["friedman.test", "wilcox.test", "mean"];
        assert_eq!(
            closest("fredman.test", names.into_iter()),
            Some("friedman.test")
        );
        assert_eq!(closest("zzz", names.into_iter()), None);
    }

    #[test]
    fn a_loop_of_no_iterations_is_an_empty_list() {
        let text = r#"
[steps]
b = { for = "i in seq_len(0)", do = "i * 2" }
n = "length(b)"
"#;
        let wf =
            crate::workflow::parse(crate::diagnostic::SourceFile::new("f.toml", text)).unwrap();
        let g = build(&wf).unwrap();
        let b = g.task("b").unwrap();
        assert_eq!(b.iterations.as_deref(), Some(&[][..]));
        assert!(
            matches!(b.ty, Type::List { len: Some(0), .. }),
            "{:?}",
            b.ty
        );
        assert_eq!(g.task("n").unwrap().ty.const_scalar(), Some(0.0));
    }

    #[test]
    fn result_objects_and_formulas_are_sized_by_their_data() {
        let text = r#"
[steps]
x = "matrix(runif(200 * 3), 200, 3)"
y = "runif(200)"
d = "dist(x)"
h = "hclust(d)"
k = "cutree(h, k = 4)"
fit = "lm(y ~ x)"
"#;
        let wf =
            crate::workflow::parse(crate::diagnostic::SourceFile::new("f.toml", text)).unwrap();
        let g = build(&wf).unwrap();
        let features = |name: &str| {
            g.tasks
                .iter()
                .find(|t| t.name == name)
                .unwrap()
                .features
                .clone()
        };
        assert_eq!(features("d"), vec![200.0, 3.0]);
        // The distances (200·199/2), not the dist object's three fields.
        assert_eq!(features("h"), vec![19_900.0]);
        // The merges (199 × 2), then k.
        assert_eq!(features("k"), vec![398.0, 1.0]);
        // 200 rows, 3 columns.
        assert_eq!(features("fit"), vec![200.0, 3.0]);
    }
}
