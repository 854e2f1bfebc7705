//! Which algorithm a call takes, where that changes its cost more than its
//! sizes do: eigen of a symmetric matrix costs a fifth of a general one,
//! an exact rank test's tables grow as n² while the normal approximation is
//! a sort. The cost models are keyed by function and path, so that one
//! model never has to fit two cost curves.
//!
//! A path is decided by the call's arguments. Before the run, constants
//! and types often decide it ([`planned`]); where R decides at run time on
//! the data (`isSymmetric(x)`, ties in a rank test), [`planned`] gives R's
//! likely choice marked as a guess, and [`taken`] says afterwards what the
//! kernel did.

use super::value::Value;
use super::{Args, Type};

/// The path of one call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallPath {
    /// The choices, comma-separated (`symmetric,values`): what the model
    /// key shows in brackets (`eigen[symmetric,values]`).
    pub tag: String,
    /// Decided before the run. Otherwise `tag` is R's likely choice, and
    /// the step's last run is the better guess.
    pub known: bool,
    /// The most workers this path can split among (`None`: as many as
    /// its kernel's work allows).
    pub widest: Option<usize>,
}

impl CallPath {
    fn new(tag: impl Into<String>, known: bool) -> CallPath {
        CallPath {
            tag: tag.into(),
            known,
            widest: None,
        }
    }
}

/// A constant logical argument: `Some(None)` when given but not known.
fn flag(args: &Args<Type>, name: &str) -> Option<Option<bool>> {
    let t = args.ty(name)?;
    if matches!(t, Type::Null) {
        return None;
    }
    Some(t.const_scalar().map(|v| v != 0.0))
}

/// A constant number argument, `default` when absent; `None` when given
/// but not known.
fn number(args: &Args<Type>, name: &str, default: f64) -> Option<f64> {
    match args.ty(name) {
        None | Some(Type::Null) => Some(default),
        Some(t) => t.const_scalar(),
    }
}

/// A method argument's full name (`default` when absent), `None` when not
/// known before the run.
fn method(
    func: &str,
    args: &Args<Type>,
    name: &str,
    default: &'static str,
) -> Option<&'static str> {
    match args.ty(name) {
        None | Some(Type::Null) => Some(default),
        Some(t) => super::clustering::method_name(func, t.const_str()?),
    }
}

/// The columns of a call's `x`, the rows of a covariance matrix: 1 for a
/// vector, and when not known (so the call stays narrow).
fn columns(args: &Args<Type>) -> usize {
    match args.ty("x") {
        Some(Type::Mat { cols: Some(c), .. }) => (*c).max(1),
        Some(Type::Record { class, fields }) if class == "data.frame" => fields.len().max(1),
        _ => 1,
    }
}

