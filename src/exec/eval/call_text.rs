//! What R's functions keep of their own call's text, which a kernel never
//! sees: a test's `data.name` (`deparse1(substitute(x))`), density's, ar's
//! and integrate's `call` (`match.call()`), acf's and ar's `series`,
//! medpolish's `name`, arima's names for an unnamed `xreg`. The evaluator
//! adds each to the kernel's result from the call as written, in R's
//! deparsed form (`x/2`, not `x / 2`).

use crate::kernels::value::List;
use crate::kernels::{Args, Kernel, Value};
use crate::workflow::{deparse, Arg};

/// Where a field goes among the result's fields.
enum At {
    /// At this index, or last when there are fewer fields.
    Index(usize),
    /// This many places after the named field (last when that is absent).
    After(&'static str, usize),
    Last,
}

/// What a field's text is.
enum Text {
    /// One argument as R deparses it.
    Deparse(&'static str),
    /// A test's description of its data ([`data_name`]).
    DataName,
    /// `match.call()` of the function, under this name (an S3 method's
    /// when R's generic dispatched to it).
    Call(Option<&'static str>),
    /// `sys.call()`: the call as written, its arguments unmatched.
    SysCall,
}

/// One field of R's result that holds call text.
struct Field {
    class: &'static str,
    /// Only for calls of this function (listed before the class's general
    /// entry, which then finds the field present).
    only: Option<&'static str>,
    name: &'static str,
    text: Text,
    at: At,
}

const FIELDS: &[Field] = &[
    // bartlett.test puts its data.name before the method.
    Field {
        class: "htest",
        only: Some("bartlett.test"),
        name: "data.name",
        text: Text::DataName,
        at: At::After("method", 0),
    },
    // Right after the method, where R's tests put it (before wilcox's
    // conf.int, chisq's observed, ks's exact).
    Field {
        class: "htest",
        only: None,
        name: "data.name",
        text: Text::DataName,
        at: At::After("method", 1),
    },
    Field {
        class: "pairwise.htest",
        only: None,
        name: "data.name",
        text: Text::DataName,
        at: At::Index(1),
    },
    Field {
        class: "density",
        only: None,
        name: "call",
        text: Text::Call(Some("density.default")),
        at: At::Index(4),
    },
    Field {
        class: "density",
        only: None,
        name: "data.name",
        text: Text::DataName,
        at: At::After("call", 1),
    },
    Field {
        class: "acf",
        only: None,
        name: "series",
        text: Text::Deparse("x"),
        at: At::Index(4),
    },
    // ccf's series names, "x & y" as written.
    Field {
        class: "acf",
        only: Some("ccf"),
        name: "snames",
        text: Text::DataName,
        at: At::Last,
    },
    Field {
        class: "ar",
        only: None,
        name: "series",
        text: Text::Deparse("x"),
        at: At::After("method", 1),
    },
    // spec.ar of a series: deparse1(substitute(x)); of a fit, the fit's.
    Field {
        class: "spec",
        only: Some("spec.ar"),
        name: "series",
        text: Text::Deparse("x"),
        at: At::After("n.used", 1),
    },
    // The generics' match.call() is their default method's.
    Field {
        class: "ar",
        only: Some("ar.yw"),
        name: "call",
        text: Text::Call(Some("ar.yw.default")),
        at: At::After("series", 2),
    },
    Field {
        class: "ar",
        only: Some("ar.burg"),
        name: "call",
        text: Text::Call(Some("ar.burg.default")),
        at: At::After("series", 2),
    },
    // After the series and its frequency.
    Field {
        class: "ar",
        only: None,
        name: "call",
        text: Text::Call(None),
        at: At::After("series", 2),
    },
    Field {
        class: "medpolish",
        only: None,
        name: "name",
        text: Text::Deparse("x"),
        at: At::Last,
    },
    Field {
        class: "histogram",
        only: None,
        name: "xname",
        text: Text::Deparse("x"),
        at: At::After("mids", 1),
    },
    Field {
        class: "tukeyline",
        only: None,
        name: "call",
        text: Text::SysCall,
        at: At::Index(0),
    },
    Field {
        class: "integrate",
        only: None,
        name: "call",
        text: Text::Call(None),
        at: At::Last,
    },
];

/// Adds to `value`, the result of `kernel` called as `func(args)`, the
/// fields R fills from the call's text.
pub(super) fn attach(
    func: &str,
    kernel: &Kernel,
    matched: &Args<&Value>,
    args: &[Arg],
    value: &mut Value,
) {
    if let Value::List(l) = value {
        for f in FIELDS {
            let applies = l.class.as_deref() == Some(f.class)
                && f.only.is_none_or(|only| only == func)
                && l.field(f.name).is_none();
            if !applies || l.names.is_none() {
                continue;
            }
            let text = match f.text {
                Text::Deparse(formal) => argument(formal, matched, args),
                Text::DataName => data_name(func, matched, args),
                Text::SysCall => Some(sys_call(func, args)),
                Text::Call(name) => Some(match_call(
                    name.unwrap_or(kernel.name),
                    kernel,
                    matched,
                    args,
                )),
            };
            if let Some(text) = text {
                let at = position(l, &f.at);
                if let Some(names) = l.names.as_mut() {
                    names.insert(at, f.name.to_string());
                    l.items.insert(at, Value::string(&text));
                }
            }
        }
    }
    if matches!(func, "lm" | "glm") {
        // predict.lm evaluates `object$call$offset` in newdata: the fit
        // keeps the argument's text beside its offset() terms.
        if let (Some(text), Value::List(l)) = (argument("offset", matched, args), &mut *value) {
            if let Some(Value::List(t)) = field_mut(l, "terms") {
                if let Some(Value::Str(o)) = field_mut(t, "offset") {
                    o.push(format!("offset({text})"));
                }
            }
        }
    }
    if matches!(func, "AIC" | "BIC") {
        // AIC.default's table of several models names its rows
        // `as.character(Call[-1L])`, `k` taken out.
        if let Value::List(l) = value {
            if l.class.as_deref() == Some(crate::kernels::frame::CLASS) {
                let rows = args
                    .iter()
                    .filter(|a| a.name.as_deref() != Some("k"))
                    .map(|a| deparse(&a.value))
                    .collect();
                l.row_names = Some(crate::kernels::value::RowNames::Text(rows));
            }
        }
    }
    if func == "arima" {
        // deparse1(substitute(xreg)) names an xreg without column names.
        let xreg = matched.get("xreg");
        let unnamed = xreg.is_some_and(|v| crate::kernels::names::dimnames(v).1.is_none());
        let text = argument("xreg", matched, args);
        if let (true, Some(v), Some(text)) = (unnamed, xreg, text) {
            let ncol = v.dims().map_or(1, |(_, c)| c);
            crate::kernels::arima::name_xreg(value, &text, ncol);
        }
    }
}

/// The field named exactly `name`, to change.
fn field_mut<'l>(l: &'l mut List, name: &str) -> Option<&'l mut Value> {
    let i = l.names.as_ref()?.iter().position(|n| n == name)?;
    l.items.get_mut(i)
}

fn position(l: &List, at: &At) -> usize {
    let len = l.items.len();
    match *at {
        At::Index(i) => i.min(len),
        At::After(name, k) => l
            .names
            .as_ref()
            .and_then(|n| n.iter().position(|n| n == name))
            .map_or(len, |i| (i + k).min(len)),
        At::Last => len,
    }
}

/// The argument matched to `formal`, as R deparses it.
fn argument(formal: &str, matched: &Args<&Value>, args: &[Arg]) -> Option<String> {
    matched
        .position(formal)
        .and_then(|i| args.get(i))
        .map(|a| deparse(&a.value))
}

/// R's `match.call()` of a closure's call, as `integrate` keeps it: each
/// argument given, named by its formal, in the formals' order, and what
/// `...` took where it stands, with its own name if it had one.
fn match_call(name: &str, kernel: &Kernel, matched: &Args<&Value>, args: &[Arg]) -> String {
    let mut given = Vec::new();
    for p in kernel.params {
        if p.name == "..." {
            for (name, i) in matched.dot_positions() {
                if let Some(a) = args.get(i) {
                    given.push(match name {
                        Some(n) => format!("{n} = {}", deparse(&a.value)),
                        None => deparse(&a.value),
                    });
                }
            }
        } else if let Some(a) = matched.position(p.name).and_then(|i| args.get(i)) {
            given.push(format!("{} = {}", p.name, deparse(&a.value)));
        }
    }
    format!("{name}({})", given.join(", "))
}

/// `sys.call()` deparsed: the function as called and each argument as
/// written, with its own name if it had one.
fn sys_call(func: &str, args: &[Arg]) -> String {
    let given: Vec<String> = args
        .iter()
        .map(|a| match &a.name {
            Some(n) => format!("{n} = {}", deparse(&a.value)),
            None => deparse(&a.value),
        })
        .collect();
    format!("{func}({})", given.join(", "))
}

/// A test's `data.name`: its data arguments as R deparses them
/// (`deparse1(substitute(x))`), joined as each R test joins them.
fn data_name(func: &str, matched: &Args<&Value>, args: &[Arg]) -> Option<String> {
    let text = |name: &str| argument(name, matched, args);
    match func {
        "wilcox.test" | "ks.test" | "mood.test" | "ansari.test" => {
            let x = text("x")?;
            // ks.test's `y` may name a distribution instead of data.
            let y = match matched.get("y") {
                Some(Value::Num(_) | Value::Mat(_) | Value::Bool(_)) => text("y"),
                _ => None,
            };
            Some(y.map_or_else(|| x.clone(), |y| format!("{x} and {y}")))
        }
        "t.test" | "var.test" | "cor.test" | "mcnemar.test" => {
            let x = text("x")?;
            Some(match matched.get("y") {
                Some(Value::Null) | None => x,
                Some(_) => format!("{x} and {}", text("y")?),
            })
        }
        "chisq.test" | "shapiro.test" | "fisher.test" | "density" | "Box.test" | "PP.test" => {
            text("x")
        }
        "ccf" => Some(format!("{} & {}", text("x")?, text("y")?)),
        "prop.trend.test" => {
            // paste(score, collapse = " "): as.character of each number.
            let scores: Vec<String> = match matched.get("score") {
                Some(v) => v
                    .as_f64_slice()?
                    .iter()
                    .map(|&s| crate::kernels::data::r_num_to_string(s))
                    .collect(),
                None => (1..=matched.get("x").map_or(0, Value::len))
                    .map(|i| i.to_string())
                    .collect(),
            };
            Some(format!(
                "{} out of {} ,\n using scores: {}",
                text("x")?,
                text("n")?,
                scores.join(" ")
            ))
        }
        "pairwise.prop.test" => {
            let x = text("x")?;
            Some(match matched.get("x").and_then(Value::dims) {
                Some(_) => x,
                None => format!("{x} out of {}", text("n")?),
            })
        }
        "pairwise.t.test" | "pairwise.wilcox.test" => {
            Some(format!("{} and {}", text("x")?, text("g")?))
        }
        "kruskal.test" | "bartlett.test" | "fligner.test" => {
            let x = text("x")?;
            Some(match text("g") {
                Some(g) if !matches!(matched.get("x"), Some(Value::List(_))) => {
                    format!("{x} and {g}")
                }
                _ => x,
            })
        }
        "mantelhaen.test" => {
            let x = text("x")?;
            Some(match (text("y"), text("z")) {
                (Some(y), Some(z)) => format!("{x} and {y} and {z}"),
                _ => x,
            })
        }
        "poisson.test" => Some(format!(
            "{} time base: {}",
            text("x")?,
            text("T").unwrap_or_else(|| "1".to_string())
        )),
        "binom.test" => {
            let x = text("x")?;
            Some(match (matched.get("x").map(Value::len), text("n")) {
                (Some(1), Some(n)) => format!("{x} and {n}"),
                _ => x,
            })
        }
        "prop.test" => {
            let mut d = text("x")?;
            let k = match matched.get("x") {
                Some(Value::Mat(m)) => m.nrows(),
                Some(v) => {
                    d = format!("{d} out of {}", text("n").unwrap_or_default());
                    v.len()
                }
                None => 0,
            };
            let p = match text("p") {
                Some(p) => Some(p),
                None if k == 1 => Some("0.5".to_string()),
                None => None,
            };
            if let Some(p) = p {
                let what = if k == 1 {
                    "probability"
                } else {
                    "probabilities"
                };
                d = format!("{d}, null {what} {p}");
            }
            Some(d)
        }
        "friedman.test" | "quade.test" => {
            let y = text("y")?;
            Some(match (text("groups"), text("blocks")) {
                (Some(g), Some(b)) => format!("{y}, {g} and {b}"),
                _ => y,
            })
        }
        _ => None,
    }
}
