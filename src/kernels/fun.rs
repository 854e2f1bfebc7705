//! Functions as values. The `FUN` of `sapply`, `tapply`, `outer`,
//! `Reduce`, `mapply`, … is either a registered function the user named
//! (`sapply(x, mean)`, `FUN = "sd"`) or a `function(i) expr` closure, which
//! only the evaluator can run: it hands the closure over in [`Ctx`] (and,
//! for shape inference, in [`ShapeCtx`]) for the one call that takes it.
//! Kernels call FUN through [`Fun`] and never learn which it is.

use super::{registry, Args, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

/// A closure as the evaluator runs it: FUN's arguments, as R's `FUN(x, ...)`
/// would receive them, to its value.
pub type Closure<'f> =
    &'f dyn Fn(Vec<(Option<String>, &Value)>, &mut Ctx) -> Result<Value, KernelError>;

/// A closure as shape inference sees it: the types of its arguments and
/// how many times the call will run it, to its result's type. The count
/// lets the caller charge the body's work that many times.
pub type ClosureShape<'f> = &'f dyn Fn(Vec<(Option<String>, Type)>, Runs) -> Result<Type, String>;

/// How many times a call runs FUN, as its shape rule knows it before the
/// run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Runs {
    /// Exactly this many (`sapply` over a known length): the body's work
    /// and its draws are counted that many times.
    Exactly(usize),
    /// About this many: an optimiser's typical evaluations, which only
    /// the run will tell. The body's work is charged that many times; what
    /// it draws is unknown.
    About(f64),
    /// Not known: the work is charged once and what it draws is unknown.
    Unknown,
}

impl From<Option<usize>> for Runs {
    fn from(times: Option<usize>) -> Runs {
        times.map_or(Runs::Unknown, Runs::Exactly)
    }
}

/// FUN, resolved.
#[derive(Clone)]
pub enum Fun<'f> {
    Kernel(&'static Kernel),
    Closure(Closure<'f>),
    /// A function value (`ecdf(x)`, `approxfun(x, y)`, …; see
    /// [`super::callable`]), shared by the calls that run it.
    Value(std::sync::Arc<Value>),
}

impl Fun<'_> {
    /// `FUN(args...)`.
    pub fn call(
        &self,
        given: Vec<(Option<String>, &Value)>,
        ctx: &mut Ctx,
    ) -> Result<Value, KernelError> {
        // The kernel calling FUN reads bare values, as every kernel does.
        Ok(super::names::strip_value(self.call_named(given, ctx)?))
    }

    /// `FUN(x, ...)` with the names FUN gave its value, for the kernels
    /// whose result R names from them (aggregate's matrix columns).
    pub fn call_on_named(
        &self,
        x: &Value,
        dots: &[(Option<&str>, &Value)],
        ctx: &mut Ctx,
    ) -> Result<Value, KernelError> {
        let mut given: Vec<(Option<String>, &Value)> = vec![(None, x)];
        given.extend(dots.iter().map(|(n, v)| (n.map(str::to_string), *v)));
        self.call_named(given, ctx)
    }

    /// `FUN(args...)` with the names FUN gave its value: what `do.call`
    /// returns (`do.call(rbind, list(a = x, b = y))` has row names).
    pub fn call_named(
        &self,
        given: Vec<(Option<String>, &Value)>,
        ctx: &mut Ctx,
    ) -> Result<Value, KernelError> {
        // A list's elements reach FUN with their names (the evaluator
        // keeps them for the apply family); a built-in reads bare values
        // unless it reads names, as when the evaluator calls it.
        let stripped: Vec<(Option<String>, std::borrow::Cow<Value>)>;
        let given = match self {
            Fun::Kernel(k)
                if !super::names::reads_names(k.name)
                    && given.iter().any(|(_, v)| super::names::has_named(v)) =>
            {
                stripped = given
                    .into_iter()
                    .map(|(n, v)| (n, super::names::strip(v)))
                    .collect();
                stripped.iter().map(|(n, v)| (n.clone(), &**v)).collect()
            }
            _ => given,
        };
        match self {
            Fun::Kernel(k)
                if super::frame::takes_matrix(k.name)
                    && given
                        .iter()
                        .any(|(_, v)| super::frame::as_frame(v).is_some()) =>
            {
                // R's colMeans (and the rest) run as.matrix on a data frame
                // whether called directly or as FUN (sapply(split(d, g),
                // colMeans)); the evaluator does it for a direct call.
                let coerced = given
                    .iter()
                    .map(|(_, v)| super::frame::coerce_value(k.name, v).transpose())
                    .collect::<Result<Vec<_>, _>>()?;
                let bare: Vec<(Option<String>, &Value)> = given
                    .iter()
                    .zip(&coerced)
                    .map(|((n, v), c)| (n.clone(), c.as_ref().unwrap_or(*v)))
                    .collect();
                let matched = Args::match_call(k.name, k.params, bare)
                    .map_err(|e| KernelError::new(format!("in {}(): {}", k.name, e.message)))?;
                let value = k.call(&matched, ctx)?;
                let written = Args::match_call(k.name, k.params, given.clone()).ok();
                Ok(super::names::carry(k.name, &given, written.as_ref(), value))
            }
            Fun::Kernel(k) => {
                let matched = Args::match_call(k.name, k.params, given)
                    .map_err(|e| KernelError::new(format!("in {}(): {}", k.name, e.message)))?;
                k.call(&matched, ctx)
            }
            Fun::Closure(f) => f(given, ctx),
            Fun::Value(v) => match super::callable::view(v) {
                Some(c) => c.call("FUN", given, ctx),
                None => Err(KernelError::new("FUN is not a function")),
            },
        }
    }

    /// `FUN(x, ...)`: one positional argument, then the call's `...`.
    pub fn call_on(
        &self,
        x: &Value,
        dots: &[(Option<&str>, &Value)],
        ctx: &mut Ctx,
    ) -> Result<Value, KernelError> {
        Ok(super::names::strip_value(self.call_on_named(x, dots, ctx)?))
    }

    /// The function's name, for messages; a closure has none.
    pub fn name(&self) -> &str {
        match self {
            Fun::Kernel(k) => k.name,
            Fun::Closure(_) | Fun::Value(_) => "FUN",
        }
    }
}