/// The path of a call to `func` as known before the run, from its matched
/// arguments' types. `x_symmetric`: the matrix argument is known to be
/// symmetric (from the expression that makes it). `None` for functions
/// with a single path.
pub fn planned(func: &str, args: &Args<Type>, x_symmetric: bool) -> Option<CallPath> {
    match func {
        "eigen" => {
            // R checks isSymmetric(x) when `symmetric` is missing: a matrix
            // not known to be symmetric is taken as general, and only a
            // guess, since it may turn out symmetric.
            let (symmetric, mut known) = match flag(args, "symmetric") {
                Some(Some(s)) => (s, true),
                _ => (x_symmetric, x_symmetric),
            };
            let values = flag(args, "only.values").unwrap_or(Some(false));
            known &= values.is_some();
            let mut tag = String::from(if symmetric { "symmetric" } else { "general" });
            if values == Some(true) {
                tag.push_str(",values");
            }
            Some(CallPath::new(tag, known))
        }
        // Singular values alone skip both sets of vectors.
        "svd" => {
            let nu = number(args, "nu", 1.0);
            let nv = number(args, "nv", 1.0);
            let tag = if nu == Some(0.0) && nv == Some(0.0) {
                "values"
            } else {
                "vectors"
            };
            Some(CallPath::new(tag, nu.is_some() && nv.is_some()))
        }
        // An inverse solves for n right-hand sides, a system for ncol(b).
        "solve" => {
            let system = !matches!(args.ty("b"), None | Some(Type::Null));
            Some(CallPath::new(
                if system { "system" } else { "inverse" },
                true,
            ))
        }
        "hclust" => Some(match method(func, args, "method", "complete") {
            Some(m) => CallPath::new(m, true),
            None => CallPath::new("complete", false),
        }),
        "dist" => Some(match method(func, args, "method", "euclidean") {
            Some(m) => CallPath::new(m, true),
            None => CallPath::new("euclidean", false),
        }),
        // Each start runs the algorithm again, and iter.max caps each run:
        // both are in the key, since workflows use a handful of settings and
        // time grows with them in steps a power law fits badly.
        "kmeans" => {
            let algorithm = method(func, args, "algorithm", "Hartigan-Wong");
            let nstart = number(args, "nstart", 1.0);
            let iter_max = number(args, "iter.max", 10.0);
            let mut tag = algorithm.unwrap_or("Hartigan-Wong").to_string();
            if let Some(n) = nstart.filter(|&n| n != 1.0) {
                tag.push_str(&format!(",nstart={n}"));
            }
            if let Some(n) = iter_max.filter(|&n| n != 10.0) {
                tag.push_str(&format!(",iter.max={n}"));
            }
            // The starts run apart on a wide call: one worker each, so no
            // more workers than starts; none when their count is not known.
            // Given centres (a matrix) are one start, whatever nstart says.
            let drawn = args.ty("centers").and_then(Type::len) == Some(1);
            let widest = Some(match nstart {
                Some(n) if n >= 1.0 && drawn => n.min(1e6) as usize,
                _ => 1,
            });
            Some(CallPath {
                widest,
                ..CallPath::new(
                    tag,
                    algorithm.is_some() && nstart.is_some() && iter_max.is_some(),
                )
            })
        }
        // The method is the algorithm: cross products (Pearson), or sorts
        // (Spearman ranks every column, Kendall counts each pair of
        // columns' discordant pairs). A wide call splits the answer's
        // rows, one per column of x: a vector is one.
        "cor" | "cov" => {
            let m = match args.ty("method") {
                None | Some(Type::Null) => Some("pearson"),
                Some(t) => t.const_str().and_then(super::summary::corcov::method_tag),
            };
            Some(CallPath {
                widest: Some(columns(args)),
                ..CallPath::new(m.unwrap_or("pearson"), m.is_some())
            })
        }
        // A covariance matrix costs m·n² where a vector's variance is one
        // pass: two curves, two models.
        "var" => {
            let matrix = columns(args) > 1;
            Some(CallPath {
                widest: Some(columns(args)),
                ..CallPath::new(if matrix { "matrix" } else { "vector" }, true)
            })
        }
        "wilcox.test" => {
            let nx = args.ty("x").and_then(Type::len);
            let paired = flag(args, "paired").unwrap_or(Some(false));
            let ny = match args.ty("y") {
                None | Some(Type::Null) => Some(None),
                _ if paired == Some(true) => Some(None),
                Some(t) => t.len().map(Some),
            };
            // R: exact when n < 50 (both samples), unless told; ties (and
            // zeroes in the one-sample test) fall back to the normal
            // approximation, which only the data tell.
            let small = match (nx, ny) {
                (Some(nx), Some(None)) => Some(nx < 50),
                (Some(nx), Some(Some(ny))) => Some(nx < 50 && ny < 50),
                _ => None,
            };
            Some(rank_test(flag(args, "exact"), small, paired.is_some()))
        }
        "ks.test" => {
            let nx = args.ty("x").and_then(Type::len);
            match args.ty("y") {
                // One sample against a named distribution: exact when
                // n < 100 and no ties.
                Some(Type::Str { .. }) => {
                    Some(rank_test(flag(args, "exact"), nx.map(|n| n < 100), true))
                }
                // Two samples: exact when nx·ny < 10000, ties or not.
                Some(y) => {
                    let small = nx.zip(y.len()).map(|(a, b)| a * b < 10_000);
                    let exact = flag(args, "exact");
                    let tag = match exact {
                        Some(Some(e)) => Some(e),
                        Some(None) => None,
                        None => small,
                    };
                    Some(CallPath::new(
                        if tag == Some(true) {
                            "exact"
                        } else {
                            "asymptotic"
                        },
                        tag.is_some(),
                    ))
                }
                None => None,
            }
        }
        _ => None,
    }
}

