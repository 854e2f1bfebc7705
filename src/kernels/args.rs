//! Matching a call's arguments to a kernel's formals, the way R does:
//! exact names first, then unique partial names (before `...`), then
//! positions; what is left goes to `...` or is an "unused argument".
//!
//! The same matcher serves shape inference (`Args<Type>`) and evaluation
//! (`Args<Value>`), so a call that checks is a call that runs.

use std::borrow::Cow;

use super::{KernelError, Param, Type, Value};

/// A problem with a call's arguments, found by matching or by a shape rule.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgError {
    /// Index of the offending argument in the call as written (`None`: the
    /// call as a whole).
    pub arg: Option<usize>,
    pub message: String,
}

impl ArgError {
    pub fn call(message: impl Into<String>) -> ArgError {
        ArgError {
            arg: None,
            message: message.into(),
        }
    }
}

/// What a matched argument holds: a `Type` during shape inference, a
/// borrowed `&Value` during evaluation (values are shared between tasks and
/// loop iterations, so a call must not copy a 10 MB matrix to read it).
pub trait ArgValue {
    type Target: ?Sized;
    fn target(&self) -> &Self::Target;
}

impl ArgValue for Type {
    type Target = Type;
    fn target(&self) -> &Type {
        self
    }
}

impl ArgValue for &Value {
    type Target = Value;
    fn target(&self) -> &Value {
        self
    }
}

/// The arguments of one call, matched to the kernel's formals.
#[derive(Clone, Debug)]
pub struct Args<T> {
    pub func: &'static str,
    params: &'static [Param],
    /// One slot per formal except `...`, in formal order: the value and the
    /// index of the call argument that supplied it.
    slots: Vec<Option<(T, usize)>>,
    dots: Vec<(Option<String>, T, usize)>,
}

impl<T> Args<T> {
    /// Matches `given` (name, value) pairs, in call order, to `params`.
    pub fn match_call(
        func: &'static str,
        params: &'static [Param],
        mut given: Vec<(Option<String>, T)>,
    ) -> Result<Args<T>, ArgError> {
        let dots_at = params.iter().position(|p| p.name == "...");
        if given.iter().all(|(n, _)| n.is_none()) {
            if let Some(args) = Self::match_positions(func, params, dots_at, &mut given) {
                return args;
            }
        }
        let formals: Vec<&Param> = params.iter().filter(|p| p.name != "...").collect();
        let formal_pos = |i: usize| params.iter().position(|p| std::ptr::eq(p, formals[i]));
        let mut slot_of_arg: Vec<Option<usize>> = vec![None; given.len()];
        let mut taken = vec![false; formals.len()];

        // 1. Exact names.
        for (ai, (name, _)) in given.iter().enumerate() {
            let Some(name) = name else { continue };
            if let Some(fi) = formals.iter().position(|p| p.name == name) {
                if taken[fi] {
                    return Err(ArgError {
                        arg: Some(ai),
                        message: format!(
                            "formal argument \"{name}\" matched by multiple actual arguments"
                        ),
                    });
                }
                taken[fi] = true;
                slot_of_arg[ai] = Some(fi);
            }
        }
        // 2. Unique partial names, only for formals before `...`.
        for (ai, (name, _)) in given.iter().enumerate() {
            let Some(name) = name else { continue };
            if slot_of_arg[ai].is_some() {
                continue;
            }
            let candidates: Vec<usize> = (0..formals.len())
                .filter(|&fi| {
                    !taken[fi]
                        && formals[fi].name.starts_with(name.as_str())
                        && dots_at.is_none_or(|d| formal_pos(fi).is_some_and(|p| p < d))
                })
                .collect();
            if candidates.len() > 1 {
                return Err(ArgError {
                    arg: Some(ai),
                    message: format!("argument {} matches multiple formal arguments", ai + 1),
                });
            }
            if let Some(&fi) = candidates.first() {
                taken[fi] = true;
                slot_of_arg[ai] = Some(fi);
            }
        }
        // 3. Positions, for unnamed arguments, into formals before `...`.
        let mut next = 0;
        for (ai, (name, _)) in given.iter().enumerate() {
            if name.is_some() {
                continue;
            }
            while next < formals.len()
                && (taken[next] || dots_at.is_some_and(|d| formal_pos(next).is_some_and(|p| p > d)))
            {
                next += 1;
            }
            if next < formals.len() {
                taken[next] = true;
                slot_of_arg[ai] = Some(next);
                next += 1;
            }
        }

        let mut slots: Vec<Option<(T, usize)>> = formals.iter().map(|_| None).collect();
        let mut dots = Vec::new();
        for (ai, (name, value)) in given.into_iter().enumerate() {
            match slot_of_arg[ai] {
                Some(fi) => slots[fi] = Some((value, ai)),
                None if dots_at.is_some() => dots.push((name, value, ai)),
                None => {
                    let message = match &name {
                        Some(n) => format!("unused argument ({n} = ...) in {func}()"),
                        None => format!(
                            "unused argument: {func}() takes at most {} argument{}",
                            formals.len(),
                            if formals.len() == 1 { "" } else { "s" }
                        ),
                    };
                    return Err(ArgError {
                        arg: Some(ai),
                        message,
                    });
                }
            }
        }
        for (fi, p) in formals.iter().enumerate() {
            if p.required && slots[fi].is_none() {
                return Err(ArgError::call(format!(
                    "argument \"{}\" is missing, with no default, in {func}()",
                    p.name
                )));
            }
        }
        Ok(Args {
            func,
            params,
            slots,
            dots,
        })
    }

