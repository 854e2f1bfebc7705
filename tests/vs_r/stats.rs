//! Issue 17, the statistician's library: summaries, tests, distributions
//! and random generators. Each workflow in tests/fixtures/workflows/stats*.toml
//! runs and every step must equal what R computed for the same expression
//! (tests/fixtures/r/stats.R wrote stats*.json); the random generators
//! must draw R's stream bit for bit under every scheduler.

use std::path::Path;

use serde_json::Value as Json;

use crate::common;
use common::r_json;
use common::text;

/// Runs `tests/fixtures/workflows/<name>.toml` with `scheduler` and
/// compares each step with `tests/fixtures/r/<name>.json`; `exact` asks
/// for bit-identical numbers.
fn assert_matches_r(name: &str, scheduler: &str, exact: bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let r: Json = serde_json::from_str(
        &std::fs::read_to_string(root.join(format!("tests/fixtures/r/{name}.json"))).unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = common::flowcast_command()
        .args([
            "run",
            "--headless",
            "-p",
            "3",
            "--scheduler",
            scheduler,
            "--out",
        ])
        .arg(dir.path())
        .arg(root.join(format!("tests/fixtures/workflows/{name}.toml")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name} {scheduler}: {}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let mut errors = Vec::new();
    for (step, rv) in r.as_object().unwrap() {
        let file = dir.path().join(format!("{step}.json"));
        let Ok(t) = std::fs::read_to_string(&file) else {
            errors.push(format!("{step}: no {}", file.display()));
            continue;
        };
        let ours: Json = serde_json::from_str(&t).unwrap();
        if exact {
            if ours != *rv && !(rv.is_array() && rv.as_array().unwrap().len() == 1 && rv[0] == ours)
            {
                errors.push(format!("{step}: flowcast {ours}, R {rv}"));
            }
        } else {
            r_json::compare(step, &ours, rv, &mut errors);
        }
    }
    assert!(
        errors.is_empty(),
        "{name} {scheduler}: {} differences:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn summaries_match_r() {
    assert_matches_r("stats", "emcp", false);
}

#[test]
fn tests_match_r() {
    assert_matches_r("stats_tests", "emcp", false);
}

/// Text is compared exactly: every string as R writes it.
#[test]
fn strings_match_r() {
    assert_matches_r("text", "emcp", true);
}

/// Names and dimnames: given by tables, tapply, quantile, summary, coef,
/// c and sapply; kept by arithmetic, sort, rev, head and subscripts; read
/// by `x["a"]` and `m["row", "col"]`.
#[test]
fn names_match_r() {
    assert_matches_r("names", "emcp", false);
}

/// aov, summary.aov, anova and TukeyHSD over balanced, unbalanced and
/// two-factor designs, and ptukey/qtukey across their arguments.
#[test]
fn anova_matches_r() {
    assert_matches_r("anova", "emcp", false);
}

/// Factor interactions in lm, glm and aov formulas: two-way, three-way,
/// factor x number, interactions without main effects, empty cells, and
/// coef names, summary, anova, confint, vcov, predict, summary.aov and
/// TukeyHSD of those fits.
#[test]
fn interactions_match_r() {
    assert_matches_r("interactions", "emcp", false);
}

#[test]
fn distribution_functions_match_r() {
    assert_matches_r("stats_dist", "emcp", false);
}

/// Counted generators are skipped over, rejection samplers waited for:
/// every scheduler draws R's numbers, bit for bit.
#[test]
fn random_generators_draw_r_stream_under_every_scheduler() {
    for scheduler in ["emcp", "mcp", "baseline", "dynamic", "ideal"] {
        assert_matches_r("stats_random", scheduler, true);
    }
}

/// Which generators declare their draws: the inversion ones with
/// constant parameters (one uniform each, two for rlnorm's normal); the
/// rejection samplers are waited for.
#[test]
fn inversion_generators_are_counted_and_rejection_ones_are_not() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let wf =
        flowcast::workflow::load(&root.join("tests/fixtures/workflows/stats_random.toml")).unwrap();
    let g = flowcast::graph::build(&wf).unwrap();
    let stream = |name: &str| {
        let t = g.task(name).unwrap();
        (t.rng_after.map(|a| g.tasks[a].name.as_str()), t.rng_skip)
    };
    // rexp's exp_rand draws a data-dependent number of uniforms.
    assert_eq!(stream("a"), (None, 0));
    assert_eq!(stream("b"), (Some("a"), 0));
    // rlnorm(15) takes 30 uniforms, skipped by the next random step.
    assert_eq!(stream("c"), (Some("a"), 30));
    assert_eq!(stream("d"), (Some("c_big"), 0));
    assert_eq!(stream("e"), (Some("c_big"), 10));
    assert_eq!(stream("f"), (Some("e2"), 0));
    assert_eq!(stream("g"), (Some("e2"), 10));
    assert_eq!(stream("h"), (Some("g_big"), 0));
    assert_eq!(stream("i"), (Some("g_big"), 10));
}

fn workflow_with(steps: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.toml");
    std::fs::write(
        &path,
        format!("[workflow]\nseed = 1\n\n[steps]\nx = 'c(1, 2, 3, 5, 8)'\n{steps}\n"),
    )
    .unwrap();
    (dir, path)
}

/// `check` refuses what R refuses, before the run, pointing at the step.
#[test]
fn bad_arguments_fail_at_check() {
    for (step, message) in [
        ("q = 'quantile(x, 1.5)'", "'probs' outside [0,1]"),
        ("q = 'quantile(x, type = 10)'", "object 'a' not found"),
        (
            "c = 'cor(x)'",
            "supply both 'x' and 'y' or a matrix-like 'x'",
        ),
        (
            "c = 'cor(x, x, method = \"pear2\")'",
            "'arg' should be one of",
        ),
        (
            "t = 't.test(x, alternative = \"up\")'",
            "'arg' should be one of",
        ),
        ("p = 'p.adjust(x, \"holmes\")'", "'arg' should be one of"),
        (
            "s = 'shapiro.test(c(1, 2))'",
            "sample size must be between 3 and 5000",
        ),
        (
            "f = 'fisher.test(matrix(1:3, 1, 3))'",
            "at least 2 rows and columns",
        ),
    ] {
        let (_dir, path) = workflow_with(step);
        let out = common::flowcast(&["check", path.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{step}: {err}");
        assert!(err.contains(message), "{step}: {err}");
        assert!(err.contains("w.toml:6:"), "{step}: {err}");
    }
}

/// What only the data can tell fails the step at run time, with R's
/// message.
#[test]
fn bad_data_fails_the_step_with_r_message() {
    for (step, message) in [
        (
            "q = 'quantile(c(1, NA))'",
            "missing values and NaN's not allowed",
        ),
        ("t = 't.test(c(1, 1, 1))'", "data are essentially constant"),
        (
            "c = 'chisq.test(c(1, -1, 3))'",
            "all entries of 'x' must be nonnegative",
        ),
        (
            "b = 'binom.test(3, 2)'",
            "'n' must be a positive integer >= 'x'",
        ),
        (
            "k = 'kruskal.test(x, c(1, 1, 1, 1, 1))'",
            "all observations are in the same group",
        ),
    ] {
        let (_dir, path) = workflow_with(step);
        let out = common::flowcast(&["run", "--headless", path.to_str().unwrap()]);
        let err = text(&out.stderr) + &text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{step}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains(message), "{step}: {err}");
    }
}

/// The string functions refuse what R refuses, with R's message, and
/// what flowcast cannot do (a back-reference inside a pattern) with its
/// own: the step fails, nothing panics.
#[test]
fn string_errors_fail_the_step_with_r_message() {
    let long_fmt = format!("s = 'sprintf(\"{}\")'", "a".repeat(9000));
    let cases: Vec<(&str, &str)> = vec![
        (
            "s = 'sprintf(\"%d\", 3.5)'",
            "invalid format '%d'; use format %f, %e, %g or %a for numeric objects",
        ),
        (
            "s = 'sprintf(\"%s %d\", \"a\", c(1, 2.5))'",
            "invalid format '%d'; use format %f, %e, %g or %a for numeric objects",
        ),
        (
            "s = 'sprintf(c(\"%d\", \"%f\"), 3)'",
            "invalid format '%f'; use format %d, %i, %o, %x or %X for integer objects",
        ),
        (
            "s = 'sprintf(\"%d\", \"a\")'",
            "invalid format '%d'; use format %s for character objects",
        ),
        (
            "s = 'sprintf(\"%x\", TRUE)'",
            "invalid format '%x'; use format %d or %i for logical objects",
        ),
        (
            "s = 'sprintf(\"%s\", c(\"a\", \"b\", \"c\"), c(1, 2))'",
            "arguments cannot be recycled to the same length",
        ),
        ("s = 'sprintf(\"%s %s\", \"a\")'", "too few arguments"),
        (
            "s = 'sprintf(\"%y\", 1)'",
            "unrecognised format specification '%y'",
        ),
        (
            "s = 'sprintf(\"%5\", 1)'",
            "unrecognised format specification '%5'",
        ),
        (
            "s = 'sprintf(\"%1000000000d\", 1)'",
            "required resulting string length 1000000000 is greater than maximal 8192",
        ),
        (
            "s = 'sprintf(\"%*d\", 1e9, 3)'",
            "required resulting string length 1000000000 is greater than maximal 8192",
        ),
        (
            "s = 'sprintf(\"%.10000f\", 1)'",
            "required resulting string length 10002 is greater than maximal 8192",
        ),
        (
            &long_fmt,
            "'fmt' length exceeds maximal format length 8192",
        ),
        (
            "s = 'sprintf(\"%*d\", NA, 1)'",
            "argument for '*' conversion specification must be a number",
        ),
        (
            "s = 'sprintf(\"%*.*f\", 8, 2, 3.5)'",
            "at most one asterisk '*' is supported in each conversion specification",
        ),
        (
            "s = 'sprintf(\"%3$s\", 1, 2)'",
            "reference to non-existent argument 3",
        ),
        ("s = 'sprintf(1)'", "'fmt' is not a character vector"),
        (
            "g = 'grepl(\"(\", \"a(b\")'",
            "invalid regular expression '(', reason",
        ),
        (
            "g = 'gsub(\"[[:foo:]]\", \"\", \"a\")'",
            "invalid regular expression '[[:foo:]]', reason 'Unknown character class name'",
        ),
        (
            "g = 'sub(\"[z-a]\", \"\", \"a\")'",
            "invalid regular expression '[z-a]', reason 'Invalid character range'",
        ),
        (
            "g = 'grepl(\"a{2,1}\", \"a\")'",
            "invalid regular expression 'a{2,1}'",
        ),
        (
            "g = 'regexpr(\"(?<=a+)b\", \"ab\", perl = TRUE)'",
            "invalid regular expression '(?<=a+)b'",
        ),
        (
            "g = 'gsub(\"(.)\\\\1\", \"\", \"aa\")'",
            "back-references are not supported by flowcast",
        ),
        (
            "g = 'gsub(\"\", \"x\", \"abc\", fixed = TRUE)'",
            "zero-length pattern",
        ),
        (
            "g = 'grepl(character(0), \"a\")'",
            "invalid 'pattern' argument",
        ),
        ("g = 'regexpr(NA, \"abc\")'", "invalid 'pattern' argument"),
        ("g = 'strsplit(c(1, 2), \"\")'", "non-character argument"),
        (
            "t = 'trimws(\"a\", which = \"middle\")'",
            "'arg' should be one of \u{201c}both\u{201d}, \u{201c}left\u{201d}, \u{201c}right\u{201d}",
        ),
        ("t = 'startsWith(1, \"a\")'", "non-character object(s)"),
        (
            "t = 'chartr(\"abc\", \"xy\", \"a\")'",
            "'old' is longer than 'new'",
        ),
        (
            "t = 'chartr(\"c-a\", \"x-z\", \"abc\")'",
            "decreasing range specification ('c-a')",
        ),
        (
            "t = 'substr(\"abc\", c(1, 2)[0], 2)'",
            "invalid substring arguments",
        ),
        (
            "f = 'format(1, digits = 30)'",
            "invalid value 30 for 'digits' argument",
        ),
        ("f = 'format(1, nsmall = 21)'", "invalid 'nsmall' argument"),
        (
            "f = 'format(1, justify = \"x\")'",
            "'arg' should be one of",
        ),
        (
            "f = 'formatC(5, format = \"x\")'",
            "'format' must be one of {\"f\",\"e\",\"E\",\"g\",\"G\", \"fg\", \"s\"}",
        ),
        (
            "f = 'formatC(5, flag = \"q\")'",
            "'flag' should contain only characters from [0+- #'I]",
        ),
        ("f = 'formatC(TRUE)'", "unsupported type"),
    ];
    for (step, message) in cases {
        let (_dir, path) = workflow_with(step);
        let out = common::flowcast(&["run", "--headless", path.to_str().unwrap()]);
        let err = text(&out.stderr) + &text(&out.stdout);
        assert!(!out.status.success(), "{step}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains(message), "{step}: {err}");
    }
}

/// TukeyHSD refuses what R refuses, with R's message: a fit that is no
/// aov at check time; a model without factors, or a `which` naming none,
/// at run time. Nothing panics.
#[test]
fn tukey_errors_follow_r() {
    let data = "g = 'c(\"a\", \"a\", \"b\", \"b\", \"c\")'\nbal = 'c(\"p\", \"q\", \"p\", \"q\", \"r\")'\n";
    let (_dir, path) = workflow_with(&format!("{data}t = 'TukeyHSD(lm(x ~ g))'"));
    let out = common::flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no applicable method for 'TukeyHSD' applied to an object of class \"lm\""),
        "{err}"
    );
    let y = "y = 'c(1.5, 2.25, 3.5, 2.75, 4.5, 5.25)'\nh = 'c(\"a\", \"a\", \"b\", \"b\", \"c\", \"c\")'\nu = 'c(\"a\", \"a\", \"a\", \"b\", \"b\", \"c\")'\nz = 'c(0.5, 1, 3, 2, 2.5, 6)'\n";
    for (step, message) in [
        (
            "t = 'TukeyHSD(aov(x ~ c(2, 4, 1, 3, 5)))'",
            "no factors in the fitted model",
        ),
        (
            "t = 'TukeyHSD(aov(y ~ h), \"zz\")'",
            "'which' specified no factors",
        ),
        (
            "t = 'TukeyHSD(aov(y ~ z + h), \"z\")'",
            "'which' specified no factors",
        ),
        (
            "t = 'TukeyHSD(aov(y ~ u + z))'",
            "unimplemented type 'NULL' in 'rep3'",
        ),
        (
            "t = 'TukeyHSD(aov(y ~ h), which = TRUE)'",
            "invalid subscript type",
        ),
        (
            "t = 'qtukey(0.95, 3, \"a\")'",
            "Non-numeric argument to mathematical function",
        ),
    ] {
        let (_dir, path) = workflow_with(&format!("{y}{step}"));
        let out = common::flowcast(&["run", "--headless", path.to_str().unwrap()]);
        let err = text(&out.stderr) + &text(&out.stdout);
        assert_ne!(out.status.code(), Some(0), "{step}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains(message), "{step}: {err}");
    }
}
