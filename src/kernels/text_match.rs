//! Approximate and pattern matching of text as R 4.2.2 gives it:
//! `adist` (agrep.c's `adist_full`, the generalized Levenshtein distance
//! with weights), `agrep` and `agrepl` of a fixed pattern (TRE's
//! approximate match of a literal, which for a literal is the least
//! weighted edit cost of the pattern into any substring: Sellers'
//! algorithm), `glob2rx` and `hasName`.

use super::args::{ArgError, Args};
use super::names::{bare, dimnamed, names};
use super::registry;
use super::value::{List, NA};
use super::{opt, req, Ctx, Kernel, KernelError, ShapeCtx, Type, Value};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "adist",
        params: &[
            req("x"),
            opt("y"),
            opt("costs"),
            opt("counts"),
            opt("fixed"),
            opt("partial"),
            opt("ignore.case"),
            opt("useBytes"),
        ],
        random: false,
        shape: shape_matrix,
        eval: adist,
    },
    Kernel {
        name: "agrep",
        params: &[
            req("pattern"),
            req("x"),
            opt("max.distance"),
            opt("costs"),
            opt("ignore.case"),
            opt("value"),
            opt("fixed"),
            opt("useBytes"),
        ],
        random: false,
        shape: shape_any,
        eval: agrep,
    },
    Kernel {
        name: "agrepl",
        params: &[
            req("pattern"),
            req("x"),
            opt("max.distance"),
            opt("costs"),
            opt("ignore.case"),
            opt("fixed"),
            opt("useBytes"),
        ],
        random: false,
        shape: shape_any,
        eval: agrep,
    },
    Kernel {
        name: "glob2rx",
        params: &[req("pattern"), opt("trim.head"), opt("trim.tail")],
        random: false,
        shape: shape_any,
        eval: glob2rx,
    },
    Kernel {
        name: "hasName",
        params: &[req("x"), req("name")],
        random: false,
        shape: shape_any,
        eval: has_name,
    },
];

fn shape_any(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Any)
}

fn shape_matrix(_: &Args<Type>, _: &ShapeCtx) -> Result<Type, ArgError> {
    Ok(Type::Mat {
        rows: None,
        cols: None,
    })
}

fn missing(name: &str) -> KernelError {
    KernelError::new(format!("argument \"{name}\" is missing, with no default"))
}

/// `as.character(v)`, `None` for R's NA; a factor gives its labels.
fn texts(v: &Value, ctx: &mut Ctx) -> Result<Vec<Option<String>>, KernelError> {
    let chr = match bare(v) {
        Value::Str(s) => s.clone(),
        Value::Null => Vec::new(),
        Value::Factor(f) => f.labels(),
        other => match registry().call("as.character", vec![(None, other)], ctx)? {
            Value::Str(s) => s,
            _ => return Err(KernelError::new("cannot coerce to character")),
        },
    };
    Ok(chr.into_iter().map(|s| (s != "NA").then_some(s)).collect())
}

/// `.amatch_costs(costs)`: insertions, deletions, substitutions, by
/// (partial) name; unnamed components match no name and change nothing.
fn amatch_costs(v: Option<&Value>, ctx: &mut Ctx) -> Result<[f64; 3], KernelError> {
    let mut costs = [1.0, 1.0, 1.0];
    let Some(v) = v else { return Ok(costs) };
    if matches!(v, Value::Null) {
        return Ok(costs);
    }
    let (nm, vals): (Vec<String>, Vec<Option<f64>>) = match v {
        Value::List(l) => (
            l.names.clone().unwrap_or_default(),
            l.items
                .iter()
                .map(|x| {
                    bare(x)
                        .as_f64_slice()
                        .filter(|s| s.len() == 1)
                        .map(|s| s[0])
                })
                .collect(),
        ),
        _ => (
            names(v).map(<[String]>::to_vec).unwrap_or_default(),
            bare(v)
                .as_f64_slice()
                .map(|s| s.iter().map(|&x| Some(x)).collect())
                .unwrap_or_default(),
        ),
    };
    let table = ["insertions", "deletions", "substitutions"];
    let mut unknown = false;
    for (n, x) in nm.iter().zip(&vals) {
        let hits: Vec<usize> = (0..3)
            .filter(|&i| table[i].starts_with(n.as_str()))
            .collect();
        let pos = match (table.iter().position(|t| t == n), hits.as_slice()) {
            (Some(i), _) => Some(i),
            (None, [i]) if !n.is_empty() => Some(*i),
            _ => None,
        };
        match (pos, x) {
            (None, _) => unknown = true,
            (Some(i), Some(x)) if *x >= 0.0 => costs[i] = *x,
            _ => return Err(KernelError::new("cost components must be non-negative")),
        }
    }
    if unknown {
        ctx.warn("unknown cost components ignored");
    }
    Ok(costs)
}