/// [`resolve`], with the registered function `default` when none was given
/// (`ave`'s mean, `addmargins`' sum, `outer`'s `*`).
pub fn resolve_or<'f>(
    v: Option<&Value>,
    ctx: &Ctx<'f>,
    default: &str,
) -> Result<Fun<'f>, KernelError> {
    match resolve(v, ctx)? {
        Some(f) => Ok(f),
        None => registry()
            .get(default)
            .map(Fun::Kernel)
            .ok_or_else(|| KernelError::new(format!("could not find function \"{default}\""))),
    }
}

/// match.fun's refusal of a value that is neither a function nor a name,
/// before the caller words it as R does with the argument's text (see
/// [`not_a_function`]).
pub const NOT_A_FUNCTION: &str = "FUN is not a function, character or symbol";

/// R's match.fun (base/R/match.R) refusing the argument written `arg`: a
/// name is looked up as a function and not found; any other text is
/// deparsed into the message.
pub fn not_a_function(arg: &crate::workflow::Expr) -> String {
    match &arg.kind {
        crate::workflow::ExprKind::Name(n) => {
            format!("object '{n}' of mode 'function' was not found")
        }
        _ => format!(
            "'{}' is not a function, character or symbol",
            crate::workflow::deparse(arg)
        ),
    }
}

/// FUN of the current call, from the value of its function argument
/// (`v`): the closure the evaluator handed over, else the registered
/// function `v` names. `None` when no function was given. A named function
/// that draws random numbers is refused: its draws are not counted in the
/// step's stream (a closure's are, as its body is analysed with the step).
pub fn resolve<'f>(v: Option<&Value>, ctx: &Ctx<'f>) -> Result<Option<Fun<'f>>, KernelError> {
    resolve_from(ctx.closure, v)
}

/// [`resolve`] for the call's second function formal (optim's `gr`).
pub fn resolve2<'f>(v: Option<&Value>, ctx: &Ctx<'f>) -> Result<Option<Fun<'f>>, KernelError> {
    resolve_from(ctx.closure2, v)
}

