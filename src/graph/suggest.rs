//! "Did you mean" for an unknown function: only a likely typo of a known
//! name, never a function that does something else.
//!
//! Plain edit distance sent users astray (issue 17): `pnorm` → `rnorm`,
//! `sort` → `sqrt`, `t.test` → `ks.test` are each one or two edits apart
//! but different functions. Here a substituted letter counts as a typo only
//! when its key neighbours the intended one on a QWERTY keyboard, and the
//! letter that names what a distribution function computes (`d`, `p`, `q`,
//! `r`) is never changed. When no typo fits, the message lists the known
//! functions of the same family (the tests, one distribution's functions).

/// QWERTY neighbours of each letter key (same row and the rows above and
/// below), for deciding whether a substitution is a slip of the finger.
const NEIGHBOURS: &[(char, &str)] = &[
    ('q', "wa"),
    ('w', "qeas"),
    ('e', "wrsd"),
    ('r', "etdf"),
    ('t', "ryfg"),
    ('y', "tugh"),
    ('u', "yihj"),
    ('i', "uojk"),
    ('o', "ipkl"),
    ('p', "ol"),
    ('a', "qwsz"),
    ('s', "weadzx"),
    ('d', "ersfxc"),
    ('f', "rtdgcv"),
    ('g', "tyfhvb"),
    ('h', "yugjbn"),
    ('j', "uihknm"),
    ('k', "iojlm"),
    ('l', "opk"),
    ('z', "asx"),
    ('x', "zsdc"),
    ('c', "xdfv"),
    ('v', "cfgb"),
    ('b', "vghn"),
    ('n', "bhjm"),
    ('m', "njk"),
];

fn adjacent(a: char, b: char) -> bool {
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    a == b || NEIGHBOURS.iter().any(|(k, n)| *k == a && n.contains(b))
}

/// Typing-error distance: insertions, deletions and swaps of adjacent
/// letters cost 1; a substitution costs 1 between neighbouring keys and 2
/// otherwise (a different letter is more likely a different word).
pub fn typo_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = if a[i - 1] == b[j - 1] {
                0
            } else if adjacent(a[i - 1], b[j - 1]) {
                1
            } else {
                2
            };
            let mut best = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = best;
        }
    }
    d[a.len() * w + b.len()]
}

/// R's distributions, for the `d`/`p`/`q`/`r` families.
const DISTRIBUTIONS: &[&str] = &[
    "norm", "unif", "binom", "pois", "exp", "gamma", "beta", "chisq", "t", "f", "lnorm", "weibull",
    "cauchy", "logis", "geom", "hyper", "nbinom", "signrank", "wilcox", "tukey",
];

/// `("p", "norm")` for `pnorm`.
fn distribution(name: &str) -> Option<(char, &str)> {
    let mut chars = name.chars();
    let kind = chars.next().filter(|c| "dpqr".contains(*c))?;
    let dist = chars.as_str();
    DISTRIBUTIONS.contains(&dist).then_some((kind, dist))
}

/// Whether `candidate` would change what `name` computes, however close
/// their spelling: another function of the same distribution.
fn changes_meaning(name: &str, candidate: &str) -> bool {
    matches!(
        (distribution(name), distribution(candidate)),
        (Some((a, x)), Some((b, y))) if x == y && a != b
    )
}

/// The closest likely typo of `name` among `known`.
pub fn typo_of<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    known
        .iter()
        .filter(|c| !changes_meaning(name, c))
        .map(|c| (typo_distance(name, c), *c))
        .filter(|&(d, _)| d <= limit)
        .min()
        .map(|(_, c)| c)
}

/// The known functions of `name`'s family, when it belongs to one.
pub fn family<'a>(name: &str, known: &[&'a str]) -> Option<(String, Vec<&'a str>)> {
    let (what, members): (String, Vec<&str>) = if let Some((_, dist)) = distribution(name) {
        (
            format!("{dist} distribution functions"),
            known
                .iter()
                .copied()
                .filter(|c| distribution(c).is_some_and(|(_, d)| d == dist))
                .collect(),
        )
    } else if name.ends_with(".test") {
        (
            "tests".to_string(),
            known
                .iter()
                .copied()
                .filter(|c| c.ends_with(".test"))
                .collect(),
        )
    } else {
        return None;
    };
    (!members.is_empty()).then_some((what, members))
}

