//! R's `switch(EXPR, ...)`, following `do_switch` (src/main/builtin.c).
//! R evaluates only the alternative it picks, so the evaluator and shape
//! inference treat a written `switch(...)` as a special form and ask
//! [`choose`] which alternative that is. The kernel below serves calls whose
//! alternatives are already values: `sapply(x, switch, a = 1, b = 2)`.

use super::types::Type;
use super::value::Value;
use super::{req, ArgError, Args, Ctx, Kernel, KernelError, DOTS};

pub const KERNELS: &[Kernel] = &[Kernel {
    name: "switch",
    params: &[req("EXPR"), DOTS],
    random: false,
    shape,
    eval,
}];

/// What `EXPR` selects by: R matches a string against the alternatives'
/// names, and takes anything else as the position of one.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    Name(String),
    /// R's `asInteger(EXPR)`: `None` is NA.
    Position(Option<i64>),
}

/// One alternative as written: its name, and whether its value is empty
/// (`a = ,`, which falls through to the next).
#[derive(Clone, Copy, Debug)]
pub struct Alternative<'a> {
    pub name: Option<&'a str>,
    pub empty: bool,
}

/// Which alternative R evaluates; `None` where `switch` gives NULL.
pub type Choice = Option<usize>;

/// The key of an evaluated `EXPR`, with R's warning for a factor.
pub fn key(x: &Value) -> Result<(Key, Option<&'static str>), String> {
    let x = super::names::bare(x);
    let scalar = match x {
        Value::Null | Value::Formula(_) | Value::Lang(_) => None,
        _ => Some(x.len()),
    };
    if scalar != Some(1) {
        return Err(LENGTH.into());
    }
    Ok(match x {
        Value::Str(s) => (Key::Name(s[0].clone()), None),
        Value::Num(v) => (Key::Position(as_integer(v[0])), None),
        Value::Mat(m) => (Key::Position(as_integer(m[0])), None),
        Value::Complex(v) => (Key::Position(as_integer(v[0].re)), None),
        Value::ComplexMat(m) => (Key::Position(as_integer(m[0].re)), None),
        Value::Bool(v) => (Key::Position(v[0].map(i64::from)), None),
        Value::BoolMat(m) => (Key::Position(m[0].map(i64::from)), None),
        Value::Factor(f) => (
            Key::Position(f.codes[0].map(|c| c as i64 + 1)),
            Some(FACTOR),
        ),
        // asInteger of a list is NA.
        _ => (Key::Position(None), None),
    })
}

/// The key when shape inference knows `EXPR`'s value; `Ok(None)` when only
/// the run can tell.
pub fn key_of_type(t: &Type) -> Result<Option<Key>, String> {
    if t.len().is_some_and(|n| n != 1) || matches!(t, Type::Null) {
        return Err(LENGTH.into());
    }
    Ok(if let Some(s) = t.const_str() {
        Some(Key::Name(s.to_string()))
    } else if let Type::Bool { value: Some(v), .. } = t {
        v.first().map(|b| Key::Position(b.map(i64::from)))
    } else if let (Some(x), Type::Num { .. }) = (t.const_scalar(), t) {
        Some(Key::Position(as_integer(x)))
    } else {
        None
    })
}

const LENGTH: &str = "EXPR must be a length 1 vector";
const FACTOR: &str = "EXPR is a \"factor\", treated as integer.\n \
                      Consider using 'switch(as.character( * ), ...)' instead.";
pub const NO_ALTERNATIVES: &str = "'switch' with no alternatives";

/// R's asInteger of a double: truncated, NA outside int's range.
fn as_integer(x: f64) -> Option<i64> {
    (!x.is_nan() && x.abs() < 2147483648.0).then_some(x.trunc() as i64)
}

/// The alternative `do_switch` evaluates. `text(i)` is alternative `i` as
/// written, for R's message on two defaults.
pub fn choose(
    key: &Key,
    alts: &[Alternative],
    text: impl Fn(usize) -> String,
) -> Result<Choice, String> {
    let mut default: Option<usize> = None;
    let mut set_default = |i: usize| -> Result<(), String> {
        if let Some(d) = default {
            return Err(format!(
                "duplicate 'switch' defaults: '{}' and '{}'",
                text(d),
                text(i)
            ));
        }
        default = Some(i);
        Ok(())
    };
    match key {
        Key::Name(s) => {
            for (i, a) in alts.iter().enumerate() {
                match a.name {
                    Some(n) if n == s => {
                        // The next alternative with a value; none: NULL.
                        let mut y = i;
                        while alts[y].empty {
                            y += 1;
                            if y == alts.len() {
                                return Ok(None);
                            }
                            if alts[y].name.is_none() {
                                set_default(y)?;
                            }
                        }
                        // Two defaults after the match are still R's error.
                        for (z, a) in alts.iter().enumerate().skip(y + 1) {
                            if a.name.is_none() {
                                set_default(z)?;
                            }
                        }
                        return Ok(Some(y));
                    }
                    Some(_) => {}
                    None => set_default(i)?,
                }
            }
            Ok(default)
        }
        Key::Position(k) => match k {
            Some(k) if *k >= 1 && (*k as usize) <= alts.len() => {
                let i = *k as usize - 1;
                if alts[i].empty {
                    return Err("empty alternative in numeric switch".into());
                }
                Ok(Some(i))
            }
            _ => Ok(None),
        },
    }
}