fn resolve_from<'f>(
    closure: Option<Closure<'f>>,
    v: Option<&Value>,
) -> Result<Option<Fun<'f>>, KernelError> {
    if let Some(c) = closure {
        return Ok(Some(Fun::Closure(c)));
    }
    let name = match v {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Str(s)) if s.len() == 1 => s[0].as_str(),
        Some(v) if super::callable::view(v).is_some() => {
            return Ok(Some(Fun::Value(std::sync::Arc::new(v.clone()))))
        }
        Some(_) => return Err(KernelError::new(NOT_A_FUNCTION)),
    };
    let k = registry()
        .get(name)
        .ok_or_else(|| KernelError::new(format!("could not find function \"{name}\"")))?;
    if k.random {
        return Err(KernelError::new(format!(
            "FUN = {name} draws random numbers; pass it inside function(x) {name}(...), \
             whose draws come from the step's stream"
        )));
    }
    Ok(Some(Fun::Kernel(k)))
}

/// FUN as shape inference knows it.
#[derive(Clone, Copy)]
pub enum FunShape<'f> {
    Kernel(&'static Kernel),
    Closure(ClosureShape<'f>),
    /// A function value: numbers, one per element of its first argument.
    Value,
}

impl FunShape<'_> {
    /// The type of `FUN(args...)`, run `times` times; the error is FUN's own.
    pub fn shape(
        &self,
        given: Vec<(Option<String>, Type)>,
        times: Option<usize>,
        ctx: &ShapeCtx,
    ) -> Result<Type, String> {
        self.shape_runs(given, times.into(), ctx)
    }

    /// [`FunShape::shape`] for a call that runs FUN about `runs` times,
    /// as a search does (see [`Runs::About`]).
    pub fn shape_about(
        &self,
        given: Vec<(Option<String>, Type)>,
        runs: f64,
        ctx: &ShapeCtx,
    ) -> Result<Type, String> {
        self.shape_runs(given, Runs::About(runs), ctx)
    }

    fn shape_runs(
        &self,
        given: Vec<(Option<String>, Type)>,
        times: Runs,
        ctx: &ShapeCtx,
    ) -> Result<Type, String> {
        match self {
            FunShape::Kernel(k) => {
                let matched = Args::match_call(k.name, k.params, given)
                    .map_err(|e| format!("{}(): {}", k.name, e.message))?;
                (k.shape)(&matched, ctx).map_err(|e| format!("{}(): {}", k.name, e.message))
            }
            FunShape::Closure(f) => f(given, times),
            FunShape::Value => Ok(Type::Num {
                len: given.first().and_then(|(_, t)| t.len()),
                value: None,
            }),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            FunShape::Kernel(k) => k.name,
            FunShape::Closure(_) | FunShape::Value => "FUN",
        }
    }
}

/// [`resolve`] before the run: `Ok(None)` when FUN is not known yet (a
/// name computed by another step) or not given.
pub fn resolve_shape<'f>(
    t: Option<&Type>,
    ctx: &ShapeCtx<'f>,
) -> Result<Option<FunShape<'f>>, String> {
    resolve_shape_from(ctx.closure, t)
}

/// [`resolve_shape`] for the call's second function formal (optim's `gr`).
pub fn resolve_shape2<'f>(
    t: Option<&Type>,
    ctx: &ShapeCtx<'f>,
) -> Result<Option<FunShape<'f>>, String> {
    resolve_shape_from(ctx.closure2, t)
}

fn resolve_shape_from<'f>(
    closure: Option<ClosureShape<'f>>,
    t: Option<&Type>,
) -> Result<Option<FunShape<'f>>, String> {
    if let Some(c) = closure {
        return Ok(Some(FunShape::Closure(c)));
    }
    let name = match t {
        None | Some(Type::Null | Type::Any) => return Ok(None),
        Some(t @ Type::Record { .. }) if super::callable::may_be_callable(t) => {
            return Ok(Some(FunShape::Value))
        }
        Some(t) => match t.const_str() {
            Some(s) => s,
            None if matches!(t, Type::Str { .. }) => return Ok(None),
            None => return Err(NOT_A_FUNCTION.to_string()),
        },
    };
    let k = registry()
        .get(name)
        .ok_or_else(|| format!("could not find function \"{name}\""))?;
    if k.random {
        return Err(format!(
            "FUN = {name} draws random numbers; pass it inside function(x) {name}(...), \
             whose draws come from the step's stream"
        ));
    }
    Ok(Some(FunShape::Kernel(k)))
}