    /// [`match_call`](Self::match_call) of unnamed arguments that all fit
    /// the formals before `...`: argument i is formal i. The common case
    /// (`abs(x)`, `sum(u)` in a closure run once per element) matched
    /// without the bookkeeping that names need. `None` when the arguments
    /// do not fit, leaving `given` as it was.
    fn match_positions(
        func: &'static str,
        params: &'static [Param],
        dots_at: Option<usize>,
        given: &mut Vec<(Option<String>, T)>,
    ) -> Option<Result<Args<T>, ArgError>> {
        if given.len() > dots_at.unwrap_or(params.len()) {
            return None;
        }
        let n = given.len();
        let mut slots: Vec<Option<(T, usize)>> = Vec::with_capacity(params.len());
        slots.extend(given.drain(..).enumerate().map(|(i, (_, v))| Some((v, i))));
        slots.extend((n..params.len() - usize::from(dots_at.is_some())).map(|_| None));
        let missing = params
            .iter()
            .filter(|p| p.name != "...")
            .skip(n)
            .find(|p| p.required);
        Some(match missing {
            Some(p) => Err(ArgError::call(format!(
                "argument \"{}\" is missing, with no default, in {func}()",
                p.name
            ))),
            None => Ok(Args {
                func,
                params,
                slots,
                dots: Vec::new(),
            }),
        })
    }

    /// The same matching with each argument mapped by `f`: shape inference
    /// on a call already matched, without matching it again.
    pub fn map<U>(&self, f: impl Fn(&T) -> U) -> Args<U> {
        Args {
            func: self.func,
            params: self.params,
            slots: self
                .slots
                .iter()
                .map(|s| s.as_ref().map(|(v, i)| (f(v), *i)))
                .collect(),
            dots: self
                .dots
                .iter()
                .map(|(n, v, i)| (n.clone(), f(v), *i))
                .collect(),
        }
    }

    /// Gives formal `name` `value` (`None`: not given), supplied by the
    /// call's argument `at`: a method passing its arguments on to another.
    pub fn set(&mut self, name: &str, value: Option<T>, at: usize) {
        if let Some(slot) = self.formal(name).and_then(|fi| self.slots.get_mut(fi)) {
            *slot = value.map(|v| (v, at));
        }
    }

    /// The function's formals, to match another call of it.
    pub fn params(&self) -> &'static [Param] {
        self.params
    }

    /// The index of formal `name` among the formals other than `...`.
    fn formal(&self, name: &str) -> Option<usize> {
        let fi = self
            .params
            .iter()
            .filter(|p| p.name != "...")
            .position(|p| p.name == name);
        debug_assert!(fi.is_some(), "{}() has no formal `{name}`", self.func);
        fi
    }

    /// What the call supplied for formal `name`, as matched (a method
    /// passing it on to another function's formals).
    pub fn slot_value(&self, name: &str) -> Option<&T> {
        self.slot(name).map(|(v, _)| v)
    }

    fn slot(&self, name: &str) -> Option<&(T, usize)> {
        self.slots.get(self.formal(name)?)?.as_ref()
    }

    /// Where in the call as written formal `name`'s argument is.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.slot(name).map(|(_, i)| *i)
    }

    /// Whether formal `name` was supplied.
    pub fn has(&self, name: &str) -> bool {
        self.slot(name).is_some()
    }

    /// An error pointing at the argument supplied for `name` (or at the call).
    pub fn error(&self, name: &str, message: impl Into<String>) -> ArgError {
        ArgError {
            arg: self.slot(name).map(|(_, i)| *i),
            message: message.into(),
        }
    }

    /// An error pointing at the `k`-th argument collected by `...`.
    pub fn dots_error(&self, k: usize, message: impl Into<String>) -> ArgError {
        ArgError {
            arg: self.dots.get(k).map(|(_, _, i)| *i),
            message: message.into(),
        }
    }
}

