//! Issue 17: comparison and logical operators with R's NA, logical and
//! negative indexing, and the vector functions. The workflow
//! tests/fixtures/workflows/ops.toml runs, and every step must equal what R
//! computed for the same expression (tests/fixtures/r/ops.R wrote
//! ops.json); what R refuses, flowcast refuses with a located message.

use std::path::Path;

use serde_json::Value as Json;

use crate::common;
use common::text;
use common::{flowcast, r_json, steps_workflow as workflow};

/// Runs tests/fixtures/workflows/NAME.toml and compares every step with
/// what R computed for it (tests/fixtures/r/NAME.json).
fn workflow_matches_r(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let wf = root.join(format!("tests/fixtures/workflows/{name}.toml"));
    let errors = r_json::run_against_r(name, &wf, dir.path());
    assert!(
        errors.is_empty(),
        "{} differences:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn ops_workflow_matches_r() {
    workflow_matches_r("ops");
}

/// `.Machine` (its integers stay integers: `integer.max + 1L` overflows
/// to NA) and `as.matrix` of a dist object, named 1 to n.
#[test]
fn base_objects_match_r() {
    workflow_matches_r("base_objects");
}

/// Closures, mapply, Map, Reduce, Filter and replicate, random ones
/// included: their draws follow R's order on the seed's stream.
#[test]
fn closures_workflow_matches_r() {
    workflow_matches_r("closures");
}

/// Model accessors, sweep, as.vector, is.na of a data frame, aggregate
/// with several responses, type tests, coercions and the special and
/// trigonometric functions.
#[test]
fn library2_workflow_matches_r() {
    workflow_matches_r("library2");
}

/// What R refuses among library2's functions, flowcast refuses with R's
/// message, before or during the run (tests/fixtures/r/library2.R wrote
/// each case's steps and R's message).
#[test]
fn library2_refusals_are_rs() {
    r_json::assert_refusals_are_rs("library2_errors");
}

/// is.finite, is.infinite, is.nan, tcrossprod, relevel, oneway.test,
/// mcnemar.test, xtabs, rle, inverse.rle and cov2cor, with NA, empty
/// input, one element and ties.
#[test]
fn library3_matches_r() {
    workflow_matches_r("library3");
}

/// What R refuses among library3's functions, flowcast refuses with R's
/// message (tests/fixtures/r/library3.R wrote each case and R's message).
#[test]
fn library3_refusals_are_rs() {
    r_json::assert_refusals_are_rs("library3_errors");
}

/// Refusals R's types decide are found by `check`, before anything runs.
#[test]
fn library3_refusals_found_before_the_run() {
    check_fails(
        "r = 'relevel(c(1, 2), 1)'",
        2,
        "c(1, 2)",
        "'relevel' only for (unordered) factors",
    );
    check_fails(
        "c = 'cov2cor(matrix(1:6, 2))'",
        2,
        "matrix(1:6, 2)",
        "'V' is not a square numeric matrix",
    );
    check_fails(
        "m = 'mcnemar.test(c(1, 2))'",
        2,
        "c(1, 2)",
        "if 'x' is not a matrix, 'y' must be given",
    );
    run_fails(
        "f = 'factor(c(\"a\", \"b\"))'\nr = 'relevel(f, 5)'",
        "ref = 5 must be in 1L:2",
    );
}

/// confint of a glm would be R's profile-likelihood interval: flowcast
/// refuses it, naming the Wald interval it does compute, rather than give
/// a different number.
#[test]
fn confint_of_a_glm_names_the_alternative() {
    let steps = "x = 'c(1, 2, 3, 4, 5, 6)'\ny = 'c(0, 0, 1, 0, 1, 1)'\n\
                 g = 'glm(y ~ x, family = binomial)'\nc = 'confint(g)'";
    let (_dir, path) = workflow(steps);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("confint.default(fit)"), "{err}");
    assert!(err.contains("profile-likelihood"), "{err}");
}