/// R functions a script needs that a workflow does not, because flowcast
/// does their work itself: what to do instead.
fn outside_a_workflow(name: &str) -> Option<&'static str> {
    Some(match name {
        "set.seed" | "RNGkind" => {
            "the random stream is the workflow's: set `seed = N` under [workflow], \
             or run with `--seed N`"
        }
        "library" | "require" | "requireNamespace" | "loadNamespace" => {
            "flowcast's functions are built in and nothing is loaded: remove this \
             step and call the functions by name (`flowcast functions` lists them)"
        }
        // A helpers file is mostly function definitions, which a
        // workflow holds as function steps.
        "source" => {
            "nothing is loaded from other files: make each function the script \
             defines a step, `f = \"function(x) ...\"`, and other steps call `f(...)`"
        }
        "Sys.time" | "Sys.Date" | "proc.time" | "system.time" | "date" => {
            "a step's value must not depend on when it runs; flowcast times \
             every step itself: see the run's table or `flowcast history`"
        }
        "str" | "View" | "sink" => {
            "a step's value is shown in the run's table and written by `--out`; \
             warnings are listed under their step"
        }
        "plot" | "lines" | "points" | "barplot" | "boxplot" | "pdf" | "png" | "jpeg" | "svg"
        | "dev.off" | "dev.new" | "graphics.off" | "par" | "abline" | "legend" | "text"
        | "title" | "axis" | "curve" | "matplot" | "pairs" | "image" | "contour" | "persp"
        | "ggplot" | "qplot" => {
            "flowcast draws no plots: write the values with `--out DIR` (JSON) or \
             `write.csv(x, \"x.csv\")` and plot them elsewhere; remove the plotting calls"
        }
        "setwd" | "getwd" => "paths in a workflow are relative to the workflow file's directory",
        "saveRDS" | "save" | "readRDS" | "load" | "write.table" | "dput" => {
            "values are kept between runs in the cache (`--cache`), `--out DIR` \
             writes them as JSON, and `write.csv(x, \"x.csv\")` writes a table; \
             data is read with read.csv"
        }
        "assign" | "get" | "exists" | "rm" => {
            "each step is one value named by its key under [steps]"
        }
        // Inside a function it calls that function again; here it is
        // outside any.
        "Recall" => {
            "'Recall' called from outside a closure: it calls again the function it is \
             written in"
        }
        _ => return None,
    })
}

/// R's functions whose values flowcast cannot hold, and what to write
/// instead.
fn not_held(name: &str) -> Option<&'static str> {
    Some(match name {
        // aov's Error() makes R's aovlist: a fit per stratum.
        "Error" => {
            "aov's Error() strata (R's multistratum aovlist) are not supported: fit \
             the whole-plot and subplot analyses as single-stratum aov models, \
             and test a whole-plot term against the whole-plot error by hand"
        }
        // A factor's contrasts attribute is not kept.
        "C" | "contrasts" => {
            "factors carry no contrasts attribute in flowcast: name the coding in \
             the fit, `lm(y ~ f, contrasts = list(f = \"contr.sum\"))`"
        }
        _ => return None,
    })
}

/// Why `name`, one of R's datasets (the `datasets` package R attaches
/// at start), is not found, and what to do instead.
pub fn r_dataset(name: &str) -> Option<String> {
    const DATASETS: &[&str] = &[
        "iris",
        "mtcars",
        "cars",
        "airquality",
        "ToothGrowth",
        "PlantGrowth",
        "faithful",
        "women",
        "trees",
        "pressure",
        "sleep",
        "ChickWeight",
        "chickwts",
        "warpbreaks",
        "InsectSprays",
        "swiss",
        "USArrests",
        "esoph",
        "infert",
        "quakes",
        "rock",
        "stackloss",
        "precip",
        "rivers",
        "Orange",
        "CO2",
        "anscombe",
        "attitude",
    ];
    DATASETS.contains(&name).then(|| {
        format!(
            "R's datasets are not built in: write it to a CSV file from R, \
             `write.csv({name}, \"{name}.csv\", row.names = FALSE)`, and read it \
             beside the workflow with `read.csv(\"{name}.csv\")`"
        )
    })
}