impl<T: ArgValue> Args<T> {
    /// The value supplied for formal `name`, if any.
    pub fn get(&self, name: &str) -> Option<&T::Target> {
        self.slot(name).map(|(v, _)| v.target())
    }

    /// [`Args::get`] for a name the function may not have among its formals
    /// (a rule shared by several functions asks each for its `x`).
    pub fn get_if_formal(&self, name: &str) -> Option<&T::Target> {
        let fi = self
            .params
            .iter()
            .filter(|p| p.name != "...")
            .position(|p| p.name == name)?;
        self.slots.get(fi)?.as_ref().map(|(v, _)| v.target())
    }

    /// Arguments collected by `...`, in call order.
    pub fn dots(&self) -> impl Iterator<Item = (Option<&str>, &T::Target)> {
        self.dots.iter().map(|(n, v, _)| (n.as_deref(), v.target()))
    }

    /// The names of the arguments `...` collected and where each is in
    /// the call as written, in call order.
    pub fn dot_positions(&self) -> impl Iterator<Item = (Option<&str>, usize)> {
        self.dots.iter().map(|(n, _, i)| (n.as_deref(), *i))
    }

    /// Every supplied argument: the formals', then `...`'s.
    pub fn all(&self) -> impl Iterator<Item = &T::Target> {
        self.slots
            .iter()
            .flatten()
            .map(|(v, _)| v.target())
            .chain(self.dots.iter().map(|(_, v, _)| v.target()))
    }
}

impl Args<Type> {
    /// The type of formal `name`, or `Type::Any`-free absence.
    pub fn ty(&self, name: &str) -> Option<&Type> {
        self.get(name)
    }

    /// A constant scalar argument, or `default` when absent; an error when
    /// present but not a known single number.
    pub fn const_scalar_or(
        &self,
        name: &str,
        default: Option<f64>,
    ) -> Result<Option<f64>, ArgError> {
        match self.get(name) {
            None => Ok(default),
            Some(Type::Any) => Ok(None),
            Some(t) if t.len() == Some(1) && t.is_numeric() => Ok(t.const_scalar()),
            Some(t) => Err(self.error(
                name,
                format!("`{name}` must be a single number, not {}", t.describe()),
            )),
        }
    }

    /// Checks that every `...` argument is numeric (NULLs are skipped, as in
    /// `sum`, `min`, `max`); returns their constant numbers when all are known.
    /// For `max`, `min` and `range`: text of `len` elements when one of
    /// the dots is text (the others are then compared as text too), after
    /// R's refusals of a factor first and of lists.
    pub fn text_dots(&self, len: usize) -> Result<Option<Type>, ArgError> {
        if !self.dots().any(|(_, t)| matches!(t, Type::Str { .. })) {
            return Ok(None);
        }
        for (k, (_, t)) in self.dots().enumerate() {
            let refused = match t {
                Type::Factor { .. } if k == 0 => Some(format!(
                    "\u{2018}{}\u{2019} not meaningful for factors",
                    self.func
                )),
                Type::List { .. } | Type::Record { .. } => {
                    Some("invalid 'type' (list) of argument".to_string())
                }
                Type::Formula { .. } => Some("invalid 'type' (language) of argument".to_string()),
                _ => None,
            };
            if let Some(m) = refused {
                return Err(self.dots_error(k, m));
            }
        }
        Ok(Some(Type::Str {
            len: Some(len),
            value: None,
        }))
    }

    pub fn numeric_dots(&self) -> Result<Option<Vec<Vec<f64>>>, ArgError> {
        let mut consts = Some(Vec::new());
        for (k, (_, t)) in self.dots().enumerate() {
            if matches!(t, Type::Null) {
                continue;
            }
            // A dist object is numbers, as in R.
            let t = match t {
                Type::Record { class, .. } if class == "dist" => {
                    t.field("values").unwrap_or(&Type::Any)
                }
                t => t,
            };
            // Summary.factor, dispatched on the first argument.
            if k == 0
                && matches!(t, Type::Factor { .. })
                && matches!(self.func, "sum" | "prod" | "max" | "min" | "range")
            {
                return Err(self.dots_error(
                    k,
                    format!("\u{2018}{}\u{2019} not meaningful for factors", self.func),
                ));
            }
            if !t.is_numeric() {
                // R names the type as typeof() does (do_summary's error).
                let ty = match t {
                    Type::Str { .. } => "character".to_string(),
                    Type::List { .. } | Type::Record { .. } => "list".to_string(),
                    Type::Formula { .. } => "language".to_string(),
                    t => t.describe(),
                };
                return Err(self.dots_error(k, format!("invalid 'type' ({ty}) of argument")));
            }
            match (&mut consts, t.const_nums()) {
                (Some(c), Some(v)) => c.push(v),
                _ => consts = None,
            }
        }
        Ok(consts)
    }