/// `check` refuses the workflow with `message`, pointing at `at` on line
/// `line` (the first step is on line 2).
#[track_caller]
fn check_fails(steps: &str, line: usize, at: &str, message: &str) {
    let (_dir, path) = workflow(steps);
    let out = flowcast(&["check", path.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{steps}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let step_line = steps.lines().nth(line - 2).unwrap();
    let column = step_line.find(at).expect("`at` is in the step") + 1;
    assert!(
        err.contains(&format!(":{line}:{column}")),
        "expected line {line} column {column} in: {err}"
    );
    assert!(err.contains(message), "expected {message:?} in: {err}");
}

/// `run` fails with `message` in a step.
#[track_caller]
fn run_fails(steps: &str, message: &str) {
    let (_dir, path) = workflow(steps);
    let out = flowcast(&["run", "--headless", path.to_str().unwrap()]);
    let err = text(&out.stderr) + &text(&out.stdout);
    assert_ne!(out.status.code(), Some(0), "{steps}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(message), "expected {message:?} in: {err}");
}

/// A closure's errors point into its body; a function value where no
/// function is taken is refused where it stands; its parameters shadow
/// steps but nothing else is in scope.
#[test]
fn closures_are_checked_where_they_are_written() {
    check_fails(
        "x = '1:3'\na = 'sapply(x, function(v) v + zz)'",
        3,
        "zz",
        "object `zz` not found",
    );
    check_fails(
        "a = 'mean(function(v) v)'",
        2,
        "function(v)",
        "a function(...) is a value only as the function argument of",
    );
    check_fails(
        "x = '1:3'\na = 'sapply(x, function(v) log(v, \"a\"))'",
        3,
        "\"a\"))",
        "non-numeric argument to mathematical function",
    );
    check_fails(
        "x = '1:3'\na = 'sapply(x, function(v, v) v)'",
        3,
        "v) v)",
        "repeated formal argument 'v'",
    );
    check_fails(
        "x = '1:3'\na = 'Reduce(function(a) a, x)'",
        3,
        "function(a)",
        "unused argument",
    );
    // Random functions are taken inside a closure, whose draws the step
    // counts; by name their draws would go unseen.
    check_fails(
        "a = 'sapply(1:3, rnorm)'",
        2,
        "rnorm",
        "draws random numbers",
    );
    // A closure's error at run time names the body's call.
    run_fails(
        "x = 'c(4, -1)'\na = 'sapply(x, function(v) chol(matrix(v, 1, 1)))'",
        "the leading minor of order 1 is not positive",
    );
}

/// Braces, local assignments, `if` and `%%` (in steps and closures, random
/// ones included) give R's values.
#[test]
fn statements_workflow_matches_r() {
    workflow_matches_r("statements");
}

#[test]
fn cleaning_workflow_matches_r() {
    workflow_matches_r("cleaning");
}

/// A statement's errors are R's, placed where they stand; a local is not
/// seen outside the step that assigns it.
#[test]
fn statements_are_checked_where_they_are_written() {
    check_fails(
        "x = 'c(1, 2)'\na = 'if (x > 1) 1 else 2'",
        3,
        "x > 1)",
        "the condition has length > 1",
    );
    check_fails(
        "a = '{ b <- 1; b }'\nc = 'b + 1'",
        3,
        "b + 1",
        "object `b` not found",
    );
    check_fails(
        "a = 'sapply(1:3, function(i) { if (i > 1) { y <- i }; y + k })'",
        2,
        "k })",
        "object `k` not found",
    );
    check_fails(
        "a = 'if (character(0)) 1'",
        2,
        "character(0)",
        "argument is of length zero",
    );
    run_fails(
        "x = 'c(1, NA)'\na = 'sapply(x, function(v) if (v > 0) 1 else 0)'",
        "missing value where TRUE/FALSE needed",
    );
    run_fails(
        "x = 'c(\"yes\", \"no\")'\na = 'sapply(x, function(v) if (v) 1 else 0)'",
        "argument is not interpretable as logical",
    );
    run_fails(
        "x = 'c(1, NA)'\na = '{ if (anyNA(x)) stop(\"x has \", sum(is.na(x)), \" NA\"); x }'",
        "x has 1 NA",
    );
}

/// A function step is called where it is used; its errors name the use.
#[test]
fn function_steps_are_checked_where_they_are_used() {
    check_fails(
        "f = 'function(v) g(v)'\ng = 'function(v) f(v) + 1'\na = 'f(2)'",
        3,
        "f(v)",
        "`f` → `g` → `f` call each other in a cycle",
    );
    check_fails(
        "f = 'function(v, w) v + w'\na = 'f(1)'",
        3,
        "f(1)",
        "argument \"w\" is missing, with no default",
    );
    check_fails(
        "f = 'function(v) v + 1'\na = 'mean(f)'",
        3,
        "f)",
        "a function(...) is a value only as the function argument of",
    );
    check_fails(
        "f = 'function(v) v + 1'",
        2,
        "f = ",
        "every step is a function",
    );
    check_fails(
        "f = 'function(v) v + zz'\na = 'f(1)'",
        2,
        "zz",
        "object `zz` not found",
    );
}

/// A function assigned in a step's statements is put in at each use after
/// it (its values are in the ops fixture; one calling itself is in the
/// recursion fixture); one whose body reads a name that means something
/// else where it is called is refused at the use.
#[test]
fn local_functions_are_checked_where_they_are_used() {
    check_fails(
        "a = '{ k <- 2; f <- function(v) v * k; sapply(1:3, function(k) f(k)) }'",
        2,
        "f(k)",
        "`f` reads `k`, which is another variable here",
    );
    check_fails(
        "a = '{ f <- function(v) v + 1; f <- 3; f(2) }'",
        2,
        "f(2)",
        "could not find function \"f\": `f` holds num[1] = 3, not a function",
    );
}

/// Statements on separate lines of a multi-line string run as one block
/// does, in a step and in a loop body; each loop iteration's locals are its
/// own, so the loop's value is the same on any number of workers.
#[test]
fn statements_on_lines_run_as_a_block() {
    let steps = "x = 'c(3, 1, 4, 1, 5, 9, 2, 6)'\n\
                 lines = '''\n  m <- mean(x)\n  s = sd(x)\n  if (s > 1)\n    (x - m) / s\n  else x - m\n'''\n\
                 braces = '{ m <- mean(x); s = sd(x); if (s > 1) (x - m) / s else x - m }'\n\
                 each = { for = 'i in 1:8', do = '''\n  v <- x[i]\n  if (v %% 2 == 0) v %/% 2 else 3 * v + 1\n''' }\n\
                 each_r = 'ifelse(x %% 2 == 0, x %/% 2, 3 * x + 1)'";
    let (dir, path) = workflow(steps);
    let mut values = Vec::new();
    for p in ["1", "2"] {
        let out_dir = dir.path().join(format!("out{p}"));
        let out = common::flowcast_command()
            .args(["run", "--headless", "--no-cache", "-p", p, "--out"])
            .arg(&out_dir)
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let read = |step: &str| {
            serde_json::from_str::<Json>(
                &std::fs::read_to_string(out_dir.join(format!("{step}.json"))).unwrap(),
            )
            .unwrap()
        };
        assert_eq!(read("lines"), read("braces"));
        assert_eq!(read("each"), read("each_r"));
        assert_eq!(read("each"), serde_json::json!([10, 4, 2, 4, 16, 28, 1, 3]));
        values.push(read("lines"));
    }
    assert_eq!(values[0], values[1]);
}

#[test]
fn comparisons_do_not_chain() {
    check_fails("a = '1 < 2 < 3'", 2, "< 3", "comparisons do not chain in R");
}

#[test]
fn logical_operators_refuse_text_before_the_run() {
    check_fails(
        "a = 'c(\"a\", \"b\") & TRUE'",
        2,
        "c(\"a\"",
        "operations are possible only for numeric, logical or complex types",
    );
    check_fails(
        "a = '\"a\" && TRUE'",
        2,
        "\"a\" &&",
        "invalid 'x' type in 'x && y'",
    );
}

#[test]
fn mixing_positive_and_negative_subscripts_is_r_error() {
    check_fails(
        "x = 'c(1, 2, 3)'\ny = 'x[c(-1, 2)]'",
        3,
        "c(-1, 2)",
        "only 0's may be mixed with negative subscripts",
    );
}

#[test]
fn which_wants_logicals() {
    check_fails(
        "x = 'c(1, 2, 3)'\ny = 'which(x)'",
        3,
        "x)",
        "argument to 'which' is not logical",
    );
}

/// Each step's value of a successful run of `steps`, as `--out` writes
/// it (JSON, trimmed), by step name.
fn run_values(steps: &str) -> std::collections::HashMap<String, String> {
    let (dir, path) = workflow(steps);
    let out_dir = dir.path().join("out");
    let out = flowcast(&[
        "run",
        "--headless",
        "--no-cache",
        "--out",
        out_dir.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (
                name,
                std::fs::read_to_string(&p).unwrap().trim().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_right_side_of_a_decided_and_is_not_evaluated() {
    // A right side that would fail at run time is never reached, as in R.
    let values =
        run_values("a = 'FALSE && solve(matrix(0, 2, 2))'\nb = 'TRUE || solve(matrix(0, 2, 2))'");
    assert_eq!(values["a"], "false");
    assert_eq!(values["b"], "true");
}

/// R's match.fun: a step named like a function does not hide the function
/// in a function argument, unless it holds one string, the name of the
/// function meant (values printed by R 4.2.2).
#[test]
fn a_step_named_like_a_function_leaves_the_function() {
    let values = run_values(
        "m = 'matrix(1:6, 2)'\nsum = 'sum(m)'\nmean = \"'max'\"\n\
         a = 'apply(m, 2, sum)'\nb = 'sapply(list(1:3, 4:9), mean)'\n\
         c = { for = 'i in 1:2', do = 'apply(m, 1, sum)[i]' }",
    );
    assert_eq!(values["a"], "[3,7,11]");
    assert_eq!(values["b"], "[3,9]");
    assert_eq!(values["c"], "[9,12]");
}

/// A factor sorts and orders by its codes, the order of its levels, not
/// by its labels (values printed by R 4.2.2).
#[test]
fn factors_sort_by_their_levels() {
    let values = run_values(
        "f = 'factor(c(\"b\", \"a\", \"c\", \"a\", NA), levels = c(\"c\", \"b\", \"a\"))'\n\
         s = 'as.integer(sort(f))'\no = 'order(f)'\n\
         d = 'as.character(sort(f, decreasing = TRUE))'\ni = 'as.integer(sort.int(f))'",
    );
    assert_eq!(values["s"], "[1,2,3,3]");
    assert_eq!(values["o"], "[3,1,2,4,5]");
    assert_eq!(values["d"], r#"["a","a","b","c"]"#);
    assert_eq!(values["i"], "[1,2,3,3]");
}

#[test]
fn outer_refuses_random_functions() {
    check_fails(
        "a = 'outer(1:2, 1:3, \"rnorm\")'",
        2,
        "\"rnorm\"",
        "draws random numbers",
    );
}

#[test]
fn rank_random_ties_are_refused_clearly() {
    check_fails(
        "a = 'rank(c(1, 1, 2), ties.method = \"random\")'",
        2,
        "ties.method",
        "not supported by flowcast",
    );
}

#[test]
fn unknown_functions_get_honest_suggestions() {
    // (The distribution families are all complete now; suggest.rs's unit
    // tests cover the family hint for a missing member.)
    // Every test of R's stats is flowcast's now: one of tseries' stands in.
    let (_dir, path) = workflow("b = 'jarque.bera.test(c(1, 2, 3))'");
    let err = text(&flowcast(&["check", path.to_str().unwrap()]).stderr);
    assert!(
        err.contains("could not find function `jarque.bera.test`"),
        "{err}"
    );
    assert!(!err.contains("did you mean"), "{err}");
    assert!(err.contains("flowcast has these tests: "), "{err}");
    let (_dir, path) = workflow("b = 'wilcox.tset(c(1, 2, 3))'");
    let err = text(&flowcast(&["check", path.to_str().unwrap()]).stderr);
    assert!(err.contains("did you mean `wilcox.test`?"), "{err}");
}

/// More names than elements is R's error; fewer are padded with NA
/// (names.toml checks the values).
#[test]
fn set_names_refuses_too_many_names_as_r_does() {
    run_fails(
        "a = 'setNames(c(1, 2), c(\"a\", \"b\", \"c\"))'",
        "'names' attribute [3] must be the same length as the vector [2]",
    );
}

#[test]
fn the_functions_page_is_what_the_command_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = flowcast(&["functions"]);
    assert!(out.status.success());
    let page = std::fs::read_to_string(root.join("assets/functions.md")).unwrap();
    assert_eq!(
        text(&out.stdout),
        page,
        "assets/functions.md is stale: regenerate it with \
         `cargo run -- functions > assets/functions.md`"
    );
    for f in [
        "`` `>=`(e1, e2) ``",
        "`rank(x, [na.last], [ties.method])`",
        "`rnorm(n, [mean], [sd])` (draws",
    ] {
        assert!(page.contains(f), "{f} missing");
    }
    let only = text(&flowcast(&["functions", "cum"]).stdout);
    assert_eq!(
        only,
        "- `cummax(x)`\n- `cummin(x)`\n- `cumprod(x)`\n- `cumsum(x)`\n"
    );
}

/// optimize and uniroot read one number from `f`: a function of another
/// shape is refused before the run, with the message R gives when it
/// reads the value; the data decide the rest, at run time, as in R.
#[test]
fn one_dimensional_search_mistakes_are_rs() {
    check_fails(
        "a = 'optimize(function(m) c(m, m), c(0, 1))'",
        2,
        "function(m)",
        "invalid function value in 'optimize'",
    );
    check_fails(
        "a = 'uniroot(function(x) c(x, x), c(-1, 1))'",
        2,
        "function(x)",
        "invalid function value in 'zeroin'",
    );
    run_fails(
        "a = 'uniroot(function(x) x + 5, c(0, 1))'",
        "f() values at end points not of opposite sign",
    );
    run_fails(
        "a = 'optimize(function(m) m, lower = 2, upper = 1)'",
        "'xmin' not less than 'xmax'",
    );
    run_fails(
        "a = 'uniroot(function(x) x, c(-1, 1), extendInt = \"maybe\")'",
        "'arg' should be one of \u{201c}no\u{201d}, \u{201c}yes\u{201d}, \u{201c}downX\u{201d}, \u{201c}upX\u{201d}",
    );
}

/// optim and optimHess refuse what R refuses, with R's messages: a
/// function of the wrong shape before the run (fn of one number, gr of
/// par's length), the data's mistakes at run time.
#[test]
fn optim_mistakes_are_rs() {
    check_fails(
        "a = 'optim(c(1, 2), function(p) p)'",
        2,
        "function(p)",
        "objective function in optim evaluates to length 2 not 1",
    );
    check_fails(
        "a = 'optim(c(1, 2), function(p) sum(p^2), function(q) 1, method = \"BFGS\")'",
        2,
        "function(q)",
        "gradient in optim evaluated to length 1 not 2",
    );
    check_fails(
        "a = 'optim(function(p) p, 1)'",
        2,
        "function(p)",
        "a function(...) is a value only as the function argument of",
    );
    for (steps, message) in [
        (
            "a = 'optim(c(1, 2), function(p) sum(p^2), method = \"Newton\")'",
            "'arg' should be one of \u{201c}Nelder-Mead\u{201d}, \u{201c}BFGS\u{201d}, \
             \u{201c}CG\u{201d}, \u{201c}L-BFGS-B\u{201d}, \u{201c}SANN\u{201d}, \u{201c}Brent\u{201d}",
        ),
        (
            "a = 'optim(c(1, 2), function(p) sum(p^2), method = \"Brent\", lower = 0, upper = 1)'",
            "method = \"Brent\" is only available for one-dimensional optimization",
        ),
        (
            "a = 'optim(1, function(p) sum(p^2), method = \"Brent\")'",
            "'lower' and 'upper' must be finite values",
        ),
        (
            "a = 'optim(c(1, 2), function(p) if (p[1] == 1) NA else 1)'",
            "function cannot be evaluated at initial parameters",
        ),
        (
            "a = 'optim(c(1, 2), function(p) if (p[1] == 1) Inf else 1, method = \"BFGS\")'",
            "initial value in 'vmmin' is not finite",
        ),
        (
            "a = 'optim(c(1, 2), function(p) sum(p^2), control = list(parscale = 1))'",
            "'parscale' is of the wrong length",
        ),
        (
            "a = 'optim(c(1, 2), function(p) if (p[1] > 1) Inf else sum(p^2), method = \"BFGS\")'",
            "non-finite finite-difference value [1]",
        ),
        (
            "a = 'optim(c(1, 2), function(p) sum(p^2), control = list(maxit = NA))'",
            "'maxit' is not an integer",
        ),
        (
            "a = 'optim(c(1, 2), function(p) sum(p^2), method = \"BFGS\", control = list(ndeps = 1))'",
            "'ndeps' is of the wrong length",
        ),
        (
            "a = 'optim(c(1, 2), function(p) sum(p^2), method = \"CG\", control = list(type = 4))'",
            "unknown type in \"CG\" method of 'optim'",
        ),
        (
            "a = 'optim(c(1, 2), function(p) if (p[1] == 1) Inf else 1, method = \"L-BFGS-B\")'",
            "L-BFGS-B needs finite values of 'fn'",
        ),
    ] {
        run_fails(steps, message);
    }
}

/// Replacement assignment in statements (`x[i] <- v`, `d$col <- v`,
/// `names(x)[2] <- v`, …) gives R's values.
#[test]
fn replacement_workflow_matches_r() {
    workflow_matches_r("replace");
}

/// Operators and maths on data frames and factors (`d == -99`, `round(d)`,
/// `f == "ctrl"`), and `d[m] <- v` for a logical matrix `m`, give R's
/// values.
#[test]
fn frame_and_factor_operators_match_r() {
    workflow_matches_r("frame_ops");
}

/// R's refusals for operators on data frames and factors, before the run
/// where the types show them.
#[test]
fn frame_and_factor_operator_mistakes_are_rs() {
    let frame = "d = 'data.frame(g = c(\"a\", \"b\"), x = c(1, 2))'\n";
    check_fails(
        &format!("{frame}a = 'round(d)'"),
        3,
        "d)",
        "non-numeric-alike variable(s) in data frame: g",
    );
    check_fails(
        &format!("{frame}a = 'd * 2'"),
        3,
        "d * 2",
        "non-numeric argument to binary operator",
    );
    check_fails(
        &format!("{frame}a = 'd == d[, 2:1][, 1:1, drop = FALSE]'"),
        3,
        "d ==",
        "only defined for equally-sized data frames",
    );
    run_fails(
        &format!("{frame}a = '{{ e <- d; e[e == 1 | e == 2] <- c(5, 6, 7); e }}'"),
        "'value' is the wrong length",
    );
    check_fails(
        "a = 'round(factor(c(\"a\", \"b\")))'",
        2,
        "factor(",
        "\u{2018}round\u{2019} not meaningful for factors",
    );
    run_fails(
        "a = 'factor(c(\"a\", \"b\")) == factor(c(\"a\", \"c\"))'",
        "level sets of factors are different",
    );
    run_fails(
        "a = 'list(1, 2, 3) + data.frame(x = 1, y = 2)'",
        "list of length 3 not meaningful",
    );
}

/// Replacement mistakes fail with R's messages, at the assignment; a target
/// that cannot be assigned is refused where it stands.
#[test]
fn replacement_mistakes_are_rs() {
    run_fails(
        "x = 'c(3, -1, NA)'\na = '{ y <- x; y[c(1, NA)] <- c(1, 2); y }'",
        "NAs are not allowed in subscripted assignments",
    );
    run_fails(
        "a = '{ y <- c(1, 2); y[1] <- numeric(0); y }'",
        "replacement has length zero",
    );
    run_fails(
        "a = '{ e <- data.frame(u = 1:4); e$z <- 1:3; e }'",
        "replacement has 3 rows, data has 4",
    );
    run_fails(
        "a = '{ e <- data.frame(u = 1:2); e[, 3] <- 0; e }'",
        "new columns would leave holes after existing columns",
    );
    // R recycles a list of 2 over 3 columns (replace.toml's `cols_recycled`);
    // these it refuses.
    for (step, message) in [
        ("e[1:2, 'u'] <- 1:3", "replacement has 3 rows, data has 2"),
        ("e[1:3, 'u'] <- 1:2", "replacement has 2 rows, data has 4"),
        (
            "e[c(1, NA), 'u'] <- 1",
            "missing values are not allowed in subscripted assignments of data frames",
        ),
        (
            "e[c(TRUE, TRUE, TRUE, TRUE, TRUE), 'u'] <- 1",
            "non-existent rows not allowed",
        ),
        ("e[c('u', 'u')] <- 1", "duplicate subscripts for columns"),
        ("e[1, 'u'] <- NULL", "replacement has length zero"),
    ] {
        run_fails(
            &format!("a = \"{{ e <- data.frame(u = 1:4); {step}; e }}\""),
            message,
        );
    }
    run_fails(
        "a = '{ f <- factor(c(\"a\", \"b\")); levels(f) <- \"z\"; f }'",
        "number of levels differs",
    );
    run_fails(
        "a = '{ m <- matrix(1:4, 2); m[3, 1] <- 0; m }'",
        "subscript out of bounds",
    );
    run_fails(
        "a = '{ y <- 1; y[1e11] <- 2; length(y) }'",
        "cannot allocate vector of size",
    );
    run_fails(
        "a = '{ v <- 1:6; dim(v) <- c(4, 2); v }'",
        "dims [product 8] do not match the length of object [6]",
    );
    check_fails(
        "x = 'c(1, 2)'\na = '{ y <- x; y$a <- 1; y }'",
        3,
        "y$a",
        "$ operator is invalid for atomic vectors",
    );
    check_fails(
        "x = 'c(1, 2)'\na = '{ y <- x; rev(y) <- 1; y }'",
        3,
        "rev(y)",
        "cannot assign to this with `<-`",
    );
}

/// chol's blocked factorisation names the leading minor that fails, as
/// LAPACK's dpotrf does, in a block after the first.
#[test]
fn chol_names_the_failing_minor_past_the_first_block() {
    run_fails(
        "S = '{ S <- crossprod(matrix(sin(1:22500), 150)) + 150 * diag(150); S[100, 100] <- -1; S }'\nc = 'chol(S)'",
        "the leading minor of order 100 is not positive definite",
    );
}