/// What to add to "could not find function `name`": a typo's fix, or the
/// family's known members; empty when neither fits.
pub fn unknown_function_hint(name: &str, known: &[&str]) -> String {
    if let Some(why) = outside_a_workflow(name).or_else(|| not_held(name)) {
        return format!(" ({why})");
    }
    if let Some(s) = typo_of(name, known) {
        return format!(" (did you mean `{s}`?)");
    }
    match family(name, known) {
        Some((what, members)) => format!(
            " (flowcast has these {what}: {})",
            members
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &[
        "rnorm",
        "pnorm",
        "sqrt",
        "sort",
        "ks.test",
        "wilcox.test",
        "friedman.test",
        "mean",
        "median",
        "runif",
        "punif",
        "colMeans",
        "order",
    ];

    /// A script's housekeeping calls say what the workflow does instead,
    /// rather than suggesting a look-alike function.
    #[test]
    fn script_calls_say_what_to_do_instead() {
        let known = ["seq", "get_x", "plot_x"];
        assert!(unknown_function_hint("set.seed", &known).contains("seed = N"));
        assert!(unknown_function_hint("library", &known).contains("flowcast functions"));
        assert!(unknown_function_hint("get", &known).contains("[steps]"));
        assert!(unknown_function_hint("plot", &known).contains("--out"));
        assert!(unknown_function_hint("Recall", &known).contains("outside a closure"));
        assert_eq!(unknown_function_hint("frobnicate", &known), "");
        // Lines an R script carries without thinking: each says what to
        // write instead (they had no hint, or one that named no remedy).
        assert!(unknown_function_hint("dev.off", &known).contains("remove the plotting calls"));
        assert!(unknown_function_hint("str", &known).contains("shown in the run's table"));
        assert!(unknown_function_hint("saveRDS", &known).contains("write.csv(x"));
        assert!(unknown_function_hint("source", &known).contains("defines a step"));
        assert!(unknown_function_hint("library", &known).contains("remove this step"));
        assert!(r_dataset("mtcars").is_some_and(|h| h.contains("read.csv(\"mtcars.csv\")")));
        assert_eq!(r_dataset("mydata"), None);
    }

    #[test]
    fn issue_17_misleading_suggestions_are_gone() {
        let without =
            |drop: &str| -> Vec<&str> { KNOWN.iter().copied().filter(|k| *k != drop).collect() };
        // Each was suggested before, each is another function.
        assert_eq!(typo_of("pnorm", &without("pnorm")), None);
        assert_eq!(typo_of("qnorm", KNOWN), None);
        assert_eq!(typo_of("sort", &without("sort")), None);
        assert_eq!(typo_of("sqrt", &without("sqrt")), None);
        assert_eq!(typo_of("t.test", KNOWN), None);
    }

    #[test]
    fn real_typos_are_still_caught() {
        assert_eq!(typo_of("fredman.test", KNOWN), Some("friedman.test"));
        assert_eq!(typo_of("mena", KNOWN), Some("mean"));
        assert_eq!(typo_of("wilcox.tset", KNOWN), Some("wilcox.test"));
        assert_eq!(typo_of("colmeans", KNOWN), Some("colMeans"));
        assert_eq!(typo_of("ordee", KNOWN), Some("order"));
        assert_eq!(typo_of("rnrom", KNOWN), Some("rnorm"));
    }

    #[test]
    fn families_are_listed_instead() {
        assert_eq!(
            unknown_function_hint("t.test", KNOWN),
            " (flowcast has these tests: `ks.test`, `wilcox.test`, `friedman.test`)"
        );
        assert_eq!(
            unknown_function_hint("qnorm", KNOWN),
            " (flowcast has these norm distribution functions: `rnorm`, `pnorm`)"
        );
        assert_eq!(unknown_function_hint("zzz", KNOWN), "");
    }
}