    /// A constant string argument (`method = "ward.D2"`), when known.
    pub fn const_str(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(Type::const_str)
    }
}

impl Args<&Value> {
    fn require(&self, name: &str) -> Result<&Value, KernelError> {
        self.get(name).ok_or_else(|| {
            KernelError::new(format!("argument \"{name}\" is missing, with no default"))
        })
    }

    /// Numbers (vector, matrix column-major, or logicals as 0/1).
    pub fn nums(&self, name: &str) -> Result<Cow<'_, [f64]>, KernelError> {
        let v = self.require(name)?;
        v.as_f64_slice().ok_or_else(|| {
            KernelError::new(format!(
                "argument \"{name}\" of {}() must be numeric, not {}",
                self.func,
                v.type_name()
            ))
        })
    }

    /// A single number.
    pub fn scalar(&self, name: &str) -> Result<f64, KernelError> {
        let v = self.require(name)?;
        v.as_scalar().ok_or_else(|| {
            KernelError::new(format!(
                "argument \"{name}\" of {}() must be a single number, not {}",
                self.func,
                v.type_name()
            ))
        })
    }

    pub fn scalar_or(&self, name: &str, default: f64) -> Result<f64, KernelError> {
        if self.has(name) {
            self.scalar(name)
        } else {
            Ok(default)
        }
    }

    pub fn bool_or(&self, name: &str, default: bool) -> Result<bool, KernelError> {
        match self.get(name) {
            None => Ok(default),
            Some(Value::Bool(b)) if b.len() == 1 && b[0].is_some() => Ok(b[0] == Some(true)),
            Some(v) => match v.as_scalar() {
                Some(x) if !x.is_nan() => Ok(x != 0.0),
                _ => Err(KernelError::new(format!(
                    "argument \"{name}\" of {}() must be TRUE or FALSE",
                    self.func
                ))),
            },
        }
    }

    pub fn str_or<'a>(&'a self, name: &str, default: &'a str) -> Result<&'a str, KernelError> {
        match self.get(name) {
            None => Ok(default),
            Some(Value::Str(s)) if s.len() == 1 => Ok(&s[0]),
            Some(v) => Err(KernelError::new(format!(
                "argument \"{name}\" of {}() must be a single string, not {}",
                self.func,
                v.type_name()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{opt, req, DOTS};

    static SEQ: &[Param] = &[opt("from"), opt("to"), opt("by"), opt("length.out")];
    static C: &[Param] = &[DOTS];
    static PR: &[Param] = &[req("x"), opt("center"), opt("scale.")];

    impl ArgValue for i32 {
        type Target = i32;
        fn target(&self) -> &i32 {
            self
        }
    }

    fn named(n: &str, v: i32) -> (Option<String>, i32) {
        (Some(n.to_string()), v)
    }

    #[test]
    fn positions_fill_after_names() {
        let a = Args::match_call("seq", SEQ, vec![named("by", 2), (None, 1), (None, 9)]).unwrap();
        assert_eq!(a.get("from"), Some(&1));
        assert_eq!(a.get("to"), Some(&9));
        assert_eq!(a.get("by"), Some(&2));
        assert!(!a.has("length.out"));
    }

    #[test]
    fn partial_names_match_uniquely() {
        let a = Args::match_call("seq", SEQ, vec![named("length", 5)]).unwrap();
        assert_eq!(a.get("length.out"), Some(&5));
        let a = Args::match_call("prcomp", PR, vec![(None, 0), named("scale", 1)]).unwrap();
        assert_eq!(a.get("scale."), Some(&1));
    }

    #[test]
    fn dots_collect_everything() {
        let a = Args::match_call("c", C, vec![(None, 1), named("b", 2)]).unwrap();
        let d: Vec<_> = a.dots().map(|(n, v)| (n.map(str::to_string), *v)).collect();
        assert_eq!(d, vec![(None, 1), (Some("b".to_string()), 2)]);
    }

    #[test]
    fn errors_point_at_the_argument() {
        let e = Args::match_call(
            "prcomp",
            PR,
            vec![(None, 0), (None, 1), (None, 2), (None, 3)],
        )
        .unwrap_err();
        assert_eq!(e.arg, Some(3));
        let e = Args::match_call("prcomp", PR, vec![named("center", 1)]).unwrap_err();
        assert_eq!(e.arg, None);
        assert!(e.message.contains("\"x\" is missing"), "{}", e.message);
        let e = Args::match_call("prcomp", PR, vec![(None, 0), named("bogus", 1)]).unwrap_err();
        assert_eq!(e.arg, Some(1));
    }
}