fn flag(args: &Args<&Value>, name: &str, default: bool) -> Result<bool, KernelError> {
    args.get_if_formal(name)
        .map_or(Ok(default), |_| args.bool_or(name, default))
}

fn chars(s: &str, lower: bool) -> Vec<char> {
    if lower {
        s.to_lowercase().chars().collect()
    } else {
        s.chars().collect()
    }
}

/// agrep.c's `adist_full` for one pair: the weighted edit distance
/// turning `x` into `y`.
fn distance(x: &[char], y: &[char], c: [f64; 3]) -> f64 {
    let [ins, del, sub] = c;
    let nx = x.len();
    let mut prev: Vec<f64> = (0..=nx).map(|i| i as f64 * del).collect();
    let mut cur = vec![0.0; nx + 1];
    for (j, yc) in y.iter().enumerate() {
        cur[0] = (j + 1) as f64 * ins;
        for i in 1..=nx {
            let d_ins = prev[i] + ins;
            let d_del = cur[i - 1] + del;
            let d_sub = prev[i - 1] + if x[i - 1] == *yc { 0.0 } else { sub };
            cur[i] = d_ins.min(d_del).min(d_sub);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[nx]
}

fn adist(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let xv = args.get("x").ok_or_else(|| missing("x"))?;
    let yv = args.get("y").filter(|v| !matches!(v, Value::Null));
    if flag(args, "counts", false)? {
        return Err(KernelError::new(
            "flowcast's adist() does not give counts = TRUE (the edit transcripts)",
        ));
    }
    let fixed = flag(args, "fixed", true)?;
    if flag(args, "partial", !fixed)? || !fixed {
        return Err(KernelError::new(
            "flowcast's adist() gives only the full distance (partial = FALSE, fixed = TRUE)",
        ));
    }
    let costs = amatch_costs(args.get("costs"), ctx)?;
    let lower = flag(args, "ignore.case", false)?;
    let x = texts(xv, ctx)?;
    let y = match yv {
        Some(v) => texts(v, ctx)?,
        None => x.clone(),
    };
    let xc: Vec<Option<Vec<char>>> = x
        .iter()
        .map(|s| s.as_deref().map(|s| chars(s, lower)))
        .collect();
    let yc: Vec<Option<Vec<char>>> = y
        .iter()
        .map(|s| s.as_deref().map(|s| chars(s, lower)))
        .collect();
    let mut m = nalgebra::DMatrix::from_element(xc.len(), yc.len(), NA);
    for (i, a) in xc.iter().enumerate() {
        for (j, b) in yc.iter().enumerate() {
            if let (Some(a), Some(b)) = (a, b) {
                m[(i, j)] = distance(a, b, costs);
            }
        }
    }
    let rows = names(xv).map(<[String]>::to_vec);
    let cols = match yv {
        Some(v) => names(v).map(<[String]>::to_vec),
        None => rows.clone(),
    };
    Ok(dimnamed(Value::Mat(m), rows, cols))
}

/// The least weighted cost of editing `p` into some substring of `t`
/// (Sellers: a match may start anywhere in `t` for free).
fn substring_cost(p: &[char], t: &[char], c: [f64; 3]) -> f64 {
    let [ins, del, sub] = c;
    // col[i]: the cost of p[..i] against a substring ending here.
    let mut col: Vec<f64> = (0..=p.len()).map(|i| i as f64 * del).collect();
    let mut best = col[p.len()];
    for tc in t {
        let mut diag = col[0];
        col[0] = 0.0;
        for i in 1..=p.len() {
            let up = col[i];
            let v = (diag + if p[i - 1] == *tc { 0.0 } else { sub })
                .min(up + ins)
                .min(col[i - 1] + del);
            diag = up;
            col[i] = v;
        }
        best = best.min(col[p.len()]);
    }
    best
}

/// agrep and agrepl: a fixed pattern within `max.distance` (a number:
/// below 1 a fraction of the pattern's length times the largest cost).
fn agrep(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let pattern = texts(args.get("pattern").ok_or_else(|| missing("pattern"))?, ctx)?;
    let xv = args.get("x").ok_or_else(|| missing("x"))?;
    let x = texts(xv, ctx)?;
    if !flag(args, "fixed", true)? {
        return Err(KernelError::new(
            "flowcast's agrep() matches a fixed pattern only (fixed = TRUE)",
        ));
    }
    let Some(pattern) = pattern.first() else {
        return Err(KernelError::new("invalid 'pattern' argument"));
    };
    if pattern.is_none() {
        return Err(KernelError::new(
            "'pattern' must be a non-empty character string",
        ));
    }
    let pattern = pattern.as_deref().unwrap_or_default();
    let bound = match args.get("max.distance").map(bare) {
        None => 0.1,
        Some(Value::List(_)) => {
            return Err(KernelError::new(
                "flowcast's agrep() takes max.distance as one number (a list of \
                 components is not supported)",
            ))
        }
        Some(v) => match v.as_f64_slice().as_deref() {
            Some([d]) if *d >= 0.0 => *d,
            Some([_, _, ..]) => {
                return Err(KernelError::new(
                    "flowcast's agrep() takes max.distance as one number",
                ))
            }
            _ => {
                return Err(KernelError::new(
                    "match distance components must be non-negative",
                ))
            }
        },
    };
    // agrep passes its costs through as.integer.
    let costs = amatch_costs(args.get("costs"), ctx)?.map(f64::trunc);
    let lower = flag(args, "ignore.case", false)?;
    let p = chars(pattern, lower);
    let max_cost = costs.iter().fold(0.0f64, |m, &c| m.max(c));
    let limit = if bound < 1.0 {
        (bound * p.len() as f64 * max_cost).ceil()
    } else {
        bound.ceil()
    };
    let hit: Vec<Option<bool>> = x
        .iter()
        .map(|s| {
            Some(
                s.as_deref()
                    .is_some_and(|s| substring_cost(&p, &chars(s, lower), costs) <= limit),
            )
        })
        .collect();
    if args.get_if_formal("value").is_none() && args.func == "agrepl" {
        return Ok(Value::Bool(hit));
    }
    let which = hit.iter().enumerate().filter(|(_, h)| **h == Some(true));
    if flag(args, "value", false)? {
        let vals = which
            .map(|(i, _)| x[i].clone().unwrap_or_else(|| "NA".into()))
            .collect();
        return Ok(Value::Str(vals));
    }
    Ok(Value::Num(which.map(|(i, _)| (i + 1) as f64).collect()))
}

/// utils' glob2rx: `^` and `$` put round, `.` escaped, `*` and `?` made
/// `.*` and `.`, an unescaped `(`, `[` or `{` escaped, then the trims.
fn glob2rx(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let pattern = texts(args.get("pattern").ok_or_else(|| missing("pattern"))?, ctx)?;
    let trim_head = flag(args, "trim.head", false)?;
    let trim_tail = flag(args, "trim.tail", true)?;
    let out = pattern
        .iter()
        .map(|p| {
            let p = format!("^{}$", p.as_deref().unwrap_or("NA"))
                .replace('.', "\\.")
                .replace('*', ".*")
                .replace('?', ".");
            let mut p = ['(', '[', '{']
                .iter()
                .fold(p, |p, &open| escape_unescaped(&p, open));
            if trim_tail {
                if let Some(i) = p.find(".*$") {
                    p.replace_range(i..i + 3, "");
                }
            }
            if trim_head {
                if let Some(i) = p.find("^.*") {
                    p.replace_range(i..i + 3, "");
                }
            }
            p
        })
        .collect();
    Ok(Value::Str(out))
}

/// `gsub("([^\\])\\(", "\\1\\\\(", p)`: a character other than `\`
/// followed by `open` gets a `\` between, matches not overlapping.
fn escape_unescaped(p: &str, open: char) -> String {
    let c: Vec<char> = p.chars().collect();
    let mut out = String::with_capacity(p.len() + 4);
    let mut i = 0;
    while i < c.len() {
        if i + 1 < c.len() && c[i] != '\\' && c[i + 1] == open {
            out.push(c[i]);
            out.push('\\');
            out.push(open);
            i += 2;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// `match(name, names(x), nomatch = 0L) > 0L`.
fn has_name(args: &Args<&Value>, ctx: &mut Ctx) -> Result<Value, KernelError> {
    let x = args.get("x").ok_or_else(|| missing("x"))?;
    let wanted = texts(args.get("name").ok_or_else(|| missing("name"))?, ctx)?;
    let have: Vec<Option<String>> = match x {
        Value::List(List { names: Some(n), .. }) => n.iter().map(|s| Some(s.clone())).collect(),
        other => names(other)
            .map(|n| n.iter().map(|s| Some(s.clone())).collect())
            .unwrap_or_default(),
    };
    Ok(Value::Bool(
        wanted.iter().map(|w| Some(have.contains(w))).collect(),
    ))
}
