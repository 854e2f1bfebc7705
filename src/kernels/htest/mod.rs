//! R's classical tests: `friedman.test`, `wilcox.test`, `ks.test`,
//! `mood.test`. Each returns an `htest` record with R's fields in R's order
//! (statistic, parameter when R has one, p.value, alternative, method);
//! `data.name`, which R deparses from the call, is added by the evaluator,
//! which has the call's text.

mod ansari;
mod box_test;
mod cortest;
mod counts;
mod fexact;
mod fisher;
mod fligner;
mod formula;
mod friedman;
mod groups;
mod ks;
mod mantelhaen;
mod mcnemar;
mod mood;
mod oneway;
pub(super) mod padjust;
mod pairwise;
mod poisson;
mod pp_test;
mod prop_trend;
mod quade;
mod shapiro;
pub(super) mod simulate;
mod ttest;
pub(super) mod uniroot;
mod wilcox;
mod wilcox_ci;

use super::args::ArgError;
use super::value::{List, Value};
use super::{opt, req, Args, Kernel, KernelError, Type, DOTS};

pub(super) static KERNELS: &[Kernel] = &[
    Kernel {
        name: "ansari.test",
        params: &[
            req("x"),
            // Required by the default method; the formula method has none.
            opt("y"),
            opt("alternative"),
            opt("exact"),
            opt("conf.int"),
            opt("conf.level"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::ansari_shape,
        eval: formula::ansari_eval,
    },
    Kernel {
        name: "Box.test",
        params: &[req("x"), opt("lag"), opt("type"), opt("fitdf")],
        random: false,
        shape: box_test::shape,
        eval: box_test::eval,
    },
    Kernel {
        name: "friedman.test",
        params: &[
            req("y"),
            opt("groups"),
            opt("blocks"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: friedman::shape,
        eval: friedman::eval,
    },
    Kernel {
        name: "wilcox.test",
        params: &[
            req("x"),
            opt("y"),
            opt("alternative"),
            opt("mu"),
            opt("paired"),
            opt("exact"),
            opt("correct"),
            opt("conf.int"),
            opt("conf.level"),
            opt("tol.root"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::wilcox_shape,
        eval: formula::wilcox_eval,
    },
    Kernel {
        name: "ks.test",
        params: &[req("x"), req("y"), DOTS, opt("alternative"), opt("exact")],
        random: false,
        shape: ks::shape,
        eval: ks::eval,
    },
    Kernel {
        name: "mood.test",
        params: &[
            req("x"),
            // Required by the default method; the formula method has none.
            opt("y"),
            opt("alternative"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::mood_shape,
        eval: formula::mood_eval,
    },
    Kernel {
        name: "t.test",
        params: &[
            req("x"),
            opt("y"),
            opt("alternative"),
            opt("mu"),
            opt("paired"),
            opt("var.equal"),
            opt("conf.level"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::t_shape,
        eval: formula::t_eval,
    },
    Kernel {
        name: "var.test",
        params: &[
            req("x"),
            // Required by the default method, which says so; the formula
            // method has none.
            opt("y"),
            opt("ratio"),
            opt("alternative"),
            opt("conf.level"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::var_shape,
        eval: formula::var_eval,
    },
    Kernel {
        name: "chisq.test",
        params: &[
            req("x"),
            opt("y"),
            opt("correct"),
            opt("p"),
            opt("rescale.p"),
            opt("simulate.p.value"),
            opt("B"),
        ],
        random: false,
        shape: counts::chisq_shape,
        eval: counts::chisq_eval,
    },
    Kernel {
        name: "binom.test",
        params: &[
            req("x"),
            opt("n"),
            opt("p"),
            opt("alternative"),
            opt("conf.level"),
        ],
        random: false,
        shape: counts::binom_shape,
        eval: counts::binom_eval,
    },
    Kernel {
        name: "PP.test",
        params: &[req("x"), opt("lshort")],
        random: false,
        shape: pp_test::shape,
        eval: pp_test::eval,
    },
    Kernel {
        name: "prop.trend.test",
        params: &[req("x"), req("n"), opt("score")],
        random: false,
        shape: prop_trend::shape,
        eval: prop_trend::eval,
    },
    Kernel {
        name: "prop.test",
        params: &[
            req("x"),
            opt("n"),
            opt("p"),
            opt("alternative"),
            opt("conf.level"),
            opt("correct"),
        ],
        random: false,
        shape: counts::prop_shape,
        eval: counts::prop_eval,
    },
    Kernel {
        name: "p.adjust",
        params: &[req("p"), opt("method"), opt("n")],
        random: false,
        shape: padjust::shape,
        eval: padjust::eval,
    },
    Kernel {
        name: "pairwise.t.test",
        params: &[
            req("x"),
            req("g"),
            opt("p.adjust.method"),
            opt("pool.sd"),
            opt("paired"),
            opt("alternative"),
            DOTS,
        ],
        random: false,
        shape: pairwise::shape,
        eval: pairwise::t_eval,
    },
    Kernel {
        name: "pairwise.prop.test",
        params: &[req("x"), opt("n"), opt("p.adjust.method"), DOTS],
        random: false,
        shape: pairwise::prop_shape,
        eval: pairwise::prop_eval,
    },
    Kernel {
        name: "pairwise.wilcox.test",
        params: &[
            req("x"),
            req("g"),
            opt("p.adjust.method"),
            opt("paired"),
            DOTS,
        ],
        random: false,
        shape: pairwise::shape,
        eval: pairwise::wilcox_eval,
    },
    Kernel {
        name: "kruskal.test",
        params: &[
            req("x"),
            opt("g"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::groups_shape,
        eval: formula::kruskal_eval,
    },
    Kernel {
        name: "bartlett.test",
        params: &[
            req("x"),
            opt("g"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::groups_shape,
        eval: formula::bartlett_eval,
    },
    Kernel {
        name: "fligner.test",
        params: &[
            req("x"),
            opt("g"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::groups_shape,
        eval: formula::fligner_eval,
    },
    Kernel {
        name: "quade.test",
        params: &[
            req("y"),
            opt("groups"),
            opt("blocks"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: quade::shape,
        eval: quade::eval,
    },
    Kernel {
        name: "poisson.test",
        params: &[
            req("x"),
            opt("T"),
            opt("r"),
            opt("alternative"),
            opt("conf.level"),
        ],
        random: false,
        shape: poisson::shape,
        eval: poisson::eval,
    },
    Kernel {
        name: "mantelhaen.test",
        params: &[
            req("x"),
            opt("y"),
            opt("z"),
            opt("alternative"),
            opt("correct"),
            opt("exact"),
            opt("conf.level"),
        ],
        random: false,
        shape: mantelhaen::shape,
        eval: mantelhaen::eval,
    },
    Kernel {
        name: "cor.test",
        params: &[
            req("x"),
            // Required by the default method; the formula method has none.
            opt("y"),
            opt("alternative"),
            opt("method"),
            opt("exact"),
            opt("conf.level"),
            opt("continuity"),
            DOTS,
            opt("data"),
            opt("subset"),
            opt("na.action"),
        ],
        random: false,
        shape: formula::cor_shape,
        eval: formula::cor_eval,
    },
    Kernel {
        name: "fisher.test",
        params: &[
            req("x"),
            opt("y"),
            opt("workspace"),
            opt("hybrid"),
            opt("hybridPars"),
            opt("control"),
            opt("or"),
            opt("alternative"),
            opt("conf.int"),
            opt("conf.level"),
            opt("simulate.p.value"),
            opt("B"),
        ],
        random: false,
        shape: fisher::shape,
        eval: fisher::eval,
    },
    Kernel {
        name: "oneway.test",
        params: &[
            req("formula"),
            opt("data"),
            opt("subset"),
            opt("na.action"),
            opt("var.equal"),
        ],
        random: false,
        shape: oneway::shape,
        eval: oneway::eval,
    },
    Kernel {
        name: "mcnemar.test",
        params: &[req("x"), opt("y"), opt("correct")],
        random: false,
        shape: mcnemar::shape,
        eval: mcnemar::eval,
    },
    Kernel {
        name: "shapiro.test",
        params: &[req("x")],
        random: false,
        shape: shapiro::shape,
        eval: shapiro::eval,
    },
];

/// The `alternative` argument after R's `match.arg` (partial matching).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Alternative {
    TwoSided,
    Less,
    Greater,
}

impl Alternative {
    pub(crate) fn r_name(self) -> &'static str {
        match self {
            Alternative::TwoSided => "two.sided",
            Alternative::Less => "less",
            Alternative::Greater => "greater",
        }
    }
}

const ALT_ERROR: &str = "'arg' should be one of \u{201c}two.sided\u{201d}, \u{201c}less\u{201d}, \u{201c}greater\u{201d}";

fn match_alternative(s: &str) -> Option<Alternative> {
    if s.is_empty() {
        return None;
    }
    [
        Alternative::TwoSided,
        Alternative::Less,
        Alternative::Greater,
    ]
    .into_iter()
    .find(|a| a.r_name().starts_with(s))
}

fn alternative(args: &Args<&Value>) -> Result<Alternative, KernelError> {
    match args.get("alternative") {
        None => Ok(Alternative::TwoSided),
        Some(Value::Str(s)) if s.len() == 1 => {
            match_alternative(&s[0]).ok_or_else(|| KernelError::new(ALT_ERROR))
        }
        // R's match.arg with the default vector picks the first choice
        Some(Value::Str(s)) if s.len() == 3 => Ok(Alternative::TwoSided),
        Some(_) => Err(KernelError::new("'arg' must be NULL or a character vector")),
    }
}

/// The shape rule's check of a constant `alternative`.
fn check_alternative(args: &Args<Type>) -> Result<(), ArgError> {
    match args.ty("alternative") {
        None | Some(Type::Any) => Ok(()),
        Some(t @ Type::Str { .. }) => match t.const_str() {
            Some(s) if match_alternative(s).is_none() => Err(args.error("alternative", ALT_ERROR)),
            _ => Ok(()),
        },
        Some(t) => Err(args.error(
            "alternative",
            format!(
                "'arg' must be NULL or a character vector, not {}",
                t.describe()
            ),
        )),
    }
}

/// A numeric data argument's type must be numeric (or unknown).
fn check_numeric(args: &Args<Type>, name: &str, msg: &str) -> Result<(), ArgError> {
    match args.ty(name) {
        None | Some(Type::Any) => Ok(()),
        Some(t) if t.is_numeric() => Ok(()),
        Some(_) => Err(args.error(name, msg)),
    }
}

/// The numbers of a data argument; `msg` is R's error for a non-numeric one.
fn data(args: &Args<&Value>, name: &str, msg: &str) -> Result<Vec<f64>, KernelError> {
    match args.get(name) {
        Some(v @ (Value::Num(_) | Value::Mat(_))) => {
            Ok(v.as_f64_slice().map(|s| s.to_vec()).unwrap_or_default())
        }
        _ => Err(KernelError::new(msg)),
    }
}

/// `exact = NULL | TRUE | FALSE`.
fn exact_arg(args: &Args<&Value>) -> Result<Option<bool>, KernelError> {
    match args.get("exact") {
        None | Some(Value::Null) => Ok(None),
        Some(_) => args.bool_or("exact", false).map(Some),
    }
}

/// The result type every test returns.
pub(super) fn htest_type(parameter: bool, null_value: bool) -> Type {
    let mut fields = vec![("statistic", Type::num(1))];
    if parameter {
        fields.push(("parameter", Type::num(1)));
    } else if null_value {
        // See `record`.
        fields.push(("parameter", Type::Null));
    }
    fields.push(("p.value", Type::num(1)));
    if null_value {
        fields.push(("null.value", Type::num(1)));
    }
    fields.push((
        "alternative",
        Type::Str {
            len: Some(1),
            value: None,
        },
    ));
    fields.push((
        "method",
        Type::Str {
            len: Some(1),
            value: None,
        },
    ));
    Type::record("htest", fields)
}

/// R's `rank(x)` with ties averaged.
pub(crate) fn rank(x: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    crate::kernels::width::sort_by(&mut idx, |&a, &b| x[a].total_cmp(&x[b]));
    let mut r = vec![0.0; x.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        let avg = (i + j + 2) as f64 / 2.0;
        for &k in &idx[i..=j] {
            r[k] = avg;
        }
        i = j + 1;
    }
    r
}

/// The sizes of the groups of equal values (R's `table(r)` counts).
pub(crate) fn tie_counts(x: &[f64]) -> Vec<f64> {
    let mut s = x.to_vec();
    crate::kernels::width::sort_by(&mut s, |a, b| a.total_cmp(b));
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let mut j = i;
        while j + 1 < s.len() && s[j + 1] == s[i] {
            j += 1;
        }
        out.push((j - i + 1) as f64);
        i = j + 1;
    }
    out
}

/// The result type of the tests R gives no `alternative` (friedman,
/// kruskal, bartlett, mcnemar): statistic, parameter, p.value and method.
pub(super) fn htest_type_no_alt() -> Type {
    Type::record(
        "htest",
        vec![
            ("statistic", Type::num(1)),
            ("parameter", Type::num(1)),
            ("p.value", Type::num(1)),
            (
                "method",
                Type::Str {
                    len: Some(1),
                    value: None,
                },
            ),
        ],
    )
}

/// A number with R's name for it (`c(t = 2.1)`): R names an htest's
/// statistic, parameter, estimate and null value, and `$estimate["mean of x"]`
/// reads them.
/// chisq.test's and fisher.test's `table(x, y)` of two vectors, as a
/// matrix of counts: the pairs with neither NA (`complete.cases`), each
/// side made a factor, by `factor(x)` (unused levels dropped) for
/// chisq.test and `as.factor(x)` (a factor's levels kept) for
/// fisher.test; R's refusals of unequal lengths and of one level.
pub(super) fn cross_counts(
    x: &Value,
    y: &Value,
    drop_unused: bool,
) -> Result<nalgebra::DMatrix<f64>, KernelError> {
    if x.len() != y.len() {
        return Err(KernelError::new("'x' and 'y' must have the same length"));
    }
    let (fx, fy) = (super::factor::as_factor(x)?, super::factor::as_factor(y)?);
    let pairs: Vec<(u32, u32)> = fx
        .codes
        .iter()
        .zip(&fy.codes)
        .filter_map(|(a, b)| Some(((*a)?, (*b)?)))
        .collect();
    // The levels kept, and each old code's new one.
    let kept = |n: usize, used: &dyn Fn(u32) -> bool| -> Vec<Option<usize>> {
        let mut next = 0;
        (0..n as u32)
            .map(|c| {
                (!drop_unused || used(c)).then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    };
    let rx = kept(fx.levels.len(), &|c| pairs.iter().any(|p| p.0 == c));
    let ry = kept(fy.levels.len(), &|c| pairs.iter().any(|p| p.1 == c));
    let (nx, ny) = (rx.iter().flatten().count(), ry.iter().flatten().count());
    if nx < 2 || ny < 2 {
        return Err(KernelError::new("'x' and 'y' must have at least 2 levels"));
    }
    let mut counts = nalgebra::DMatrix::zeros(nx, ny);
    for (a, b) in pairs {
        if let (Some(i), Some(j)) = (rx[a as usize], ry[b as usize]) {
            counts[(i, j)] += 1.0;
        }
    }
    Ok(counts)
}

pub(super) fn nm(v: f64, name: &str) -> Value {
    super::names::named(Value::scalar(v), vec![name.to_string()])
}

/// Numbers with R's names, one each.
pub(super) fn nms(v: Vec<f64>, names: &[&str]) -> Value {
    super::names::named(Value::Num(v), names.iter().map(|n| n.to_string()).collect())
}

fn record(mut fields: Vec<(&str, Value)>) -> Value {
    // R's wilcox.test keeps `parameter = NULL` among its fields (the one
    // test here with a null value and no parameter), so a prefix such as
    // `$p` is ambiguous, NULL, as in R.
    let has = |f: &[(&str, Value)], n: &str| f.iter().any(|(k, _)| *k == n);
    if has(&fields, "null.value") && !has(&fields, "parameter") {
        fields.insert(1, ("parameter", Value::Null));
    }
    Value::List(List::record("htest", fields))
}

/// R's `cumsum()` of doubles (accumulated in long double; a compensated
/// running sum stands in for it).
pub(crate) fn rcumsum(x: &[f64]) -> Vec<f64> {
    let mut s = 0.0;
    let mut c = 0.0;
    x.iter()
        .map(|&v| {
            let t = s + v;
            if f64::abs(s) >= v.abs() {
                c += (s - t) + v;
            } else {
                c += (v - t) + s;
            }
            s = t;
            s + c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_average_ties() {
        assert_eq!(rank(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
        assert_eq!(tie_counts(&[3.0, 1.0, 3.0, 2.0]), vec![1.0, 1.0, 2.0]);
    }

    fn shape_of(name: &str, given: Vec<(Option<&str>, Type)>) -> Result<Type, ArgError> {
        let k = KERNELS.iter().find(|k| k.name == name).expect("kernel");
        let given = given
            .into_iter()
            .map(|(n, t)| (n.map(str::to_string), t))
            .collect();
        let args = Args::match_call(k.name, k.params, given)?;
        let ctx = crate::kernels::ShapeCtx {
            base_dir: std::path::Path::new("."),
            written: &[],
            closure: None,
            closure2: None,
        };
        (k.shape)(&args, &ctx)
    }

    fn field_names(t: &Type) -> Vec<String> {
        match t {
            Type::Record { fields, .. } => fields.iter().map(|(n, _)| n.clone()).collect(),
            other => panic!("not a record: {other:?}"),
        }
    }

    #[test]
    fn shapes_follow_r_fields() {
        let m = Type::mat(10, 3);
        let t = shape_of("friedman.test", vec![(None, m.clone())]).unwrap();
        assert_eq!(
            field_names(&t),
            ["statistic", "parameter", "p.value", "method"]
        );
        assert_eq!(t.field("statistic"), Some(&Type::num(1)));
        let t = shape_of("wilcox.test", vec![(None, m.clone())]).unwrap();
        // R keeps `parameter = NULL` in wilcox.test's result.
        assert_eq!(
            field_names(&t),
            [
                "statistic",
                "parameter",
                "p.value",
                "null.value",
                "alternative",
                "method"
            ]
        );
        let t = shape_of(
            "ks.test",
            vec![
                (None, Type::num(5)),
                (None, Type::str_const("pnorm")),
                (None, Type::scalar_const(1.0)),
            ],
        )
        .unwrap();
        assert_eq!(
            field_names(&t),
            ["statistic", "p.value", "alternative", "method", "exact"]
        );
        let t = shape_of("mood.test", vec![(None, Type::Any), (None, Type::num(4))]).unwrap();
        assert_eq!(
            field_names(&t),
            ["statistic", "p.value", "alternative", "method"]
        );
    }

    #[test]
    fn shapes_reject_what_r_rejects() {
        let bad_alt = shape_of(
            "wilcox.test",
            vec![
                (None, Type::num(5)),
                (Some("alternative"), Type::str_const("up")),
            ],
        );
        assert!(bad_alt
            .unwrap_err()
            .message
            .starts_with("'arg' should be one of"));
        let e = shape_of("wilcox.test", vec![(None, Type::str_const("a"))]).unwrap_err();
        assert_eq!(e.message, "'x' must be numeric");
        let e = shape_of(
            "ks.test",
            vec![(None, Type::num(5)), (None, Type::str_const("pfoo"))],
        );
        assert!(e.is_err());
        let e = shape_of(
            "mood.test",
            vec![(None, Type::num(1)), (None, Type::num(1))],
        );
        assert_eq!(e.unwrap_err().message, "not enough observations");
        let e = shape_of("friedman.test", vec![(None, Type::num(6))]).unwrap_err();
        assert_eq!(e.message, "argument \"groups\" is missing, with no default");
    }

    #[test]
    fn alternative_partial_match() {
        assert_eq!(match_alternative("g"), Some(Alternative::Greater));
        assert_eq!(match_alternative("two"), Some(Alternative::TwoSided));
        assert_eq!(match_alternative("x"), None);
    }
}