/// The type of a `switch` whose alternatives have types `alts` (`None`:
/// an empty one): the chosen one's when `key` is known, else all that may
/// be chosen joined (with NULL where none may be).
pub fn result_type(
    key: Option<&Key>,
    names: &[Option<&str>],
    alts: &[Option<Type>],
) -> Result<Type, String> {
    let written: Vec<Alternative> = names
        .iter()
        .zip(alts)
        .map(|(n, t)| Alternative {
            name: *n,
            empty: t.is_none(),
        })
        .collect();
    if let Some(k) = key {
        let chosen = choose(k, &written, |i| describe(names[i]))?;
        return Ok(chosen.and_then(|i| alts[i].clone()).unwrap_or(Type::Null));
    }
    let has_default = names.iter().any(Option::is_none);
    let mut out: Option<Type> = (!has_default).then_some(Type::Null);
    for t in alts.iter().flatten() {
        out = Some(match out {
            Some(o) => o.join(t),
            None => t.clone(),
        });
    }
    Ok(out.unwrap_or(Type::Null))
}

fn describe(name: Option<&str>) -> String {
    name.unwrap_or("default").to_string()
}

fn shape(a: &Args<Type>, _: &super::ShapeCtx) -> Result<Type, ArgError> {
    let key = key_of_type(a.get("EXPR").unwrap_or(&Type::Any)).map_err(ArgError::call)?;
    let (names, alts): (Vec<Option<&str>>, Vec<Option<Type>>) =
        a.dots().map(|(n, t)| (n, Some(t.clone()))).unzip();
    result_type(key.as_ref(), &names, &alts).map_err(ArgError::call)
}

fn eval(a: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let (key, warning) = key(a.get("EXPR").unwrap_or(&Value::Null)).map_err(KernelError::new)?;
    if let Some(w) = warning {
        ctx.warn(w);
    }
    let alts: Vec<(Option<&str>, &Value)> = a.dots().collect();
    if alts.is_empty() {
        ctx.warn(NO_ALTERNATIVES);
        return Ok(Value::Null);
    }
    let written: Vec<Alternative> = alts
        .iter()
        .map(|(n, _)| Alternative {
            name: *n,
            empty: false,
        })
        .collect();
    let chosen = choose(&key, &written, |i| describe(alts[i].0)).map_err(KernelError::new)?;
    Ok(chosen.map_or(Value::Null, |i| alts[i].1.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alts<'a>(spec: &[(Option<&'a str>, bool)]) -> Vec<Alternative<'a>> {
        spec.iter()
            .map(|&(name, empty)| Alternative { name, empty })
            .collect()
    }

    fn pick(key: Key, spec: &[(Option<&str>, bool)]) -> Result<Choice, String> {
        choose(&key, &alts(spec), |i| format!("#{i}"))
    }

    /// The cases do_switch's comment names, each as R 4.2.2 answers it.
    #[test]
    fn chooses_as_r() {
        let s = |x: &str| Key::Name(x.into());
        // switch("b", a = 1, b = 2, 3) is 2; switch("z", ...) the default.
        let abc = [(Some("a"), false), (Some("b"), false), (None, false)];
        assert_eq!(pick(s("b"), &abc), Ok(Some(1)));
        assert_eq!(pick(s("z"), &abc), Ok(Some(2)));
        // switch("yes", yes = , YES = 1, no = , NO = 2, 3): falls through.
        let yn = [
            (Some("yes"), true),
            (Some("YES"), false),
            (Some("no"), true),
            (Some("NO"), false),
            (None, false),
        ];
        assert_eq!(pick(s("yes"), &yn), Ok(Some(1)));
        assert_eq!(pick(s("no"), &yn), Ok(Some(3)));
        // No next alternative: NULL. No match and no default: NULL.
        assert_eq!(pick(s("a"), &[(Some("a"), true)]), Ok(None));
        assert_eq!(pick(s("q"), &[(Some("a"), false)]), Ok(None));
        // Two defaults: R's error, even after a match.
        let two = [(Some("a"), false), (None, false), (None, false)];
        assert_eq!(
            pick(s("a"), &two),
            Err("duplicate 'switch' defaults: '#1' and '#2'".into())
        );
        // Positions count every alternative, named or not.
        assert_eq!(pick(Key::Position(Some(2)), &abc), Ok(Some(1)));
        assert_eq!(pick(Key::Position(Some(4)), &abc), Ok(None));
        assert_eq!(pick(Key::Position(Some(0)), &abc), Ok(None));
        assert_eq!(pick(Key::Position(None), &abc), Ok(None));
        assert_eq!(
            pick(Key::Position(Some(1)), &yn),
            Err("empty alternative in numeric switch".into())
        );
    }

    #[test]
    fn keys_follow_as_integer() {
        let k = |v: Value| key(&v).map(|(k, _)| k);
        assert_eq!(k(Value::scalar(2.9)), Ok(Key::Position(Some(2))));
        assert_eq!(k(Value::scalar(-0.5)), Ok(Key::Position(Some(0))));
        assert_eq!(k(Value::scalar(f64::NAN)), Ok(Key::Position(None)));
        assert_eq!(k(Value::scalar(3e9)), Ok(Key::Position(None)));
        assert_eq!(k(Value::flag(true)), Ok(Key::Position(Some(1))));
        assert_eq!(k(Value::Num(vec![1.0, 2.0])), Err(LENGTH.into()));
        assert_eq!(k(Value::Null), Err(LENGTH.into()));
    }
}