/// A rank test's path: `exact` the argument (`Some(None)` given but not
/// known), `small` R's size rule. Exact with ties or zeroes is asymptotic
/// after all, so an exact path is only ever a guess.
fn rank_test(exact: Option<Option<bool>>, small: Option<bool>, args_known: bool) -> CallPath {
    let exact = match exact {
        Some(e) => e,
        None => small,
    };
    match exact {
        Some(false) => CallPath::new("asymptotic", args_known),
        Some(true) => CallPath::new("exact", false),
        None => CallPath::new("asymptotic", false),
    }
}

/// The path a call to `func` took, for the paths R decides on the data:
/// eigen's `isSymmetric(x)`, a rank test's fallback on ties. `None` for
/// every other call (its planned path is what it took).
pub fn taken(func: &str, args: &Args<&Value>, result: &Value) -> Option<String> {
    match func {
        "eigen" => {
            let symmetric = match args.get("symmetric") {
                Some(Value::Bool(b)) if b.len() == 1 => b[0] == Some(true),
                Some(v) if v.as_scalar().is_some() => v.as_scalar() != Some(0.0),
                _ => match args.get("x") {
                    Some(Value::Mat(m)) => super::linalg::is_symmetric(m),
                    // A scalar is a 1 x 1 symmetric matrix.
                    Some(Value::Num(v)) => v.len() == 1,
                    _ => false,
                },
            };
            let values = match args.get("only.values") {
                Some(Value::Bool(b)) => b.first() == Some(&Some(true)),
                Some(v) => v.as_scalar().is_some_and(|x| x != 0.0),
                None => false,
            };
            let mut tag = String::from(if symmetric { "symmetric" } else { "general" });
            if values {
                tag.push_str(",values");
            }
            Some(tag)
        }
        "wilcox.test" | "ks.test" => {
            let Value::List(l) = result else {
                return None;
            };
            let Some(Value::Str(method)) = l.field("method") else {
                return None;
            };
            let exact = method
                .first()
                .is_some_and(|m| m.to_ascii_lowercase().contains("exact"));
            Some(String::from(if exact { "exact" } else { "asymptotic" }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::value::List;
    use super::*;

    fn args<'a>(func: &'static str, given: Vec<(Option<String>, &'a Value)>) -> Args<&'a Value> {
        let k = super::super::registry().get(func).expect("kernel");
        Args::match_call(k.name, k.params, given).expect("matches")
    }

    #[test]
    fn eigen_takes_the_symmetric_path_on_symmetric_data() {
        let sym = Value::Mat(nalgebra::DMatrix::from_row_slice(
            2,
            2,
            &[2.0, 1.0, 1.0, 2.0],
        ));
        let gen = Value::Mat(nalgebra::DMatrix::from_row_slice(
            2,
            2,
            &[2.0, 1.0, 0.0, 2.0],
        ));
        let yes = Value::flag(true);
        let taken_on = |given| taken("eigen", &args("eigen", given), &Value::Null);
        assert_eq!(taken_on(vec![(None, &sym)]).as_deref(), Some("symmetric"));
        assert_eq!(taken_on(vec![(None, &gen)]).as_deref(), Some("general"));
        assert_eq!(
            taken_on(vec![(None, &gen), (Some("symmetric".into()), &yes)]).as_deref(),
            Some("symmetric")
        );
        assert_eq!(
            taken_on(vec![(None, &sym), (Some("only.values".into()), &yes)]).as_deref(),
            Some("symmetric,values")
        );
    }

    #[test]
    fn covariances_key_by_method_and_split_by_columns() {
        let path = |func: &str, x: Type, method: Option<Type>| {
            let k = super::super::registry().get(func).expect("kernel");
            let mut given = vec![(None, x)];
            if let Some(m) = method {
                given.push((Some("method".to_string()), m));
            }
            let a = Args::match_call(k.name, k.params, given).expect("matches");
            planned(func, &a, false).expect("a path")
        };
        let wide = Type::Mat {
            rows: Some(1000),
            cols: Some(40),
        };
        let p = path("cor", wide.clone(), Some(Type::str_const("ken")));
        assert_eq!(
            (p.tag.as_str(), p.known, p.widest),
            ("kendall", true, Some(40))
        );
        let p = path("cov", wide.clone(), None);
        assert_eq!((p.tag.as_str(), p.widest), ("pearson", Some(40)));
        // A method known only at run time is a guess.
        let p = path(
            "cor",
            wide.clone(),
            Some(Type::Str {
                len: Some(1),
                value: None,
            }),
        );
        assert!(!p.known);
        // A vector's answer is one number: nothing to split.
        assert_eq!(path("cor", Type::num(500), None).widest, Some(1));
        let p = path("var", Type::num(500), None);
        assert_eq!((p.tag.as_str(), p.widest), ("vector", Some(1)));
        let p = path("var", wide, None);
        assert_eq!((p.tag.as_str(), p.widest), ("matrix", Some(40)));
    }

    #[test]
    fn kmeans_splits_among_its_drawn_starts_only() {
        let k = super::super::registry().get("kmeans").expect("kernel");
        let widest = |centers: Type, nstart: Option<Type>| {
            let mut given = vec![
                (
                    None,
                    Type::Mat {
                        rows: Some(100),
                        cols: Some(3),
                    },
                ),
                (None, centers),
            ];
            if let Some(n) = nstart {
                given.push((Some("nstart".to_string()), n));
            }
            let a = Args::match_call(k.name, k.params, given).expect("matches");
            planned("kmeans", &a, false).expect("a path").widest
        };
        let four = Type::scalar_const(4.0);
        assert_eq!(
            widest(four.clone(), Some(Type::scalar_const(25.0))),
            Some(25)
        );
        assert_eq!(widest(four.clone(), None), Some(1));
        // A count known only at run time, or centres given as a matrix.
        assert_eq!(widest(four, Some(Type::num(1))), Some(1));
        let given = Type::Mat {
            rows: Some(4),
            cols: Some(3),
        };
        assert_eq!(widest(given, Some(Type::scalar_const(25.0))), Some(1));
    }

    #[test]
    fn a_rank_test_reports_the_method_it_used() {
        let x = Value::Num(vec![1.0, 2.0]);
        let result = |m: &str| {
            Value::List(List::record(
                "htest",
                vec![
                    ("statistic", Value::scalar(1.0)),
                    ("method", Value::string(m)),
                ],
            ))
        };
        let a = args("wilcox.test", vec![(None, &x)]);
        let exact = result("Wilcoxon signed rank exact test");
        let approx = result("Wilcoxon signed rank test with continuity correction");
        assert_eq!(taken("wilcox.test", &a, &exact).as_deref(), Some("exact"));
        assert_eq!(
            taken("wilcox.test", &a, &approx).as_deref(),
            Some("asymptotic")
        );
        assert_eq!(taken("mean", &a, &exact), None);
    }
}
